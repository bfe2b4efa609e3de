package revdiff

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// Compare reports what changed from the package of one revision to the
// package of another.
func Compare(from, to *ir.Package) *Report {
	r := &Report{From: from.Revision, To: to.Revision}
	r.MethodsAdded, r.MethodsRemoved, r.MethodsMoved = compareMethods(methods(from), methods(to))
	old, cur := declsByName(from), declsByName(to)
	for _, d := range from.Decls {
		if cur[d.GoName()] == nil {
			r.TypesRemoved = append(r.TypesRemoved, typeRef(d))
		}
	}
	for _, d := range to.Decls {
		prev := old[d.GoName()]
		if prev == nil {
			r.TypesAdded = append(r.TypesAdded, typeRef(d))
			continue
		}
		if c := compareDecl(prev, d); c != nil {
			r.TypesChanged = append(r.TypesChanged, c)
		}
	}
	byName := func(a, b TypeRef) int { return strings.Compare(a.Name, b.Name) }
	slices.SortFunc(r.TypesAdded, byName)
	slices.SortFunc(r.TypesRemoved, byName)
	slices.SortFunc(r.TypesChanged, func(a, b *TypeChange) int { return strings.Compare(a.Name, b.Name) })
	return r
}

func declsByName(p *ir.Package) map[string]ir.Decl {
	m := make(map[string]ir.Decl, len(p.Decls))
	for _, d := range p.Decls {
		m[d.GoName()] = d
	}
	return m
}

// methods maps each method to the definitions carrying it: structs of a
// definition named ...Request or ...Notification whose "method" member is
// a string const.
func methods(p *ir.Package) map[string][]string {
	m := map[string][]string{}
	for _, d := range p.Decls {
		st, ok := d.(*ir.Struct)
		if !ok {
			continue
		}
		def := definition(&st.DeclInfo)
		if !strings.HasSuffix(def, "Request") && !strings.HasSuffix(def, "Notification") {
			continue
		}
		for _, f := range st.Fields {
			if f.JSONName == "method" && f.Const != nil && f.Const.Kind == ir.String {
				m[f.Const.Str] = append(m[f.Const.Str], def)
			}
		}
	}
	for _, defs := range m {
		slices.Sort(defs)
	}
	return m
}

func compareMethods(old, cur map[string][]string) (added, removed []Method, moved []MethodMove) {
	for name, defs := range old {
		if _, ok := cur[name]; !ok {
			removed = append(removed, Method{Name: name, Definitions: defs})
		}
	}
	for name, defs := range cur {
		prev, ok := old[name]
		switch {
		case !ok:
			added = append(added, Method{Name: name, Definitions: defs})
		case !slices.Equal(prev, defs):
			moved = append(moved, MethodMove{Name: name, From: prev, To: defs})
		}
	}
	byName := func(a, b Method) int { return strings.Compare(a.Name, b.Name) }
	slices.SortFunc(added, byName)
	slices.SortFunc(removed, byName)
	slices.SortFunc(moved, func(a, b MethodMove) int { return strings.Compare(a.Name, b.Name) })
	return added, removed, moved
}

func typeRef(d ir.Decl) TypeRef {
	r := TypeRef{Name: d.GoName(), Decl: declShape(d)}
	if info := declInfo(d); definition(info) == "" {
		r.Inline = info.Pointer
	}
	return r
}

// definition returns the name of the definition a declaration comes from,
// or "" for an inline schema.
func definition(info *ir.DeclInfo) string { return info.DefName() }

func declInfo(d ir.Decl) *ir.DeclInfo {
	switch d := d.(type) {
	case *ir.Struct:
		return &d.DeclInfo
	case *ir.Enum:
		return &d.DeclInfo
	case *ir.Union:
		return &d.DeclInfo
	case *ir.Kinds:
		return &d.DeclInfo
	case *ir.Raw:
		return &d.DeclInfo
	case *ir.Named:
		return &d.DeclInfo
	case *ir.Alias:
		return &d.DeclInfo
	}
	return &ir.DeclInfo{Name: d.GoName()}
}

// declShape says how a type is declared (TypeRef.Decl).
func declShape(d ir.Decl) string {
	switch d := d.(type) {
	case *ir.Struct:
		return "struct"
	case *ir.Union:
		return "union"
	case *ir.Enum:
		if d.Base == ir.KInt {
			return "int64 enum"
		}
		return "string enum"
	case *ir.Kinds:
		var kinds []string
		for _, a := range d.Alts {
			kinds = append(kinds, a.Kind.String())
		}
		return "JSON " + strings.Join(kinds, " or ")
	case *ir.Raw:
		return "json.RawMessage"
	case *ir.Named:
		return goType(d.Type)
	case *ir.Alias:
		return "= " + goType(d.Target)
	}
	return "?"
}

