package protocol

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// The HTTP transport, driven through net/http against a dispatcher with a
// hand-made method table (the generated packages' tables are exercised in
// conformance/http_test.go).

const testVersion = "2026-07-28"

// rawJSON is params for SendNotification.
type rawJSON []byte

func (r rawJSON) AppendJSON(b []byte) ([]byte, error) { return append(b, r...), nil }

// testTools is what the test dispatcher's tools/list answers: one tool
// with x-mcp-header annotations (a string, an integer, a nested boolean),
// one without.
const testTools = `{"tools":[` +
	`{"name":"route","inputSchema":{"type":"object","properties":{` +
	`"region":{"type":"string","x-mcp-header":"Region"},` +
	`"count":{"type":"integer","x-mcp-header":"Count"},` +
	`"opts":{"type":"object","properties":{"dry":{"type":"boolean","x-mcp-header":"Dry-Run"}}},` +
	`"note":{"type":"string"}}}},` +
	`{"name":"plain","inputSchema":{"type":"object"}}]`

type testServer struct {
	listCalls atomic.Int64
	scope     string // cacheScope of tools/list
	listErr   error  // what tools/list fails with, if set
	notified  chan string
	release   chan struct{}
	cancelled chan struct{}
	started   chan struct{}
	sendErr   chan error
}

func newTestServer() *testServer {
	return &testServer{
		scope:     "public",
		notified:  make(chan string, 16),
		release:   make(chan struct{}),
		cancelled: make(chan struct{}, 1),
		started:   make(chan struct{}, 16),
		sendErr:   make(chan error, 1),
	}
}

// echo answers with the params it got.
func echo(_ context.Context, params []byte) (jsonrpc.Result, error) {
	if params == nil {
		params = []byte("null")
	}
	return jsonrpc.RawResult(append(append([]byte(`{"echo":`), params...), '}')), nil
}

func (ts *testServer) dispatcher(modern bool) *Core {
	d := &Core{Dispatcher: jsonrpc.Dispatcher{OmitUnknownID: true}, Modern: modern, Versions: []string{testVersion}}
	d.State = NewStateSealer(nil, 0, nil)
	d.Methods = map[string]*jsonrpc.Method{
		"tools/list": {Call: func(context.Context, []byte) (jsonrpc.Result, error) {
			ts.listCalls.Add(1)
			if ts.listErr != nil {
				return nil, ts.listErr
			}
			return jsonrpc.RawResult(testTools + `,"ttlMs":60000,"cacheScope":"` + ts.scope + `"}`), nil
		}},
		"tools/call":     {Call: echo},
		"prompts/get":    {Call: echo},
		"resources/read": {Call: echo},
		"tools/listx":    {Call: echo},
		"test/progress": {Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
			for i := range 2 {
				if err := SendNotification(ctx, "notifications/progress", rawJSON(`{"progressToken":"p","progress":`+string(rune('1'+i))+`}`)); err != nil {
					return nil, err
				}
			}
			return jsonrpc.RawResult(`{"done":true}`), nil
		}},
		"test/tryNotify": {Call: func(ctx context.Context, _ []byte) (jsonrpc.Result, error) {
			ts.sendErr <- SendNotification(ctx, "notifications/message", rawJSON(`{"level":"info","data":"x"}`))
			return jsonrpc.RawResult(`{}`), nil
		}},
		"test/block": {Call: func(ctx context.Context, _ []byte) (jsonrpc.Result, error) {
			ts.started <- struct{}{}
			select {
			case <-ts.release:
				return jsonrpc.RawResult(`{"released":true}`), nil
			case <-ctx.Done():
				ts.cancelled <- struct{}{}
				return nil, ctx.Err()
			}
		}},
		"test/stream": {Call: func(ctx context.Context, _ []byte) (jsonrpc.Result, error) {
			// A stream that stays open until the client goes away.
			if err := SendNotification(ctx, "notifications/subscriptions/acknowledged", rawJSON(`{}`)); err != nil {
				return nil, err
			}
			ts.started <- struct{}{}
			<-ctx.Done()
			ts.cancelled <- struct{}{}
			return nil, ctx.Err()
		}},
		"test/flood": {Call: func(ctx context.Context, _ []byte) (jsonrpc.Result, error) {
			// Notifications to a client that does not read them.
			big := rawJSON(`{"data":"` + strings.Repeat("x", 64<<10) + `"}`)
			ts.started <- struct{}{}
			for {
				if err := SendNotification(ctx, "notifications/message", big); err != nil {
					ts.sendErr <- err
					return nil, err
				}
			}
		}},
		"test/whoami": {Call: func(ctx context.Context, _ []byte) (jsonrpc.Result, error) {
			r := HTTPRequestFromContext(ctx)
			if r == nil {
				return jsonrpc.RawResult(`{"who":null}`), nil
			}
			return jsonrpc.RawResult(`{"who":` + quoteJSON(r.Header.Get("X-User")) + `}`), nil
		}},
		"test/invalid": {Call: func(context.Context, []byte) (jsonrpc.Result, error) {
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: no"}
		}},
		"test/app-error": {Call: func(context.Context, []byte) (jsonrpc.Result, error) {
			return nil, &jsonrpc.RPCError{Code: 42, Message: "application error"}
		}},
		"notifications/test": {Notification: true, Call: func(_ context.Context, params []byte) (jsonrpc.Result, error) {
			ts.notified <- string(params)
			return nil, nil
		}},
	}
	return d
}

