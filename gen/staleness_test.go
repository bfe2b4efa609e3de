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
				opts.Older = append(opts.Older, gen.Older{File: rev, Data: testenv.Schema(t, rev), Options: gen.PinnedOptions(op),
					ImportPath: "github.com/mcpgen/mcpgen/generated/" + op.Package()})
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
