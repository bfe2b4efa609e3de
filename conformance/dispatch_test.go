package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp20250326"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// These tests drive the generated JSON-RPC dispatchers with Handle (and,
// in dispatch_stdio_test.go, Serve) and pin the responses exactly. Where
// a dispatcher is wrong by the specification, the failing test stays and
// conformance/DISPATCH_FINDINGS.md says why.

// ---------------------------------------------------------------------------
// Messages

// meta is the _meta a 2026-07-28 request must carry: the protocol version
// and the client capabilities (basic/index.mdx, "Per-request protocol
// fields").
const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// metaWith is _meta with another protocol version and capabilities.
func metaWith(version, caps string) string {
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":` + version + `,"io.modelcontextprotocol/clientCapabilities":` + caps + `}`
}

// request renders a request; params "" leaves params out.
func request(id, method, params string) string {
	s := `{"jsonrpc":"2.0","id":` + id + `,"method":` + quote(method)
	if params != "" {
		s += `,"params":` + params
	}
	return s + "}"
}

// notification renders a notification; params "" leaves params out.
func notification(method, params string) string {
	s := `{"jsonrpc":"2.0","method":` + quote(method)
	if params != "" {
		s += `,"params":` + params
	}
	return s + "}"
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// ---------------------------------------------------------------------------
// Responses

// response is one JSON-RPC response, as read back from a dispatcher.
type response struct {
	raw     string
	members map[string]json.RawMessage
	// hasID is set when the id member is present (null included).
	hasID  bool
	id     string // raw id ("null" for null)
	result json.RawMessage
	err    *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	hasData bool
}

// parseResponse checks that b is one well-formed JSON-RPC 2.0 response
// object and splits it.
func parseResponse(t *testing.T, b []byte) response {
	t.Helper()
	r := response{raw: string(b)}
	if bytes.ContainsAny(b, "\n\r") {
		t.Errorf("response contains a line break: %q", b)
	}
	if err := json.Unmarshal(b, &r.members); err != nil || r.members == nil {
		t.Fatalf("response is not a JSON object: %q (%v)", b, err)
	}
	for k := range r.members {
		switch k {
		case "jsonrpc", "id", "result", "error":
		default:
			t.Errorf("response has an unexpected member %q: %s", k, b)
		}
	}
	if string(r.members["jsonrpc"]) != `"2.0"` {
		t.Errorf(`response lacks "jsonrpc":"2.0": %s`, b)
	}
	if id, ok := r.members["id"]; ok {
		r.hasID, r.id = true, string(id)
	}
	res, hasResult := r.members["result"]
	e, hasError := r.members["error"]
	if hasResult == hasError {
		t.Fatalf("a response needs exactly one of result and error: %s", b)
	}
	if hasResult {
		r.result = res
		return r
	}
	var em map[string]json.RawMessage
	if err := json.Unmarshal(e, &em); err != nil {
		t.Fatalf("error member is not an object: %s", b)
	}
	for k := range em {
		switch k {
		case "code", "message", "data":
		default:
			t.Errorf("error has an unexpected member %q: %s", k, b)
		}
	}
	if _, ok := em["code"]; !ok {
		t.Errorf("error lacks code: %s", b)
	}
	if _, ok := em["message"]; !ok {
		t.Errorf("error lacks message: %s", b)
	}
	_, r.hasData = em["data"]
	if err := json.Unmarshal(e, &r.err); err != nil {
		t.Fatalf("error member: %v: %s", err, b)
	}
	return r
}

// noID is the id a response carries when the request's id could not be
// read: JSON-RPC 2.0 writes null; the 2025-11-25 and later schemas make
// the member optional instead. Both are accepted here; the schema check
// is TestErrorResponseWithoutIDMatchesSchema.
const noID = "<unknown>"

// want describes an expected error response.
type want struct {
	id     string // raw JSON id, or noID
	code   int64
	prefix string // the message starts with it
	data   string // JSON compared by value; "" means no data member; "*" any
}

// checkError checks an error response against w.
func checkError(t *testing.T, got []byte, w want) response {
	t.Helper()
	if got == nil {
		t.Fatalf("no response; want error %d", w.code)
	}
	r := parseResponse(t, got)
	checkID(t, r, w.id)
	if r.err == nil {
		t.Fatalf("want error %d, got result: %s", w.code, got)
	}
	if r.err.Code != w.code {
		t.Errorf("code = %d, want %d: %s", r.err.Code, w.code, got)
	}
	if !strings.HasPrefix(r.err.Message, w.prefix) {
		t.Errorf("message = %q, want prefix %q", r.err.Message, w.prefix)
	}
	switch {
	case w.data == "*":
	case w.data == "":
		if r.hasData {
			t.Errorf("unexpected data %s", r.err.Data)
		}
	case !r.hasData:
		t.Errorf("no data; want %s: %s", w.data, got)
	case !jsonEqual(r.err.Data, []byte(w.data)):
		t.Errorf("data = %s\nwant   %s", r.err.Data, w.data)
	}
	return r
}

// checkResult checks a result response: the id is echoed byte for byte
// and the result equals wantResult as JSON ("" skips the comparison).
func checkResult(t *testing.T, got []byte, id, wantResult string) response {
	t.Helper()
	if got == nil {
		t.Fatalf("no response; want a result")
	}
	r := parseResponse(t, got)
	checkID(t, r, id)
	if r.err != nil {
		t.Fatalf("want a result, got error %d %q data %s", r.err.Code, r.err.Message, r.err.Data)
	}
	if wantResult != "" && !jsonEqual(r.result, []byte(wantResult)) {
		t.Errorf("result = %s\nwant     %s", r.result, wantResult)
	}
	return r
}

func checkID(t *testing.T, r response, id string) {
	t.Helper()
	switch {
	case id == noID:
		if r.hasID && r.id != "null" {
			t.Errorf("id = %s, want null or absent: %s", r.id, r.raw)
		}
	case !r.hasID:
		t.Errorf("response has no id, want %s: %s", id, r.raw)
	case r.id != id:
		t.Errorf("id = %s, want %s (echoed exactly)", r.id, id)
	}
}

// jsonEqual compares two JSON texts as values (numbers by their text).
func jsonEqual(a, b []byte) bool {
	va, ea := decodeAny(a)
	vb, eb := decodeAny(b)
	return ea == nil && eb == nil && reflect.DeepEqual(va, vb)
}

func decodeAny(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// violation is one entry of an invalid-params error's data.
type violation struct {
	Pointer string `json:"pointer"`
	Keyword string `json:"keyword"`
	Message string `json:"message"`
}

func violationsOf(t *testing.T, r response) []violation {
	t.Helper()
	var d struct {
		Violations []violation `json:"violations"`
	}
	if r.err == nil || json.Unmarshal(r.err.Data, &d) != nil {
		t.Fatalf("error data is not {violations: [...]}: %s", r.raw)
	}
	return d.Violations
}

// ---------------------------------------------------------------------------
// A 2026-07-28 server whose methods are set per test

type server struct {
	mcp.UnimplementedServerHandler
	listTools    func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error)
	callTool     func(context.Context, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error)
	readResource func(context.Context, *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error)
	getPrompt    func(context.Context, *mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error)
	discover     func(context.Context, *mcp.RequestParams) (*mcp.DiscoverResult, error)
	onCancelled  func(context.Context, *mcp.CancelledNotificationParams) error
	calls        atomic.Int64 // handler calls
}

func (s *server) ListTools(ctx context.Context, p *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	s.calls.Add(1)
	if s.listTools == nil {
		return s.UnimplementedServerHandler.ListTools(ctx, p)
	}
	return s.listTools(ctx, p)
}

func (s *server) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	s.calls.Add(1)
	if s.callTool == nil {
		return s.UnimplementedServerHandler.CallTool(ctx, p)
	}
	return s.callTool(ctx, p)
}

