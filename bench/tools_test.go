package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The tool set's input schemas and argument checking (issue 12), two ways:
//
//	Mcpgen      what the generated packages have: mcp.AddTool derives the
//	            schema by reflection and Tools.CallTool decodes the
//	            arguments into the Go type in one pass that checks the
//	            schema (runtime/typeschema, standard library only).
//	JSONSchema  the same set built on github.com/google/jsonschema-go
//	            v0.4.3, the library go-sdk uses (jsonschemaTools below):
//	            jsonschema.For[In] and Resolve when a tool is added; per
//	            call json.Unmarshal into any, Resolved.Validate, then
//	            json.Unmarshal into In. go-sdk also applies defaults and
//	            marshals the arguments again between the two; this leaves
//	            that out, so it is a lower bound for the library's way.
//	JSON        the floor of a call: json.Unmarshal into In, no schema.
//
// BenchmarkToolArgs/Schema/<impl>/<tool> adds one tool to a new set per op
// (what a server does once per tool); BenchmarkToolArgs/Call/<impl>/<tool>
// answers one tools/call of that tool (what it does per request), through
// the set's CallTool, with a handler that returns a ready result. Each
// reports cpu-ns/op, the process's CPU time per op, next to ns/op.

// benchAdd is a small tool's arguments; benchSearch a larger one's, with
// an optional pointer, a nested struct, slices and a map.
type benchAdd struct {
	A int64 `json:"a" jsonschema:"the first addend"`
	B int64 `json:"b" jsonschema:"the second addend"`
}

