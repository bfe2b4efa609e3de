package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The interop matrix of issue 10: one examples/everything-server binary,
// written once against generated/mcp20260728, driven by the clients people
// use (go-sdk v1.8.0 default and pinned to 2025-11-25 and 2025-06-18,
// mcp-go v1.2.1, the official TypeScript client 2.4.0 in its default and
// auto modes), over stdio (each client starts its own process of the
// binary, as stdio clients do) and over Streamable HTTP (every HTTP leg of
// the run talks to the same process, started once). Each leg connects,
// lists and calls tools, reads a resource, gets a prompt, receives log
// messages and answers an elicitation; the drivers record what they
// received in a legResult and checkLeg compares it with what the server's
// handlers produce.

// What examples/everything-server answers (its tools, resources and
// prompts; conformance names).
const (
	everythingName   = "mcpgen-everything-server"
	simpleTextTool   = "test_simple_text"
	simpleText       = "This is a simple text response for testing."
	staticTextURI    = "test://static-text"
	staticText       = "This is the content of the static text resource."
	simplePrompt     = "test_simple_prompt"
	simplePromptText = "This is a simple prompt for testing."
	loggingTool      = "test_tool_with_logging"
	elicitTool       = "test_elicitation"
	elicitMessage    = "Who are you? (interop matrix)"
	elicitUser       = "ada"
	elicitEmail      = "ada@example.com"
)

// wantLogs are the messages test_tool_with_logging sends at level info.
var wantLogs = []string{"Tool execution started", "Tool processing data", "Tool execution completed"}

// legResult is what one client received in one leg. The TypeScript driver
// (ts/client.mjs) prints the same fields as JSON.
type legResult struct {
	ProtocolVersion string   `json:"protocolVersion"` // as the client reports it
	ServerName      string   `json:"serverName"`
	Tools           []string `json:"tools"`         // tools/list
	SimpleText      string   `json:"simpleText"`    // tools/call test_simple_text
	ResourceText    string   `json:"resourceText"`  // resources/read test://static-text
	PromptText      string   `json:"promptText"`    // prompts/get test_simple_prompt
	LoggingText     string   `json:"loggingText"`   // tools/call test_tool_with_logging
	Logs            []string `json:"logs"`          // data of notifications/message, in order
	LogLevels       []string `json:"logLevels"`     // their levels
	ElicitMessage   string   `json:"elicitMessage"` // what the elicitation handler was asked
	ElicitFields    []string `json:"elicitFields"`  // the requested schema's properties, sorted
	ElicitText      string   `json:"elicitText"`    // tools/call test_elicitation after the answer
	Errors          []string `json:"errors"`        // steps that failed (the TypeScript driver)
	Transport       string   `json:"transport"`     // stdio or http
	SessionID       string   `json:"sessionId"`     // the Mcp-Session-Id the client holds (HTTP)
	// The wire, where the driver can see it (go-sdk, TypeScript; not
	// mcp-go, whose transport interface a wrapper would narrow): the
	// methods of the requests and notifications the client sent, and of
	// the requests the server sent to the client, in order.
	Wire           bool     `json:"wire"`
	ClientMethods  []string `json:"clientMethods"`
	ServerRequests []string `json:"serverRequests"`
	// Over HTTP (Go clients): "method=MCP-Protocol-Version header" for
	// each request the client POSTed.
	HeaderVersions []string `json:"headerVersions"`
}

