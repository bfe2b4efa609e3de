package protocol

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// rawOut receives a result as JSON.
type rawOut struct{ b []byte }

func (r *rawOut) UnmarshalJSON(b []byte) error {
	r.b = append([]byte(nil), b...)
	return nil
}

// TestConnBothWays: the connection core from both ends. A client made of a
// dispatcher without server methods sends requests with its Session; the
// server answers one of them by sending a request back to the client
// (SendRequest), whose dispatcher answers it, and the answers find their
// callers.
func TestConnBothWays(t *testing.T) {
	server := &Core{Versions: []string{"2025-11-25"}}
	server.Methods = map[string]*jsonrpc.Method{
		"initialize": {Call: func(context.Context, []byte) (jsonrpc.Result, error) {
			return jsonrpc.RawResult(`{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`), nil
		}},
		"test/ask": {Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
			var out rawOut
			if err := SendRequest(ctx, "x/echo", rawJSON(params), &out); err != nil {
				return nil, err
			}
			return jsonrpc.RawResult(`{"client said":` + string(out.b) + `}`), nil
		}},
	}
	client := &Core{Dispatcher: jsonrpc.Dispatcher{Methods: map[string]*jsonrpc.Method{"x/echo": {Call: echo}}}}

	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 2)
	go func() { served <- server.Serve(ctx, c2sR, s2cW) }()
	cc := client.NewConn(jsonrpc.NewLineStream(s2cR, c2sW, nil))
	go func() { served <- cc.Serve(ctx) }()
	sess := sessionOf(cc.Peer())

	var out rawOut
	if err := sess.Request(ctx, "test/ask", rawJSON(`{"q":1}`), &out); err == nil || !strings.Contains(err.Error(), "notifications/initialized") {
		t.Fatalf("a server request before initialization: %v, want it refused", err)
	}
	if err := sess.Request(ctx, "initialize", rawJSON(`{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"c","version":"2"}}`), &out); err != nil {
		t.Fatal(err)
	}
	if err := sess.Notify("notifications/initialized", nil); err != nil {
		t.Fatal(err)
	}
	if err := sess.Request(ctx, "test/ask", rawJSON(`{"q":1}`), &out); err != nil {
		t.Fatal(err)
	}
	if string(out.b) != `{"client said":{"echo":{"q":1}}}` {
		t.Errorf("result %s", out.b)
	}
	// The server's session kept what initialize said.
	server.sessions.mu.Lock()
	var ss *Session
	for s := range server.sessions.m {
		ss = s
	}
	server.sessions.mu.Unlock()
	if ss == nil || ss.ProtocolVersion() != "2025-11-25" || string(ss.ClientInfo()) != `{"name":"c","version":"2"}` || string(ss.ClientCapabilities()) != `{"roots":{}}` || ss.ID() != "" {
		t.Errorf("server session: %+v", ss)
	}
	// A method the peer does not have comes back as its error.
	err := sess.Request(ctx, "no/such", nil, nil)
	if re, ok := err.(*jsonrpc.RPCError); !ok || re.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("unknown method: %v", err)
	}
	cancel()
	for range 2 {
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("serve = %v, want nil when stopped", err)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("serve did not return")
		}
	}
	// The connection's requests fail once it has ended.
	if err := sess.Request(context.Background(), "x", nil, nil); err == nil {
		t.Error("a request after the end succeeded")
	}
}

// fakeLink is a link that records what a handler sends.
type fakeLink struct {
	d    *Core
	s    *Session
	msgs []string
	jsonrpc.RequestProgress
}

func (l *fakeLink) Notify(msg []byte) error         { l.msgs = append(l.msgs, string(msg)); return nil }
func (l *fakeLink) Dispatcher() *jsonrpc.Dispatcher { l.d.Init(); return &l.d.Dispatcher }
func (l *fakeLink) HTTPRequest() *http.Request      { return nil }
func (l *fakeLink) Peer() *jsonrpc.Peer {
	if l.s == nil {
		return nil
	}
	return l.s.peer
}

// peerSession makes a session of core whose peer sends with send (nil: a
// peer that cannot send).
func peerSession(core *Core, send jsonrpc.SendFunc) *Session {
	if send == nil {
		send = func([]byte) error { return io.ErrClosedPipe }
	}
	return newSession(core, "", jsonrpc.NewPeer(&core.Dispatcher, send))
}

