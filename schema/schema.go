// Package schema loads a JSON Schema document (draft-04, draft-06, draft-07
// or draft 2020-12)
// and resolves it into a model that the generator reads: one Schema per
// node, every node remembering its JSON pointer, every local $ref resolved.
//
// The package understands the keywords the MCP schemas use and the ones a
// newer revision is likely to use. Any other keyword is reported as a
// Diagnostic (a warning, or an error in strict mode); none is silently
// ignored.
package schema

import (
	"fmt"
	"strings"
)

// Draft is a JSON Schema dialect.
type Draft int

// The dialects Load understands.
const (
	Draft07 Draft = iota + 1
	Draft202012
	Draft04
	Draft06
	// draft201909 is read as Draft202012; it names only the metaschema a
	// document whose "$schema" is draft 2019-09's is checked against
	// (metaschemaDraft).
	draft201909
)

func (d Draft) String() string {
	switch d {
	case Draft04:
		return "draft-04"
	case Draft06:
		return "draft-06"
	case Draft07:
		return "draft-07"
	case Draft202012:
		return "draft 2020-12"
	case draft201909:
		return "draft 2019-09"
	}
	return "unknown draft"
}

// pre2019 reports whether the dialect is one of draft-04, -06 and -07,
// which share the spellings 2019-09 changed (the array form of "items",
// "additionalItems", "dependencies") and lack its keywords.
func (d Draft) pre2019() bool { return d != Draft202012 }

// DefsKeyword is where the dialect keeps definitions.
func (d Draft) DefsKeyword() string {
	if d == Draft202012 {
		return "$defs"
	}
	return "definitions"
}

// refSiblingsIgnored reports whether the dialect ignores the keywords
// next to "$ref" (every draft before 2019-09).
func (d Draft) refSiblingsIgnored() bool { return d != Draft202012 }

// Document is a loaded, resolved schema document.
type Document struct {
	File  string // name used in messages
	Draft Draft
	// Root is the schema at the root of the document (pointer ""): no
	// type when it holds only the definitions (Root.IsEmpty()).
	Root *Schema
	// Defs holds the definitions in document order.
	Defs []*Schema
	// Warnings are problems that did not stop loading: unknown keywords,
	// unsupported formats. In strict mode they are errors instead.
	Warnings []*Diagnostic

	// Empty is set when the document has no definitions and its root
	// accepts every value: the error to report unless the root is named
	// (gen.Options.RootName), when it is one raw JSON type.
	Empty *Diagnostic
	// Retrieved are the documents besides the schema that references
	// brought in, in the order they were read.
	Retrieved []*Retrieved
	// Dynamic is set when some $dynamicRef may resolve to more than one
	// $dynamicAnchor (Schema.Dynamic): its validation depends on the
	// dynamic scope.
	Dynamic bool

	nodes   map[string]*Schema // every node by pointer
	byName  map[string]*Schema // Defs by name, made by the first Def
	indexed int                // len(Defs) when byName was made
}

// Def returns the definition called name, or nil. Lookups go through an
// index made on first use (and remade if Defs grew since).
func (d *Document) Def(name string) *Schema {
	if d.byName == nil || d.indexed != len(d.Defs) {
		d.byName = make(map[string]*Schema, len(d.Defs))
		for _, s := range d.Defs {
			if _, dup := d.byName[s.Name]; !dup {
				d.byName[s.Name] = s
			}
		}
		d.indexed = len(d.Defs)
	}
	return d.byName[name]
}

// Node returns the node at pointer ptr (as Schema.Pointer spells it), or
// nil when no node was made there.
func (d *Document) Node(ptr string) *Schema { return d.nodes[ptr] }

// SplitPointer splits a node's pointer into the file of the document the
// node is in ("" for the schema itself) and its JSON pointer there: the
// nodes of a document a reference brought in have pointers such as
// other.json#/$defs/A.
func SplitPointer(ptr string) (file, pointer string) {
	if ptr == "" || ptr[0] == '/' {
		return "", ptr
	}
	if i := strings.Index(ptr, "#"); i >= 0 {
		return ptr[:i], ptr[i+1:]
	}
	return "", ptr
}

