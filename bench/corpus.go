// Package bench measures mcpgen's generated code against encoding/json, two
// JSON Schema validators and the types of two MCP SDKs, on the official
// 2026-07-28 examples, and measures the generator itself. It is a module of
// its own so that the SDKs and validators it compares with are its
// dependencies, not mcpgen's.
//
// The schemas are the copies mcpgen embeds, and the examples are read at
// run time from mcpgen's testdata/examples; nothing of them is copied into
// this module.
package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/mcpgen/mcpgen/schema"
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
			return "", errors.New("bench: no go.mod of github.com/mcpgen/mcpgen/bench above the working directory")
		}
		dir = parent
	}
}

func containsModuleLine(gomod []byte) bool {
	return bytes.Contains(gomod, []byte("module github.com/mcpgen/mcpgen/bench\n"))
}

// Schema returns the bytes of a pinned revision's schema.json, the copy
// mcpgen embeds.
func Schema(revision string) ([]byte, error) {
	b, ok := schema.Embedded(revision)
	if !ok {
		return nil, fmt.Errorf("bench: revision %s is not embedded in mcpgen", revision)
	}
	return b, nil
}

// Corpus returns the official examples of Revision (mcpgen's
// testdata/examples), sorted by ID.
func Corpus() ([]Example, error) {
	top, err := topLevel()
	if err != nil {
		return nil, err
	}
	root := filepath.Join(top, "testdata", "examples", Revision)
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
