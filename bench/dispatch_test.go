package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgen "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The dispatcher benchmarks: the time to answer one JSON-RPC request, from
// its bytes to the bytes of the response, in mcpgen's generated 2026-07-28
// ServerDispatcher and in the go-sdk v1.8.0 server, for three requests.
//
// Both servers hold the same state and do the same handler work: one tool,
// "add" (the same name, description and input schema), whose handler
// decodes its arguments with encoding/json into struct{ A, B int64 } and
// answers the sum as text and as structuredContent {"sum":N}; tools/list
// answers that tool with ttlMs 300000, cacheScope public; server/discover is
// each library's own answer from its options (the same server name and
// version, instructions, tools capability, the one supported version
// 2026-07-28, ttlMs 3600000, cacheScope public). TestDispatchEquivalent
// (and every benchmark, before it times anything) checks that both answer
// each request with the same response.
//
// Implementations (the second part of the benchmark name):
//
//	McpgenHandle     ServerDispatcher.Handle(ctx, request) in the calling
//	                 goroutine: the bytes of the request in, the bytes of
//	                 the response out. The mcpgen side of the target.
//	GoSDKPipe        the go-sdk server connected with Server.Connect to
//	                 mcp.IOTransport{Reader: c, Writer: c}, c one end of a
//	                 net.Pipe: the same server side as
//	                 mcp.NewInMemoryTransports (an ioConn over a net.Pipe
//	                 end, newline-delimited JSON, DefaultMaxLineLength),
//	                 whose InMemoryTransport does not expose its pipe. The
//	                 benchmark writes the request line to the other end and
//	                 reads the response line back: a raw JSON-RPC client
//	                 doing no decoding. The go-sdk side of the target.
//	GoSDKInMemory    a cross-check through mcp.NewInMemoryTransports itself:
//	                 Server.Connect on one transport, Connect on the other
//	                 for its mcp.Connection, and per op Connection.Write of
//	                 the request (decoded with jsonrpc.DecodeMessage before
//	                 timing) and Connection.Read of the response. This adds
//	                 client-side work (encoding the request, decoding the
//	                 response envelope) that GoSDKPipe does not have.
//	McpgenServePipe  ServerDispatcher.Serve on a net.Pipe end, driven like
//	                 GoSDKPipe: mcpgen with the same transport work as the
//	                 go-sdk side (not part of the target).
//	PipeEcho         the transport alone: a goroutine reads each request
//	                 line from a net.Pipe end and writes back the go-sdk's
//	                 response bytes, driven like GoSDKPipe (the floor of the
//	                 two pipe rows).
//
// Besides ns/op, B/op and allocs/op (process-wide, so the server's
// goroutines count too) each reports cpu-ns/op, the process's CPU time (all
// threads) per request, as the corpus benchmarks report cpu-ns/byte.

const (
	dispServerName    = "bench-server"
	dispServerVersion = "1.0.0"
	dispInstructions  = "Call the add tool to add two integers."
	dispVersion       = "2026-07-28"
	dispToolsTTL      = 5 * time.Minute
	dispDiscoverTTL   = time.Hour
	dispToolDesc      = "Adds two integers."
	dispToolProps     = `{"a":{"type":"integer"},"b":{"type":"integer"}}`
	dispToolRequired  = `["a","b"]`
)

// dispMeta is the _meta every 2026-07-28 request carries.
const dispMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"bench-client","version":"0.0.1"},` +
	`"io.modelcontextprotocol/clientCapabilities":{}}`

var dispRequests = []struct {
	name string // the third part of the benchmark name
	msg  string
}{
	{"ServerDiscover", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":` + dispMeta + `}}`},
	{"ToolsList", `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":` + dispMeta + `}}`},
	{"ToolsCall", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":40,"b":2},"_meta":` + dispMeta + `}}`},
}

// addArgs is what both "add" handlers decode their arguments into.
type addArgs struct{ A, B int64 }

// addResult is the work of both "add" handlers after decoding: the sum as
// text and as structuredContent.
func addResult(args json.RawMessage) (text string, structured json.RawMessage, err error) {
	var a addArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return "", nil, err
	}
	sum := a.A + a.B
	text = strconv.FormatInt(sum, 10)
	structured = append(append([]byte(`{"sum":`), text...), '}')
	return text, structured, nil
}

