package gen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/schema"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// unionType types anyOf/oneOf. Alternatives of distinct non-object JSON
// kinds become a Kinds value; anything else is a sum type.
func (b *builder) unionType(s *schema.Schema, name string) *ir.Type {
	if t, ok := b.intern.typeAt(s.Pointer); ok {
		return t
	}
	branches, oneOf := s.AnyOf, false
	if len(s.OneOf) > 0 {
		branches, oneOf = s.OneOf, true
		// Two equal branches of a oneOf both match or both fail: a sum
		// type would keep one of them and lose that. Raw JSON keeps it.
		seen := map[string]bool{}
		for _, br := range branches {
			c := canonical(br)
			// A branch with a keyword mcpgen cannot enforce may pass
			// where it should fail, and count as a second match: only
			// the raw checks count such a branch as "maybe".
			if seen[c] || checkInexact(b.check(br), map[*ir.Check]bool{}) {
				return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
			}
			seen[c] = true
		}
	}
	// Keywords next to anyOf apply to every branch.
	rest := *s
	rest.AnyOf, rest.OneOf = nil, nil
	if hasConstraints(&rest) {
		var merged []*schema.Schema
		for _, br := range branches {
			m, err := b.mergeAll(br, []*schema.Schema{br, withoutRef(&rest)}, []*schema.Schema{br, &rest})
			if err != nil {
				return b.rawFallback(s, err.Error())
			}
			merged = append(merged, m)
		}
		branches = merged
	}
	// A branch no value matches (false, or types that rule each other
	// out) changes nothing: it is left out. A branch every value matches
	// is no sum type: raw JSON says what the schema says.
	var live []*schema.Schema
	for _, br := range branches {
		switch {
		case br.IsFalse():
		case br.IsBool:
			return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
		default:
			live = append(live, br)
		}
	}
	if len(live) == 0 {
		return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
	}
	branches = live
	if e := constEnum(s, branches); e != nil {
		// An anyOf (or oneOf) of string constants, or of integer
		// constants, is an enum of them (distinct constants never both
		// match, so oneOf says the same).
		return b.enumType(e, name)
	}
	if !oneOf {
		if flat, ok := b.flatKinds(branches); ok {
			return b.kindsType(s, name, flat)
		}
	}
	words := b.branchWords(branches)
	name = b.inlineName(name, s)
	if !b.claim(name, s.Pointer) || !b.claimAs(name+"Holder", s.Pointer, "the holder of the union "+name) ||
		!b.claimAs("Unmarshal"+name, s.Pointer, "the function that decodes the union "+name) {
		return &ir.Type{Kind: ir.TRaw}
	}
	u := &ir.Union{
		DeclInfo:  ir.DeclInfo{Name: name, Doc: b.docText(name, s), Pointer: s.Pointer, Definition: s.Name},
		Holder:    name + "Holder",
		Unmarshal: "Unmarshal" + name,
		Marker:    "is" + name,
		OneOf:     oneOf,
	}
	t := &ir.Type{Kind: ir.TDecl, Decl: u}
	b.intern.setTypeAt(s.Pointer, t)
	b.add(u)
	for i, br := range branches {
		bt := b.branchType(br, name, i, words[i])
		if bt == nil {
			continue
		}
		dup := false
		for _, prev := range u.Branches {
			if prev.Type.Resolve().Decl == bt.Resolve().Decl {
				b.warnf(br.Pointer, "branch repeats an earlier branch of %s (both are %s); it is dropped", name, bt.Resolve().Decl.GoName())
				dup = true
			}
		}
		if !dup {
			u.Branches = append(u.Branches, &ir.Branch{Type: bt})
		}
	}
	return t
}