func linkContext(l *fakeLink, params string) context.Context {
	ctx := jsonrpc.WithLink(context.Background(), l)
	var p []byte
	if params != "" {
		p = []byte(params)
	}
	return jsonrpc.WithRequest(ctx, &jsonrpc.RequestInfo{Method: "tools/call", Params: p})
}

// levelsSent logs at every level and returns the levels that went out.
func levelsSent(t *testing.T, l *fakeLink, ctx context.Context) string {
	t.Helper()
	l.msgs = nil
	for _, lv := range logLevels {
		if err := Log(ctx, lv, "", "x"); err != nil {
			t.Fatalf("Log(%s) = %v", lv, err)
		}
	}
	var got []string
	for _, m := range l.msgs {
		var n struct {
			Params struct{ Level string }
		}
		json.Unmarshal([]byte(m), &n)
		got = append(got, n.Params.Level)
	}
	return strings.Join(got, " ")
}

func TestLogLevels(t *testing.T) {
	type level string
	legacy := &Core{Versions: []string{"2025-11-25"}}
	s := peerSession(legacy, nil)
	l := &fakeLink{d: legacy, s: s}
	ctx := linkContext(l, `{}`)
	all := strings.Join(logLevels[:], " ")
	if got := levelsSent(t, l, ctx); got != all {
		t.Errorf("no level set: %q", got)
	}
	s.observe("logging/setLevel", []byte(`{"level":"warning"}`), nil)
	if got := levelsSent(t, l, ctx); got != "warning error critical alert emergency" {
		t.Errorf("at warning: %q", got)
	}
	if s.LogLevel() != "warning" {
		t.Errorf("LogLevel = %q", s.LogLevel())
	}
	l.msgs = nil
	if err := Log(ctx, level("error"), "db", map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"db","data":{"a":1}}}`; len(l.msgs) != 1 || l.msgs[0] != want {
		t.Errorf("sent %q, want %s", l.msgs, want)
	}
	if err := Log(ctx, "loud", "", "x"); err == nil {
		t.Error("an unknown level was accepted")
	}
	if err := Log(ctx, "error", "", make(chan int)); err == nil {
		t.Error("data encoding/json cannot encode was accepted")
	}
	// Without a session (stateless HTTP) nothing is filtered.
	l.s = nil
	if got := levelsSent(t, l, ctx); got != all {
		t.Errorf("without a session: %q", got)
	}

	// 2026-07-28: the request's _meta says, and its absence means none.
	modern := &Core{Versions: []string{"2026-07-28"}, Modern: true}
	l = &fakeLink{d: modern}
	if got := levelsSent(t, l, linkContext(l, `{"_meta":{}}`)); got != "" {
		t.Errorf("2026-07-28 without a logLevel: %q", got)
	}
	if got := levelsSent(t, l, linkContext(l, `{"_meta":{"io.modelcontextprotocol/logLevel":"critical"}}`)); got != "critical alert emergency" {
		t.Errorf("2026-07-28 at critical: %q", got)
	}
	if err := Log(context.Background(), "info", "", "x"); err == nil {
		t.Error("Log outside a request succeeded")
	}
}

func TestSendProgress(t *testing.T) {
	d := &Core{Versions: []string{"2025-11-25"}}
	l := &fakeLink{d: d, s: peerSession(d, nil)}
	ctx := linkContext(l, `{"_meta":{"progressToken":7}}`)
	if err := SendProgress(ctx, 0.5, 0, ""); err != nil {
		t.Fatal(err)
	}
	if err := SendProgress(ctx, 2, 4, "half"); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":0.5}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":2,"total":4,"message":"half"}}`,
	}
	if strings.Join(l.msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("sent\n%s\nwant\n%s", strings.Join(l.msgs, "\n"), strings.Join(want, "\n"))
	}
	if err := SendProgress(ctx, 2, 4, ""); err == nil {
		t.Error("progress that does not increase was sent")
	}
	if err := SendProgress(ctx, math.NaN(), 0, ""); err == nil {
		t.Error("NaN progress was sent")
	}
	// No token: nothing, and no error.
	l.msgs = nil
	if err := SendProgress(linkContext(l, `{}`), 1, 0, ""); err != nil || len(l.msgs) != 0 {
		t.Errorf("without a token: %v, sent %q", err, l.msgs)
	}
	// 2024-11-05 has no message.
	l = &fakeLink{d: d, s: peerSession(d, nil)}
	l.s.observe("initialize", nil, []byte(`{"result":{"protocolVersion":"2024-11-05"}}`))
	if err := SendProgress(linkContext(l, `{"_meta":{"progressToken":"t"}}`), 1, 0, "dropped"); err != nil || len(l.msgs) != 1 || strings.Contains(l.msgs[0], "message") {
		t.Errorf("2024-11-05: %v, sent %q", err, l.msgs)
	}
}