// checkLeg fails the test unless r is what the everything-server's
// handlers produce, negotiated at wantVersion.
func checkLeg(t *testing.T, r legResult, wantVersion string) {
	t.Helper()
	for _, e := range r.Errors {
		t.Errorf("client: %s", e)
	}
	if r.ProtocolVersion != wantVersion {
		t.Errorf("protocol version %q, want %q", r.ProtocolVersion, wantVersion)
	}
	// Over HTTP, the handshake era has sessions (Mcp-Session-Id, given
	// in the initialize response); 2026-07-28 has none.
	switch {
	case r.Transport == "http" && wantVersion < "2026-07-28" && r.SessionID == "":
		t.Errorf("no session id over HTTP at %s", wantVersion)
	case wantVersion >= "2026-07-28" && r.SessionID != "":
		t.Errorf("session id %q at %s, which has no sessions", r.SessionID, wantVersion)
	}
	if r.ServerName != everythingName {
		t.Errorf("server name %q, want %q", r.ServerName, everythingName)
	}
	for _, name := range []string{simpleTextTool, loggingTool, elicitTool} {
		if !slices.Contains(r.Tools, name) {
			t.Errorf("tools/list has no %s (%d tools)", name, len(r.Tools))
		}
	}
	if r.SimpleText != simpleText {
		t.Errorf("%s: %q, want %q", simpleTextTool, r.SimpleText, simpleText)
	}
	if r.ResourceText != staticText {
		t.Errorf("resources/read %s: %q, want %q", staticTextURI, r.ResourceText, staticText)
	}
	if r.PromptText != simplePromptText {
		t.Errorf("prompts/get %s: %q, want %q", simplePrompt, r.PromptText, simplePromptText)
	}
	if r.LoggingText != "Logging test completed" {
		t.Errorf("%s: %q", loggingTool, r.LoggingText)
	}
	if !slices.Equal(r.Logs, wantLogs) {
		t.Errorf("log messages %q, want %q", r.Logs, wantLogs)
	}
	for _, l := range r.LogLevels {
		if l != "info" {
			t.Errorf("log levels %q, want info", r.LogLevels)
			break
		}
	}
	if r.ElicitMessage != elicitMessage {
		t.Errorf("elicitation message %q, want %q", r.ElicitMessage, elicitMessage)
	}
	if !slices.Equal(r.ElicitFields, []string{"email", "username"}) {
		t.Errorf("elicitation schema properties %q, want email and username", r.ElicitFields)
	}
	// The handler echoes the action and content it got back (callElicitation).
	for _, want := range []string{"User response: action=accept", `"username":"` + elicitUser + `"`, `"email":"` + elicitEmail + `"`} {
		if !strings.Contains(r.ElicitText, want) {
			t.Errorf("%s: %q, want it to contain %q", elicitTool, r.ElicitText, want)
		}
	}
	if r.Wire {
		checkWire(t, r, wantVersion)
	}
	if t.Failed() {
		b, _ := json.MarshalIndent(r, "", "  ")
		t.Logf("received:\n%s", b)
	}
}

// checkWire checks that the leg took its era's path: before 2026-07-28,
// the handshake, logging/setLevel, and the elicitation as a request from
// the server (elicitation/create) in the middle of the one tools/call; in
// 2026-07-28, neither of the removed methods, no request from the server,
// and the elicitation as an input-required result that the client
// answered by calling the tool again.
func checkWire(t *testing.T, r legResult, wantVersion string) {
	t.Helper()
	count := func(list []string, m string) int {
		n := 0
		for _, x := range list {
			if x == m {
				n++
			}
		}
		return n
	}
	calls := count(r.ClientMethods, "tools/call")
	// Every request after the first carries the negotiated version in
	// MCP-Protocol-Version (2025-06-18 and later: MUST; 2026-07-28: every
	// request, the first included).
	for i, hv := range r.HeaderVersions {
		method, version, _ := strings.Cut(hv, "=")
		if (i > 0 || wantVersion >= "2026-07-28") && version != wantVersion {
			t.Errorf("%s went with MCP-Protocol-Version %q, want %s", method, version, wantVersion)
		}
	}
	if wantVersion < "2026-07-28" {
		for _, m := range []string{"initialize", "notifications/initialized", "logging/setLevel"} {
			if count(r.ClientMethods, m) != 1 {
				t.Errorf("the client sent %s %d times, want once (%q)", m, count(r.ClientMethods, m), r.ClientMethods)
			}
		}
		if !slices.Equal(r.ServerRequests, []string{"elicitation/create"}) {
			t.Errorf("the server's requests %q, want one elicitation/create", r.ServerRequests)
		}
		if calls != 3 {
			t.Errorf("the client sent tools/call %d times, want 3 (one per tool)", calls)
		}
		return
	}
	for _, m := range []string{"initialize", "logging/setLevel", "ping"} {
		if slices.Contains(r.ClientMethods, m) {
			t.Errorf("the client sent %s at %s (%q)", m, wantVersion, r.ClientMethods)
		}
	}
	if len(r.ServerRequests) != 0 {
		t.Errorf("the server sent requests %q at %s, which has none", r.ServerRequests, wantVersion)
	}
	if calls != 4 {
		t.Errorf("the client sent tools/call %d times, want 4 (the elicitation tool twice)", calls)
	}
}

