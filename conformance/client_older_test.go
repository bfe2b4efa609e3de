package conformance

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp20250326"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/legacyserver"
)

// The 2026-07-28 client against servers of earlier revisions
// (internal/legacyserver: 2025-11-25 and 2025-06-18), over stdio and HTTP:
// the server/discover probe identifies a legacy server, the client opens
// with initialize, and the caller's code stays that of 2026-07-28 — the
// requests and results, the server's requests (elicitation, sampling,
// roots) and its notifications go through the package's conversions.

// olderHandler answers what an older server asks, with 2026-07-28 types.
type olderHandler struct {
	mcp.UnimplementedClientHandler
	mu       sync.Mutex
	logs     []string
	progress int
}

func (h *olderHandler) Elicit(ctx context.Context, p mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	return &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept,
		Content: map[string]mcp.ElicitResultContentValue{"name": mcp.ElicitResultContentValueFromString("Ada")}}, nil
}

func (h *olderHandler) CreateMessage(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "m", Content: &mcp.TextContent{Text: "42"}}, nil
}

func (h *olderHandler) ListRoots(ctx context.Context, p *mcp.ListRootsRequestParams) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///a"}, {URI: "file:///b"}}}, nil
}

func (h *olderHandler) OnLoggingMessage(ctx context.Context, p *mcp.LoggingMessageNotificationParams) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.logs = append(h.logs, string(p.Level))
	return nil
}

func (h *olderHandler) OnProgress(ctx context.Context, p *mcp.ProgressNotificationParams) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.progress++
	return nil
}

var olderCaps = mcp.ClientCapabilities{
	Elicitation: &mcp.ClientCapabilitiesElicitation{Form: &mcp.ClientCapabilitiesElicitationForm{}},
	Sampling:    &mcp.ClientCapabilitiesSampling{},
	Roots:       &mcp.ClientCapabilitiesRoots{},
}

func olderText(t *testing.T, c *mcp.Client, name string, meta mcp.RequestMetaObject) string {
	t.Helper()
	res, err := c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: name, Arguments: json.RawMessage(`{"text":"hi"}`), Meta: meta})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	tc, _ := res.Content[0].(*mcp.TextContent)
	if tc == nil || res.GetIsError() || res.ResultType != mcp.ResultTypeComplete {
		t.Fatalf("%s: %+v", name, res)
	}
	return tc.Text
}

func checkOlder(t *testing.T, c *mcp.Client, h *olderHandler, version string) {
	t.Helper()
	if v := c.ProtocolVersion(); v != version {
		t.Errorf("ProtocolVersion = %q, want %q", v, version)
	}
	if si := c.ServerInfo(); si == nil || si.Name == "" {
		t.Errorf("ServerInfo = %+v", si)
	}
	if caps := c.ServerCapabilities(); caps == nil || caps.Tools == nil {
		t.Errorf("ServerCapabilities = %+v", caps)
	}
	tools, err := c.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) == 0 || tools.ResultType != mcp.ResultTypeComplete || tools.CacheScope != mcp.CacheScopePrivate {
		t.Errorf("tools/list: %d tools, resultType %q, cacheScope %q", len(tools.Tools), tools.ResultType, tools.CacheScope)
	}
	if got := olderText(t, c, "echo", mcp.RequestMetaObject{}); got != "hi" {
		t.Errorf("echo: %q", got)
	}
	if got := olderText(t, c, "elicit", mcp.RequestMetaObject{}); got != "Hello, Ada!" {
		t.Errorf("elicit: %q", got)
	}
	if got := olderText(t, c, "sample", mcp.RequestMetaObject{}); got != "The model said: 42" {
		t.Errorf("sample: %q", got)
	}
	if got := olderText(t, c, "roots", mcp.RequestMetaObject{}); got != "file:///a file:///b" {
		t.Errorf("roots: %q", got)
	}
	olderText(t, c, "log", mcp.RequestMetaObject{})
	olderText(t, c, "progress", mcp.RequestMetaObject{ProgressToken: mcp.ProgressToken{Kind: mcp.KindString, Str: "p"}})
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		h.mu.Lock()
		done := len(h.logs) == 4 && h.progress == 3
		h.mu.Unlock()
		if done {
			break
		}
	}
	h.mu.Lock()
	if strings.Join(h.logs, ",") != "debug,info,warning,error" || h.progress != 3 {
		t.Errorf("logs %v, %d progress notifications", h.logs, h.progress)
	}
	h.mu.Unlock()
	// What only 2026-07-28 has is refused with a clear error.
	if _, err := c.SubscriptionsListen(context.Background(), &mcp.SubscriptionsListenRequestParams{}); err == nil || !strings.Contains(err.Error(), "not carried") {
		t.Errorf("subscriptions/listen with a %s server: %v", version, err)
	}
}

