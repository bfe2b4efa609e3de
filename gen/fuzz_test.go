package gen_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/schema"
)

// fuzzSeeds adds the golden schemas (and, with MCPGEN_SCHEMA_DIR set, the
// smallest MCP schema) to a fuzz corpus.
func fuzzSeeds(f *testing.F) {
	paths, _ := filepath.Glob("../golden/*/schema.json")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	if dir := os.Getenv("MCPGEN_SCHEMA_DIR"); dir != "" {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join("..", dir)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "2024-11-05", "schema.json")); err == nil {
			f.Add(b)
		}
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
// error, or Go files that parse.
func FuzzGenerate(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		files, _, err := gen.Generate("fuzz.json", data, gen.Options{Package: "fuzz", Revision: "fuzz"})
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error message")
			}
			return
		}
		for _, name := range files.Names() {
			if !strings.HasSuffix(name, ".go") {
				continue
			}
			if _, err := parser.ParseFile(token.NewFileSet(), name, files[name], parser.SkipObjectResolution); err != nil {
				t.Fatalf("%s does not parse: %v\nschema: %s", name, err, data)
			}
			if !strings.HasPrefix(string(files[name]), "// "+gen.Header+"\n") {
				t.Fatalf("%s lacks the generated-code header", name)
			}
		}
	})
}
