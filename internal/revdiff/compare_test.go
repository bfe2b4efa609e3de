package revdiff_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/internal/revdiff"
	"github.com/mcpgen/mcpgen/schema"
)

// build loads a draft 2020-12 schema with the given $defs members and
// builds its IR.
func build(t *testing.T, rev, defs string) *ir.Package {
	t.Helper()
	src := `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {` + defs + `}}`
	doc, err := schema.Load(rev+".json", []byte(src))
	if err != nil {
		t.Fatalf("load %s: %v", rev, err)
	}
	pkg, _, err := gen.Build(doc, gen.Options{Package: "p", Revision: rev})
	if err != nil {
		t.Fatalf("build %s: %v", rev, err)
	}
	return pkg
}

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new string
		want     revdiff.Report
	}{{
		name: "identical",
		old:  `"A": {"type": "object", "properties": {"x": {"type": "string"}}}`,
		new:  `"A": {"type": "object", "properties": {"x": {"type": "string"}}}`,
		want: revdiff.Report{},
	}, {
		name: "types added and removed",
		old:  `"A": {"type": "object", "properties": {"x": {"type": "string"}}}`,
		new: `"B": {"type": "object", "properties": {"x": {"type": "string"}}},
			"C": {"type": "object", "properties": {"o": {"type": "object", "properties": {"y": {"type": "integer"}}}}},
			"Cursor": {"type": "string"}`,
		want: revdiff.Report{
			TypesAdded: []revdiff.TypeRef{
				{Name: "B", Decl: "struct"},
				{Name: "C", Decl: "struct"},
				{Name: "CO", Decl: "struct", Inline: "/$defs/C/properties/o"},
				{Name: "Cursor", Decl: "string"},
			},
			TypesRemoved: []revdiff.TypeRef{{Name: "A", Decl: "struct"}},
		},
	}, {
		name: "methods",
		old: `"PingRequest": {"type": "object", "properties": {"method": {"const": "ping", "type": "string"}}, "required": ["method"]},
			"GoneNotification": {"type": "object", "properties": {"method": {"const": "notifications/gone", "type": "string"}}, "required": ["method"]},
			"EchoRequest": {"type": "object", "properties": {"method": {"const": "echo", "type": "string"}}, "required": ["method"]}`,
		new: `"PingRequest": {"type": "object", "properties": {"method": {"const": "ping", "type": "string"}}, "required": ["method"]},
			"HelloRequest": {"type": "object", "properties": {"method": {"const": "hello", "type": "string"}}, "required": ["method"]},
			"NewEchoRequest": {"type": "object", "properties": {"method": {"const": "echo", "type": "string"}}, "required": ["method"]},
			"Message": {"type": "object", "properties": {"method": {"const": "not/a/method", "type": "string"}}, "required": ["method"]}`,
		want: revdiff.Report{
			MethodsAdded:   []revdiff.Method{{Name: "hello", Definitions: []string{"HelloRequest"}}},
			MethodsRemoved: []revdiff.Method{{Name: "notifications/gone", Definitions: []string{"GoneNotification"}}},
			MethodsMoved:   []revdiff.MethodMove{{Name: "echo", From: []string{"EchoRequest"}, To: []string{"NewEchoRequest"}}},
			TypesAdded: []revdiff.TypeRef{
				{Name: "HelloRequest", Decl: "struct"},
				{Name: "Message", Decl: "struct"},
				{Name: "NewEchoRequest", Decl: "struct"},
			},
			TypesRemoved: []revdiff.TypeRef{
				{Name: "EchoRequest", Decl: "struct"},
				{Name: "GoneNotification", Decl: "struct"},
			},
		},
	}, {
		name: "fields",
		old: `"ContentBlock": {"type": "object", "properties": {"text": {"type": "string"}}},
			"S": {"type": "object", "required": ["a", "kind"], "properties": {
				"a": {"type": "string"},
				"b": {"type": "string"},
				"c": {"type": "integer"},
				"gone": {"type": "boolean"},
				"kind": {"const": "x", "type": "string"}}}`,
		new: `"ContentBlock": {"type": "object", "properties": {"text": {"type": "string"}}},
			"S": {"type": "object", "required": ["c", "kind"], "properties": {
				"a": {"type": "string"},
				"b": {"type": "array", "items": {"$ref": "#/$defs/ContentBlock"}},
				"c": {"type": "integer"},
				"added": {"type": "boolean"},
				"kind": {"const": "y", "type": "string"}}}`,
		want: revdiff.Report{TypesChanged: []*revdiff.TypeChange{{
			Name:          "S",
			FieldsAdded:   []revdiff.Field{{Name: "Added", JSONName: "added", GoType: "*bool"}},
			FieldsRemoved: []revdiff.Field{{Name: "Gone", JSONName: "gone", GoType: "*bool"}},
			FieldsChanged: []revdiff.FieldChange{
				{Name: "A", JSONName: "a", Required: &revdiff.Change{From: "required", To: "optional"}, Type: &revdiff.Change{From: "string", To: "*string"}},
				{Name: "B", JSONName: "b", Type: &revdiff.Change{From: "*string", To: "[]ContentBlock"}},
				{Name: "C", JSONName: "c", Required: &revdiff.Change{From: "optional", To: "required"}, Type: &revdiff.Change{From: "*int64", To: "int64"}},
				{JSONName: "kind", Const: &revdiff.Change{From: `"x"`, To: `"y"`}},
			},
		}}},
	}, {
		name: "renames",
		old: `"S": {"type": "object", "properties": {
				"cache_scope": {"type": "string"},
				"old_name": {"type": "string", "description": "The thing\nitself."},
				"u": {"type": "integer", "description": "Same."},
				"t_x": {"type": "string"},
				"r_q": {"type": "string"}}, "required": ["r_q"]}`,
		new: `"S": {"type": "object", "properties": {
				"cacheScope": {"type": "string"},
				"newName": {"type": "string", "description": "The thing itself."},
				"v": {"type": "integer", "description": "Same."},
				"w": {"type": "integer", "description": "Same."},
				"tX": {"type": "integer"},
				"rQ": {"type": "string"}}}`,
		want: revdiff.Report{TypesChanged: []*revdiff.TypeChange{{
			Name: "S",
			// u has two candidates (v, w); t_x/tX differ in type; r_q/rQ
			// in requiredness: none of them is a rename.
			FieldsAdded: []revdiff.Field{
				{Name: "RQ", JSONName: "rQ", GoType: "*string"},
				{Name: "TX", JSONName: "tX", GoType: "*int64"},
				{Name: "V", JSONName: "v", GoType: "*int64"},
				{Name: "W", JSONName: "w", GoType: "*int64"},
			},
			FieldsRemoved: []revdiff.Field{
				{Name: "RQ", JSONName: "r_q", GoType: "string", Required: true},
				{Name: "TX", JSONName: "t_x", GoType: "*string"},
				{Name: "U", JSONName: "u", GoType: "*int64"},
			},
			FieldsRenamed: []revdiff.Rename{
				{From: revdiff.Field{Name: "CacheScope", JSONName: "cache_scope", GoType: "*string"},
					To: revdiff.Field{Name: "CacheScope", JSONName: "cacheScope", GoType: "*string"}, Rule: revdiff.RuleSpelling},
				{From: revdiff.Field{Name: "OldName", JSONName: "old_name", GoType: "*string"},
					To: revdiff.Field{Name: "NewName", JSONName: "newName", GoType: "*string"}, Rule: revdiff.RuleDescription},
			},
		}}},
	}, {
		name: "enum values",
		old:  `"E": {"type": "string", "enum": ["a", "b"]}`,
		new:  `"E": {"type": "string", "enum": ["b", "c"]}`,
		want: revdiff.Report{TypesChanged: []*revdiff.TypeChange{{
			Name:          "E",
			ValuesAdded:   []revdiff.Value{{JSON: `"c"`, Const: "EC"}},
			ValuesRemoved: []revdiff.Value{{JSON: `"a"`, Const: "EA"}},
		}}},
	}, {
		name: "union branches",
		old: `"A": {"type": "object", "properties": {"type": {"const": "a", "type": "string"}}, "required": ["type"]},
			"B": {"type": "object", "properties": {"type": {"const": "b", "type": "string"}}, "required": ["type"]},
			"U": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}`,
		new: `"B": {"type": "object", "properties": {"type": {"const": "b", "type": "string"}}, "required": ["type"]},
			"C": {"type": "object", "properties": {"type": {"const": "c", "type": "string"}}, "required": ["type"]},
			"U": {"anyOf": [{"$ref": "#/$defs/B"}, {"$ref": "#/$defs/C"}]}`,
		want: revdiff.Report{
			TypesAdded:   []revdiff.TypeRef{{Name: "C", Decl: "struct"}},
			TypesRemoved: []revdiff.TypeRef{{Name: "A", Decl: "struct"}},
			TypesChanged: []*revdiff.TypeChange{{Name: "U", BranchesAdded: []string{"C"}, BranchesRemoved: []string{"A"}}},
		},
	}, {
		name: "deprecations",
		old: `"D": {"type": "object", "properties": {
				"f": {"type": "string"},
				"g": {"type": "string", "description": "Use it."},
				"h": {"type": "string", "description": "Old. This is deprecated."}}}`,
		new: `"D": {"type": "object", "deprecated": true, "properties": {
				"f": {"type": "string", "deprecated": true},
				"g": {"type": "string", "description": "Use it. Deprecated in favour of f. Really."},
				"h": {"type": "string", "description": "Old. This is deprecated and going away."}}}`,
		want: revdiff.Report{TypesChanged: []*revdiff.TypeChange{{
			Name:       "D",
			Deprecated: &revdiff.Deprecation{Schema: true},
			FieldsChanged: []revdiff.FieldChange{
				{Name: "F", JSONName: "f", Deprecated: &revdiff.Deprecation{Schema: true}},
				{Name: "G", JSONName: "g", Deprecated: &revdiff.Deprecation{Note: "Deprecated in favour of f."}},
			},
		}}},
	}, {
		name: "declarations",
		old: `"N": {"type": "string"},
			"X": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
			"K": {"type": ["string", "integer"]}`,
		new: `"N": {"type": "array", "items": {"type": "string"}},
			"X": {"type": "object", "properties": {"a": {"type": "string"}}},
			"K": {"type": ["string", "integer", "null"]}`,
		want: revdiff.Report{TypesChanged: []*revdiff.TypeChange{
			{Name: "K", Decl: &revdiff.Change{From: "JSON string or integer", To: "JSON string or integer or null"}},
			{Name: "N", Decl: &revdiff.Change{From: "string", To: "[]string"}},
			{Name: "X", FieldsAdded: []revdiff.Field{{Name: "Extra", GoType: "Members"}}},
		}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := revdiff.Compare(build(t, "old", tc.old), build(t, "new", tc.new))
			want := tc.want
			want.From, want.To = "old", "new"
			if !reflect.DeepEqual(got, &want) {
				t.Errorf("Compare:\n got %s\nwant %s", show(got), show(&want))
			}
			if got.Empty() != (tc.name == "identical") {
				t.Errorf("Empty() = %v", got.Empty())
			}
		})
	}
}

func show(r *revdiff.Report) string {
	b, _ := json.MarshalIndent(r, "     ", "  ")
	return string(b)
}
