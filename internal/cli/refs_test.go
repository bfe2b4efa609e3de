package cli_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/cli"
	"github.com/mcpgen/mcpgen/schema"
)

// TestRemoteRefs: an http(s) $ref is read from --ref-map, or with
// --download-refs downloaded (once: then from the cache) with its sha256
// printed, and never with downloads off.
func TestRemoteRefs(t *testing.T) {
	tmp := t.TempDir()
	const remote = `{"$defs": {"B": {"type": "object", "properties": {"n": {"type": "integer"}}}}}`
	write := func(name, text string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	schemaPath := write("schema.json", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "https://example.com/defs.json#/$defs/B"}}}}}`)
	local := write("defs-copy.json", remote)
	gets := 0
	get := func(_ context.Context, url string) ([]byte, error) {
		gets++
		if url != "https://example.com/defs.json" {
			return nil, errors.New("unexpected URL " + url)
		}
		return []byte(remote), nil
	}
	gen := func(loc *schema.Locator, extra ...string) (int, string, string) {
		var out, errb bytes.Buffer
		out_ := filepath.Join(tmp, "out")
		args := append([]string{"generate", "--revision", "draft", "--schema", schemaPath, "--out", out_, "--package", "refs"}, extra...)
		code := cli.Run(context.Background(), args, cli.Env{Stdout: &out, Stderr: &errb, Locator: loc})
		types, _ := os.ReadFile(filepath.Join(out_, "types.go"))
		return code, errb.String(), string(types)
	}

	code, stderr, types := gen(&schema.Locator{Offline: true}, "--ref-map", "https://example.com/defs.json="+local)
	if code != 0 || !strings.Contains(types, "\ntype B struct") {
		t.Fatalf("--ref-map: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(types, "B *B") {
		t.Errorf("A.b is not a *B:\n%s", types)
	}

	code, stderr, _ = gen(&schema.Locator{Offline: true})
	if code != cli.ExitUsage || !strings.Contains(stderr, "--ref-map https://example.com/defs.json=FILE") || !strings.Contains(stderr, "--download-refs") {
		t.Errorf("no map, no flag: exit %d\n%s", code, stderr)
	}
	code, stderr, _ = gen(&schema.Locator{Offline: true, Get: get}, "--download-refs")
	if code != cli.ExitUsage || !strings.Contains(stderr, "MCPGEN_OFFLINE=1") || gets != 0 {
		t.Errorf("offline download: exit %d, %d downloads\n%s", code, gets, stderr)
	}

	cache := filepath.Join(tmp, "cache")
	code, stderr, _ = gen(&schema.Locator{CacheDir: cache, Get: get}, "--download-refs")
	sum := schema.SHA256([]byte(remote))
	if code != 0 || gets != 1 || !strings.Contains(stderr, "mcpgen: downloaded https://example.com/defs.json (sha256 "+sum) {
		t.Fatalf("download: exit %d, %d downloads\n%s", code, gets, stderr)
	}
	if b, err := os.ReadFile(schema.RefCachePath(cache, "https://example.com/defs.json")); err != nil || string(b) != remote {
		t.Errorf("not cached: %v", err)
	}
	code, stderr, _ = gen(&schema.Locator{CacheDir: cache, Get: get}, "--download-refs")
	if code != 0 || gets != 1 || !strings.Contains(stderr, "from the cache") || !strings.Contains(stderr, sum) {
		t.Errorf("cached: exit %d, %d downloads\n%s", code, gets, stderr)
	}
}

// TestUntitledRoot: a root type without a title is named after the
// schema's file, with a warning that says so; --root-name chooses another
// name, and --strict refuses the guess.
func TestUntitledRoot(t *testing.T) {
	tmp := t.TempDir()
	schemaPath := filepath.Join(tmp, "github-workflow.json")
	if err := os.WriteFile(schemaPath, []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"name": {"type": "string"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(extra ...string) (int, string, string) {
		var out, errb bytes.Buffer
		dir := filepath.Join(tmp, "out")
		args := append([]string{"generate", "--revision", "draft", "--schema", schemaPath, "--out", dir}, extra...)
		code := cli.Run(context.Background(), args, cli.Env{Stdout: &out, Stderr: &errb, Locator: &schema.Locator{Offline: true}})
		types, _ := os.ReadFile(filepath.Join(dir, "types.go"))
		return code, errb.String(), string(types)
	}
	code, stderr, types := run()
	want := schemaPath + ": /: warning: the root of the schema is a type with no title: it is named GithubWorkflow, after \"github-workflow.json\" (choose another name with --root-name)\n"
	if code != 0 || !strings.Contains(stderr, want) || !strings.Contains(types, "\ntype GithubWorkflow struct") {
		t.Errorf("exit %d, stderr:\n%s\nwant the line:\n%s", code, stderr, want)
	}
	code, stderr, types = run("--root-name", "Workflow")
	if code != 0 || strings.Contains(stderr, "warning") || !strings.Contains(types, "\ntype Workflow struct") {
		t.Errorf("--root-name: exit %d, stderr:\n%s", code, stderr)
	}
	code, stderr, _ = run("--strict")
	if code != cli.ExitUsage || !strings.Contains(stderr, "it is named GithubWorkflow, after \"github-workflow.json\" (choose another name with --root-name) (error in strict mode)") {
		t.Errorf("--strict: exit %d, stderr:\n%s", code, stderr)
	}
}