// serve starts an HTTP server for a handler of ts on 127.0.0.1.
func serve(t *testing.T, ts *testServer, modern bool, opts HTTPOptions) (*httptest.Server, *HTTPHandler) {
	t.Helper()
	h := NewHTTPHandler(ts.dispatcher(modern), opts)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, h
}

func req(id, method, params string) string {
	s := `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `"`
	if params != "" {
		s += `,"params":` + params
	}
	return s + "}"
}

const testMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// hdrs are the headers of a conforming 2026-07-28 POST.
func hdrs(method, name string) map[string]string {
	h := map[string]string{
		"Content-Type":         "application/json",
		"Accept":               "application/json, text/event-stream",
		"MCP-Protocol-Version": testVersion,
		"Mcp-Method":           method,
	}
	if name != "" {
		h["Mcp-Name"] = name
	}
	return h
}

// with returns a copy of h with changes; an empty value deletes.
func with(h map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == "" {
			delete(out, kv[i])
		} else {
			out[kv[i]] = kv[i+1]
		}
	}
	return out
}

type httpResp struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, method, url, body string, h map[string]string, mod ...func(*http.Request)) httpResp {
	t.Helper()
	r, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		r.Header[k] = []string{v} // as given: no canonicalization
	}
	for _, m := range mod {
		m(r)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return httpResp{resp.StatusCode, resp.Header, string(b)}
}

func post(t *testing.T, url, body string, h map[string]string, mod ...func(*http.Request)) httpResp {
	t.Helper()
	return do(t, http.MethodPost, url, body, h, mod...)
}

