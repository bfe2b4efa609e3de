package gen

import (
	"go/ast"
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
// (ir.RuntimeNames, ir.Package.ReExported), not a question to emit. Nor
// does it load a document or build another package's IR: the pipeline
// loads every document up front and builds the older revisions first
// (loadOlder), so no builder file calls schema.LoadWith, schema.Load,
// Build or build.
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
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				if fn.Name == "Build" || fn.Name == "build" {
					t.Errorf("%s: %s calls %s", fset.Position(call.Pos()), name, fn.Name)
				}
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == "schema" && (fn.Sel.Name == "LoadWith" || fn.Sel.Name == "Load") {
					t.Errorf("%s: %s calls schema.%s", fset.Position(call.Pos()), name, fn.Sel.Name)
				}
			}
			return true
		})
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/mcpgen/mcpgen/gen/emit" {
				t.Errorf("%s imports %s", name, p)
			}
		}
	}
}
