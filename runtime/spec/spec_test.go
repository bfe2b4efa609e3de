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

// TestOneHome: outside this package, the generator, the runtime and the
// modules beside them (auth, otel, replicas) name the methods, _meta keys,
// headers, members and error codes spec declares by their constants, never
// by a literal of the same value, quoted or raw (a literal inside JSON
// text or a comment is not one).
func TestOneHome(t *testing.T) {
	values := map[string]string{} // value (a string's, or a code's digits) -> constant
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "spec.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				kind := ""
				for _, k := range []string{"Method", "Meta", "Header", "Member", "Code"} {
					if strings.HasPrefix(n.Name, k) {
						kind = k
					}
				}
				if kind == "" || i >= len(vs.Values) {
					continue
				}
				if v, ok := literal(vs.Values[i]); ok {
					values[v] = n.Name
					kinds[kind]++
				}
			}
		}
	}
	for _, k := range []string{"Method", "Meta", "Header", "Member", "Code"} {
		if kinds[k] < 4 {
			t.Fatalf("read %d %s constants from spec.go: %v", kinds[k], k, kinds)
		}
	}
	var found []string
	for _, root := range []string{"..", "../../gen", "../../auth", "../../otel", "../../replicas"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "spec") {
				return filepath.SkipDir // fixtures, and the home itself
			}
			// Tests, and the files linked in from elsewhere (replicas' copy of
			// examples/everything-server), are not checked.
			if d.IsDir() || d.Type()&fs.ModeSymlink != 0 || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				e, ok := n.(ast.Expr)
				if !ok {
					return true
				}
				v, ok := literal(e)
				if !ok {
					return true
				}
				if c, ok := values[v]; ok {
					found = append(found, fset.Position(e.Pos()).String()+": "+v+" is spec."+c)
				}
				return false
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

// literal returns the value of a string literal (quoted or raw), or
// "code " and the value of a negative integer literal (an error code), and
// whether e is one.
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			v, err := strconv.Unquote(e.Value)
			return v, err == nil
		}
	case *ast.UnaryExpr:
		if lit, ok := e.X.(*ast.BasicLit); ok && e.Op == token.SUB && lit.Kind == token.INT {
			return "code -" + lit.Value, true
		}
	}
	return "", false
}
