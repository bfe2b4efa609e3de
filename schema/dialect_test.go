package schema

import (
	"strings"
	"testing"
)

// TestDialectOf: which draft a document is read as, and what mcpgen says
// about it (docs/references.md, "Drafts").
func TestDialectOf(t *testing.T) {
	for _, tc := range []struct {
		doc       string
		inherited Draft
		want      Draft
		note      string // a warning must contain it ("" when none)
		err       string
	}{
		{`{"$schema": "http://json-schema.org/draft-07/schema#"}`, 0, Draft07, "", ""},
		{`{"$defs": {}}`, 0, Draft202012, "", ""},
		{`{"definitions": {}}`, 0, Draft07, "", ""},
		// No $schema and a tuple: draft-07, nothing claimed otherwise.
		{`{"$defs": {"A": {"items": [{}]}}}`, 0, Draft07, "", ""},
		{`{"$schema": "http://json-schema.org/draft-03/schema#"}`, 0, 0, "", `unsupported draft "http://json-schema.org/draft-03/schema#"`},
		{`{"$schema": 7}`, 0, 0, "", `"$schema" is a JSON number, not a string`},
		{`{"$schema": "http://json-schema.org/draft-07/schema#/"}`, 0, Draft07, "is read as draft-07, the draft it names", ""},
		{`{"$schema": "https://json-schema.org/draft/2020-12/schema#"}`, 0, Draft202012, "is read as draft 2020-12, the draft it names", ""},
		{`{"$schema": "https://json-schema.org/draft/2019-09/schema"}`, 0, Draft202012, "the closest draft mcpgen reads to the 2019-09 it names", ""},
		{`{"$schema": "https://meta.json-schema.tools/", "definitions": {}}`, 0, Draft07, "read as draft-07, the closest draft by its spellings", ""},
		{`{"$schema": "https://meta.json-schema.tools/", "$defs": {}}`, 0, Draft202012, "read as draft 2020-12, the closest draft by its spellings", ""},
		// Declared 2020-12, a draft-07 tuple.
		{`{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"A": {"items": [{}]}}}`, 0, Draft07, `"items" is an array`, ""},
		// A document a 2020-12 schema refers to, without $schema.
		{`{"properties": {"p": {"items": [true]}}}`, Draft202012, Draft07, `"items" is an array`, ""},
		{`{"properties": {"p": {"items": {}}}}`, Draft202012, Draft202012, "", ""},
		// Data and property names are no keywords.
		{`{"$schema": "https://json-schema.org/draft/2020-12/schema", "enum": [{"items": [1]}], "default": {"items": []}}`, 0, Draft202012, "", ""},
		{`{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"enum": {"items": [{}]}}}`, 0, Draft07, `"items" is an array`, ""},
	} {
		root, err := Parse([]byte(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		d, notes, _, msg := dialectOf(root, tc.inherited)
		var text []string
		for _, n := range notes {
			text = append(text, n.ptr+": "+n.msg)
		}
		all := strings.Join(text, "\n")
		switch {
		case tc.err != "" && !strings.Contains(msg, tc.err):
			t.Errorf("%s: error %q, want %q", tc.doc, msg, tc.err)
		case tc.err == "" && msg != "":
			t.Errorf("%s: error %q", tc.doc, msg)
		case d != tc.want:
			t.Errorf("%s: read as %s, want %s", tc.doc, d, tc.want)
		case tc.note == "" && len(notes) > 0 || tc.note != "" && !strings.Contains(all, tc.note):
			t.Errorf("%s: warnings %q, want %q", tc.doc, all, tc.note)
		}
	}
}
