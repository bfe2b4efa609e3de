// Package testenv finds what the tests need outside the repository: the
// upstream MCP schemas and examples.
package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// ModuleRoot returns the directory holding go.mod.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("testenv: no go.mod above the test's directory")
		}
		dir = parent
	}
}

// SchemaDir returns the directory with <revision>/schema.json files:
// $MCPGEN_SCHEMA_DIR, or ../shared/mcp-spec/schema next to the module. The
// test fails (it does not skip) when there is none: CI must have them.
func SchemaDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("MCPGEN_SCHEMA_DIR")
	if dir == "" {
		dir = filepath.Join(ModuleRoot(t), "..", "shared", "mcp-spec", "schema")
	} else if !filepath.IsAbs(dir) {
		// Relative to the module root, as the Makefile and .ci/run set it.
		dir = filepath.Join(ModuleRoot(t), dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "2026-07-28", "schema.json")); err != nil {
		t.Fatalf("testenv: the MCP schemas are not in %s (set MCPGEN_SCHEMA_DIR to the directory holding <revision>/schema.json): %v", dir, err)
	}
	return dir
}

// Schema returns the bytes of a revision's schema.json.
func Schema(t testing.TB, revision string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(SchemaDir(t), revision, "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
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
	root := filepath.Join(SchemaDir(t), revision, "examples")
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
