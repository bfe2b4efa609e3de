package conformance

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/legacyserver"
)

// The runtime's session layer over stdio, for the revisions with the
// initialize handshake: requests from server to client, logging/setLevel,
// subscriptions, progress and cancellation, driven against
// internal/legacyserver (a server written against the generated API).

// rpcMsg is any JSON-RPC message, read loosely.
type rpcMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func readMsg(t *testing.T, s string) rpcMsg {
	t.Helper()
	var m rpcMsg
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("not a JSON-RPC message: %q (%v)", s, err)
	}
	return m
}

// toolText returns the text of the first content block of a CallToolResult
// and its isError.
func toolText(t *testing.T, m rpcMsg) (string, bool) {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("want a tool result, got error %d %q", m.Error.Code, m.Error.Message)
	}
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(m.Result, &r); err != nil || len(r.Content) == 0 {
		t.Fatalf("not a CallToolResult with content: %s (%v)", m.Result, err)
	}
	return r.Content[0].Text, r.IsError
}

// initMsg is an initialize request for version with the capabilities caps.
func initMsg(id, version, caps string) string {
	return request(id, "initialize", `{"protocolVersion":"`+version+`","capabilities":`+caps+`,"clientInfo":{"name":"session-test","version":"1.0.0"}}`)
}

const allCaps = `{"elicitation":{},"sampling":{},"roots":{"listChanged":true}}`

// startLegacy serves a legacyserver of version over pipes and initializes
// it with caps (initialized sends notifications/initialized too).
func startLegacy(t *testing.T, version string, hooks *legacyserver.Hooks, caps string, initialized bool) (*conn, *legacyserver.Server) {
	t.Helper()
	s, err := legacyserver.New(version, legacyserver.Options{Hooks: hooks, RequestTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c := startServe(t, serveFunc(s.Serve))
	c.send(initMsg("0", version, caps))
	m := readMsg(t, c.next())
	if m.Error != nil || !strings.Contains(string(m.Result), `"protocolVersion":"`+version+`"`) {
		t.Fatalf("initialize: %s %v", m.Result, m.Error)
	}
	if initialized {
		c.send(notification("notifications/initialized", ""))
	}
	return c, s
}

func callMsg(id, tool, args string) string {
	if args == "" {
		args = "{}"
	}
	return request(id, "tools/call", `{"name":`+strconv.Quote(tool)+`,"arguments":`+args+`}`)
}

func TestSessionStdioElicitation(t *testing.T) {
	for _, v := range legacyserver.Versions {
		t.Run(v, func(t *testing.T) {
			c, _ := startLegacy(t, v, nil, allCaps, true)
			c.send(callMsg("1", "elicit", `{"message":"Who are you?"}`))
			req := readMsg(t, c.next())
			if req.Method != "elicitation/create" || req.ID == nil {
				t.Fatalf("want an elicitation/create request, got %+v", req)
			}
			if !strings.Contains(string(req.Params), `"message":"Who are you?"`) {
				t.Errorf("elicitation params = %s", req.Params)
			}
			c.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"action":"accept","content":{"name":"Ann"}}}`)
			res := readMsg(t, c.next())
			if string(res.ID) != "1" {
				t.Fatalf("want the response to 1, got %+v", res)
			}
			if text, isErr := toolText(t, res); text != "Hello, Ann!" || isErr {
				t.Errorf("tool result = %q (isError %v)", text, isErr)
			}

			// The client's error response reaches the tool as an error.
			c.send(callMsg("2", "roots", ""))
			req = readMsg(t, c.next())
			if req.Method != "roots/list" {
				t.Fatalf("want roots/list, got %+v", req)
			}
			c.send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32601,"message":"no roots here"}}`)
			text, isErr := toolText(t, readMsg(t, c.next()))
			if !isErr || !strings.Contains(text, "no roots here") || !strings.Contains(text, "-32601") {
				t.Errorf("tool result = %q (isError %v), want the client's error", text, isErr)
			}
		})
	}
}

func TestSessionStdioRequestRules(t *testing.T) {
	for _, v := range legacyserver.Versions {
		t.Run(v, func(t *testing.T) {
			// Before notifications/initialized only pings may go out.
			c, _ := startLegacy(t, v, nil, allCaps, false)
			c.send(callMsg("1", "elicit", ""))
			text, isErr := toolText(t, readMsg(t, c.next()))
			if !isErr || !strings.Contains(text, "notifications/initialized") {
				t.Errorf("before initialized: %q (isError %v)", text, isErr)
			}
			// A client without the capability is not asked.
			c, _ = startLegacy(t, v, nil, `{"roots":{}}`, true)
			for _, tc := range []struct{ tool, capability string }{{"elicit", "elicitation"}, {"sample", "sampling"}} {
				c.send(callMsg("2", tc.tool, `{"prompt":"hi"}`))
				text, isErr = toolText(t, readMsg(t, c.next()))
				if !isErr || !strings.Contains(text, "did not declare the capability "+tc.capability) {
					t.Errorf("%s without the capability: %q (isError %v)", tc.tool, text, isErr)
				}
			}
		})
	}
}

