package cli

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

// fakeCheckout makes a directory that mcpgen pin takes for a checkout of
// mcpgen: its go.mod and pin list, and the places pin writes to.
func fakeCheckout(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	pins, err := fs.ReadFile(schema.EmbeddedFS(), schema.PinsFile)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"go.mod":                     []byte("module " + modulePath + "\n\ngo 1.26\n"),
		"schema/revisions/pins.json": pins,
		"internal/cli/keep":          nil,
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func runIn(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, Env{Stdout: &out, Stderr: &errb, Locator: &schema.Locator{Offline: true}})
	return code, out.String(), errb.String()
}

// TestPinRecords pins a revision without regenerating: the schema is
// copied, the pin recorded in order, validate's registry lists the new
// package, and pinning again is a no-op or, with other bytes, an error.
func TestPinRecords(t *testing.T) {
	root := fakeCheckout(t)
	src := filepath.Join(testenv.ModuleRoot(t), "golden", "dispatcher", "schema.json")
	other := filepath.Join(testenv.ModuleRoot(t), "golden", "enums", "schema.json")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runIn(t, root, "pin", "--revision", "2025-01-01", "--schema", src, "--no-generate", "--protocol-version", "DRAFT-v1")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// A local file is recorded by its name and sha256, never a URL.
	if !strings.Contains(stdout, "mcpgen: pinned 2025-01-01 (sha256 "+schema.SHA256(data)+", file schema.json)") {
		t.Errorf("stdout: %q", stdout)
	}
	copied, err := os.ReadFile(filepath.Join(root, "schema", "revisions", "2025-01-01", "schema.json"))
	if err != nil || !bytes.Equal(copied, data) {
		t.Errorf("the schema was not copied byte for byte: %v", err)
	}
	raw, _ := os.ReadFile(filepath.Join(root, "schema", "revisions", "pins.json"))
	pins, err := schema.ParsePins(raw)
	if err != nil {
		t.Fatal(err)
	}
	var revs []string
	for _, p := range pins {
		revs = append(revs, p.Revision)
		if p.Revision == "2025-01-01" && (p.URL != "" || p.File != "schema.json" || p.SHA256 != schema.SHA256(data) || p.ProtocolVersion != "DRAFT-v1") {
			t.Errorf("recorded %+v, want the file's name and sha256 and the protocol version, no URL", p)
		}
	}
	if want := "2024-11-05 2025-01-01 2025-03-26 2025-06-18 2025-11-25 2026-07-28"; strings.Join(revs, " ") != want {
		t.Errorf("pins %v, want %s", revs, want)
	}
	// Only the schema and the pin are written: nothing of mcpgen's code
	// lists the revisions, so --no-generate leaves a checkout that builds.
	var written []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			written = append(written, filepath.ToSlash(rel))
		}
		return nil
	})
	if want := "go.mod internal/cli/keep schema/revisions/2025-01-01/schema.json schema/revisions/pins.json"; strings.Join(written, " ") != want {
		t.Errorf("files after pin --no-generate: %v, want %s", written, want)
	}

	if code, stdout, _ := runIn(t, root, "pin", "--revision", "2025-01-01", "--schema", src); code != ExitOK || !strings.Contains(stdout, "is already pinned") {
		t.Errorf("pinning the same bytes again: exit %d, %q", code, stdout)
	}
	if code, _, stderr := runIn(t, root, "pin", "--revision", "2025-01-01", "--schema", other); code != ExitUsage || !strings.Contains(stderr, "is already pinned with sha256 "+schema.SHA256(data)) {
		t.Errorf("pinning other bytes: exit %d, %q", code, stderr)
	}
}

func TestPinErrors(t *testing.T) {
	root := fakeCheckout(t)
	bad := filepath.Join(root, "bad.json")
	os.WriteFile(bad, []byte(`{"$defs": {"A": {"type": "strin"}}}`), 0o644)
	before, _ := os.ReadFile(filepath.Join(root, "schema", "revisions", "pins.json"))
	for _, c := range []struct {
		dir  string
		args []string
		want string
	}{
		{root, []string{"pin", "--schema", bad}, "mcpgen: pin needs --revision"},
		{root, []string{"pin", "--revision", "2099-01-01"}, "mcpgen: pin needs --schema PATH|URL"},
		{root, []string{"pin", "--revision", "../x", "--schema", bad}, `mcpgen: --revision "../x" is not a valid revision name`},
		{root, []string{"pin", "--revision", "2099-01-01", "--schema", bad}, bad + ": /$defs/A/type: not a valid draft 2020-12 schema"},
		{t.TempDir(), []string{"pin", "--revision", "2099-01-01", "--schema", bad}, "mcpgen pin works in a checkout of github.com/mcpgen/mcpgen; there is no go.mod above"},
	} {
		code, _, stderr := runIn(t, c.dir, c.args...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, stderr, c.want)
		}
	}
	after, _ := os.ReadFile(filepath.Join(root, "schema", "revisions", "pins.json"))
	if !bytes.Equal(before, after) {
		t.Error("a failed pin changed pins.json")
	}
	if _, err := os.Stat(filepath.Join(root, "schema", "revisions", "2099-01-01")); !os.IsNotExist(err) {
		t.Errorf("a failed pin wrote the schema: %v", err)
	}
}