// goType is the Go spelling of a value of t, as the emitter writes it.
func goType(t *ir.Type) string {
	switch t.Kind {
	case ir.TString:
		return "string"
	case ir.TInt:
		return "int64"
	case ir.TFloat:
		return "float64"
	case ir.TBool:
		return "bool"
	case ir.TRaw:
		return "json.RawMessage"
	case ir.TDecl:
		return t.Decl.GoName()
	case ir.TSlice:
		return "[]" + goType(t.Elem)
	case ir.TMap:
		return "map[string]" + goType(t.Elem)
	}
	return "?"
}

func compareDecl(old, cur ir.Decl) *TypeChange {
	c := &TypeChange{Name: cur.GoName()}
	if a, b := declShape(old), declShape(cur); a != b {
		c.Decl = &Change{a, b}
	}
	switch o := old.(type) {
	case *ir.Struct:
		if n, ok := cur.(*ir.Struct); ok {
			compareFields(c, o, n)
		}
	case *ir.Enum:
		if n, ok := cur.(*ir.Enum); ok {
			c.ValuesAdded, c.ValuesRemoved = compareValues(o.Values, n.Values)
		}
	case *ir.Union:
		if n, ok := cur.(*ir.Union); ok {
			c.BranchesAdded, c.BranchesRemoved = diffSets(branchNames(o), branchNames(n))
		}
	}
	c.Deprecated = deprecation(declInfo(old).Doc, declInfo(cur).Doc)
	if c.Decl == nil && len(c.FieldsAdded)+len(c.FieldsRemoved)+len(c.FieldsRenamed)+len(c.FieldsChanged)+
		len(c.ValuesAdded)+len(c.ValuesRemoved)+len(c.BranchesAdded)+len(c.BranchesRemoved) == 0 && c.Deprecated == nil {
		return nil
	}
	return c
}

// field is a Field with what comparing needs besides.
type field struct {
	Field
	doc string
}

// extraKey is the key of Extra among the JSON names.
const extraKey = "\x00extra"

func fields(st *ir.Struct) map[string]field {
	m := map[string]field{}
	for _, f := range st.Fields {
		x := field{Field: Field{Name: f.Name, JSONName: f.JSONName, Required: f.Required}, doc: f.Doc}
		if f.Name != "" {
			x.GoType = goType(f.Type)
			if f.Pointer() {
				x.GoType = "*" + x.GoType
			}
		}
		if f.Const != nil {
			x.Const = f.Const.JSON
		}
		m[f.JSONName] = x
	}
	if st.Extra != nil {
		// The emitter keeps free-form members in order (Members) and
		// constrained ones in a map.
		typ := "Members"
		if v := st.Extra.Value; v.Kind != ir.TRaw || v.C.Raw != nil {
			typ = "map[string]" + goType(v)
		}
		m[extraKey] = field{Field: Field{Name: st.Extra.Name, GoType: typ}}
	}
	return m
}

func compareFields(c *TypeChange, o, n *ir.Struct) {
	old, cur := fields(o), fields(n)
	var added, removed []field
	for k, f := range old {
		if _, ok := cur[k]; !ok {
			removed = append(removed, f)
		}
	}
	for k, f := range cur {
		p, ok := old[k]
		if !ok {
			added = append(added, f)
			continue
		}
		if fc, changed := compareField(p, f); changed {
			c.FieldsChanged = append(c.FieldsChanged, fc)
		}
	}
	c.FieldsRenamed, added, removed = pairRenames(added, removed)
	for _, f := range added {
		c.FieldsAdded = append(c.FieldsAdded, f.Field)
	}
	for _, f := range removed {
		c.FieldsRemoved = append(c.FieldsRemoved, f.Field)
	}
	byField := func(a, b Field) int { return fieldOrder(a.Name, a.JSONName, b.Name, b.JSONName) }
	slices.SortFunc(c.FieldsAdded, byField)
	slices.SortFunc(c.FieldsRemoved, byField)
	slices.SortFunc(c.FieldsRenamed, func(a, b Rename) int { return byField(a.From, b.From) })
	slices.SortFunc(c.FieldsChanged, func(a, b FieldChange) int { return fieldOrder(a.Name, a.JSONName, b.Name, b.JSONName) })
}

// fieldOrder orders fields by Go name (JSON name for a field without one),
// then JSON name.
func fieldOrder(aName, aJSON, bName, bJSON string) int {
	return cmp.Or(strings.Compare(cmp.Or(aName, aJSON), cmp.Or(bName, bJSON)), strings.Compare(aJSON, bJSON))
}

func compareField(p, f field) (FieldChange, bool) {
	fc := FieldChange{Name: f.Name, JSONName: f.JSONName}
	if p.Required != f.Required {
		fc.Required = &Change{requiredness(p.Required), requiredness(f.Required)}
	}
	if p.GoType != f.GoType {
		fc.Type = &Change{p.GoType, f.GoType}
	}
	if p.Const != f.Const {
		fc.Const = &Change{p.Const, f.Const}
	}
	fc.Deprecated = deprecation(p.doc, f.doc)
	changed := fc.Required != nil || fc.Type != nil || fc.Const != nil || fc.Deprecated != nil
	return fc, changed
}