// elicitAnswer is what every driver's elicitation handler accepts with.
var elicitAnswer = map[string]any{"username": elicitUser, "email": elicitEmail}

// schemaFields returns the sorted property names of a requested schema.
func schemaFields(schema any) []string {
	b, _ := json.Marshal(schema)
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	json.Unmarshal(b, &s)
	var names []string
	for n := range s.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// logData renders a log message's data as the drivers record it: a JSON
// string as its text, anything else as JSON.
func logData(data any) string {
	if s, ok := data.(string); ok {
		return s
	}
	b, _ := json.Marshal(data)
	return string(b)
}

// The Streamable HTTP everything-server shared by the HTTP legs: started
// on first use, on a free loopback port, and stopped by TestMain. It is
// bounded in time (everythingHTTPLife, then it is killed) and dies with
// the test process (procAttr).
const everythingHTTPLife = 10 * time.Minute

var everythingHTTP struct {
	once   sync.Once
	url    string
	err    error
	cmd    *exec.Cmd
	stderr *logBuffer
	cancel context.CancelFunc
}

// sharedEverythingURL returns the endpoint of the shared HTTP server.
func sharedEverythingURL(t *testing.T) string {
	t.Helper()
	s := &everythingHTTP
	s.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), everythingHTTPLife)
		s.cancel = cancel
		s.stderr = new(logBuffer)
		s.cmd = exec.CommandContext(ctx, everythingBin, "-http", "127.0.0.1:0")
		s.cmd.Stderr = s.stderr
		s.cmd.SysProcAttr = procAttr()
		s.cmd.Cancel = func() error { return s.cmd.Process.Signal(os.Interrupt) }
		s.cmd.WaitDelay = 10 * time.Second
		if s.err = s.cmd.Start(); s.err != nil {
			return
		}
		wait, wcancel := context.WithTimeout(ctx, 30*time.Second)
		defer wcancel()
		if s.err = poll(wait, func() bool { return strings.Contains(s.stderr.String(), "listening on ") }); s.err != nil {
			s.err = fmt.Errorf("everything-server -http: %v; stderr:\n%s", s.err, s.stderr.String())
			return
		}
		m := regexp.MustCompile(`listening on (http://[^\s"]+)`).FindStringSubmatch(s.stderr.String())
		if m == nil {
			s.err = fmt.Errorf("no address in %q", s.stderr.String())
			return
		}
		s.url = m[1]
	})
	if s.err != nil {
		t.Fatal(s.err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("shared HTTP server's stderr so far:\n%s", s.stderr.String())
		}
	})
	return s.url
}

// stopEverythingHTTP stops the shared HTTP server (SIGINT, then SIGKILL
// after WaitDelay), if it was started.
func stopEverythingHTTP() {
	s := &everythingHTTP
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cancel()
	s.cmd.Wait()
}

// stdioCommand returns a command that runs the everything-server over
// stdio for a client to start; it dies with the test process.
func stdioCommand(t *testing.T, ctx context.Context) (*exec.Cmd, *logBuffer) {
	stderr := new(logBuffer)
	cmd := exec.CommandContext(ctx, everythingBin)
	cmd.Stderr = stderr
	cmd.SysProcAttr = procAttr()
	cmd.WaitDelay = 5 * time.Second
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	return cmd, stderr
}
