package gen

import (
	"reflect"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/schema"
)

// The role of each field of schema.Schema, for TestSchemaModelFields. A
// field added to the model must be added here; the test then checks that
// everything that reads the model handles it.
type fieldRole int

const (
	identity     fieldRole = iota + 1 // where the node is; not a keyword
	boolean                           // a boolean schema
	annotation                        // says nothing about which values are valid
	reference                         // $ref: names a type on its own
	constraint                        // a validation keyword the Go types follow (merged by allOf)
	checked                           // a validation keyword checked on the value's JSON (Struct.Whole), not merged
	withIf                            // then, else: a keyword only next to if
	withContains                      // minContains, maxContains: only next to contains
	flag                              // Inexact: a keyword the validators cannot enforce
)

var schemaFieldRoles = map[string]fieldRole{
	"Pointer": identity, "Name": identity, "RefPointer": identity, "Ignored": identity,
	// How $ref and $dynamicRef resolve: Ref is the static target; Dynamic
	// and Resource are what check() resolves a $dynamicRef again with.
	"RefKeyword": identity, "Dynamic": identity, "Resource": identity,
	"IsBool": boolean, "BoolValue": boolean,
	"Default": annotation, "Title": annotation, "Description": annotation, "Deprecated": annotation,
	"Ref":   reference,
	"Types": constraint, "Properties": constraint, "Required": constraint, "AdditionalProperties": constraint,
	"Items": constraint, "AnyOf": constraint, "OneOf": constraint, "AllOf": constraint,
	"Const": constraint, "Enum": constraint,
	"Minimum": constraint, "Maximum": constraint, "ExclusiveMinimum": constraint, "ExclusiveMaximum": constraint,
	"MinItems": constraint, "MaxItems": constraint, "MinLength": constraint, "MaxLength": constraint,
	"Pattern": constraint, "Format": constraint,
	"PatternProperties": constraint, "PrefixItems": constraint, "ItemsKeyword": annotation,
	"MultipleOf": constraint, "Not": checked, "If": checked, "Then": withIf, "Else": withIf,
	"PropertyNames": checked, "MinProperties": checked, "MaxProperties": checked, "Dependencies": checked,
	"UnevaluatedProperties": checked, "Contains": checked, "MinContains": withContains, "MaxContains": withContains,
	"UniqueItems": checked, "UnevaluatedItems": checked,
	"ContentMediaType": annotation, "ContentEncoding": annotation, "ContentSchema": annotation,
	"Inexact": flag,
}

// sampleSchema returns a schema with only the named field set, to a value
// valid for it.
func sampleSchema(t *testing.T, field string) *schema.Schema {
	t.Helper()
	s := &schema.Schema{Pointer: "/$defs/S"}
	f := reflect.ValueOf(s).Elem().FieldByName(field)
	str := &schema.Schema{Types: []string{"string"}, Pointer: "/$defs/T"}
	switch field {
	case "Types":
		s.Types = []string{"string"}
		return s
	case "Format":
		s.Format = "uri"
		return s
	case "AllOf":
		// allOf is flattened before anything else reads it.
		s.AllOf = []*schema.Schema{str}
		return s
	}
	switch v := f.Addr().Interface().(type) {
	case *[]string:
		*v = []string{"a"}
	case **schema.Schema:
		*v = str
	case *[]*schema.Schema:
		*v = []*schema.Schema{str}
	case *[]*schema.Property:
		*v = []*schema.Property{{Name: "a", Schema: str}}
	case *[]*schema.PatternProperty:
		*v = []*schema.PatternProperty{{Pattern: "^a", Schema: str}}
	case *[]*schema.Dependency:
		*v = []*schema.Dependency{{Keyword: "dependentRequired", Name: "a", Required: []string{"b"}}}
	case **schema.Value:
		*v = &schema.Value{Kind: schema.String, Str: "v"}
	case *[]*schema.Value:
		*v = []*schema.Value{{Kind: schema.String, Str: "v"}}
	case **string:
		one := "1"
		*v = &one
	case **int64:
		one := int64(1)
		*v = &one
	case *string:
		*v = "text"
	case *bool:
		*v = true
	default:
		t.Fatalf("no sample value for field %s of type %s", field, f.Type())
	}
	return s
}

