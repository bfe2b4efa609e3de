package protocol_test

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// seen is what a recording middleware saw of one message.
type seen struct {
	tag, method, id  string
	sent, notif      bool
	session, http    bool
	version          string
	result, errorMsg string
}

// recorder is a middleware that records every message it sees, after
// next has returned.
type recorder struct {
	tag   string
	mu    *sync.Mutex
	order *[]string // shared by the recorders of one side: who ran when
	list  []seen
}

func newRecorders(tags ...string) []*recorder {
	mu, order := new(sync.Mutex), new([]string)
	var rs []*recorder
	for _, t := range tags {
		rs = append(rs, &recorder{tag: t, mu: mu, order: order})
	}
	return rs
}

func (r *recorder) mw(next protocol.Handler) protocol.Handler {
	return func(ctx context.Context, m *protocol.Call) (jsonrpc.Result, error) {
		r.mu.Lock()
		*r.order = append(*r.order, r.tag+">"+m.Method)
		r.mu.Unlock()
		res, err := next(ctx, m)
		s := seen{tag: r.tag, method: m.Method, id: string(m.ID), sent: m.Sent, notif: m.Notification,
			session: m.Session != nil, http: m.HTTP != nil, version: m.ProtocolVersion()}
		if res != nil {
			var e codec.Encoder
			res.EncodeJSON(&e)
			s.result = string(e.Buf)
		}
		if err != nil {
			s.errorMsg = err.Error()
		}
		r.mu.Lock()
		*r.order = append(*r.order, r.tag+"<"+m.Method)
		r.list = append(r.list, s)
		r.mu.Unlock()
		return res, err
	}
}

func (r *recorder) seen() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.list)
}

func (r *recorder) find(t *testing.T, method string, sent bool) seen {
	t.Helper()
	for _, s := range r.seen() {
		if s.method == method && s.sent == sent {
			return s
		}
	}
	t.Fatalf("%s saw no %s %q; it saw %+v", r.tag, map[bool]string{true: "sent", false: "received"}[sent], method, r.seen())
	return seen{}
}

func middlewareServer2026(mw ...mcp20260728.Middleware) *mcp20260728.ServerDispatcher {
	d := mcp20260728.NewServerDispatcher(&mcp20260728.Server{}, mcp20260728.ServerOptions{ServerInfo: mcp20260728.Implementation{Name: "adder-2026", Version: "1"}, Middleware: mw})
	mcp20260728.AddTool(d, mcp20260728.Tool{Name: "add"}, func(ctx context.Context, p *mcp20260728.CallToolRequestParams, in addArgs) (*mcp20260728.CallToolResult, error) {
		return mcp20260728.TextResult(strconv.FormatInt(in.A+in.B, 10)), nil
	})
	return d
}

