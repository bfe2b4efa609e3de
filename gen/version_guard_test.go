package gen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/runtime/codec"
)

// TestVersionGuard: a generated package names the runtime API version it
// was generated for, compiles with this runtime, and fails to compile,
// with an error that names both versions and the fix, when it names
// another (as code from an older or newer mcpgen does).
func TestVersionGuard(t *testing.T) {
	files, _, err := gen.Generate("guard.json", []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"Point":{"type":"object","properties":{"x":{"type":"integer"}}}}}`), gen.Options{Package: "guard", Revision: "guard"})
	if err != nil {
		t.Fatal(err)
	}
	current := codec.VersionGuardField(codec.APIVersion)
	if !strings.Contains(string(files["doc.go"]), current) {
		t.Fatalf("doc.go does not name the runtime API version %d (%s):\n%s", codec.APIVersion, current, files["doc.go"])
	}
	for _, tc := range []struct {
		name    string
		version int
		ok      bool
	}{
		{"current", codec.APIVersion, true},
		{"newer", codec.APIVersion + 1, false},
		{"older", codec.APIVersion - 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(testenv.GoMod(t, "guard.test")), 0o644); err != nil {
				t.Fatal(err)
			}
			pkg := filepath.Join(dir, "guard")
			if err := os.Mkdir(pkg, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, b := range files {
				if !strings.HasSuffix(name, ".go") {
					continue
				}
				src := strings.ReplaceAll(string(b), current, codec.VersionGuardField(tc.version))
				if !tc.ok && name == "types.go" {
					// Code of another API calls what this runtime lacks.
					src += "\nfunc init() { codec.SomethingThisRuntimeLacks() }\n"
				}
				if err := os.WriteFile(filepath.Join(pkg, name), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("go", "build", "./...")
			cmd.Dir = dir
			cmd.Env = testenv.GoEnv()
			out, err := cmd.CombinedOutput()
			if tc.ok {
				if err != nil {
					t.Fatalf("the package generated for this runtime does not compile: %v\n%s", err, out)
				}
				return
			}
			if err == nil {
				t.Fatalf("a package generated for runtime API v%d compiles with v%d", tc.version, codec.APIVersion)
			}
			for _, want := range []string{codec.VersionGuardField(tc.version), current, "does not satisfy"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("the compile error does not name %s:\n%s", want, out)
				}
			}
			// The first error is the guard's, before what the code calls
			// that the runtime lacks.
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(lines) < 2 || !strings.Contains(lines[1], "does not satisfy") {
				t.Errorf("the first error is not the version guard's:\n%s", out)
			}
		})
	}
}