type benchSearch struct {
	Query  string            `json:"query" jsonschema:"what to look for"`
	Limit  *int              `json:"limit,omitempty" jsonschema:"at most this many results"`
	Filter benchFilter       `json:"filter"`
	Tags   []string          `json:"tags,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

type benchFilter struct {
	Kinds    []string `json:"kinds"`
	MinScore float64  `json:"minScore,omitempty"`
	Exact    bool     `json:"exact,omitempty"`
}

// toolArgCases are the typical arguments of each tool.
var toolArgCases = []struct {
	tool string
	args string
}{
	{"add", `{"a":40,"b":2}`},
	{"search", `{"query":"golang generics","limit":10,"filter":{"kinds":["doc","code"],"minScore":0.5},"tags":["go","types"],"labels":{"lang":"en","site":"go.dev"}}`},
}

// toolCaller is what both sets are to a server: tools/call.
type toolCaller interface {
	CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error)
}

var okResult = &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "ok"}}}

// seen records the arguments each handler received, for the agreement test.
type seen struct {
	mu   sync.Mutex
	last any
}

func (s *seen) record(v any) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.last = v
	s.mu.Unlock()
}

func handlerFor[In any](s *seen) func(context.Context, *mcp.CallToolRequestParams, In) (*mcp.CallToolResult, error) {
	return func(_ context.Context, _ *mcp.CallToolRequestParams, in In) (*mcp.CallToolResult, error) {
		s.record(in)
		return okResult, nil
	}
}

// addMcpgen adds tool to an mcpgen set.
func addMcpgen(tools *mcp.Tools, tool string, s *seen) {
	switch tool {
	case "add":
		mcp.AddTool(tools, mcp.Tool{Name: tool}, handlerFor[benchAdd](s))
	case "search":
		mcp.AddTool(tools, mcp.Tool{Name: tool}, handlerFor[benchSearch](s))
	}
}

// jsonschemaTools is the tool set built on jsonschema-go.
type jsonschemaTools struct {
	tools map[string]*jsonschemaTool
}

type jsonschemaTool struct {
	tool mcp.Tool
	call func(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error)
}

func toolErrorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: msg}}, IsError: new(true)}
}

// addJSONSchema derives the schema with jsonschema.For, resolves it, puts
// it in the Tool as mcpgen does, and checks the Tool.
func addJSONSchema[In any](set *jsonschemaTools, tool mcp.Tool, h func(context.Context, *mcp.CallToolRequestParams, In) (*mcp.CallToolResult, error)) error {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		return err
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return err
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return err
	}
	if err := tool.InputSchema.UnmarshalJSON(b); err != nil {
		return err
	}
	if err := tool.Validate(); err != nil {
		return err
	}
	if set.tools == nil {
		set.tools = map[string]*jsonschemaTool{}
	}
	set.tools[tool.Name] = &jsonschemaTool{tool: tool, call: func(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		args := []byte(p.Arguments)
		if len(args) == 0 {
			args = []byte("{}")
		}
		var v any
		if err := json.Unmarshal(args, &v); err != nil {
			return toolErrorResult("invalid arguments: " + err.Error()), nil
		}
		if err := resolved.Validate(v); err != nil {
			return toolErrorResult("invalid arguments: " + err.Error()), nil
		}
		var in In
		if err := json.Unmarshal(args, &in); err != nil {
			return toolErrorResult("invalid arguments: " + err.Error()), nil
		}
		return h(ctx, p, in)
	}}
	return nil
}

func (s *jsonschemaTools) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	t, ok := s.tools[p.Name]
	if !ok {
		return nil, &mcp.RPCError{Code: mcp.CodeInvalidParams, Message: "unknown tool " + p.Name}
	}
	return t.call(ctx, p)
}

func addLibrary(set *jsonschemaTools, tool string, s *seen) error {
	switch tool {
	case "add":
		return addJSONSchema(set, mcp.Tool{Name: tool}, handlerFor[benchAdd](s))
	case "search":
		return addJSONSchema(set, mcp.Tool{Name: tool}, handlerFor[benchSearch](s))
	}
	return fmt.Errorf("no tool %q", tool)
}

// jsonFloor is the floor: json.Unmarshal into In, no schema.
type jsonFloor struct{}

func (jsonFloor) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	var err error
	switch p.Name {
	case "add":
		var in benchAdd
		err = json.Unmarshal(p.Arguments, &in)
	case "search":
		var in benchSearch
		err = json.Unmarshal(p.Arguments, &in)
	}
	if err != nil {
		return toolErrorResult(err.Error()), nil
	}
	return okResult, nil
}

func cpuLoop(b *testing.B, body func()) {
	b.ReportAllocs()
	cpu0 := cpuNanos()
	for b.Loop() {
		body()
	}
	b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N), "cpu-ns/op")
}

func BenchmarkToolArgs(b *testing.B) {
	ctx := context.Background()
	for _, c := range toolArgCases {
		b.Run("Schema/Mcpgen/"+c.tool, func(b *testing.B) {
			cpuLoop(b, func() { addMcpgen(&mcp.Tools{}, c.tool, nil) })
		})
		b.Run("Schema/JSONSchema/"+c.tool, func(b *testing.B) {
			cpuLoop(b, func() {
				if err := addLibrary(&jsonschemaTools{}, c.tool, nil); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
	for _, c := range toolArgCases {
		p := &mcp.CallToolRequestParams{Name: c.tool, Arguments: json.RawMessage(c.args)}
		tools := &mcp.Tools{}
		addMcpgen(tools, c.tool, nil)
		lib := &jsonschemaTools{}
		if err := addLibrary(lib, c.tool, nil); err != nil {
			b.Fatal(err)
		}
		for _, impl := range []struct {
			name string
			set  toolCaller
		}{{"Mcpgen", tools}, {"JSONSchema", lib}, {"JSON", jsonFloor{}}} {
			b.Run("Call/"+impl.name+"/"+c.tool, func(b *testing.B) {
				r, err := impl.set.CallTool(ctx, p)
				if err != nil || r.GetIsError() {
					b.Fatalf("%s: %+v, %v", c.args, r, err)
				}
				cpuLoop(b, func() { impl.set.CallTool(ctx, p) })
			})
		}
	}
	runtime.GC()
}

// TestToolArgsAgree: mcpgen's decoder accepts exactly the arguments that
// jsonschema-go accepts against mcpgen's own schema (the schema it lists
// and the checks it makes are the same thing), and what it accepts it
// decodes as encoding/json does. Against jsonschema-go's own schema for
// the type (the JSONSchema set), the verdicts differ only where the two
// schemas differ, each case named.
func TestToolArgsAgree(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		tool, args string
		// ownDiffers is why jsonschema-go's verdict on mcpgen's schema
		// differs from mcpgen's, libDiffers why the JSONSchema set's
		// does; "" where they agree.
		ownDiffers, libDiffers string
	}{
		{"add", `{"a":40,"b":2}`, "", ""},
		{"add", `{"a":4e1,"b":2.0}`, "", "JSON Schema counts 4e1 and 2.0 as integers; encoding/json does not fit them in an int64, so the set refuses what its schema accepts"},
		{"add", `{"a":1.5,"b":2}`, "", ""},
		{"add", `{"a":"40","b":2}`, "", ""},
		{"add", `{"a":40}`, "", ""},
		{"add", `{}`, "", ""},
		{"add", ``, "", ""},
		{"add", `{"a":1,"b":2,"c":3}`, "", ""},
		{"add", `{"A":1,"b":2}`, "", ""},
		{"add", `{"a":null,"b":2}`, "", ""},
		{"add", `{"a":9223372036854775807,"b":0}`, "", ""},
		{"add", `{"a":9223372036854775808,"b":0}`, "the schema of an int64 states no bounds (they would be noise in every tool); mcpgen refuses 2^63, which no int64 holds", ""},
		{"search", toolArgCases[1].args, "", ""},
		{"search", `{"query":"q","filter":{"kinds":[]}}`, "", ""},
		{"search", `{"query":"q","filter":{"kinds":["a"],"extra":1}}`, "", ""},
		{"search", `{"query":"q","filter":{}}`, "", ""},
		{"search", `{"query":"q","filter":{"kinds":["a",2]}}`, "", ""},
		{"search", `{"query":"q","filter":{"kinds":["a"]},"labels":{"k":1}}`, "", ""},
		{"search", `{"query":"q","filter":{"kinds":["a"]},"tags":"go"}`, "", ""},
		{"search", `{"query":"q","limit":null,"filter":{"kinds":["a"]}}`, "", "jsonschema.For makes a pointer nullable; mcpgen's pointers are optional, not nullable"},
		{"search", `{"query":"q","filter":{"kinds":null}}`, "", "jsonschema.For makes a slice nullable; mcpgen's slices are arrays"},
		{"search", `{"query":"q","filter":{"kinds":["a"]},"tags":null}`, "", "jsonschema.For makes a slice nullable; mcpgen's slices are arrays"},
	}
	tools := &mcp.Tools{}
	lib := &jsonschemaTools{}
	seenMcpgen, seenLib := &seen{}, &seen{}
	for _, name := range []string{"add", "search"} {
		addMcpgen(tools, name, seenMcpgen)
		if err := addLibrary(lib, name, seenLib); err != nil {
			t.Fatal(err)
		}
	}
	// mcpgen's schemas, as tools/list lists them, resolved by jsonschema-go.
	listed, err := tools.ListTools(ctx, &mcp.PaginatedRequestParams{})
	if err != nil {
		t.Fatal(err)
	}
	own := map[string]*jsonschema.Resolved{}
	for _, tool := range listed.Tools {
		b, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		own[tool.Name] = r
	}
	for _, c := range cases {
		p := &mcp.CallToolRequestParams{Name: c.tool, Arguments: json.RawMessage(c.args)}
		seenMcpgen.last, seenLib.last = nil, nil
		rm, err := tools.CallTool(ctx, p)
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		rl, err := lib.CallTool(ctx, p)
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		mcpgenOK := !rm.GetIsError()
		// The verdict of jsonschema-go on mcpgen's schema.
		args := c.args
		if args == "" {
			args = "{}"
		}
		var v any
		if err := json.Unmarshal([]byte(args), &v); err != nil {
			t.Fatal(err)
		}
		ownOK := own[c.tool].Validate(v) == nil
		if (mcpgenOK != ownOK) != (c.ownDiffers != "") {
			t.Errorf("%s %s: mcpgen accepts: %v, jsonschema-go on mcpgen's schema: %v (%s); expected to differ: %q", c.tool, c.args, mcpgenOK, ownOK, text(rm), c.ownDiffers)
		}
		libOK := !rl.GetIsError()
		if (libOK != mcpgenOK) != (c.libDiffers != "") {
			t.Errorf("%s %s: mcpgen accepts: %v, the jsonschema-go set: %v (%s / %s); expected to differ: %q", c.tool, c.args, mcpgenOK, libOK, text(rm), text(rl), c.libDiffers)
		}
		if mcpgenOK && libOK && !reflect.DeepEqual(seenMcpgen.last, seenLib.last) {
			t.Errorf("%s %s: mcpgen decoded %+v, encoding/json %+v", c.tool, c.args, seenMcpgen.last, seenLib.last)
		}
	}
}

func text(r *mcp.CallToolResult) string {
	if r == nil || len(r.Content) == 0 {
		return ""
	}
	if tc, ok := r.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// TestToolArgsErrorMessages shows what each set tells a model about the
// same wrong arguments (the messages in RESULTS.md).
func TestToolArgsErrorMessages(t *testing.T) {
	ctx := context.Background()
	tools := &mcp.Tools{}
	lib := &jsonschemaTools{}
	addMcpgen(tools, "search", nil)
	if err := addLibrary(lib, "search", nil); err != nil {
		t.Fatal(err)
	}
	p := &mcp.CallToolRequestParams{Name: "search", Arguments: json.RawMessage(`{"query":7,"filter":{"kinds":["a",2]},"extra":true}`)}
	rm, _ := tools.CallTool(ctx, p)
	rl, _ := lib.CallTool(ctx, p)
	want := `invalid arguments for tool "search": /query: expected string, got number; /filter/kinds/1: expected string, got number; /extra: member "extra" is not allowed`
	if text(rm) != want {
		t.Errorf("mcpgen: %s\nwant %s", text(rm), want)
	}
	if !rl.GetIsError() || text(rl) == "" {
		t.Errorf("jsonschema-go set: %+v", rl)
	}
	t.Logf("mcpgen:        %s", text(rm))
	t.Logf("jsonschema-go: %s", text(rl))
}
