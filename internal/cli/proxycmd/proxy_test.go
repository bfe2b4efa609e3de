package proxycmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/check/fixture"
	"github.com/mcpgen/mcpgen/internal/cli"
	_ "github.com/mcpgen/mcpgen/internal/cli/proxycmd"
	"github.com/mcpgen/mcpgen/schema"
)

// The test binary is also the upstream server: with the first argument
// "mcpgen-check-fixture" it serves mcpgen check's fixture on stdio.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "mcpgen-check-fixture" {
		os.Exit(fixture.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// handshakeFirst is a standard input that gives its first line (an
// initialize) and, once the response to it is on stdout, the rest, as a
// client waits for the handshake before it sends more.
type handshakeFirst struct {
	first, rest string
	out         *bytes.Buffer
	mu          *sync.Mutex
	sent        bool
}

func (h *handshakeFirst) Read(p []byte) (int, error) {
	if !h.sent {
		h.sent = true
		return copy(p, h.first), nil
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		h.mu.Lock()
		n := h.out.Len()
		h.mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
	}
	if h.rest == "" {
		return 0, io.EOF
	}
	n := copy(p, h.rest)
	h.rest = h.rest[n:]
	return n, nil
}

// lockedBuffer is a bytes.Buffer written under a mutex.
type lockedBuffer struct {
	buf *bytes.Buffer
	mu  *sync.Mutex
}

func (l lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// runHandshake runs an mcpgen command line whose standard input sends
// first, then rest once there is output.
func runHandshake(t *testing.T, first, rest string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	mu := new(sync.Mutex)
	env := cli.Env{Stdin: &handshakeFirst{first: first, rest: rest, out: &out, mu: mu}, Stdout: lockedBuffer{&out, mu}, Stderr: &errb, Locator: &schema.Locator{Offline: true}}
	code := cli.Run(context.Background(), args, env)
	return code, out.String(), errb.String()
}

// runStdin runs an mcpgen command line, this package's proxy registered.
func runStdin(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Locator: &schema.Locator{Offline: true}}
	code := cli.Run(context.Background(), args, env)
	return code, out.String(), errb.String()
}

func TestProxyUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"proxy"}, "proxy needs an upstream"},
		{[]string{"proxy", "http://127.0.0.1:1/", "extra"}, `unexpected argument "extra"`},
		{[]string{"proxy", "http://127.0.0.1:1/", "--", "cmd"}, "not both"},
		{[]string{"proxy", "--listen", "0.0.0.0:0", "http://127.0.0.1:1/"}, "not a loopback address"},
		{[]string{"proxy", "--listen", "nowhere", "http://127.0.0.1:1/"}, "want stdio or HOST:PORT"},
		{[]string{"proxy", "--header", "nocolon", "http://127.0.0.1:1/"}, "'NAME: VALUE'"},
		{[]string{"proxy", "--", "/nonexistent/mcp-server"}, "connecting to the upstream"},
	} {
		code, out, errOut := runStdin(t, "", c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 saying %q", c.args, code, out, errOut, c.want)
		}
	}
}

// TestProxyStdio: a 2025-11-25 client on the proxy's standard input, a
// 2025-06-18 server (the check fixture) as its upstream command.
func TestProxyStdio(t *testing.T) {
	first := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":7}}`,
	}, "\n") + "\n"
	code, out, errOut := runHandshake(t, first, in, "proxy", "--", os.Args[0], "mcpgen-check-fixture", "-revision", "2025-06-18")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	byID := map[string]json.RawMessage{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m struct {
			ID     json.RawMessage
			Result json.RawMessage
			Error  json.RawMessage
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		byID[string(m.ID)] = append(m.Result, m.Error...)
	}
	if r := string(byID["1"]); !strings.Contains(r, `"protocolVersion":"2025-11-25"`) {
		t.Errorf("initialize: %s", r)
	}
	if r := string(byID["2"]); !strings.Contains(r, `"tools":[`) {
		t.Errorf("tools/list: %s", r)
	}
	if r := string(byID["3"]); !strings.Contains(r, `-32602`) {
		t.Errorf("tools/list with a number cursor: %s", r)
	}
	if !strings.Contains(errOut, "mcpgen proxy: ") || !strings.Contains(errOut, "downstream 2025-11-25 tools/list params /cursor type") {
		t.Errorf("stderr:\n%s", errOut)
	}
}