// branchType returns the named type of a union branch, declaring one for
// inline branches.
func (b *builder) branchType(br *schema.Schema, union string, i int, word string) *ir.Type {
	if br.Ref != nil && !hasConstraints(br) {
		t := b.typeOf(br, "")
		if t.Kind == ir.TDecl {
			return t
		}
		if t.Kind == ir.TExternal {
			b.errorf(br.Pointer, "%s is mapped to the external type %s.%s, but it is a branch of the union %s, which needs its own type for the branch", br.Ref.Name, t.Ext.ImportPath, t.Ext.Name, union)
			return nil
		}
	}
	if d := b.sameAsDef(br); d != nil && b.isDef(d) {
		return b.defType(d)
	}
	f, err := b.deref(br, 0)
	if err != nil {
		f = br // typeOf keeps it as raw JSON, with a warning
	}
	name := derive(union, branchSuffix(f, i)+word)
	errs := len(b.errs)
	t := b.typeOf(br, name)
	if t.Kind == ir.TDecl {
		return t
	}
	name = b.inlineName(name, br)
	if len(b.errs) > errs || !b.claim(name, br.Pointer) {
		return nil // reported once, by typeOf or the claim
	}
	n := &ir.Named{DeclInfo: ir.DeclInfo{Name: name, Doc: b.docText(name, br), Pointer: br.Pointer}, Type: t}
	b.add(n)
	return &ir.Type{Kind: ir.TDecl, Decl: n}
}

// branchSuffix is the word an inline branch adds to its union's name: its
// JSON type ("String", "Object"); without "type", the type its keywords
// are about (properties: Object, items: Array, ...); with none, "Branch"
// and its position from 1 (docs/generated-code.md, "Naming").
func branchSuffix(f *schema.Schema, i int) string {
	if s := kindSuffix(f.Types); s != "" {
		return s
	}
	switch {
	case len(f.Properties) > 0 || len(f.Required) > 0 || f.AdditionalProperties != nil:
		return "Object"
	case f.Items != nil || f.MinItems != nil || f.MaxItems != nil:
		return "Array"
	case f.MinLength != nil || f.MaxLength != nil || f.Pattern != nil || f.Format != "":
		return "String"
	case f.Minimum != nil || f.Maximum != nil || f.ExclusiveMinimum != nil || f.ExclusiveMaximum != nil:
		return "Number"
	}
	return "Branch" + strconv.Itoa(i+1)
}

// constEnum returns the enum schema an anyOf/oneOf of constants stands
// for: every branch a string constant (or a string enum), or every branch
// an integer constant, with no other keyword. nil otherwise.
func constEnum(s *schema.Schema, branches []*schema.Schema) *schema.Schema {
	var vals []*schema.Value
	seen := map[string]bool{}
	kind := schema.Kind(-1)
	for _, br := range branches {
		if br.Ref != nil || br.IsBool {
			return nil
		}
		c := *br
		c.Const, c.Enum, c.Types = nil, nil, nil
		if hasConstraints(&c) {
			return nil
		}
		list := br.Enum
		if br.Const != nil {
			if br.Enum != nil {
				return nil
			}
			list = []*schema.Value{br.Const}
		}
		if len(list) == 0 {
			return nil
		}
		for _, v := range list {
			k := v.Kind
			if k == schema.Number && !schema.IsInteger(v.Num) || k != schema.String && k != schema.Number {
				return nil
			}
			if kind == -1 {
				kind = k
			}
			if k != kind {
				return nil
			}
			want := "string"
			if k == schema.Number {
				want = "integer"
			}
			if br.Types != nil && !slices.Equal(br.Types, []string{want}) && !(k == schema.Number && slices.Equal(br.Types, []string{"number"})) {
				return nil
			}
			if !seen[v.JSON()] {
				seen[v.JSON()] = true
				vals = append(vals, v)
			}
		}
	}
	e := *s
	e.AnyOf, e.OneOf, e.Enum = nil, nil, vals
	e.Types = []string{"string"}
	if kind == schema.Number {
		e.Types = []string{"integer"}
	}
	return &e
}

