package gen

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/schema"
)

// This file builds the conversions between a package's types and those of
// older revisions (Options.Older, mcpgen generate --serve-older). Both
// packages are built to IR first; the conversions pair their types from
// the methods down: a method's params and result, then field by field by
// JSON member name, union branches by definition, multi-kind values by
// kind, enums by value. What a revision cannot carry is decided here, per
// member and per direction (ir.FieldRule), so that the emitter only writes
// it down.

// Older is an older revision to convert to and from.
type Older struct {
	File string // names the schema in messages
	Data []byte // the schema
	// Options are the older package's own (those it is generated with, so
	// that the names agree): PinnedOptions for a pinned revision.
	Options Options
	// ImportPath is the older package's import path.
	ImportPath string
}

// olderSuffix is the part of the names of an older revision's
// conversions that names the revision: its letters and digits, the first
// letter upper case ("2025-11-25" -> "20251125").
func olderSuffix(revision string) string {
	var b strings.Builder
	for _, c := range revision {
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			b.WriteRune(c)
		}
	}
	s := b.String()
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

// olderVar is the exported variable holding an older revision's
// conversions.
func olderVar(revision string) string { return "Older" + olderSuffix(revision) }

// reserveOlderNames claims the exported names the conversions declare,
// before any definition.
func (b *builder) reserveOlderNames() {
	if len(b.opts.Older) == 0 {
		return
	}
	b.reserve(olderRevisionsName, "the conversions to older revisions")
	for _, o := range b.opts.Older {
		b.reserve(olderVar(o.Options.Revision), "the conversions to revision "+o.Options.Revision)
	}
}

// olderRevisionsName is the exported list of every older revision's
// conversions, newest first.
const olderRevisionsName = "OlderRevisions"

// buildOlder builds each older revision's package and the conversions to
// and from it.
func (b *builder) buildOlder(pkg *ir.Package) {
	if len(b.opts.Older) == 0 {
		return
	}
	if pkg.Protocol == nil {
		b.errorf("", "--serve-older needs the dispatcher (and a schema with methods): the conversions are per method")
		return
	}
	seen := map[string]bool{}
	for _, o := range b.opts.Older {
		rev := o.Options.Revision
		switch {
		case rev == "" || o.ImportPath == "" || o.Options.Package == "":
			b.errorf("", "older revision %q: a revision, a package name and an import path are needed", rev)
			continue
		case rev == b.opts.Revision:
			b.errorf("", "older revision %s is the revision being generated", rev)
			continue
		case seen[rev]:
			b.errorf("", "older revision %s is listed twice", rev)
			continue
		case o.Options.Package == b.opts.Package:
			b.errorf("", "older revision %s: its package name %s is the generated package's", rev, o.Options.Package)
			continue
		}
		seen[rev] = true
		doc, err := schema.LoadWith(o.File, o.Data, o.Options.Refs)
		if err != nil {
			b.errs = append(b.errs, &schema.Diagnostic{File: o.File, Message: fmt.Sprintf("older revision %s: %v", rev, err)})
			continue
		}
		opts := o.Options
		opts.Older = nil
		old, _, err := Build(doc, opts) // its warnings are the older package's own
		if err != nil {
			b.errs = append(b.errs, &schema.Diagnostic{File: o.File, Message: fmt.Sprintf("older revision %s does not generate: %v", rev, err)})
			continue
		}
		if old.Protocol == nil {
			b.errorf("", "older revision %s has no methods to convert (no dispatcher)", rev)
			continue
		}
		c := &convBuilder{b: b, newPkg: pkg, oldPkg: old, suffix: olderSuffix(rev), pairs: map[string]*ir.Pair{}}
		pkg.Older = append(pkg.Older, c.build(o))
	}
	sort.SliceStable(pkg.Older, func(i, j int) bool { return pkg.Older[i].Revision > pkg.Older[j].Revision })
	if len(pkg.Older) > 0 {
		pkg.OlderRevisions = olderRevisionsName
	}
}

