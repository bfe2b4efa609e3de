//go:build !mcpgen_bootstrap

package cli_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

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
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":7}}`,
	}, "\n") + "\n"
	code, out, errOut := runStdin(t, in, "proxy", "--", os.Args[0], "mcpgen-check-fixture", "-revision", "2025-06-18")
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
