package spec_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/spec"
)

func TestOf(t *testing.T) {
	for _, c := range []struct {
		version   string
		handshake bool
		want      spec.Revision
	}{
		{"2025-03-26", true, spec.Revision{Version: "2025-03-26", Handshake: true, Batches: true, ProgressMessage: true}},
		{"2024-11-05", true, spec.Revision{Version: "2024-11-05", Handshake: true, HTTPWithSSE: true}},
		{"", true, spec.Revision{Handshake: true}},
		// Unknown versions behave as the newest of their kind.
		{"2026-01-01", true, spec.Revision{Version: "2026-01-01", Handshake: true, ProgressMessage: true, PrimingEvents: true}},
		{"2027-01-01", false, spec.Revision{Version: "2027-01-01", ProgressMessage: true, PrimingEvents: true}},
	} {
		if got := spec.Of(c.version, c.handshake); got != c.want {
			t.Errorf("Of(%q, %v) = %+v, want %+v", c.version, c.handshake, got, c.want)
		}
	}
}

// TestOneHome: outside this package, the generator and the runtime name
// the methods, _meta keys and headers spec declares by their constants,
// never by a string literal of the same value (a literal inside JSON text
// or a comment is not one).
func TestOneHome(t *testing.T) {
	values := map[string]string{} // value -> constant
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "spec.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if !strings.HasPrefix(n.Name, "Method") && !strings.HasPrefix(n.Name, "Meta") && !strings.HasPrefix(n.Name, "Header") {
					continue
				}
				if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ := strconv.Unquote(lit.Value)
						values[v] = n.Name
					}
				}
			}
		}
	}
	if len(values) < 30 {
		t.Fatalf("read %d constants from spec.go", len(values))
	}
	var found []string
	for _, root := range []string{"..", "../../gen"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "spec") {
				return filepath.SkipDir // fixtures, and the home itself
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING || lit.Value[0] == '`' {
					return true
				}
				v, _ := strconv.Unquote(lit.Value)
				if c, ok := values[v]; ok {
					found = append(found, fset.Position(lit.Pos()).String()+": "+lit.Value+" is spec."+c)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range found {
		t.Error(f)
	}
}