// TestMiddlewareStream: on a connection served by ServeStream, the
// server's middleware runs around every request it serves, in order, the
// first outermost, and sees the method, the id, the session, the result
// and the error; the client's sees each request it sends with the id the
// transport gave it and the result as JSON.
func TestMiddlewareStream(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := newRecorders("outer", "inner")
	cli := newRecorders("client")[0]
	tr := &pipeTransport{serve: middlewareServer2026(srv[0].mw, srv[1].mw).ServeStream}
	c, err := mcp20260728.Connect(ctx, tr, nil, mcp20260728.ClientOptions{Middleware: []mcp20260728.Middleware{cli.mw}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(ctx, &mcp20260728.CallToolRequestParams{Name: "add", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp20260728.TextContent).Text; got != "42" {
		t.Fatalf("add = %q", got)
	}
	_, callErr := c.CallTool(ctx, &mcp20260728.CallToolRequestParams{Name: "no-such-tool", Arguments: args})
	if callErr == nil {
		t.Fatal("calling an unknown tool succeeded")
	}
	c.Close()
	tr.wait(t)

	order := *srv[0].order
	want := []string{"outer>server/discover", "inner>server/discover", "inner<server/discover", "outer<server/discover"}
	if len(order) < 4 || !slices.Equal(order[:4], want) {
		t.Errorf("the server's middleware ran in the order %q, want it to start with %q", order, want)
	}
	for _, r := range srv {
		discover := r.find(t, "server/discover", false)
		if discover.id == "" || discover.notif || !discover.session || discover.http || discover.version != mcp20260728.ProtocolVersion {
			t.Errorf("%s saw server/discover as %+v: want an id, a session (the connection's), no HTTP request and version %s", r.tag, discover, mcp20260728.ProtocolVersion)
		}
		var calls []seen
		for _, s := range r.seen() {
			if s.method == "tools/call" {
				calls = append(calls, s)
			}
		}
		if len(calls) != 2 {
			t.Fatalf("%s saw %d tools/call, want 2: %+v", r.tag, len(calls), r.seen())
		}
		if !strings.Contains(calls[0].result, `"text":"42"`) || calls[0].errorMsg != "" {
			t.Errorf("%s saw the first tools/call answered with %q, error %q", r.tag, calls[0].result, calls[0].errorMsg)
		}
		if calls[1].result != "" || !strings.Contains(calls[1].errorMsg, "no-such-tool") {
			t.Errorf("%s saw the second tools/call answered with %q, error %q; want the unknown tool's error", r.tag, calls[1].result, calls[1].errorMsg)
		}
		if calls[0].id == calls[1].id {
			t.Errorf("%s saw both calls with the id %s", r.tag, calls[0].id)
		}
	}
	// The client saw its own requests, with the ids the server saw.
	var ids []string
	for _, s := range cli.seen() {
		if !s.sent || s.session || s.http {
			t.Errorf("the client's middleware saw %+v: want sent, no session, no HTTP request over a stream", s)
		}
		if s.method == "tools/call" {
			ids = append(ids, s.id)
		}
	}
	var srvIDs []string
	for _, s := range srv[0].seen() {
		if s.method == "tools/call" {
			srvIDs = append(srvIDs, s.id)
		}
	}
	if len(ids) != 2 || !slices.Equal(ids, srvIDs) {
		t.Errorf("the client's middleware saw the tools/call ids %q, the server's %q", ids, srvIDs)
	}
	call := cli.find(t, "tools/call", true)
	if !strings.Contains(call.result, `"text":"42"`) || call.version != mcp20260728.ProtocolVersion {
		t.Errorf("the client's middleware saw tools/call as %+v", call)
	}
	var re *jsonrpc.RPCError
	if !errors.As(callErr, &re) || re.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("the unknown tool's error reached the caller as %v", callErr)
	}
}

// TestMiddlewareHTTP: over Streamable HTTP the server's middleware sees
// the HTTP request that carried each message (no session: 2026-07-28 is
// stateless) and the version its _meta declares; the client's sees the
// POST that sent it once next returns.
func TestMiddlewareHTTP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := newRecorders("server")[0]
	cli := newRecorders("client")[0]
	hs := httptest.NewServer(mcp20260728.NewHTTPHandler(middlewareServer2026(srv.mw), mcp20260728.HTTPOptions{}))
	defer hs.Close()
	c, err := mcp20260728.Connect(ctx, &mcp20260728.HTTPTransport{URL: hs.URL}, nil, mcp20260728.ClientOptions{Middleware: []mcp20260728.Middleware{cli.mw}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.CallTool(ctx, &mcp20260728.CallToolRequestParams{Name: "add", Arguments: args}); err != nil {
		t.Fatal(err)
	}
	s := srv.find(t, "tools/call", false)
	if !s.http || s.session || s.id == "" || s.version != mcp20260728.ProtocolVersion || !strings.Contains(s.result, `"42"`) {
		t.Errorf("the server's middleware saw %+v: want the HTTP request, no session, an id, version %s and the result", s, mcp20260728.ProtocolVersion)
	}
	cs := cli.find(t, "tools/call", true)
	if !cs.http || cs.id != s.id {
		t.Errorf("the client's middleware saw %+v: want its POST and the id %s the server saw", cs, s.id)
	}
}

// TestMiddlewareChangesAndRefuses: a middleware may answer without
// calling next (the handler does not run, the caller gets its error) and
// may hand next other params (the handler decodes those, checked against
// the schema as usual); a panic in a middleware is an internal error, and
// the server goes on serving.
func TestMiddlewareChangesAndRefuses(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	refuse := func(next protocol.Handler) protocol.Handler {
		return func(ctx context.Context, m *protocol.Call) (jsonrpc.Result, error) {
			if m.Method == "tools/call" && bytes.Contains(m.Params, []byte(`"a":13`)) {
				return nil, &jsonrpc.RPCError{Code: -32001, Message: "refused by policy"}
			}
			if m.Method == "tools/call" && bytes.Contains(m.Params, []byte(`"a":666`)) {
				panic("a broken middleware")
			}
			if m.Method == "tools/call" {
				m.Params = bytes.Replace(m.Params, []byte(`"b":2`), []byte(`"b":3`), 1)
			}
			if m.Method == "tools/call" && bytes.Contains(m.Params, []byte(`"a":7`)) {
				m.Params = bytes.Replace(m.Params, []byte(`"a":7`), []byte(`"a":"seven"`), 1)
			}
			return next(ctx, m)
		}
	}
	tr := &pipeTransport{serve: middlewareServer2026(refuse).ServeStream}
	c, err := mcp20260728.Connect(ctx, tr, nil, mcp20260728.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { c.Close(); tr.wait(t) }()
	call := func(a int) (*mcp20260728.CallToolResult, error) {
		return c.CallTool(ctx, &mcp20260728.CallToolRequestParams{Name: "add", Arguments: []byte(`{"a":` + strconv.Itoa(a) + `,"b":2}`)})
	}
	res, err := call(40)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp20260728.TextContent).Text; got != "43" {
		t.Errorf("add(40, 2) with the middleware making b 3 = %q, want 43", got)
	}
	var re *jsonrpc.RPCError
	if _, err := call(13); !errors.As(err, &re) || re.Code != -32001 || re.Message != "refused by policy" {
		t.Errorf("a refused call: %v, want the middleware's error -32001", err)
	}
	if res, err := call(7); err != nil || res.IsError == nil || !*res.IsError {
		t.Errorf("arguments the middleware broke: %+v, %v; want a tool error (the tool's checks run after it)", res, err)
	}
	if _, err := call(666); !errors.As(err, &re) || re.Code != jsonrpc.CodeInternalError || !strings.Contains(re.Message, "middleware panicked") {
		t.Errorf("a panicking middleware: %v, want an internal error", err)
	}
	if res, err := call(1); err != nil || res.Content[0].(*mcp20260728.TextContent).Text != "4" {
		t.Errorf("after the panic the server answers %v, %v", res, err)
	}
}

// TestMiddlewareMethodTable: the middleware runs before the method
// lookup (an unknown method reaches it, with method not found), not for
// messages that are not valid JSON-RPC.
func TestMiddlewareMethodTable(t *testing.T) {
	r := newRecorders("server")[0]
	d := middlewareServer2026(r.mw)
	resp := d.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":5,"method":"no/such","params":{}}`))
	if !bytes.Contains(resp, []byte(`"code":-32601`)) {
		t.Fatalf("an unknown method: %s", resp)
	}
	s := r.find(t, "no/such", false)
	if s.id != "5" || !strings.Contains(s.errorMsg, "method not found") {
		t.Errorf("the middleware saw %+v", s)
	}
	before := len(r.seen())
	d.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":6}`))
	d.Handle(context.Background(), []byte(`not json`))
	if n := len(r.seen()); n != before {
		t.Errorf("the middleware saw %d more messages; invalid JSON-RPC must not reach it", n-before)
	}
}

type rootsClient struct {
	mcp20251125.UnimplementedClientHandler
}

func (rootsClient) ListRoots(context.Context, *mcp20251125.RequestParams) (*mcp20251125.ListRootsResult, error) {
	return &mcp20251125.ListRootsResult{Roots: []mcp20251125.Root{{URI: "file:///w"}}}, nil
}

// TestMiddlewareSentByServer: in a revision with the initialize handshake
// the server's middleware also sees the requests and notifications the
// server sends its client (Sent; a request with the id the peer gave it),
// and the notifications the client sends (notifications/initialized); the
// client's middleware sees what the server sends it as received.
func TestMiddlewareSentByServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := newRecorders("server")[0]
	cli := newRecorders("client")[0]
	d := mcp20251125.NewServerDispatcher(&mcp20251125.Server{}, mcp20251125.ServerOptions{ServerInfo: mcp20251125.Implementation{Name: "roots", Version: "1"}, Middleware: []mcp20251125.Middleware{srv.mw}})
	mcp20251125.AddTool(d, mcp20251125.Tool{Name: "roots"}, func(ctx context.Context, p *mcp20251125.CallToolRequestParams, in struct{}) (*mcp20251125.CallToolResult, error) {
		if err := mcp20251125.Log(ctx, mcp20251125.LoggingLevelInfo, "roots", "asking"); err != nil {
			return nil, err
		}
		var res mcp20251125.ListRootsResult
		if err := mcp20251125.SendRequest(ctx, "roots/list", nil, &res); err != nil {
			return nil, err
		}
		return mcp20251125.TextResult(res.Roots[0].URI), nil
	})
	tr := &pipeTransport{serve: d.ServeStream}
	c, err := mcp20251125.Connect(ctx, tr, rootsClient{}, mcp20251125.ClientOptions{
		Capabilities: mcp20251125.ClientCapabilities{Roots: &mcp20251125.ClientCapabilitiesRoots{}},
		Middleware:   []mcp20251125.Middleware{cli.mw},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(ctx, &mcp20251125.CallToolRequestParams{Name: "roots", Arguments: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp20251125.TextContent).Text; got != "file:///w" {
		t.Fatalf("roots = %q", got)
	}
	c.Close()
	tr.wait(t)
	roots := srv.find(t, "roots/list", true)
	if roots.id == "" || !roots.session || !strings.Contains(roots.result, "file:///w") || roots.version != "2025-11-25" {
		t.Errorf("the server's middleware saw the roots/list it sent as %+v", roots)
	}
	if n := srv.find(t, "notifications/initialized", false); !n.notif || n.id != "" {
		t.Errorf("the server's middleware saw notifications/initialized as %+v", n)
	}
	if n := srv.find(t, "notifications/message", true); !n.notif || !n.session || n.id != "" {
		t.Errorf("the server's middleware saw the log message it sent as %+v", n)
	}
	if n := cli.find(t, "notifications/message", false); !n.notif || n.sent {
		t.Errorf("the client's middleware saw the server's log message as %+v", n)
	}
	in := cli.find(t, "roots/list", false)
	if in.id != roots.id || in.sent || !strings.Contains(in.result, "file:///w") {
		t.Errorf("the client's middleware saw the server's roots/list as %+v (the server sent id %s)", in, roots.id)
	}
	if n := cli.find(t, "notifications/initialized", true); !n.notif || n.version != "2025-11-25" {
		t.Errorf("the client's middleware saw its notifications/initialized as %+v", n)
	}
	if i := cli.find(t, "initialize", true); i.id == "" || !strings.Contains(i.result, "protocolVersion") {
		t.Errorf("the client's middleware saw its initialize as %+v", i)
	}
}

// TestMiddlewareOlderClient: a client of an older revision served through
// the conversions passes through the middleware once per message, with
// the method it sent and the version its session negotiated.
func TestMiddlewareOlderClient(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := newRecorders("server")[0]
	tr := &pipeTransport{serve: middlewareServer2026(srv.mw).ServeStream}
	c, err := mcp20251125.Connect(ctx, tr, nil, mcp20251125.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallTool(ctx, &mcp20251125.CallToolRequestParams{Name: "add", Arguments: args}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	tr.wait(t)
	n := 0
	for _, s := range srv.seen() {
		if s.method == "tools/call" {
			n++
			if s.version != "2025-11-25" || !s.session || !strings.Contains(s.result, `"42"`) {
				t.Errorf("the middleware saw the older client's tools/call as %+v", s)
			}
		}
	}
	if n != 1 {
		t.Errorf("the middleware saw %d tools/call for one: %+v", n, srv.seen())
	}
	srv.find(t, "initialize", false)
}

// TestMiddlewareBroadcast: what a server announces to every session (its
// sets' list changes) passes through its middleware, once per session, as
// a sent notification on that session: to a client of its own revision
// (2025-11-25) and to an older client served through the conversions.
func TestMiddlewareBroadcast(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	t.Run("2025-11-25", func(t *testing.T) {
		srv := newRecorders("server")[0]
		d := mcp20251125.NewServerDispatcher(&mcp20251125.Server{}, mcp20251125.ServerOptions{ServerInfo: mcp20251125.Implementation{Name: "s", Version: "1"}, Middleware: []mcp20251125.Middleware{srv.mw}})
		tr := &pipeTransport{serve: d.ServeStream}
		c, err := mcp20251125.Connect(ctx, tr, nil, mcp20251125.ClientOptions{})
		if err != nil {
			t.Fatal(err)
		}
		mcp20251125.AddTool(d, mcp20251125.Tool{Name: "late"}, func(context.Context, *mcp20251125.CallToolRequestParams, struct{}) (*mcp20251125.CallToolResult, error) {
			return nil, nil
		})
		c.Close()
		tr.wait(t)
		if n := srv.find(t, "notifications/tools/list_changed", true); !n.notif || !n.session || n.version != "2025-11-25" {
			t.Errorf("the middleware saw the broadcast as %+v", n)
		}
	})
	t.Run("older client of 2026-07-28", func(t *testing.T) {
		srv := newRecorders("server")[0]
		d := middlewareServer2026(srv.mw)
		tr := &pipeTransport{serve: d.ServeStream}
		c, err := mcp20251125.Connect(ctx, tr, nil, mcp20251125.ClientOptions{})
		if err != nil {
			t.Fatal(err)
		}
		mcp20260728.AddTool(d, mcp20260728.Tool{Name: "late"}, func(context.Context, *mcp20260728.CallToolRequestParams, struct{}) (*mcp20260728.CallToolResult, error) {
			return nil, nil
		})
		c.Close()
		tr.wait(t)
		n := 0
		for _, s := range srv.seen() {
			if s.method == "notifications/tools/list_changed" {
				n++
				if !s.sent || !s.session || s.version != "2025-11-25" {
					t.Errorf("the middleware saw the broadcast as %+v", s)
				}
			}
		}
		if n != 1 {
			t.Errorf("the middleware saw %d list changes for one session: %+v", n, srv.seen())
		}
	})
}

func TestChain(t *testing.T) {
	var order []string
	mk := func(tag string) protocol.Middleware {
		return func(next protocol.Handler) protocol.Handler {
			return func(ctx context.Context, m *protocol.Call) (jsonrpc.Result, error) {
				order = append(order, tag)
				return next(ctx, m)
			}
		}
	}
	if protocol.Chain() != nil || protocol.Chain(nil, nil) != nil {
		t.Error("an empty chain is not nil")
	}
	h := protocol.Chain(mk("a"), nil, mk("b"), mk("c"))(func(context.Context, *protocol.Call) (jsonrpc.Result, error) {
		order = append(order, "h")
		return jsonrpc.RawResult(`{}`), nil
	})
	if _, err := h(context.Background(), &protocol.Call{Method: "x"}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(order, []string{"a", "b", "c", "h"}) {
		t.Errorf("order %q", order)
	}
}