// The mcpgen server.

type mcpgenAdd struct {
	mcpgen.UnimplementedServerHandler
	tools []mcpgen.Tool
}

func (s *mcpgenAdd) ListTools(context.Context, *mcpgen.PaginatedRequestParams) (*mcpgen.ListToolsResult, error) {
	return &mcpgen.ListToolsResult{
		Tools:      s.tools,
		TTLMs:      dispToolsTTL.Milliseconds(),
		CacheScope: mcpgen.CacheScopePublic,
	}, nil
}

func (s *mcpgenAdd) CallTool(_ context.Context, p *mcpgen.CallToolRequestParams) (*mcpgen.CallToolResult, error) {
	if p.Name != "add" {
		return nil, &mcpgen.RPCError{Code: mcpgen.CodeInvalidParams, Message: "unknown tool " + strconv.Quote(p.Name)}
	}
	text, structured, err := addResult(p.Arguments)
	if err != nil {
		return &mcpgen.CallToolResult{IsError: new(true), Content: []mcpgen.ContentBlock{&mcpgen.TextContent{Text: "bad arguments: " + err.Error()}}}, nil
	}
	return &mcpgen.CallToolResult{
		Content:           []mcpgen.ContentBlock{&mcpgen.TextContent{Text: text}},
		StructuredContent: structured,
	}, nil
}

func newMcpgenDispatcher(mw ...mcpgen.Middleware) *mcpgen.ServerDispatcher {
	h := &mcpgenAdd{tools: []mcpgen.Tool{{
		Name:        "add",
		Description: new(dispToolDesc),
		InputSchema: mcpgen.ToolInputSchema{Extra: mcpgen.Members{
			{Name: "properties", Value: json.RawMessage(dispToolProps)},
			{Name: "required", Value: json.RawMessage(dispToolRequired)},
		}},
	}}}
	return mcpgen.NewServerDispatcher(h, mcpgen.ServerOptions{
		ServerInfo:        mcpgen.Implementation{Name: dispServerName, Version: dispServerVersion},
		Capabilities:      mcpgen.ServerCapabilities{Tools: &mcpgen.ServerCapabilitiesTools{}},
		Instructions:      dispInstructions,
		SupportedVersions: []string{dispVersion},
		DiscoverTTL:       dispDiscoverTTL,
		Middleware:        mw,
	})
}

// The go-sdk server.

func newGoSDKServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: dispServerName, Version: dispServerVersion}, &sdk.ServerOptions{
		Instructions:              dispInstructions,
		Capabilities:              &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
		SupportedProtocolVersions: []string{dispVersion},
		SetCacheable: func(_ context.Context, req sdk.Request, c *sdk.Cacheable) {
			if _, ok := req.(*sdk.ListToolsRequest); ok {
				c.TTLMs = int(dispToolsTTL.Milliseconds())
			} else {
				c.TTLMs = int(dispDiscoverTTL.Milliseconds()) // server/discover
			}
			c.CacheScope = "public"
		},
	})
	addGoSDKTool(s)
	return s
}

// addGoSDKTool adds the "add" tool to s.
func addGoSDKTool(s *sdk.Server) {
	s.AddTool(&sdk.Tool{
		Name:        "add",
		Description: dispToolDesc,
		InputSchema: json.RawMessage(`{"type":"object","properties":` + dispToolProps + `,"required":` + dispToolRequired + `}`),
	}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		text, structured, err := addResult(req.Params.Arguments)
		if err != nil {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "bad arguments: " + err.Error()}}}, nil
		}
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: text}},
			StructuredContent: structured,
		}, nil
	})
}

// roundTripper answers one request (without a trailing newline) with the
// bytes of one response. The slice it returns may be reused by the next
// call.
type roundTripper interface {
	roundTrip(req []byte) ([]byte, error)
	close()
}

// handleRT calls ServerDispatcher.Handle directly.
type handleRT struct {
	d   *mcpgen.ServerDispatcher
	ctx context.Context
}

func (h *handleRT) roundTrip(req []byte) ([]byte, error) {
	resp := h.d.Handle(h.ctx, req)
	if resp == nil {
		return nil, fmt.Errorf("no response")
	}
	return resp, nil
}