// convBuilder pairs the types of one newer and one older package.
type convBuilder struct {
	b              *builder
	newPkg, oldPkg *ir.Package
	suffix         string
	pairs          map[string]*ir.Pair // by pairKey
	order          []*ir.Pair          // in the order they were made
}

func (c *convBuilder) build(o Older) *ir.Older {
	out := &ir.Older{
		Revision:   o.Options.Revision,
		Package:    o.Options.Package,
		ImportPath: o.ImportPath,
		File:       "older_" + o.Options.Package + ".go",
		Var:        olderVar(o.Options.Revision),
		ToValue:    "toOlder" + c.suffix + "Value",
		FromValue:  "fromOlder" + c.suffix + "Value",
		Errors:     "fromOlder" + c.suffix + "Error",
	}
	out.Methods = c.methods()
	// The definitions the runtime converts outside any method: the
	// implementation and capabilities of initialize, the level of
	// logging/setLevel.
	newDefs, oldDefs := defsOf(c.newPkg), defsOf(c.oldPkg)
	for _, name := range olderRoleDefs {
		n, o := newDefs[name], oldDefs[name]
		if n != nil && o != nil {
			c.pair(&ir.Type{Kind: ir.TDecl, Decl: n}, &ir.Type{Kind: ir.TDecl, Decl: o})
		}
	}
	for _, p := range c.order {
		if p.Down.Func != "" || p.Up.Func != "" {
			out.Pairs = append(out.Pairs, p)
		}
	}
	sort.SliceStable(out.Pairs, func(i, j int) bool { return pairLess(out.Pairs[i], out.Pairs[j]) })
	out.Values = c.values()
	// Each name is claimed for what it converts, so that two conversions
	// that would share a name are an error (a bug in mcpgen).
	at := "/older/" + out.Revision + "/"
	claim := func(name, what string) {
		if name != "" {
			c.b.claimAs(name, at+what, "a conversion to or from revision "+out.Revision)
		}
	}
	claim(out.ToValue, "ToOlder")
	claim(out.FromValue, "FromOlder")
	claim(out.Errors, "errors")
	for _, p := range out.Pairs {
		claim(p.Down.Func, "down/"+typeName(p.New)+"/"+typeName(p.Old))
		claim(p.Up.Func, "up/"+typeName(p.New)+"/"+typeName(p.Old))
	}
	for _, m := range out.Methods {
		claim(m.ParamsUp, m.Name+"/paramsUp")
		claim(m.ParamsDown, m.Name+"/paramsDown")
		claim(m.ResultUp, m.Name+"/resultUp")
		claim(m.ResultDown, m.Name+"/resultDown")
	}
	return out
}

func pairLess(a, b *ir.Pair) bool {
	if x, y := typeName(a.New), typeName(b.New); x != y {
		return x < y
	}
	return typeName(a.Old) < typeName(b.Old)
}

// olderRoleDefs are the definitions the runtime serving an older revision
// converts outside any method (initialize's implementation and
// capabilities, logging/setLevel's level): their pairs are built even when
// no method reaches them.
var olderRoleDefs = []string{"Implementation", "ClientCapabilities", "ServerCapabilities", "LoggingLevel"}

func defsOf(p *ir.Package) map[string]ir.Decl {
	m := map[string]ir.Decl{}
	for _, d := range p.Decls {
		if n := d.Info().DefName(); n != "" {
			m[n] = d
		}
	}
	return m
}

