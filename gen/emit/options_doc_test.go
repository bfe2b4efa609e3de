package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestOptionFieldDocs: every field of the option structs of the generated
// packages (generated/*/dispatch.go, as make generate writes them) has a
// doc comment, and ClientOptions speaks of the Client, not of a server's
// Serve or of handler results.
func TestOptionFieldDocs(t *testing.T) {
	files, err := filepath.Glob("../../generated/*/dispatch.go")
	if err != nil || len(files) < 5 {
		t.Fatalf("generated dispatchers: %v %v", files, err)
	}
	structs := 0
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, spec := range g.Specs {
				ts := spec.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if !ok || !strings.HasSuffix(ts.Name.Name, "Options") {
					continue
				}
				structs++
				for _, fl := range st.Fields.List {
					for _, n := range fl.Names {
						doc := fl.Doc.Text()
						if doc == "" {
							t.Errorf("%s: %s.%s has no doc comment", file, ts.Name.Name, n.Name)
						}
						if ts.Name.Name == "ClientOptions" {
							for _, server := range []string{"Serve ", "handler results", "the dispatcher", "tools/call"} {
								if strings.Contains(doc, server) {
									t.Errorf("%s: ClientOptions.%s speaks of %q: %s", file, n.Name, server, doc)
								}
							}
						}
					}
				}
			}
		}
	}
	if structs < 10 {
		t.Errorf("%d option structs, want ServerOptions and ClientOptions of 5 packages", structs)
	}
}
