package protocol

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/typeschema"
)

// ToolCodec returns the codec of T for the tool named tool, or panics
// with an error that says what in T has no schema: adding a tool is a
// program's own setup, and a type that cannot work must not wait for the
// first call to show it.
func ToolCodec[T any](tool string, output bool) *typeschema.Codec {
	c, err := typeschema.ForInput(reflect.TypeFor[T]())
	what := "arguments"
	if output {
		c, err = typeschema.ForOutput(reflect.TypeFor[T]())
		what = "structured result"
	}
	if err != nil {
		panic("mcp: tool " + codec.Quote(tool) + ": " + what + " type: " + err.Error())
	}
	return c
}

// SetToolSchema fills dst (a tool's empty inputSchema or outputSchema)
// with the schema of c, or panics if dst is not empty or cannot hold it.
func SetToolSchema(tool, member string, dst interface{ UnmarshalJSON([]byte) error }, c *typeschema.Codec) {
	if !reflect.ValueOf(dst).Elem().IsZero() {
		panic("mcp: tool " + codec.Quote(tool) + ": " + member + " is derived from the Go type; leave it empty")
	}
	if err := dst.UnmarshalJSON(c.Schema()); err != nil {
		panic("mcp: tool " + codec.Quote(tool) + ": " + member + " " + string(c.Schema()) + ": " + err.Error())
	}
}

// maxToolViolations bounds the violations an invalid-arguments message
// lists.
const maxToolViolations = 20

// argumentsMessage is the text of the tool execution error that answers
// arguments the schema refuses: each violation, with its JSON pointer
// within the arguments.
func argumentsMessage(tool string, err error) string {
	var b strings.Builder
	b.WriteString("invalid arguments for tool ")
	b.WriteString(codec.Quote(tool))
	b.WriteString(": ")
	var ve *codec.ValidationError
	if !errors.As(err, &ve) {
		b.WriteString(err.Error())
		return b.String()
	}
	for i, v := range ve.Violations {
		if i == maxToolViolations {
			b.WriteString("; and ")
			b.WriteString(strconv.Itoa(len(ve.Violations) - i))
			b.WriteString(" more")
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		if v.Pointer != "" {
			b.WriteString(v.Pointer)
			b.WriteString(": ")
		}
		b.WriteString(v.Message)
	}
	return b.String()
}

// CallTool runs a typed tool: it decodes args into an In (arguments the
// schema refuses are answered with failed, a tool execution error, as
// tools.mdx asks), runs the tool, and maps what it returns. An error that
// is an *jsonrpc.RPCError, NeedInput's or the context's stays an error (a protocol
// error, or no response); any other error is a tool execution error (its
// text in a result with isError). A nil result is an empty one.
func CallTool[In, R any](c *typeschema.Codec, tool string, args []byte, run func(In) (*R, error), failed func(msg string) *R) (*R, error) {
	var in In
	if err := c.Decode(args, &in); err != nil {
		return failed(argumentsMessage(tool, err)), nil
	}
	r, err := run(in)
	if err != nil {
		if toolProtocolError(err) {
			return nil, err
		}
		return failed(err.Error()), nil
	}
	if r == nil {
		r = new(R)
	}
	return r, nil
}

// toolProtocolError reports whether a tool's error is answered as a
// JSON-RPC error (or not at all) rather than as a tool execution error.
func toolProtocolError(err error) bool {
	var re *jsonrpc.RPCError
	if errors.As(err, &re) {
		return true
	}
	if _, ok := AsInputRequired(err); ok {
		return true
	}
	// RunAsTask's error answers the call with a task.
	var a jsonrpc.Answer
	if errors.As(err, &a) {
		return true
	}
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// StructuredResult encodes a tool's structured result, or returns an
// internal error: a result the output schema refuses is not sent.
func StructuredResult(c *typeschema.Codec, tool string, v any) ([]byte, error) {
	b, err := c.Encode(v)
	if err != nil {
		return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: tool " + codec.Quote(tool) + ": structured result: " + err.Error()}
	}
	return b, nil
}

// ToolSet holds the tools of a Server: T is the revision's Tool, P and R
// its tools/call params and result. It is safe for concurrent use.
type ToolSet[T, P, R any] struct {
	Entries[T, func(context.Context, *P) (*R, error)]
	// headers are the x-mcp-header bindings of the tools that have any.
	headers sync.Map // string -> []paramHeader
}

// Add adds a tool whose arguments args decodes; a name already in the set
// panics.
func (s *ToolSet[T, P, R]) Add(name string, t T, args *typeschema.Codec, call func(context.Context, *P) (*R, error)) {
	if name == "" {
		panic("mcp: a tool needs a name")
	}
	if !s.Entries.Add(name, t, call) {
		panic("mcp: tool " + codec.Quote(name) + " is added twice")
	}
	if args != nil {
		if b, err := paramHeaders(args.Schema()); err == nil && len(b) > 0 {
			s.headers.Store(name, b)
		}
	}
}

// Remove removes the named tools and returns how many it removed.
func (s *ToolSet[T, P, R]) Remove(names ...string) int {
	for _, n := range names {
		s.headers.Delete(n)
	}
	return s.Entries.Remove(names...)
}

// toolHeaders returns the x-mcp-header bindings of a tool of the set, and
// whether the set has the tool.
func (s *ToolSet[T, P, R]) toolHeaders(name string) ([]paramHeader, bool) {
	if _, ok := s.Func(name); !ok {
		return nil, false
	}
	b, _ := s.headers.Load(name)
	h, _ := b.([]paramHeader)
	return h, true
}

// Call runs the tool called name; an unknown name is the protocol error
// tools.mdx gives it, invalid params.
func (s *ToolSet[T, P, R]) Call(ctx context.Context, name string, p *P) (*R, error) {
	call, ok := s.Func(name)
	if !ok {
		return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "unknown tool " + codec.Quote(name)}
	}
	return call(ctx, p)
}

// ErrToolsCursor answers a tools/list cursor: a Tools lists every tool on
// one page, so no cursor is valid (pagination.mdx: invalid params).
var ErrToolsCursor = &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor: this server lists all its tools on one page"}
