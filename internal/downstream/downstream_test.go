package downstream

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// The downstream module, with a mcpgen.json that renames a definition and
// maps another to a type of the module's own (the conversions to older
// revisions go through its JSON).
var files = map[string]string{
	"info/info.go": `// Package info is the downstream module's own type for an MCP Implementation.
package info

import "errors"

// Info names a client or server.
type Info struct {
	Name    string ` + "`json:\"name\"`" + `
	Version string ` + "`json:\"version\"`" + `
}

// Validate checks an Info.
func (i Info) Validate() error {
	if i.Name == "" {
		return errors.New("name is empty")
	}
	return nil
}
`,
	"mcpgen.json": `{
  "rename": {"ContentBlock": "Content"},
  "external": {"Implementation": "example.com/downstream/info.Info"}
}
`,
	"gen.go": `package main

//go:generate go tool mcpgen generate --revision 2026-07-28 --out ./mcp --package mcp --config mcpgen.json --serve-older 2025-11-25,2025-03-26
`,
	"main.go": `package main

import (
	"context"
	"fmt"

	"example.com/downstream/info"
	"example.com/downstream/mcp"
)

type server struct{ mcp.UnimplementedServerHandler }

func main() {
	var req mcp.CallToolRequest
	err := req.UnmarshalJSON([]byte(` + "`" + `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"","version":"1"}},"name":"add"}}` + "`" + `))
	fmt.Println("decode:", err)
	fmt.Println("validate:", req.Validate())
	var c mcp.Content = &mcp.TextContent{Text: "hi"}
	b, _ := c.MarshalJSON()
	fmt.Println(string(b))
	d := mcp.NewServerDispatcher(server{}, mcp.ServerOptions{ServerInfo: info.Info{Name: "s", Version: "1"}})
	fmt.Println(string(d.Handle(context.Background(), []byte(` + "`" + `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}` + "`" + `))))

	// --serve-older: the params of a 2025-11-25 client, and a result for
	// 2025-11-25 and 2025-03-26 clients.
	v, err := mcp.Older20251125.ParamsFromOlder("tools/call", []byte(` + "`" + `{"name":"add","arguments":{"a":1},"task":{"ttl":5}}` + "`" + `))
	p := v.(*mcp.CallToolRequestParams)
	task, _ := p.Extra.Get("task")
	fmt.Println(p.Name, string(p.Arguments), string(task), err)
	res := &mcp.CallToolResult{ResultType: mcp.ResultTypeComplete, Content: []mcp.Content{&mcp.TextContent{Text: "3"}, &mcp.ResourceLink{Name: "r", URI: "file:///r"}}}
	b, err = mcp.Older20251125.ResultToOlder("tools/call", res)
	fmt.Println(string(b), err)
	_, err = mcp.Older20250326.ResultToOlder("tools/call", res)
	fmt.Println(err)
	caps, err := mcp.OlderRevisions[1].ToOlder("ServerCapabilities", &mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{}})
	fmt.Println(mcp.OlderRevisions[1].Revision(), string(caps), err)
}
`,
}

const wantOutput = `decode: <nil>
validate: invalid: /params/_meta/io.modelcontextprotocol~1clientInfo: name is empty (external)
{"text":"hi","type":"text"}
{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}},"cacheScope":"public","capabilities":{},"resultType":"complete","supportedVersions":["2026-07-28"],"ttlMs":0}}
add {"a":1} {"ttl":5} <nil>
{"content":[{"text":"3","type":"text"},{"name":"r","type":"resource_link","uri":"file:///r"}]} <nil>
converting to 2025-03-26: /content/1/type: unknown "type" "resource_link"; want one of "text", "image", "audio", "resource"
2025-03-26 {"tools":{}} <nil>
`

func TestGoGenerateInDownstreamModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a separate module")
	}
	root := testenv.ModuleRoot(t)
	dir := t.TempDir()
	// Hermetic: no schema directory (the schema is the copy embedded in
	// mcpgen), no downloads, and no module proxy (mcpgen's dependencies are
	// in the module cache, because this test's own build needed them).
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MCPGEN_SCHEMA_DIR=") {
			env = append(env, kv)
		}
	}
	env = append(env, "GOWORK=off", testenv.GoFlags, "GOPROXY=off", "MCPGEN_OFFLINE=1")
	run := func(want int, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		if code != want {
			t.Fatalf("%s %s: exit %d, want %d\n%s", name, strings.Join(args, " "), code, want, out)
		}
		return string(out)
	}
	gomod := "module example.com/downstream\n\ngo 1.26\n\n" +
		"require github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000\n\n" +
		"replace github.com/mcpgen/mcpgen => " + root + "\n"
	write := func(name, content string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", gomod)
	if sum, err := os.ReadFile(filepath.Join(root, "go.sum")); err == nil {
		write("go.sum", string(sum))
	}
	for name, content := range files {
		write(name, content)
	}

	run(0, "go", "get", "-tool", "github.com/mcpgen/mcpgen/cmd/mcpgen")
	if mod, _ := os.ReadFile(filepath.Join(dir, "go.mod")); !strings.Contains(string(mod), "tool github.com/mcpgen/mcpgen/cmd/mcpgen") {
		t.Fatalf("go get -tool did not record the tool:\n%s", mod)
	}
	run(0, "go", "generate", "./...")
	for _, f := range []string{"types.go", "json.go", "validate.go", "dispatch.go", "doc.go", "runtime.go", "older_mcp20251125.go", "older_mcp20251125.json", "older_mcp20250326.go"} {
		if _, err := os.Stat(filepath.Join(dir, "mcp", f)); err != nil {
			t.Errorf("go generate did not write mcp/%s", f)
		}
	}
	run(0, "go", "vet", "./...")
	if got := run(0, "go", "run", "."); got != wantOutput {
		t.Errorf("the program printed:\n%s\nwant:\n%s", got, wantOutput)
	}

	// --check, as a CI step of the downstream repository would run it.
	check := []string{"tool", "mcpgen", "generate", "--revision", "2026-07-28", "--out", "./mcp", "--package", "mcp", "--config", "mcpgen.json", "--serve-older", "2025-11-25,2025-03-26", "--check"}
	run(0, "go", check...)
	write("mcp/types.go", "// Code generated by mcpgen. DO NOT EDIT.\n\npackage mcp\n")
	if out := run(1, "go", check...); !strings.Contains(out, "mcp is stale (1 file differs)") || !strings.Contains(out, "changed: types.go") {
		t.Errorf("--check on stale output printed:\n%s", out)
	}
	// The pre-1.24 form: go run on the package path.
	run(0, "go", "run", "github.com/mcpgen/mcpgen/cmd/mcpgen", "generate", "--revision", "2026-07-28", "--out", "./mcp", "--package", "mcp", "--config", "mcpgen.json", "--serve-older", "2025-11-25,2025-03-26")
	run(0, "go", check...)
}
