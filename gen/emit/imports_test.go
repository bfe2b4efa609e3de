package emit

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"testing"
)

// TestEmittersReadOnlyTheIR: the emitters import neither the schema model
// nor the builder, so everything they know comes through package ir.
func TestEmittersReadOnlyTheIR(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) < 5 {
		t.Fatalf("emitter files: %v %v", files, err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			switch path {
			case "github.com/mcpgen/mcpgen/schema", "github.com/mcpgen/mcpgen/gen":
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
