package kwexample

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/mcpgen/mcpgen/internal/reference"
)

type document struct {
	Definition string          `json:"definition"`
	Document   json.RawMessage `json:"document"`
}

func documents(t *testing.T) ([]document, *reference.Validator) {
	t.Helper()
	data, err := os.ReadFile("documents.json")
	if err != nil {
		t.Fatal(err)
	}
	var docs []document
	if err := json.Unmarshal(data, &docs); err != nil {
		t.Fatal(err)
	}
	sch, err := os.ReadFile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := reference.New(sch)
	if err != nil {
		t.Fatal(err)
	}
	return docs, ref
}

// TestDocuments checks that every document of documents.json is valid by
// the reference validator, decodes, validates and encodes back to the same
// JSON, and that Validate on the decoded value allocates nothing.
func TestDocuments(t *testing.T) {
	docs, ref := documents(t)
	if len(docs) == 0 {
		t.Fatal("no documents")
	}
	for i, d := range docs {
		ok, why, err := ref.Validate(d.Definition, d.Document)
		if err != nil || !ok {
			t.Fatalf("document %d is not valid by the reference: %v %s", i, err, why)
		}
		v, found := NewValue(d.Definition)
		if !found {
			t.Fatalf("document %d: no definition %s", i, d.Definition)
		}
		if err := v.UnmarshalJSON(d.Document); err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		if err := v.Validate(); err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		out, err := v.AppendJSON(nil)
		if err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		var want, got bytes.Buffer
		_ = json.Compact(&want, d.Document)
		_ = json.Compact(&got, out)
		if !bytes.Equal(want.Bytes(), got.Bytes()) {
			t.Errorf("document %d does not round-trip:\n  in  %s\n  out %s", i, want.Bytes(), got.Bytes())
		}
		allocs := testing.AllocsPerRun(50, func() {
			if err := v.Validate(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("document %d: Validate allocates %.1f times", i, allocs)
		}
	}
}

// TestInvalid breaks the documents in one way each (one keyword each) and
// checks that the reference rejects them and that decoding or Validate
// reports the keyword at its pointer.
func TestInvalid(t *testing.T) {
	_, ref := documents(t)
	for _, c := range []struct {
		def, doc, pointer, keyword string
	}{
		{"Event", `{"kind": "click", "at": [10, 20, 30]}`, "/at/2", "false"},
		{"Event", `{"kind": "click", "at": [10, -1]}`, "/at/1", "minimum"},
		{"Event", `{"kind": "key", "at": [1, 2]}`, "", "required"},
		{"Event", `{"kind": "scroll", "at": [1, 2], "delta": 0.25}`, "/delta", "multipleOf"},
		{"Event", `{"kind": "scroll", "at": [1, 2], "delta": 0}`, "/delta", "not"},
		{"Event", `{"kind": "key", "at": [1, 2], "keys": ["a", "a"]}`, "/keys", "uniqueItems"},
		{"Event", `{"kind": "click", "at": [1, 2], "tags": {"Bad": "x"}}`, "/tags/Bad", "additionalProperties"},
		{"Event", `{"kind": "click", "at": [1, 2], "other": 1}`, "/other", "unevaluatedProperties"},
		{"Event", `{"kind": "click", "at": [1, 2], "x-a-very-long-member-name": 1}`, "/x-a-very-long-member-name", "maxLength"},
		{"Batch", `{"events": [{"kind": "key", "at": [1, 1], "keys": ["a"]}]}`, "/events", "contains"},
		{"Batch", `{"events": [{"kind": "click", "at": [1, 1]}], "cursor": "c"}`, "", "dependentRequired"},
		{"Batch", `{"events": [{"kind": "click", "at": [1, 1]}], "limit": 15}`, "/limit", "multipleOf"},
		{"Batch", `{"events": [{"kind": "click", "at": [1, 1]}], "labels": []}`, "/labels", "minItems"},
	} {
		ok, _, err := ref.Validate(c.def, []byte(c.doc))
		if err != nil || ok {
			t.Errorf("%s: the reference accepts it (%v)", c.doc, err)
			continue
		}
		v, _ := NewValue(c.def)
		err = v.UnmarshalJSON([]byte(c.doc))
		if err == nil {
			err = v.Validate()
		}
		var verr *ValidationError
		if !errors.As(err, &verr) {
			t.Errorf("%s: got %v, want a *ValidationError", c.doc, err)
			continue
		}
		found := false
		for _, viol := range verr.Violations {
			found = found || viol.Pointer == c.pointer && viol.Keyword == c.keyword
		}
		if !found {
			t.Errorf("%s: got %v, want %s at %q", c.doc, verr, c.keyword, c.pointer)
		}
	}
}
