package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/internal/kwexample"
)

// The validation keywords beyond the MCP schemas' (not, if/then/else,
// contains, uniqueItems, multipleOf, patternProperties, propertyNames,
// dependentRequired, dependentSchemas, minProperties, prefixItems,
// unevaluatedProperties): internal/kwexample is generated from a schema
// that uses them, and its documents.json holds valid documents of it.

// keywordsSet reads internal/kwexample's schema and documents.
func keywordsSet(tb testing.TB) ([]byte, []Example) {
	tb.Helper()
	top, err := topLevel()
	if err != nil {
		tb.Fatal(err)
	}
	dir := filepath.Join(top, "internal", "kwexample")
	sch, err := os.ReadFile(filepath.Join(dir, "schema.json"))
	if err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "documents.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var docs []struct {
		Definition string          `json:"definition"`
		Document   json.RawMessage `json:"document"`
	}
	if err := json.Unmarshal(data, &docs); err != nil {
		tb.Fatal(err)
	}
	set := make([]Example, len(docs))
	for i, d := range docs {
		set[i] = Example{Definition: d.Definition, Name: fmt.Sprintf("documents.json#%d", i), Data: d.Document}
	}
	return sch, set
}

// TestKeywordsAgree checks that the benchmarks below time valid documents:
// mcpgen and jsonschema v5 both accept every one.
func TestKeywordsAgree(t *testing.T) {
	sch, set := keywordsSet(t)
	vs, err := V5(sch, definitions(set))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range set {
		if err := vs[e.Definition](e.Data); err != nil {
			t.Errorf("%s: jsonschema v5: %v", e.ID(), err)
		}
		v, _ := kwexample.NewValue(e.Definition)
		if err := v.UnmarshalJSON(e.Data); err != nil {
			t.Errorf("%s: mcpgen: %v", e.ID(), err)
		} else if err := v.Validate(); err != nil {
			t.Errorf("%s: mcpgen: %v", e.ID(), err)
		}
	}
}

// Validate alone on values decoded before the timed loop: allocs/op is 0.
func BenchmarkKeywordsMcpgenValidate(b *testing.B) {
	_, set := keywordsSet(b)
	vals := make([]kwexample.Value, len(set))
	for i, e := range set {
		v, _ := kwexample.NewValue(e.Definition)
		if err := v.UnmarshalJSON(e.Data); err != nil {
			b.Fatal(err)
		}
		vals[i] = v
	}
	corpusLoop(b, set, func(i int, e *Example) {
		if err := vals[i].Validate(); err != nil {
			b.Fatalf("%s: %v", e.ID(), err)
		}
	})
}

// Decode and validate, as the baseline below does.
func BenchmarkKeywordsMcpgenDecodeValidate(b *testing.B) {
	_, set := keywordsSet(b)
	vals := make([]kwexample.Value, len(set))
	for i, e := range set {
		vals[i], _ = kwexample.NewValue(e.Definition)
	}
	corpusLoop(b, set, func(i int, e *Example) {
		if err := vals[i].UnmarshalJSON(e.Data); err != nil {
			b.Fatalf("%s: %v", e.ID(), err)
		}
		if err := vals[i].Validate(); err != nil {
			b.Fatalf("%s: %v", e.ID(), err)
		}
	})
}

// The baseline: decode (UseNumber) and validate with jsonschema v5, the
// schema compiled outside the timed loop.
func BenchmarkKeywordsJSONSchemaV5DecodeValidate(b *testing.B) {
	sch, set := keywordsSet(b)
	vs, err := V5(sch, definitions(set))
	if err != nil {
		b.Fatal(err)
	}
	corpusLoop(b, set, func(_ int, e *Example) {
		if err := vs[e.Definition](e.Data); err != nil {
			b.Fatalf("%s: %v", e.ID(), err)
		}
	})
}
