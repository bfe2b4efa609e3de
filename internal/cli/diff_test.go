package cli_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/cli"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

func runDiff(t *testing.T, schemaDir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := cli.Env{Stdout: &out, Stderr: &errb, Locator: &schema.Locator{SchemaDir: schemaDir, Offline: true}}
	code = cli.Run(context.Background(), append([]string{"diff"}, args...), env)
	return code, out.String(), errb.String()
}

func TestDiffUsageErrors(t *testing.T) {
	dir := testenv.SchemaDir(t)
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"$defs": {"A": {"type": "object",}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		dir    string
		args   []string
		stderr string // a line stderr must contain
	}{
		{"no flags", dir, nil, "mcpgen: diff needs --from REVISION"},
		{"no --to", dir, []string{"--from", "2025-11-25"}, "mcpgen: diff needs --to REVISION"},
		{"unknown flag", dir, []string{"--form", "2025-11-25", "--to", "2026-07-28"}, "mcpgen: unknown flag: --form"},
		{"flag without value", dir, []string{"--to", "2026-07-28", "--from"}, "mcpgen: flag needs an argument: --from"},
		{"bad format", dir, []string{"--from", "2025-11-25", "--to", "2026-07-28", "--format", "html"},
			`mcpgen: --format "html" is not known (want text, markdown or json)`},
		{"argument", dir, []string{"--from", "2025-11-25", "--to", "2026-07-28", "extra"}, `mcpgen: unexpected argument "extra"`},
		{"unknown --from revision", dir, []string{"--from", "2099-01-01", "--to", "2026-07-28"},
			`mcpgen: --from: revision "2099-01-01" is not pinned (pinned: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28); give its schema with --from-schema PATH|URL`},
		{"unknown --to revision", dir, []string{"--from", "2025-11-25", "--to", "latest"},
			`mcpgen: --to: revision "latest" is not pinned`},
		{"malformed schema", dir, []string{"--from", "draft", "--from-schema", bad, "--to", "2026-07-28"},
			bad + ": /$defs/A: malformed JSON: "},
		{"missing schema file", dir, []string{"--from", "2025-11-25", "--to", "next", "--to-schema", filepath.Join(dir, "nope.json")},
			"nope.json: no such file or directory"},
		{"pinned revision, other bytes", dir, []string{"--from", "2025-11-25", "--from-schema", bad, "--to", "2026-07-28"},
			"sha256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runDiff(t, tc.dir, tc.args...)
			if code != cli.ExitUsage {
				t.Errorf("exit code %d, want %d", code, cli.ExitUsage)
			}
			if stdout != "" {
				t.Errorf("stdout: %q, want nothing", stdout)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr:\n%s\nwant it to contain:\n%s", stderr, tc.stderr)
			}
		})
	}
}

func TestDiffExplicitSchemas(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, defs string) string {
		path := filepath.Join(tmp, name)
		src := `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {` + defs + `}}`
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a := write("a.json", `"PingRequest": {"type": "object", "properties": {"method": {"const": "ping", "type": "string"}}, "required": ["method"]}`)
	b := write("b.json", `"Empty": {"type": "object", "properties": {"x": {"type": "string"}}}`)
	code, stdout, stderr := runDiff(t, "", "--from", "a", "--from-schema", a, "--to", "b", "--to-schema", b)
	if code != cli.ExitOK {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	want := `MCP a -> b: changes for Go users

Methods: 0 added, 1 removed. Types: 1 added, 1 removed, 0 changed. Schema changes: 2.

Methods removed (1):
  ping                                     PingRequest

Types added (1):
  Empty                                          struct

Types removed (1):
  PingRequest                                    struct

Schema changes (2; breaks: server-sent = messages a server sends, client-sent = messages a client sends, go-api = the Go types):
  + Empty: definition added object [go-api]
  - PingRequest: definition removed object [go-api]
`
	if stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
	// Unpinned revisions are named on stderr with their sha256.
	if !strings.Contains(stderr, "mcpgen: revision a is not pinned; "+a+" has sha256 ") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

func TestDiffHelp(t *testing.T) {
	code, stdout, _ := runDiff(t, "", "--help")
	if code != cli.ExitOK || !strings.Contains(stdout, "mcpgen diff --from R1 --to R2") || !strings.Contains(stdout, "--format") {
		t.Errorf("diff --help: exit %d, stdout:\n%s", code, stdout)
	}
	var out bytes.Buffer
	cli.Run(context.Background(), []string{"--help"}, cli.Env{Stdout: &out, Stderr: &out})
	if !strings.Contains(out.String(), "  diff        print what changed") {
		t.Errorf("mcpgen --help does not list diff:\n%s", out.String())
	}
}

// TestDiffFollowsRefs: diff reads a schema as generate does, with the
// files beside it and --ref-map, so the types another file defines are
// compared too.
func TestDiffFollowsRefs(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const head = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": `
	a := write("a/schema.json", head+`"common.json#/$defs/B"}}}}}`)
	write("a/common.json", `{"$defs": {"B": {"type": "object", "properties": {"n": {"type": "integer"}}}}}`)
	b := write("b/schema.json", head+`"https://example.com/common.json#/$defs/B"}}}}}`)
	remote := write("copies/common.json", `{"$defs": {"B": {"type": "object", "properties": {"n": {"type": "string"}}}}}`)
	code, stdout, stderr := runDiff(t, "", "--from", "a", "--from-schema", a, "--to", "b", "--to-schema", b,
		"--ref-map", "https://example.com/common.json="+remote)
	if code != cli.ExitOK {
		t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "Types: 0 added, 0 removed, 1 changed.") || !strings.Contains(stdout, "  B\n    ~ field N (json \"n\"): type *int64 -> *string\n") {
		t.Errorf("stdout:\n%s\nwant B changed (its n: int64 -> string)", stdout)
	}
	// Without the map, the remote document is not there: the same error
	// as generate's.
	code, _, stderr = runDiff(t, "", "--from", "a", "--from-schema", a, "--to", "b", "--to-schema", b)
	if code != cli.ExitUsage || !strings.Contains(stderr, "--ref-map https://example.com/common.json=FILE") {
		t.Errorf("no --ref-map: exit %d, stderr:\n%s", code, stderr)
	}
}
