package interop

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk v1.8.0 client against a server written on the generated
// packages of the revisions with the initialize handshake
// (internal/legacyserver, served by ./legacyserver) over stdio and over
// Streamable HTTP with sessions: default (the SDK tries server/discover at
// 2026-07-28 and falls back to initialize), and pinned to the server's
// revision with ClientSessionOptions.ProtocolVersion.

// legacyPkg is the server under test; legacyBin is it built by TestMain.
const legacyPkg = "github.com/mcpgen/mcpgen/interop/legacyserver"

var legacyBin string

// legacyHTTP starts the server with -http on a free loopback port and
// returns its endpoint.
func legacyHTTP(t *testing.T, ctx context.Context, version string) string {
	t.Helper()
	stderr := new(logBuffer)
	cmd := exec.CommandContext(ctx, legacyBin, "-version", version, "-http", "127.0.0.1:0")
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
	return m[1]
}

// logSink collects the log messages the client receives.
type logSink struct {
	mu     sync.Mutex
	levels []string
	data   []any
}

func (l *logSink) handle(_ context.Context, req *mcp.LoggingMessageRequest) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.levels = append(l.levels, string(req.Params.Level))
	l.data = append(l.data, req.Params.Data)
}

func (l *logSink) got() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.levels)
}

func TestLegacySDKClient(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2025-06-18"} {
		for _, pin := range []string{"", version} {
			for _, transport := range []string{"stdio", "http"} {
				name := fmt.Sprintf("%s/%s/pinned=%v", version, transport, pin != "")
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					legacyScenario(t, version, pin, transport)
				})
			}
		}
	}
}

func legacyScenario(t *testing.T, version, pin, transport string) {
	ctx := testContext(t)
	var tr mcp.Transport
	switch transport {
	case "stdio":
		stderr := new(logBuffer)
		cmd := exec.CommandContext(ctx, legacyBin, "-version", version)
		cmd.Stderr = stderr
		cmd.WaitDelay = 5 * time.Second
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("server stderr:\n%s", stderr.String())
			}
		})
		tr = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	case "http":
		tr = &mcp.StreamableClientTransport{Endpoint: legacyHTTP(t, ctx, version), MaxRetries: -1}
	}
	logs := new(logSink)
	elicited := make(chan string, 1)
	client := mcp.NewClient(clientInfo, &mcp.ClientOptions{
		LoggingMessageHandler: logs.handle,
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			elicited <- req.Params.Message
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Gopher"}}, nil
		},
	})
	var opts *mcp.ClientSessionOptions
	if pin != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: pin}
	}
	cs, err := client.Connect(ctx, tr, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	if res := cs.InitializeResult(); res == nil || res.ProtocolVersion != version || res.ServerInfo == nil || res.ServerInfo.Name != "legacyserver" {
		t.Fatalf("negotiated %+v, want %s with legacyserver", res, version)
	}
	if transport == "http" && cs.ID() == "" {
		t.Error("no session id over HTTP")
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "echo") || !slices.Contains(names, "elicit") {
		t.Errorf("tools %v", names)
	}
	if text := callText(t, ctx, cs, "echo", map[string]any{"text": "hi there"}); text != "hi there" {
		t.Errorf("echo: %q", text)
	}

	// Log messages at the level the client set, and above.
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatalf("SetLoggingLevel: %v", err)
	}
	if text := callText(t, ctx, cs, "log", map[string]any{}); text != "logged" {
		t.Errorf("log: %q", text)
	}
	if err := poll(ctx, func() bool { return len(logs.got()) >= 2 }); err != nil {
		t.Fatalf("log messages: %v (got %v)", err, logs.got())
	}
	time.Sleep(50 * time.Millisecond) // a filtered message would have come by now
	if got := logs.got(); !slices.Equal(got, []string{"warning", "error"}) {
		t.Errorf("log levels received at warning: %v", got)
	}

	// The server asks the client (elicitation/create) in the middle of a
	// tool call.
	if text := callText(t, ctx, cs, "elicit", map[string]any{"message": "Your name?"}); text != "Hello, Gopher!" {
		t.Errorf("elicit: %q", text)
	}
	select {
	case msg := <-elicited:
		if msg != "Your name?" {
			t.Errorf("elicitation message %q", msg)
		}
	default:
		t.Error("the elicitation handler was not called")
	}
}

func callText(t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool %s: %v", name, err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("CallTool %s: no content", name)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("CallTool %s: content %T", name, res.Content[0])
	}
	if res.IsError {
		t.Errorf("CallTool %s: isError: %s", name, tc.Text)
	}
	return tc.Text
}