// branchWords names the inline branches of a union that would otherwise
// get one name (two "Object" branches, two "String" ones): each gets a
// word more, from what tells it apart from the others of its JSON type
// (docs/generated-code.md, "Naming"), in order: the value of a member every one of them
// holds a different constant in (type: "text" -> Text); the first member
// it requires and the others do not (WithA); the first member it declares
// and the others do not (WithB); its own constant value. One branch that
// none of these tell apart keeps the plain name. When two branches are
// still alike, every branch of the group is named by its position
// (Branch2, Branch3: the first branch is 1).
func (b *builder) branchWords(branches []*schema.Schema) []string {
	words := make([]string, len(branches))
	flat := make([]*schema.Schema, len(branches))
	groups := map[string][]int{}
	var order []string
	for i, br := range branches {
		if br.Ref != nil && !hasConstraints(br) {
			continue // a named type keeps its name
		}
		if d := b.sameAsDef(br); d != nil && b.isDef(d) {
			continue
		}
		f, err := b.deref(br, 0)
		if err != nil {
			// branchType reports it, and names the branch by the
			// schema as written: so does this.
			f = br
		}
		flat[i] = f
		suffix := branchSuffix(f, i)
		if groups[suffix] == nil {
			order = append(order, suffix)
		}
		groups[suffix] = append(groups[suffix], i)
	}
	for _, suffix := range order {
		g := groups[suffix]
		if len(g) < 2 {
			continue
		}
		if w := tagWords(flat, g); w != nil {
			for j, i := range g {
				words[i] = w[j]
			}
			continue
		}
		used := map[string]int{}
		bare := 0 // branches with no word: one may keep the plain name
		positional := false
		for _, i := range g {
			w := requiredWord(flat, g, i)
			if w == "" {
				w = declaredWord(flat, g, i)
			}
			if w == "" {
				w = constWord(flat[i])
			}
			if w == "" {
				bare++
			}
			if _, dup := used[w]; dup || bare > 1 {
				positional = true
				break
			}
			used[w] = i
			words[i] = w
		}
		if positional {
			// Nothing above tells them apart: their positions do.
			for _, i := range g {
				words[i] = "Branch" + strconv.Itoa(i+1)
			}
		}
	}
	return words
}

// tagWords looks for a member that every branch of the group holds a
// constant string in, a different one each, and returns the Go words of
// the values, or nil.
func tagWords(flat []*schema.Schema, g []int) []string {
	for _, p := range flat[g[0]].Properties {
		var out []string
		seen := map[string]bool{}
		for _, i := range g {
			ps := flat[i].Prop(p.Name)
			for k := 0; ps != nil && ps.Ref != nil && ps.Const == nil && k < 100; k++ {
				ps = ps.Ref
			}
			var v *schema.Value
			switch {
			case ps == nil:
			case ps.Const != nil:
				v = ps.Const
			case len(ps.Enum) == 1:
				v = ps.Enum[0]
			}
			if v == nil || v.Kind != schema.String || seen[v.Str] {
				out = nil
				break
			}
			seen[v.Str] = true
			w, err := propertyGoName(v.Str)
			if err != nil {
				out = nil
				break
			}
			out = append(out, w)
		}
		if len(out) == len(g) && distinct(out) {
			return out
		}
	}
	return nil
}

func distinct(ws []string) bool {
	seen := map[string]bool{}
	for _, w := range ws {
		if seen[w] {
			return false
		}
		seen[w] = true
	}
	return true
}

