package interop

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The example server over Streamable HTTP (-http), driven by the go-sdk
// v1.8.0 client's StreamableClientTransport.

// httpServer starts the example server with -http on a free loopback port
// and returns its endpoint and the process.
func httpServer(t *testing.T, ctx context.Context) (string, *exec.Cmd, *logBuffer) {
	t.Helper()
	stderr := new(logBuffer)
	cmd := exec.CommandContext(ctx, serverBin, "-http", "127.0.0.1:0")
	cmd.Stderr = stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	stderr.waitFor(t, ctx, "listening on ")
	m := regexp.MustCompile(`listening on (http://[^\s"]+)`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no address in %q", stderr.String())
	}
	return m[1], cmd, stderr
}

// headerLog records the MCP headers of the requests a client sends.
type headerLog struct {
	mu   sync.Mutex
	seen []http.Header
}

func (h *headerLog) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	h.seen = append(h.seen, r.Header.Clone())
	h.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func TestHTTPSDKClient(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	endpoint, cmd, _ := httpServer(t, ctx)
	log := new(headerLog)
	client := mcp.NewClient(clientInfo, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:             endpoint,
		HTTPClient:           &http.Client{Transport: log},
		DisableStandaloneSSE: true,
		MaxRetries:           -1,
	}, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	res := cs.InitializeResult()
	if res == nil || res.ProtocolVersion != protocolVersion || res.ServerInfo == nil || res.ServerInfo.Name != serverName {
		t.Fatalf("negotiated %+v", res)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	if len(tools.Tools) != 1 || tools.Tools[0].Name != "add" {
		t.Errorf("tools %+v", tools.Tools)
	}
	call, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": 40, "b": 2}})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	checkText(t, call, addText)
	// An unknown tool: the server's invalid params (-32602) reaches the
	// caller as an error, over HTTP 400.
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("CallTool nope: %v", err)
	}
	cs.Close()

	// The client sent the 2026-07-28 request metadata headers, and the
	// server accepted them.
	log.mu.Lock()
	methods := map[string]http.Header{}
	for _, h := range log.seen {
		methods[h.Get("Mcp-Method")] = h
	}
	log.mu.Unlock()
	for _, m := range []string{"server/discover", "tools/list", "tools/call"} {
		h, ok := methods[m]
		if !ok {
			t.Errorf("no request with Mcp-Method %s (saw %v)", m, methods)
			continue
		}
		if h.Get("Mcp-Protocol-Version") != protocolVersion {
			t.Errorf("%s: MCP-Protocol-Version %q", m, h.Get("Mcp-Protocol-Version"))
		}
	}
	if h := methods["tools/call"]; h != nil && h.Get("Mcp-Name") == "" {
		t.Errorf("tools/call without Mcp-Name: %v", h)
	}

	// A GET (a legacy client's stream) without a session: the server
	// also serves the older revisions (issue 10), whose transport wants a
	// session on every request after initialize (2025-11-25, "Session
	// Management": 400 without one, 404 for one that is unknown or
	// ended). (A server of 2026-07-28 alone answers 405.)
	for _, c := range []struct {
		session string
		want    int
	}{{"", http.StatusBadRequest}, {"no-such-session", http.StatusNotFound}} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
		req.Header.Set("Accept", "text/event-stream")
		if c.session != "" {
			req.Header.Set("Mcp-Session-Id", c.session)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("GET with session %q: %d, want %d", c.session, resp.StatusCode, c.want)
		}
	}
	// Ctrl-C shuts the server down cleanly.
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("the server did not exit cleanly on interrupt: %v", err)
	}
}