func (s *server) ReadResource(ctx context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
	s.calls.Add(1)
	if s.readResource == nil {
		return s.UnimplementedServerHandler.ReadResource(ctx, p)
	}
	return s.readResource(ctx, p)
}

func (s *server) GetPrompt(ctx context.Context, p *mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error) {
	s.calls.Add(1)
	if s.getPrompt == nil {
		return s.UnimplementedServerHandler.GetPrompt(ctx, p)
	}
	return s.getPrompt(ctx, p)
}

func (s *server) Discover(ctx context.Context, p *mcp.RequestParams) (*mcp.DiscoverResult, error) {
	s.calls.Add(1)
	if s.discover == nil {
		return s.UnimplementedServerHandler.Discover(ctx, p)
	}
	return s.discover(ctx, p)
}

func (s *server) OnCancelled(ctx context.Context, p *mcp.CancelledNotificationParams) error {
	if s.onCancelled == nil {
		return nil
	}
	return s.onCancelled(ctx, p)
}

var serverInfo = mcp.Implementation{Name: "test-server", Version: "1.2.3"}

const serverInfoJSON = `{"name":"test-server","version":"1.2.3"}`

// resultMeta is the _meta the dispatcher adds to every 2026-07-28 result.
const resultMeta = `"_meta":{"io.modelcontextprotocol/serverInfo":` + serverInfoJSON + `}`

