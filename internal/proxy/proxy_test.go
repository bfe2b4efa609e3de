package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	old "github.com/mcpgen/mcpgen/generated/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/legacyserver"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// counter counts the requests a server receives, by method.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) middleware(next mcp.Handler) mcp.Handler {
	return func(ctx context.Context, req *mcp.Call) (jsonrpc.Result, error) {
		if !req.Sent {
			c.mu.Lock()
			if c.n == nil {
				c.n = map[string]int{}
			}
			c.n[req.Method]++
			c.mu.Unlock()
		}
		return next(ctx, req)
	}
}

func (c *counter) get(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[method]
}

type addArgs struct {
	A int64 `json:"a"`
	B int64 `json:"b"`
}

type you struct {
	Name string `json:"name" jsonschema:"Your name"`
}

// modernServer is a server of 2026-07-28 only, over HTTP on 127.0.0.1:
// an add tool and a greet tool that asks for a name (multi round-trip).
func modernServer(t testing.TB, ttl time.Duration, scope mcp.CacheScope, mw ...mcp.Middleware) (*mcp.Server, *counter, string) {
	t.Helper()
	s := &mcp.Server{TTL: ttl, CacheScope: scope}
	mcp.AddTool(s, mcp.Tool{Name: "add"}, func(ctx context.Context, p *mcp.CallToolRequestParams, in addArgs) (*mcp.CallToolResult, error) {
		return mcp.TextResult(jsonNumber(in.A + in.B)), nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "greet"}, func(ctx context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		in := mcp.Ask(p.InputResponses)
		name := in.Elicit("name", mcp.Form[you]("Who are you?"))
		if err := in.Err(); err != nil {
			return nil, err
		}
		v, ok, err := mcp.FormValue[you](name)
		if err != nil || !ok {
			return mcp.ErrorResult("no name"), err
		}
		return mcp.TextResult("Hello, " + v.Name + "!"), nil
	})
	c := &counter{}
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{
		ServerInfo:       mcp.Implementation{Name: "modern-only", Version: "1"},
		OnlyThisRevision: true,
		Middleware:       append([]mcp.Middleware{c.middleware}, mw...),
	})
	hs := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	t.Cleanup(hs.Close)
	t.Cleanup(s.EndSubscriptions)
	return s, c, hs.URL
}

