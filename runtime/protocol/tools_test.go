package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/typeschema"
)

// The tool set of a generated Server (tools.go): its codec, its calls and
// its messages; runtime/typeschema tests the schema engine.

func mustCodec[T any](t *testing.T, output bool) *typeschema.Codec {
	t.Helper()
	c, err := typeschema.ForInput(reflect.TypeFor[T]())
	if output {
		c, err = typeschema.ForOutput(reflect.TypeFor[T]())
	}
	if err != nil {
		t.Fatalf("codec of %s: %v", reflect.TypeFor[T](), err)
	}
	return c
}

type addArgs struct {
	A int64 `json:"a" jsonschema:"the first addend"`
	B int64 `json:"b"`
}

func TestToolCodecPanics(t *testing.T) {
	defer func() {
		r := recover()
		want := `mcp: tool "bad": arguments type: struct { C chan int }.C: type chan int has no JSON form`
		if r != want {
			t.Errorf("panic %v, want %q", r, want)
		}
	}()
	ToolCodec[struct{ C chan int }]("bad", false)
}

// decodeErr decodes data into a new T and returns the violations as
func TestArgumentsMessage(t *testing.T) {
	c := mustCodec[addArgs](t, false)
	var v addArgs
	err := c.Decode([]byte(`{"a":"forty"}`), &v)
	got := argumentsMessage("add", err)
	want := `invalid arguments for tool "add": /a: expected integer, got string; missing required member "b"`
	if got != want {
		t.Errorf("message:\n got %s\nwant %s", got, want)
	}
	var b strings.Builder
	b.WriteString(`{"a":1,"b":2`)
	for i := range 25 {
		b.WriteString(`,"x` + string(rune('a'+i)) + `":0`)
	}
	b.WriteString("}")
	err = c.Decode([]byte(b.String()), &v)
	got = argumentsMessage("add", err)
	if !strings.HasSuffix(got, `/xt: member "xt" is not allowed; and 5 more`) || strings.Count(got, "is not allowed") != 20 {
		t.Errorf("long message: %s", got)
	}
	got = argumentsMessage("add", &codec.SyntaxError{Offset: 3, Msg: "bad"})
	if want := `invalid arguments for tool "add": invalid JSON at offset 3: bad`; got != want {
		t.Errorf("syntax message %q, want %q", got, want)
	}
}

type result struct {
	Text    string
	IsError bool
}

func failedResult(msg string) *result { return &result{Text: msg, IsError: true} }

// taskAnswer is an error like RunAsTask's.
var taskAnswer = &taskCreated{result: []byte(`{"taskId":"t"}`)}

func TestCallTool(t *testing.T) {
	c := mustCodec[addArgs](t, false)
	sum := func(in addArgs) (*result, error) { return &result{Text: "sum"}, nil }
	for _, tc := range []struct {
		name    string
		args    string
		run     func(addArgs) (*result, error)
		want    *result
		wantErr error
	}{
		{"valid", `{"a":1,"b":2}`, sum, &result{Text: "sum"}, nil},
		{"invalid arguments", `{"a":1}`, sum, &result{Text: `invalid arguments for tool "add": missing required member "b"`, IsError: true}, nil},
		{"plain error", `{"a":1,"b":2}`, func(addArgs) (*result, error) { return nil, errors.New("division by zero") },
			&result{Text: "division by zero", IsError: true}, nil},
		{"nil result", `{"a":1,"b":2}`, func(addArgs) (*result, error) { return nil, nil }, &result{}, nil},
		{"rpc error", `{"a":1,"b":2}`, func(addArgs) (*result, error) {
			return nil, errors.Join(errors.New("wrapped"), &jsonrpc.RPCError{Code: -32001, Message: "nope"})
		}, nil, &jsonrpc.RPCError{Code: -32001, Message: "nope"}},
		{"need input", `{"a":1,"b":2}`, func(addArgs) (*result, error) { return nil, &InputRequired{} }, nil, &InputRequired{}},
		{"cancelled", `{"a":1,"b":2}`, func(addArgs) (*result, error) { return nil, context.Canceled }, nil, context.Canceled},
		// RunAsTask's error: the dispatcher answers with the task.
		{"task", `{"a":1,"b":2}`, func(addArgs) (*result, error) { return nil, fmt.Errorf("run: %w", taskAnswer) }, nil, taskAnswer},
	} {
		got, err := CallTool(c, "add", []byte(tc.args), tc.run, failedResult)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: result %+v, want %+v", tc.name, got, tc.want)
		}
		switch want := tc.wantErr.(type) {
		case nil:
			if err != nil {
				t.Errorf("%s: error %v", tc.name, err)
			}
		case *jsonrpc.RPCError:
			var re *jsonrpc.RPCError
			if !errors.As(err, &re) || !reflect.DeepEqual(re, want) {
				t.Errorf("%s: error %v, want %v", tc.name, err, want)
			}
		case *InputRequired:
			if _, ok := AsInputRequired(err); !ok {
				t.Errorf("%s: error %v, want NeedInput's", tc.name, err)
			}
		default:
			if !errors.Is(err, want) {
				t.Errorf("%s: error %v, want %v", tc.name, err, want)
			}
		}
	}
}

