package bench

import (
	"context"
	"testing"

	mcpgen "github.com/mcpgen/mcpgen/generated/mcp20260728"
	rpc "github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// BenchmarkDispatchMiddleware (beside BenchmarkDispatch): tools/call
// through ServerDispatcher.Handle, as McpgenHandle/ToolsCall, with no
// middleware (None: the dispatcher BenchmarkDispatch times), with one
// middleware that only calls next (PassThrough), and with three
// (PassThrough3). None against BenchmarkDispatch's McpgenHandle/ToolsCall
// of the commit before the middleware is what "adds no allocations when
// unused" is measured by (bench/RESULTS.md); PassThrough against None is
// the price of using it.
func BenchmarkDispatchMiddleware(b *testing.B) {
	responses := theDispResponses(b)
	var call struct{ name, msg string }
	for _, r := range dispRequests {
		if r.name == "ToolsCall" {
			call.name, call.msg = r.name, r.msg
		}
	}
	pass := func(next mcpgen.Handler) mcpgen.Handler {
		return func(ctx context.Context, m *mcpgen.Call) (rpc.Result, error) { return next(ctx, m) }
	}
	for _, c := range []struct {
		name string
		mw   []mcpgen.Middleware
	}{
		{"None", nil},
		{"PassThrough", []mcpgen.Middleware{pass}},
		{"PassThrough3", []mcpgen.Middleware{pass, pass, pass}},
	} {
		b.Run(c.name, func(b *testing.B) {
			rt := &handleRT{d: newMcpgenDispatcher(c.mw...), ctx: context.Background()}
			dispLoop(b, rt, []byte(call.msg), responses[call.name])
		})
	}
}

// TestMiddlewareAllocs: a dispatcher with no middleware allocates no more
// for a tools/call than the same dispatcher made with an empty Middleware
// list, and a pass-through middleware costs a bounded few allocations
// (the Call and the serving of the rest of the chain), not
// per-byte work.
func TestMiddlewareAllocs(t *testing.T) {
	var msg []byte
	for _, r := range dispRequests {
		if r.name == "ToolsCall" {
			msg = []byte(r.msg)
		}
	}
	pass := func(next mcpgen.Handler) mcpgen.Handler {
		return func(ctx context.Context, m *mcpgen.Call) (rpc.Result, error) { return next(ctx, m) }
	}
	allocs := func(d *mcpgen.ServerDispatcher) float64 {
		ctx := context.Background()
		if d.Handle(ctx, msg) == nil {
			t.Fatal("no response")
		}
		return testing.AllocsPerRun(200, func() { d.Handle(ctx, msg) })
	}
	none := allocs(newMcpgenDispatcher())
	empty := allocs(newMcpgenDispatcher([]mcpgen.Middleware{}...))
	one := allocs(newMcpgenDispatcher(pass))
	if empty != none {
		t.Errorf("an empty Middleware list: %v allocations per tools/call, none: %v", empty, none)
	}
	if one < none || one > none+2 {
		t.Errorf("one pass-through middleware: %v allocations per tools/call, none: %v; want at most 2 more", one, none)
	}
	t.Logf("allocations per tools/call: no middleware %v, one pass-through %v", none, one)
}
