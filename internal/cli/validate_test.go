package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/cli"
	"github.com/mcpgen/mcpgen/schema"
)

func runStdin(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Locator: &schema.Locator{Offline: true}}
	code := cli.Run(context.Background(), args, env)
	return code, out.String(), errb.String()
}

func TestValidateCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"add"}}`)
	bad := write("bad.json", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}},"name":5}}`)
	notJSON := write("not.json", `{"jsonrpc":`)

	code, out, errOut := runStdin(t, "", "validate", "--revision", "2026-07-28", "--type", "CallToolRequest", good)
	if code != 0 || out != good+": valid CallToolRequest\n" || errOut != "" {
		t.Errorf("valid file: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runStdin(t, "", "validate", "--revision", "2026-07-28", "--type", "CallToolRequest", good, bad, notJSON)
	wantOut := good + ": valid CallToolRequest\n" +
		bad + `: /params/_meta: missing required member "io.modelcontextprotocol/protocolVersion" (required)` + "\n" +
		bad + ": /params/name: expected string, got number (type)\n" +
		notJSON + ": invalid JSON at offset 11: unexpected end of JSON input\n"
	if code != cli.ExitStale || out != wantOut || errOut != "mcpgen: 2 documents of 3 not valid CallToolRequest (revision 2026-07-28)\n" {
		t.Errorf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr: %s", code, out, wantOut, errOut)
	}
	// Standard input, and the default type JSONRPCMessage.
	code, out, _ = runStdin(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "validate", "--revision", "2025-06-18", "-")
	if code != 0 || out != "<stdin>: valid JSONRPCMessage\n" {
		t.Errorf("stdin: exit %d\n%s", code, out)
	}
	code, out, _ = runStdin(t, `{"jsonrpc":"1.0","id":1,"method":"ping"}`, "validate", "--revision", "2025-06-18", "-")
	if code != cli.ExitStale || !strings.HasPrefix(out, "<stdin>: ") {
		t.Errorf("invalid stdin: exit %d\n%s", code, out)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"validate", good}, "mcpgen: validate needs --revision R or --schema PATH|URL\n"},
		{[]string{"validate", "--revision", "2026-07-28", "--schema", good, good}, "mcpgen: validate takes --revision or --schema, not both\n"},
		{[]string{"validate", "--revision", "2026-07-28"}, "mcpgen: validate needs at least one FILE (or - for standard input)\n"},
		{[]string{"validate", "--revision", "2026-07-28", "--type", "Nope", good}, "mcpgen: revision 2026-07-28 has no definition \"Nope\"\n"},
		{[]string{"validate", "--revision", "1999-01-01", good}, "mcpgen: validate knows the pinned revisions (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28), not \"1999-01-01\"; give any other schema with --schema PATH|URL\n"},
		{[]string{"validate", "--revision", "2026-07-28", "--typ", "X", good}, "mcpgen: unknown flag: --typ\n"},
	} {
		code, out, errOut := runStdin(t, "", tc.args...)
		if code != cli.ExitUsage || out != "" || !strings.HasPrefix(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errOut, tc.msg)
		}
	}
	code, _, errOut = runStdin(t, "", "validate", "--revision", "2026-07-28", filepath.Join(dir, "missing.json"))
	if code != cli.ExitUsage || !strings.Contains(errOut, "missing.json: no such file or directory") {
		t.Errorf("missing file: exit %d, %s", code, errOut)
	}
}

// TestValidateSchema validates against a schema that is not pinned (a
// draft: the newest revision with a definition added), with no pin and no
// generated package: the runtime's validator reads it.
func TestValidateSchema(t *testing.T) {
	data, ok := schema.Embedded("2026-07-28")
	if !ok {
		t.Fatal("no embedded 2026-07-28")
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	doc["$defs"].(map[string]any)["Probe"] = map[string]any{"type": "object", "required": []any{"ttlMs"},
		"properties": map[string]any{"ttlMs": map[string]any{"type": "integer", "minimum": 0, "maximum": 86400000}}}
	draft, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "draft.json")
	if err := os.WriteFile(path, draft, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runStdin(t, `{"ttlMs": 172800000}`, "validate", "--schema", path, "--type", "Probe", "-")
	if code != cli.ExitStale || out != "<stdin>: /ttlMs: must be <= 86400000, got 172800000 (maximum)\n" ||
		errOut != "mcpgen: 1 document of 1 not valid Probe ("+path+")\n" {
		t.Errorf("exit %d\nstdout: %q\nstderr: %q", code, out, errOut)
	}
	code, out, _ = runStdin(t, `{"ttlMs": 5}`, "validate", "--schema", path, "--type", "Probe", "-")
	if code != 0 || out != "<stdin>: valid Probe\n" {
		t.Errorf("exit %d: %s", code, out)
	}
}