// Schema is one schema node.
type Schema struct {
	Pointer string // JSON pointer of the node, e.g. "/$defs/Tool/properties/name"
	Name    string // the definition name when the node is a definition

	// Boolean schemas: IsBool is set and BoolValue is the value.
	IsBool    bool
	BoolValue bool

	Ref        *Schema // resolved target of $ref (or $dynamicRef), nil when there is none
	RefPointer string  // the $ref as written
	RefKeyword string  // "$ref" or "$dynamicRef", "" without one
	// Dynamic is set for a $dynamicRef that the validators resolve again
	// in the dynamic scope (refs.go); Ref is then its static target, which
	// the Go types follow.
	Dynamic *DynamicRef
	// Resource is the schema resource the node is in.
	Resource *Resource

	Types                []string // the "type" keyword, nil when absent
	Properties           []*Property
	Required             []string
	AdditionalProperties *Schema // nil when absent
	Items                *Schema // nil when absent
	AnyOf, OneOf, AllOf  []*Schema
	Const                *Value   // nil when absent
	Enum                 []*Value // nil when absent

	Minimum, Maximum                   *string // exact number text
	ExclusiveMinimum, ExclusiveMaximum *string
	MultipleOf                         *string // exact number text, > 0
	MinItems, MaxItems                 *int64
	MinLength, MaxLength               *int64
	Pattern                            *string // as written (ECMA-262); see GoPattern
	Format                             string

	// Applicators to the value itself (besides $ref, allOf, anyOf, oneOf).
	Not            *Schema
	If, Then, Else *Schema // Then and Else are nil without If

	// Object keywords besides properties, required, additionalProperties.
	PatternProperties            []*PatternProperty // in document order
	PropertyNames                *Schema
	MinProperties, MaxProperties *int64
	// Dependencies are dependentRequired and dependentSchemas (2020-12)
	// and "dependencies" (draft-07; 2020-12 schemas may still use it), in
	// document order.
	Dependencies          []*Dependency
	UnevaluatedProperties *Schema // 2020-12

	// Array keywords besides items, minItems, maxItems. PrefixItems is
	// 2020-12 "prefixItems" or the array form of draft-07 "items"; Items
	// then applies to the elements after them (2020-12 "items", draft-07
	// "additionalItems"), and ItemsKeyword says which keyword it was.
	PrefixItems              []*Schema
	ItemsKeyword             string // "items" or "additionalItems"; "" when Items is nil
	Contains                 *Schema
	MinContains, MaxContains *int64 // minContains is 1 when absent
	UniqueItems              bool
	UnevaluatedItems         *Schema // 2020-12

	// Content annotations (no assertion, as both drafts allow): the media
	// type and encoding of a string's content, and the schema of the
	// decoded content (2020-12).
	ContentMediaType, ContentEncoding string
	ContentSchema                     *Schema

	// Inexact is set when the node has a validation keyword mcpgen cannot
	// enforce (a pattern using an ECMA-262 construct Go's regexp lacks, a
	// $dynamicRef); each one is a warning. The generated validators then
	// accept what that keyword would have rejected, never more: see the
	// README ("Validation").
	Inexact bool

	Default     *Value
	Title       string
	Description string
	Deprecated  bool

	// Ignored lists keywords present on the node that the model does not
	// act on (reported through Document.Warnings), by name.
	Ignored []string
}

// Property is one entry of "properties", in document order.
type Property struct {
	Name   string
	Schema *Schema
}

// PatternProperty is one entry of "patternProperties": Pattern is the
// regular expression as written. Unsupported is set when Go's regexp
// cannot match it (GoPattern): which members it applies to is unknown.
type PatternProperty struct {
	Pattern     string
	Schema      *Schema
	Unsupported bool
}

