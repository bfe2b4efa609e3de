package conformance

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp20250618"
	"github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/internal/legacyserver"
)

// The generated clients of the revisions with the initialize handshake
// against internal/legacyserver, over stdio and over HTTP sessions: the
// server's requests (elicitation, sampling, roots) answered by the
// ClientHandler, log messages and progress, SSE polling with Last-Event-ID.

// legacyHandler answers what the legacy server asks and records what it
// says.
type legacyHandler struct {
	mcp20251125.UnimplementedClientHandler
	mu       sync.Mutex
	logs     []string
	progress []float64
}

func (h *legacyHandler) Elicit(ctx context.Context, p mcp20251125.ElicitRequestParams) (*mcp20251125.ElicitResult, error) {
	return &mcp20251125.ElicitResult{Action: mcp20251125.ElicitResultActionAccept,
		Content: map[string]mcp20251125.ElicitResultContentValue{"name": mcp20251125.ElicitResultContentValueFromString("Ada")}}, nil
}

func (h *legacyHandler) CreateMessage(ctx context.Context, p *mcp20251125.CreateMessageRequestParams) (*mcp20251125.CreateMessageResult, error) {
	return &mcp20251125.CreateMessageResult{Role: mcp20251125.RoleAssistant, Model: "m", Content: &mcp20251125.TextContent{Text: "42"}}, nil
}

func (h *legacyHandler) ListRoots(ctx context.Context, p *mcp20251125.RequestParams) (*mcp20251125.ListRootsResult, error) {
	return &mcp20251125.ListRootsResult{Roots: []mcp20251125.Root{{URI: "file:///a"}, {URI: "file:///b"}}}, nil
}

func (h *legacyHandler) OnLoggingMessage(ctx context.Context, p *mcp20251125.LoggingMessageNotificationParams) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.logs = append(h.logs, string(p.Level))
	return nil
}

func (h *legacyHandler) OnToolListChanged(ctx context.Context, p *mcp20251125.NotificationParams) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.logs = append(h.logs, "tools changed")
	return nil
}

func (h *legacyHandler) OnProgress(ctx context.Context, p *mcp20251125.ProgressNotificationParams) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.progress = append(h.progress, p.Progress)
	return nil
}

var legacyCaps = mcp20251125.ClientCapabilities{
	Elicitation: &mcp20251125.ClientCapabilitiesElicitation{},
	Sampling:    &mcp20251125.ClientCapabilitiesSampling{},
	Roots:       &mcp20251125.ClientCapabilitiesRoots{},
}

func callText(t *testing.T, c *mcp20251125.Client, name string, meta *mcp20251125.CallToolRequestParamsMeta) string {
	t.Helper()
	res, err := c.CallTool(context.Background(), &mcp20251125.CallToolRequestParams{Name: name, Arguments: json.RawMessage(`{}`), Meta: meta})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	tc, _ := res.Content[0].(*mcp20251125.TextContent)
	if tc == nil || res.GetIsError() {
		t.Fatalf("%s: %+v", name, res)
	}
	return tc.Text
}

