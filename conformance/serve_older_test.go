package conformance

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// One server, handlers written once against 2026-07-28, serving clients of
// 2025-11-25, 2025-06-18 and 2025-03-26 through the package's conversions
// (the runtime's older front door: initialize, sessions, input requests
// sent as requests of their own, subscriptions, log levels, cancellation).

// eraServer is a 2026-07-28 handler set written the way any server is.
type eraServer struct {
	mcp.UnimplementedServerHandler
	// started receives a value when the tool "wait" starts.
	started chan string
}

func mustJSON[T any](t interface{ Fatal(...any) }, s string) T {
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func (s *eraServer) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if s.started != nil && p.Name == "wait" {
		s.started <- p.Name
	}
	text := func(t string) (*mcp.CallToolResult, error) { return mcp.TextResult(t), nil }
	switch p.Name {
	case "echo":
		return text("echo " + string(p.Arguments))
	case "meta":
		// What the runtime fills from the session: the handler sees a
		// request as a 2026-07-28 client would have sent it.
		b, _ := json.Marshal(p.Meta)
		return text(string(b))
	case "greet":
		// Asks for the user's name the 2026-07-28 way.
		if a, ok := p.InputResponses["name"]; ok {
			b, _ := json.Marshal(a)
			var r struct {
				Content struct {
					Name string `json:"name"`
				} `json:"content"`
			}
			json.Unmarshal(b, &r)
			return text("Hello, " + r.Content.Name + "! state=" + p.GetRequestState())
		}
		ir := mustJSON[mcp.InputRequiredResult](panicker{}, `{"inputRequests":{"name":{"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}},"requestState":"asked","resultType":"input_required"}`)
		return nil, mcp.NeedInput(ir)
	case "url", "url-id":
		// A URL elicitation: 2025-11-25 requires an elicitationId, which
		// 2026-07-28 dropped; "url-id" carries one in the params' unknown
		// members, as the conversions' rules say.
		if _, ok := p.InputResponses["open"]; ok {
			return text("opened")
		}
		id := ""
		if p.Name == "url-id" {
			id = `,"elicitationId":"e-1"`
		}
		ir := mustJSON[mcp.InputRequiredResult](panicker{}, `{"inputRequests":{"open":{"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://example.com/login"`+id+`}}},"resultType":"input_required"}`)
		return nil, mcp.NeedInput(ir)
	case "roots":
		if a, ok := p.InputResponses["roots"]; ok {
			b, _ := json.Marshal(a)
			return text("roots " + string(b))
		}
		ir := mustJSON[mcp.InputRequiredResult](panicker{}, `{"inputRequests":{"roots":{"method":"roots/list"}},"resultType":"input_required"}`)
		return nil, mcp.NeedInput(ir)
	case "link":
		// resource_link: 2025-03-26 cannot carry it.
		return mustJSON[*mcp.CallToolResult](panicker{}, `{"content":[{"type":"resource_link","uri":"test://a","name":"a"}],"resultType":"complete"}`), nil
	case "log":
		for _, l := range []mcp.LoggingLevel{mcp.LoggingLevelDebug, mcp.LoggingLevelInfo, mcp.LoggingLevelError} {
			if err := mcp.Log(ctx, l, "era", string(l)); err != nil {
				return nil, err
			}
		}
		mcp.SendProgress(ctx, 1, 2, "half")
		return text("logged")
	case "wait":
		<-ctx.Done()
		// Cancelled: nothing about the request may go out any more.
		if err := mcp.Log(ctx, mcp.LoggingLevelError, "era", "too late"); err == nil {
			return text("logged after cancellation")
		}
		return nil, ctx.Err()
	}
	return nil, &mcp.RPCError{Code: mcp.CodeInvalidParams, Message: "no tool " + p.Name}
}

// panicker is a t for mustJSON outside a test's goroutine.
type panicker struct{}

func (panicker) Fatal(args ...any) { panic(args) }