func (h *handleRT) close() {}

// pipeRT is a raw newline-delimited JSON-RPC client on one end of a
// net.Pipe whose other end a server serves.
type pipeRT struct {
	conn net.Conn
	r    *bufio.Reader
	line []byte
	stop func() // stops the server, after conn is closed
}

func newPipeRT(serve func(server net.Conn) (stop func(), err error)) (*pipeRT, error) {
	server, client := net.Pipe()
	stop, err := serve(server)
	if err != nil {
		server.Close()
		client.Close()
		return nil, err
	}
	return &pipeRT{conn: client, r: bufio.NewReaderSize(client, 64<<10), stop: stop}, nil
}

func (p *pipeRT) roundTrip(req []byte) ([]byte, error) {
	p.line = append(append(p.line[:0], req...), '\n')
	if _, err := p.conn.Write(p.line); err != nil {
		return nil, err
	}
	resp, err := p.r.ReadSlice('\n')
	if err != nil {
		return nil, err
	}
	return bytes.TrimRight(resp, "\r\n"), nil
}

func (p *pipeRT) close() {
	p.conn.Close()
	p.stop()
}

func newGoSDKPipe() (roundTripper, error) {
	return newPipeRT(func(c net.Conn) (func(), error) {
		ss, err := newGoSDKServer().Connect(context.Background(), &sdk.IOTransport{Reader: c, Writer: c}, nil)
		if err != nil {
			return nil, err
		}
		return func() { ss.Close(); ss.Wait() }, nil
	})
}

func newMcpgenServePipe() (roundTripper, error) {
	return newPipeRT(func(c net.Conn) (func(), error) {
		d := newMcpgenDispatcher()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			d.Serve(ctx, c, c)
		}()
		return func() { cancel(); c.Close(); <-done }, nil
	})
}

// newPipeEcho answers every request line with resp.
func newPipeEcho(resp []byte) (roundTripper, error) {
	return newPipeRT(func(c net.Conn) (func(), error) {
		line := append(append([]byte(nil), resp...), '\n')
		done := make(chan struct{})
		go func() {
			defer close(done)
			r := bufio.NewReaderSize(c, 64<<10)
			for {
				if _, err := r.ReadSlice('\n'); err != nil {
					return
				}
				if _, err := c.Write(line); err != nil {
					return
				}
			}
		}()
		return func() { c.Close(); <-done }, nil
	})
}

// inMemoryRT drives the go-sdk server through mcp.NewInMemoryTransports:
// the client end is the mcp.Connection its InMemoryTransport returns, which
// writes and reads jsonrpc.Message values.
type inMemoryRT struct {
	ss   *sdk.ServerSession
	conn sdk.Connection
	ctx  context.Context
	req  []byte
	msg  jsonrpc.Message // req decoded, once per request
}

func newGoSDKInMemory() (roundTripper, error) {
	st, ct := sdk.NewInMemoryTransports()
	ss, err := newGoSDKServer().Connect(context.Background(), st, nil)
	if err != nil {
		return nil, err
	}
	conn, err := ct.Connect(context.Background())
	if err != nil {
		ss.Close()
		return nil, err
	}
	return &inMemoryRT{ss: ss, conn: conn, ctx: context.Background()}, nil
}

func (m *inMemoryRT) roundTrip(req []byte) ([]byte, error) {
	if !bytes.Equal(req, m.req) {
		msg, err := jsonrpc.DecodeMessage(req)
		if err != nil {
			return nil, err
		}
		m.req, m.msg = append(m.req[:0], req...), msg
	}
	if err := m.conn.Write(m.ctx, m.msg); err != nil {
		return nil, err
	}
	resp, err := m.conn.Read(m.ctx)
	if err != nil {
		return nil, err
	}
	return jsonrpc.EncodeMessage(resp)
}

func (m *inMemoryRT) close() {
	m.conn.Close()
	m.ss.Close()
	m.ss.Wait()
}