func jsonNumber(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// serveProxy serves p over HTTP on 127.0.0.1.
func serveProxy(t testing.TB, p *Proxy) string {
	t.Helper()
	hs := httptest.NewServer(mcp.NewHTTPHandler(p.Dispatcher(), mcp.HTTPOptions{}))
	t.Cleanup(hs.Close)
	return hs.URL
}

func newProxy(t *testing.T, opts Options) *Proxy {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, err := New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// elicitor is a 2025-11-25 client's handler that answers a form with a
// name.
type elicitor struct {
	old.UnimplementedClientHandler
	asked int
}

func (e *elicitor) Elicit(ctx context.Context, p old.ElicitRequestParams) (*old.ElicitResult, error) {
	e.asked++
	return &old.ElicitResult{Action: old.ElicitResultActionAccept, Content: map[string]old.ElicitResultContentValue{"name": {Kind: old.KindString, Str: "Ada"}}}, nil
}

// A 2025-11-25 client lists and calls the tools of a 2026-07-28-only
// server through the proxy, and answers its input request.
func TestOlderClientModernServer(t *testing.T) {
	_, up, url := modernServer(t, 0, "")
	p := newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: url}})
	if v := p.UpstreamVersion(); v != mcp.ProtocolVersion {
		t.Fatalf("upstream version %q", v)
	}
	purl := serveProxy(t, p)
	ctx := context.Background()
	h := &elicitor{}
	c, err := old.Connect(ctx, &old.HTTPTransport{URL: purl}, h, old.ClientOptions{Capabilities: old.ClientCapabilities{Elicitation: &old.ClientCapabilitiesElicitation{Form: &old.ClientCapabilitiesElicitationForm{}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if v := c.ProtocolVersion(); v != "2025-11-25" {
		t.Errorf("downstream version %q", v)
	}
	if info := c.ServerInfo(); info == nil || info.Name != "modern-only" {
		t.Errorf("serverInfo %+v", info)
	}
	tools, err := c.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "add,greet" {
		t.Errorf("tools %v", names)
	}
	res, err := c.CallTool(ctx, &old.CallToolRequestParams{Name: "add", Arguments: json.RawMessage(`{"a":40,"b":2}`)})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Text(); got != "42" {
		t.Errorf("add = %q", got)
	}
	res, err = c.CallTool(ctx, &old.CallToolRequestParams{Name: "greet"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Text(); got != "Hello, Ada!" || h.asked != 1 {
		t.Errorf("greet = %q after %d elicitations", got, h.asked)
	}
	if n := up.get(mcp.MethodCallTool); n != 3 {
		t.Errorf("upstream got %d tools/call, want 3 (add, greet and its retry)", n)
	}
	if vs := p.Tap().Violations(); len(vs) != 0 {
		t.Errorf("violations: %v", vs)
	}
	if p.Tap().Checked() < 6 {
		t.Errorf("checked %d messages", p.Tap().Checked())
	}
}

// stdioPair serves p on an in-process stdio connection and returns the
// client's end.
func stdioPair(t *testing.T, p *Proxy) io.ReadWriteCloser {
	t.Helper()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Dispatcher().Serve(context.Background(), c2sR, s2cW)
		s2cW.Close()
	}()
	t.Cleanup(func() {
		c2sW.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the proxy did not stop serving")
		}
	})
	return struct {
		io.Reader
		io.WriteCloser
	}{s2cR, c2sW}
}

// A 2026-07-28 client uses a 2025-06-18 server through the proxy (stdio
// downstream, HTTP upstream); what 2025-06-18 cannot carry is a clear
// JSON-RPC error.
func TestModernClientOlderServer(t *testing.T) {
	srv, err := legacyserver.New("2025-06-18", legacyserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.HTTP(legacyserver.HTTPConfig{}))
	t.Cleanup(hs.Close)
	p := newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: hs.URL}})
	if v := p.UpstreamVersion(); v != "2025-06-18" {
		t.Fatalf("upstream version %q", v)
	}
	ctx := context.Background()
	c, err := mcp.Connect(ctx, &mcp.StreamTransport{Conn: stdioPair(t, p)}, nil, mcp.ClientOptions{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if v := c.ProtocolVersion(); v != mcp.ProtocolVersion {
		t.Errorf("downstream version %q", v)
	}
	tools, err := c.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 9 || tools.Tools[0].Name != "echo" {
		t.Errorf("tools: %d, first %q", len(tools.Tools), tools.Tools[0].Name)
	}
	res, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{"text":"through"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Text(); got != "through" {
		t.Errorf("echo = %q", got)
	}
	// The server's own request to its client names no downstream client:
	// refused with an error that says so (the tool reports it).
	res, err = c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "roots"})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError == nil || !*res.IsError || !strings.Contains(res.Text(), "not forwarded") {
		t.Errorf("roots through the proxy: %q", res.Text())
	}
	// subscriptions/listen is served by the proxy: it acknowledges what
	// the upstream declares, and ends with its result when the proxy
	// closes.
	lh := &listener{acked: make(chan *mcp.SubscriptionsAcknowledgedNotificationParams, 1), changed: make(chan *mcp.NotificationParams, 4)}
	lc, err := mcp.Connect(ctx, &mcp.StreamTransport{Conn: stdioPair(t, p)}, lh, mcp.ClientOptions{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer lc.Close()
	done := make(chan error, 1)
	go func() {
		_, err := lc.SubscriptionsListen(ctx, &mcp.SubscriptionsListenRequestParams{Notifications: mcp.SubscriptionFilter{ToolsListChanged: new(true), ResourceSubscriptions: []string{"test://static/resource/1"}}})
		done <- err
	}()
	select {
	case ack := <-lh.acked:
		caps := p.up.ServerCapabilities()
		want := caps != nil && caps.Tools != nil && caps.Tools.GetListChanged()
		if ack.Notifications.GetToolsListChanged() != want || len(ack.Notifications.ResourceSubscriptions) != 0 {
			t.Errorf("acknowledged %+v (the upstream's tools listChanged: %v)", ack.Notifications, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no acknowledgement")
	}
	p.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("subscriptions/listen ended with %v, want its result", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream did not end when the proxy closed")
	}
	if vs := p.Tap().Violations(); len(vs) != 0 {
		t.Errorf("violations: %v", vs)
	}
}

// modernElicitor is a 2026-07-28 client's handler that answers a form
// with a name.
type modernElicitor struct {
	mcp.UnimplementedClientHandler
	asked int
}

func (e *modernElicitor) Elicit(ctx context.Context, p mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	e.asked++
	return &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept, Content: map[string]mcp.ElicitResultContentValue{"name": {Kind: mcp.KindString, Str: "Ada"}}}, nil
}

// A 2026-07-28 client uses a 2026-07-28 server through the proxy: results
// go down as the JSON the upstream sent (the fast path), the same as a
// direct client gets; an input request goes down and its retry up (the
// dispatcher seals the upstream's requestState); an error comes back as
// the upstream's.
func TestModernClientModernServer(t *testing.T) {
	_, up, url := modernServer(t, time.Hour, mcp.CacheScopePublic)
	p := newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: url}, Cache: NewMemoryStore(0)})
	ctx := context.Background()
	h := &modernElicitor{}
	connect := func(url string) *mcp.Client {
		c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: url}, h, mcp.ClientOptions{NoCache: true, Capabilities: mcp.ClientCapabilities{Elicitation: &mcp.ClientCapabilitiesElicitation{}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	c, direct := connect(serveProxy(t, p)), connect(url)
	encode := func(v interface{ AppendJSON([]byte) ([]byte, error) }) string {
		b, err := v.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for range 2 { // a miss, then a hit
		got, err := c.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := direct.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if encode(got) != encode(want) {
			t.Errorf("tools/list through the proxy:\n%s\ndirect:\n%s", encode(got), encode(want))
		}
	}
	if n := p.UpstreamRequests(mcp.MethodListTools); n != 1 {
		t.Errorf("the proxy forwarded %d tools/list, want 1", n)
	}
	args := json.RawMessage(`{"a":40,"b":2}`)
	got, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "add", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	want, err := direct.CallTool(ctx, &mcp.CallToolRequestParams{Name: "add", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if got.Text() != "42" || encode(got) != encode(want) {
		t.Errorf("add through the proxy: %s; direct: %s", encode(got), encode(want))
	}
	if n := p.raw.Load(); n != 3 {
		t.Errorf("%d results went down as JSON, want 3 (tools/list twice, add)", n)
	}
	res, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "greet"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Text(); got != "Hello, Ada!" || h.asked != 1 {
		t.Errorf("greet = %q after %d elicitations", got, h.asked)
	}
	_, err = c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "nope"})
	_, derr := direct.CallTool(ctx, &mcp.CallToolRequestParams{Name: "nope"})
	var re, dre *mcp.RPCError
	if !errors.As(err, &re) || !errors.As(derr, &dre) || re.Code != dre.Code || re.Message != dre.Message {
		t.Errorf("unknown tool through the proxy: %v; direct: %v", err, derr)
	}
	if n := up.get(mcp.MethodCallTool); n != 6 {
		t.Errorf("the upstream got %d tools/call, want 6 (add, greet and its retry, nope; add and nope direct)", n)
	}
	if vs := p.Tap().Violations(); len(vs) != 0 {
		t.Errorf("violations: %v", vs)
	}
}

// listener is a 2026-07-28 client's handler that hands on the
// acknowledgement of its subscriptions/listen and the tools/list_changed
// notifications it gets.
type listener struct {
	mcp.UnimplementedClientHandler
	acked   chan *mcp.SubscriptionsAcknowledgedNotificationParams
	changed chan *mcp.NotificationParams
}

func (l *listener) OnSubscriptionsAcknowledged(ctx context.Context, p *mcp.SubscriptionsAcknowledgedNotificationParams) error {
	l.acked <- p
	return nil
}

func (l *listener) OnToolListChanged(ctx context.Context, p *mcp.NotificationParams) error {
	select {
	case l.changed <- p:
	default:
	}
	return nil
}

// A 2026-07-28 client listening through the proxy hears the upstream's
// tools/list_changed, tagged with its own subscription id, and its next
// tools/list goes upstream.
func TestListenThroughProxy(t *testing.T) {
	s, up, url := modernServer(t, time.Hour, mcp.CacheScopePublic)
	p := newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: url}, Cache: NewMemoryStore(0)})
	purl := serveProxy(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	lh := &listener{acked: make(chan *mcp.SubscriptionsAcknowledgedNotificationParams, 1), changed: make(chan *mcp.NotificationParams, 4)}
	c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: purl}, lh, mcp.ClientOptions{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := toolNames(t, c); got != "add,greet" {
		t.Fatalf("tools %q", got)
	}
	lctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := c.SubscriptionsListen(lctx, &mcp.SubscriptionsListenRequestParams{Notifications: mcp.SubscriptionFilter{ToolsListChanged: new(true), PromptsListChanged: new(true)}})
		done <- err
	}()
	var ack *mcp.SubscriptionsAcknowledgedNotificationParams
	select {
	case ack = <-lh.acked:
	case <-ctx.Done():
		t.Fatal("no acknowledgement")
	}
	// The upstream has tools (listChanged) and no prompts.
	if !ack.Notifications.GetToolsListChanged() || ack.Notifications.PromptsListChanged != nil || ack.Meta == nil {
		t.Fatalf("acknowledged %+v", ack)
	}
	id := ack.Meta.SubscriptionID
	for up.get(mcp.MethodSubscriptionsListen) == 0 {
		if ctx.Err() != nil {
			t.Fatal("the proxy did not listen upstream")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // the upstream stream is acknowledged
	mcp.AddTool(s, mcp.Tool{Name: "late"}, func(ctx context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		return mcp.TextResult("late"), nil
	})
	select {
	case n := <-lh.changed:
		if n == nil || n.Meta == nil || n.Meta.SubscriptionID != id {
			t.Errorf("tools/list_changed %+v, want subscription id %v", n, id)
		}
	case <-ctx.Done():
		t.Fatal("no tools/list_changed through the proxy")
	}
	if got := toolNames(t, c); got != "add,greet,late" {
		t.Errorf("tools after the change %q", got)
	}
	if n := up.get(mcp.MethodListTools); n != 2 {
		t.Errorf("the upstream got %d tools/list, want 2", n)
	}
	stop()
	if err := <-done; err == nil {
		t.Error("a stream the client closed ended with a result")
	}
}

// InitializeVersions: a client whose initialize asks for 2025-11-25 meets
// a proxy that offers 2025-06-18 only, is answered 2025-06-18 (with that
// revision's capabilities) as by a server of that revision, and goes on at
// 2025-06-18; a revision the proxy does not serve is refused by New.
func TestInitializeVersions(t *testing.T) {
	_, up, url := modernServer(t, 0, "")
	p := newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: url}, InitializeVersions: []string{"2025-06-18"}})
	purl := serveProxy(t, p)
	post := func(session, version, body string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", purl, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("MCP-Protocol-Version", version)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, body := post("", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	session := resp.Header.Get("Mcp-Session-Id")
	if !strings.Contains(body, `"protocolVersion":"2025-06-18"`) || session == "" {
		t.Fatalf("initialize answered %d %q (session %q)", resp.StatusCode, body, session)
	}
	if resp, _ := post(session, "2025-06-18", `{"jsonrpc":"2.0","method":"notifications/initialized"}`); resp.StatusCode != http.StatusAccepted {
		t.Errorf("notifications/initialized: %d", resp.StatusCode)
	}
	resp, body = post(session, "2025-06-18", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":40,"b":2}}}`)
	if !strings.Contains(body, `"text":"42"`) || up.get(mcp.MethodCallTool) != 1 {
		t.Errorf("tools/call answered %d %q, upstream got %d tools/call", resp.StatusCode, body, up.get(mcp.MethodCallTool))
	}
	if vs := p.Tap().Violations(); len(vs) != 0 {
		t.Errorf("violations: %v", vs)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := New(ctx, Options{Upstream: &mcp.HTTPTransport{URL: url}, InitializeVersions: []string{"2024-11-05"}})
	if err == nil || !strings.Contains(err.Error(), `initialize version "2024-11-05" is not one the proxy serves (2025-11-25, 2025-06-18, 2025-03-26)`) {
		t.Errorf("New with 2024-11-05: %v", err)
	}
}
