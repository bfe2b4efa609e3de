package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp20241105"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The tool set (Server, AddTool, AddStructuredTool) through the dispatcher:
// the schemas it lists, typed arguments, and how it answers what is wrong.
// tools.mdx, "Error Handling" (2025-11-25 and 2026-07-28): an unknown tool
// is a protocol error (-32602); input validation errors are tool execution
// errors, "reported in tool results with isError: true", so that a model
// can correct itself (2025-11-25 changelog, SEP-1303).

type addArgs struct {
	A int64 `json:"a" jsonschema:"the first addend"`
	B int64 `json:"b" jsonschema:"the second addend"`
}

type weatherArgs struct {
	City  string `json:"city" mcp:"header=City"`
	Units string `json:"units,omitempty" mcp:"enum=celsius|fahrenheit"`
	Days  *int8  `json:"days"`
}

type weather struct {
	City        string  `json:"city"`
	Temperature float64 `json:"temperature"`
	Conditions  string  `json:"conditions"`
}

// toolSet is a set with a typed tool, a structured one, one that fails and
// one that answers with a JSON-RPC error.
func toolSet() *mcp.Server {
	tools := &mcp.Server{TTL: 5 * time.Minute}
	mcp.AddTool(tools, mcp.Tool{Name: "add", Description: new("Adds two integers.")},
		func(ctx context.Context, p *mcp.CallToolRequestParams, in addArgs) (*mcp.CallToolResult, error) {
			return mcp.TextResult(strconv.FormatInt(in.A+in.B, 10)), nil
		})
	mcp.AddStructuredTool(tools, mcp.Tool{Name: "weather"},
		func(ctx context.Context, p *mcp.CallToolRequestParams, in weatherArgs) (weather, error) {
			if in.City == "Atlantis" {
				return weather{}, errors.New("no weather station in Atlantis")
			}
			return weather{City: in.City, Temperature: 21.5, Conditions: "sunny"}, nil
		})
	mcp.AddTool(tools, mcp.Tool{Name: "refuse"},
		func(ctx context.Context, p *mcp.CallToolRequestParams, in struct{}) (*mcp.CallToolResult, error) {
			return nil, &mcp.RPCError{Code: -32001, Message: "not today"}
		})
	return tools
}

func callParams(name, args string) string {
	if args == "" {
		return `{` + meta + `,"name":` + quote(name) + `}`
	}
	return `{` + meta + `,"name":` + quote(name) + `,"arguments":` + args + `}`
}

func TestToolSetList(t *testing.T) {
	d := mcp.NewServerDispatcher(toolSet(), mcp.ServerOptions{ServerInfo: serverInfo})
	checkResult(t, handle(d, request(`1`, "tools/list", `{`+meta+`}`)), "1", `{`+resultMeta+`,"resultType":"complete","ttlMs":300000,"cacheScope":"public","tools":[`+
		`{"name":"add","description":"Adds two integers.","inputSchema":{"type":"object","properties":{"a":{"type":"integer","description":"the first addend"},"b":{"type":"integer","description":"the second addend"}},"required":["a","b"],"additionalProperties":false}},`+
		`{"name":"weather","inputSchema":{"type":"object","properties":{"city":{"type":"string","x-mcp-header":"City"},"units":{"type":"string","enum":["celsius","fahrenheit"]},"days":{"type":"integer","minimum":-128,"maximum":127}},"required":["city"],"additionalProperties":false},`+
		`"outputSchema":{"type":"object","properties":{"city":{"type":"string"},"temperature":{"type":"number"},"conditions":{"type":"string"}},"required":["city","temperature","conditions"],"additionalProperties":false}},`+
		`{"name":"refuse","inputSchema":{"type":"object","additionalProperties":false}}]}`)
	// A cursor the set did not hand out is invalid (pagination.mdx: -32602).
	checkError(t, handle(d, request(`2`, "tools/list", `{`+meta+`,"cursor":"next"}`)),
		want{"2", -32602, `invalid cursor "next"`, ""})
	// The dispatcher declares the tools capability for the set, with
	// listChanged: the set announces its changes.
	r := checkResult(t, handle(d, request(`3`, "server/discover", `{`+meta+`}`)), "3", "")
	if caps := string(member(t, r.result, "capabilities")); caps != `{"tools":{"listChanged":true}}` {
		t.Errorf("capabilities = %s, want the tools capability", caps)
	}
}