func TestClientOlderServers(t *testing.T) {
	for _, version := range legacyserver.Versions {
		srv, err := legacyserver.New(version, legacyserver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(version+"/stdio", func(t *testing.T) {
			h := &olderHandler{}
			c, err := mcp.Connect(context.Background(), &mcp.StreamTransport{Conn: servePipes(t, srv.Serve)}, h, mcp.ClientOptions{Capabilities: olderCaps})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			checkOlder(t, c, h, version)
		})
		t.Run(version+"/http", func(t *testing.T) {
			hs := httptest.NewServer(srv.HTTP(legacyserver.HTTPConfig{}))
			defer hs.Close()
			h := &olderHandler{}
			c, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: hs.URL}, h, mcp.ClientOptions{Capabilities: olderCaps})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			checkOlder(t, c, h, version)
			if version == "2025-11-25" {
				// SSE polling through the conversions.
				if got := olderText(t, c, "poll", mcp.RequestMetaObject{}); got != "polled" {
					t.Errorf("poll: %q", got)
				}
			}
		})
	}
}

// TestClientOlder20250326: a server of 2025-03-26 (the generated package's
// own tool set), whose Streamable HTTP has no MCP-Protocol-Version header.
func TestClientOlder20250326(t *testing.T) {
	tools := &mcp20250326.Server{}
	mcp20250326.AddTool(tools, mcp20250326.Tool{Name: "add"},
		func(ctx context.Context, p *mcp20250326.CallToolRequestParams, in struct{ A, B int64 }) (*mcp20250326.CallToolResult, error) {
			return mcp20250326.TextResult(strconv.FormatInt(in.A+in.B, 10)), nil
		})
	d := mcp20250326.NewServerDispatcher(tools, mcp20250326.ServerOptions{ServerInfo: mcp20250326.Implementation{Name: "old", Version: "1"}})
	hs := httptest.NewServer(mcp20250326.NewHTTPHandler(d, mcp20250326.HTTPOptions{}))
	defer hs.Close()
	for _, tr := range []struct {
		name string
		t    mcp.Transport
	}{
		{"stdio", &mcp.StreamTransport{Conn: servePipes(t, d.Serve)}},
		{"http", &mcp.HTTPTransport{URL: hs.URL}},
	} {
		t.Run(tr.name, func(t *testing.T) {
			c, err := mcp.Connect(context.Background(), tr.t, nil, mcp.ClientOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if v := c.ProtocolVersion(); v != "2025-03-26" {
				t.Errorf("ProtocolVersion = %q", v)
			}
			res, err := c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "add", Arguments: json.RawMessage(`{"A":2,"B":3}`)})
			if err != nil {
				t.Fatal(err)
			}
			if tc, _ := res.Content[0].(*mcp.TextContent); tc == nil || tc.Text != "5" {
				t.Errorf("add: %+v", res.Content)
			}
			// 2025-03-26 has no server/discover: refused before it is sent.
			if _, err := c.Discover(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "converting to 2025-03-26") {
				t.Errorf("server/discover with a 2025-03-26 server: %v", err)
			}
		})
	}
}
