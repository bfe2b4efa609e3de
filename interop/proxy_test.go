package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/proxy"
)

// who is the form the test_elicitation tool asks for.
type who struct {
	Username string `json:"username" jsonschema:"Your user name"`
	Email    string `json:"email" jsonschema:"Your e-mail address"`
}

// modernOnlyURL serves, over HTTP on 127.0.0.1, a server of 2026-07-28
// only: a 2025-11-25 client cannot talk to it directly.
func modernOnlyURL(t *testing.T) string {
	t.Helper()
	s := &mcp.Server{}
	mcp.AddTool(s, mcp.Tool{Name: "test_simple_text"}, func(ctx context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		return mcp.TextResult("This is a simple text response for testing."), nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "test_elicitation"}, func(ctx context.Context, p *mcp.CallToolRequestParams, in struct {
		Message string `json:"message"`
	}) (*mcp.CallToolResult, error) {
		ask := mcp.Ask(p.InputResponses)
		a := ask.Elicit("who", mcp.Form[who](in.Message))
		if err := ask.Err(); err != nil {
			return nil, err
		}
		v, ok, err := mcp.FormValue[who](a)
		if err != nil || !ok {
			return mcp.ErrorResult("declined"), err
		}
		return mcp.TextResult("Hello, " + v.Username + " <" + v.Email + ">"), nil
	})
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "modern-only", Version: "1"}, OnlyThisRevision: true})
	hs := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	t.Cleanup(hs.Close)
	return hs.URL
}

// TestProxyTypeScriptToModernOnly: the official TypeScript client, which
// opens with initialize at 2025-11-25 (and, offering only it, at
// 2025-06-18), lists and calls the tools of a
// 2026-07-28-only server through mcpgen's proxy (HTTP both sides), and
// answers the server's input request as an elicitation/create; every
// message crossing the proxy is checked, and none breaks its schema.
func TestProxyTypeScriptToModernOnly(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2025-06-18"} {
		t.Run(version, func(t *testing.T) { proxyTypeScript(t, version) })
	}
}

// proxyTypeScript runs the TypeScript client at version (it offers only
// that one) through the proxy to a 2026-07-28-only server.
func proxyTypeScript(t *testing.T, version string) {
	if _, err := os.Stat(nodeBin); err != nil {
		if os.Getenv("MCPGEN_INTEROP_TS") != "" {
			t.Fatalf("the TypeScript client is not installed (%v): run npm ci in interop/ts", err)
		}
		t.Skipf("the TypeScript client is not installed (%v): make interop installs it (npm ci in interop/ts)", err)
	}
	up := modernOnlyURL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	p, err := proxy.New(ctx, proxy.Options{Upstream: &mcp.HTTPTransport{URL: up}, Cache: proxy.NewMemoryStore(0)})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ps := httptest.NewServer(mcp.NewHTTPHandler(p.Dispatcher(), mcp.HTTPOptions{}))
	defer ps.Close()

	abs, err := filepath.Abs(nodeBin)
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	stderr := new(logBuffer)
	cmd := exec.CommandContext(testContext(t), abs, "ts/client.mjs", "--mode", "default", "--http", ps.URL, "--versions", version)
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	cmd.SysProcAttr = procAttr()
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		t.Fatalf("node: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	var r legResult
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("client.mjs printed %q: %v", stdout.String(), err)
	}
	// The server has no resources, prompts or logging tool: those steps
	// fail; the tools' must not.
	for _, e := range r.Errors {
		if strings.HasPrefix(e, "tools/") || strings.HasPrefix(e, "elicitation") || strings.HasPrefix(e, "connect") || strings.HasPrefix(e, "tool error") {
			t.Errorf("client: %s", e)
		}
	}
	if r.ProtocolVersion != version || r.ServerName != "modern-only" {
		t.Errorf("negotiated %q with %q", r.ProtocolVersion, r.ServerName)
	}
	if !slices.Equal(r.Tools, []string{"test_simple_text", "test_elicitation"}) {
		t.Errorf("tools %v", r.Tools)
	}
	if r.SimpleText != "This is a simple text response for testing." {
		t.Errorf("test_simple_text: %q", r.SimpleText)
	}
	if r.ElicitText != "Hello, ada <ada@example.com>" {
		t.Errorf("test_elicitation: %q", r.ElicitText)
	}
	if p.UpstreamVersion() != mcp.ProtocolVersion {
		t.Errorf("upstream %q", p.UpstreamVersion())
	}
	if vs := p.Tap().Violations(); len(vs) != 0 || p.Tap().Checked() < 8 {
		t.Errorf("%d checked, violations %v", p.Tap().Checked(), vs)
	}
}