// toolsServer answers tools/list with one empty page and tools/call by
// echoing the tool name.
func toolsServer() *server {
	return &server{
		listTools: func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
			return &mcp.ListToolsResult{Tools: []mcp.Tool{}, TTLMs: 1000, CacheScope: mcp.CacheScopePublic}, nil
		},
		callTool: func(_ context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: p.Name}}}, nil
		},
	}
}

const listToolsResult = `{` + resultMeta + `,"cacheScope":"public","resultType":"complete","tools":[],"ttlMs":1000}`

func newServer(s *server, opts mcp.ServerOptions) *mcp.ServerDispatcher {
	if opts.ServerInfo.Name == "" {
		opts.ServerInfo = serverInfo
	}
	return mcp.NewServerDispatcher(s, opts)
}

// dispatcher is what every generated ServerDispatcher and ClientDispatcher is.
type dispatcher interface {
	Handle(context.Context, []byte) []byte
}

// handle sends one message to d.
func handle(d dispatcher, msg string) []byte {
	return d.Handle(context.Background(), []byte(msg))
}

// dispatchers are the two kinds of routing the envelope tests run on: a
// revision without batches (2026-07-28) and one with them (2025-03-26).
func envelopeDispatchers() map[string]dispatcher {
	return map[string]dispatcher{
		"2026-07-28": newServer(toolsServer(), mcp.ServerOptions{}),
		"2025-03-26": mcp20250326.NewServerDispatcher(legacy0326{}, mcp20250326.ServerOptions{}),
	}
}

type legacy0326 struct {
	mcp20250326.UnimplementedServerHandler
}

// ---------------------------------------------------------------------------
// Parse errors

