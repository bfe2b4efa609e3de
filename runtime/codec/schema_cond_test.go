package codec

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// TestSchemaIfThenElse: if/then/else (and allOf, anyOf, $ref to an
// anchored definition around them) give the verdicts of the reference
// validator, and a violation names the branch's keyword.
func TestSchemaIfThenElse(t *testing.T) {
	const doc = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
		`"$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},` +
		`"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},` +
		`"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],` +
		`"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},` +
		`"additionalProperties":false}`
	s, err := CompileSchema([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := jsonschema.CompileString("cond.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in   string
		want string // "" when valid, else a part of the error
	}{
		{`{"contactMethod":"phone","phone":"1"}`, ""},
		{`{"contactMethod":"phone","email":"a@b"}`, `missing required member "phone"`},
		{`{"contactMethod":"email","email":"a@b"}`, ""},
		{`{"phone":"1"}`, `missing required member "email"`},
		{`{"email":"a@b","address":{"city":"x"}}`, ""},
		{`{"email":"a@b","address":{"city":1}}`, "/address/city"},
		{`{}`, `missing required member "phone"`},
		{`{"email":"a@b","x":1}`, "x"},
	} {
		err := s.Validate("", []byte(c.in))
		var v any
		if jerr := json.Unmarshal([]byte(c.in), &v); jerr != nil {
			t.Fatal(jerr)
		}
		refOK := ref.Validate(v) == nil
		if (err == nil) != refOK {
			t.Errorf("%s: %v, the reference says valid=%v", c.in, err, refOK)
		}
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.in, err, c.want)
		}
	}
	// then and else without if are annotations in effect: nothing to check.
	s2, err := CompileSchema([]byte(`{"then":false,"else":false}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.Validate("", []byte(`1`)); err != nil {
		t.Errorf("then/else without if: %v", err)
	}
}
