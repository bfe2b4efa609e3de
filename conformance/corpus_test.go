package conformance

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/reference"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

// TestSchemaCorpus is issue 13's "any revision, any draft" check over
// whole schemas: each one generates, and its package type-checks. It runs
// over the pinned revisions, and with -schemas.dir over every *.json file
// under a directory too, for instance every schema.json the upstream MCP
// repository ever had (drafts and proposals included, one file per blob):
//
//	git -C modelcontextprotocol log --all --format=%H -- 'schema/*/schema.json' |
//	  while read c; do git -C modelcontextprotocol ls-tree -r $c -- schema; done |
//	  grep '/schema.json$' | sort -u -k3 | while read _ _ blob path; do
//	    git -C modelcontextprotocol cat-file -p $blob > DIR/$blob.json; done
//	go test ./conformance -run '^TestSchemaCorpus$' -schemas.dir DIR -v
//
// A package that does not type-check fails the test, and so does a
// refusal, unless the schema is broken for the reference validator too
// (not JSON, UTF-16, a $ref to nothing or to another document, a schema
// its metaschema rejects: the diagnostics must then say where and why) or
// has nothing to generate (no definitions and no root type: a
// placeholder). A root type without a title is named by mcpgen (after its
// file), or SchemaRoot, as --root-name would, when definitions have the
// names it would take. The warnings are logged,
// counted by kind.
var schemasDir = flag.String("schemas.dir", "", "TestSchemaCorpus: also generate every *.json file under this directory")

func TestSchemaCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks whole generated packages")
	}
	type input struct {
		name string
		doc  []byte
	}
	var inputs []input
	for _, rev := range schema.Revisions() {
		b, ok := schema.Embedded(rev)
		if !ok {
			t.Fatalf("revision %s is not embedded", rev)
		}
		inputs = append(inputs, input{rev, b})
	}
	if *schemasDir != "" {
		err := filepath.WalkDir(*schemasDir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			b, err := os.ReadFile(path)
			inputs = append(inputs, input{path, b})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(inputs) == len(schema.Revisions()) {
			t.Fatalf("-schemas.dir %s has no *.json file", *schemasDir)
		}
	}

	var (
		mu       sync.Mutex
		warnings = map[string]int{}
		refused  = map[string]int{}
		failed   int
	)
	work := make(chan input)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			imp, err := testenv.Importer()
			if err != nil {
				t.Error(err)
				return
			}
			for in := range work {
				opts := gen.Options{Package: "corpus", Revision: "corpus"}
				files, diags, err := gen.Generate(filepath.Base(in.name), in.doc, opts)
				if err != nil && strings.Contains(err.Error(), "--root-name") {
					// A root type with no title: name it, as its user would.
					opts.RootName = "SchemaRoot"
					files, diags, err = gen.Generate(filepath.Base(in.name), in.doc, opts)
				}
				if err == nil {
					err = typeCheckWith(imp, "corpus", files)
				}
				why, broken := "", false
				if err != nil && !strings.Contains(err.Error(), "does not type-check") {
					why, broken = brokenSchema(in.doc)
				}
				mu.Lock()
				switch {
				case err != nil && broken:
					refused[why]++
					if problem := refusalProblem(err); problem != "" {
						failed++
						t.Errorf("%s: %s", in.name, problem)
					}
				case err != nil:
					failed++
					t.Errorf("%s: %v", in.name, err)
				}
				for _, d := range diags {
					warnings[refusalKind(d.Message)]++
				}
				mu.Unlock()
			}
		})
	}
	for _, in := range inputs {
		work <- in
	}
	close(work)
	wg.Wait()

	var kinds []string
	for k, n := range warnings {
		kinds = append(kinds, fmt.Sprintf("%6d× %s", n, k))
	}
	sort.Sort(sort.Reverse(sort.StringSlice(kinds)))
	nRefused := 0
	var refusals []string
	for k, n := range refused {
		nRefused += n
		refusals = append(refusals, fmt.Sprintf("%d× %s", n, k))
	}
	sort.Strings(refusals)
	t.Logf("%d schemas: %d generated and type-checked, %d broken or empty and refused [%s], %d failed; warnings by kind:\n%s",
		len(inputs), len(inputs)-nRefused-failed, nRefused, strings.Join(refusals, "; "), failed, strings.Join(kinds, "\n"))
}

// brokenSchema reports why a schema document has nothing a generator could
// be asked to generate: the reference validator cannot load it or compile
// one of its definitions, or it is only an empty list of definitions.
func brokenSchema(doc []byte) (string, bool) {
	v, err := schema.Parse(doc)
	if err != nil {
		return "not a JSON document", true
	}
	ref, err := reference.New(doc)
	if err != nil {
		return "the reference cannot load it", true
	}
	if err := ref.CompileRoot(); err != nil {
		return "the reference cannot compile its root", true
	}
	defs := v.Get("$defs")
	if defs == nil {
		defs = v.Get("definitions")
	}
	if defs == nil || len(defs.Members) == 0 {
		for _, m := range v.Members {
			switch m.Name {
			case "$schema", "$id", "id", "$defs", "definitions", "title", "description":
			default:
				return "", false // a root type
			}
		}
		return "no definitions, no root type", true
	}
	for _, m := range defs.Members {
		if _, _, err := ref.Validate(m.Name, []byte("null")); err != nil {
			return "the reference cannot compile a definition", true
		}
	}
	return "", false
}