func TestDispatchParseError(t *testing.T) {
	cases := []struct {
		name, msg, prefix string
	}{
		{"truncated object", `{"jsonrpc":"2.0","id":1,"method":"tools/list"`, "parse error: "},
		{"truncated string", `{"jsonrpc":"2.0","id":1,"method":"tools/li`, "parse error: "},
		{"truncated array", `[{"jsonrpc":"2.0","id":1,"method":"ping"}`, "parse error: "},
		{"missing value", `{"jsonrpc":"2.0","id":1,"method":}`, "parse error: "},
		{"trailing comma", `{"jsonrpc":"2.0","id":1,"method":"ping",}`, "parse error: "},
		{"single quotes", `{'jsonrpc':'2.0','id':1,'method':'ping'}`, "parse error: "},
		{"bare word", `ping`, "parse error: "},
		{"NaN", `{"jsonrpc":"2.0","id":NaN,"method":"ping"}`, "parse error: "},
		{"two values", `{"jsonrpc":"2.0","id":1,"method":"ping"} {}`, "parse error: "},
		{"empty", ``, "parse error: "},
		{"blank", " \t ", "parse error: "},
		{"invalid UTF-8 in a string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}", "parse error: "},
		{"invalid UTF-8 in an id", "{\"jsonrpc\":\"2.0\",\"id\":\"\xc3\x28\",\"method\":\"ping\"}", "parse error: "},
		{"invalid UTF-8 outside strings", "\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "parse error: "},
		{"lone byte", "\xff", "parse error: "},
		{"control character in a string", "{\"jsonrpc\":\"2.0\",\"id\":\"a\x01\",\"method\":\"ping\"}", "parse error: "},
		{"bad escape", `{"jsonrpc":"2.0","id":"\q","method":"ping"}`, "parse error: "},
		{"leading zero", `{"jsonrpc":"2.0","id":01,"method":"ping"}`, "parse error: "},
	}
	for rev, d := range envelopeDispatchers() {
		for _, c := range cases {
			t.Run(rev+"/"+c.name, func(t *testing.T) {
				checkError(t, handle(d, c.msg), want{id: noID, code: -32700, prefix: c.prefix})
			})
		}
	}
}

// TestDispatchParseErrorMessage pins the text: it says where the problem is.
func TestDispatchParseErrorMessage(t *testing.T) {
	d := newServer(toolsServer(), mcp.ServerOptions{})
	got := parseResponse(t, handle(d, `{"jsonrpc":"2.0","id":1,"method"`))
	if got.err == nil || got.err.Message != "parse error: expected ':' after member name at offset 32" {
		t.Errorf("got %s", got.raw)
	}
}

// TestErrorResponseWithoutIDMatchesSchema: in 2026-07-28 an error response
// whose request id could not be read leaves the id out (`id?: string |
// number`, basic/index.mdx); null is not a RequestId, so a response with
// "id":null breaks JSONRPCErrorResponse. See DISPATCH_FINDINGS.md.
func TestErrorResponseWithoutIDMatchesSchema(t *testing.T) {
	d := newServer(toolsServer(), mcp.ServerOptions{})
	for _, msg := range []string{`{"jsonrpc":"2.0","id":1,"method"`, `42`, `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, `[]`} {
		got := handle(d, msg)
		var e mcp.JSONRPCErrorResponse
		err := e.UnmarshalJSON(got)
		if err == nil {
			err = e.Validate()
		}
		if err != nil {
			t.Errorf("%s\n-> %s\nis not a 2026-07-28 JSONRPCErrorResponse: %v", msg, got, err)
		}
	}
}

// ---------------------------------------------------------------------------
// Invalid requests

func TestDispatchInvalidRequest(t *testing.T) {
	const (
		notObject  = `invalid request: a message must be a JSON object`
		noJSONRPC  = `invalid request: missing "jsonrpc": "2.0"`
		badJSONRPC = `invalid request: "jsonrpc" must be "2.0"`
		noMethod   = `invalid request: missing "method"`
		badMethod  = `invalid request: "method" must be a string`
		badParams  = `invalid request: "params" must be an object`
	)
	cases := []struct {
		name, msg string
		w         want
	}{
		{"number", `1`, want{noID, -32600, notObject, ""}},
		{"string", `"ping"`, want{noID, -32600, notObject, ""}},
		{"null", `null`, want{noID, -32600, notObject, ""}},
		{"true", `true`, want{noID, -32600, notObject, ""}},
		{"missing jsonrpc", `{"id":1,"method":"ping"}`, want{"1", -32600, noJSONRPC, ""}},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, want{"1", -32600, badJSONRPC, ""}},
		{"jsonrpc number", `{"jsonrpc":2.0,"id":1,"method":"ping"}`, want{"1", -32600, badJSONRPC, ""}},
		{"jsonrpc null", `{"jsonrpc":null,"id":"x","method":"ping"}`, want{`"x"`, -32600, badJSONRPC, ""}},
		{"jsonrpc empty", `{"jsonrpc":"","id":1,"method":"ping"}`, want{"1", -32600, badJSONRPC, ""}},
		{"missing method", `{"jsonrpc":"2.0","id":1}`, want{"1", -32600, noMethod, ""}},
		{"missing method, params", `{"jsonrpc":"2.0","id":1,"params":{}}`, want{"1", -32600, noMethod, ""}},
		{"method number", `{"jsonrpc":"2.0","id":1,"method":5}`, want{"1", -32600, badMethod, ""}},
		{"method null", `{"jsonrpc":"2.0","id":1,"method":null}`, want{"1", -32600, badMethod, ""}},
		{"method object", `{"jsonrpc":"2.0","id":1,"method":{"name":"ping"}}`, want{"1", -32600, badMethod, ""}},
		{"method array", `{"jsonrpc":"2.0","id":1,"method":["ping"]}`, want{"1", -32600, badMethod, ""}},
		{"params number", `{"jsonrpc":"2.0","id":1,"method":"ping","params":5}`, want{"1", -32600, badParams, ""}},
		{"params string", `{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`, want{"1", -32600, badParams, ""}},
		{"params true", `{"jsonrpc":"2.0","id":1,"method":"ping","params":true}`, want{"1", -32600, badParams, ""}},
		{"params null", `{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`, want{"1", -32600, badParams, ""}},
		{"duplicate method", `{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}`, want{noID, -32600, `invalid request: duplicate member "method"`, ""}},
		{"duplicate id", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, want{noID, -32600, `invalid request: duplicate member "id"`, ""}},
		{"duplicate jsonrpc", `{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"ping"}`, want{noID, -32600, `invalid request: duplicate member "jsonrpc"`, ""}},
		{"duplicate params", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{},"params":{}}`, want{noID, -32600, `invalid request: duplicate member "params"`, ""}},
		{"notification method with an id", `{"jsonrpc":"2.0","id":1,"method":"notifications/cancelled","params":{"requestId":2}}`,
			want{"1", -32600, `invalid request: "notifications/cancelled" is a notification and must not have an id`, ""}},
	}
	for rev, d := range envelopeDispatchers() {
		for _, c := range cases {
			t.Run(rev+"/"+c.name, func(t *testing.T) {
				checkError(t, handle(d, c.msg), c.w)
			})
		}
	}
}

// TestDispatchDuplicateMemberNotRouted: with `"method":"a","method":"b"`
// neither method runs; a duplicate deeper in params is rejected too.
func TestDispatchDuplicateMemberNotRouted(t *testing.T) {
	s := toolsServer()
	d := newServer(s, mcp.ServerOptions{})
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"foo","method":"tools/list","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/list","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta + `,"name":"a","name":"b"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta + `,"name":"a","arguments":{"x":1,"x":2}}}`,
	} {
		r := parseResponse(t, handle(d, msg))
		if r.err == nil || (r.err.Code != -32600 && r.err.Code != -32602) {
			t.Errorf("%s\n-> %s, want -32600 (or -32602)", msg, r.raw)
		}
	}
	if n := s.calls.Load(); n != 0 {
		t.Errorf("a message with a duplicate member reached the handler (%d calls)", n)
	}
}

// TestDispatchNoResponse: notifications and responses are never answered.
func TestDispatchNoResponse(t *testing.T) {
	s := toolsServer()
	var logged logBuffer
	d := newServer(s, mcp.ServerOptions{Logger: logged.logger()})
	for _, msg := range []string{
		notification("notifications/cancelled", `{"requestId":1}`),
		notification("notifications/cancelled", `{"requestId":"abc","reason":"user"}`),
		notification("notifications/unknown", `{}`),
		notification("notifications/unknown", ``),
		// A notification with bad params is only logged.
		notification("notifications/cancelled", `{"reason":5}`),
		// A request method without an id is a notification: dropped.
		notification("tools/list", `{`+meta+`}`),
		// Responses (a server's client sends none, but they must not be answered).
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}}`,
	} {
		if got := handle(d, msg); got != nil {
			t.Errorf("%s\n-> %s, want no response", msg, got)
		}
	}
	if n := s.calls.Load(); n != 0 {
		t.Errorf("tools/list without an id reached the handler")
	}
	if lines := logged.lines(); len(lines) < 3 {
		t.Errorf("dropped notifications were not logged: %q", lines)
	}
}

// logBuffer collects a Logger's records, one line of text each, for
// the tests that check what is logged.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// logger returns a Logger whose records of level Info and above b
// receives.
func (b *logBuffer) logger() *slog.Logger { return slog.New(slog.NewTextHandler(b, nil)) }

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// lines returns the records logged so far.
func (b *logBuffer) lines() []string {
	if b.String() == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// ---------------------------------------------------------------------------
// Ids

// TestDispatchIDs: MCP ids are strings or integers, never null
// (basic/index.mdx); an integer is any number with a zero fractional part
// (JSON Schema). Every answer echoes the id byte for byte.
func TestDispatchIDs(t *testing.T) {
	d := newServer(toolsServer(), mcp.ServerOptions{})
	good := []string{
		`"abc"`, `""`, `"2.0"`, `"1"`, `"null"`, `" spaced "`, `"\u00e9\n"`, `"é"`, `"😀"`,
		`0`, `-0`, `1`, `-1`, `42`,
		`9007199254740993`,    // 2^53+1: not a float64
		`9223372036854775807`, // max int64
		`-9223372036854775808`,
		`2.0`, `1e2`, `1E+2`, `-3.000`,
	}
	for _, id := range good {
		t.Run("ok "+id, func(t *testing.T) {
			checkResult(t, handle(d, request(id, "tools/list", `{`+meta+`}`)), id, listToolsResult)
			checkError(t, handle(d, request(id, "nope", "")), want{id, -32601, `method not found: "nope"`, ""})
			checkError(t, handle(d, request(id, "tools/call", `{`+meta+`}`)), want{id, -32602, "invalid params: ", "*"})
			checkError(t, handle(d, `{"jsonrpc":"1.0","id":`+id+`,"method":"tools/list"}`), want{id, -32600, "invalid request: ", ""})
		})
	}
	bad := []string{`null`, `1.5`, `-0.1`, `1e-1`, `true`, `false`, `{}`, `{"id":1}`, `[]`, `[1]`}
	for _, id := range bad {
		t.Run("bad "+id, func(t *testing.T) {
			checkError(t, handle(d, request(id, "tools/list", `{`+meta+`}`)),
				want{noID, -32600, "invalid request: the id must be a string or an integer, not " + strconv.Quote(id), ""})
		})
	}
}

// TestDispatchIDsBeyondInt64: an integer id outside int64 is still an
// integer (RequestId is {"type":["string","integer"]}, no bounds) and the
// dispatcher never needs its value. See DISPATCH_FINDINGS.md.
func TestDispatchIDsBeyondInt64(t *testing.T) {
	d := newServer(toolsServer(), mcp.ServerOptions{})
	for _, id := range []string{`9223372036854775808`, `-9223372036854775809`, `18446744073709551616`, `1e30`} {
		checkResult(t, handle(d, request(id, "tools/list", `{`+meta+`}`)), id, listToolsResult)
	}
}

// ---------------------------------------------------------------------------
// Method not found

func TestDispatchMethodNotFound(t *testing.T) {
	d := newServer(&server{}, mcp.ServerOptions{})
	cases := []struct {
		name, msg string
		w         want
	}{
		{"unknown", request(`7`, "foo/bar", `{`+meta+`}`), want{"7", -32601, `method not found: "foo/bar"`, ""}},
		{"unknown without params", request(`"s"`, "x", ""), want{`"s"`, -32601, `method not found: "x"`, ""}},
		{"empty name", request(`1`, "", ""), want{"1", -32601, `method not found: ""`, ""}},
		{"case matters", request(`1`, "Tools/List", `{`+meta+`}`), want{"1", -32601, `method not found: "Tools/List"`, ""}},
		{"client method", request(`1`, "elicitation/create", `{}`), want{"1", -32601, `method not found: "elicitation/create"`, ""}},
		{"legacy ping", request(`1`, "ping", ""), want{"1", -32601, `method not found: "ping"`, ""}},
		// Methods of the revision the handler leaves to the Unimplemented base.
		{"unimplemented tools/list", request(`2`, "tools/list", `{`+meta+`}`), want{"2", -32601, "method not found", ""}},
		{"unimplemented tools/call", request(`3`, "tools/call", `{`+meta+`,"name":"t"}`), want{"3", -32601, "method not found", ""}},
		{"unimplemented completion/complete", request(`4`, "completion/complete",
			`{`+meta+`,"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"v"}}`), want{"4", -32601, "method not found", ""}},
		{"unimplemented resources/read", request(`"r"`, "resources/read", `{`+meta+`,"uri":"file:///x"}`), want{`"r"`, -32601, "method not found", ""}},
		{"unimplemented subscriptions/listen", request(`5`, "subscriptions/listen", `{`+meta+`,"notifications":{}}`), want{"5", -32601, "method not found", "*"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkError(t, handle(d, c.msg), c.w)
		})
	}
}