// dispImpls are the implementations, by the second part of the benchmark
// name. PipeEcho is made separately (it needs the response to echo).
var dispImpls = []struct {
	name string
	make func() (roundTripper, error)
}{
	{"McpgenHandle", func() (roundTripper, error) {
		return &handleRT{d: newMcpgenDispatcher(), ctx: context.Background()}, nil
	}},
	{"GoSDKPipe", newGoSDKPipe},
	{"GoSDKInMemory", newGoSDKInMemory},
	{"McpgenServePipe", newMcpgenServePipe},
}

// dispResponses answers every request with every implementation, checks
// that all answers to a request are equivalent, and returns the go-sdk's
// answers (PipeEcho's responses).
func dispResponses() (map[string][]byte, error) {
	got := map[string]map[string][]byte{} // request -> implementation -> response
	for _, impl := range dispImpls {
		rt, err := impl.make()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", impl.name, err)
		}
		for _, req := range dispRequests {
			// Twice: the answer must not change once caches are warm.
			for range 2 {
				resp, err := rt.roundTrip([]byte(req.msg))
				if err != nil {
					rt.close()
					return nil, fmt.Errorf("%s %s: %v", impl.name, req.name, err)
				}
				if got[req.name] == nil {
					got[req.name] = map[string][]byte{}
				}
				if prev, ok := got[req.name][impl.name]; ok && !bytes.Equal(prev, resp) {
					rt.close()
					return nil, fmt.Errorf("%s %s: the second answer differs from the first:\n%s\n%s", impl.name, req.name, prev, resp)
				}
				got[req.name][impl.name] = append([]byte(nil), resp...)
			}
		}
		rt.close()
	}
	out := map[string][]byte{}
	for _, req := range dispRequests {
		want := got[req.name]["McpgenHandle"]
		for _, impl := range dispImpls[1:] {
			resp := got[req.name][impl.name]
			if err := sameResponse(want, resp); err != nil {
				return nil, fmt.Errorf("%s: McpgenHandle and %s answer differently: %v\nMcpgenHandle: %s\n%s: %s", req.name, impl.name, err, want, impl.name, resp)
			}
		}
		out[req.name] = got[req.name]["GoSDKPipe"]
	}
	return out, nil
}

// sameResponse checks that two responses to the same request are
// equivalent: both results (not errors), the same jsonrpc and id, and
// results with the same members and values, but for the serverInfo in
// _meta, which only has to be an object naming the same server.
func sameResponse(a, b []byte) error {
	va, err := DecodeNumber(a)
	if err != nil {
		return err
	}
	vb, err := DecodeNumber(b)
	if err != nil {
		return err
	}
	ma, ok1 := va.(map[string]any)
	mb, ok2 := vb.(map[string]any)
	if !ok1 || !ok2 {
		return fmt.Errorf("not JSON objects")
	}
	for _, m := range []map[string]any{ma, mb} {
		if _, ok := m["result"]; !ok {
			return fmt.Errorf("not a result response")
		}
		if len(m) != 3 {
			return fmt.Errorf("a response has members other than jsonrpc, id and result")
		}
	}
	if !valueEqual(ma["jsonrpc"], mb["jsonrpc"]) || !valueEqual(ma["id"], mb["id"]) {
		return fmt.Errorf("jsonrpc or id differ")
	}
	ra, ok1 := ma["result"].(map[string]any)
	rb, ok2 := mb["result"].(map[string]any)
	if !ok1 || !ok2 {
		return fmt.Errorf("a result is not an object")
	}
	const key = "io.modelcontextprotocol/serverInfo"
	for i, r := range []map[string]any{ra, rb} {
		meta, _ := r["_meta"].(map[string]any)
		info, ok := meta[key].(map[string]any)
		if !ok {
			return fmt.Errorf("a result has no _meta %q object", key)
		}
		if info["name"] != dispServerName {
			return fmt.Errorf("_meta %q does not name %q", key, dispServerName)
		}
		rest := map[string]any{}
		for k, v := range meta {
			if k != key {
				rest[k] = v
			}
		}
		r2 := map[string]any{}
		for k, v := range r {
			r2[k] = v
		}
		if len(rest) == 0 {
			delete(r2, "_meta")
		} else {
			r2["_meta"] = rest
		}
		if i == 0 {
			ra = r2
		} else {
			rb = r2
		}
	}
	if !valueEqual(ra, rb) {
		return fmt.Errorf("the results differ (serverInfo aside)")
	}
	return nil
}