func TestSessionStdioTimeout(t *testing.T) {
	s, err := legacyserver.New("2025-11-25", legacyserver.Options{RequestTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c := startServe(t, serveFunc(s.Serve))
	c.send(initMsg("0", "2025-11-25", allCaps), notification("notifications/initialized", ""))
	c.next()
	c.send(callMsg("1", "elicit", ""))
	req := readMsg(t, c.next())
	if req.Method != "elicitation/create" {
		t.Fatalf("want elicitation/create, got %+v", req)
	}
	// No answer: after RequestTimeout the server cancels its request.
	cancel := readMsg(t, c.next())
	if cancel.Method != "notifications/cancelled" || !strings.Contains(string(cancel.Params), `"requestId":`+string(req.ID)) {
		t.Fatalf("want notifications/cancelled for %s, got %+v", req.ID, cancel)
	}
	text, isErr := toolText(t, readMsg(t, c.next()))
	if !isErr || !strings.Contains(text, "no response") {
		t.Errorf("tool result = %q (isError %v)", text, isErr)
	}
	// A late answer is ignored, and the connection goes on.
	c.send(`{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"action":"cancel"}}`, request("2", "ping", ""))
	if m := readMsg(t, c.next()); string(m.ID) != "2" || m.Error != nil {
		t.Errorf("after a late answer: %+v", m)
	}
}

func TestSessionStdioSetLevel(t *testing.T) {
	for _, v := range legacyserver.Versions {
		t.Run(v, func(t *testing.T) {
			c, _ := startLegacy(t, v, nil, allCaps, true)
			// No level set: every message goes out.
			c.send(callMsg("1", "log", ""))
			if got := logLevelsUntil(t, c, "1"); got != "debug info warning error" {
				t.Errorf("without setLevel: %q", got)
			}
			c.send(request("2", "logging/setLevel", `{"level":"warning"}`))
			if m := readMsg(t, c.next()); string(m.Result) != "{}" {
				t.Fatalf("setLevel: %+v", m)
			}
			c.send(callMsg("3", "log", ""))
			if got := logLevelsUntil(t, c, "3"); got != "warning error" {
				t.Errorf("at warning: %q", got)
			}
			c.send(request("4", "logging/setLevel", `{"level":"loud"}`))
			if m := readMsg(t, c.next()); m.Error == nil || m.Error.Code != -32602 {
				t.Errorf("an unknown level: %+v, want -32602", m)
			}
			c.send(callMsg("5", "log", ""))
			if got := logLevelsUntil(t, c, "5"); got != "warning error" {
				t.Errorf("after a refused setLevel: %q", got)
			}
		})
	}
}

// logLevelsUntil reads log messages until the response to id and returns
// their levels.
func logLevelsUntil(t *testing.T, c *conn, id string) string {
	t.Helper()
	var levels []string
	for {
		m := readMsg(t, c.next())
		if string(m.ID) == id {
			return strings.Join(levels, " ")
		}
		if m.Method != "notifications/message" {
			t.Fatalf("unexpected message %+v", m)
		}
		var p struct {
			Level  string `json:"level"`
			Logger string `json:"logger"`
			Data   string `json:"data"`
		}
		json.Unmarshal(m.Params, &p)
		if p.Logger != "legacyserver" || p.Data != p.Level+" message" {
			t.Errorf("log message params = %s", m.Params)
		}
		levels = append(levels, p.Level)
	}
}

func TestSessionStdioSubscribe(t *testing.T) {
	for _, v := range legacyserver.Versions {
		t.Run(v, func(t *testing.T) {
			c, s := startLegacy(t, v, nil, allCaps, true)
			if n := s.NotifyResourceUpdated(legacyserver.WatchedURI); n != 0 {
				t.Errorf("before subscribe: reached %d sessions", n)
			}
			c.send(request("1", "resources/subscribe", `{"uri":"`+legacyserver.WatchedURI+`"}`))
			if m := readMsg(t, c.next()); string(m.Result) != "{}" {
				t.Fatalf("subscribe: %+v", m)
			}
			if n := s.NotifyResourceUpdated("test://other"); n != 0 {
				t.Errorf("another URI reached %d sessions", n)
			}
			if n := s.NotifyResourceUpdated(legacyserver.WatchedURI); n != 1 {
				t.Errorf("after subscribe: reached %d sessions, want 1", n)
			}
			m := readMsg(t, c.next())
			if m.Method != "notifications/resources/updated" || string(m.Params) != `{"uri":"`+legacyserver.WatchedURI+`"}` {
				t.Errorf("want resources/updated, got %+v", m)
			}
			c.send(request("2", "resources/unsubscribe", `{"uri":"`+legacyserver.WatchedURI+`"}`))
			if m := readMsg(t, c.next()); string(m.Result) != "{}" {
				t.Fatalf("unsubscribe: %+v", m)
			}
			if n := s.NotifyResourceUpdated(legacyserver.WatchedURI); n != 0 {
				t.Errorf("after unsubscribe: reached %d sessions", n)
			}
			if n, err := s.Broadcast("notifications/tools/list_changed", nil); n != 1 || err != nil {
				t.Errorf("Broadcast = %d, %v", n, err)
			}
			if m := readMsg(t, c.next()); m.Method != "notifications/tools/list_changed" {
				t.Errorf("want tools/list_changed, got %+v", m)
			}
		})
	}
}

func TestSessionStdioCancelSilence(t *testing.T) {
	for _, v := range legacyserver.Versions {
		t.Run(v, func(t *testing.T) {
			hooks := &legacyserver.Hooks{Started: make(chan string, 1), AfterCancel: make(chan [2]error, 1)}
			c, _ := startLegacy(t, v, hooks, allCaps, true)
			c.send(callMsg("7", "block", ""))
			<-hooks.Started
			c.send(notification("notifications/cancelled", `{"requestId":7,"reason":"changed my mind"}`))
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
			// Nothing about request 7 comes before the answer to 8.
			c.send(request("8", "ping", ""))
			if m := readMsg(t, c.next()); string(m.ID) != "8" {
				t.Errorf("after the cancellation the first line is %+v, want the ping's response", m)
			}
		})
	}
}

func TestSessionStdioProgress(t *testing.T) {
	c, _ := startLegacy(t, "2025-11-25", nil, allCaps, true)
	c.send(request("1", "tools/call", `{"name":"progress","arguments":{},"_meta":{"progressToken":"tok"}}`))
	for i := 1; i <= 3; i++ {
		m := readMsg(t, c.next())
		want := `{"progressToken":"tok","progress":` + strconv.Itoa(i) + `,"total":3,"message":"step ` + strconv.Itoa(i) + `"}`
		if m.Method != "notifications/progress" || string(m.Params) != want {
			t.Fatalf("progress %d: %+v, want %s", i, m, want)
		}
	}
	if text, _ := toolText(t, readMsg(t, c.next())); text != "done" {
		t.Errorf("result %q", text)
	}
	// Without a token, no progress.
	c.send(callMsg("2", "progress", ""))
	if m := readMsg(t, c.next()); string(m.ID) != "2" {
		t.Errorf("without a progress token: %+v", m)
	}
}

// serveFunc makes a Serve method value a serveable.
type serveFunc func(ctx context.Context, r io.Reader, w io.Writer) error

func (f serveFunc) Serve(ctx context.Context, r io.Reader, w io.Writer) error { return f(ctx, r, w) }

// TestModernLogLevelFromMeta: in 2026-07-28 the request's _meta logLevel
// decides (server/utilities/logging.mdx), and no logLevel means no log
// messages; a server-to-client request is refused (NeedInput instead).
func TestModernLogLevelFromMeta(t *testing.T) {
	s := toolsServer()
	s.callTool = func(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		for _, l := range []mcp.LoggingLevel{mcp.LoggingLevelDebug, mcp.LoggingLevelWarning, mcp.LoggingLevelEmergency} {
			if err := mcp.Log(ctx, l, "", string(l)); err != nil {
				return nil, err
			}
		}
		text := "no request"
		if err := mcp.SendRequest(ctx, "elicitation/create", nil, nil); err != nil {
			text = err.Error()
		}
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: text}}}, nil
	}
	c := startServe(t, newServer(s, mcp.ServerOptions{}))
	withLevel := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"warning"}`
	for _, tc := range []struct{ meta, want string }{{meta, ""}, {withLevel, "warning emergency"}} {
		c.send(request("1", "tools/call", `{`+tc.meta+`,"name":"t"}`))
		var levels []string
		for {
			m := readMsg(t, c.next())
			if string(m.ID) == "1" {
				if text, _ := toolText(t, m); !strings.Contains(text, "NeedInput") {
					t.Errorf("SendRequest in 2026-07-28: %q", text)
				}
				break
			}
			var p struct{ Level string }
			json.Unmarshal(m.Params, &p)
			levels = append(levels, p.Level)
		}
		if got := strings.Join(levels, " "); got != tc.want {
			t.Errorf("levels sent with %s: %q, want %q", tc.meta, got, tc.want)
		}
	}
}