// TestSchemaModelFields walks every field of the schema model by
// reflection, so that a keyword added to it cannot be silently dropped:
// every field has a role; a constraint makes a schema non-empty, counts as
// a constraint, shows in the canonical text (which tells definitions
// apart), survives an allOf merge from either side and reaches the IR's
// checks of raw JSON; an annotation does none of that.
func TestSchemaModelFields(t *testing.T) {
	st := reflect.TypeOf(schema.Schema{})
	seen := map[string]bool{}
	for i := 0; i < st.NumField(); i++ {
		name := st.Field(i).Name
		seen[name] = true
		if _, ok := schemaFieldRoles[name]; !ok {
			t.Errorf("schema.Schema.%s has no role in schemaFieldRoles: say what it is, and make merge, IsEmpty, hasConstraints, canonical and check handle it", name)
		}
	}
	for name := range schemaFieldRoles {
		if !seen[name] {
			t.Errorf("schemaFieldRoles lists %s, which schema.Schema does not have", name)
		}
	}
	empty := canonical(&schema.Schema{})
	b := newBuilder(&schema.Document{File: "model"}, Options{})
	checkType := reflect.TypeOf(*b.check(&schema.Schema{}))
	for name, role := range schemaFieldRoles {
		if role == identity || role == boolean {
			continue
		}
		s := sampleSchema(t, name)
		switch role {
		case withIf, withContains:
			// Alone it means nothing; next to its keyword it counts.
			if !s.IsEmpty() || canonical(s) != empty {
				t.Errorf("%s alone: IsEmpty %v, canonical %q", name, s.IsEmpty(), canonical(s))
			}
			if role == withIf {
				s.If = &schema.Schema{Types: []string{"string"}, Pointer: "/$defs/I"}
			} else {
				s.Contains = &schema.Schema{Types: []string{"string"}, Pointer: "/$defs/C"}
			}
			with := *s
			reflect.ValueOf(&with).Elem().FieldByName(name).SetZero()
			if canonical(s) == canonical(&with) {
				t.Errorf("canonical ignores %s", name)
			}
			if reflect.ValueOf(b.check(s)).Elem().FieldByName(name).IsZero() {
				t.Errorf("check drops %s", name)
			}
			continue
		case flag:
			if s.IsEmpty() || canonical(s) == empty || !b.check(s).Inexact {
				t.Errorf("%s: IsEmpty %v, canonical %q", name, s.IsEmpty(), canonical(s))
			}
			continue
		case checked:
			if s.IsEmpty() || !hasConstraints(s) || canonical(s) == empty {
				t.Errorf("%s: IsEmpty %v, hasConstraints %v, canonical %q", name, s.IsEmpty(), hasConstraints(s), canonical(s))
			}
			// The merge leaves it out of the Go type, and the merged
			// schema stands for s: Validate checks s on the JSON.
			o := sampleSchema(t, "MinLength")
			out, err := b.merge("/m", s, o, 0)
			if err != nil {
				t.Errorf("merging %s: %v", name, err)
			} else if !slices.Contains(b.sourcesOf(out), s) || !b.complexKeywords(out) {
				t.Errorf("a merge with %s does not stand for it (sources %v)", name, b.sourcesOf(out))
			}
			if reflect.ValueOf(b.check(s)).Elem().FieldByName(name).IsZero() {
				t.Errorf("check drops %s", name)
			}
			continue
		}
		switch role {
		case annotation:
			if !s.IsEmpty() || hasConstraints(s) || canonical(s) != empty {
				t.Errorf("annotation %s: IsEmpty %v, hasConstraints %v, canonical %q", name, s.IsEmpty(), hasConstraints(s), canonical(s))
			}
			continue
		case reference:
			if s.IsEmpty() || canonical(s) == empty {
				t.Errorf("%s: IsEmpty %v, canonical %q", name, s.IsEmpty(), canonical(s))
			}
			continue
		}
		if s.IsEmpty() {
			t.Errorf("IsEmpty ignores %s", name)
		}
		if !hasConstraints(s) {
			t.Errorf("hasConstraints ignores %s", name)
		}
		if canonical(s) == empty {
			t.Errorf("canonical ignores %s", name)
		}
		if name != "AllOf" {
			other := "MinLength"
			if name == other {
				other = "MaxLength"
			}
			o := sampleSchema(t, other)
			for _, pair := range [][2]*schema.Schema{{s, o}, {o, s}} {
				out, err := b.merge("/m", pair[0], pair[1], 0)
				if err != nil {
					t.Errorf("merging %s with %s: %v", name, other, err)
					continue
				}
				if reflect.ValueOf(out).Elem().FieldByName(name).IsZero() {
					t.Errorf("merge drops %s", name)
				}
			}
		}
		cf, ok := checkType.FieldByName(name)
		if !ok {
			t.Errorf("ir.Check has no field %s: the validators of raw JSON would ignore it", name)
			continue
		}
		if reflect.ValueOf(b.check(s)).Elem().FieldByIndex(cf.Index).IsZero() {
			t.Errorf("check drops %s", name)
		}
	}
}
