package schema

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMetaschemaPieces checks that cutting a document into pieces for the
// metaschema check changes no verdict: every golden schema, every pinned
// revision and a few broken documents get the same verdict whatever the
// size of the pieces (1 schema level up to all of them), and every
// diagnostic of the pieces is one of the whole document's. (The whole
// document may say more: where a subschema position is an anyOf, such as
// draft-07's "items", the validator also reports the alternative that
// did not apply; in a piece that position holds `{}`.)
func TestMetaschemaPieces(t *testing.T) {
	docs := map[string][]byte{
		"bad type deep":  []byte(`{"$defs":{"A":{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"strin"}}}}}}}`),
		"bad items":      []byte(`{"definitions":{"A":{"type":"array","items":{"type":"array","items":{"minItems":-1}}}}}`),
		"bad in anyOf":   []byte(`{"$defs":{"A":{"anyOf":[{"type":"string"},{"properties":{"x":{"required":"x"}}}]}}}`),
		"bad definition": []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"A":{"type":7},"B":{"additionalProperties":{"enum":[]}}}}`),
	}
	paths, _ := filepath.Glob("../golden/*/schema.json")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[p] = b
	}
	for _, p := range Pins {
		b, ok := Embedded(p.Revision)
		if !ok {
			t.Fatalf("revision %s is not embedded", p.Revision)
		}
		docs[p.Revision] = b
	}
	defer func(d int) { chunkDepth = d }(chunkDepth)
	failing := 0
	for name, data := range docs {
		var want string
		for _, depth := range []int{1 << 30, 1, 2, 3, 32} {
			chunkDepth = depth
			_, err := Load("x.json", data)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if depth == 1<<30 {
				want = got
				if strings.Contains(got, "by its metaschema") {
					failing++
				}
				continue
			}
			wantLines := strings.Split(want, "\n")
			ok := (got == "") == (want == "")
			for _, l := range strings.Split(got, "\n") {
				ok = ok && slices.Contains(wantLines, l)
			}
			if !ok {
				t.Errorf("%s: pieces of %d levels:\n%s\nwhole document:\n%s", name, depth, got, want)
			}
		}
	}
	if failing < 4 {
		t.Errorf("only %d documents break their metaschema; the broken ones must", failing)
	}
}

// TestMetaschemaDeep checks a document nested 600 levels deep: a broken
// keyword at the bottom is found and located (the check is linear in the
// depth; the validator on the whole document took seconds).
func TestMetaschemaDeep(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"$defs":{"N":`)
	const n = 600
	for i := 0; i < n; i++ {
		b.WriteString(`{"type":"object","properties":{"c":`)
	}
	b.WriteString(`{"type":"strin"}`)
	b.WriteString(strings.Repeat(`}}`, n))
	b.WriteString(`}}`)
	_, err := Load("deep.json", []byte(b.String()))
	if err == nil {
		t.Fatal("the broken type was not found")
	}
	want := "/$defs/N" + strings.Repeat("/properties/c", n) + "/type"
	errs := err.(Errors)
	if !slices.ContainsFunc(errs, func(d *Diagnostic) bool { return d.Pointer == want }) {
		t.Errorf("no diagnostic at the broken type; got %d: %.300s", len(errs), err)
	}
}

// TestCheckMetaschema checks the metaschema pass on its own: the default
// dialect applies without "$schema" (even next to "definitions"), a
// declared one wins, broken keywords are located, ECMA-only patterns pass,
// and what Load adds for generating code (here, a "$ref" with siblings in
// draft-07 and an unknown format) is not reported.
func TestCheckMetaschema(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		def       Draft
		draft     Draft
		pointers  []string
	}{
		{"valid", `{"type":"object","properties":{"a":{"type":"string"}}}`, Draft202012, Draft202012, nil},
		{"definitions is no hint", `{"definitions":{"a":{"type":"string"}},"type":"object"}`, Draft202012, Draft202012, nil},
		{"bad type", `{"type":"object","properties":{"a":{"type":"strin"}}}`, Draft202012, Draft202012, []string{"/properties/a/type"}},
		{"bad required", `{"type":"object","required":"a"}`, Draft202012, Draft202012, []string{"/required"}},
		{"declared draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","items":[{"type":"string"}]}`, Draft202012, Draft07, nil},
		{"2020-12 array items", `{"type":"object","items":[{"type":"string"}]}`, Draft202012, Draft202012, []string{"/items"}},
		{"ecma pattern", `{"type":"string","pattern":"(?<=a)b"}`, Draft202012, Draft202012, nil},
		{"unknown format", `{"type":"string","format":"mcpgen-unknown"}`, Draft202012, Draft202012, nil},
		{"unsupported dialect", `{"$schema":"https://example.com/s","type":"object"}`, Draft202012, 0, []string{"/$schema"}},
		{"malformed", `{"type":`, Draft202012, 0, []string{"/type"}},
	} {
		d, errs := CheckMetaschema("s.json", []byte(c.doc), c.def)
		if d != c.draft {
			t.Errorf("%s: draft %v, want %v", c.name, d, c.draft)
		}
		var got []string
		for _, e := range errs {
			got = append(got, e.Pointer)
		}
		got = slices.Compact(got)
		if !slices.Equal(got, c.pointers) {
			t.Errorf("%s: diagnostics at %q, want %q (%v)", c.name, got, c.pointers, errs)
		}
	}
}