// ---------------------------------------------------------------------------
// Invalid params

func TestDispatchInvalidParams(t *testing.T) {
	s := toolsServer()
	d := newServer(s, mcp.ServerOptions{})
	type v struct{ pointer, keyword, message string } // message "" is not compared
	cases := []struct {
		name, method, params string
		prefix               string
		want                 []v
	}{
		{"no params", "tools/call", "", `invalid params: missing required member "params"`,
			[]v{{"", "required", `missing required member "params"`}}},
		{"missing name", "tools/call", `{` + meta + `}`, `invalid params: /params: missing required member "name" (required)`,
			[]v{{"/params", "required", `missing required member "name"`}}},
		{"missing _meta", "tools/call", `{"name":"t"}`, `invalid params: /params: missing required member "_meta"`,
			[]v{{"/params", "required", `missing required member "_meta"`}}},
		{"missing clientCapabilities", "tools/call", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"t"}`, "invalid params: /params/_meta: ",
			[]v{{"/params/_meta", "required", `missing required member "io.modelcontextprotocol/clientCapabilities"`}}},
		{"name is a number", "tools/call", `{` + meta + `,"name":5}`, "invalid params: /params/name: ",
			[]v{{"/params/name", "type", "expected string, got number"}}},
		{"arguments is an array", "tools/call", `{` + meta + `,"name":"t","arguments":[1]}`, "invalid params: /params/arguments: ",
			[]v{{"/params/arguments", "type", ""}}},
		{"capabilities not an object", "tools/call", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]},"name":"t"}`,
			"invalid params: /params/_meta/io.modelcontextprotocol~1clientCapabilities: ",
			[]v{{"/params/_meta/io.modelcontextprotocol~1clientCapabilities", "type", ""}}},
		{"log level enum", "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}`,
			"invalid params: /params/_meta/io.modelcontextprotocol~1logLevel: ",
			[]v{{"/params/_meta/io.modelcontextprotocol~1logLevel", "enum", ""}}},
		{"cursor is a number", "tools/list", `{` + meta + `,"cursor":1}`, "invalid params: /params/cursor: ",
			[]v{{"/params/cursor", "type", "expected string, got number"}}},
		{"params is an array", "tools/list", `[]`, "invalid params: ",
			[]v{{"/params", "type", ""}}},
		{"several at once", "tools/call",
			`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"},"name":5,"arguments":"x"}`,
			"invalid params: ",
			[]v{
				{"/params/_meta/io.modelcontextprotocol~1logLevel", "enum", ""},
				{"/params/arguments", "type", ""},
				{"/params/name", "type", ""},
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := checkError(t, handle(d, request(`"p"`, c.method, c.params)), want{`"p"`, -32602, c.prefix, "*"})
			got := violationsOf(t, r)
			sort.Slice(got, func(i, j int) bool { return got[i].Pointer < got[j].Pointer })
			if len(got) != len(c.want) {
				t.Fatalf("violations = %+v\nwant %+v", got, c.want)
			}
			for i, w := range c.want {
				g := got[i]
				if g.Pointer != w.pointer || g.Keyword != w.keyword || (w.message != "" && g.Message != w.message) || g.Message == "" {
					t.Errorf("violation %d = %+v, want %+v", i, g, w)
				}
			}
			if len(c.want) > 1 && !strings.HasSuffix(r.err.Message, fmt.Sprintf("(and %d more)", len(c.want)-1)) {
				t.Errorf("message %q does not count the other violations", r.err.Message)
			}
		})
	}
	if n := s.calls.Load(); n != 0 {
		t.Errorf("invalid params reached the handler (%d calls)", n)
	}
}