var (
	dispOnce sync.Once
	dispResp map[string][]byte
	dispErr  error
)

// theDispResponses checks the implementations against each other once per
// process and returns the go-sdk's responses.
func theDispResponses(tb testing.TB) map[string][]byte {
	tb.Helper()
	dispOnce.Do(func() { dispResp, dispErr = dispResponses() })
	if dispErr != nil {
		tb.Fatal(dispErr)
	}
	return dispResp
}

func TestDispatchEquivalent(t *testing.T) {
	resp := theDispResponses(t)
	d := newMcpgenDispatcher()
	for _, req := range dispRequests {
		t.Logf("%s:\n  request  %s\n  go-sdk   %s\n  mcpgen   %s", req.name, req.msg, resp[req.name], d.Handle(context.Background(), []byte(req.msg)))
	}
}

// The equivalence check must see a different answer: a wrong sum, a
// missing or extra member, a different id, an error instead of a result.
func TestDispatchCheckRejects(t *testing.T) {
	resp := theDispResponses(t)
	call := string(resp["ToolsCall"])
	list := string(resp["ToolsList"])
	for _, c := range []struct{ what, a, b string }{
		{"sum", call, strings.Replace(call, `{"sum":42}`, `{"sum":43}`, 1)},
		{"text", call, strings.Replace(call, `"text":"42"`, `"text":"43"`, 1)},
		{"ttlMs", list, strings.Replace(list, `"ttlMs":300000,`, ``, 1)},
		{"extra member", list, strings.Replace(list, `"tools":[`, `"nextCursor":"x","tools":[`, 1)},
		{"id", call, strings.Replace(call, `"id":3`, `"id":4`, 1)},
		{"other _meta", call, strings.Replace(call, `"_meta":{`, `"_meta":{"x":1,`, 1)},
		{"no serverInfo", call, strings.Replace(call, `"io.modelcontextprotocol/serverInfo"`, `"x"`, 1)},
		{"error", call, `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"x"}}`},
	} {
		if c.a == c.b {
			t.Fatalf("%s: the edit did not apply to %s", c.what, c.a)
		}
		if err := sameResponse([]byte(c.a), []byte(c.b)); err == nil {
			t.Errorf("%s: not told apart:\n%s\n%s", c.what, c.a, c.b)
		}
	}
	// A different serverInfo version is allowed.
	other := strings.Replace(call, `"version":"1.0.0"`, `"version":"2.0.0"`, 1)
	if err := sameResponse([]byte(call), []byte(other)); err != nil {
		t.Errorf("a different serverInfo version: %v", err)
	}
}

// BenchmarkDispatch/<implementation>/<request>.
func BenchmarkDispatch(b *testing.B) {
	responses := theDispResponses(b)
	impls := append(dispImpls[:len(dispImpls):len(dispImpls)], struct {
		name string
		make func() (roundTripper, error)
	}{"PipeEcho", nil})
	for _, impl := range impls {
		b.Run(impl.name, func(b *testing.B) {
			for _, req := range dispRequests {
				b.Run(req.name, func(b *testing.B) {
					mk := impl.make
					if mk == nil {
						mk = func() (roundTripper, error) { return newPipeEcho(responses[req.name]) }
					}
					rt, err := mk()
					if err != nil {
						b.Fatal(err)
					}
					defer rt.close()
					dispLoop(b, rt, []byte(req.msg), responses[req.name])
				})
			}
		})
	}
}

// dispLoop times rt.roundTrip(msg), after checking once more that this
// round tripper answers as the others do.
func dispLoop(b *testing.B, rt roundTripper, msg, want []byte) {
	resp, err := rt.roundTrip(msg)
	if err != nil {
		b.Fatal(err)
	}
	if err := sameResponse(want, resp); err != nil {
		b.Fatalf("the answer differs from the go-sdk's: %v\n%s\n%s", err, resp, want)
	}
	b.ReportAllocs()
	runtime.GC()
	cpu0 := cpuNanos()
	for b.Loop() {
		if _, err := rt.roundTrip(msg); err != nil {
			b.Fatal(err)
		}
	}
	cpu1 := cpuNanos()
	b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
}