func checkLegacy(t *testing.T, c *mcp20251125.Client, h *legacyHandler) {
	t.Helper()
	if c.ProtocolVersion() != "2025-11-25" {
		t.Errorf("ProtocolVersion = %q", c.ProtocolVersion())
	}
	if si := c.ServerInfo(); si == nil || si.Name == "" {
		t.Errorf("ServerInfo = %+v", si)
	}
	if _, err := c.Ping(context.Background(), nil); err != nil {
		t.Error(err)
	}
	tools, err := c.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) == 0 {
		t.Fatalf("tools/list: %v", err)
	}
	if got := callText(t, c, "elicit", nil); got != "Hello, Ada!" {
		t.Errorf("elicit: %q", got)
	}
	if got := callText(t, c, "sample", nil); got != "The model said: 42" {
		t.Errorf("sample: %q", got)
	}
	if got := callText(t, c, "roots", nil); got != "file:///a file:///b" {
		t.Errorf("roots: %q", got)
	}
	if _, err := c.SetLevel(context.Background(), &mcp20251125.SetLevelRequestParams{Level: mcp20251125.LoggingLevelWarning}); err != nil {
		t.Fatal(err)
	}
	callText(t, c, "log", nil)
	token := mcp20251125.ProgressToken{Kind: mcp20251125.KindString, Str: "p1"}
	callText(t, c, "progress", &mcp20251125.CallToolRequestParamsMeta{ProgressToken: token})
	// Notifications are handled in order on a goroutine of their own: on
	// stdio the response may overtake their handling.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		h.mu.Lock()
		n := len(h.progress)
		h.mu.Unlock()
		if n == 3 {
			break
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if strings.Join(h.logs, ",") != "warning,error" {
		t.Errorf("log messages at warning and above: %v", h.logs)
	}
	if len(h.progress) != 3 {
		t.Errorf("progress: %v", h.progress)
	}
}

func TestClientLegacyStdio(t *testing.T) {
	srv, err := legacyserver.New("2025-11-25", legacyserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	conn := servePipes(t, srv.Serve)
	h := &legacyHandler{}
	c, err := mcp20251125.Connect(context.Background(), &mcp20251125.StreamTransport{Conn: conn}, h, mcp20251125.ClientOptions{Capabilities: legacyCaps})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	checkLegacy(t, c, h)
}

func TestClientLegacyHTTP(t *testing.T) {
	srv, err := legacyserver.New("2025-11-25", legacyserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.HTTP(legacyserver.HTTPConfig{}))
	defer hs.Close()
	h := &legacyHandler{}
	c, err := mcp20251125.Connect(context.Background(), &mcp20251125.HTTPTransport{URL: hs.URL}, h, mcp20251125.ClientOptions{Capabilities: legacyCaps})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	checkLegacy(t, c, h)
	// SSE polling: the server ends the response stream's connection with a
	// retry of 50 ms; the client resumes it with Last-Event-ID and gets the
	// rest (a log message, then the response).
	start := time.Now()
	if got := callText(t, c, "poll", nil); got != "polled" {
		t.Errorf("poll: %q", got)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("the client resumed after %v, before the server's retry of 50ms", d)
	}
	// What the server sends outside requests reaches the client on the
	// session's GET stream, which Connect opened.
	h.mu.Lock()
	h.logs = nil
	h.mu.Unlock()
	if n, err := srv.Broadcast("notifications/tools/list_changed", nil); err != nil || n != 1 {
		t.Fatalf("Broadcast reached %d sessions: %v", n, err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		h.mu.Lock()
		got := strings.Join(h.logs, ",")
		h.mu.Unlock()
		if got == "tools changed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the broadcast did not arrive: %q", got)
		}
	}
}

func TestClientLegacy20250618(t *testing.T) {
	srv, err := legacyserver.New("2025-06-18", legacyserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.HTTP(legacyserver.HTTPConfig{}))
	defer hs.Close()
	c, err := mcp20250618.Connect(context.Background(), &mcp20250618.HTTPTransport{URL: hs.URL}, nil, mcp20250618.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.CallTool(context.Background(), &mcp20250618.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if tc, _ := res.Content[0].(*mcp20250618.TextContent); tc == nil || tc.Text != "hi" {
		t.Errorf("echo: %+v", res)
	}
	// A 2025-11-25 client and a 2025-06-18 server do not agree.
	_, err = mcp20251125.Connect(context.Background(), &mcp20251125.HTTPTransport{URL: hs.URL}, nil, mcp20251125.ClientOptions{})
	if err == nil || !strings.Contains(err.Error(), "2025-06-18") {
		t.Errorf("a 2025-11-25 client against a 2025-06-18 server: %v", err)
	}
}
