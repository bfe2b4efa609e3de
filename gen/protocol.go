package gen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/schema"
)

// This file holds what mcpgen knows about MCP beyond its schemas: facts
// the specification states in prose. The builder applies them; each one
// is checked against the schema it is applied to, so a schema without the
// definitions they name generates as plain JSON Schema.

// typedMembers are members whose schema is a plain string but whose values
// the specification lists in the description of a definition: a struct
// member of that name is typed by the definition, so that its values are
// the definition's constants (resultType is ResultType, "complete" is
// ResultTypeComplete).
var typedMembers = map[string]string{
	"resultType": "ResultType",
}

// namedValues are the constants of those definitions (a plain string in
// the schema): definition -> constants.
var namedValues = map[string][]namedValue{
	"ResultType": {
		{"Complete", "complete", "marks a result that completes its request."},
		{"InputRequired", "input_required", "marks an InputRequiredResult: the server needs more input from the client,\nwhich retries the request."},
	},
}

type namedValue struct {
	word, value, doc string
}

// namedConsts gives n, the type of definition d, the constants a
// protocol fact lists for it.
func (b *builder) namedConsts(n *Named, d *schema.Schema) {
	vals, ok := namedValues[d.Name]
	if !ok || !plainString(d) {
		return
	}
	for _, v := range vals {
		name := n.Name + v.word
		if !b.claim(name, d.Pointer) {
			continue
		}
		n.Consts = append(n.Consts, &Const{Name: name, Value: v.value, Doc: name + " " + v.doc})
	}
}

// capabilityDefs are the definitions whose members declare capabilities.
// An open object among them (`logging: {}`: an object with no declared
// properties) is a typed empty struct that keeps the members it is sent,
// not raw JSON, so that a capability is set with a composite literal.
var capabilityDefs = []string{"ServerCapabilities", "ClientCapabilities"}

// plainString reports whether s is `{"type": "string"}` and nothing more
// (a description aside).
func plainString(s *schema.Schema) bool {
	if len(s.Types) != 1 || s.Types[0] != "string" {
		return false
	}
	c := *s
	c.Types = nil
	return !hasConstraints(&c)
}

// memberType returns the type a protocol fact gives the member jsonName of
// schema ps, or nil.
func (b *builder) memberType(jsonName string, ps *schema.Schema) *Type {
	defName, ok := typedMembers[jsonName]
	if !ok {
		return nil
	}
	def := b.doc.Def(defName)
	if def == nil || !b.isDef(def) || !plainString(def) {
		return nil
	}
	cs, err := b.deref(ps, 0)
	if err != nil || !plainString(cs) {
		return nil
	}
	return b.defType(def)
}

// inCapabilities reports whether the object schema s is a capability
// definition or an object reached from one through properties only.
func (b *builder) inCapabilities(s *schema.Schema) bool {
	for _, name := range capabilityDefs {
		def := b.doc.Def(name)
		if def == nil {
			continue
		}
		if s == def {
			return true
		}
		rest, ok := strings.CutPrefix(s.Pointer, def.Pointer+"/")
		if !ok {
			continue
		}
		parts := strings.Split(rest, "/")
		if len(parts)%2 != 0 {
			continue
		}
		all := true
		for i := 0; i < len(parts); i += 2 {
			all = all && parts[i] == "properties"
		}
		if all {
			return true
		}
	}
	return false
}

// openCapability returns the typed empty struct for the member ps of a
// capability object when ps is an open object (one with no declared
// properties, like `logging: {}` or `completions: {"$ref": "#/$defs/JSONObject"}`),
// or nil.
func (b *builder) openCapability(ps *schema.Schema, name string) *Type {
	cs, err := b.deref(ps, 0)
	if err != nil || cs.IsBool || len(cs.Properties) > 0 || len(cs.Required) > 0 || !slices.Equal(cs.Types, []string{"object"}) {
		return nil
	}
	if len(cs.AnyOf)+len(cs.OneOf)+len(cs.AllOf) > 0 || cs.Enum != nil || cs.Const != nil {
		return nil
	}
	// Inline, the object must leave its members free: one that constrains
	// them is a map of named things (experimental). Through a $ref it is
	// the schema's free-form object definition (JSONObject).
	viaRef := ps.Ref != nil && !hasConstraints(ps)
	if ap := cs.AdditionalProperties; ap != nil && (ap.IsFalse() || (!viaRef && !isTrue(ap))) {
		return nil
	}
	// The struct stands for the member (its pointer and description), not
	// for a definition it may refer to (JSONObject).
	c := *cs
	c.Pointer, c.Name = ps.Pointer, ""
	c.Description, c.Title, c.Deprecated = ps.Description, ps.Title, ps.Deprecated
	if t, ok := b.byPtr[c.Pointer]; ok {
		return t
	}
	return b.structType(&c, name)
}

// jsonrpcCodes are the error codes of JSON-RPC 2.0 itself; the runtime
// declares their constants (CodeParseError, ...) in every package with a
// dispatcher.
var jsonrpcCodes = []int64{-32700, -32600, -32601, -32602, -32603}

// resourceNotFound is the code the resources pages of 2025-11-25 and
// earlier give an unknown resource; 2026-07-28 retires it (servers answer
// -32602) but clients still accept it from earlier servers.
const resourceNotFound = -32002

// errorCodes lists the MCP error codes of the revision: one per error
// definition with a constant code (XError gets CodeX), and resource not
// found, which the specification names in prose.
func (b *builder) errorCodes(modern bool) []*ErrorCode {
	nf := &ErrorCode{Name: "CodeResourceNotFound", Code: resourceNotFound,
		Doc: "CodeResourceNotFound (-32002) answers a resources/read of a resource that does not exist."}
	if modern {
		nf.Doc = "CodeResourceNotFound (-32002) is how servers of revisions before this one answer a resources/read of a resource that does not exist; clients still accept it from them.\n\nDeprecated: servers of this revision answer CodeInvalidParams."
	}
	codes := []*ErrorCode{nf}
	ptrs := map[*ErrorCode]string{}
	for _, d := range b.decls {
		st, ok := d.(*Struct)
		if !ok || !strings.HasSuffix(st.Definition, "Error") || st.Definition == "Error" {
			continue
		}
		code, ok := constCode(st)
		if !ok || slices.Contains(jsonrpcCodes, code) {
			continue
		}
		c := &ErrorCode{Name: "Code" + strings.TrimSuffix(st.Name, "Error"), Code: code, Definition: st.Name,
			Doc: fmt.Sprintf("Code%s (%d) is the code of %s.", strings.TrimSuffix(st.Name, "Error"), code, st.Name)}
		codes = append(codes, c)
		ptrs[c] = st.Pointer
	}
	var out []*ErrorCode
	for _, c := range codes {
		if b.claim(c.Name, ptrs[c]) {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(x, y *ErrorCode) int { return int(y.Code - x.Code) })
	return out
}

// constCode finds the constant integer code of an error definition: its
// own required "code" member, or that of its "error" member.
func constCode(st *Struct) (int64, bool) {
	for _, f := range st.Fields {
		if f.JSONName == "code" && f.Required && f.Const != nil && f.Type.Kind == TInt {
			n, ok := int64Lit(f.Const.Num)
			return n, ok
		}
	}
	for _, f := range st.Fields {
		if f.JSONName == "error" && f.Type.Kind == TDecl {
			if inner, ok := f.Type.Resolve().Decl.(*Struct); ok && inner != st {
				return constCode(inner)
			}
		}
	}
	return 0, false
}