// requiredWord is "With" and the Go names of the members branch i
// requires that not every branch of the group requires, joined by "And"
// (WithForm, WithFormAndOob), or "".
func requiredWord(flat []*schema.Schema, g []int, i int) string {
	var names []string
	for _, r := range flat[i].Required {
		all := true
		for _, j := range g {
			all = all && flat[j].IsRequired(r)
		}
		if all {
			continue
		}
		n, err := propertyGoName(r)
		if err != nil {
			return ""
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return ""
	}
	return "With" + strings.Join(names, "And")
}

// declaredWord is "With" and the Go name of the first member branch i
// declares that no other branch of the group declares, or "".
func declaredWord(flat []*schema.Schema, g []int, i int) string {
	for _, p := range flat[i].Properties {
		unique := true
		for _, j := range g {
			if j != i && flat[j].Prop(p.Name) != nil {
				unique = false
			}
		}
		if !unique {
			continue
		}
		if n, err := propertyGoName(p.Name); err == nil {
			return "With" + n
		}
	}
	return ""
}

// constWord is the Go word of a branch's constant (or one-value enum), or
// "".
func constWord(f *schema.Schema) string {
	v := f.Const
	if v == nil && len(f.Enum) == 1 {
		v = f.Enum[0]
	}
	if v == nil {
		return ""
	}
	switch v.Kind {
	case schema.String:
		if v.Str == "" {
			return "Empty"
		}
		w, _ := propertyGoName(v.Str)
		return w
	case schema.Number:
		return strings.NewReplacer("-", "Minus", ".", "Point", "+", "").Replace(v.Num)
	case schema.Bool:
		return camel([]string{fmt.Sprint(v.Bool)})
	case schema.Null:
		return "Null"
	}
	return ""
}

// flatKinds checks whether anyOf branches are plain values of distinct JSON
// kinds (no objects with properties, no references to named types) and
// returns them as (kind, schema) pairs.
func (b *builder) flatKinds(branches []*schema.Schema) ([]kindSchema, bool) {
	var out []kindSchema
	used := map[ir.Kind]bool{}
	for _, br := range branches {
		if br.Ref != nil {
			return nil, false
		}
		f, err := b.deref(br, 0)
		if err != nil || f.Types == nil || f.Enum != nil || f.Const != nil || len(f.AnyOf)+len(f.OneOf) > 0 || b.complexKeywords(f) {
			return nil, false
		}
		for _, t := range f.Types {
			k, ok := ir.KindOfType(t)
			if !ok || (k == ir.KObject && (len(f.Properties) > 0 || len(f.Required) > 0)) {
				return nil, false
			}
			first := k
			if k.IsNumber() {
				first = ir.KFloat // the first byte tells a number, not an integer
			}
			if used[first] {
				return nil, false
			}
			used[first] = true
			out = append(out, kindSchema{kind: k, s: f})
		}
	}
	return out, true
}

type kindSchema struct {
	kind ir.Kind
	s    *schema.Schema
}

// kindAlts are the accessor word and the field of each kind a Kinds value
// can hold.
var kindAlts = map[ir.Kind]struct{ name, field string }{
	ir.KString: {"String", "Str"},
	ir.KInt:    {"Integer", "Int"},
	ir.KFloat:  {"Number", "Num"},
	ir.KBool:   {"Boolean", "Bool"},
	ir.KNull:   {"Null", ""},
	ir.KArray:  {"Array", "Arr"},
	ir.KObject: {"Object", "Obj"},
}

// kindsType declares a Kinds value. flat is nil for a "type" array on s.
func (b *builder) kindsType(s *schema.Schema, name string, flat []kindSchema) *ir.Type {
	if t, ok := b.intern.typeAt(s.Pointer); ok {
		return t
	}
	if flat == nil {
		hasNumber := slices.Contains(s.Types, "number")
		for _, t := range s.Types {
			k, ok := ir.KindOfType(t)
			if !ok || (k == ir.KInt && hasNumber) {
				continue // number already holds every integer
			}
			flat = append(flat, kindSchema{kind: k, s: s})
		}
	}
	name = b.inlineName(name, s)
	if !b.claim(name, s.Pointer) {
		return &ir.Type{Kind: ir.TRaw}
	}
	k := &ir.Kinds{DeclInfo: ir.DeclInfo{Name: name, Doc: b.docText(name, s), Pointer: s.Pointer, Definition: s.Name}}
	t := &ir.Type{Kind: ir.TDecl, Decl: k}
	b.intern.setTypeAt(s.Pointer, t)
	b.add(k)
	for _, ks := range flat {
		words := kindAlts[ks.kind]
		alt := &ir.KindAlt{Kind: ks.kind, Name: words.name, Field: words.field}
		if ks.kind != ir.KNull {
			only := *ks.s
			only.Types = []string{ks.kind.String()}
			only.Name = "" // the alternative is not the definition itself
			alt.Type = b.singleType(&only, ks.kind.String(), derive(name, alt.Name))
		}
		if !b.claimAs(name+"From"+alt.Name, s.Pointer, "a constructor of "+name) {
			continue
		}
		k.Alts = append(k.Alts, alt)
	}
	return t
}

// kindsOf lists the JSON kinds a type decodes.
func kindsOf(t *ir.Type, seen map[ir.Decl]bool) []ir.Kind {
	all := []ir.Kind{ir.KNull, ir.KBool, ir.KInt, ir.KFloat, ir.KString, ir.KArray, ir.KObject}
	switch t.Kind {
	case ir.TString:
		return []ir.Kind{ir.KString}
	case ir.TInt:
		return []ir.Kind{ir.KInt}
	case ir.TFloat:
		return []ir.Kind{ir.KFloat}
	case ir.TBool:
		return []ir.Kind{ir.KBool}
	case ir.TSlice:
		return []ir.Kind{ir.KArray}
	case ir.TMap:
		return []ir.Kind{ir.KObject}
	case ir.TExternal:
		return all
	case ir.TRaw:
		if t.C.Raw != nil && len(t.C.Raw.Types) > 0 {
			return t.C.Raw.Types
		}
		if t.C.Const != nil {
			return []ir.Kind{valueKind(t.C.Const)}
		}
		return all
	}
	if seen[t.Decl] {
		return nil
	}
	seen[t.Decl] = true
	switch d := t.Decl.(type) {
	case *ir.Struct:
		return []ir.Kind{ir.KObject}
	case *ir.Tuple:
		return []ir.Kind{ir.KArray}
	case *ir.Enum:
		if d.Base == ir.KInt {
			return []ir.Kind{ir.KInt}
		}
		return []ir.Kind{ir.KString}
	case *ir.Kinds:
		var ks []ir.Kind
		for _, a := range d.Alts {
			ks = append(ks, a.Kind)
		}
		return ks
	case *ir.Raw:
		if len(d.Check.Types) > 0 {
			return d.Check.Types
		}
		return all
	case *ir.Named:
		return kindsOf(d.Type, seen)
	case *ir.Alias:
		return kindsOf(d.Target, seen)
	case *ir.Union:
		var ks []ir.Kind
		for _, br := range d.Branches {
			for _, k := range kindsOf(br.Type, seen) {
				if !slices.Contains(ks, k) {
					ks = append(ks, k)
				}
			}
		}
		return ks
	}
	return all
}

func valueKind(v *ir.Value) ir.Kind {
	switch v.Kind {
	case ir.Null:
		return ir.KNull
	case ir.Bool:
		return ir.KBool
	case ir.Number:
		return ir.KFloat
	case ir.String:
		return ir.KString
	case ir.Array:
		return ir.KArray
	}
	return ir.KObject
}

// jsonKinds are the kinds the decoder tells apart by the first byte.
var jsonKinds = []ir.Kind{ir.KNull, ir.KBool, ir.KFloat, ir.KString, ir.KArray, ir.KObject}

// accepts reports whether a branch of kinds ks can hold a value of JSON
// kind k (KFloat stands for any number).
func accepts(ks []ir.Kind, k ir.Kind) bool {
	if k == ir.KFloat {
		return slices.Contains(ks, ir.KFloat) || slices.Contains(ks, ir.KInt)
	}
	return slices.Contains(ks, k)
}

// planUnion decides how a union decodes.
func (b *builder) planUnion(u *ir.Union) {
	for _, br := range u.Branches {
		br.Kinds = kindsOf(br.Type, map[ir.Decl]bool{})
		if st, ok := br.Type.Resolve().Decl.(*ir.Struct); ok {
			br.Tags = map[string][]string{}
			for _, f := range st.Fields {
				if f.Required {
					br.Required = append(br.Required, f.JSONName)
				}
				if f.Const != nil && f.Const.Kind == ir.String {
					br.Tags[f.JSONName] = []string{f.Const.Str}
				} else if e, ok := f.Type.Resolve().Decl.(*ir.Enum); ok && f.Type.Kind == ir.TDecl && e.Base == ir.KString {
					for _, v := range e.Values {
						br.Tags[f.JSONName] = append(br.Tags[f.JSONName], v.Value.Str)
					}
				}
			}
		}
	}
	p := &ir.UnionPlan{}
	u.Plan = p
	for _, k := range jsonKinds {
		kc := &ir.KindCase{Kind: k}
		for i, br := range u.Branches {
			if accepts(br.Kinds, k) {
				kc.Candidates = append(kc.Candidates, i)
			}
		}
		if len(kc.Candidates) == 0 {
			continue
		}
		p.ByKind = append(p.ByKind, kc)
		if k == ir.KObject && len(kc.Candidates) > 1 {
			b.planTags(u, kc.Candidates)
		}
	}
}

// planTags picks the discriminator among the object candidates: the member
// whose fixed values tell the most branches apart.
func (b *builder) planTags(u *ir.Union, cands []int) {
	p := u.Plan
	type score struct{ values, branches int }
	scores := map[string]score{}
	for _, i := range cands {
		for name := range u.Branches[i].Tags {
			sc := scores[name]
			sc.branches++
			scores[name] = sc
		}
	}
	for name, sc := range scores {
		distinct := map[string]bool{}
		for _, i := range cands {
			for _, v := range u.Branches[i].Tags[name] {
				distinct[v] = true
			}
		}
		sc.values = len(distinct)
		scores[name] = sc
	}
	best := ""
	for name, sc := range scores {
		bs, ok := scores[best]
		if !ok || sc.values > bs.values || (sc.values == bs.values && (sc.branches > bs.branches ||
			(sc.branches == bs.branches && name < best))) {
			best = name
		}
	}
	if best == "" || scores[best].values < 2 {
		return
	}
	p.Discriminator = best
	for _, i := range cands {
		br := u.Branches[i]
		if vals, ok := br.Tags[best]; ok {
			for _, v := range vals {
				tc := findTag(p.ByTag, v)
				if tc == nil {
					tc = &ir.TagCase{Value: v}
					p.ByTag = append(p.ByTag, tc)
					p.Allowed = append(p.Allowed, v)
				}
				tc.Candidates = append(tc.Candidates, i)
			}
		} else {
			p.Unknown = append(p.Unknown, i)
		}
		if !slices.Contains(br.Required, best) {
			p.Untagged = append(p.Untagged, i)
		}
	}
	// Branches that do not fix the tag can match any value too.
	for _, tc := range p.ByTag {
		for _, i := range p.Unknown {
			if !slices.Contains(tc.Candidates, i) {
				tc.Candidates = append(tc.Candidates, i)
			}
		}
	}
}

func findTag(cases []*ir.TagCase, v string) *ir.TagCase {
	for _, c := range cases {
		if c.Value == v {
			return c
		}
	}
	return nil
}

// checkInexact reports whether c, or a check below it, has a keyword the
// validators cannot enforce (markInexact works this out for the whole
// graph once it is built).
func checkInexact(c *ir.Check, seen map[*ir.Check]bool) bool {
	if c == nil || seen[c] {
		return false
	}
	seen[c] = true
	if c.Inexact || c.UnknownPatterns {
		return true
	}
	for _, x := range c.Children() {
		if checkInexact(x, seen) {
			return true
		}
	}
	return false
}
