package proxycmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

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
