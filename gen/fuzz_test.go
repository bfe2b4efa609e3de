package gen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

// fuzzSeeds adds the golden schemas and the smallest MCP schema to a fuzz
// corpus.
func fuzzSeeds(f *testing.F) {
	paths, _ := filepath.Glob("../golden/*/schema.json")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	if b, ok := schema.Embedded("2024-11-05"); ok {
		f.Add(b)
	}
	f.Add([]byte(`{"$defs":{"A":{"$ref":"#/$defs/A"}}}`))
	f.Add([]byte(`{"$defs":{"A":{"allOf":[{"$ref":"#/$defs/B"}]},"B":{"allOf":[{"$ref":"#/$defs/A"}]}}}`))
	f.Add([]byte(`{"definitions":{"A":{"type":["object","null"],"properties":{"a":{"anyOf":[{"type":"array"},{"type":"array","items":{"const":1}}]}}}}}`))
}

// FuzzLoad feeds arbitrary bytes to the schema loader: it returns a
// document or an error, and never panics or hangs.
func FuzzLoad(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := schema.Load("fuzz.json", data)
		if err == nil && doc == nil {
			t.Fatal("no document and no error")
		}
		if err != nil && err.Error() == "" {
			t.Fatal("an empty error message")
		}
	})
}

// FuzzGenerate runs the whole generate path on arbitrary bytes: either an
// error, or a package that type-checks (go/types, with the standard
// library's export data): no uncompilable output, whatever the schema.
func FuzzGenerate(f *testing.F) {
	fuzzSeeds(f)
	imp, err := testenv.Importer() // shared: it caches the packages it loaded
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		files, _, err := gen.Generate("fuzz.json", data, gen.Options{Package: "fuzz", Revision: "fuzz"})
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error message")
			}
			return
		}
		fset := token.NewFileSet()
		var parsed []*ast.File
		for _, name := range files.Names() {
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			af, err := parser.ParseFile(fset, name, files[name], parser.SkipObjectResolution)
			if err != nil {
				t.Fatalf("%s does not parse: %v\nschema: %s", name, err, data)
			}
			if !strings.HasPrefix(string(files[name]), "// "+gen.Header+"\n") {
				t.Fatalf("%s lacks the generated-code header", name)
			}
			parsed = append(parsed, af)
		}
		conf := types.Config{Importer: imp}
		if _, err := conf.Check("fuzz", fset, parsed, nil); err != nil {
			t.Fatalf("the generated package does not type-check: %v\nschema: %s", err, data)
		}
	})
}