// ---------------------------------------------------------------------------
// Internal errors

func TestDispatchPanicIsInternalError(t *testing.T) {
	var logged logBuffer
	s := toolsServer()
	s.callTool = func(_ context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		if p.Name == "panic" {
			panic("boom")
		}
		var m map[string]int
		m["nil map"]++ //lint:ignore SA5000 the point is a runtime error panic
		return nil, nil
	}
	d := newServer(s, mcp.ServerOptions{Logger: logged.logger()})
	checkError(t, handle(d, request(`1`, "tools/call", `{`+meta+`,"name":"panic"}`)),
		want{"1", -32603, "internal error: the handler panicked", ""})
	if l := logged.String(); !strings.Contains(l, "boom") {
		t.Errorf("the panic was not logged: %q", l)
	}
	checkError(t, handle(d, request(`"2"`, "tools/call", `{`+meta+`,"name":"runtime"}`)),
		want{`"2"`, -32603, "internal error: the handler panicked", ""})
	// The dispatcher still works.
	checkResult(t, handle(d, request(`3`, "tools/list", `{`+meta+`}`)), "3", listToolsResult)
	// A panicking notification handler is contained too.
	s.onCancelled = func(context.Context, *mcp.CancelledNotificationParams) error { panic("in a notification") }
	if got := handle(d, notification("notifications/cancelled", `{"requestId":1}`)); got != nil {
		t.Errorf("a notification got %s", got)
	}
	checkResult(t, handle(d, request(`4`, "tools/list", `{`+meta+`}`)), "4", listToolsResult)
}