func (s *eraServer) ReadResource(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
	if p.URI == "test://missing" {
		// 2026-07-28's resource not found (resources.mdx).
		return nil, &mcp.RPCError{Code: mcp.CodeInvalidParams, Message: "resource not found", Data: json.RawMessage(`{"uri":"test://missing"}`)}
	}
	return mustJSON[*mcp.ReadResourceResult](panicker{}, `{"contents":[{"uri":`+quote(p.URI)+`,"mimeType":"text/plain","text":"contents of `+p.URI+`"}],"ttlMs":0,"cacheScope":"private","resultType":"complete"}`), nil
}

func (s *eraServer) GetPrompt(_ context.Context, p *mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error) {
	return mustJSON[*mcp.GetPromptResult](panicker{}, `{"messages":[{"role":"user","content":{"type":"text","text":"prompt `+p.Name+`"}}],"resultType":"complete"}`), nil
}

func newEraDispatcher(s *eraServer) *mcp.ServerDispatcher {
	return mcp.NewServerDispatcher(s, mcp.ServerOptions{
		ServerInfo: mcp.Implementation{Name: "era", Version: "1.0.0"},
		Capabilities: mcp.ServerCapabilities{
			Tools:     &mcp.ServerCapabilitiesTools{},
			Resources: &mcp.ServerCapabilitiesResources{Subscribe: new(true)},
			Prompts:   &mcp.ServerCapabilitiesPrompts{},
		},
		Instructions:   "one server, every era",
		RequestTimeout: 5 * time.Second,
	})
}

var olderVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26"}

// startEra serves a 2026-07-28 handler set over stdio and initializes it
// as a client of version.
func startEra(t *testing.T, s *eraServer, version string) (*conn, *mcp.ServerDispatcher) {
	t.Helper()
	d := newEraDispatcher(s)
	c := startServe(t, d)
	c.send(initMsg("0", version, allCaps))
	m := readMsg(t, c.next())
	if m.Error != nil {
		t.Fatalf("initialize: %+v", m.Error)
	}
	var r struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ServerInfo      struct{ Name string }
		Instructions    string
	}
	if err := json.Unmarshal(m.Result, &r); err != nil {
		t.Fatal(err)
	}
	if r.ProtocolVersion != version || r.ServerInfo.Name != "era" || r.Instructions != "one server, every era" ||
		!strings.Contains(string(r.Capabilities), `"logging":{}`) || !strings.Contains(string(r.Capabilities), `"subscribe":true`) {
		t.Fatalf("initialize result = %s", m.Result)
	}
	c.send(notification("notifications/initialized", ""))
	return c, d
}

