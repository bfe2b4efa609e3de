package gen

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBuilderDoesNotImportEmit: the builder (every non-test file of
// package gen but generate.go, the pipeline) does not import the
// emitters: what the package declares is IR data it produces
// (ir.RuntimeNames, ir.Package.ReExported), not a question to emit.
func TestBuilderDoesNotImportEmit(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) < 5 {
		t.Fatalf("builder files: %v %v", files, err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "generate.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/mcpgen/mcpgen/gen/emit" {
				t.Errorf("%s imports %s", name, p)
			}
		}
	}
}