func TestMayRequest(t *testing.T) {
	d := &Core{Versions: []string{"2025-11-25"}}
	s := peerSession(d, nil)
	if err := s.mayRequest("ping", nil); err != nil {
		t.Errorf("ping before initialization: %v", err)
	}
	if err := s.mayRequest("roots/list", nil); err == nil {
		t.Error("roots/list before initialization was allowed")
	}
	s.observe("initialize", []byte(`{"capabilities":{"elicitation":{},"sampling":{"tools":{}}}}`), []byte(`{"result":{"protocolVersion":"2025-11-25"}}`))
	s.observe("notifications/initialized", nil, nil)
	for _, tc := range []struct {
		method, params, missing string
	}{
		{"elicitation/create", `{"message":"m"}`, ""},
		{"elicitation/create", `{"mode":"url","url":"https://x"}`, "elicitation.url"},
		{"sampling/createMessage", `{"tools":[]}`, ""},
		{"roots/list", ``, "roots"},
		{"tasks/get", `{}`, ""},
	} {
		err := s.mayRequest(tc.method, []byte(tc.params))
		switch {
		case tc.missing == "" && err != nil:
			t.Errorf("%s %s: %v", tc.method, tc.params, err)
		case tc.missing != "" && (err == nil || !strings.HasSuffix(err.Error(), "capability "+tc.missing)):
			t.Errorf("%s %s: %v, want the missing capability %s", tc.method, tc.params, err, tc.missing)
		}
	}
	s.observe("initialize", []byte(`{"capabilities":{"sampling":{}}}`), []byte(`{"result":{"protocolVersion":"2025-11-25"}}`))
	if err := s.mayRequest("sampling/createMessage", []byte(`{"tools":[]}`)); err == nil {
		t.Error("sampling with tools without sampling.tools was allowed")
	}
	modern := peerSession(&Core{Versions: []string{"2026-07-28"}, Modern: true}, nil)
	if err := modern.mayRequest("ping", nil); err == nil || !strings.Contains(err.Error(), "NeedInput") {
		t.Errorf("2026-07-28: %v", err)
	}
	// SendRequest needs a session to send on.
	if err := SendRequest(context.Background(), "ping", nil, nil); err == nil {
		t.Error("SendRequest outside a request succeeded")
	}
	l := &fakeLink{d: d}
	if err := SendRequest(linkContext(l, ""), "ping", nil, nil); err == nil || !strings.Contains(err.Error(), "stateless") {
		t.Errorf("SendRequest without a session: %v", err)
	}
	if SessionFromContext(context.Background()) != nil {
		t.Error("a session outside a request")
	}
}

func TestSubscriptionBookkeeping(t *testing.T) {
	d := &Core{Versions: []string{"2025-11-25"}}
	var sent []string
	s := peerSession(d, func(msg []byte) error { sent = append(sent, string(msg)); return nil })
	d.addSession(s)
	s.observe("resources/subscribe", []byte(`{"uri":"a://x"}`), []byte(`{}`))
	if !s.Subscribed("a://x") || s.Subscribed("a://y") {
		t.Error("Subscribed after subscribe")
	}
	if n := d.NotifyResourceUpdated("a://x"); n != 1 || len(sent) != 1 || sent[0] != `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"a://x"}}` {
		t.Errorf("notifyResourceUpdated = %d, sent %q", n, sent)
	}
	s.observe("resources/unsubscribe", []byte(`{"uri":"a://x"}`), []byte(`{}`))
	if n := d.NotifyResourceUpdated("a://x"); n != 0 {
		t.Errorf("after unsubscribe: %d", n)
	}
	for i := range maxSubscriptions {
		s.observe("resources/subscribe", []byte(`{"uri":"u://`+strconv.Itoa(i)+`"}`), nil)
	}
	env := jsonrpc.Envelope{Method: "resources/subscribe"}
	if err := s.before(&env); err == nil {
		t.Error("a subscription past maxSubscriptions was allowed")
	}
	d.removeSession(s)
	if n, _ := d.BroadcastJSON("notifications/x", nil); n != 0 {
		t.Errorf("broadcast after removeSession reached %d", n)
	}
}