func requiredness(req bool) string {
	if req {
		return "required"
	}
	return "optional"
}

// pairRenames finds the renames among added and removed fields (see
// RuleSpelling, RuleDescription) and returns what is left of both.
func pairRenames(added, removed []field) (renames []Rename, restAdded, restRemoved []field) {
	match := func(r, a field) string {
		if r.JSONName == "" || a.JSONName == "" || r.GoType != a.GoType || r.Required != a.Required || r.Const != a.Const {
			return ""
		}
		if spelling(r.JSONName) == spelling(a.JSONName) {
			return RuleSpelling
		}
		if d := squash(r.doc); d != "" && d == squash(a.doc) {
			return RuleDescription
		}
		return ""
	}
	candidates := func(f field, others []field, rev bool) []int {
		var out []int
		for i, o := range others {
			r, a := f, o
			if rev {
				r, a = o, f
			}
			if match(r, a) != "" {
				out = append(out, i)
			}
		}
		return out
	}
	pairedA := map[int]bool{}
	pairedR := map[int]bool{}
	for ri, r := range removed {
		ca := candidates(r, added, false)
		if len(ca) != 1 {
			continue
		}
		a := added[ca[0]]
		if len(candidates(a, removed, true)) != 1 {
			continue
		}
		renames = append(renames, Rename{From: r.Field, To: a.Field, Rule: match(r, a)})
		pairedA[ca[0]], pairedR[ri] = true, true
	}
	for i, a := range added {
		if !pairedA[i] {
			restAdded = append(restAdded, a)
		}
	}
	for i, r := range removed {
		if !pairedR[i] {
			restRemoved = append(restRemoved, r)
		}
	}
	return renames, restAdded, restRemoved
}

// spelling drops case and everything but letters and digits.
func spelling(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// squash collapses runs of white space (the IR's docs are wrapped).
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

func compareValues(old, cur []*ir.EnumValue) (added, removed []Value) {
	o, n := map[string]string{}, map[string]string{}
	for _, v := range old {
		o[v.Value.JSON] = v.Name
	}
	for _, v := range cur {
		n[v.Value.JSON] = v.Name
	}
	for k, name := range n {
		if _, ok := o[k]; !ok {
			added = append(added, Value{JSON: k, Const: name})
		}
	}
	for k, name := range o {
		if _, ok := n[k]; !ok {
			removed = append(removed, Value{JSON: k, Const: name})
		}
	}
	byJSON := func(a, b Value) int { return strings.Compare(a.JSON, b.JSON) }
	slices.SortFunc(added, byJSON)
	slices.SortFunc(removed, byJSON)
	return added, removed
}

func branchNames(u *ir.Union) []string {
	var out []string
	for _, b := range u.Branches {
		out = append(out, goType(b.Type))
	}
	return out
}

// diffSets returns the strings only in cur (added) and only in old
// (removed), sorted.
func diffSets(old, cur []string) (added, removed []string) {
	for _, s := range cur {
		if !slices.Contains(old, s) {
			added = append(added, s)
		}
	}
	for _, s := range old {
		if !slices.Contains(cur, s) {
			removed = append(removed, s)
		}
	}
	slices.Sort(added)
	slices.Sort(removed)
	return added, removed
}

// Deprecation is read from the IR's doc text, which mcpgen builds from the
// schema: a paragraph starting "Deprecated:" (the Go convention, written
// for the schema's "deprecated" keyword), or any other sentence that
// mentions deprecation ("deprecated", "soft-deprecated", "deprecation").
var mentionRE = regexp.MustCompile(`(?i)deprecat`)

// deprecation reports how a doc that was not deprecated became so; nil
// when it did not (or already was).
func deprecation(old, cur string) *Deprecation {
	oGo, oNote := deprecationOf(old)
	nGo, nNote := deprecationOf(cur)
	switch {
	case nGo && !oGo:
		return &Deprecation{Schema: true}
	case nNote != "" && oNote == "" && !oGo:
		return &Deprecation{Note: nNote}
	}
	return nil
}

// deprecationOf says whether doc has a "Deprecated:" paragraph, and returns
// the first other sentence mentioning deprecation.
func deprecationOf(doc string) (goDeprecated bool, note string) {
	for _, para := range strings.Split(doc, "\n\n") {
		para = squash(para)
		if strings.HasPrefix(para, "Deprecated:") {
			goDeprecated = true
			continue
		}
		if note != "" {
			continue
		}
		if loc := mentionRE.FindStringIndex(para); loc != nil {
			note = sentence(para, loc[0])
		}
	}
	return goDeprecated, note
}

// sentence returns the sentence of text around byte offset i: from after
// the previous ". " to the next ". " (inclusive of the period).
func sentence(text string, i int) string {
	start := strings.LastIndex(text[:i], ". ")
	if start < 0 {
		start = 0
	} else {
		start += 2
	}
	end := strings.Index(text[i:], ". ")
	if end < 0 {
		return text[start:]
	}
	return text[start : i+end+1]
}