func TestToolSet(t *testing.T) {
	var s ToolSet[string, string, result]
	call := func(name string) func(context.Context, *string) (*result, error) {
		return func(_ context.Context, p *string) (*result, error) { return &result{Text: name + ":" + *p}, nil }
	}
	s.Add("b", "tool b", nil, call("b"))
	s.Add("a", "tool a", nil, call("a"))
	if got := s.List(); !reflect.DeepEqual(got, []string{"tool b", "tool a"}) {
		t.Errorf("list = %q, want the order of adding", got)
	}
	p := "x"
	r, err := s.Call(context.Background(), "a", &p)
	if err != nil || r.Text != "a:x" {
		t.Errorf("call a = %+v, %v", r, err)
	}
	_, err = s.Call(context.Background(), "nope", &p)
	var re *jsonrpc.RPCError
	if !errors.As(err, &re) || re.Code != jsonrpc.CodeInvalidParams || re.Message != `unknown tool "nope"` {
		t.Errorf("unknown tool: %v, want invalid params naming it", err)
	}
	mustPanic(t, `mcp: tool "a" is added twice`, func() { s.Add("a", "again", nil, call("a")) })
	mustPanic(t, `mcp: a tool needs a name`, func() { s.Add("", "none", nil, call("")) })
	if var0 := (&ToolSet[string, string, result]{}).List(); var0 == nil || len(var0) != 0 {
		t.Errorf("an empty set lists %#v, want an empty, non-nil slice", var0)
	}
}

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		if r := recover(); r != want {
			t.Errorf("panic %v, want %q", r, want)
		}
	}()
	f()
}

type schemaHolder struct {
	Members codec.Members
}

func (s *schemaHolder) UnmarshalJSON(b []byte) error {
	s.Members = codec.Members{{Name: "all", Value: json.RawMessage(b)}}
	if strings.Contains(string(b), "refuse") {
		return errors.New("refused")
	}
	return nil
}

func TestSetToolSchema(t *testing.T) {
	c := mustCodec[addArgs](t, false)
	var h schemaHolder
	SetToolSchema("add", "inputSchema", &h, c)
	if len(h.Members) != 1 || string(h.Members[0].Value) != string(c.Schema()) {
		t.Errorf("filled %+v", h)
	}
	mustPanic(t, `mcp: tool "add": inputSchema is derived from the Go type; leave it empty`, func() { SetToolSchema("add", "inputSchema", &h, c) })
	bad := mustCodec[struct {
		S string `json:"refuse"`
	}](t, false)
	mustPanic(t, `mcp: tool "x": inputSchema {"type":"object","properties":{"refuse":{"type":"string"}},"required":["refuse"],"additionalProperties":false}: refused`,
		func() { SetToolSchema("x", "inputSchema", &schemaHolder{}, bad) })
}
