// Package bench measures mcpgen's generated code against encoding/json, two
// JSON Schema validators and the types of two MCP SDKs, on the official
// 2026-07-28 examples, and measures the generator itself. It is a module of
// its own so that the SDKs and validators it compares with are its
// dependencies, not mcpgen's.
//
// The examples and schemas are read at run time from $MCPGEN_SCHEMA_DIR
// (the directory holding <revision>/schema.json); nothing of them is copied
// into this module.
package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Revision is the revision whose examples make the corpus.
const Revision = "2026-07-28"

// Revisions are the five revisions the generator benchmark generates.
var Revisions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// Example is one official example: the definition it is an instance of
// (its folder) and its bytes.
type Example struct {
	Definition string
	Name       string
	Data       []byte
}

// ID names the example as Definition/file.json.
func (e Example) ID() string { return e.Definition + "/" + e.Name }

// SchemaDir returns $MCPGEN_SCHEMA_DIR. A relative value is taken relative
// to the top-level mcpgen module (the parent of this module), as the
// top-level Makefile sets it. It fails when the variable is unset or does
// not hold <Revision>/schema.json.
func SchemaDir() (string, error) {
	dir := os.Getenv("MCPGEN_SCHEMA_DIR")
	if dir == "" {
		return "", errors.New("bench: MCPGEN_SCHEMA_DIR is not set; set it to the directory holding <revision>/schema.json (e.g. .../mcp-spec/schema)")
	}
	if !filepath.IsAbs(dir) {
		root, err := topLevel()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(root, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, Revision, "schema.json")); err != nil {
		return "", fmt.Errorf("bench: MCPGEN_SCHEMA_DIR=%s does not hold %s/schema.json: %w", dir, Revision, err)
	}
	return dir, nil
}

// topLevel finds this module's go.mod above the working directory and
// returns the directory above it (the mcpgen module).
func topLevel() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && containsModuleLine(b) {
			return filepath.Dir(dir), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("bench: cannot resolve a relative MCPGEN_SCHEMA_DIR: no bench go.mod above the working directory")
		}
		dir = parent
	}
}

func containsModuleLine(gomod []byte) bool {
	return bytes.Contains(gomod, []byte("module github.com/mcpgen/mcpgen/bench\n"))
}

// Schema returns the bytes of a revision's schema.json.
func Schema(revision string) ([]byte, error) {
	dir, err := SchemaDir()
	if err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(dir, revision, "schema.json"))
}

// Corpus returns the official examples of Revision, sorted by ID.
func Corpus() ([]Example, error) {
	dir, err := SchemaDir()
	if err != nil {
		return nil, err
	}
	root := filepath.Join(dir, Revision, "examples")
	files, err := filepath.Glob(filepath.Join(root, "*", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("bench: no examples under %s", root)
	}
	sort.Strings(files)
	out := make([]Example, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, Example{Definition: filepath.Base(filepath.Dir(f)), Name: filepath.Base(f), Data: b})
	}
	return out, nil
}

// Size returns the total bytes of examples.
func Size(examples []Example) int {
	n := 0
	for _, e := range examples {
		n += len(e.Data)
	}
	return n
}
