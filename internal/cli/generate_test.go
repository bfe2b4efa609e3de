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
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

func run(t *testing.T, schemaDir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := cli.Env{Stdout: &out, Stderr: &errb, Locator: &schema.Locator{SchemaDir: schemaDir, Offline: true}}
	code = cli.Run(context.Background(), args, env)
	return code, out.String(), errb.String()
}

// corpusCase is one golden/cli/*.json file (see golden/cli/README.md).
type corpusCase struct {
	Args         []string          `json:"args"`
	Files        map[string]string `json:"files"`
	SchemaDir    string            `json:"schemaDir"`
	Exit         int               `json:"exit"`
	Stderr       *string           `json:"stderr"`
	StderrPrefix string            `json:"stderrPrefix"`
	NoOutput     string            `json:"noOutput"`
}

// TestCLICorpus runs every command line of golden/cli: each must fail with
// its exit status and exact message, and leave no output behind.
func TestCLICorpus(t *testing.T) {
	root := testenv.ModuleRoot(t)
	schemas := testenv.SchemaDir(t)
	paths, _ := filepath.Glob(filepath.Join(root, "golden", "cli", "*.json"))
	if len(paths) < 8 {
		t.Fatalf("only %d cases in golden/cli", len(paths))
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".json"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var c corpusCase
			if err := json.Unmarshal(data, &c); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			tmp := t.TempDir()
			expand := strings.NewReplacer("{{TMP}}", tmp, "{{SCHEMAS}}", schemas).Replace
			for name, content := range c.Files {
				p := filepath.Join(tmp, name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			dir := schemas
			if c.SchemaDir != "" {
				dir = expand(c.SchemaDir)
			}
			var args []string
			for _, a := range c.Args {
				args = append(args, expand(a))
			}
			code, _, stderr := run(t, dir, args...)
			if code != c.Exit {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, c.Exit, stderr)
			}
			switch {
			case c.Stderr != nil:
				if want := expand(*c.Stderr); stderr != want {
					t.Errorf("stderr:\n%q\nwant:\n%q", stderr, want)
				}
			case c.StderrPrefix != "":
				if want := expand(c.StderrPrefix); !strings.HasPrefix(stderr, want) {
					t.Errorf("stderr:\n%q\nwant it to start with:\n%q", stderr, want)
				}
			default:
				t.Fatal("the case has neither stderr nor stderrPrefix")
			}
			if c.NoOutput != "" {
				if _, err := os.Stat(expand(c.NoOutput)); err == nil {
					t.Errorf("%s exists after a failed run", expand(c.NoOutput))
				}
				entries, _ := os.ReadDir(filepath.Dir(expand(c.NoOutput)))
				for _, e := range entries {
					if strings.HasPrefix(e.Name(), ".mcpgen-") {
						t.Errorf("temporary directory %s left behind", e.Name())
					}
				}
			}
		})
	}
}

// TestSchemaErrorsThroughCLI runs each golden/err_* schema through
// `mcpgen generate`: exit 2, the case's error.txt on stderr, nothing
// written.
func TestSchemaErrorsThroughCLI(t *testing.T) {
	root := testenv.ModuleRoot(t)
	cases, _ := filepath.Glob(filepath.Join(root, "golden", "err_*", "schema.json"))
	if len(cases) < 10 {
		t.Fatalf("only %d schema error cases", len(cases))
	}
	for _, path := range cases {
		dir := filepath.Dir(path)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, "error.txt"))
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"generate", "--revision", "draft", "--schema", path, "--out", filepath.Join(t.TempDir(), "out")}
			if _, err := os.Stat(filepath.Join(dir, "case.json")); err == nil {
				args = append(args, "--strict")
			}
			code, _, stderr := run(t, "", args...)
			if code != cli.ExitUsage {
				t.Errorf("exit status %d, want 2", code)
			}
			for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
				line = strings.Replace(line, "schema.json: ", path+": ", 1)
				if !strings.Contains(stderr, line+"\n") {
					t.Errorf("stderr does not contain %q:\n%s", line, stderr)
				}
			}
			if _, err := os.Stat(args[6]); err == nil {
				t.Errorf("output written despite the error")
			}
		})
	}
}

