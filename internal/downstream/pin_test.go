package downstream

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// TestPinNewRevision adopts a new revision in a copy of this repository
// with the one command the README gives, `mcpgen pin`, and checks that the
// result builds, embeds the revision, and validates documents with its
// freshly generated package.
func TestPinNewRevision(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a copy of the module")
	}
	root := testenv.ModuleRoot(t)
	dir := t.TempDir()
	skip := map[string]bool{".git": true, "testdata": true, "golden": true, "bench": true, "interop": true,
		"examples": true, "conformance": true, "node_modules": true}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if skip[rel] || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MCPGEN_SCHEMA_DIR=") {
			env = append(env, kv)
		}
	}
	env = append(env, "GOWORK=off", testenv.GoFlags, "GOPROXY=off", "MCPGEN_OFFLINE=1")
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	src := filepath.Join(root, "golden", "dispatcher", "schema.json")
	// The bootstrap tag (as make generate uses) saves compiling the five
	// generated packages that pin is about to regenerate anyway.
	out := run("go", "run", "./internal/cmd/mcpgen-generate", "pin", "--revision", "2099-01-01", "--schema", src)
	if !strings.Contains(out, "mcpgen: wrote generated/mcp20990101; review the changes with: go run ./cmd/mcpgen diff --from 2026-07-28 --to 2099-01-01") {
		t.Errorf("pin printed:\n%s", out)
	}
	for _, f := range []string{"schema/revisions/2099-01-01/schema.json", "generated/mcp20990101/types.go", "generated/mcp20990101/dispatch.go"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("pin did not write %s", f)
		}
	}
	// The full mcpgen, whose validate now imports the new package.
	run("go", "build", "-o", "mcpgen.bin", "./cmd/mcpgen")
	bin := filepath.Join(dir, "mcpgen.bin")
	if out := run(bin, "revisions"); !strings.Contains(out, "2099-01-01  mcp20990101  embedded") {
		t.Errorf("revisions:\n%s", out)
	}
	doc := filepath.Join(dir, "echo.json")
	os.WriteFile(doc, []byte(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"_meta":{}}}`), 0o644)
	cmd := exec.Command(bin, "validate", "--revision", "2099-01-01", "--type", "EchoRequest", doc)
	cmd.Dir, cmd.Env = dir, env
	b, err := cmd.CombinedOutput()
	if err != nil && !strings.Contains(string(b), "not valid EchoRequest (revision 2099-01-01)") {
		t.Errorf("validate with the new revision's package: %v\n%s", err, b)
	}
	// The regenerated tree is what generate --all --check expects.
	run(bin, "generate", "--all", "--check")
}