func TestToolSetCall(t *testing.T) {
	d := mcp.NewServerDispatcher(toolSet(), mcp.ServerOptions{ServerInfo: serverInfo})
	isError := func(text string) string {
		return `{` + resultMeta + `,"resultType":"complete","isError":true,"content":[{"type":"text","text":` + quote(text) + `}]}`
	}
	for _, c := range []struct {
		name, tool, args, result string
	}{
		{"valid", "add", `{"a":40,"b":2}`, `{` + resultMeta + `,"resultType":"complete","content":[{"type":"text","text":"42"}]}`},
		{"integral number", "add", `{"a":4e1,"b":2.0}`, `{` + resultMeta + `,"resultType":"complete","content":[{"type":"text","text":"42"}]}`},
		{"wrong type", "add", `{"a":"forty","b":2}`, isError(`invalid arguments for tool "add": /a: expected integer, got string`)},
		{"missing", "add", `{"a":40}`, isError(`invalid arguments for tool "add": missing required member "b"`)},
		{"no arguments", "add", ``, isError(`invalid arguments for tool "add": missing required member "a"; missing required member "b"`)},
		{"unknown member", "add", `{"a":1,"b":2,"c":3}`, isError(`invalid arguments for tool "add": /c: member "c" is not allowed`)},
		{"structured", "weather", `{"city":"Paris","units":"celsius"}`, `{` + resultMeta + `,"resultType":"complete",` +
			`"content":[{"type":"text","text":"{\"city\":\"Paris\",\"temperature\":21.5,\"conditions\":\"sunny\"}"}],` +
			`"structuredContent":{"city":"Paris","temperature":21.5,"conditions":"sunny"}}`},
		{"enum and range", "weather", `{"city":"Paris","units":"kelvin","days":200}`,
			isError(`invalid arguments for tool "weather": /units: "kelvin" is not one of "celsius", "fahrenheit"; /days: must be <= 127, got 200`)},
		{"null for an optional member", "weather", `{"city":"Paris","days":null}`,
			isError(`invalid arguments for tool "weather": /days: expected integer, got null`)},
		{"tool error", "weather", `{"city":"Atlantis"}`, isError(`no weather station in Atlantis`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkResult(t, handle(d, request(`1`, "tools/call", callParams(c.tool, c.args))), "1", c.result)
		})
	}
	// Protocol errors: an unknown tool, arguments that are not an object
	// (the request breaks CallToolRequest's schema), and a tool's own
	// JSON-RPC error.
	checkError(t, handle(d, request(`2`, "tools/call", callParams("nope", `{}`))), want{"2", -32602, `unknown tool "nope"`, ""})
	checkError(t, handle(d, request(`3`, "tools/call", callParams("add", `[1,2]`))), want{"3", -32602, "invalid params: /params/arguments: ", "*"})
	checkError(t, handle(d, request(`4`, "tools/call", callParams("refuse", `{}`))), want{"4", -32001, "not today", ""})
}

// handlerWithTools embeds a tool set in place of
// UnimplementedServerHandler: it implements CallTool for one tool and
// leaves the rest to the set, and tools/list to the set altogether.
type handlerWithTools struct {
	*mcp.Server
}

func (h handlerWithTools) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if p.Name == "raw" {
		return mcp.TextResult("raw: " + string(p.Arguments)), nil
	}
	return h.Server.CallTool(ctx, p)
}

