package protocol

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// The session store's parts: event ids, the bounded history, shutdown. The
// protocol as a client sees it is tested in conformance/session_http_test.go
// against generated packages.

func TestEventIDs(t *testing.T) {
	for _, tc := range []struct {
		stream, seq int64
	}{{0, 1}, {3, 17}, {1 << 40, 1 << 50}} {
		id := eventID(tc.stream, tc.seq)
		s, q, ok := parseEventID(id)
		if !ok || s != tc.stream || q != tc.seq {
			t.Errorf("parseEventID(%q) = %d %d %v", id, s, q, ok)
		}
	}
	for _, bad := range []string{"", "1", "a-1", "1-b", "-1-2", "1--2", "1-2-3", "99999999999999999999-1"} {
		if _, _, ok := parseEventID(bad); ok {
			t.Errorf("parseEventID(%q) accepted", bad)
		}
	}
}

// testSession is a session of a store with a small history.
func testSession(history int) *httpSession {
	d := &Core{Versions: []string{"2025-11-25"}}
	h := NewSessionHTTPHandler(d, HTTPOptions{SessionHistoryBytes: history}, "2025-11-25")
	hs, _ := h.sessions.create(sessionOwner{})
	h.sessions.release(hs)
	return hs
}

func TestHistoryBudget(t *testing.T) {
	hs := testSession(4 * (eventOverhead + 100))
	msg := []byte(strings.Repeat("x", 100))
	hs.mu.Lock()
	defer hs.mu.Unlock()
	get := hs.standaloneLocked()
	// Nobody reads the GET stream: messages are kept until the budget is
	// full, then sending fails rather than losing them.
	var n int
	for hs.appendLocked(get, msg, false) == nil {
		n++
		if n > 10 {
			t.Fatal("the history grows past its budget")
		}
	}
	if n == 0 || len(get.events) != n {
		t.Fatalf("kept %d events (appended %d)", len(get.events), n)
	}
	if err := hs.appendLocked(get, msg, false); err != errHistoryFull {
		t.Errorf("append to a full history = %v", err)
	}
	// Once written, they may be forgotten to make room.
	get.written = get.seq
	if err := hs.appendLocked(get, msg, false); err != nil {
		t.Errorf("append after the events were written = %v", err)
	}
	if hs.histBytes > hs.st.history {
		t.Errorf("history %d bytes, budget %d", hs.histBytes, hs.st.history)
	}

	// A response must be kept: it displaces what no connection is
	// writing (a stream the client abandoned), oldest first.
	abandoned := hs.newStreamLocked()
	for hs.appendLocked(abandoned, msg, false) == nil {
	}
	abandoned.ended = true
	post := hs.newStreamLocked()
	if err := hs.appendLocked(post, msg, true); err != nil {
		t.Fatalf("a response was refused: %v", err)
	}
	if !abandoned.gap && !get.gap {
		t.Error("nothing was forgotten to keep the response")
	}
	if got := post.events[len(post.events)-1].data; string(got) != string(msg) {
		t.Error("the response is not kept")
	}
	if hs.histBytes > hs.st.history+len(msg)+eventOverhead {
		t.Errorf("history %d bytes, budget %d", hs.histBytes, hs.st.history)
	}
}

func TestHistoryForgetsEndedStreams(t *testing.T) {
	hs := testSession(8 * (eventOverhead + streamOverhead))
	hs.mu.Lock()
	defer hs.mu.Unlock()
	// Many short request streams, written and ended: their bookkeeping
	// does not pile up.
	for range 1000 {
		s := hs.newStreamLocked()
		if err := hs.appendLocked(s, []byte(`{}`), true); err != nil {
			t.Fatal(err)
		}
		s.ended = true
		s.written = s.seq
	}
	if len(hs.streams) > 16 || len(hs.order) > 16 {
		t.Errorf("%d streams kept after 1000 ended", len(hs.streams))
	}
}

