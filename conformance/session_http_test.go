package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp20241105"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/legacyserver"
)

// The revisions with the initialize handshake over HTTP with sessions
// (basic/transports.mdx of 2025-06-18 and 2025-11-25): the session id,
// 404 for unknown sessions, the GET stream, server-to-client requests on
// a response stream, resumption with Last-Event-ID, SSE polling, setLevel
// filtering, cancellation, DELETE, and the bounds on sessions.

// sseEvent is one event of a stream, read by the test.
type sseEvent struct {
	id, data string
	hasID    bool
	retry    int // -1 when absent
}

// sseStream reads the events of a response body.
type sseStream struct {
	t    *testing.T
	body io.ReadCloser
	r    *bufio.Reader
}

func newSSE(t *testing.T, resp *http.Response) *sseStream {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("want an event stream, got %d %q: %s", resp.StatusCode, ct, b)
	}
	return &sseStream{t: t, body: resp.Body, r: bufio.NewReader(resp.Body)}
}

// next returns the next event; io.EOF when the stream ends. Comment lines
// are skipped.
func (s *sseStream) next() (sseEvent, error) {
	ev := sseEvent{retry: -1}
	var data []string
	started := false
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && !started {
				return ev, io.EOF
			}
			return ev, fmt.Errorf("stream ended in an event: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !started {
				continue
			}
			ev.data = strings.Join(data, "\n")
			return ev, nil
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		started = true
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "id":
			ev.id, ev.hasID = value, true
		case "data":
			data = append(data, value)
		case "retry":
			ev.retry, _ = strconv.Atoi(value)
		}
	}
}

// must returns the next event, failing the test at the end of the stream.
func (s *sseStream) must() sseEvent {
	s.t.Helper()
	ev, err := s.next()
	if err != nil {
		s.t.Fatalf("reading the stream: %v", err)
	}
	return ev
}

// msg returns the next event that carries a message (priming events
// checked and skipped).
func (s *sseStream) msg() (rpcMsg, sseEvent) {
	s.t.Helper()
	for {
		ev := s.must()
		if ev.data == "" {
			if !ev.hasID {
				s.t.Errorf("an event without data and without an id: %+v", ev)
			}
			continue
		}
		return readMsg(s.t, ev.data), ev
	}
}

// sessClient is a client of one session.
type sessClient struct {
	t       *testing.T
	url     string
	version string
	sid     string
}