func TestServeOlderStdio(t *testing.T) {
	for _, v := range olderVersions {
		t.Run(v, func(t *testing.T) {
			c, d := startEra(t, &eraServer{}, v)

			c.send(request("1", "ping", ""))
			if m := readMsg(t, c.next()); string(m.Result) != "{}" {
				t.Errorf("ping = %+v", m)
			}
			// Batches: 2025-03-26 has them, the later revisions do not.
			c.send("[" + request(`"b1"`, "ping", "") + "," + callMsg(`"b2"`, "echo", "") + "]")
			if line := c.next(); v == "2025-03-26" {
				var ms []rpcMsg
				if err := json.Unmarshal([]byte(line), &ms); err != nil || len(ms) != 2 || ms[0].Error != nil || ms[1].Error != nil {
					t.Errorf("batch = %s (%v)", line, err)
				}
			} else if m := readMsg(t, line); m.Error == nil || m.Error.Code != mcp.CodeInvalidRequest {
				t.Errorf("batch for %s = %s", v, line)
			}
			c.send(callMsg("2", "echo", `{"x":1}`))
			if text, isErr := toolText(t, readMsg(t, c.next())); text != `echo {"x":1}` || isErr {
				t.Errorf("echo = %q", text)
			}
			c.send(callMsg(`"2m"`, "meta", ""))
			if text, _ := toolText(t, readMsg(t, c.next())); !strings.Contains(text, `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`) ||
				!strings.Contains(text, `"io.modelcontextprotocol/clientInfo":{"name":"session-test","version":"1.0.0"}`) ||
				!strings.Contains(text, `"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}`) {
				t.Errorf("the handler's _meta = %s", text)
			}
			c.send(request("3", "resources/read", `{"uri":"test://a"}`))
			if m := readMsg(t, c.next()); m.Error != nil || !strings.Contains(string(m.Result), `"text":"contents of test://a"`) ||
				strings.Contains(string(m.Result), "ttlMs") || strings.Contains(string(m.Result), "resultType") || strings.Contains(string(m.Result), "serverInfo") {
				t.Errorf("resources/read = %s %+v", m.Result, m.Error)
			}
			// An unknown resource: -32002, the code of the older revisions.
			c.send(request(`"3x"`, "resources/read", `{"uri":"test://missing"}`))
			if m := readMsg(t, c.next()); m.Error == nil || m.Error.Code != -32002 { // the older revisions' resource not found
				t.Errorf("unknown resource = %s %+v, want -32002", m.Result, m.Error)
			}
			c.send(request("4", "prompts/get", `{"name":"p"}`))
			if m := readMsg(t, c.next()); m.Error != nil || !strings.Contains(string(m.Result), `"text":"prompt p"`) {
				t.Errorf("prompts/get = %s %+v", m.Result, m.Error)
			}

			// Elicitation (2025-06-18 and later): the handler's NeedInput
			// becomes an elicitation/create request; the answer and the
			// requestState reach the handler on its second run.
			if v != "2025-03-26" {
				c.send(callMsg("5", "greet", ""))
				req := readMsg(t, c.next())
				if req.Method != "elicitation/create" || req.ID == nil || !strings.Contains(string(req.Params), `"message":"Your name?"`) {
					t.Fatalf("want elicitation/create, got %+v", req)
				}
				c.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"action":"accept","content":{"name":"Ann"}}}`)
				if text, _ := toolText(t, readMsg(t, c.next())); text != "Hello, Ann! state=asked" {
					t.Errorf("greet = %q", text)
				}
			}
			c.send(callMsg("6", "roots", ""))
			req := readMsg(t, c.next())
			if req.Method != "roots/list" {
				t.Fatalf("want roots/list, got %+v", req)
			}
			c.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"roots":[{"uri":"file:///r"}]}}`)
			if text, _ := toolText(t, readMsg(t, c.next())); !strings.Contains(text, "file:///r") {
				t.Errorf("roots = %q", text)
			}

			// Log levels: logging/setLevel filters by severity; progress.
			c.send(request("7", "logging/setLevel", `{"level":"info"}`))
			if m := readMsg(t, c.next()); string(m.Result) != "{}" {
				t.Fatalf("setLevel = %+v", m)
			}
			c.send(request("8", "tools/call", `{"name":"log","arguments":{},"_meta":{"progressToken":"p"}}`))
			var got []string
			for {
				m := readMsg(t, c.next())
				if m.Method == "" {
					break
				}
				got = append(got, m.Method+" "+string(m.Params))
			}
			if len(got) != 3 || !strings.Contains(got[0], `"level":"info"`) || !strings.Contains(got[1], `"level":"error"`) || !strings.Contains(got[2], `"progressToken":"p"`) {
				t.Errorf("messages of the log tool = %q", got)
			}

			// Subscriptions: updates reach the subscribed session only.
			c.send(request("9", "resources/subscribe", `{"uri":"test://a"}`))
			readMsg(t, c.next())
			if n := d.NotifyResourceUpdated("test://b"); n != 0 {
				t.Errorf("NotifyResourceUpdated(b) reached %d", n)
			}
			if n := d.NotifyResourceUpdated("test://a"); n != 1 {
				t.Errorf("NotifyResourceUpdated(a) reached %d", n)
			}
			if m := readMsg(t, c.next()); m.Method != "notifications/resources/updated" || !strings.Contains(string(m.Params), "test://a") {
				t.Errorf("update = %+v", m)
			}
			c.send(request("10", "resources/unsubscribe", `{"uri":"test://a"}`))
			readMsg(t, c.next())
			if n := d.NotifyResourceUpdated("test://a"); n != 0 {
				t.Errorf("after unsubscribe, NotifyResourceUpdated reached %d", n)
			}
			if n, err := d.Broadcast(mcp.MethodToolListChangedNotification, nil); n != 1 || err != nil {
				t.Errorf("Broadcast = %d, %v", n, err)
			}
			if m := readMsg(t, c.next()); m.Method != "notifications/tools/list_changed" {
				t.Errorf("broadcast = %+v", m)
			}

			// A result the client's revision cannot carry is an error that
			// says so, not a silent drop.
			c.send(callMsg("11", "link", ""))
			m := readMsg(t, c.next())
			if v == "2025-03-26" {
				if m.Error == nil || m.Error.Code != mcp.CodeInternalError || !strings.Contains(m.Error.Message, `converting to 2025-03-26: /content/0/type: unknown "type" "resource_link"`) {
					t.Errorf("resource_link to 2025-03-26 = %s %+v", m.Result, m.Error)
				}
			} else if m.Error != nil || !strings.Contains(string(m.Result), "resource_link") {
				t.Errorf("resource_link = %s %+v", m.Result, m.Error)
			}

			// A modern request on the same stream is served as 2026-07-28.
			c.send(request("12", "tools/call", `{"name":"echo","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`))
			if m := readMsg(t, c.next()); !strings.Contains(string(m.Result), `"resultType":"complete"`) {
				t.Errorf("modern request = %s %+v", m.Result, m.Error)
			}
		})
	}
}

