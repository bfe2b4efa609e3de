// Package testenv finds what the tests need: the pinned MCP schemas (embedded
// in mcpgen) and the official examples (under testdata/examples).
package testenv

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/schema"
)

// ModuleRoot returns the directory holding mcpgen's go.mod (also from a
// test of a nested module such as interop/).
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/mcpgen/mcpgen\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("testenv: no go.mod of github.com/mcpgen/mcpgen above the test's directory")
		}
		dir = parent
	}
}

// SchemaDir returns the directory with the pinned <revision>/schema.json
// files: schema/revisions in the module, the copies mcpgen embeds.
func SchemaDir(t testing.TB) string {
	t.Helper()
	return filepath.Join(ModuleRoot(t), "schema", "revisions")
}

// Schema returns the bytes of a pinned revision's schema.json, as mcpgen
// embeds it.
func Schema(t testing.TB, revision string) []byte {
	t.Helper()
	b, ok := schema.Embedded(revision)
	if !ok {
		t.Fatalf("testenv: revision %s is not embedded in mcpgen", revision)
	}
	return b
}

// ExamplesDir returns the directory holding the official examples, as
// <revision>/<Definition>/*.json (testdata/examples in the module).
func ExamplesDir(t testing.TB) string {
	t.Helper()
	return filepath.Join(ModuleRoot(t), "testdata", "examples")
}

// Example is one official example document.
type Example struct {
	Definition string // the folder: the definition it is an instance of
	Name       string // file name
	Data       []byte
}

// Examples returns the official examples of a revision, in a stable order.
// It fails the test when there are none.
func Examples(t testing.TB, revision string) []Example {
	t.Helper()
	root := filepath.Join(ExamplesDir(t), revision)
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatalf("testenv: examples of %s: %v", revision, err)
	}
	var out []Example
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, d.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if filepath.Ext(f.Name()) != ".json" {
				continue
			}
			b, err := os.ReadFile(filepath.Join(root, d.Name(), f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, Example{Definition: d.Name(), Name: f.Name(), Data: b})
		}
	}
	if len(out) == 0 {
		t.Fatalf("testenv: no examples under %s", root)
	}
	return out
}

// A2ASpecDir returns the directory holding the A2A protocol's material
// (a2a.json, specification.md): $MCPGEN_A2A_SPEC_DIR, or shared/a2a-spec
// in the first directory above the module that has one. Those files are
// inputs the repository does not copy; the test is skipped without them,
// unless MCPGEN_A2A_SPEC_DIR is set (as .ci/run sets it): then a missing
// a2a.json fails the test.
func A2ASpecDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("MCPGEN_A2A_SPEC_DIR"); d != "" {
		if _, err := os.Stat(filepath.Join(d, "a2a.json")); err != nil {
			t.Fatalf("testenv: MCPGEN_A2A_SPEC_DIR=%s: %v", d, err)
		}
		return d
	}
	dir := ModuleRoot(t)
	for {
		cand := filepath.Join(dir, "shared", "a2a-spec")
		if _, err := os.Stat(filepath.Join(cand, "a2a.json")); err == nil {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("testenv: the A2A material (a2a.json, specification.md) is not here: set MCPGEN_A2A_SPEC_DIR")
		}
		dir = parent
	}
}

// GoMod returns a go.mod for a module of the tests' making that holds
// generated code: it requires mcpgen (for the runtime packages generated
// code imports) and replaces it with this checkout, so that the build
// needs no network.
func GoMod(t testing.TB, module string) string {
	t.Helper()
	return "module " + module + "\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + ModuleRoot(t) + "\n"
}

// GoFlags is the GOFLAGS of the go commands tests run on modules of their
// making (in temporary directories): -mod=mod, and -trimpath, which keeps
// the directory out of the build cache's keys, so that a package generated
// alike in another temporary directory (the next run, another test) is
// compiled once and then found in the cache.
const GoFlags = "GOFLAGS=-mod=mod -trimpath"

// GoEnv returns the environment of such a go command: this process's, with
// GoFlags and GOWORK=off, then extra.
func GoEnv(extra ...string) []string {
	return append(append(os.Environ(), GoFlags, "GOWORK=off"), extra...)
}