// Dependency is one entry of dependentRequired, dependentSchemas or
// draft-07 "dependencies": when the object has the member Name, it must
// also have the members Required, or be valid against Schema.
type Dependency struct {
	Keyword  string // "dependentRequired", "dependentSchemas" or "dependencies"
	Name     string
	Required []string // nil for a schema dependency
	Schema   *Schema  // nil for a required-members dependency
}

// Prop returns the schema of property name, or nil.
func (s *Schema) Prop(name string) *Schema {
	for _, p := range s.Properties {
		if p.Name == name {
			return p.Schema
		}
	}
	return nil
}

// IsRequired reports whether name is in "required".
func (s *Schema) IsRequired(name string) bool {
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}

// HasType reports whether the "type" keyword lists t.
func (s *Schema) HasType(t string) bool {
	for _, x := range s.Types {
		if x == t {
			return true
		}
	}
	return false
}

// IsEmpty reports whether the schema accepts every value: `true`, `{}`, or
// an object with annotations only.
func (s *Schema) IsEmpty() bool {
	if s.IsBool {
		return s.BoolValue
	}
	return s.Ref == nil && s.Types == nil && s.Properties == nil && s.Required == nil &&
		s.AdditionalProperties == nil && s.Items == nil && s.AnyOf == nil && s.OneOf == nil &&
		s.AllOf == nil && s.Const == nil && s.Enum == nil && s.Minimum == nil && s.Maximum == nil &&
		s.ExclusiveMinimum == nil && s.ExclusiveMaximum == nil && s.MinItems == nil &&
		s.MaxItems == nil && s.MinLength == nil && s.MaxLength == nil && s.Pattern == nil &&
		s.Format == "" && s.MultipleOf == nil && s.Not == nil && s.If == nil &&
		s.PatternProperties == nil && s.PropertyNames == nil && s.MinProperties == nil &&
		s.MaxProperties == nil && s.Dependencies == nil && s.UnevaluatedProperties == nil &&
		s.PrefixItems == nil && s.Contains == nil && !s.UniqueItems && s.UnevaluatedItems == nil &&
		!s.Inexact
}

// InPlace returns the subschemas that apply to the value itself rather
// than to a member or element: $ref, allOf, anyOf, oneOf, not, if, then,
// else and the dependent schemas, in that order.
func (s *Schema) InPlace() []*Schema {
	var out []*Schema
	add := func(c *Schema) {
		if c != nil {
			out = append(out, c)
		}
	}
	add(s.Ref)
	for _, l := range [][]*Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for _, c := range l {
			add(c)
		}
	}
	add(s.Not)
	add(s.If)
	add(s.Then)
	add(s.Else)
	for _, d := range s.Dependencies {
		add(d.Schema)
	}
	return out
}

// Subschemas returns every schema s applies to the value or its members
// and elements: its $ref target, InPlace, then those of members and
// elements (contentSchema, an annotation, is not among them).
func (s *Schema) Subschemas() []*Schema {
	out := s.InPlace()
	add := func(c *Schema) {
		if c != nil {
			out = append(out, c)
		}
	}
	for _, p := range s.Properties {
		add(p.Schema)
	}
	for _, p := range s.PatternProperties {
		add(p.Schema)
	}
	add(s.AdditionalProperties)
	add(s.PropertyNames)
	add(s.UnevaluatedProperties)
	for _, x := range s.PrefixItems {
		add(x)
	}
	add(s.Items)
	add(s.Contains)
	add(s.UnevaluatedItems)
	return out
}

// IsFalse reports whether the schema rejects every value.
func (s *Schema) IsFalse() bool { return s.IsBool && !s.BoolValue }

// Diagnostic is a problem found in a schema, located by file and JSON pointer.
type Diagnostic struct {
	File    string
	Pointer string
	Message string
}

func (d *Diagnostic) Error() string {
	ptr := d.Pointer
	if ptr == "" {
		ptr = "/"
	}
	return fmt.Sprintf("%s: %s: %s", d.File, ptr, d.Message)
}

// Errors is a list of diagnostics returned as one error.
type Errors []*Diagnostic

func (e Errors) Error() string {
	var b strings.Builder
	for i, d := range e {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.Error())
	}
	return b.String()
}