func TestToolSetWithHandler(t *testing.T) {
	d := mcp.NewServerDispatcher(handlerWithTools{toolSet()}, mcp.ServerOptions{ServerInfo: serverInfo,
		Capabilities: mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{ListChanged: new(true)}}})
	checkResult(t, handle(d, request(`1`, "tools/call", callParams("raw", `{"x":1}`))), "1",
		`{`+resultMeta+`,"resultType":"complete","content":[{"type":"text","text":"raw: {\"x\":1}"}]}`)
	checkResult(t, handle(d, request(`2`, "tools/call", callParams("add", `{"a":1,"b":2}`))), "2",
		`{`+resultMeta+`,"resultType":"complete","content":[{"type":"text","text":"3"}]}`)
	r := checkResult(t, handle(d, request(`3`, "tools/list", `{`+meta+`}`)), "3", "")
	var listed []json.RawMessage
	if err := json.Unmarshal(member(t, r.result, "tools"), &listed); err != nil || len(listed) != 3 {
		t.Errorf("tools/list from the set: %s", r.result)
	}
	// The capability the options declare stays.
	r = checkResult(t, handle(d, request(`4`, "server/discover", `{`+meta+`}`)), "4", "")
	if caps := string(member(t, r.result, "capabilities")); caps != `{"tools":{"listChanged":true}}` {
		t.Errorf("capabilities = %s", caps)
	}
	// The rest is the set's UnimplementedServerHandler: method not found.
	checkError(t, handle(d, request(`5`, "resources/read", `{`+meta+`,"uri":"file:///x"}`)), want{"5", -32601, "", "*"})
	// Without a set, a nil handler is UnimplementedServerHandler: no
	// tools, no tools capability.
	d = mcp.NewServerDispatcher(nil, mcp.ServerOptions{ServerInfo: serverInfo})
	checkError(t, handle(d, request(`6`, "tools/call", callParams("add", `{}`))), want{"6", -32601, "", "*"})
	r = checkResult(t, handle(d, request(`7`, "server/discover", `{`+meta+`}`)), "7", "")
	if caps := string(member(t, r.result, "capabilities")); caps != `{}` {
		t.Errorf("capabilities without a tool set = %s", caps)
	}
}