// methods pairs the methods both revisions carry, in the same direction,
// and the input requests of the newer revision (elicitation/create inside
// an InputRequiredResult) with the older revision's requests of the same
// method, which its servers send.
func (c *convBuilder) methods() []*ir.ConvMethod {
	type key struct {
		name string
		dir  ir.Direction
	}
	old := map[key]*ir.Method{}
	for _, m := range c.oldPkg.Protocol.Methods {
		old[key{m.Name, m.Direction}] = m
	}
	var out []*ir.ConvMethod
	done := map[string]bool{}
	add := func(name, word string, notification bool, np, op *ir.Type, npReq, opReq bool, nr, or *ir.Type) {
		if done[name] {
			return
		}
		done[name] = true
		if (np == nil) != (op == nil) {
			return // params one revision has and the other cannot carry
		}
		for _, t := range []*ir.Type{np, op, nr, or} {
			if t != nil && t.Resolve().Kind != ir.TDecl {
				return // the table decodes and validates declarations
			}
		}
		m := &ir.ConvMethod{Name: name, Notification: notification, NewParams: np, OldParams: op, NewParamsRequired: npReq, OldParamsRequired: opReq}
		if np != nil && op != nil {
			m.Params = c.pair(np, op)
		}
		if !notification && nr != nil && or != nil {
			m.Result = c.pair(nr, or)
		}
		m.ParamsUp = "paramsFromOlder" + c.suffix + word
		m.ParamsDown = "paramsToOlder" + c.suffix + word
		if !notification {
			m.ResultUp = "resultFromOlder" + c.suffix + word
			m.ResultDown = "resultToOlder" + c.suffix + word
		}
		out = append(out, m)
	}
	for _, m := range c.newPkg.Protocol.Methods {
		om := old[key{m.Name, m.Direction}]
		if om == nil || om.Notification != m.Notification {
			continue
		}
		add(m.Name, strings.TrimPrefix(m.Const, "Method"), m.Notification, m.Params, om.Params, m.ParamsRequired, om.ParamsRequired, m.Result, om.Result)
	}
	// Input requests: the newer revision's InputRequest branches carry
	// the method; their params and the result paired with them.
	if p := c.newPkg.Protocol; p.InputRequired != nil {
		reqs := inputRequestStructs(p)
		for _, k := range p.InputKinds {
			om := old[key{k.Method, ir.ServerToClient}]
			req := reqs[k.Method]
			if om == nil || om.Notification || req == nil {
				continue
			}
			var np *ir.Type
			var npReq bool
			if f := req.FieldByJSON("params"); f != nil {
				np, npReq = f.Type, f.Required
			}
			add(k.Method, strings.TrimPrefix(om.Const, "Method"), false, np, om.Params, npReq, om.ParamsRequired,
				&ir.Type{Kind: ir.TDecl, Decl: k.Result}, om.Result)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// inputRequestStructs maps the method of each input request an
// InputRequiredResult may carry to its struct (ElicitRequest).
func inputRequestStructs(p *ir.Protocol) map[string]*ir.Struct {
	out := map[string]*ir.Struct{}
	f := p.InputRequired.FieldByJSON("inputRequests")
	if f == nil {
		return out
	}
	t := rep(f.Type)
	if t.Kind != ir.TMap {
		return out
	}
	u := t.Elem.Union()
	if u == nil {
		return out
	}
	for _, br := range u.Branches {
		if st, ok := br.Type.Resolve().Decl.(*ir.Struct); ok && len(br.Tags["method"]) == 1 {
			out[br.Tags["method"][0]] = st
		}
	}
	return out
}

// rep is the representation of a type: aliases and named types followed
// to the type they name.
func rep(t *ir.Type) *ir.Type {
	for {
		t = t.Resolve()
		if t.Kind == ir.TDecl {
			if n, ok := t.Decl.(*ir.Named); ok {
				t = n.Type
				continue
			}
		}
		return t
	}
}

// typeName spells a type for keys and sorting.
func typeName(t *ir.Type) string {
	t = t.Resolve()
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
		return "[]" + typeName(t.Elem)
	case ir.TMap:
		return "map[string]" + typeName(t.Elem)
	case ir.TExternal:
		return t.Ext.ImportPath + "." + t.Ext.Name
	}
	return "?"
}

// basicKind is the basic Go kind of a representation: "string", "int64",
// "float64", "bool" or "raw" (JSON bytes), or "" for the other shapes.
func basicKind(t *ir.Type) string {
	switch t.Kind {
	case ir.TString, ir.TInt, ir.TFloat, ir.TBool:
		return typeName(t)
	case ir.TRaw:
		return "raw"
	case ir.TDecl:
		switch d := t.Decl.(type) {
		case *ir.Enum:
			if d.Base == ir.KInt {
				return "int64"
			}
			return "string"
		case *ir.Raw:
			return "raw"
		}
	}
	return ""
}

// sameGoType reports whether two types are spelled the same in both
// packages (no declaration of either package in them).
func sameGoType(n, o *ir.Type) bool {
	n, o = n.Resolve(), o.Resolve()
	if n.Kind != o.Kind {
		return false
	}
	switch n.Kind {
	case ir.TString, ir.TInt, ir.TFloat, ir.TBool, ir.TRaw:
		return true
	case ir.TSlice, ir.TMap:
		return sameGoType(n.Elem, o.Elem)
	case ir.TExternal:
		return *n.Ext == *o.Ext
	}
	return false
}

// pair returns the pair of a new and an old type, building it (and the
// pairs it reaches) the first time.
func (c *convBuilder) pair(n, o *ir.Type) *ir.Pair {
	n, o = n.Resolve(), o.Resolve()
	key := typeName(n) + "|" + typeName(o)
	if p, ok := c.pairs[key]; ok {
		return p
	}
	p := &ir.Pair{New: n, Old: o, Down: &ir.Conv{}, Up: &ir.Conv{}}
	c.pairs[key] = p
	c.order = append(c.order, p)
	rn, ro := rep(n), rep(o)
	switch {
	case sameGoType(n, o):
		p.Kind = ir.PairAssign
	case basicKind(rn) != "" && basicKind(rn) == basicKind(ro):
		p.Kind = ir.PairCast
		p.Down.Allowed = allowedValues(rn, ro)
		p.Up.Allowed = allowedValues(ro, rn)
		if p.Down.Allowed != nil {
			p.Down.Func = c.funcName("toOlder", n, o)
		}
		if p.Up.Allowed != nil {
			p.Up.Func = c.funcName("fromOlder", n, o)
		}
	case isStruct(rn) && isStruct(ro):
		p.Kind = ir.PairStruct
		p.Down.Func, p.Up.Func = c.funcName("toOlder", n, o), c.funcName("fromOlder", n, o)
		c.structPair(p, rn.Decl.(*ir.Struct), ro.Decl.(*ir.Struct))
	case (rn.Union() != nil || ro.Union() != nil) && unionable(rn) && unionable(ro):
		p.Kind = ir.PairUnion
		p.Down.Func, p.Up.Func = c.funcName("toOlder", n, o), c.funcName("fromOlder", n, o)
		c.unionPair(p, rn, ro)
	case isKinds(rn) && isKinds(ro):
		p.Kind = ir.PairKinds
		p.Down.Func, p.Up.Func = c.funcName("toOlder", n, o), c.funcName("fromOlder", n, o)
		c.kindsPair(p, rn.Decl.(*ir.Kinds), ro.Decl.(*ir.Kinds))
	case rn.Kind == ir.TSlice && ro.Kind == ir.TSlice:
		p.Kind = ir.PairSlice
		p.Elem = c.pair(rn.Elem, ro.Elem)
	case rn.Kind == ir.TMap && ro.Kind == ir.TMap:
		p.Kind = ir.PairMap
		p.Elem = c.pair(rn.Elem, ro.Elem)
	default:
		p.Kind = ir.PairCodec
		if basicKind(ro) == "raw" {
			p.Down.Drop = eraMembersOf(rn)
		}
		p.Up.Zeros = zeroMembers(rn)
	}
	return p
}

// funcName names the function of one direction of a pair:
// toOlder20251125CallToolResult, or with the old type's name when it
// differs: toOlder20251125RequestMetaObjectAsCallToolRequestParamsMeta.
func (c *convBuilder) funcName(dir string, n, o *ir.Type) string {
	name := dir + c.suffix + typeName(n)
	if on := typeName(o); on != typeName(n) {
		name += "As" + on
	}
	return name
}

func isStruct(t *ir.Type) bool {
	_, ok := t.Decl.(*ir.Struct)
	return ok && t.Kind == ir.TDecl
}

func isKinds(t *ir.Type) bool {
	_, ok := t.Decl.(*ir.Kinds)
	return ok && t.Kind == ir.TDecl
}

// unionable reports whether t can take part in a union pair: a union, or
// a struct that stands for one branch.
func unionable(t *ir.Type) bool { return t.Union() != nil || isStruct(t) }

// allowedValues lists the values the target representation accepts when
// the source may hold a value it lacks; nil when every source value is
// accepted.
func allowedValues(src, dst *ir.Type) []*ir.Value {
	de, ok := dst.Decl.(*ir.Enum)
	if !ok || dst.Kind != ir.TDecl {
		return nil
	}
	if se, ok := src.Decl.(*ir.Enum); ok && src.Kind == ir.TDecl {
		all := true
		for _, v := range se.Values {
			all = all && slices.ContainsFunc(de.Values, func(w *ir.EnumValue) bool { return w.Value.JSON == v.Value.JSON })
		}
		if all {
			return nil
		}
	}
	out := make([]*ir.Value, len(de.Values))
	for i, v := range de.Values {
		out[i] = v.Value
	}
	return out
}

// structPair pairs the members of two structs by JSON name: the new
// struct's in order, then those only the old one declares.
func (c *convBuilder) structPair(p *ir.Pair, ns, os *ir.Struct) {
	var names []string
	for _, f := range ns.Fields {
		names = append(names, f.JSONName)
	}
	for _, f := range os.Fields {
		if ns.FieldByJSON(f.JSONName) == nil {
			names = append(names, f.JSONName)
		}
	}
	for _, name := range names {
		nf, of := ns.FieldByJSON(name), os.FieldByJSON(name)
		pf := &ir.PairField{JSONName: name, New: nf, Old: of}
		switch {
		case nf != nil && of != nil:
			if nf.Name == "" || of.Name == "" {
				// A required const on either side: the type writes it.
				// An optional const the other side requires is set.
				pf.Down, pf.Up = &ir.FieldConv{Rule: ir.FieldConvert}, &ir.FieldConv{Rule: ir.FieldConvert}
				break
			}
			pf.Pair = c.pair(nf.Type, of.Type)
			pf.Down = &ir.FieldConv{Rule: ir.FieldConvert, Zero: of.Required && !nf.Required && name == memberMeta}
			pf.Up = &ir.FieldConv{Rule: ir.FieldConvert, Zero: nf.Required && !of.Required && name == memberMeta}
			if pf.Down.Zero || pf.Up.Zero {
				pf.Down.Why, pf.Up.Why = whyZeroMeta, whyZeroMeta
			}
			pf.Down.OmitEmpty = name == memberMeta && !of.Required
		case nf != nil:
			pf.Down = c.onlySource(name, nf, os.Extra != nil, true)
			pf.Up = c.onlyTarget(name, nf, os.Extra != nil)
		default:
			pf.Up = c.onlySource(name, of, ns.Extra != nil, false)
			pf.Down = c.onlyTarget(name, of, ns.Extra != nil)
		}
		if pf.Down.Rule == ir.FieldFill && pf.Down.FromExtra {
			p.Down.Skip = append(p.Down.Skip, name)
		}
		if pf.Up.Rule == ir.FieldFill && pf.Up.FromExtra {
			p.Up.Skip = append(p.Up.Skip, name)
		}
		p.Fields = append(p.Fields, pf)
	}
	p.Down.ExtraCopy = ns.Extra != nil && os.Extra != nil
	p.Up.ExtraCopy = ns.Extra != nil && os.Extra != nil
}

// onlySource is what a direction does with a member only its source
// declares: an era member of the newer revision is dropped (toOlder),
// anything else goes to the target's Extra, or cannot be carried.
func (c *convBuilder) onlySource(name string, f *ir.Field, targetExtra, toOlder bool) *ir.FieldConv {
	if f.Name == "" {
		// A required const the target does not declare: its value is
		// known, and the target's Extra keeps it when it can.
		if targetExtra {
			return &ir.FieldConv{Rule: ir.FieldToExtra}
		}
		return &ir.FieldConv{Rule: ir.FieldDrop, Why: "a constant the other type neither declares nor keeps"}
	}
	if em, ok := eraMembers[name]; ok && toOlder {
		return &ir.FieldConv{Rule: ir.FieldDrop, Why: em.why}
	}
	if !targetExtra {
		return &ir.FieldConv{Rule: ir.FieldRefuse}
	}
	fc := &ir.FieldConv{Rule: ir.FieldToExtra}
	if toOlder {
		fc.Drop = eraMembersOf(f.Type)
		fc.OmitEmpty = name == memberMeta
	}
	return fc
}

// eraMembersOf lists the era members a struct type declares (what a
// conversion to an older revision leaves out of its JSON).
func eraMembersOf(t *ir.Type) []string {
	st, ok := rep(t).Decl.(*ir.Struct)
	if !ok || rep(t).Kind != ir.TDecl {
		return nil
	}
	var out []string
	for _, f := range st.Fields {
		if _, era := eraMembers[f.JSONName]; era && f.Name != "" {
			out = append(out, f.JSONName)
		}
	}
	return out
}

// whyZeroMeta documents the zero _meta of a conversion to a newer
// revision that requires it.
const whyZeroMeta = "an absent _meta becomes an empty one, whose era members the runtime fills"

// onlyTarget is what a direction does with a member only its target
// declares: it comes from the source's Extra (where an earlier conversion
// put it), or from the protocol's default for an era member.
func (c *convBuilder) onlyTarget(name string, f *ir.Field, sourceExtra bool) *ir.FieldConv {
	fc := &ir.FieldConv{Rule: ir.FieldFill, FromExtra: sourceExtra}
	if f.Name == "" {
		// A required const: the type writes it; the source's unknown
		// member of that name, if any, must hold the same value.
		return fc
	}
	if em, ok := eraMembers[name]; ok {
		fc.Why = em.why
		if em.fill != "" {
			fc.Default = &ir.Value{Kind: ir.String, Str: em.fill, JSON: fmt.Sprintf("%q", em.fill)}
			fc.DefaultConst = constFor(f.Type, em.fill)
		}
		if f.Required && em.fill == "" {
			fc.Zero = true
		}
	}
	if name == memberMeta && f.Required {
		fc.Zero, fc.Why = true, whyZeroMeta
	}
	if fc.FromExtra {
		fc.Zeros = zeroMembers(f.Type)
	}
	return fc
}

// zeroMembers lists the members a struct type requires that are era
// members the runtime fills, with the JSON of their zero values; nil for
// other types.
func zeroMembers(t *ir.Type) []*ir.ZeroMember {
	st, ok := rep(t).Decl.(*ir.Struct)
	if !ok || rep(t).Kind != ir.TDecl {
		return nil
	}
	var out []*ir.ZeroMember
	for _, f := range st.Fields {
		if em, era := eraMembers[f.JSONName]; !era || !f.Required || f.Name == "" || em.fill != "" {
			continue
		}
		if z := zeroJSON(f.Type); z != "" {
			out = append(out, &ir.ZeroMember{Name: f.JSONName, JSON: z})
		}
	}
	return out
}

// zeroJSON is the JSON of the zero value of t, or "" when it has none.
func zeroJSON(t *ir.Type) string {
	r := rep(t)
	switch {
	case basicKind(r) == "string" && r.Kind == ir.TString:
		return `""`
	case basicKind(r) == "int64" && r.Kind == ir.TInt, r.Kind == ir.TFloat:
		return "0"
	case r.Kind == ir.TBool:
		return "false"
	case r.Kind == ir.TSlice:
		return "[]"
	case r.Kind == ir.TMap:
		return "{}"
	case isStruct(r):
		for _, f := range r.Decl.(*ir.Struct).Fields {
			if f.Required {
				return ""
			}
		}
		return "{}"
	}
	return ""
}

// constFor is the Go constant of value in type t (an enum value or a
// constant of a named string type), or "".
func constFor(t *ir.Type, value string) string {
	t = t.Resolve()
	if t.Kind != ir.TDecl {
		return ""
	}
	switch d := t.Decl.(type) {
	case *ir.Enum:
		for _, v := range d.Values {
			if v.Value.Kind == ir.String && v.Value.Str == value {
				return v.Name
			}
		}
	case *ir.Named:
		for _, k := range d.Consts {
			if k.Value == value {
				return k.Name
			}
		}
	}
	return ""
}

// branch is one concrete branch of a union side, with the tags it has in
// the union that lists it.
type branch struct {
	t    *ir.Type
	tags map[string][]string
}

// concrete lists the concrete branches of a union (a branch that is a
// union gives its own), or the struct itself for a struct side.
func concrete(t *ir.Type) []branch {
	u := t.Union()
	if u == nil {
		return []branch{{t: t}}
	}
	var out []branch
	seen := map[ir.Decl]bool{}
	var walk func(u *ir.Union, visited map[*ir.Union]bool)
	walk = func(u *ir.Union, visited map[*ir.Union]bool) {
		if visited[u] {
			return
		}
		visited[u] = true
		for _, br := range u.Branches {
			if inner := br.Type.Union(); inner != nil {
				walk(inner, visited)
				continue
			}
			bt := br.Type.Resolve()
			if !seen[bt.Decl] {
				seen[bt.Decl] = true
				out = append(out, branch{t: bt, tags: br.Tags})
			}
		}
	}
	walk(u, map[*ir.Union]bool{})
	return out
}

// unionPair pairs the concrete branches of two unions (or of a union and
// a struct that stands for one branch): one to one by definition, by Go
// name, then by a discriminator value that names one branch on each side,
// then by members that fit (each declares every member the other
// requires); a branch still left over converts, one way only, to a branch
// of the other side whose members fit it.
func (c *convBuilder) unionPair(p *ir.Pair, n, o *ir.Type) {
	nb, ob := concrete(n), concrete(o)
	toOld, toNew := make([]int, len(nb)), make([]int, len(ob))
	for i := range toOld {
		toOld[i] = -1
	}
	for i := range toNew {
		toNew[i] = -1
	}
	match := func(same func(a, b branch) bool) {
		for i, a := range nb {
			if toOld[i] >= 0 {
				continue
			}
			for j, b := range ob {
				if toNew[j] < 0 && same(a, b) {
					toOld[i], toNew[j] = j, i
					break
				}
			}
		}
	}
	match(func(a, b branch) bool {
		d := a.t.Decl.Info().DefName()
		return d != "" && d == b.t.Decl.Info().DefName()
	})
	match(func(a, b branch) bool { return a.t.Decl.GoName() == b.t.Decl.GoName() })
	if disc := discriminator(n); disc != "" && disc == discriminator(o) {
		match(func(a, b branch) bool {
			v := a.tags[disc]
			return len(v) == 1 && slices.Equal(v, b.tags[disc]) && tagCount(nb, disc, v[0]) == 1 && tagCount(ob, disc, v[0]) == 1
		})
	}
	match(func(a, b branch) bool { return fits(a.t, b.t) })
	// One to one is done; what is left converts one way.
	for i, a := range nb {
		pb := &ir.PairBranch{New: a.t, Down: true, Label: branchLabel(a)}
		j := toOld[i]
		if j < 0 {
			j = slices.IndexFunc(ob, func(b branch) bool { return fits(a.t, b.t) })
		}
		if j >= 0 {
			pb.Old, pb.Pair, pb.Up = ob[j].t, c.pair(a.t, ob[j].t), toOld[i] >= 0
		}
		p.Branches = append(p.Branches, pb)
	}
	for j, b := range ob {
		if toNew[j] >= 0 {
			continue
		}
		pb := &ir.PairBranch{Old: b.t, Up: true, Label: branchLabel(b)}
		if i := slices.IndexFunc(nb, func(a branch) bool { return fits(a.t, b.t) }); i >= 0 {
			pb.New, pb.Pair = nb[i].t, c.pair(nb[i].t, b.t)
		}
		p.Branches = append(p.Branches, pb)
	}
}

// discriminator is the member that tells a union's object branches apart,
// or "".
func discriminator(t *ir.Type) string {
	if u := t.Union(); u != nil && u.Plan != nil {
		return u.Plan.Discriminator
	}
	return ""
}

// tagCount counts the branches whose discriminator member holds value.
func tagCount(bs []branch, member, value string) int {
	n := 0
	for _, b := range bs {
		if slices.Contains(b.tags[member], value) {
			n++
		}
	}
	return n
}

// fits reports whether two structs can stand for each other: each
// declares every member the other requires, they require at least one
// member in common (two structs that require nothing fit anything), and
// the constants both declare agree.
func fits(a, b *ir.Type) bool {
	as, ok1 := a.Decl.(*ir.Struct)
	bs, ok2 := b.Decl.(*ir.Struct)
	if !ok1 || !ok2 {
		return false
	}
	covers := func(x, y *ir.Struct) bool {
		for _, f := range y.Fields {
			if f.Required && x.FieldByJSON(f.JSONName) == nil {
				return false
			}
		}
		return true
	}
	common := false
	for _, f := range as.Fields {
		g := bs.FieldByJSON(f.JSONName)
		if g == nil {
			continue
		}
		common = common || f.Required && g.Required
		if f.Const != nil && g.Const != nil && f.Const.JSON != g.Const.JSON {
			return false
		}
	}
	return common && covers(as, bs) && covers(bs, as)
}

// branchLabel names a branch in a conversion error: its Go name, and its
// discriminator value when it has one.
func branchLabel(b branch) string {
	label := b.t.Decl.GoName()
	var keys []string
	for k, v := range b.tags {
		if len(v) == 1 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	switch {
	case len(keys) > 0:
		label += fmt.Sprintf(" (%s %q)", keys[0], b.tags[keys[0]][0])
	case rep(b.t).Kind == ir.TSlice:
		label += " (an array)"
	}
	return label
}

// kindsPair pairs the kinds of two multi-kind values.
func (c *convBuilder) kindsPair(p *ir.Pair, n, o *ir.Kinds) {
	for _, a := range n.Alts {
		pa := &ir.PairAlt{New: a}
		for _, b := range o.Alts {
			if b.Kind == a.Kind {
				pa.Old = b
				if a.Type != nil && b.Type != nil {
					pa.Pair = c.pair(a.Type, b.Type)
				}
			}
		}
		p.Alts = append(p.Alts, pa)
	}
	for _, b := range o.Alts {
		if !slices.ContainsFunc(n.Alts, func(a *ir.KindAlt) bool { return a.Kind == b.Kind }) {
			p.Alts = append(p.Alts, &ir.PairAlt{Old: b})
		}
	}
}

// values picks the pairs ToOlder and FromOlder convert: pairs of two
// declarations that are not unions (a union's value is one of its
// branches, which have pairs of their own), each Go type at most once;
// where a type has several pairs, the one whose other side has the same
// Go name, if any.
func (c *convBuilder) values() []*ir.Pair {
	var cands []*ir.Pair
	for _, p := range c.order {
		if p.New.Kind != ir.TDecl || p.Old.Kind != ir.TDecl || p.New.Union() != nil || p.Old.Union() != nil {
			continue
		}
		if p.Kind == ir.PairCodec || p.Kind == ir.PairAssign {
			continue
		}
		cands = append(cands, p)
	}
	byNew, byOld := map[string][]*ir.Pair{}, map[string][]*ir.Pair{}
	for _, p := range cands {
		byNew[typeName(p.New)] = append(byNew[typeName(p.New)], p)
		byOld[typeName(p.Old)] = append(byOld[typeName(p.Old)], p)
	}
	unique := func(group []*ir.Pair, p *ir.Pair) bool {
		if len(group) == 1 {
			return true
		}
		same := 0
		for _, q := range group {
			if typeName(q.New) == typeName(q.Old) {
				same++
			}
		}
		return same == 1 && typeName(p.New) == typeName(p.Old)
	}
	var out []*ir.Pair
	for _, p := range cands {
		if unique(byNew[typeName(p.New)], p) && unique(byOld[typeName(p.Old)], p) {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return pairLess(out[i], out[j]) })
	return out
}