func (c *sessClient) req(method, body string, hdr ...string) *http.Response {
	c.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r, err := http.NewRequest(method, c.url, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if method == http.MethodPost {
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
	} else {
		r.Header.Set("Accept", "text/event-stream")
	}
	if c.sid != "" {
		r.Header.Set("Mcp-Session-Id", c.sid)
	}
	if c.version != "" && c.sid != "" {
		r.Header.Set("MCP-Protocol-Version", c.version)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			r.Header.Del(hdr[i])
		} else {
			r.Header.Set(hdr[i], hdr[i+1])
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	c.t.Cleanup(cancel)
	resp, err := http.DefaultClient.Do(r.WithContext(ctx))
	if err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// jsonMsg reads a JSON response.
func jsonMsg(t *testing.T, resp *http.Response, status int) rpcMsg {
	t.Helper()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("got %d %q %s, want %d application/json", resp.StatusCode, resp.Header.Get("Content-Type"), b, status)
	}
	return readMsg(t, string(b))
}

func wantStatus(t *testing.T, resp *http.Response, status int) {
	t.Helper()
	if resp.StatusCode != status {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d %s, want %d", resp.StatusCode, b, status)
	}
}

var visibleASCII = regexp.MustCompile(`^[\x21-\x7E]+$`)

// startHTTPSession serves a legacyserver over HTTP and opens a session.
func startHTTPSession(t *testing.T, version string, hooks *legacyserver.Hooks, cfg legacyserver.HTTPConfig) (*sessClient, *legacyserver.Server) {
	t.Helper()
	s, err := legacyserver.New(version, legacyserver.Options{Hooks: hooks, RequestTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.HTTP(cfg))
	t.Cleanup(srv.Close)
	c := &sessClient{t: t, url: srv.URL, version: version}
	c.open()
	return c, s
}

// open initializes a new session.
func (c *sessClient) open() {
	c.t.Helper()
	c.sid = ""
	resp := c.req(http.MethodPost, initMsg("0", c.version, allCaps))
	m := jsonMsg(c.t, resp, http.StatusOK)
	if m.Error != nil || !strings.Contains(string(m.Result), `"protocolVersion":"`+c.version+`"`) {
		c.t.Fatalf("initialize: %s %+v", m.Result, m.Error)
	}
	c.sid = resp.Header.Get("Mcp-Session-Id")
	if !visibleASCII.MatchString(c.sid) || len(c.sid) < 16 {
		c.t.Fatalf("Mcp-Session-Id %q: want 16 or more visible ASCII characters", c.sid)
	}
	wantStatus(c.t, c.req(http.MethodPost, notification("notifications/initialized", "")), http.StatusAccepted)
}

func TestSessionHTTPLifecycle(t *testing.T) {
	for _, v := range legacyserver.Versions {
		t.Run(v, func(t *testing.T) {
			c, _ := startHTTPSession(t, v, nil, legacyserver.HTTPConfig{})
			m := jsonMsg(t, c.req(http.MethodPost, request("1", "tools/list", "")), http.StatusOK)
			if !strings.Contains(string(m.Result), `"name":"elicit"`) {
				t.Errorf("tools/list: %s", m.Result)
			}
			sid := c.sid

			// No session: 400; an unknown one: 404.
			c.sid = ""
			m = jsonMsg(t, c.req(http.MethodPost, request("2", "tools/list", "")), http.StatusBadRequest)
			if m.Error == nil || string(m.ID) != "2" {
				t.Errorf("without a session: %+v", m)
			}
			c.sid = "no-such-session"
			jsonMsg(t, c.req(http.MethodPost, request("3", "tools/list", "")), http.StatusNotFound)
			wantStatus(t, c.req(http.MethodGet, ""), http.StatusNotFound)
			wantStatus(t, c.req(http.MethodDelete, ""), http.StatusNotFound)
			c.sid = sid

			// A protocol version the server does not speak: 400.
			jsonMsg(t, c.req(http.MethodPost, request("4", "tools/list", ""), "MCP-Protocol-Version", "2024-11-05"), http.StatusBadRequest)
			// Without the header, the negotiated version holds.
			jsonMsg(t, c.req(http.MethodPost, request("5", "ping", ""), "MCP-Protocol-Version", ""), http.StatusOK)
			// initialize inside a session: 400.
			jsonMsg(t, c.req(http.MethodPost, initMsg("6", v, allCaps)), http.StatusBadRequest)

			// DELETE ends it; then 404.
			wantStatus(t, c.req(http.MethodDelete, ""), http.StatusNoContent)
			jsonMsg(t, c.req(http.MethodPost, request("7", "tools/list", "")), http.StatusNotFound)
			wantStatus(t, c.req(http.MethodDelete, ""), http.StatusNotFound)

			// A new session works, with an id of its own.
			c.open()
			if c.sid == sid {
				t.Error("the new session has the old id")
			}
			jsonMsg(t, c.req(http.MethodPost, request("8", "ping", "")), http.StatusOK)

			// A client that takes event streams only gets initialize's
			// answer as one, and the session lives.
			c.sid = ""
			resp := c.req(http.MethodPost, initMsg("9", v, allCaps), "Accept", "text/event-stream")
			if m, _ := newSSE(t, resp).msg(); m.Error != nil || string(m.ID) != "9" {
				t.Fatalf("initialize as a stream: %+v", m)
			}
			c.sid = resp.Header.Get("Mcp-Session-Id")
			jsonMsg(t, c.req(http.MethodPost, request("10", "ping", "")), http.StatusOK)
		})
	}
}

func TestSessionHTTPGetStream(t *testing.T) {
	for _, v := range legacyserver.Versions {
		t.Run(v, func(t *testing.T) {
			c, s := startHTTPSession(t, v, nil, legacyserver.HTTPConfig{})
			wantStatus(t, c.req(http.MethodGet, "", "Accept", "application/json"), http.StatusNotAcceptable)
			get := newSSE(t, c.req(http.MethodGet, ""))
			if v >= "2025-11-25" {
				if ev := get.must(); !ev.hasID || ev.data != "" {
					t.Errorf("the first event of a 2025-11-25 stream = %+v, want a priming event", ev)
				}
			}
			// One GET stream at a time.
			wantStatus(t, c.req(http.MethodGet, ""), http.StatusConflict)

			if n, err := s.Broadcast("notifications/tools/list_changed", nil); n != 1 || err != nil {
				t.Errorf("Broadcast = %d, %v", n, err)
			}
			if m, ev := get.msg(); m.Method != "notifications/tools/list_changed" || !ev.hasID {
				t.Errorf("want tools/list_changed with an event id, got %+v %+v", m, ev)
			}
			jsonMsg(t, c.req(http.MethodPost, request("1", "resources/subscribe", `{"uri":"`+legacyserver.WatchedURI+`"}`)), http.StatusOK)
			if n := s.NotifyResourceUpdated(legacyserver.WatchedURI); n != 1 {
				t.Errorf("NotifyResourceUpdated reached %d", n)
			}
			if m, _ := get.msg(); m.Method != "notifications/resources/updated" || !strings.Contains(string(m.Params), legacyserver.WatchedURI) {
				t.Errorf("want resources/updated, got %+v", m)
			}
			// DELETE ends the stream too.
			wantStatus(t, c.req(http.MethodDelete, ""), http.StatusNoContent)
			if _, err := get.next(); err != io.EOF {
				t.Errorf("after DELETE the GET stream goes on: %v", err)
			}
		})
	}
}

func TestSessionHTTPElicitation(t *testing.T) {
	for _, v := range legacyserver.Versions {
		t.Run(v, func(t *testing.T) {
			c, _ := startHTTPSession(t, v, nil, legacyserver.HTTPConfig{})
			resp := c.req(http.MethodPost, callMsg("1", "elicit", ""))
			st := newSSE(t, resp)
			if v >= "2025-11-25" {
				if ev := st.must(); !ev.hasID || ev.data != "" {
					t.Errorf("first event %+v, want a priming event", ev)
				}
			}
			req, _ := st.msg()
			if req.Method != "elicitation/create" || req.ID == nil {
				t.Fatalf("want elicitation/create on the response stream, got %+v", req)
			}
			wantStatus(t, c.req(http.MethodPost, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"action":"accept","content":{"name":"Bo"}}}`), http.StatusAccepted)
			res, _ := st.msg()
			if text, isErr := toolText(t, res); text != "Hello, Bo!" || isErr || string(res.ID) != "1" {
				t.Errorf("result %q (isError %v, id %s)", text, isErr, res.ID)
			}
			if _, err := st.next(); err != io.EOF {
				t.Errorf("the stream goes on after the response: %v", err)
			}
		})
	}
}

func TestSessionHTTPSetLevel(t *testing.T) {
	for _, v := range legacyserver.Versions {
		t.Run(v, func(t *testing.T) {
			c, _ := startHTTPSession(t, v, nil, legacyserver.HTTPConfig{})
			jsonMsg(t, c.req(http.MethodPost, request("1", "logging/setLevel", `{"level":"error"}`)), http.StatusOK)
			st := newSSE(t, c.req(http.MethodPost, callMsg("2", "log", "")))
			var levels []string
			for {
				m, _ := st.msg()
				if string(m.ID) == "2" {
					break
				}
				var p struct{ Level string }
				json.Unmarshal(m.Params, &p)
				levels = append(levels, p.Level)
			}
			if strings.Join(levels, " ") != "error" {
				t.Errorf("levels sent at error: %q", levels)
			}
		})
	}
}

func TestSessionHTTPCancelSilence(t *testing.T) {
	for _, v := range legacyserver.Versions {
		t.Run(v, func(t *testing.T) {
			hooks := &legacyserver.Hooks{Started: make(chan string, 1), AfterCancel: make(chan [2]error, 1)}
			c, _ := startHTTPSession(t, v, hooks, legacyserver.HTTPConfig{})
			got := make(chan string, 1)
			go func() {
				r, err := http.NewRequest(http.MethodPost, c.url, strings.NewReader(callMsg("9", "block", "")))
				if err != nil {
					got <- err.Error()
					return
				}
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
			<-hooks.Started
			wantStatus(t, c.req(http.MethodPost, notification("notifications/cancelled", `{"requestId":9}`)), http.StatusAccepted)
			select {
			case errs := <-hooks.AfterCancel:
				for i, err := range errs {
					if err == nil {
						t.Errorf("message %d about the cancelled request was sent", i)
					}
				}
			case <-time.After(wait):
				t.Fatal("the handler did not see the cancellation")
			}
			select {
			case s := <-got:
				if strings.Contains(s, "jsonrpc") || !strings.HasPrefix(s, "200") {
					t.Errorf("the cancelled request's POST got %q, want 200 and an empty stream", s)
				}
			case <-time.After(wait):
				t.Fatal("the cancelled request's POST was not answered")
			}
		})
	}
}

func TestSessionHTTPResume(t *testing.T) {
	for _, v := range legacyserver.Versions {
		t.Run(v, func(t *testing.T) {
			hooks := &legacyserver.Hooks{Started: make(chan string, 1), Release: make(chan struct{})}
			c, _ := startHTTPSession(t, v, hooks, legacyserver.HTTPConfig{})
			resp := c.req(http.MethodPost, callMsg("1", "chatty", ""))
			st := newSSE(t, resp)
			m, ev := st.msg()
			if m.Method != "notifications/message" || !strings.Contains(string(m.Params), `"first"`) || !ev.hasID {
				t.Fatalf("want the first log message with an id, got %+v %+v", m, ev)
			}
			<-hooks.Started
			// The connection breaks; the handler goes on.
			resp.Body.Close()
			close(hooks.Release)

			wantStatus(t, c.req(http.MethodGet, "", "Last-Event-ID", "999-1"), http.StatusBadRequest)
			st = newSSE(t, c.req(http.MethodGet, "", "Last-Event-ID", ev.id))
			m, _ = st.msg()
			if m.Method != "notifications/message" || !strings.Contains(string(m.Params), `"second"`) {
				t.Fatalf("resumed stream: want the second log message, got %+v", m)
			}
			m, _ = st.msg()
			if text, _ := toolText(t, m); text != "chatted" || string(m.ID) != "1" {
				t.Errorf("resumed stream: result %q id %s", text, m.ID)
			}
			if _, err := st.next(); err != io.EOF {
				t.Errorf("the resumed stream goes on after the response: %v", err)
			}
			// Resuming again replays the same events: the history keeps them.
			st = newSSE(t, c.req(http.MethodGet, "", "Last-Event-ID", ev.id))
			if m, _ := st.msg(); !strings.Contains(string(m.Params), `"second"`) {
				t.Errorf("replayed again: %+v", m)
			}
		})
	}
}

func TestSessionHTTPPoll(t *testing.T) {
	c, _ := startHTTPSession(t, "2025-11-25", nil, legacyserver.HTTPConfig{})
	st := newSSE(t, c.req(http.MethodPost, callMsg("1", "poll", "")))
	prime := st.must()
	if !prime.hasID || prime.data != "" {
		t.Fatalf("first event %+v, want a priming event", prime)
	}
	last := prime
	for {
		ev, err := st.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.data != "" {
			t.Fatalf("an event with data before the poll: %+v", ev)
		}
		last = ev
	}
	if last.retry != 50 || !last.hasID {
		t.Fatalf("the last event before the connection ends = %+v, want an id and retry: 50", last)
	}
	st = newSSE(t, c.req(http.MethodGet, "", "Last-Event-ID", last.id))
	m, _ := st.msg()
	if m.Method != "notifications/message" {
		t.Fatalf("resumed: want the log message, got %+v", m)
	}
	m, _ = st.msg()
	if text, _ := toolText(t, m); text != "polled" {
		t.Errorf("resumed: result %q", text)
	}

	// 2025-06-18 servers must not end a stream before its response.
	c, _ = startHTTPSession(t, "2025-06-18", nil, legacyserver.HTTPConfig{})
	m = jsonMsg(t, c.req(http.MethodPost, callMsg("1", "poll", "")), http.StatusOK)
	if m.Error == nil || !strings.Contains(m.Error.Message, "does not let a server end a stream") {
		t.Errorf("poll in 2025-06-18: %+v", m)
	}
}

func TestSessionHTTPPollAfter(t *testing.T) {
	c, s := startHTTPSession(t, "2025-11-25", nil, legacyserver.HTTPConfig{PollAfter: 30 * time.Millisecond, PollRetry: 10 * time.Millisecond})
	get := newSSE(t, c.req(http.MethodGet, ""))
	var last sseEvent
	for {
		ev, err := get.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		last = ev
	}
	if last.retry != 10 || !last.hasID {
		t.Fatalf("the GET stream ended after %+v, want an event with an id and retry: 10", last)
	}
	if n, _ := s.Broadcast("notifications/tools/list_changed", nil); n != 1 {
		t.Errorf("Broadcast while polling reached %d", n)
	}
	get = newSSE(t, c.req(http.MethodGet, "", "Last-Event-ID", last.id))
	if m, _ := get.msg(); m.Method != "notifications/tools/list_changed" {
		t.Errorf("after the poll: %+v", m)
	}
}

// TestSessionHTTPTenThousand opens 10,000 sessions and never closes them:
// MaxSessions (1000 by default) bounds what the server keeps, the least
// recently used sessions make room (their clients get 404), and the heap
// does not grow with the number of sessions opened.
func TestSessionHTTPTenThousand(t *testing.T) {
	s, err := legacyserver.New("2025-11-25", legacyserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Every request comes from one address: no bound per client, so that
	// MaxSessions is what bounds them (TestSessionHTTPFlood has both).
	h := s.HTTP(legacyserver.HTTPConfig{MaxPerClient: -1})
	open := func(i int) string {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(initMsg(strconv.Itoa(i), "2025-11-25", "{}")))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			t.Fatalf("initialize %d: %d %s", i, w.Code, w.Body)
		}
		return w.Header().Get("Mcp-Session-Id")
	}
	ping := func(sid string) int {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(request("1", "ping", "")))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Mcp-Session-Id", sid)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	ids := make([]string, 0, 10000)
	for i := range 2000 {
		ids = append(ids, open(i))
	}
	at2000 := heap()
	for i := 2000; i < 10000; i++ {
		ids = append(ids, open(i))
	}
	at10000 := heap()
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("session id %q given out twice", id)
		}
		seen[id] = true
	}
	live := 0
	for _, id := range ids {
		if ping(id) == http.StatusOK {
			live++
		}
	}
	if live != 1000 {
		t.Errorf("%d of 10000 sessions answer; want MaxSessions, 1000", live)
	}
	if code := ping(ids[0]); code != http.StatusNotFound {
		t.Errorf("the first session (evicted) answers %d, want 404", code)
	}
	if code := ping(ids[len(ids)-1]); code != http.StatusOK {
		t.Errorf("the last session answers %d, want 200", code)
	}
	// 8000 more sessions opened with 1000 kept: the heap stays where it
	// was. (Each session costs about 1.4 KB: with no bound, the same 8000
	// grow the heap by some 11 MB.)
	if grow := int64(at10000) - int64(at2000); grow > 2<<20 {
		t.Errorf("the heap grew by %d bytes from 2000 to 10000 sessions opened", grow)
	}
	t.Logf("heap at 2000 sessions opened: %d bytes; at 10000: %d", at2000, at10000)
}

func TestSessionHTTPBusySessionsStay(t *testing.T) {
	s, err := legacyserver.New("2025-06-18", legacyserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.HTTP(legacyserver.HTTPConfig{MaxSessions: 1}))
	t.Cleanup(srv.Close)
	a := &sessClient{t: t, url: srv.URL, version: "2025-06-18"}
	a.open()
	get := a.req(http.MethodGet, "") // an open stream keeps a busy
	b := &sessClient{t: t, url: srv.URL, version: "2025-06-18"}
	resp := b.req(http.MethodPost, initMsg("0", "2025-06-18", "{}"))
	if m := jsonMsg(t, resp, http.StatusServiceUnavailable); m.Error == nil || resp.Header.Get("Retry-After") == "" {
		t.Errorf("initialize with every session busy: %+v, Retry-After %q", m, resp.Header.Get("Retry-After"))
	}
	get.Body.Close()
	// Once a is idle, a new session takes its place.
	deadline := time.Now().Add(wait)
	for {
		resp := b.req(http.MethodPost, initMsg("0", "2025-06-18", "{}"))
		if resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("initialize after the stream closed: %d", resp.StatusCode)
		}
		time.Sleep(10 * time.Millisecond)
	}
	jsonMsg(t, a.req(http.MethodPost, request("1", "ping", "")), http.StatusNotFound)
}

func TestSessionHTTPIdleExpiry(t *testing.T) {
	c, _ := startHTTPSession(t, "2025-11-25", nil, legacyserver.HTTPConfig{SessionIdleTimeout: 50 * time.Millisecond})
	jsonMsg(t, c.req(http.MethodPost, request("1", "ping", "")), http.StatusOK)
	time.Sleep(1100 * time.Millisecond) // idle sessions are looked for once a second
	jsonMsg(t, c.req(http.MethodPost, request("2", "ping", "")), http.StatusNotFound)
}

func TestSessionHTTPStateless(t *testing.T) {
	s, err := legacyserver.New("2025-11-25", legacyserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.HTTP(legacyserver.HTTPConfig{Stateless: true}))
	t.Cleanup(srv.Close)
	c := &sessClient{t: t, url: srv.URL, version: "2025-11-25"}
	resp := c.req(http.MethodPost, initMsg("0", "2025-11-25", allCaps))
	jsonMsg(t, resp, http.StatusOK)
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		t.Errorf("a stateless handler gave out session %q", sid)
	}
	m := jsonMsg(t, c.req(http.MethodPost, callMsg("1", "elicit", "")), http.StatusOK)
	if text, isErr := toolText(t, m); !isErr || !strings.Contains(text, "stateless") {
		t.Errorf("elicitation over stateless HTTP: %q", text)
	}
	wantStatus(t, c.req(http.MethodGet, ""), http.StatusMethodNotAllowed)
}

type server20241105 struct {
	mcp20241105.UnimplementedServerHandler
}

// TestOldHTTPSSE: 2024-11-05's HTTP+SSE transport. GET opens the session's
// stream, whose first event names the endpoint to POST to; POSTs get 202,
// and every message of the server, responses included, is an event.
func TestOldHTTPSSE(t *testing.T) {
	d := mcp20241105.NewServerDispatcher(server20241105{}, mcp20241105.ServerOptions{ServerInfo: mcp20241105.Implementation{Name: "old", Version: "1"}})
	srv := httptest.NewServer(mcp20241105.NewHTTPHandler(d, mcp20241105.HTTPOptions{}))
	t.Cleanup(srv.Close)
	c := &sessClient{t: t, url: srv.URL + "/sse"}
	st := newSSE(t, c.req(http.MethodGet, ""))
	line, err := st.r.ReadString('\n')
	if err != nil || line != "event: endpoint\n" {
		t.Fatalf("first line %q (%v), want the endpoint event", line, err)
	}
	line, _ = st.r.ReadString('\n')
	endpoint, ok := strings.CutPrefix(strings.TrimSpace(line), "data: ")
	if !ok || !strings.HasPrefix(endpoint, "/sse?sessionId=") {
		t.Fatalf("endpoint line %q", line)
	}
	post := &sessClient{t: t, url: srv.URL + endpoint}
	wantStatus(t, post.req(http.MethodPost, initMsg("1", "2024-11-05", "{}")), http.StatusAccepted)
	m, _ := st.msg()
	if string(m.ID) != "1" || !strings.Contains(string(m.Result), `"protocolVersion":"2024-11-05"`) {
		t.Errorf("initialize result on the stream: %+v", m)
	}
	wantStatus(t, post.req(http.MethodPost, notification("notifications/initialized", "")), http.StatusAccepted)
	wantStatus(t, post.req(http.MethodPost, request("2", "ping", "")), http.StatusAccepted)
	if m, _ := st.msg(); string(m.ID) != "2" || string(m.Result) != "{}" {
		t.Errorf("ping result: %+v", m)
	}
	wrong := &sessClient{t: t, url: srv.URL + "/sse?sessionId=nope"}
	wantStatus(t, wrong.req(http.MethodPost, request("3", "ping", "")), http.StatusNotFound)
}

// TestModernFallbackToSessions: the 2026-07-28 handler passes what its
// transport does not define (initialize without MCP-Protocol-Version,
// requests with Mcp-Session-Id, GET, DELETE) to HTTPOptions.Fallback; with
// a 2025-11-25 handler there, one endpoint serves both eras.
func TestModernFallbackToSessions(t *testing.T) {
	legacy, err := legacyserver.New("2025-11-25", legacyserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	modern := mcp.NewHTTPHandler(newServer(toolsServer(), mcp.ServerOptions{}), mcp.HTTPOptions{Fallback: legacy.HTTP(legacyserver.HTTPConfig{})})
	srv := httptest.NewServer(modern)
	t.Cleanup(srv.Close)
	c := &sessClient{t: t, url: srv.URL, version: "2025-11-25"}
	c.open()
	m := jsonMsg(t, c.req(http.MethodPost, request("1", "tools/list", "")), http.StatusOK)
	if !strings.Contains(string(m.Result), `"name":"elicit"`) {
		t.Errorf("a legacy session's tools/list: %s", m.Result)
	}
	get := newSSE(t, c.req(http.MethodGet, ""))
	if n, _ := legacy.Broadcast("notifications/tools/list_changed", nil); n != 1 {
		t.Errorf("Broadcast reached %d", n)
	}
	if m, _ := get.msg(); m.Method != "notifications/tools/list_changed" {
		t.Errorf("GET stream: %+v", m)
	}
	wantStatus(t, c.req(http.MethodDelete, ""), http.StatusNoContent)
	// A 2026-07-28 request on the same endpoint is the modern handler's.
	modernClient := &sessClient{t: t, url: srv.URL}
	m = jsonMsg(t, modernClient.req(http.MethodPost, request("2", "tools/list", `{`+meta+`}`), "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list"), http.StatusOK)
	if m.Error != nil || strings.Contains(string(m.Result), `"name":"elicit"`) {
		t.Errorf("a 2026-07-28 tools/list: %s %+v", m.Result, m.Error)
	}
}
