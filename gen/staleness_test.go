package gen_test

import (
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/internal/textdiff"
	"github.com/mcpgen/mcpgen/schema"
)

// TestGeneratedUpToDate regenerates every pinned revision in memory and
// fails with a diff when the committed generated/ differs (run
// `make generate`).
func TestGeneratedUpToDate(t *testing.T) {
	root := testenv.ModuleRoot(t)
	for _, pin := range schema.Pins {
		t.Run(pin.Revision, func(t *testing.T) {
			data := testenv.Schema(t, pin.Revision)
			if err := pin.Verify(pin.Revision, data); err != nil {
				t.Fatal(err)
			}
			opts := gen.PinnedOptions(pin)
			for _, rev := range gen.PinnedServeOlder[pin.Revision] {
				op := pinOf(t, rev)
				opts.Older = append(opts.Older, gen.Older{File: rev, Data: testenv.Schema(t, rev), Options: gen.PinnedOptions(op)})
			}
			files, _, err := gen.Generate(pin.Revision, data, opts)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(root, "generated", pin.Package())
			for _, name := range files.Names() {
				if strings.HasSuffix(name, ".go") {
					if f, err := format.Source(files[name]); err != nil || string(f) != string(files[name]) {
						t.Errorf("%s is not gofmt's form (%v):\n%s", name, err, textdiff.Unified("generated", "gofmt", string(files[name]), string(f), 2, 30))
					}
				}
				old, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Errorf("generated/%s/%s: %v (run make generate)", pin.Package(), name, err)
					continue
				}
				if d := textdiff.Unified("committed "+name, "regenerated "+name, string(old), string(files[name]), 3, 40); d != "" {
					t.Errorf("generated/%s/%s is stale (run make generate):\n%s", pin.Package(), name, d)
				}
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if files[e.Name()] == nil && !strings.HasSuffix(e.Name(), "_test.go") {
					t.Errorf("generated/%s/%s is not generated any more (run make generate)", pin.Package(), e.Name())
				}
			}
		})
	}
}

// TestKeywordsExampleUpToDate regenerates internal/kwexample (a package
// for a schema that uses the validation keywords beyond the MCP schemas',
// for the allocation test and the benchmark) from its schema.json and
// fails when the committed files differ; -update rewrites them.
func TestKeywordsExampleUpToDate(t *testing.T) {
	dir := filepath.Join(testenv.ModuleRoot(t), "internal", "kwexample")
	data, err := os.ReadFile(filepath.Join(dir, "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	files, warns, err := gen.Generate("schema.json", data, gen.Options{Package: "kwexample", Revision: "kwexample",
		Source: gen.SourceInfo{URL: "internal/kwexample/schema.json", SHA256: schema.SHA256(data)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) > 0 {
		t.Errorf("warnings: %v", warns)
	}
	for _, name := range files.Names() {
		path := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(path, files[name], 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("internal/kwexample/%s: %v (go test ./gen -run TestKeywordsExampleUpToDate -update)", name, err)
			continue
		}
		if d := textdiff.Unified("committed "+name, "regenerated "+name, string(old), string(files[name]), 3, 40); d != "" {
			t.Errorf("internal/kwexample/%s is stale (go test ./gen -run TestKeywordsExampleUpToDate -update):\n%s", name, d)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		n := e.Name()
		if files[n] == nil && !strings.HasSuffix(n, "_test.go") && !strings.HasSuffix(n, ".json") {
			t.Errorf("internal/kwexample/%s is not generated any more", n)
		}
	}
}

// pinOf is the pin of a revision.
func pinOf(t *testing.T, revision string) schema.Pin {
	t.Helper()
	for _, p := range schema.Pins {
		if p.Revision == revision {
			return p
		}
	}
	t.Fatalf("revision %s is not pinned", revision)
	return schema.Pin{}
}