// TestToolSetLegacy: the same rules in a revision with the initialize
// handshake (2024-11-05, whose tools.mdx lists "invalid arguments" among
// protocol errors and "invalid input data" among tool execution errors;
// 2025-11-25 settled it as the latter).
func TestToolSetLegacy(t *testing.T) {
	tools := &mcp20241105.Server{}
	mcp20241105.AddTool(tools, mcp20241105.Tool{Name: "add"},
		func(ctx context.Context, p *mcp20241105.CallToolRequestParams, in addArgs) (*mcp20241105.CallToolResult, error) {
			return mcp20241105.TextResult(fmt.Sprint(in.A + in.B)), nil
		})
	d := mcp20241105.NewServerDispatcher(tools, mcp20241105.ServerOptions{ServerInfo: mcp20241105.Implementation{Name: "legacy", Version: "1"}})
	r := checkResult(t, handle(d, request(`1`, "initialize", `{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)), "1", "")
	if caps := string(member(t, r.result, "capabilities")); caps != `{"tools":{"listChanged":true}}` {
		t.Errorf("capabilities = %s", caps)
	}
	checkResult(t, handle(d, request(`2`, "tools/list", ``)), "2",
		`{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"integer","description":"the first addend"},"b":{"type":"integer","description":"the second addend"}},"required":["a","b"],"additionalProperties":false}}]}`)
	checkResult(t, handle(d, request(`3`, "tools/call", `{"name":"add","arguments":{"a":1,"b":2}}`)), "3", `{"content":[{"type":"text","text":"3"}]}`)
	checkResult(t, handle(d, request(`4`, "tools/call", `{"name":"add","arguments":{"a":true}}`)), "4",
		`{"isError":true,"content":[{"type":"text","text":"invalid arguments for tool \"add\": /a: expected integer, got boolean; missing required member \"b\""}]}`)
	checkError(t, handle(d, request(`5`, "tools/call", `{"name":"nope"}`)), want{"5", -32602, `unknown tool "nope"`, ""})
}

// TestToolSetHTTPHeaders: the HTTP handler reads the x-mcp-header
// annotations of typed tools from the set's tools/list, and checks the
// Mcp-Param headers of a call against its arguments.
func TestToolSetHTTPHeaders(t *testing.T) {
	d := mcp.NewServerDispatcher(toolSet(), mcp.ServerOptions{ServerInfo: serverInfo})
	srv := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	defer srv.Close()
	params := `{` + metaWith(`"2026-07-28"`, `{}`) + `,"name":"weather","arguments":{"city":"Paris"}}`
	status, r := httpCall(t, srv.URL, 1, params, map[string]string{"Mcp-Name": "weather", "Mcp-Param-City": "Paris"})
	if status != 200 || r.err != nil {
		t.Errorf("with the header: %d %s", status, r.raw)
	}
	status, r = httpCall(t, srv.URL, 2, params, map[string]string{"Mcp-Name": "weather"})
	if status != 400 || r.err == nil || r.err.Code != -32020 {
		t.Errorf("without the header: %d %s, want 400 with -32020", status, r.raw)
	}
}

// member returns the member name of the JSON object b, as it is.
func member(t *testing.T, b []byte, name string) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m[name]
}

// TestToolSetAddTool: AddTool on a dispatcher adds to the set its handler
// is or embeds, and what cannot work is refused when the tool is added,
// with a message that says why.
func TestToolSetAddTool(t *testing.T) {
	add := func(ctx context.Context, p *mcp.CallToolRequestParams, in addArgs) (*mcp.CallToolResult, error) {
		return mcp.TextResult(fmt.Sprint(in.A + in.B)), nil
	}
	// Through the dispatcher, to a handler that embeds the set.
	d := mcp.NewServerDispatcher(handlerWithTools{&mcp.Server{}}, mcp.ServerOptions{ServerInfo: serverInfo})
	mcp.AddTool(d, mcp.Tool{Name: "add"}, add)
	checkResult(t, handle(d, request(`1`, "tools/call", callParams("add", `{"a":1,"b":2}`))), "1",
		`{`+resultMeta+`,"resultType":"complete","content":[{"type":"text","text":"3"}]}`)

	type chanArgs struct {
		C chan int `json:"c"`
	}
	for _, c := range []struct {
		name, want string
		add        func()
	}{
		{"dispatcher without a set", "mcp: the ServerDispatcher's handler is not a *Server and does not embed one", func() {
			mcp.AddTool(mcp.NewServerDispatcher(nil, mcp.ServerOptions{}), mcp.Tool{Name: "add"}, add)
		}},
		{"a type without a schema", `mcp: tool "c": arguments type: conformance.chanArgs.C: type chan int has no JSON form`, func() {
			mcp.AddTool(&mcp.Server{}, mcp.Tool{Name: "c"}, func(context.Context, *mcp.CallToolRequestParams, chanArgs) (*mcp.CallToolResult, error) {
				return nil, nil
			})
		}},
		{"a result type without a schema", `mcp: tool "w": structured result type: []string is not a struct or a pointer to one: a structured result is a JSON object`, func() {
			mcp.AddStructuredTool(&mcp.Server{}, mcp.Tool{Name: "w"}, func(context.Context, *mcp.CallToolRequestParams, addArgs) ([]string, error) { return nil, nil })
		}},
		{"an inputSchema of its own", `mcp: tool "add": inputSchema is derived from the Go type; leave it empty`, func() {
			mcp.AddTool(&mcp.Server{}, mcp.Tool{Name: "add", InputSchema: mcp.ToolInputSchema{Schema: new("https://json-schema.org/draft/2020-12/schema")}}, add)
		}},
		{"an outputSchema of its own", `mcp: tool "w": outputSchema is derived from the Go type; leave it empty`, func() {
			mcp.AddStructuredTool(&mcp.Server{}, mcp.Tool{Name: "w", OutputSchema: &mcp.ToolOutputSchema{Schema: new("x")}},
				func(context.Context, *mcp.CallToolRequestParams, addArgs) (weather, error) { return weather{}, nil })
		}},
		{"a tool that breaks the schema", `mcp: tool "add": invalid: /icons/0/src: "" is not a valid uri (format)`, func() {
			mcp.AddTool(&mcp.Server{}, mcp.Tool{Name: "add", Icons: []mcp.Icon{{}}}, add)
		}},
		{"a name added twice", `mcp: tool "add" is added twice`, func() {
			tools := &mcp.Server{}
			mcp.AddTool(tools, mcp.Tool{Name: "add"}, add)
			mcp.AddTool(tools, mcp.Tool{Name: "add"}, add)
		}},
		{"no name", `mcp: a tool needs a name`, func() { mcp.AddTool(&mcp.Server{}, mcp.Tool{}, add) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != c.want {
					t.Errorf("panic %v\nwant      %q", r, c.want)
				}
			}()
			c.add()
		})
	}
}
