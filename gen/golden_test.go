package gen_test

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/internal/textdiff"
	"github.com/mcpgen/mcpgen/schema"
)

var update = flag.Bool("update", false, "rewrite the expected files under golden/")

// goldenFiles are the generated files a golden case pins. They are kept as
// <name>.golden so that the go tool does not compile them.
var goldenFiles = []string{"doc.go", "types.go", "json.go", "validate.go", "dispatch.go", "client.go", "calls.go", "tools.go", "runtime.go"}

// olderRevision is the revision of a golden case's older schema
// (golden/<case>/older.json): the case's package gets the conversions to
// and from it, as with mcpgen generate --serve-older.
const olderRevision = "2020-01-01"

// caseOptions is golden/<case>/case.json (optional).
type caseOptions struct {
	Strict   bool        `json:"strict"`
	RootName string      `json:"rootName"`
	Formats  gen.Formats `json:"formats"`
	// RefMap gives local copies of remote documents (--ref-map), paths
	// relative to the case's directory.
	RefMap map[string]string `json:"refMap"`
}

// TestGolden generates each golden/<case>/schema.json and compares the
// result with the files next to it: the Go files for a schema that
// generates, error.txt for one that must fail, warnings.txt for the
// warnings. `go test ./gen -update` rewrites them. A case with older.json
// also gets the conversions to and from that older schema (older*.go and
// the reduced schema they embed, older_*.json);
// a case with behaviour_test.go.txt runs it as a test of its package.
// Under -short every case is generated and compared, and one slice of the
// cases (testenv.Sample: an eighth unless MCPGEN_SAMPLE says otherwise)
// is compiled, vetted and has its behaviour test run.
func TestGolden(t *testing.T) {
	sample := testenv.Sample(t)
	cases, err := filepath.Glob("../golden/*/schema.json")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden cases under ../golden: %v", err)
	}
	compiled := t.TempDir()
	positive, compiledCases := 0, 0
	var behaviour []string // packages with a behaviour test
	for _, path := range cases {
		dir := filepath.Dir(path)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var opts caseOptions
			if b, err := os.ReadFile(filepath.Join(dir, "case.json")); err == nil {
				if err := json.Unmarshal(b, &opts); err != nil {
					t.Fatalf("case.json: %v", err)
				}
			}
			pkg := "golden" + strings.ReplaceAll(name, "_", "")
			gopts := gen.Options{Package: pkg, Revision: "golden", Source: gen.SourceInfo{URL: "golden/" + name + "/schema.json", SHA256: schema.SHA256(data)}, Strict: opts.Strict, RootName: opts.RootName, Formats: opts.Formats}
			// Other files are read beside the schema (docs/references.md).
			gopts.Refs = schema.RefOptions{Dir: dir}
			for k, v := range opts.RefMap {
				if gopts.Refs.Map == nil {
					gopts.Refs.Map = map[string]string{}
				}
				gopts.Refs.Map[k] = filepath.Join(dir, v)
			}
			olderPkg := schema.PackageName(olderRevision)
			if odata, err := os.ReadFile(filepath.Join(dir, "older.json")); err == nil {
				oopts := gen.Options{Package: olderPkg, Revision: olderRevision, Source: gen.SourceInfo{URL: "golden/" + name + "/older.json", SHA256: schema.SHA256(odata)}}
				gopts.Older = []gen.Older{{File: "older.json", Data: odata, Options: oopts}}
			}
			files, warns, err := gen.Generate("schema.json", data, gopts)
			var wtext []string
			for _, w := range warns {
				wtext = append(wtext, w.Error())
			}
			check(t, dir, "warnings.txt", strings.Join(wtext, "\n"))
			if err != nil {
				check(t, dir, "error.txt", err.Error())
				for _, f := range goldenFiles {
					if _, err := os.Stat(filepath.Join(dir, f+".golden")); err == nil {
						t.Errorf("%s exists but the case fails to generate", f)
					}
				}
				return
			}
			if _, err := os.Stat(filepath.Join(dir, "error.txt")); err == nil && !*update {
				t.Errorf("error.txt expects a failure, but generation succeeded")
			}
			if *update {
				os.Remove(filepath.Join(dir, "error.txt"))
			}
			for _, f := range append(goldenFiles, "older.go", "older_"+olderPkg+".go", "older_"+olderPkg+".json") {
				check(t, dir, f+".golden", string(files[f])) // "" (no file) when not generated
			}
			positive++
			if !sample.Keep(name) {
				return
			}
			compiledCases++
			out := filepath.Join(compiled, pkg)
			writeGo(t, out, files)
			if b, err := os.ReadFile(filepath.Join(dir, "behaviour_test.go.txt")); err == nil {
				if err := os.WriteFile(filepath.Join(out, "behaviour_test.go"), b, 0o644); err != nil {
					t.Fatal(err)
				}
				behaviour = append(behaviour, "./"+pkg)
			}
		})
	}
	if positive == 0 {
		if f := flag.Lookup("test.run"); f != nil && f.Value.String() != "" {
			return // a -run filter picked only failing cases
		}
		t.Fatal("no golden case generates code")
	}
	if compiledCases == 0 {
		return // -short, and the slice holds no case that generates
	}
	// Everything generated must compile and pass go vet.
	if err := os.WriteFile(filepath.Join(compiled, "go.mod"), []byte(testenv.GoMod(t, "golden.test")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = compiled
	cmd.Env = testenv.GoEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generated golden packages do not pass go vet: %v\n%s", err, out)
	}
	if len(behaviour) > 0 {
		cmd := exec.Command("go", append([]string{"test", "-count=1"}, behaviour...)...)
		cmd.Dir = compiled
		cmd.Env = testenv.GoEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("behaviour tests of golden packages fail: %v\n%s", err, out)
		}
	}
}

// writeGo writes the Go files of a generated package into dir.
func writeGo(t *testing.T, dir string, files gen.Files) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for n, b := range files {
		if strings.HasSuffix(n, ".go") || strings.HasSuffix(n, ".json") {
			if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// check compares got with dir/name, or rewrites it under -update. An
// empty got means the file must not exist.
func check(t *testing.T, dir, name, got string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if *update {
		if got == "" {
			os.Remove(path)
			return
		}
		if !strings.HasSuffix(got, "\n") {
			got += "\n"
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		if got != "" {
			t.Errorf("%s: missing; the generator produced:\n%s\n(run go test ./gen -update)", path, got)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if got != "" && !strings.HasSuffix(got, "\n") {
		got += "\n"
	}
	if d := textdiff.Unified(path, "generated", string(want), got, 3, 60); d != "" {
		t.Errorf("%s differs (run go test ./gen -update if the change is intended):\n%s", path, d)
	}
}