func TestCloseStreams(t *testing.T) {
	d := &Core{Versions: []string{"2025-06-18"}, Dispatcher: jsonrpc.Dispatcher{Methods: map[string]*jsonrpc.Method{
		"initialize": {Call: func(context.Context, []byte) (jsonrpc.Result, error) {
			return jsonrpc.RawResult(`{"protocolVersion":"2025-06-18"}`), nil
		}},
	}}}
	h := NewSessionHTTPHandler(d, HTTPOptions{}, "2025-06-18")
	srv := httptest.NewServer(h)
	defer srv.Close()
	post := func(body string, hdr ...string) *http.Response {
		r, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(hdr); i += 2 {
			r.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	resp.Body.Close()
	sid := resp.Header.Get(spec.HeaderSessionID)
	if sid == "" {
		t.Fatalf("no session: %d", resp.StatusCode)
	}
	r, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	r.Header.Set("Accept", "text/event-stream")
	r.Header.Set(spec.HeaderSessionID, sid)
	get, err := http.DefaultClient.Do(r)
	if err != nil || get.StatusCode != http.StatusOK {
		t.Fatalf("GET: %v %v", err, get)
	}
	defer get.Body.Close()
	ended := make(chan error, 1)
	go func() {
		_, err := bufio.NewReader(get.Body).ReadString('\n')
		ended <- err
	}()
	// Wait until the stream is attached, then close it.
	deadline := time.Now().Add(2 * time.Second)
	for {
		hs := h.sessions.lookup(sid, nil)
		hs.mu.Lock()
		attached := hs.standalone != nil && hs.standalone.conn != nil
		hs.mu.Unlock()
		if attached {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the GET stream never attached")
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.CloseStreams()
	select {
	case <-ended:
	case <-time.After(2 * time.Second):
		t.Fatal("CloseStreams left the GET stream open")
	}
	// The session stays.
	if h.sessions.lookup(sid, nil) == nil || h.sessions.sessions() != 1 {
		t.Error("CloseStreams ended the session")
	}
}

// FuzzSessionHTTPHandler: any method, body and headers get a documented
// status and, with a JSON body, a JSON-RPC message; the handler neither
// panics nor hangs. One session exists; the fuzzer may name it, name
// another, or name none.
func FuzzSessionHTTPHandler(f *testing.F) {
	f.Add("POST", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, 0, "", "")
	f.Add("POST", `{"jsonrpc":"2.0","id":2,"method":"test/progress","params":{}}`, 1, "2025-11-25", "")
	f.Add("POST", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`, 1, "", "")
	f.Add("POST", `{"jsonrpc":"2.0","id":9,"result":{}}`, 1, "", "")
	f.Add("GET", ``, 1, "", "1-1")
	f.Add("DELETE", ``, 2, "", "")
	ts := newTestServer()
	d := ts.dispatcher(false)
	d.Versions = []string{"2025-11-25"}
	d.Methods["initialize"] = &jsonrpc.Method{Call: func(context.Context, []byte) (jsonrpc.Result, error) {
		return jsonrpc.RawResult(`{"protocolVersion":"2025-11-25"}`), nil
	}}
	for _, m := range []string{"test/block", "test/stream", "test/flood", "test/tryNotify"} {
		delete(d.Methods, m)
	}
	h := NewSessionHTTPHandler(d, HTTPOptions{MaxBodyBytes: 1 << 16, MaxSessions: 4}, "2025-11-25")
	open := func() string {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
		r.Host = "localhost"
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Header().Get(spec.HeaderSessionID)
	}
	sid := open()
	f.Fuzz(func(t *testing.T, method, body string, which int, version, lastID string) {
		if h.sessions.lookup(sid, nil) == nil {
			sid = open() // the fuzzer deleted it, or it made room
		}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if method == http.MethodGet {
			cancel() // a stream would stay open: end it at once
		}
		r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/mcp", strings.NewReader(body))
		r.Method = method
		r.Host = "localhost"
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		switch which % 3 {
		case 1:
			r.Header.Set(spec.HeaderSessionID, sid)
		case 2:
			r.Header.Set(spec.HeaderSessionID, "bogus")
		}
		if version != "" {
			r.Header[spec.HeaderProtocolVersion] = []string{version}
		}
		if lastID != "" {
			r.Header["Last-Event-Id"] = []string{lastID}
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		switch w.Code {
		case 200, 202, 204, 400, 403, 404, 405, 406, 409, 413, 415, 503:
		default:
			t.Fatalf("status %d for %s %q", w.Code, method, body)
		}
		if w.Header().Get("Content-Type") == "application/json" {
			var v map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil || v["jsonrpc"] != "2.0" {
				t.Fatalf("not a JSON-RPC message: %q", w.Body.String())
			}
		}
	})
}

func TestSessionIDPrefix(t *testing.T) {
	d := &Core{Versions: []string{"2025-11-25"}}
	h := NewSessionHTTPHandler(d, HTTPOptions{SessionIDPrefix: "r2."}, "2025-11-25")
	hs, _ := h.sessions.create(sessionOwner{})
	if id := hs.sess.id; !strings.HasPrefix(id, "r2.") || len(id) != len("r2.")+22 {
		t.Errorf("session id %q: want r2. and 22 characters", id)
	}
	if h.sessions.lookup(hs.sess.id, nil) != hs {
		t.Error("the session is not found by its id")
	}
	for _, bad := range []string{"r 1", "r\n", "é", strings.Repeat("r", 65)} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("SessionIDPrefix %q accepted", bad)
				}
			}()
			NewSessionHTTPHandler(d, HTTPOptions{SessionIDPrefix: bad}, "2025-11-25")
		}()
	}
}
