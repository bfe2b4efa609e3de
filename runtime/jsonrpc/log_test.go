package jsonrpc_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// records is a slog.Handler that keeps every record, at every level.
type records struct{ list []slog.Record }

func (r *records) Enabled(context.Context, slog.Level) bool { return true }
func (r *records) Handle(_ context.Context, rec slog.Record) error {
	r.list = append(r.list, rec)
	return nil
}
func (r *records) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *records) WithGroup(string) slog.Handler      { return r }

func attrsOf(rec slog.Record) map[string]string {
	m := map[string]string{}
	rec.Attrs(func(a slog.Attr) bool {
		m[a.Key] = a.Value.String()
		return true
	})
	return m
}

// TestLogger: the dispatcher logs through its *slog.Logger what goes
// wrong outside a response, with the convention's attribute names, and
// nothing for requests that are simply answered.
func TestLogger(t *testing.T) {
	rec := &records{}
	d := &jsonrpc.Dispatcher{Logger: slog.New(rec), Methods: map[string]*jsonrpc.Method{
		"ok":   {Call: func(context.Context, []byte) (jsonrpc.Result, error) { return jsonrpc.RawResult(`{}`), nil }},
		"boom": {Call: func(context.Context, []byte) (jsonrpc.Result, error) { panic("kaboom") }},
		"fails": {Call: func(context.Context, []byte) (jsonrpc.Result, error) {
			return nil, &jsonrpc.RPCError{Code: -32001, Message: "no"}
		}},
	}}
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		d.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"ok"}`))
		d.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"fails"}`))
	}
	if len(rec.list) != 0 {
		t.Fatalf("answered requests were logged: %v", rec.list)
	}
	if resp := d.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":7,"method":"boom"}`)); !bytes.Contains(resp, []byte(`-32603`)) {
		t.Fatalf("a panic: %s", resp)
	}
	d.Handle(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/nobody"}`))
	if len(rec.list) != 2 {
		t.Fatalf("%d records, want the panic and the dropped notification: %v", len(rec.list), rec.list)
	}
	p, n := rec.list[0], rec.list[1]
	if a := attrsOf(p); p.Level != slog.LevelError || a["mcp.method.name"] != "boom" || a["panic"] != "kaboom" || !strings.Contains(a["stack"], "goroutine") {
		t.Errorf("the panic's record: %v %q %v", p.Level, p.Message, a)
	}
	if a := attrsOf(n); n.Level != slog.LevelWarn || a["mcp.method.name"] != "notifications/nobody" {
		t.Errorf("the dropped notification's record: %v %q %v", n.Level, n.Message, a)
	}
}
