// Package revdiff compares what two MCP revisions declare for a Go user.
// It reads the IR mcpgen builds for each revision (ir.Package: every Go
// name already decided) and returns a Report: plain, sorted data. It does
// not load schemas and it does not print; `mcpgen diff` does both, and
// renders the Report through templates/diff.tmpl.
//
// Types are matched by Go name, fields by JSON name (the wire contract),
// methods by method name. Everything in a Report is sorted, so the same two
// packages always give the same Report.
package revdiff

// Report is what changed from one revision to another.
type Report struct {
	From, To string // revisions

	MethodsAdded   []Method
	MethodsRemoved []Method
	// MethodsMoved lists methods present in both revisions whose carrying
	// definitions changed.
	MethodsMoved []MethodMove

	TypesAdded   []TypeRef
	TypesRemoved []TypeRef
	TypesChanged []*TypeChange

	// Schema lists every difference of the schemas themselves, each with
	// whom it can break (CompareSchemas); set by the caller.
	Schema []SchemaChange
}

// Empty reports whether the two revisions declare the same things.
func (r *Report) Empty() bool {
	return len(r.MethodsAdded)+len(r.MethodsRemoved)+len(r.MethodsMoved)+
		len(r.TypesAdded)+len(r.TypesRemoved)+len(r.TypesChanged)+len(r.Schema) == 0
}

// Method is a JSON-RPC method: the const of the "method" member of a
// definition whose name ends in Request or Notification.
type Method struct {
	Name        string   // e.g. "tools/call"
	Definitions []string // the definitions that carry it, sorted
}

// MethodMove is a method carried by other definitions than before.
type MethodMove struct {
	Name     string
	From, To []string
}

// TypeRef is a declared Go type.
type TypeRef struct {
	Name string
	// Decl says how the type is declared: "struct", "union", "string enum",
	// "int64 enum", "JSON string or integer" (a Kinds value),
	// "json.RawMessage" (raw JSON), the underlying type of a named type
	// ("[]ContentBlock"), or "= Target" for an alias.
	Decl string
	// Inline is the JSON pointer of the schema node the type comes from
	// when it is not a definition of its own (a property's object, an
	// inline enum); "" for a definition.
	Inline string
}

// TypeChange is what changed in a type both revisions declare.
type TypeChange struct {
	Name string
	// Decl is set when the type is declared differently (struct -> union,
	// string -> []string, = A -> = B).
	Decl *Change

	// Struct fields. Extra (the field keeping undeclared members) counts as
	// a field with an empty JSON name.
	FieldsAdded   []Field
	FieldsRemoved []Field
	FieldsRenamed []Rename
	FieldsChanged []FieldChange

	// Enum values.
	ValuesAdded   []Value
	ValuesRemoved []Value

	// Union branches, by Go type name.
	BranchesAdded   []string
	BranchesRemoved []string

	// Deprecated is set when the type became deprecated.
	Deprecated *Deprecation
}

// Field is a struct field as the Go user sees it.
type Field struct {
	// Name is the Go field name; "" for a required const, which has no Go
	// field (the type writes the value itself).
	Name     string
	JSONName string // "" for Extra
	// GoType is the field's type as written in the struct ("*string",
	// "[]ContentBlock", "Members"); "" when there is no field.
	GoType   string
	Required bool
	Const    string // the JSON of the value a const member must hold, or ""
}

// Rename is a removed field paired with an added one; see Rename rules.
type Rename struct {
	From, To Field
	Rule     string // RuleSpelling or RuleDescription
}

// Rename rules. A removed and an added field of one struct are reported as
// a rename only when they have the same Go type (as written), the same
// requiredness and the same const, and
//
//   - RuleSpelling: their JSON names are equal once case and every
//     character other than a letter or digit are dropped ("cache_scope",
//     "cacheScope"); or
//   - RuleDescription: their descriptions are equal (whitespace aside)
//     and not empty;
//
// and each is the only candidate of the other. Anything less certain stays
// a removal and an addition.
const (
	RuleSpelling    = "JSON names differ only in case or separators"
	RuleDescription = "same description"
)

// FieldChange is what changed in a field both revisions declare (same
// JSON name).
type FieldChange struct {
	Name     string // Go field name in the new revision ("" for a required const)
	JSONName string
	Required *Change // "optional" -> "required", or back
	Type     *Change // Go type as written; "" is no field (a required const)
	Const    *Change // JSON of the const value; "" is no const
	// Deprecated is set when the field became deprecated.
	Deprecated *Deprecation
}

// Value is one enum value.
type Value struct {
	JSON  string // the value, as JSON: "\"user\"", "3"
	Const string // its Go constant
}

// Change is a before and after.
type Change struct{ From, To string }

// Deprecation says how a type or field became deprecated.
type Deprecation struct {
	// Schema is set when the schema marks it "deprecated": its Go doc
	// gained a "Deprecated:" paragraph (Go's convention, which mcpgen
	// writes for the keyword).
	Schema bool
	// Note is the sentence of the description that newly mentions
	// deprecation, when Schema is false.
	Note string
}