// slowServer is a 2026-07-28 server over HTTP on 127.0.0.1 whose tool
// "slow" answers after d.
func slowServer(t *testing.T, d time.Duration) string {
	t.Helper()
	s := &mcp.Server{}
	mcp.AddTool(s, mcp.Tool{Name: "slow"}, func(ctx context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		select {
		case <-time.After(d):
			return mcp.TextResult("done"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	hs := httptest.NewServer(mcp.NewHTTPHandler(mcp.NewServerDispatcher(s, mcp.ServerOptions{}), mcp.HTTPOptions{}))
	t.Cleanup(hs.Close)
	return hs.URL
}

// startHTTPProxy runs mcpgen proxy --listen 127.0.0.1:0 with args until
// ctx ends; it returns the proxy's URL and a channel with the exit code.
func startHTTPProxy(t *testing.T, ctx context.Context, stderr *lockedBuffer, args ...string) (string, <-chan int) {
	t.Helper()
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: *stderr, Locator: &schema.Locator{Offline: true}}
	code := make(chan int, 1)
	go func() { code <- cli.Run(ctx, append([]string{"proxy", "--listen", "127.0.0.1:0"}, args...), env) }()
	re := regexp.MustCompile(`serving (http://\S+/mcp)`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		stderr.mu.Lock()
		m := re.FindStringSubmatch(stderr.buf.String())
		stderr.mu.Unlock()
		if m != nil {
			return m[1], code
		}
		select {
		case c := <-code:
			t.Fatalf("the proxy exited %d: %s", c, stderr.buf.String())
		default:
		}
	}
	t.Fatalf("the proxy did not say where it serves: %s", stderr.buf.String())
	return "", nil
}

// TestProxyGracefulShutdown: when the proxy is told to stop (SIGINT or
// SIGTERM end its context), a request in flight finishes with its result,
// the proxy exits 0 with its summary, and new connections are refused.
// --log-requests logs the request.
func TestProxyGracefulShutdown(t *testing.T) {
	up := slowServer(t, 500*time.Millisecond)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	stderr := &lockedBuffer{new(bytes.Buffer), new(sync.Mutex)}
	url, code := startHTTPProxy(t, ctx, stderr, "--log-requests", up)
	c, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	type outcome struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "slow"})
		done <- outcome{res, err}
	}()
	time.Sleep(150 * time.Millisecond) // the call is in flight
	stop()
	o := <-done
	if o.err != nil || o.res == nil || len(o.res.Content) != 1 || !contentIs(o.res.Content[0], "done") {
		t.Fatalf("the call in flight at shutdown: %+v, %v", o.res, o.err)
	}
	select {
	case n := <-code:
		if n != 0 {
			t.Errorf("exit %d: %s", n, stderr.buf.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the proxy did not exit")
	}
	if _, err := http.Post(url, "application/json", strings.NewReader(`{}`)); err == nil {
		t.Error("the proxy still accepts connections after shutdown")
	}
	out := stderr.buf.String()
	if !strings.Contains(out, "mcpgen proxy: ") || !strings.Contains(out, "messages checked") {
		t.Errorf("no summary at exit:\n%s", out)
	}
	if !regexp.MustCompile(`msg="mcp: served tools/call" mcp.method.name=tools/call mcp.name=slow duration=[0-9.]+m?s outcome=ok`).MatchString(out) {
		t.Errorf("--log-requests did not log the call:\n%s", out)
	}
}

// contentIs says whether b is text content saying text.
func contentIs(b mcp.ContentBlock, text string) bool {
	j, err := b.AppendJSON(nil)
	return err == nil && strings.Contains(string(j), fmt.Sprintf(`"text":%q`, text))
}