func TestDispatchInternalErrors(t *testing.T) {
	invalidList := &mcp.ListToolsResult{Tools: []mcp.Tool{}, TTLMs: 5} // no cacheScope: sent as private
	cases := []struct {
		name string
		list func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error)
		w    want
	}{
		{"plain error", func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
			return nil, errors.New("database is down")
		}, want{"1", -32603, "database is down", ""}},
		{"wrapped plain error", func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
			return nil, fmt.Errorf("listing: %w", errors.New("database is down"))
		}, want{"1", -32603, "listing: database is down", ""}},
		{"context error", func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
			return nil, context.DeadlineExceeded
		}, want{"1", -32603, "context deadline exceeded", ""}},
		{"no result, no error", func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
			return nil, nil
		}, want{"1", -32603, "internal error: the handler returned no result and no error", ""}},
		{"negative ttlMs", func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
			return &mcp.ListToolsResult{Tools: []mcp.Tool{}, TTLMs: -1, CacheScope: mcp.CacheScopePrivate}, nil
		}, want{"1", -32603, "internal error: the handler's result breaks the schema: /result/ttlMs", "*"}},
		{"result that cannot be encoded", func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
			return &mcp.ListToolsResult{Tools: []mcp.Tool{}, CacheScope: mcp.CacheScopePublic, Extra: mcp.Members{{Name: "x", Value: json.RawMessage(`{bad`)}}}, nil
		}, want{"1", -32603, "internal error: cannot encode the result: ", ""}},
		{"NeedInput on a method without input_required", func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
			return nil, mcp.NeedInput(mcp.InputRequiredResult{RequestState: new("s")})
		}, want{"1", -32603, "the request needs more input from the client", ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newServer(&server{listTools: c.list}, mcp.ServerOptions{})
			r := checkError(t, handle(d, request(`1`, "tools/list", `{`+meta+`}`)), c.w)
			if strings.Contains(r.raw, `"tools"`) {
				t.Errorf("the invalid result leaked into the response: %s", r.raw)
			}
		})
	}
	// A cacheable result without cacheScope is not refused: the
	// dispatcher sends it as private (it cannot know the result is the
	// same for every caller), validated or not.
	for _, skip := range []bool{false, true} {
		d := newServer(&server{listTools: func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
			return invalidList, nil
		}}, mcp.ServerOptions{SkipResultValidation: skip})
		checkResult(t, handle(d, request(`1`, "tools/list", `{`+meta+`}`)), "1",
			`{`+resultMeta+`,"cacheScope":"private","resultType":"complete","tools":[],"ttlMs":5}`)
	}
}

