package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp20250326"
	"github.com/mcpgen/mcpgen/generated/mcp20250618"
	"github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/runtime/codec"
)

// This file checks codec.Schema, the validator that reads a schema at run
// time (the conversions check older revisions' messages with it), against
// the generated validators of those revisions' own packages: on every
// definition, with the hand-written messages of testdata/older, their
// mutations and values of every kind, both must give the same verdict and
// find their first violation at the same place.

// olderPackage is what the test needs of a generated package.
type olderPackage struct {
	revision    string
	definitions []string
	newValue    func(string) (interface {
		UnmarshalJSON([]byte) error
		Validate() error
	}, bool)
}

func olderPackages() []olderPackage {
	return []olderPackage{
		{"2025-11-25", mcp20251125.Definitions, func(d string) (interface {
			UnmarshalJSON([]byte) error
			Validate() error
		}, bool) {
			return mcp20251125.NewValue(d)
		}},
		{"2025-06-18", mcp20250618.Definitions, func(d string) (interface {
			UnmarshalJSON([]byte) error
			Validate() error
		}, bool) {
			return mcp20250618.NewValue(d)
		}},
		{"2025-03-26", mcp20250326.Definitions, func(d string) (interface {
			UnmarshalJSON([]byte) error
			Validate() error
		}, bool) {
			return mcp20250326.NewValue(d)
		}},
	}
}

func TestSchemaAgreesWithGenerated(t *testing.T) {
	kinds := []any{nil, false, json.Number("0"), json.Number("-1.5"), "", "x", []any{}, []any{"a"}, map[string]any{}, map[string]any{"type": "text", "text": "t"}}
	for _, p := range olderPackages() {
		t.Run(p.revision, func(t *testing.T) {
			raw := testenv.Schema(t, p.revision)
			s, err := codec.CompileSchema(raw)
			if err != nil {
				t.Fatal(err)
			}
			defs := "/definitions"
			if strings.Contains(string(raw), `"$defs"`) {
				defs = "/$defs"
			}
			// The documents: every hand-written message, its mutations,
			// and values of every kind.
			var docs [][]byte
			data, err := os.ReadFile(filepath.Join("testdata", "older", p.revision+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var msgs olderMessages
			if err := json.Unmarshal(data, &msgs); err != nil {
				t.Fatal(err)
			}
			methods := make([]string, 0, len(msgs))
			for m := range msgs {
				methods = append(methods, m)
			}
			sort.Strings(methods)
			for _, m := range methods {
				for _, doc := range append(msgs[m].Params, msgs[m].Result...) {
					docs = append(docs, doc)
					docs = append(docs, mutations(t, doc, kinds)...)
				}
			}
			for _, k := range kinds {
				b, _ := json.Marshal(k)
				docs = append(docs, b)
			}
			docs = append(docs, []byte(`{"a":1,"a":2}`), []byte(`[1e400]`), []byte(`9223372036854775808`))
			checked, valid := 0, 0
			for _, def := range p.definitions {
				ptr := defs + "/" + codec.EscapePointer(def)
				if !s.Has(ptr) {
					t.Errorf("%s: no schema", ptr)
					continue
				}
				for _, doc := range docs {
					v, ok := p.newValue(def)
					if !ok {
						t.Fatalf("NewValue(%q)", def)
					}
					genErr := codec.UnmarshalAndValidate(doc, v)
					interpErr := s.Validate(ptr, doc)
					checked++
					if genErr == nil {
						valid++
					}
					if (genErr == nil) != (interpErr == nil) {
						t.Errorf("%s %s: generated says %v, Schema says %v", def, doc, genErr, interpErr)
						continue
					}
					// Every violation Schema finds, the generated code finds
					// at the same place, or above or below it (a union
					// reports a value none of its branches takes in its own
					// words, at the union or at the member it tells them
					// apart by).
					if genErr != nil && !sameKind(genErr, interpErr) && !near(violationSet(interpErr), violationSet(genErr)) {
						t.Errorf("%s %s: violations differ:\n generated: %v\n Schema:    %v", def, doc, genErr, interpErr)
					}
				}
			}
			t.Logf("%d definitions, %d documents: %d verdicts, %d valid", len(p.definitions), len(docs), checked, valid)
			if valid < 100 {
				t.Errorf("only %d valid documents: the test checks too little", valid)
			}
		})
	}
}

// violationSet lists the pointers of an error's violations; nil for
// another error.
func violationSet(err error) []string {
	ve, ok := err.(*codec.ValidationError)
	if !ok {
		return nil
	}
	var out []string
	for _, v := range ve.Violations {
		out = append(out, v.Pointer)
	}
	return out
}

// near reports whether a is non-empty and every pointer of a has one in b
// that is the same, above it or below it.
func near(a, b []string) bool {
	if len(a) == 0 {
		return false
	}
	for _, p := range a {
		found := false
		for _, q := range b {
			if p == q || strings.HasPrefix(p, q+"/") || strings.HasPrefix(q, p+"/") || q == "" || p == "" {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// sameKind says whether two errors are both syntax errors (whose offsets
// the two report alike, and whose pointers neither has).
func sameKind(a, b error) bool {
	_, sa := a.(*codec.SyntaxError)
	_, sb := b.(*codec.SyntaxError)
	return sa && sb
}