// TestGenerateWriteAndCheck covers the happy path: an unpinned revision
// from --schema (its sha256 is printed), --check on fresh and stale
// output, and a rewrite that removes what mcpgen no longer generates but
// keeps the user's own files.
func TestGenerateWriteAndCheck(t *testing.T) {
	tmp := t.TempDir()
	src := filepath.Join(testenv.ModuleRoot(t), "golden", "struct_fields", "schema.json")
	data, _ := os.ReadFile(src)
	out := filepath.Join(tmp, "pkg")
	args := []string{"generate", "--revision", "next", "--schema", src, "--out", out, "--package", "next"}
	code, _, stderr := run(t, "", args...)
	if code != 0 {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	if want := "mcpgen: revision next is not pinned; " + src + " has sha256 " + schema.SHA256(data); !strings.Contains(stderr, want) {
		t.Errorf("stderr %q does not say the sha256", stderr)
	}
	for _, f := range []string{"types.go", "json.go", "validate.go", "doc.go", "README.md", "runtime.go"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	if code, _, stderr := run(t, "", append(args, "--check")...); code != 0 {
		t.Errorf("--check on fresh output: exit %d\n%s", code, stderr)
	}
	// Make it stale: edit a file, add a stale generated file and a user file.
	os.WriteFile(filepath.Join(out, "types.go"), []byte("// Code generated by mcpgen. DO NOT EDIT.\n\npackage next\n"), 0o644)
	os.WriteFile(filepath.Join(out, "old.go"), []byte("// Code generated by mcpgen. DO NOT EDIT.\n\npackage next\n"), 0o644)
	os.WriteFile(filepath.Join(out, "mine.go"), []byte("package next\n"), 0o644)
	os.Remove(filepath.Join(out, "json.go"))
	code, _, stderr = run(t, "", append(args, "--check")...)
	if code != cli.ExitStale {
		t.Errorf("--check on stale output: exit %d, want 1", code)
	}
	for _, want := range []string{"is stale (3 files differ)", "changed: types.go (+", "missing: json.go", "extra: old.go (generated by mcpgen, no longer produced)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("--check output lacks %q:\n%s", want, stderr)
		}
	}
	if code, _, stderr := run(t, "", args...); code != 0 {
		t.Fatalf("regenerate: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "old.go")); !os.IsNotExist(err) {
		t.Error("a generated file that is no longer produced was kept")
	}
	if _, err := os.Stat(filepath.Join(out, "mine.go")); err != nil {
		t.Error("the user's own file was removed")
	}
	if code, _, stderr := run(t, "", append(args, "--check")...); code != 0 {
		t.Errorf("--check after regenerating: exit %d\n%s", code, stderr)
	}
}

// TestStrictWarnings: a warning is printed with its pointer, and --strict
// turns it into an error.
func TestStrictWarnings(t *testing.T) {
	src := filepath.Join(testenv.ModuleRoot(t), "golden", "warn_unknown_keyword", "schema.json")
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := run(t, "", "generate", "--revision", "x", "--schema", src, "--out", out)
	if code != 0 || !strings.Contains(stderr, src+": /$defs/A/properties/n/minimumValue: warning: unknown keyword \"minimumValue\" is not supported; it is not enforced") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	code, _, stderr = run(t, "", "generate", "--revision", "x", "--schema", src, "--out", out+"2", "--strict")
	if code != cli.ExitUsage || !strings.Contains(stderr, "(error in strict mode)") {
		t.Errorf("--strict: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestGenerateServeOlder: --serve-older (or serveOlder in mcpgen.json)
// gives the package the conversions to each older revision (their
// schemas embedded beside them, no package of theirs written or
// imported), and --check covers them.
func TestGenerateServeOlder(t *testing.T) {
	tmp := t.TempDir()
	cfg := filepath.Join(tmp, "mcpgen.json")
	os.WriteFile(cfg, []byte(`{"serveOlder": ["2025-06-18"]}`), 0o644)
	out := filepath.Join(tmp, "internal", "mcp")
	args := []string{"generate", "--revision", "2026-07-28", "--out", out, "--package", "mcp", "--config", cfg}
	if code, _, stderr := run(t, "", args...); code != 0 {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	conv, err := os.ReadFile(filepath.Join(out, "older_mcp20250618.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(conv), "//go:embed older_mcp20250618.json") || !strings.Contains(string(conv), "var Older20250618 = ") || strings.Contains(string(conv), "mcp20250618\"") {
		t.Errorf("older_mcp20250618.go does not embed the older schema, or imports a package of it:\n%.600s", conv)
	}
	if b, err := os.ReadFile(filepath.Join(out, "older_mcp20250618.json")); err != nil || !json.Valid(b) {
		t.Errorf("older_mcp20250618.json: %v", err)
	}
	for _, f := range []string{"older_mcp20251125.go", "mcp20250618"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s: written, not asked for", f)
		}
	}
	if code, _, stderr := run(t, "", append(args, "--check")...); code != 0 {
		t.Errorf("--check: exit %d\n%s", code, stderr)
	}
	// The flag takes precedence over the config: 2025-11-25 is missing.
	code, _, stderr := run(t, "", append(args, "--check", "--serve-older", "2025-11-25,2025-06-18")...)
	if code != cli.ExitStale || !strings.Contains(stderr, "missing: older_mcp20251125.go") || !strings.Contains(stderr, "missing: older_mcp20251125.json") {
		t.Errorf("--check with another revision: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := run(t, "", append(args, "--serve-older", "2025-11-25,2025-06-18")...); code != 0 {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	for _, f := range []string{"older_mcp20251125.go", "older_mcp20251125.json", "older_mcp20250618.go", "older.go"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestGenerateServeOlderDefault: a pinned revision without an initialize
// handshake serves the older revisions PinnedServeOlder names unless
// --newest-only says not to, and its doc.go says which it serves.
func TestGenerateServeOlderDefault(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "mcp")
	args := []string{"generate", "--revision", "2026-07-28", "--out", out, "--package", "mcp"}
	if code, _, stderr := run(t, "", args...); code != 0 {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	for _, f := range []string{"older_mcp20251125.go", "older_mcp20250618.go", "older_mcp20250326.go"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("by default: %v", err)
		}
	}
	doc, _ := os.ReadFile(filepath.Join(out, "doc.go"))
	if !strings.Contains(string(doc), "// Revisions served: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26.") {
		t.Errorf("doc.go does not say the revisions it serves:\n%.900s", doc)
	}
	if !strings.Contains(string(doc), "\n//\tmcpgen generate --revision 2026-07-28 --out "+out+" --package mcp\n") {
		t.Errorf("doc.go's command is not the one given:\n%s", doc)
	}
	if code, _, stderr := run(t, "", append(args, "--check")...); code != 0 {
		t.Errorf("--check: exit %d\n%s", code, stderr)
	}

	newest := filepath.Join(tmp, "newest")
	if code, _, stderr := run(t, "", "generate", "--revision", "2026-07-28", "--out", newest, "--package", "mcp", "--newest-only"); code != 0 {
		t.Fatalf("--newest-only: exit %d\n%s", code, stderr)
	}
	if m, _ := filepath.Glob(filepath.Join(newest, "older*")); len(m) > 0 {
		t.Errorf("--newest-only wrote %v", m)
	}
	doc, _ = os.ReadFile(filepath.Join(newest, "doc.go"))
	if !strings.Contains(string(doc), "// Revisions served: 2026-07-28 (no conversions to the messages of older") || !strings.Contains(string(doc), "--package mcp --newest-only\n") {
		t.Errorf("--newest-only: doc.go:\n%.900s", doc)
	}

	code, _, stderr := run(t, "", "generate", "--revision", "2026-07-28", "--out", newest, "--newest-only", "--serve-older", "2025-11-25")
	if code != cli.ExitUsage || !strings.Contains(stderr, "--newest-only and --serve-older contradict each other") {
		t.Errorf("--newest-only with --serve-older: exit %d\n%s", code, stderr)
	}
}

// TestGenerateProtocolVersion: the --revision name names the package; the
// protocolVersion the package speaks is --protocol-version, and when it is
// not given for a name that is not a date, generate says what it assumed.
func TestGenerateProtocolVersion(t *testing.T) {
	data, ok := schema.Embedded("2026-07-28")
	if !ok {
		t.Fatal("no embedded 2026-07-28")
	}
	dir := t.TempDir()
	draft := filepath.Join(dir, "draft.json")
	if err := os.WriteFile(draft, data, 0o644); err != nil {
		t.Fatal(err)
	}
	constant := func(out string) string {
		b, err := os.ReadFile(filepath.Join(out, "doc.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "const ProtocolVersion = ") {
				return strings.TrimPrefix(line, "const ProtocolVersion = ")
			}
		}
		t.Fatalf("no ProtocolVersion constant in %s/doc.go", out)
		return ""
	}
	out := filepath.Join(dir, "a")
	code, _, stderr := run(t, "", "generate", "--revision", "draft-next", "--schema", draft, "--out", out, "--protocol-version", "DRAFT-2027-v1")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := constant(out); got != `"DRAFT-2027-v1"` {
		t.Errorf("ProtocolVersion = %s, want the --protocol-version", got)
	}
	if strings.Contains(stderr, "not a date") {
		t.Errorf("a warning although --protocol-version was given: %s", stderr)
	}
	out = filepath.Join(dir, "b")
	code, _, stderr = run(t, "", "generate", "--revision", "draft-next", "--schema", draft, "--out", out)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := `mcpgen: warning: revision "draft-next" is not a date; the package announces and accepts protocolVersion "draft-next" (give the version the schema speaks with --protocol-version)`; !strings.Contains(stderr, want) {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
	if got := constant(out); got != `"draft-next"` {
		t.Errorf("ProtocolVersion = %s without --protocol-version", got)
	}
	code, _, stderr = run(t, "", "generate", "--revision", "2026-07-28", "--schema", draft, "--out", filepath.Join(dir, "c"))
	if code != cli.ExitOK || strings.Contains(stderr, "not a date") {
		t.Errorf("a dated revision: exit %d, stderr %s", code, stderr)
	}
}

// TestGenerateCanonicalPaths: the paths doc.go and README record are
// cleaned and relative to the module root, so --check passes whichever
// spelling of the same paths it is given.
func TestGenerateCanonicalPaths(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(t), "golden", "dispatcher", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for name, b := range map[string][]byte{"go.mod": []byte("module example.com/m\n\ngo 1.26\n"), "schemas/s.json": data} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	code, _, stderr := run(t, "", "generate", "--revision", "2020-01-01", "--schema", "./schemas/../schemas/s.json", "--out", "./pkg/x/")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	doc, err := os.ReadFile(filepath.Join(root, "pkg", "x", "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "--schema schemas/s.json --out pkg/x ") || strings.Contains(string(doc), "./") {
		t.Errorf("doc.go does not record the canonical paths:\n%s", doc)
	}
	// The same paths typed otherwise, from another directory of the module.
	t.Chdir(filepath.Join(root, "sub"))
	code, _, stderr = run(t, "", "generate", "--revision", "2020-01-01", "--schema", filepath.Join(root, "schemas", "s.json"), "--out", "../pkg/x", "--check")
	if code != cli.ExitOK {
		t.Errorf("--check with other spellings of the paths: exit %d: %s", code, stderr)
	}
}