// ---------------------------------------------------------------------------
// Typed errors

func TestDispatchTypedErrors(t *testing.T) {
	base := &mcp.RPCError{Code: -32000, Message: "quota exceeded", Data: json.RawMessage(`{"retryAfterMs":250,"tags":["a","b"]}`)}
	cases := []struct {
		name string
		err  error
		w    want
	}{
		{"RPCError", base, want{"9", -32000, "quota exceeded", `{"retryAfterMs":250,"tags":["a","b"]}`}},
		{"wrapped", fmt.Errorf("calling: %w", base), want{"9", -32000, "quota exceeded", `{"retryAfterMs":250,"tags":["a","b"]}`}},
		{"wrapped twice", fmt.Errorf("a: %w", fmt.Errorf("b: %w", base)), want{"9", -32000, "quota exceeded", `{"retryAfterMs":250,"tags":["a","b"]}`}},
		{"joined", errors.Join(errors.New("other"), base), want{"9", -32000, "quota exceeded", `{"retryAfterMs":250,"tags":["a","b"]}`}},
		{"no data", &mcp.RPCError{Code: 1234, Message: "app error"}, want{"9", 1234, "app error", ""}},
		{"scalar data", &mcp.RPCError{Code: -1, Message: "m", Data: json.RawMessage(`"text"`)}, want{"9", -1, "m", `"text"`}},
		{"null data", &mcp.RPCError{Code: -1, Message: "m", Data: json.RawMessage(`null`)}, want{"9", -1, "m", `null`}},
		{"data that is not JSON is left out", &mcp.RPCError{Code: -1, Message: "m", Data: json.RawMessage(`{bad`)}, want{"9", -1, "m", ""}},
		{"invalid params from the handler", &mcp.RPCError{Code: mcp.CodeInvalidParams, Message: "unknown tool \"x\""}, want{"9", -32602, "unknown tool \"x\"", ""}},
		{"spec code", mcp.RequireCapabilities(mcp.ClientCapabilities{Roots: &mcp.ClientCapabilitiesRoots{}}), want{"9", -32021, `the request needs client capabilities it did not declare: {"roots":{}}`, `{"requiredCapabilities":{"roots":{}}}`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newServer(&server{callTool: func(context.Context, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				return nil, c.err
			}}, mcp.ServerOptions{})
			r := checkError(t, handle(d, request(`9`, "tools/call", `{`+meta+`,"name":"t"}`)), c.w)
			if r.err.Message != c.w.prefix {
				t.Errorf("message = %q, want exactly %q", r.err.Message, c.w.prefix)
			}
		})
	}
}