// TestServeOlderStdioCancel: a cancelled request of an older client gets
// no response, and nothing its handler sends afterwards goes out.
func TestServeOlderStdioCancel(t *testing.T) {
	s := &eraServer{started: make(chan string, 4)}
	c, _ := startEra(t, s, "2025-11-25")
	c.send(callMsg("1", "wait", ""))
	<-s.started
	c.send(notification("notifications/cancelled", `{"requestId":"1","reason":"test"}`))
	c.send(request("2", "ping", ""))
	if m := readMsg(t, c.next()); string(m.ID) != "2" {
		t.Errorf("after cancellation, got %+v; want only the ping's response", m)
	}
}

// TestServeOlderModernUntouched: a 2026-07-28 client of the same
// dispatcher sees no trace of the older era: initialize with modern _meta
// is a method this revision lacks, and a request without _meta is refused.
func TestServeOlderModernUntouched(t *testing.T) {
	c := startServe(t, newEraDispatcher(&eraServer{}))
	c.send(request("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`))
	if m := readMsg(t, c.next()); m.Error == nil || m.Error.Code != mcp.CodeMethodNotFound {
		t.Errorf("modern initialize = %+v", m)
	}
	c.send(callMsg("2", "echo", ""))
	if m := readMsg(t, c.next()); m.Error == nil || m.Error.Code != mcp.CodeInvalidParams {
		t.Errorf("tools/call without _meta before initialize = %s %+v", m.Result, m.Error)
	}
}

// startEraHTTP serves a 2026-07-28 handler set over HTTP and opens a
// session as a client of version.
func startEraHTTP(t *testing.T, s *eraServer, version string, opts mcp.HTTPOptions) (*sessClient, *mcp.ServerDispatcher) {
	t.Helper()
	d := newEraDispatcher(s)
	srv := httptest.NewServer(mcp.NewHTTPHandler(d, opts))
	t.Cleanup(srv.Close)
	c := &sessClient{t: t, url: srv.URL, version: version}
	c.open()
	return c, d
}

func TestServeOlderHTTP(t *testing.T) {
	for _, v := range olderVersions {
		t.Run(v, func(t *testing.T) {
			s := &eraServer{started: make(chan string, 8)}
			c, d := startEraHTTP(t, s, v, mcp.HTTPOptions{})

			if text, _ := toolText(t, jsonMsg(t, c.req(http.MethodPost, callMsg("1", "echo", `{"y":2}`)), http.StatusOK)); text != `echo {"y":2}` {
				t.Errorf("echo = %q", text)
			}
			if v == "2025-03-26" {
				resp := c.req(http.MethodPost, "["+request(`"b1"`, "ping", "")+","+callMsg(`"b2"`, "echo", "")+"]")
				b, _ := io.ReadAll(resp.Body)
				var ms []rpcMsg
				if err := json.Unmarshal(b, &ms); err != nil || len(ms) != 2 || ms[0].Error != nil || ms[1].Error != nil {
					t.Errorf("batch over HTTP = %d %s (%v)", resp.StatusCode, b, err)
				}
			}
			if m := jsonMsg(t, c.req(http.MethodPost, request("2", "resources/read", `{"uri":"test://a"}`)), http.StatusOK); !strings.Contains(string(m.Result), "contents of test://a") || strings.Contains(string(m.Result), "resultType") {
				t.Errorf("resources/read = %s %+v", m.Result, m.Error)
			}
			if m := jsonMsg(t, c.req(http.MethodPost, request("3", "prompts/get", `{"name":"q"}`)), http.StatusOK); !strings.Contains(string(m.Result), "prompt q") {
				t.Errorf("prompts/get = %s %+v", m.Result, m.Error)
			}

			// logging/setLevel filters the log messages of later requests.
			jsonMsg(t, c.req(http.MethodPost, request("4", "logging/setLevel", `{"level":"error"}`)), http.StatusOK)
			st := newSSE(t, c.req(http.MethodPost, callMsg("5", "log", "")))
			var levels []string
			for {
				m, _ := st.msg()
				if string(m.ID) == "5" {
					break
				}
				var p struct{ Level string }
				json.Unmarshal(m.Params, &p)
				levels = append(levels, m.Method+":"+p.Level)
			}
			if strings.Join(levels, " ") != "notifications/message:error" {
				t.Errorf("messages at level error: %q", levels)
			}

			// NeedInput: the elicitation goes out on the response stream as
			// elicitation/create; 2025-03-26 has none, and says so.
			resp := c.req(http.MethodPost, callMsg("6", "greet", ""))
			if v == "2025-03-26" {
				m := jsonMsg(t, resp, http.StatusOK)
				if m.Error == nil || m.Error.Code != mcp.CodeInternalError || !strings.Contains(m.Error.Message, "elicitation/create") {
					t.Errorf("greet for 2025-03-26 = %s %+v, want an internal error naming elicitation/create", m.Result, m.Error)
				}
			} else {
				st = newSSE(t, resp)
				req, _ := st.msg()
				if req.Method != "elicitation/create" || req.ID == nil {
					t.Fatalf("want elicitation/create on the response stream, got %+v", req)
				}
				wantStatus(t, c.req(http.MethodPost, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"action":"accept","content":{"name":"Bo"}}}`), http.StatusAccepted)
				if res, _ := st.msg(); string(res.ID) != "6" {
					t.Errorf("want the response to 6, got %+v", res)
				} else if text, _ := toolText(t, res); text != "Hello, Bo! state=asked" {
					t.Errorf("greet = %q", text)
				}
			}

			// Subscriptions: the update comes on the session's GET stream.
			jsonMsg(t, c.req(http.MethodPost, request("7", "resources/subscribe", `{"uri":"test://w"}`)), http.StatusOK)
			get := newSSE(t, c.req(http.MethodGet, ""))
			if n := d.NotifyResourceUpdated("test://w"); n != 1 {
				t.Errorf("NotifyResourceUpdated reached %d sessions", n)
			}
			if m, _ := get.msg(); m.Method != "notifications/resources/updated" || !strings.Contains(string(m.Params), "test://w") {
				t.Errorf("on the GET stream: %+v", m)
			}

			// Cancellation: the request's POST ends without a response.
			got := make(chan string, 1)
			go func() {
				r, _ := http.NewRequest(http.MethodPost, c.url, strings.NewReader(callMsg("8", "wait", "")))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Accept", "application/json, text/event-stream")
				r.Header.Set("Mcp-Session-Id", c.sid)
				resp, err := http.DefaultClient.Do(r)
				if err != nil {
					got <- err.Error()
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				got <- strconv.Itoa(resp.StatusCode) + " " + string(b)
			}()
			<-s.started
			wantStatus(t, c.req(http.MethodPost, notification("notifications/cancelled", `{"requestId":8}`)), http.StatusAccepted)
			select {
			case r := <-got:
				if strings.Contains(r, "jsonrpc") || !strings.HasPrefix(r, "200") {
					t.Errorf("the cancelled request's POST got %q, want 200 and no message", r)
				}
			case <-time.After(wait):
				t.Fatal("the cancelled request's POST was not answered")
			}

			// A 2026-07-28 request at the same endpoint is served as such.
			r := c.req(http.MethodPost, request("9", "tools/call", `{"name":"echo","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`),
				"Mcp-Session-Id", "", "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "echo")
			if m := jsonMsg(t, r, http.StatusOK); !strings.Contains(string(m.Result), `"resultType":"complete"`) {
				t.Errorf("modern request = %s %+v", m.Result, m.Error)
			}

			// DELETE ends the session; an unknown or ended one is 404.
			wantStatus(t, c.req(http.MethodDelete, ""), http.StatusNoContent)
			wantStatus(t, c.req(http.MethodPost, request("10", "ping", "")), http.StatusNotFound)
			c.sid = "not-a-session"
			wantStatus(t, c.req(http.MethodPost, request("11", "ping", "")), http.StatusNotFound)
		})
	}
}

// TestServeOlderHTTPTenThousand: a client that opens sessions at the front
// door and never closes them cannot grow the server past MaxSessions.
func TestServeOlderHTTPTenThousand(t *testing.T) {
	h := mcp.NewHTTPHandler(newEraDispatcher(&eraServer{}), mcp.HTTPOptions{MaxSessions: 500, MaxSessionsPerClient: -1})
	post := func(body, sid string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			r.Header.Set("Mcp-Session-Id", sid)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	ids := make([]string, 0, 10000)
	var at2000 uint64
	for i := range 10000 {
		if i == 2000 {
			at2000 = heap()
		}
		w := post(initMsg(strconv.Itoa(i), olderVersions[i%3], "{}"), "")
		if w.Code != http.StatusOK {
			t.Fatalf("initialize %d: %d %s", i, w.Code, w.Body)
		}
		ids = append(ids, w.Header().Get("Mcp-Session-Id"))
	}
	at10000 := heap()
	live := 0
	for _, id := range ids {
		if post(request("1", "ping", ""), id).Code == http.StatusOK {
			live++
		}
	}
	if live != 500 {
		t.Errorf("%d of 10000 sessions answer; want MaxSessions, 500", live)
	}
	if code := post(request("1", "ping", ""), ids[0]).Code; code != http.StatusNotFound {
		t.Errorf("the first (evicted) session answers %d, want 404", code)
	}
	if grow := int64(at10000) - int64(at2000); grow > 2<<20 {
		t.Errorf("the heap grew by %d bytes from 2000 to 10000 sessions opened", grow)
	}
}

// TestServeOlderOptOut: OnlyThisRevision serves 2026-07-28 clients only;
// without it, a GET goes to the handler with sessions (400 without a
// session, 404 with an unknown one).
func TestServeOlderOptOut(t *testing.T) {
	d := mcp.NewServerDispatcher(&eraServer{}, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "era", Version: "1"}, OnlyThisRevision: true})
	c := startServe(t, d)
	c.send(initMsg("1", "2025-11-25", "{}"))
	if m := readMsg(t, c.next()); m.Error == nil || m.Error.Code != mcp.CodeUnsupportedProtocolVersion {
		t.Errorf("initialize with OnlyThisRevision = %s %+v, want -32022", m.Result, m.Error)
	}
	srv := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	defer srv.Close()
	hc := &sessClient{t: t, url: srv.URL}
	if m := jsonMsg(t, hc.req(http.MethodPost, initMsg("1", "2025-11-25", "{}")), http.StatusBadRequest); m.Error == nil || m.Error.Code != mcp.CodeUnsupportedProtocolVersion {
		t.Errorf("initialize over HTTP with OnlyThisRevision = %+v", m.Error)
	}

	srv2 := httptest.NewServer(mcp.NewHTTPHandler(newEraDispatcher(&eraServer{}), mcp.HTTPOptions{}))
	defer srv2.Close()
	hc = &sessClient{t: t, url: srv2.URL}
	wantStatus(t, hc.req(http.MethodGet, ""), http.StatusBadRequest)
	hc.sid = "no-such-session"
	wantStatus(t, hc.req(http.MethodGet, ""), http.StatusNotFound)
}

// TestServeOlderLosses pins what the path to an older client cannot carry:
// each is a JSON-RPC error naming the conversion, never a silent drop.
func TestServeOlderLosses(t *testing.T) {
	const urlCaps = `{"elicitation":{"form":{},"url":{}}}`
	for _, c := range []struct {
		version, tool, want string
	}{
		// 2025-11-25 requires the elicitationId 2026-07-28 dropped.
		{"2025-11-25", "url", "elicitationId"},
		// 2025-06-18 has no URL elicitation.
		{"2025-06-18", "url", "2025-06-18"},
		// 2025-03-26 has no elicitation at all.
		{"2025-03-26", "greet", "elicitation/create"},
		// 2025-03-26 has no resource links.
		{"2025-03-26", "link", `converting to 2025-03-26: /content/0/type: unknown "type" "resource_link"`},
	} {
		t.Run(c.version+"/"+c.tool, func(t *testing.T) {
			conn := startServe(t, newEraDispatcher(&eraServer{}))
			conn.send(initMsg("0", c.version, urlCaps))
			readMsg(t, conn.next())
			conn.send(notification("notifications/initialized", ""))
			conn.send(callMsg("1", c.tool, ""))
			m := readMsg(t, conn.next())
			if m.Error == nil || m.Error.Code != mcp.CodeInternalError || !strings.Contains(m.Error.Message, c.want) {
				t.Errorf("%s for %s = %s %+v, want an internal error naming %q", c.tool, c.version, m.Result, m.Error, c.want)
			}
		})
	}
	// With the elicitationId in the params, the URL elicitation reaches a
	// 2025-11-25 client.
	conn := startServe(t, newEraDispatcher(&eraServer{}))
	conn.send(initMsg("0", "2025-11-25", urlCaps))
	readMsg(t, conn.next())
	conn.send(notification("notifications/initialized", ""))
	conn.send(callMsg("1", "url-id", ""))
	req := readMsg(t, conn.next())
	if req.Method != "elicitation/create" || !strings.Contains(string(req.Params), `"elicitationId":"e-1"`) || !strings.Contains(string(req.Params), `"mode":"url"`) {
		t.Fatalf("want a URL elicitation/create with the elicitationId, got %+v", req)
	}
	conn.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"action":"accept"}}`)
	if text, _ := toolText(t, readMsg(t, conn.next())); text != "opened" {
		t.Errorf("url-id = %q", text)
	}
}