// rpcErr reads the error of a JSON-RPC response body.
func rpcErr(t *testing.T, body string) (code int64, msg string, data json.RawMessage) {
	t.Helper()
	var r struct {
		Error *struct {
			Code    int64           `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil || r.Error == nil {
		t.Fatalf("want a JSON-RPC error, got %q (%v)", body, err)
	}
	return r.Error.Code, r.Error.Message, r.Error.Data
}

// wantError checks an HTTP status and a JSON-RPC error code, and that the
// message contains part.
func wantError(t *testing.T, r httpResp, status int, code int64, part string) {
	t.Helper()
	if r.status != status {
		t.Errorf("status %d, want %d: %s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	c, m, _ := rpcErr(t, r.body)
	if c != code || !strings.Contains(m, part) {
		t.Errorf("error %d %q, want %d containing %q", c, m, code, part)
	}
}

// wantOK checks a 200 JSON response with a result.
func wantOK(t *testing.T, r httpResp, result string) {
	t.Helper()
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, Content-Type %q, body %s; want 200 application/json", r.status, r.header.Get("Content-Type"), r.body)
	}
	var resp struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.body), &resp); err != nil || resp.Result == nil {
		t.Fatalf("no result: %s", r.body)
	}
	if result != "" && !codec.JSONEqual(resp.Result, []byte(result)) {
		t.Errorf("result %s, want %s", resp.Result, result)
	}
}

// stillServes checks that a server answers a good request.
func stillServes(t *testing.T, url string) {
	t.Helper()
	wantOK(t, post(t, url, req("99", "tools/list", `{`+testMeta+`}`), hdrs("tools/list", "")), "")
}

func TestHTTPHostAndOrigin(t *testing.T) {
	ts := newTestServer()
	srv, _ := serve(t, ts, true, HTTPOptions{})
	body := req("1", "tools/list", `{`+testMeta+`}`)
	h := hdrs("tools/list", "")
	host := func(v string) func(*http.Request) { return func(r *http.Request) { r.Host = v } }
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	for _, v := range []string{"127.0.0.1:" + port, "localhost:" + port, "LOCALHOST", "[::1]:" + port, "127.1.2.3"} {
		if r := post(t, srv.URL, body, h, host(v)); r.status != http.StatusOK {
			t.Errorf("Host %s: status %d, want 200", v, r.status)
		}
	}
	for _, v := range []string{"evil.example.com", "evil.example.com:" + port, "localhost.evil.example.com", "10.0.0.1", "0.0.0.0:" + port} {
		wantError(t, post(t, srv.URL, body, h, host(v)), http.StatusForbidden, jsonrpc.CodeInvalidRequest, "Host")
	}
	for _, o := range []string{"http://localhost:3000", "https://127.0.0.1", "http://[::1]:8080"} {
		if r := post(t, srv.URL, body, with(h, "Origin", o)); r.status != http.StatusOK {
			t.Errorf("Origin %s: status %d, want 200", o, r.status)
		}
	}
	for _, o := range []string{"http://evil.example.com", "null", "http://localhost.evil.example.com", "http://localhost@evil.example.com", "file://localhost/x"} {
		wantError(t, post(t, srv.URL, body, with(h, "Origin", o)), http.StatusForbidden, jsonrpc.CodeInvalidRequest, "Origin")
	}
	stillServes(t, srv.URL)

	// Allow-lists.
	srv2, _ := serve(t, ts, true, HTTPOptions{AllowedHosts: []string{"mcp.example.com", "other.example.com:8443"}, AllowedOrigins: []string{"https://app.example.com"}})
	for _, v := range []string{"mcp.example.com", "MCP.example.com:443", "other.example.com:8443", "localhost"} {
		if r := post(t, srv2.URL, body, h, host(v)); r.status != http.StatusOK {
			t.Errorf("allowed Host %s: status %d", v, r.status)
		}
	}
	for _, v := range []string{"other.example.com:9999", "evil.example.com"} {
		if r := post(t, srv2.URL, body, h, host(v)); r.status != http.StatusForbidden {
			t.Errorf("Host %s: status %d, want 403", v, r.status)
		}
	}
	if r := post(t, srv2.URL, body, with(h, "Origin", "https://app.example.com")); r.status != http.StatusOK {
		t.Errorf("allowed Origin: status %d", r.status)
	}
	if r := post(t, srv2.URL, body, with(h, "Origin", "https://app.example.com.evil.example")); r.status != http.StatusForbidden {
		t.Errorf("other Origin: status %d, want 403", r.status)
	}
	srv3, _ := serve(t, ts, true, HTTPOptions{AllowedHosts: []string{"*"}, AllowedOrigins: []string{"*"}})
	if r := post(t, srv3.URL, body, with(h, "Origin", "https://anywhere.example"), host("anywhere.example")); r.status != http.StatusOK {
		t.Errorf("wildcards: status %d", r.status)
	}
}

func TestHTTPMethodsAndMediaTypes(t *testing.T) {
	ts := newTestServer()
	srv, _ := serve(t, ts, true, HTTPOptions{})
	for _, m := range []string{http.MethodGet, http.MethodDelete, http.MethodPut, http.MethodPatch} {
		r := do(t, m, srv.URL, "", map[string]string{"Accept": "text/event-stream", "Mcp-Session-Id": "abc"})
		wantError(t, r, http.StatusMethodNotAllowed, jsonrpc.CodeInvalidRequest, "POST")
		if r.header.Get("Allow") != "POST" {
			t.Errorf("%s: Allow %q, want POST", m, r.header.Get("Allow"))
		}
	}
	body := req("1", "tools/list", `{`+testMeta+`}`)
	h := hdrs("tools/list", "")
	for _, ct := range []string{"text/plain", "", "application/jsonx", "application/x-www-form-urlencoded"} {
		wantError(t, post(t, srv.URL, body, with(h, "Content-Type", ct)), http.StatusUnsupportedMediaType, jsonrpc.CodeInvalidRequest, "application/json")
	}
	for _, ct := range []string{"application/json; charset=utf-8", "Application/JSON"} {
		wantOK(t, post(t, srv.URL, body, with(h, "Content-Type", ct)), "")
	}
	wantError(t, post(t, srv.URL, body, with(h, "Accept", "text/html")), http.StatusNotAcceptable, jsonrpc.CodeInvalidRequest, "")
	wantError(t, post(t, srv.URL, body, with(h, "Accept", "application/json;q=0")), http.StatusNotAcceptable, jsonrpc.CodeInvalidRequest, "")
	for _, a := range []string{"*/*", "application/json", ""} {
		wantOK(t, post(t, srv.URL, body, with(h, "Accept", a)), "")
	}
	// Only event streams: the response is one event.
	r := post(t, srv.URL, body, with(h, "Accept", "text/event-stream"))
	if r.status != 200 || r.header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("Accept text/event-stream: %d %q", r.status, r.header.Get("Content-Type"))
	}
	stillServes(t, srv.URL)
}

func TestHTTPFallback(t *testing.T) {
	ts := newTestServer()
	var got []string
	var mu sync.Mutex
	fb := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+string(b))
		mu.Unlock()
		w.WriteHeader(http.StatusTeapot)
	})
	srv, _ := serve(t, ts, true, HTTPOptions{Fallback: fb})
	body := req("1", "tools/list", `{`+testMeta+`}`)
	h := hdrs("tools/list", "")
	cases := []struct {
		name   string
		method string
		h      map[string]string
		want   int
	}{
		{"GET", http.MethodGet, map[string]string{"Accept": "text/event-stream"}, http.StatusTeapot},
		{"DELETE", http.MethodDelete, nil, http.StatusTeapot},
		{"session", http.MethodPost, with(h, "Mcp-Session-Id", "s1"), http.StatusTeapot},
		{"no version header", http.MethodPost, with(h, "MCP-Protocol-Version", ""), http.StatusTeapot},
		{"old version header", http.MethodPost, with(h, "MCP-Protocol-Version", "2025-11-25"), http.StatusTeapot},
		{"current", http.MethodPost, h, http.StatusOK},
	}
	for _, c := range cases {
		if r := do(t, c.method, srv.URL, body, c.h); r.status != c.want {
			t.Errorf("%s: status %d, want %d", c.name, r.status, c.want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 5 || got[2] != "POST "+body {
		t.Errorf("the fallback got %q; want 5 requests, POST bodies intact", got)
	}
	// Host checks come first.
	r := do(t, http.MethodGet, srv.URL, "", nil, func(r *http.Request) { r.Host = "evil.example.com" })
	if r.status != http.StatusForbidden {
		t.Errorf("GET from a foreign Host: %d, want 403", r.status)
	}
}

func TestHTTPBodyLimits(t *testing.T) {
	ts := newTestServer()
	srv, _ := serve(t, ts, true, HTTPOptions{MaxBodyBytes: 1 << 10})
	h := hdrs("tools/call", "plain")
	big := req("1", "tools/call", `{`+testMeta+`,"name":"plain","arguments":{"x":"`+strings.Repeat("a", 2<<10)+`"}}`)
	wantError(t, post(t, srv.URL, big, h), http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest, "at most 1024")
	stillServes(t, srv.URL)
	// Without Content-Length (chunked).
	chunked := func(r *http.Request) {
		r.ContentLength = -1
		r.Body = io.NopCloser(strings.NewReader(big))
	}
	wantError(t, post(t, srv.URL, "", h, chunked), http.StatusRequestEntityTooLarge, jsonrpc.CodeInvalidRequest, "at most 1024")
	stillServes(t, srv.URL)
	// Exactly at the limit is fine.
	pad := 1<<10 - len(req("1", "tools/call", `{`+testMeta+`,"name":"plain","arguments":{"x":""}}`))
	exact := req("1", "tools/call", `{`+testMeta+`,"name":"plain","arguments":{"x":"`+strings.Repeat("a", pad)+`"}}`)
	wantOK(t, post(t, srv.URL, exact, h), "")

	// Malformed JSON and an empty body: -32700 with 400.
	for _, b := range []string{`{"jsonrpc":"2.0","id":1,`, `not json`, ``, `   `} {
		wantError(t, post(t, srv.URL, b, h), http.StatusBadRequest, jsonrpc.CodeParseError, "parse error")
	}
	// Not a request: -32600 with 400.
	for _, b := range []string{`[]`, `[` + req("1", "tools/list", `{`+testMeta+`}`) + `]`, `{"id":1}`, `"x"`, `{"jsonrpc":"2.0","id":1,"result":{}}`} {
		wantError(t, post(t, srv.URL, b, h), http.StatusBadRequest, jsonrpc.CodeInvalidRequest, "invalid request")
	}
	stillServes(t, srv.URL)
}

// TestHTTPSlowBody: a client that sends headers and never finishes its
// body is cut off after ReadTimeout; the server goes on serving.
func TestHTTPSlowBody(t *testing.T) {
	ts := newTestServer()
	srv, _ := serve(t, ts, true, HTTPOptions{ReadTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	start := time.Now()
	io.WriteString(conn, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no response to an unfinished body: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("status %d, want 408", resp.StatusCode)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	stillServes(t, srv.URL)
}

// TestHTTPSlowHeaders: NewServer's ReadHeaderTimeout closes a connection
// whose headers do not arrive.
func TestHTTPSlowHeaders(t *testing.T) {
	ts := newTestServer()
	h := NewHTTPHandler(ts.dispatcher(true), HTTPOptions{HeaderTimeout: 200 * time.Millisecond})
	s := h.NewServer("127.0.0.1:0")
	if s.ReadHeaderTimeout != 200*time.Millisecond || s.IdleTimeout == 0 || s.MaxHeaderBytes == 0 || s.WriteTimeout != 0 || s.ReadTimeout != 0 {
		t.Fatalf("NewServer: %+v", s)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	defer s.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(conn, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n") // and nothing more
	start := time.Now()
	_, err = io.ReadAll(conn) // the server closes the connection
	if err != nil {
		t.Fatalf("read: %v (the server did not close the connection)", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	stillServes(t, "http://"+ln.Addr().String())
}

func TestHTTPNotificationsAndStatus(t *testing.T) {
	ts := newTestServer()
	srv, _ := serve(t, ts, true, HTTPOptions{})
	r := post(t, srv.URL, `{"jsonrpc":"2.0","method":"notifications/test","params":{"n":1}}`, map[string]string{"Content-Type": "application/json"})
	if r.status != http.StatusAccepted || r.body != "" {
		t.Errorf("notification: %d %q, want 202 and no body", r.status, r.body)
	}
	if got := <-ts.notified; got != `{"n":1}` {
		t.Errorf("the handler got %s", got)
	}
	r = post(t, srv.URL, `{"jsonrpc":"2.0","method":"notifications/unknown"}`, map[string]string{"Content-Type": "application/json"})
	if r.status != http.StatusAccepted {
		t.Errorf("unknown notification: %d", r.status)
	}
	wantError(t, post(t, srv.URL, req("1", "nope", `{`+testMeta+`}`), hdrs("nope", "")), http.StatusNotFound, jsonrpc.CodeMethodNotFound, "method not found")
	wantError(t, post(t, srv.URL, req("2", "test/invalid", `{`+testMeta+`}`), hdrs("test/invalid", "")), http.StatusBadRequest, jsonrpc.CodeInvalidParams, "no")
	r = post(t, srv.URL, req("3", "test/app-error", `{`+testMeta+`}`), hdrs("test/app-error", ""))
	if c, _, _ := rpcErr(t, r.body); r.status != http.StatusOK || c != 42 {
		t.Errorf("application error: %d %s, want 200 with code 42", r.status, r.body)
	}
}

func TestHTTPHeaderRules(t *testing.T) {
	ts := newTestServer()
	srv, _ := serve(t, ts, true, HTTPOptions{})
	list := req("1", "tools/list", `{`+testMeta+`}`)
	h := hdrs("tools/list", "")
	wantOK(t, post(t, srv.URL, list, h), "")
	// Header names are case-insensitive; values are not.
	wantOK(t, post(t, srv.URL, list, with(h, "Mcp-Method", "", "mcp-method", "tools/list")), "")
	wantOK(t, post(t, srv.URL, list, with(h, "Mcp-Method", "", "MCP-METHOD", "tools/list", "MCP-Protocol-Version", "", "mcp-protocol-version", testVersion)), "")
	wantError(t, post(t, srv.URL, list, with(h, "Mcp-Method", "TOOLS/LIST")), 400, spec.CodeHeaderMismatch, "Mcp-Method")
	wantError(t, post(t, srv.URL, list, with(h, "Mcp-Method", "prompts/list")), 400, spec.CodeHeaderMismatch, "does not match")
	wantError(t, post(t, srv.URL, list, with(h, "Mcp-Method", "")), 400, spec.CodeHeaderMismatch, "Mcp-Method header is missing")
	wantError(t, post(t, srv.URL, list, with(h, "MCP-Protocol-Version", "")), 400, spec.CodeHeaderMismatch, "MCP-Protocol-Version header is missing")
	r := post(t, srv.URL, list, with(h, "MCP-Protocol-Version", "2099-01-01"))
	wantError(t, r, 400, spec.CodeUnsupportedProtocolVersion, "2099-01-01")
	if _, _, data := rpcErr(t, r.body); string(data) != `{"supported":["2026-07-28"],"requested":"2099-01-01"}` {
		t.Errorf("data %s", data)
	}
	other := req("1", "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}`)
	wantError(t, post(t, srv.URL, other, h), 400, spec.CodeHeaderMismatch, `"2025-11-25"`)
	// Two values of one header.
	wantError(t, post(t, srv.URL, list, h, func(r *http.Request) { r.Header.Add("Mcp-Method", "tools/list") }), 400, spec.CodeHeaderMismatch, "more than once")
	// A legacy initialize without headers reaches the dispatcher, which
	// names its versions (here: method not found, the test table has no
	// initialize).
	r = post(t, srv.URL, req("1", "initialize", `{"protocolVersion":"2025-06-18"}`), map[string]string{"Content-Type": "application/json"})
	if c, _, _ := rpcErr(t, r.body); c == spec.CodeHeaderMismatch {
		t.Errorf("initialize got a header error: %s", r.body)
	}

	// Mcp-Name.
	call := func(name string, args string) string {
		return req("2", "tools/call", `{`+testMeta+`,"name":`+quoteJSON(name)+`,"arguments":`+args+`}`)
	}
	wantOK(t, post(t, srv.URL, call("plain", `{}`), hdrs("tools/call", "plain")), "")
	wantOK(t, post(t, srv.URL, call("plain", `{}`), hdrs("tools/call", "  plain  ")), "") // whitespace around a value is not part of it
	wantError(t, post(t, srv.URL, call("plain", `{}`), hdrs("tools/call", "wrong_tool_name")), 400, spec.CodeHeaderMismatch, "Mcp-Name")
	wantError(t, post(t, srv.URL, call("plain", `{}`), hdrs("tools/call", "")), 400, spec.CodeHeaderMismatch, "Mcp-Name header is missing")
	wantOK(t, post(t, srv.URL, call("héllo wörld", `{}`), hdrs("tools/call", encodeHeaderValue("héllo wörld"))), "")
	wantOK(t, post(t, srv.URL, call("=?base64?x?=", `{}`), hdrs("tools/call", encodeHeaderValue("=?base64?x?="))), "")
	wantError(t, post(t, srv.URL, call("=?base64?x?=", `{}`), hdrs("tools/call", "=?base64?x?=")), 400, spec.CodeHeaderMismatch, "Base64")
	read := req("3", "resources/read", `{`+testMeta+`,"uri":"file:///a b.txt"}`)
	wantOK(t, post(t, srv.URL, read, hdrs("resources/read", "file:///a b.txt")), "")
	wantError(t, post(t, srv.URL, read, hdrs("resources/read", "file:///a.txt")), 400, spec.CodeHeaderMismatch, "params.uri")
	prompt := req("4", "prompts/get", `{`+testMeta+`,"name":"p"}`)
	wantOK(t, post(t, srv.URL, prompt, hdrs("prompts/get", "p")), "")
	wantError(t, post(t, srv.URL, prompt, hdrs("prompts/get", "q")), 400, spec.CodeHeaderMismatch, "params.name")

	// Mcp-Param-* of the tool's x-mcp-header annotations.
	route := hdrs("tools/call", "route")
	cases := []struct {
		name    string
		args    string
		headers []string
		ok      bool
		part    string
	}{
		{"all mirrored", `{"region":"us-west1","count":42,"opts":{"dry":true}}`, []string{"Mcp-Param-Region", "us-west1", "Mcp-Param-Count", "42", "Mcp-Param-Dry-Run", "true"}, true, ""},
		{"lower-case header names", `{"region":"us-west1"}`, []string{"mcp-param-region", "us-west1"}, true, ""},
		{"number compared by value", `{"count":42}`, []string{"Mcp-Param-Count", "42.0"}, true, ""},
		{"number that differs", `{"count":42}`, []string{"Mcp-Param-Count", "43"}, false, "Mcp-Param-Count"},
		{"number that is not one", `{"count":42}`, []string{"Mcp-Param-Count", "0x2a"}, false, "Mcp-Param-Count"},
		{"valid Base64", `{"region":"Hello"}`, []string{"Mcp-Param-Region", "=?base64?SGVsbG8=?="}, true, ""},
		{"non-ASCII in Base64", `{"region":"Hello, 世界"}`, []string{"Mcp-Param-Region", "=?base64?SGVsbG8sIOS4lueVjA==?="}, true, ""},
		{"invalid Base64 padding", `{"region":"Hello"}`, []string{"Mcp-Param-Region", "=?base64?SGVsbG8?="}, false, "Base64"},
		{"invalid Base64 characters", `{"region":"Hello"}`, []string{"Mcp-Param-Region", "=?base64?SGVs!!!bG8=?="}, false, "Base64"},
		{"no prefix: literal", `{"region":"SGVsbG8="}`, []string{"Mcp-Param-Region", "SGVsbG8="}, true, ""},
		{"no suffix: literal", `{"region":"=?base64?SGVsbG8="}`, []string{"Mcp-Param-Region", "=?base64?SGVsbG8="}, true, ""},
		{"missing header", `{"region":"us-west1"}`, nil, false, "Mcp-Param-Region header is missing"},
		{"header without a value", `{}`, []string{"Mcp-Param-Region", "us-west1"}, false, "no value"},
		{"null value, no header", `{"region":null}`, nil, true, ""},
		{"value absent, no header", `{"note":"x"}`, nil, true, ""},
		{"mismatch", `{"region":"us-west1"}`, []string{"Mcp-Param-Region", "eu-west1"}, false, "does not match"},
		{"boolean", `{"opts":{"dry":false}}`, []string{"Mcp-Param-Dry-Run", "true"}, false, "Mcp-Param-Dry-Run"},
		{"case of the value", `{"region":"us-west1"}`, []string{"Mcp-Param-Region", "US-WEST1"}, false, "does not match"},
		{"non-ASCII literal", `{"region":"é"}`, []string{"Mcp-Param-Region", "é"}, false, "visible ASCII"},
		{"unknown param header ignored", `{}`, []string{"Mcp-Param-Other", "x"}, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hh := with(route)
			for i := 0; i < len(c.headers); i += 2 {
				hh[c.headers[i]] = c.headers[i+1]
			}
			r := post(t, srv.URL, call("route", c.args), hh)
			if c.ok {
				wantOK(t, r, "")
			} else {
				wantError(t, r, 400, spec.CodeHeaderMismatch, c.part)
			}
		})
	}
	// The tool list was asked once: it is public, with a ttlMs.
	if n := ts.listCalls.Load(); n != 4 { // the three tools/list requests above, and the one the handler made
		t.Errorf("tools/list called %d times, want 4", n)
	}
}

func TestHTTPToolHeadersPrivateList(t *testing.T) {
	ts := newTestServer()
	ts.scope = "private"
	srv, _ := serve(t, ts, true, HTTPOptions{})
	body := req("1", "tools/call", `{`+testMeta+`,"name":"route","arguments":{"region":"r"}}`)
	for range 3 {
		wantOK(t, post(t, srv.URL, body, with(hdrs("tools/call", "route"), "Mcp-Param-Region", "r")), "")
	}
	if n := ts.listCalls.Load(); n != 3 {
		t.Errorf("a private tools/list is not reused: called %d times, want 3", n)
	}
}

// TestHTTPToolHeadersListFails: a server without tools/list has no
// annotations to check; a tools/list that fails otherwise fails the call
// (the headers cannot be checked).
func TestHTTPToolHeadersListFails(t *testing.T) {
	ts := newTestServer()
	srv, _ := serve(t, ts, true, HTTPOptions{})
	body := req("1", "tools/call", `{`+testMeta+`,"name":"route","arguments":{"region":"r"}}`)
	ts.listErr = jsonrpc.ErrNotImplemented
	wantOK(t, post(t, srv.URL, body, hdrs("tools/call", "route")), "")
	ts.listErr = errors.New("database down")
	r := post(t, srv.URL, body, hdrs("tools/call", "route"))
	if c, m, _ := rpcErr(t, r.body); r.status != 200 || c != jsonrpc.CodeInternalError || !strings.Contains(m, "database down") {
		t.Errorf("%d %s", r.status, r.body)
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// readEvents reads the events of an SSE response.
func readEvents(t *testing.T, body string) []string {
	t.Helper()
	r := newSSEReader(strings.NewReader(body), 1<<20)
	var out []string
	for {
		ev, err := r.next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("reading events: %v in %q", err, body)
		}
		if ev.event != "message" {
			t.Errorf("event type %q", ev.event)
		}
		out = append(out, string(ev.data))
	}
}

func TestHTTPStream(t *testing.T) {
	ts := newTestServer()
	srv, _ := serve(t, ts, true, HTTPOptions{})
	r := post(t, srv.URL, req("7", "test/progress", `{`+testMeta+`}`), hdrs("test/progress", ""))
	if r.status != 200 || r.header.Get("Content-Type") != "text/event-stream" || r.header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("status %d, headers %v", r.status, r.header)
	}
	evs := readEvents(t, r.body)
	want := []string{
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":2}}`,
		`{"jsonrpc":"2.0","id":7,"result":{"done":true}}`,
	}
	if strings.Join(evs, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant\n%s", strings.Join(evs, "\n"), strings.Join(want, "\n"))
	}
	// A client that takes JSON only gets the result; the notifications
	// cannot reach it.
	r = post(t, srv.URL, req("8", "test/tryNotify", `{`+testMeta+`}`), with(hdrs("test/tryNotify", ""), "Accept", "application/json"))
	wantOK(t, r, `{}`)
	if err := <-ts.sendErr; !errors.Is(err, errNoStream) {
		t.Errorf("SendNotification to a JSON-only client: %v", err)
	}
	// The handler sees the HTTP request; elsewhere there is none.
	wantOK(t, post(t, srv.URL, req("9", "test/whoami", `{`+testMeta+`}`), with(hdrs("test/whoami", ""), "X-User", "ada")), `{"who":"ada"}`)
	if resp := ts.dispatcher(true).Handle(context.Background(), []byte(req("9", "test/whoami", `{}`))); string(resp) != `{"jsonrpc":"2.0","id":9,"result":{"who":null}}` {
		t.Errorf("HTTPRequestFromContext outside HTTP: %s", resp)
	}
	// A request that is not over HTTP or stdio has nowhere to send to.
	if err := SendNotification(context.Background(), "x", nil); err == nil {
		t.Error("SendNotification without a peer succeeded")
	}
}

// TestHTTPStreamClosedCancels: closing the response stream cancels the
// request ("Closing the SSE response stream MUST be treated by the server
// as cancellation"), and a quiet stream gets keep-alive comments.
func TestHTTPStreamClosedCancels(t *testing.T) {
	ts := newTestServer()
	srv, _ := serve(t, ts, true, HTTPOptions{KeepAlive: 50 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(req("1", "test/stream", `{`+testMeta+`}`)))
	for k, v := range hdrs("test/stream", "") {
		r.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	<-ts.started
	br := bufio.NewReader(resp.Body)
	sawEvent, sawComment := false, false
	deadline := time.Now().Add(5 * time.Second)
	for !(sawEvent && sawComment) && time.Now().Before(deadline) {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		sawEvent = sawEvent || strings.Contains(line, "notifications/subscriptions/acknowledged")
		sawComment = sawComment || line == ":\n"
	}
	if !sawEvent || !sawComment {
		t.Fatalf("event %v, keep-alive comment %v", sawEvent, sawComment)
	}
	cancel()
	select {
	case <-ts.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("closing the stream did not cancel the request")
	}
	stillServes(t, srv.URL)
}

// TestHTTPWriteTimeout: a client that stops reading does not hold the
// handler forever.
func TestHTTPWriteTimeout(t *testing.T) {
	ts := newTestServer()
	srv, _ := serve(t, ts, true, HTTPOptions{WriteTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetReadBuffer(4 << 10)
	}
	body := req("1", "test/flood", `{`+testMeta+`}`)
	var b strings.Builder
	b.WriteString("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n")
	for k, v := range hdrs("test/flood", "") {
		if k != "Content-Type" {
			b.WriteString(k + ": " + v + "\r\n")
		}
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
	io.WriteString(conn, b.String()) // and never read
	<-ts.started
	select {
	case err := <-ts.sendErr:
		if err == nil {
			t.Error("no error")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the handler is still writing to a client that does not read")
	}
	stillServes(t, srv.URL)
}

// TestHTTPShutdown: http.Server.Shutdown waits for the request in flight,
// whose response reaches the client.
func TestHTTPShutdown(t *testing.T) {
	ts := newTestServer()
	h := NewHTTPHandler(ts.dispatcher(true), HTTPOptions{})
	s := h.NewServer("")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	url := "http://" + ln.Addr().String()
	got := make(chan httpResp, 1)
	go func() { got <- post(t, url, req("1", "test/block", `{`+testMeta+`}`), hdrs("test/block", "")) }()
	<-ts.started
	shut := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		shut <- s.Shutdown(ctx)
	}()
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned before the request finished: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(ts.release)
	r := <-got
	wantOK(t, r, `{"released":true}`)
	if err := <-shut; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve: %v", err)
	}
}

func TestHTTPLegacyRevision(t *testing.T) {
	ts := newTestServer()
	srv, _ := serve(t, ts, false, HTTPOptions{})
	h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	// No header rules: a request without any MCP header is answered.
	wantOK(t, post(t, srv.URL, req("1", "tools/list", `{}`), h), "")
	wantOK(t, post(t, srv.URL, req("1", "tools/list", `{}`), with(h, "MCP-Protocol-Version", testVersion)), "")
	wantError(t, post(t, srv.URL, req("1", "tools/list", `{}`), with(h, "MCP-Protocol-Version", "1999-01-01")), 400, jsonrpc.CodeInvalidRequest, "MCP-Protocol-Version")
	// Errors keep 200 except for malformed messages.
	r := post(t, srv.URL, req("2", "nope", ``), h)
	if c, _, _ := rpcErr(t, r.body); r.status != 200 || c != jsonrpc.CodeMethodNotFound {
		t.Errorf("legacy method not found: %d %s", r.status, r.body)
	}
	// A response (to a server request of a session layer) is accepted.
	if r := post(t, srv.URL, `{"jsonrpc":"2.0","id":5,"result":{}}`, h); r.status != http.StatusAccepted {
		t.Errorf("response: %d", r.status)
	}
}

func TestHTTPBatches(t *testing.T) {
	ts := newTestServer()
	d := ts.dispatcher(false)
	d.Batches = true
	srv := httptest.NewServer(NewHTTPHandler(d, HTTPOptions{}))
	defer srv.Close()
	h := map[string]string{"Content-Type": "application/json"}
	r := post(t, srv.URL, `[`+req("1", "tools/call", `{"a":1}`)+`,{"jsonrpc":"2.0","method":"notifications/test"}]`, h)
	if r.status != 200 || r.body != `[{"jsonrpc":"2.0","id":1,"result":{"echo":{"a":1}}}]` {
		t.Errorf("batch: %d %s", r.status, r.body)
	}
	if r := post(t, srv.URL, `[{"jsonrpc":"2.0","method":"notifications/test"}]`, h); r.status != http.StatusAccepted {
		t.Errorf("batch of notifications: %d %q", r.status, r.body)
	}
}

func TestResponseErrorCode(t *testing.T) {
	for _, c := range []struct {
		in   string
		code int64
		ok   bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"error":{"code":1}}}`, 0, false},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}`, -32602, true},
		{`{"jsonrpc":"2.0","error":{"message":"x","code":-32700}}`, -32700, true},
		{`[]`, 0, false},
		{`{"error":{"code":"x"}}`, 0, false},
	} {
		code, ok := responseErrorCode([]byte(c.in))
		if code != c.code || ok != c.ok {
			t.Errorf("%s: %d %v", c.in, code, ok)
		}
	}
}

func TestAccepts(t *testing.T) {
	for _, c := range []struct {
		in        string
		json, sse bool
	}{
		{"application/json, text/event-stream", true, true},
		{"text/event-stream", false, true},
		{"application/json;q=0.5", true, false},
		{"application/json;q=0, text/*", false, true},
		{"*/*;q=0.1", true, true},
		{"text/html", false, false},
	} {
		j, s := accepts([]string{c.in})
		if j != c.json || s != c.sse {
			t.Errorf("%q: %v %v", c.in, j, s)
		}
	}
}

// FuzzHTTPHandler: whatever the body and headers, the handler answers
// with a status it documents and, for JSON, a JSON-RPC message; it never
// panics.
func FuzzHTTPHandler(f *testing.F) {
	f.Add(req("1", "tools/call", `{`+testMeta+`,"name":"route","arguments":{"region":"r","count":1}}`), "tools/call", "route", "r", "1", testVersion)
	f.Add(req("1", "tools/list", `{`+testMeta+`}`), "tools/list", "", "", "", testVersion)
	f.Add(`{"jsonrpc":"2.0","method":"notifications/test"}`, "", "", "", "", "")
	f.Add(`[{"jsonrpc":"2.0","id":1}]`, "x", "=?base64?AA==?=", "=?base64?", "1e999", "2099-01-01")
	ts := newTestServer()
	ts.notified = make(chan string, 1<<20)
	d := ts.dispatcher(true)
	for _, m := range []string{"test/block", "test/stream", "test/flood", "test/tryNotify"} {
		delete(d.Methods, m) // they wait for the test, or write forever
	}
	h := NewHTTPHandler(d, HTTPOptions{MaxBodyBytes: 1 << 16})
	f.Fuzz(func(t *testing.T, body, method, name, region, count, version string) {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		r.Host = "localhost"
		r.Header.Set("Content-Type", "application/json")
		for k, v := range map[string]string{"Mcp-Method": method, "Mcp-Name": name, "Mcp-Param-Region": region, "Mcp-Param-Count": count, "Mcp-Protocol-Version": version} {
			if v != "" {
				r.Header[k] = []string{v}
			}
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		switch w.Code {
		case 200, 202, 400, 404, 413:
		default:
			t.Fatalf("status %d for %q", w.Code, body)
		}
		switch ct := w.Header().Get("Content-Type"); ct {
		case "application/json":
			var v map[string]json.RawMessage
			if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil || string(v["jsonrpc"]) != `"2.0"` {
				t.Fatalf("not a JSON-RPC message: %q", w.Body.String())
			}
		case "":
			if w.Code != 202 || w.Body.Len() != 0 {
				t.Fatalf("status %d without a body type: %q", w.Code, w.Body.String())
			}
		default:
			t.Fatalf("Content-Type %q", ct)
		}
	})
}
