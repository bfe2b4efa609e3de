package emit

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// This file writes the conversions between the package's types and those
// of older revisions (ir.Older): older.go with the list of them, and one
// older_<package>.go per revision with a function per pair of types and
// direction, the method table's functions and the exported *Older. Every
// decision (which member goes where, which branch pairs with which) is in
// the IR; this only writes it down. Identifiers in the generated code: in
// the source value, out the result, at the path (*convPath) of in within
// the message.

// emitOlder returns the files of the conversions, by name.
func (e *emitter) emitOlder() map[string]*jen.File {
	if len(e.pkg.Older) == 0 {
		return nil
	}
	files := map[string]*jen.File{}
	list := newFile(e.pkg.Name)
	var vars []jen.Code
	var revs []string
	for _, o := range e.pkg.Older {
		vars = append(vars, jen.Id(o.Var))
		revs = append(revs, o.Revision)
		c := &convEmitter{pkg: e.pkg, o: o, f: newFile(e.pkg.Name)}
		c.f.ImportName(o.ImportPath, o.Package)
		c.emit()
		files[o.File] = c.f
	}
	list.Comment(commentText(fmt.Sprintf("%s are the conversions between this package's types and those of the older revisions it serves (%s), newest first: a server picks the one for the revision a client negotiates with initialize, a client the one for the revision a server answers with.",
		e.pkg.OlderRevisions, strings.Join(revs, ", "))))
	list.Var().Id(e.pkg.OlderRevisions).Op("=").Index().Op("*").Id("Older").Values(vars...)
	files["older.go"] = list
	return files
}

// convEmitter writes the conversions of one older revision.
type convEmitter struct {
	pkg *ir.Package
	o   *ir.Older
	f   *jen.File
	// fail returns the statement that returns err from the function being
	// written.
	fail func(err jen.Code) jen.Code
}

// convDir is one direction: down converts to the older revision.
type convDir struct {
	down bool
	rev  string // the target revision, named in errors
}

func (d convDir) src(p *ir.Pair) *ir.Type {
	if d.down {
		return p.New
	}
	return p.Old
}

func (d convDir) dst(p *ir.Pair) *ir.Type {
	if d.down {
		return p.Old
	}
	return p.New
}

func (d convDir) conv(p *ir.Pair) *ir.Conv {
	if d.down {
		return p.Down
	}
	return p.Up
}

func (d convDir) fields(f *ir.PairField) (src, dst *ir.Field, fc *ir.FieldConv) {
	if d.down {
		return f.New, f.Old, f.Down
	}
	return f.Old, f.New, f.Up
}

func (c *convEmitter) dirs() (down, up convDir) {
	return convDir{down: true, rev: c.o.Revision}, convDir{down: false, rev: c.pkg.Revision}
}

// id names a declaration of a side.
func (c *convEmitter) id(name string, old bool) *jen.Statement {
	if old {
		return jen.Qual(c.o.ImportPath, name)
	}
	return jen.Id(name)
}

// typ is the Go type of a value of t on a side.
func (c *convEmitter) typ(t *ir.Type, old bool) *jen.Statement {
	switch t.Kind {
	case ir.TDecl:
		return c.id(t.Decl.GoName(), old)
	case ir.TSlice:
		return jen.Index().Add(c.typ(t.Elem, old))
	case ir.TMap:
		return jen.Map(jen.String()).Add(c.typ(t.Elem, old))
	}
	return goType(t)
}

// branchTyp is the Go type of a union branch: a pointer to a struct.
func (c *convEmitter) branchTyp(t *ir.Type, old bool) *jen.Statement {
	if t.IsStruct() {
		return jen.Op("*").Add(c.typ(t, old))
	}
	return c.typ(t, old)
}

// isStructRep reports whether t is a struct (through aliases): its
// conversion functions take a pointer.
func isStructRep(t *ir.Type) bool { return t.IsStruct() }

// path is the expression of a member's path below at.
func path(at jen.Code, key string) *jen.Statement {
	return jen.Add(at).Dot("Member").Call(jen.Lit(key))
}

// pathIndex is the expression of an element's path below at.
func pathIndex(at jen.Code, i jen.Code) *jen.Statement {
	return jen.Add(at).Dot("Elem").Call(i)
}

// check returns `if err != nil { <fail> }`.
func (c *convEmitter) check() jen.Code {
	return jen.If(jen.Err().Op("!=").Nil()).Block(c.fail(jen.Err()))
}

// callInto writes `if dst, err = fn(args...); err != nil { fail }`.
func (c *convEmitter) callInto(dst *jen.Statement, fn string, args ...jen.Code) []jen.Code {
	return []jen.Code{jen.If(jen.List(dst, jen.Err()).Op("=").Id(fn).Call(args...), jen.Err().Op("!=").Nil()).Block(c.fail(jen.Err()))}
}

// value writes the statements that convert src, a value of the source
// type of p (a pointer to it when srcPtr), into dst, an addressable value
// of the target type.
func (c *convEmitter) value(d convDir, p *ir.Pair, src *jen.Statement, srcPtr bool, dst *jen.Statement, at jen.Code, depth int) []jen.Code {
	val := func() *jen.Statement {
		if srcPtr {
			return jen.Op("*").Add(src.Clone())
		}
		return src.Clone()
	}
	ptr := func() *jen.Statement {
		if srcPtr {
			return src.Clone()
		}
		return jen.Op("&").Add(src.Clone())
	}
	cv := d.conv(p)
	n := strconv.Itoa(depth)
	switch p.Kind {
	case ir.PairAssign:
		return []jen.Code{dst.Clone().Op("=").Add(val())}
	case ir.PairCast:
		if cv.Func != "" {
			return c.callInto(dst.Clone(), cv.Func, val(), at)
		}
		return []jen.Code{dst.Clone().Op("=").Add(c.typ(d.dst(p), d.down)).Call(val())}
	case ir.PairStruct, ir.PairUnion:
		arg := val()
		if isStructRep(d.src(p)) {
			arg = ptr()
		}
		return c.callInto(dst.Clone(), cv.Func, arg, at)
	case ir.PairKinds:
		return c.callInto(dst.Clone(), cv.Func, val(), at)
	case ir.PairSlice:
		i, s := "i"+n, "s"+n
		body := c.value(d, p.Elem, val().Index(jen.Id(i)), false, jen.Id(s).Index(jen.Id(i)), pathIndex(at, jen.Id(i)), depth+1)
		return []jen.Code{jen.If(val().Op("!=").Nil()).Block(
			jen.Id(s).Op(":=").Make(c.typ(d.dst(p), d.down), jen.Len(val())),
			jen.For(jen.Id(i).Op(":=").Range().Add(val())).Block(body...),
			dst.Clone().Op("=").Id(s),
		)}
	case ir.PairMap:
		k, m, v, x := "k"+n, "m"+n, "v"+n, "x"+n
		body := []jen.Code{
			jen.Id(v).Op(":=").Add(val()).Index(jen.Id(k)),
			jen.Var().Id(x).Add(c.typ(d.dst(p.Elem), d.down)),
		}
		body = append(body, c.value(d, p.Elem, jen.Id(v), false, jen.Id(x), pathKey(at, jen.Id(k)), depth+1)...)
		body = append(body, jen.Id(m).Index(jen.Id(k)).Op("=").Id(x))
		return []jen.Code{jen.If(val().Op("!=").Nil()).Block(
			jen.Id(m).Op(":=").Make(c.typ(d.dst(p), d.down), jen.Len(val())),
			jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(val()))).Block(body...),
			dst.Clone().Op("=").Id(m),
		)}
	case ir.PairCodec:
		b := "b" + n
		var out []jen.Code
		if isRaw(d.src(p)) {
			out = append(out, jen.Id(b).Op(":=").Qual(jsonPkg, "RawMessage").Call(val()))
		} else {
			out = append(out,
				jen.Var().Id(b).Qual(jsonPkg, "RawMessage"),
				jen.If(jen.List(jen.Id(b), jen.Err()).Op("=").Qual(protocolPkg, "ConvEncode").Call(val(), at), jen.Err().Op("!=").Nil()).Block(c.fail(jen.Err())))
		}
		if len(cv.Drop) > 0 {
			args := []jen.Code{jen.Id(b)}
			for _, m := range cv.Drop {
				args = append(args, jen.Lit(m))
			}
			out = append(out, jen.Id(b).Op("=").Qual(protocolPkg, "ConvDropMembers").Call(args...))
		}
		if isRaw(d.dst(p)) {
			return append(out, dst.Clone().Op("=").Add(c.typ(d.dst(p), d.down)).Call(jen.Id(b)))
		}
		if add := addZeros(jen.Id(b), cv.Zeros); add != nil {
			out = append(out, jen.Id(b).Op("=").Add(add))
		}
		return append(out, c.decode(d.dst(p), d.down, d.rev, jen.Id(b), dst, at, depth+1)...)
	}
	panic(fmt.Sprintf("emit: pair kind %d", p.Kind))
}

// inline is the expression that converts src when that needs no
// statement (an assignment, an unchecked Go conversion), or nil.
func (c *convEmitter) inline(d convDir, p *ir.Pair, src *jen.Statement, srcPtr bool) *jen.Statement {
	v := src.Clone()
	if srcPtr {
		v = jen.Op("*").Add(src.Clone())
	}
	switch {
	case p.Kind == ir.PairAssign:
		return v
	case p.Kind == ir.PairCast && d.conv(p).Func == "":
		return c.typ(d.dst(p), d.down).Call(v)
	}
	return nil
}

// addZeros is the expression that adds the zero members to the JSON b, or
// nil when there are none.
func addZeros(b jen.Code, zeros []*ir.ZeroMember) *jen.Statement {
	if len(zeros) == 0 {
		return nil
	}
	args := []jen.Code{b}
	for _, z := range zeros {
		args = append(args, jen.Lit(z.Name), jen.Lit(z.JSON))
	}
	return jen.Qual(protocolPkg, "ConvAddMembers").Call(args...)
}

// pathKey is the expression of a map value's path below at.
func pathKey(at jen.Code, k jen.Code) *jen.Statement {
	return jen.Add(at).Dot("Member").Call(k)
}

// decode writes the statements that decode the JSON raw into dst, an
// addressable value of type t on a side (old), through that package's
// decoders: a union's Unmarshal function, UnmarshalJSON for the other
// declarations, encoding/json for the rest, element by element for
// slices and maps (whose elements may be unions).
func (c *convEmitter) decode(t *ir.Type, old bool, rev string, raw jen.Code, dst *jen.Statement, at jen.Code, depth int) []jen.Code {
	n := strconv.Itoa(depth)
	switch r := t.Resolve(); {
	case r.Kind == ir.TDecl && r.Union() != nil:
		u := r.Union()
		x := "u" + n
		return []jen.Code{
			jen.Var().Id(x).Add(c.typ(t, old)),
			jen.If(jen.List(jen.Id(x), jen.Err()).Op("=").Add(c.id(u.Unmarshal, old)).Call(raw), jen.Err().Op("!=").Nil()).Block(
				c.fail(jen.Qual(protocolPkg, "ConvFail").Call(at, jen.Lit("the value does not fit "+rev+"'s "+u.Name+": ").Op("+").Err().Dot("Error").Call())),
			),
			dst.Clone().Op("=").Id(x),
		}
	case r.Kind == ir.TSlice:
		parts, i, s := "p"+n, "i"+n, "s"+n
		body := c.decode(r.Elem, old, rev, jen.Id(parts).Index(jen.Id(i)), jen.Id(s).Index(jen.Id(i)), pathIndex(at, jen.Id(i)), depth+1)
		return []jen.Code{
			jen.Var().Id(parts).Index().Qual(jsonPkg, "RawMessage"),
			jen.If(jen.List(jen.Id(parts), jen.Err()).Op("=").Qual(protocolPkg, "ConvSplit").Index(jen.Index().Qual(jsonPkg, "RawMessage")).Call(raw, at), jen.Err().Op("!=").Nil()).Block(c.fail(jen.Err())),
			jen.Id(s).Op(":=").Make(c.typ(t, old), jen.Len(jen.Id(parts))),
			jen.For(jen.Id(i).Op(":=").Range().Id(parts)).Block(body...),
			dst.Clone().Op("=").Id(s),
		}
	case r.Kind == ir.TMap:
		parts, k, m, x := "p"+n, "k"+n, "m"+n, "x"+n
		body := []jen.Code{jen.Var().Id(x).Add(c.typ(r.Elem, old))}
		body = append(body, c.decode(r.Elem, old, rev, jen.Id(parts).Index(jen.Id(k)), jen.Id(x), pathKey(at, jen.Id(k)), depth+1)...)
		body = append(body, jen.Id(m).Index(jen.Id(k)).Op("=").Id(x))
		return []jen.Code{
			jen.Var().Id(parts).Map(jen.String()).Qual(jsonPkg, "RawMessage"),
			jen.If(jen.List(jen.Id(parts), jen.Err()).Op("=").Qual(protocolPkg, "ConvSplit").Index(jen.Map(jen.String()).Qual(jsonPkg, "RawMessage")).Call(raw, at), jen.Err().Op("!=").Nil()).Block(c.fail(jen.Err())),
			jen.Id(m).Op(":=").Make(c.typ(t, old), jen.Len(jen.Id(parts))),
			jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(jen.Id(parts)))).Block(body...),
			dst.Clone().Op("=").Id(m),
		}
	}
	return []jen.Code{
		jen.If(jen.Err().Op("=").Qual(protocolPkg, "ConvDecode").Call(raw, jen.Op("&").Add(dst.Clone()), at, jen.Lit(rev), jen.Lit(typeSpelling(t))), jen.Err().Op("!=").Nil()).Block(c.fail(jen.Err())),
	}
}

// typeSpelling is a type as a message names it.
func typeSpelling(t *ir.Type) string {
	switch t.Kind {
	case ir.TDecl:
		return t.Decl.GoName()
	case ir.TSlice:
		return "[]" + typeSpelling(t.Elem)
	case ir.TMap:
		return "map[string]" + typeSpelling(t.Elem)
	case ir.TExternal:
		return t.Ext.Name
	}
	return fmt.Sprintf("%#v", goType(t))
}

// present is the condition that an optional member holds a value (nil
// when the member is required: it always does).
func present(f *ir.Field, expr *jen.Statement) *jen.Statement {
	if f.Required {
		return nil
	}
	if f.Pointer() {
		return expr.Clone().Op("!=").Nil()
	}
	if t := f.Type.Resolve(); t.Kind == ir.TDecl {
		if _, ok := t.Decl.(*ir.Kinds); ok {
			return expr.Clone().Dot("Kind").Op("!=").Lit(0)
		}
	}
	return expr.Clone().Op("!=").Nil()
}

// emit writes the file of one older revision.
func (c *convEmitter) emit() {
	down, up := c.dirs()
	for _, p := range c.o.Pairs {
		if p.Down.Func != "" {
			c.pairFunc(down, p)
		}
		if p.Up.Func != "" {
			c.pairFunc(up, p)
		}
	}
	for _, m := range c.o.Methods {
		c.methodFuncs(m)
	}
	c.valueFunc(down)
	c.valueFunc(up)
	c.errorsFunc()
	c.table()
}

// sideName is how a doc comment names a type of a side.
func (c *convEmitter) sideName(t *ir.Type, old bool) string {
	if old {
		return "revision " + c.o.Revision + "'s " + typeSpelling(t)
	}
	return typeSpelling(t)
}

// pairFunc writes the function of one direction of a pair.
func (c *convEmitter) pairFunc(d convDir, p *ir.Pair) {
	cv := d.conv(p)
	src, dst := d.src(p), d.dst(p)
	in := c.typ(src, !d.down)
	if isStructRep(src) {
		in = jen.Op("*").Add(in)
	}
	doc := fmt.Sprintf("%s converts a %s to %s.", cv.Func, c.sideName(src, !d.down), c.sideName(dst, d.down))
	c.fail = func(err jen.Code) jen.Code { return jen.Return(jen.Id("out"), err) }
	var body []jen.Code
	switch p.Kind {
	case ir.PairStruct:
		var notes []string
		body, notes = c.structBody(d, p)
		if len(notes) > 0 {
			doc += "\n\n" + strings.Join(notes, "\n\n")
		}
	case ir.PairUnion:
		body = c.unionBody(d, p)
	case ir.PairKinds:
		body = c.kindsBody(d, p)
	case ir.PairCast:
		body = c.enumBody(d, p)
	default:
		panic(fmt.Sprintf("emit: no function for pair kind %d", p.Kind))
	}
	c.f.Comment(commentText(doc))
	c.f.Func().Id(cv.Func).Params(jen.Id("in").Add(in), jen.Id("at").Op("*").Qual(protocolPkg, "ConvPath")).
		Params(jen.Id("out").Add(c.typ(dst, d.down)), jen.Err().Error()).Block(body...)
}

// constLit is a const member's value as a Go literal of type t on a side.
func (c *convEmitter) constLit(v *ir.Value, t *ir.Type, old bool) *jen.Statement {
	var lit *jen.Statement
	switch v.Kind {
	case ir.String:
		lit = jen.Lit(v.Str)
	case ir.Bool:
		lit = jen.Lit(v.Bool)
	default:
		lit = jen.Op(v.Num)
	}
	if t.Resolve().Kind == ir.TDecl {
		return c.typ(t, old).Call(lit)
	}
	return lit
}

// structBody converts a struct member by member, then its unknown
// members; notes document the drops and defaults.
func (c *convEmitter) structBody(d convDir, p *ir.Pair) ([]jen.Code, []string) {
	cv := d.conv(p)
	srcSt := d.src(p).Resolve().Decl.(*ir.Struct)
	dstSt := d.dst(p).Resolve().Decl.(*ir.Struct)
	var out []jen.Code
	var notes []string
	for _, pf := range p.Fields {
		sf, tf, fc := d.fields(pf)
		at := path(jen.Id("at"), pf.JSONName)
		var srcExpr, dstExpr *jen.Statement
		if sf != nil && sf.Name != "" {
			srcExpr = jen.Id("in").Dot(sf.Name)
		}
		if tf != nil && tf.Name != "" {
			dstExpr = jen.Id("out").Dot(tf.Name)
		}
		switch fc.Rule {
		case ir.FieldConvert:
			switch {
			case srcExpr == nil && dstExpr == nil:
				continue // both types write the constant
			case srcExpr == nil:
				// The source's type fixes the member (a required const);
				// the target has a field for it.
				v := c.constLit(sf.Const, tf.Type, d.down)
				if tf.Pointer() {
					v = jen.Qual(protocolPkg, "ConvPtr").Call(v)
				}
				out = append(out, dstExpr.Clone().Op("=").Add(v))
				continue
			case dstExpr == nil:
				// The target's type writes a constant: the source's value,
				// when it has one, must be it.
				stmts := []jen.Code{
					jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual(protocolPkg, "ConvEncode").Call(srcExpr.Clone(), at),
					c.check(),
					jen.If(jen.Op("!").Qual(codecPkg, "JSONEqual").Call(jen.Id("b"), jen.Index().Byte().Call(jen.Lit(tf.Const.JSON)))).Block(
						c.fail(jen.Qual(protocolPkg, "ConvFail").Call(at, jen.Lit(fmt.Sprintf("%s requires %s here", d.rev, tf.Const.JSON))))),
				}
				if cond := present(sf, srcExpr); cond != nil {
					out = append(out, jen.If(cond).Block(stmts...))
				} else {
					out = append(out, jen.Block(stmts...))
				}
				continue
			}
			x := jen.Id("x")
			var stmts []jen.Code
			assign := dstExpr.Clone().Op("=").Add(x.Clone())
			if tf.Pointer() {
				assign = dstExpr.Clone().Op("=").Op("&").Add(x.Clone())
			}
			if k := pf.Pair.Kind; (k == ir.PairSlice || k == ir.PairMap) && !tf.Pointer() && !fc.OmitEmpty && (!tf.Required || sf.Required) {
				// Element by element; nil stays nil.
				out = append(out, c.value(d, pf.Pair, srcExpr, false, dstExpr, at, 1)...)
				continue
			}
			if e := c.inline(d, pf.Pair, srcExpr, sf.Pointer()); e != nil && !fc.OmitEmpty {
				// A plain assignment or Go conversion.
				if tf.Pointer() {
					e = jen.Qual(protocolPkg, "ConvPtr").Call(e)
				}
				assign = dstExpr.Clone().Op("=").Add(e)
			} else {
				stmts = append(stmts, jen.Var().Id("x").Add(c.typ(tf.Type, d.down)))
				stmts = append(stmts, c.value(d, pf.Pair, srcExpr, sf.Pointer(), x, at, 1)...)
			}
			if fc.OmitEmpty {
				stmts = append(stmts, c.unlessEmpty(tf.Type, d.down, x, assign)...)
				notes = append(notes, fmt.Sprintf("An empty %s is left out: %s does not require it, and {} and no %s say the same.", pf.JSONName, d.rev, pf.JSONName))
			} else {
				stmts = append(stmts, assign)
			}
			if fc.Zero {
				notes = append(notes, fmt.Sprintf("A %s the value lacks is an empty one: %s.", pf.JSONName, fc.Why))
			}
			cond := present(sf, srcExpr)
			switch {
			case cond == nil && len(stmts) == 1:
				out = append(out, stmts...)
			case cond == nil:
				out = append(out, jen.Block(stmts...))
			case tf.Required && !fc.Zero:
				out = append(out, jen.If(cond).Block(stmts...).Else().Block(
					c.fail(jen.Qual(protocolPkg, "ConvMissing").Call(at, jen.Lit(d.rev), jen.Lit(pf.JSONName)))))
			default:
				out = append(out, jen.If(cond).Block(stmts...))
			}
		case ir.FieldToExtra:
			var stmts []jen.Code
			if srcExpr == nil {
				stmts = append(stmts, jen.Id("b").Op(":=").Qual(jsonPkg, "RawMessage").Call(jen.Lit(sf.Const.JSON)))
			} else {
				v := srcExpr.Clone()
				stmts = append(stmts,
					jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual(protocolPkg, "ConvEncode").Call(v, at),
					c.check())
			}
			if len(fc.Drop) > 0 {
				args := []jen.Code{jen.Id("b")}
				for _, m := range fc.Drop {
					args = append(args, jen.Lit(m))
				}
				stmts = append(stmts, jen.Id("b").Op("=").Qual(protocolPkg, "ConvDropMembers").Call(args...))
				notes = append(notes, fmt.Sprintf("%s keeps %s among its unknown members, without %s.", d.rev, pf.JSONName, strings.Join(quoteAll(fc.Drop), ", ")))
			}
			add := c.addExtra(dstSt, d.down, d.rev, jen.Lit(pf.JSONName), jen.Id("b"), at)
			if fc.OmitEmpty {
				add = []jen.Code{jen.If(jen.Op("!").Qual(protocolPkg, "ConvEmptyObject").Call(jen.Id("b"))).Block(add...)}
			}
			stmts = append(stmts, add...)
			var cond *jen.Statement
			if srcExpr != nil {
				cond = present(sf, srcExpr)
			}
			if cond != nil {
				out = append(out, jen.If(cond).Block(stmts...))
			} else {
				out = append(out, jen.Block(stmts...))
			}
		case ir.FieldDrop:
			notes = append(notes, fmt.Sprintf("It drops %s: %s.", pf.JSONName, fc.Why))
		case ir.FieldRefuse:
			if srcExpr == nil {
				continue
			}
			fail := c.fail(jen.Qual(protocolPkg, "ConvFail").Call(at, jen.Lit(fmt.Sprintf("%s has no member %q here and keeps no unknown members", d.rev, pf.JSONName))))
			if cond := present(sf, srcExpr); cond != nil {
				out = append(out, jen.If(cond).Block(fail))
			} else {
				out = append(out, fail) // a required member it cannot carry
			}
		case ir.FieldFill:
			out = append(out, c.fill(d, pf, srcSt, tf, fc, dstExpr, at, &notes)...)
		}
	}
	out = append(out, c.extra(d, cv, srcSt, dstSt)...)
	return append(out, jen.Return(jen.Id("out"), jen.Nil())), notes
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// unlessEmpty guards assign with a check that x, of type t, is not the
// empty object.
func (c *convEmitter) unlessEmpty(t *ir.Type, old bool, x, assign *jen.Statement) []jen.Code {
	if t.IsStruct() {
		return []jen.Code{
			jen.If(jen.List(jen.Id("b"), jen.Id("_")).Op(":=").Add(x.Clone()).Dot("AppendJSON").Call(jen.Nil()), jen.Op("!").Qual(protocolPkg, "ConvEmptyObject").Call(jen.Id("b"))).Block(assign),
		}
	}
	if r := t.Resolve(); r.Kind == ir.TRaw || r.Kind == ir.TDecl && isRawDecl(r.Decl) {
		return []jen.Code{jen.If(jen.Op("!").Qual(protocolPkg, "ConvEmptyObject").Call(x.Clone())).Block(assign)}
	}
	return []jen.Code{assign}
}

func isRawDecl(d ir.Decl) bool {
	_, ok := d.(*ir.Raw)
	return ok
}

// isRaw reports whether values of t are JSON bytes (json.RawMessage, an
// opaque type, or a named type of either).
func isRaw(t *ir.Type) bool {
	for {
		t = t.Resolve()
		if t.Kind == ir.TRaw {
			return true
		}
		if t.Kind != ir.TDecl {
			return false
		}
		switch d := t.Decl.(type) {
		case *ir.Raw:
			return true
		case *ir.Named:
			t = d.Type
		default:
			return false
		}
	}
}

// fill sets a member only the target declares: from the source's unknown
// member of that name, or the default, or (when the target requires it)
// its zero value or an error.
func (c *convEmitter) fill(d convDir, pf *ir.PairField, srcSt *ir.Struct, tf *ir.Field, fc *ir.FieldConv, dstExpr *jen.Statement, at jen.Code, notes *[]string) []jen.Code {
	var fallback []jen.Code
	switch {
	case dstExpr == nil:
		// A required const: the type writes it.
	case fc.Default != nil:
		var v *jen.Statement
		if fc.DefaultConst != "" {
			v = c.id(fc.DefaultConst, d.down)
		} else {
			v = c.constLit(fc.Default, tf.Type, d.down)
		}
		if tf.Pointer() {
			v = jen.Qual(protocolPkg, "ConvPtr").Call(v)
		}
		fallback = append(fallback, dstExpr.Clone().Op("=").Add(v))
		*notes = append(*notes, fmt.Sprintf("A %s the value lacks is %s: %s.", pf.JSONName, fc.Default.JSON, fc.Why))
	case tf.Required && fc.Zero:
		*notes = append(*notes, fmt.Sprintf("A %s the value lacks is the zero value: %s.", pf.JSONName, fc.Why))
	case tf.Required:
		fallback = append(fallback, c.fail(jen.Qual(protocolPkg, "ConvMissing").Call(at, jen.Lit(d.rev), jen.Lit(pf.JSONName))))
	}
	if !fc.FromExtra {
		return fallback
	}
	var use []jen.Code
	if dstExpr == nil {
		use = []jen.Code{jen.If(jen.Op("!").Qual(codecPkg, "JSONEqual").Call(jen.Id("b"), jen.Index().Byte().Call(jen.Lit(tf.Const.JSON)))).Block(
			c.fail(jen.Qual(protocolPkg, "ConvFail").Call(at, jen.Lit(fmt.Sprintf("%s requires %s here", d.rev, tf.Const.JSON)))))}
	} else {
		if add := addZeros(jen.Id("b"), fc.Zeros); add != nil {
			use = append(use, jen.Id("b").Op(":=").Add(add))
			*notes = append(*notes, fmt.Sprintf("A %s taken from the unknown members gets the zero values of the members the runtime fills.", pf.JSONName))
		}
		use = append(use, jen.Var().Id("x").Add(c.typ(tf.Type, d.down)))
		use = append(use, c.decode(tf.Type, d.down, d.rev, jen.Id("b"), jen.Id("x"), at, 1)...)
		if tf.Pointer() {
			use = append(use, dstExpr.Clone().Op("=").Op("&").Id("x"))
		} else {
			use = append(use, dstExpr.Clone().Op("=").Id("x"))
		}
	}
	e := jen.Id("in").Dot(srcSt.Extra.Name)
	if rawExtra(srcSt) {
		stmt := jen.If(jen.List(jen.Id("b"), jen.Id("ok")).Op(":=").Add(e).Dot("Get").Call(jen.Lit(pf.JSONName)), jen.Id("ok")).Block(use...)
		if len(fallback) > 0 {
			stmt = stmt.Else().Block(fallback...)
		}
		return []jen.Code{stmt}
	}
	// A typed map of unknown members: the value found, as JSON.
	stmt := jen.If(jen.Id("ok")).Block(use...)
	if len(fallback) > 0 {
		stmt = stmt.Else().Block(fallback...)
	}
	return []jen.Code{jen.Block(
		jen.List(jen.Id("b"), jen.Id("ok"), jen.Err()).Op(":=").Qual(protocolPkg, "ConvExtraGet").Call(e, jen.Lit(pf.JSONName), at),
		c.check(),
		stmt,
	)}
}

// addExtra appends the member key (JSON b, at path at) to the target's
// unknown members.
func (c *convEmitter) addExtra(st *ir.Struct, old bool, rev string, key, b jen.Code, at jen.Code) []jen.Code {
	e := jen.Id("out").Dot(st.Extra.Name)
	if rawExtra(st) {
		return []jen.Code{e.Clone().Op("=").Append(e.Clone(), c.id("Member", old).Values(jen.Dict{jen.Id("Name"): key, jen.Id("Value"): b}))}
	}
	out := []jen.Code{
		jen.If(e.Clone().Op("==").Nil()).Block(e.Clone().Op("=").Make(jen.Map(jen.String()).Add(c.typ(st.Extra.Value, old)))),
		jen.Var().Id("v").Add(c.typ(st.Extra.Value, old)),
	}
	out = append(out, c.decode(st.Extra.Value, old, rev, b, jen.Id("v"), at, 2)...)
	return append(out, e.Clone().Index(key).Op("=").Id("v"))
}

// extra copies the source's unknown members but those a member took to
// the target's, or fails when the target keeps none.
func (c *convEmitter) extra(d convDir, cv *ir.Conv, src, dst *ir.Struct) []jen.Code {
	if src.Extra == nil {
		return nil
	}
	e := jen.Id("in").Dot(src.Extra.Name)
	members := rawExtra(src)
	var skip jen.Code
	if len(cv.Skip) > 0 {
		var names []jen.Code
		for _, s := range cv.Skip {
			names = append(names, jen.Lit(s))
		}
		skip = jen.If(jen.Qual("slices", "Contains").Call(jen.Index().String().Values(names...), jen.Id("k"))).Block(jen.Continue())
	}
	at := pathKey(jen.Id("at"), jen.Id("k"))
	if dst.Extra == nil {
		refuse := c.fail(jen.Qual(protocolPkg, "ConvFail").Call(at, jen.Lit(d.rev+" keeps no unknown members here")))
		keys := jen.Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(e.Clone()))
		if members {
			keys = jen.Add(e.Clone())
		}
		if skip == nil {
			// The first unknown member fails.
			first := jen.Id("k").Op(":=").Add(keys).Index(jen.Lit(0))
			if members {
				first = jen.Id("k").Op(":=").Add(e.Clone()).Index(jen.Lit(0)).Dot("Name")
			}
			return []jen.Code{jen.If(jen.Len(e.Clone()).Op(">").Lit(0)).Block(first, refuse)}
		}
		if members {
			return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("m")).Op(":=").Range().Add(e)).Block(
				jen.Id("k").Op(":=").Id("m").Dot("Name"), skip, refuse)}
		}
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(keys)).Block(skip, refuse)}
	}
	var body []jen.Code
	if members {
		body = append(body, jen.List(jen.Id("k"), jen.Id("b")).Op(":=").List(jen.Id("m").Dot("Name"), jen.Id("m").Dot("Value")))
	}
	if skip != nil {
		body = append(body, skip)
	}
	if members {
		body = append(body, c.addExtra(dst, d.down, d.rev, jen.Id("k"), jen.Id("b"), at)...)
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("m")).Op(":=").Range().Add(e)).Block(body...)}
	}
	body = append(body,
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual(protocolPkg, "ConvEncode").Call(e.Clone().Index(jen.Id("k")), at),
		c.check())
	body = append(body, c.addExtra(dst, d.down, d.rev, jen.Id("k"), jen.Id("b"), at)...)
	return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(e))).Block(body...)}
}

// unionBody converts a union (or the struct that stands for one of its
// branches) branch by branch.
func (c *convEmitter) unionBody(d convDir, p *ir.Pair) []jen.Code {
	src, dst := d.src(p), d.dst(p)
	srcUnion, dstUnion := src.Union() != nil, dst.Union() != nil
	convert := func(b *ir.PairBranch, v *jen.Statement, vPtr bool) []jen.Code {
		tb := b.New
		if d.down {
			tb = b.Old
		}
		if tb == nil {
			return []jen.Code{c.fail(jen.Qual(protocolPkg, "ConvFail").Call(jen.Id("at"), jen.Lit(d.rev+" has no "+b.Label)))}
		}
		out := []jen.Code{jen.Var().Id("x").Add(c.typ(tb, d.down))}
		out = append(out, c.value(d, b.Pair, v, vPtr, jen.Id("x"), jen.Id("at"), 1)...)
		if dstUnion && tb.IsStruct() {
			out = append(out, jen.Return(jen.Op("&").Id("x"), jen.Nil()))
		} else {
			out = append(out, jen.Return(jen.Id("x"), jen.Nil()))
		}
		return out
	}
	var used []*ir.PairBranch
	for _, b := range p.Branches {
		if d.down && b.Down || !d.down && b.Up {
			used = append(used, b)
		}
	}
	if !srcUnion {
		if len(used) != 1 {
			panic(fmt.Sprintf("emit: struct side of union pair %s has %d branches", typeSpelling(src), len(used)))
		}
		return convert(used[0], jen.Id("in"), true)
	}
	cases := []jen.Code{jen.Case(jen.Nil()).Block(jen.Return(jen.Id("out"), jen.Nil()))}
	for _, b := range used {
		sb := b.New
		if !d.down {
			sb = b.Old
		}
		body := convert(b, jen.Id("v"), sb.IsStruct())
		if sb.IsStruct() {
			// A nil pointer is no value, as a nil union is.
			body = append([]jen.Code{jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(jen.Id("out"), jen.Nil()))}, body...)
		}
		cases = append(cases, jen.Case(c.branchTyp(sb, !d.down)).Block(body...))
	}
	return []jen.Code{
		jen.Switch(jen.Id("v").Op(":=").Id("in").Assert(jen.Type())).Block(cases...),
		c.fail(jen.Qual(protocolPkg, "ConvWrongType").Call(jen.Id("in"), jen.Lit("a branch of "+typeSpelling(src)))),
	}
}

// kindsBody converts a multi-kind value kind by kind.
func (c *convEmitter) kindsBody(d convDir, p *ir.Pair) []jen.Code {
	cases := []jen.Code{jen.Case(jen.Lit(0)).Block(jen.Return(jen.Id("out"), jen.Nil()))}
	for _, a := range p.Alts {
		sa, ta := a.New, a.Old
		if !d.down {
			sa, ta = a.Old, a.New
		}
		if sa == nil {
			continue
		}
		var body []jen.Code
		if ta == nil {
			body = []jen.Code{c.fail(jen.Qual(protocolPkg, "ConvFail").Call(jen.Id("at"), jen.Lit(fmt.Sprintf("%s has no %s here", d.rev, sa.Kind))))}
		} else {
			body = append(body, jen.Id("out").Dot("Kind").Op("=").Add(c.id("Kind"+ta.Name, d.down)))
			if a.Pair != nil {
				body = append(body, c.value(d, a.Pair, jen.Id("in").Dot(sa.Field), false, jen.Id("out").Dot(ta.Field), jen.Id("at"), 1)...)
			}
			body = append(body, jen.Return(jen.Id("out"), jen.Nil()))
		}
		cases = append(cases, jen.Case(c.id("Kind"+sa.Name, !d.down)).Block(body...))
	}
	return []jen.Code{
		jen.Switch(jen.Id("in").Dot("Kind")).Block(cases...),
		c.fail(jen.Qual(protocolPkg, "ConvFail").Call(jen.Id("at"), jen.Lit("no value of a kind "+d.rev+" knows"))),
	}
}

// enumBody converts a string or integer whose target accepts fewer
// values, checking it.
func (c *convEmitter) enumBody(d convDir, p *ir.Pair) []jen.Code {
	cv := d.conv(p)
	var lits []jen.Code
	var words []string
	isString := true
	for _, v := range cv.Allowed {
		switch v.Kind {
		case ir.String:
			lits = append(lits, jen.Lit(v.Str))
		default:
			isString = false
			lits = append(lits, jen.Op(v.JSON))
		}
		words = append(words, v.JSON)
	}
	text := jen.Qual("strconv", "Quote").Call(jen.String().Call(jen.Id("in")))
	if !isString {
		text = jen.Qual("strconv", "FormatInt").Call(jen.Int64().Call(jen.Id("in")), jen.Lit(10))
	}
	return []jen.Code{
		jen.Switch(jen.Id("in")).Block(jen.Case(lits...).Block(jen.Return(c.typ(d.dst(p), d.down).Call(jen.Id("in")), jen.Nil()))),
		c.fail(jen.Qual(protocolPkg, "ConvNotAllowed").Call(jen.Id("at"), jen.Lit(d.rev), text, jen.Lit(strings.Join(words, ", ")))),
	}
}

// methodFuncs writes the functions of one method's entry in the table.
func (c *convEmitter) methodFuncs(m *ir.ConvMethod) {
	down, up := c.dirs()
	c.fail = func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }
	c.fromOlderFunc(up, m.ParamsUp, "params", m.Name, m.Params, m.OldParamsRequired)
	c.toOlderFunc(down, m.ParamsDown, "params", m.Name, m.Params, m.OldParamsRequired)
	if !m.Notification {
		c.fromOlderFunc(up, m.ResultUp, "result", m.Name, m.Result, true)
		c.toOlderFunc(down, m.ResultDown, "result", m.Name, m.Result, true)
	}
}

// decodeTarget is the variable a side's JSON decodes into: the type, or
// a union's holder, and the expression of the value.
func (c *convEmitter) holderOf(t *ir.Type, old bool) (*jen.Statement, *jen.Statement) {
	if u := t.Union(); u != nil {
		return c.id(u.Holder, old), jen.Id("h").Dot("Value")
	}
	return c.typ(t, old), jen.Id("h")
}

// validate is the statement that validates x, the converted value of type
// t on a side, returning a conversion error with its violations (of the
// older package converted by wrap).
func (c *convEmitter) validate(t *ir.Type, old bool, x string, wrap string) jen.Code {
	var call *jen.Statement
	if u := t.Union(); u != nil {
		call = jen.Parens(jen.Op("&").Add(c.id(u.Holder, old)).Values(jen.Dict{jen.Id("Value"): jen.Id(x)})).Dot("Validate").Call()
	} else {
		call = jen.Id(x).Dot("Validate").Call()
	}
	ret := jen.Err()
	rev := c.pkg.Revision
	if wrap != "" {
		ret = jen.Id(wrap).Call(jen.Err())
		rev = c.o.Revision
	}
	return jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(protocolPkg, "ConvInvalid").Call(jen.Lit(rev), ret)))
}

// fromOlderFunc writes the table function that decodes a method's params
// or result as the older revision sends them and converts them.
func (c *convEmitter) fromOlderFunc(d convDir, name, what, method string, p *ir.Pair, oldRequired bool) {
	c.f.Comment(commentText(fmt.Sprintf("%s decodes the %s of %s as revision %s sends them, validates them and converts them.", name, what, method, c.o.Revision)))
	if p == nil {
		c.f.Func().Id(name).Params(jen.Id("data").Index().Byte()).Params(jen.Any(), jen.Error()).Block(
			jen.Return(jen.Nil(), jen.Nil()))
		return
	}
	var body []jen.Code
	if oldRequired {
		body = append(body, jen.If(jen.Len(jen.Id("data")).Op("==").Lit(0)).Block(jen.Return(jen.Nil(), jen.Qual(protocolPkg, "ConvMissingParams").Call())))
	} else {
		body = append(body, jen.If(jen.Len(jen.Id("data")).Op("==").Lit(0)).Block(jen.Id("data").Op("=").Index().Byte().Call(jen.Lit("{}"))))
	}
	ht, hv := c.holderOf(p.Old, true)
	body = append(body,
		jen.Var().Id("h").Add(ht),
		jen.If(jen.Err().Op(":=").Qual(c.o.ImportPath, "UnmarshalAndValidate").Call(jen.Id("data"), jen.Op("&").Id("h")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Id(c.o.Errors).Call(jen.Err()))),
		jen.Var().Id("x").Add(c.typ(p.New, false)),
	)
	body = append(body, c.value(d, p, hv, false, jen.Id("x"), jen.Qual(protocolPkg, "ConvRoot"), 1)...)
	body = append(body, c.validate(p.New, false, "x", ""))
	if p.New.IsStruct() {
		body = append(body, jen.Return(jen.Op("&").Id("x"), jen.Nil()))
	} else {
		body = append(body, jen.Return(jen.Id("x"), jen.Nil()))
	}
	c.f.Func().Id(name).Params(jen.Id("data").Index().Byte()).Params(jen.Id("_").Any(), jen.Err().Error()).Block(body...)
}

// toOlderFunc writes the table function that converts a method's params
// or result to the older revision and encodes them.
func (c *convEmitter) toOlderFunc(d convDir, name, what, method string, p *ir.Pair, oldRequired bool) {
	c.f.Comment(commentText(fmt.Sprintf("%s converts the %s of %s to revision %s, validates them and encodes them.", name, what, method, c.o.Revision)))
	if p == nil {
		c.f.Func().Id(name).Params(jen.Id("v").Any()).Params(jen.Index().Byte(), jen.Error()).Block(
			jen.If(jen.Id("v").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(protocolPkg, "ConvWrongType").Call(jen.Id("v"), jen.Lit("no "+what)))),
			jen.Return(jen.Nil(), jen.Nil()))
		return
	}
	want := typeSpelling(p.New)
	var body []jen.Code
	if oldRequired {
		body = append(body, jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(protocolPkg, "ConvFail").Call(jen.Nil(), jen.Lit(fmt.Sprintf("%s requires the %s of %s", c.o.Revision, what, method))))))
	} else {
		body = append(body, jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Nil())))
	}
	var assert jen.Code
	if p.New.IsStruct() {
		want = "*" + want
		assert = jen.If(jen.List(jen.Id("p"), jen.Id("ok")).Op(":=").Id("v").Assert(c.branchTyp(p.New, false)), jen.Op("!").Id("ok").Op("||").Id("p").Op("==").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual(protocolPkg, "ConvWrongType").Call(jen.Id("v"), jen.Lit(want))))
	} else {
		assert = jen.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Id("v").Assert(c.typ(p.New, false)), jen.Op("!").Id("ok")).Block(
			jen.Return(jen.Nil(), jen.Qual(protocolPkg, "ConvWrongType").Call(jen.Id("v"), jen.Lit(want))))
	}
	body = append(body, assert)
	src := jen.Id("v").Assert(c.branchTyp(p.New, false))
	body = append(body, jen.Var().Id("x").Add(c.typ(p.Old, true)))
	body = append(body, c.value(d, p, src, p.New.IsStruct(), jen.Id("x"), jen.Qual(protocolPkg, "ConvRoot"), 1)...)
	body = append(body, c.validate(p.Old, true, "x", c.o.Errors))
	body = append(body, jen.Return(jen.Id("x").Dot("AppendJSON").Call(jen.Nil())))
	c.f.Func().Id(name).Params(jen.Id("v").Any()).Params(jen.Id("_").Index().Byte(), jen.Err().Error()).Block(body...)
}

// valueFunc writes the function behind ToOlder (down) or FromOlder.
func (c *convEmitter) valueFunc(d convDir) {
	name, verb := c.o.FromValue, "FromOlder"
	if d.down {
		name, verb = c.o.ToValue, "ToOlder"
	}
	c.fail = func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }
	var cases []jen.Code
	for _, p := range c.o.Values {
		src, dst := d.src(p), d.dst(p)
		var body []jen.Code
		st := src.IsStruct()
		if st {
			body = append(body, jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(jen.Parens(jen.Op("*").Add(c.typ(dst, d.down))).Call(jen.Nil()), jen.Nil())))
		}
		body = append(body, jen.Var().Id("x").Add(c.typ(dst, d.down)))
		body = append(body, c.value(d, p, jen.Id("v"), st, jen.Id("x"), jen.Qual(protocolPkg, "ConvRoot"), 1)...)
		if dst.IsStruct() {
			body = append(body, jen.Return(jen.Op("&").Id("x"), jen.Nil()))
		} else {
			body = append(body, jen.Return(jen.Id("x"), jen.Nil()))
		}
		cases = append(cases, jen.Case(c.branchTyp(src, !d.down)).Block(body...))
	}
	c.f.Comment(commentText(fmt.Sprintf("%s is Older.%s of revision %s.", name, verb, c.o.Revision)))
	c.f.Func().Id(name).Params(jen.Id("v").Any()).Params(jen.Id("_").Any(), jen.Err().Error()).Block(
		jen.Switch(jen.Id("v").Op(":=").Id("v").Assert(jen.Type())).Block(cases...),
		jen.Return(jen.Nil(), jen.Qual(protocolPkg, "ConvWrongType").Call(jen.Id("v"), jen.Lit("a value of a type both revisions declare"))),
	)
}

// errorsFunc writes the function that turns the older package's
// validation and syntax errors into this package's.
func (c *convEmitter) errorsFunc() {
	c.f.Comment(commentText(fmt.Sprintf("%s turns the validation and syntax errors of revision %s's package into this package's; other errors come back as they are.", c.o.Errors, c.o.Revision)))
	c.f.Func().Id(c.o.Errors).Params(jen.Err().Error()).Error().Block(
		jen.Var().Id("ve").Op("*").Add(c.id("ValidationError", true)),
		jen.If(jen.Qual("errors", "As").Call(jen.Err(), jen.Op("&").Id("ve"))).Block(
			jen.Id("out").Op(":=").Op("&").Id("ValidationError").Values(jen.Dict{jen.Id("Violations"): jen.Make(jen.Index().Id("Violation"), jen.Len(jen.Id("ve").Dot("Violations")))}),
			jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Id("ve").Dot("Violations")).Block(
				jen.Id("out").Dot("Violations").Index(jen.Id("i")).Op("=").Id("Violation").Call(jen.Id("v")),
			),
			jen.Return(jen.Id("out")),
		),
		jen.Var().Id("se").Op("*").Add(c.id("SyntaxError", true)),
		jen.If(jen.Qual("errors", "As").Call(jen.Err(), jen.Op("&").Id("se"))).Block(
			jen.Return(jen.Op("&").Id("SyntaxError").Values(jen.Dict{jen.Id("Offset"): jen.Id("se").Dot("Offset"), jen.Id("Msg"): jen.Id("se").Dot("Msg"), jen.Id("Duplicate"): jen.Id("se").Dot("Duplicate")})),
		),
		jen.Return(jen.Err()),
	)
}

// table writes the exported *Older of the revision.
func (c *convEmitter) table() {
	var entries []jen.Code
	var names []string
	for _, m := range c.o.Methods {
		d := jen.Dict{
			jen.Id("ParamsUp"):   jen.Id(m.ParamsUp),
			jen.Id("ParamsDown"): jen.Id(m.ParamsDown),
		}
		if m.Notification {
			d[jen.Id("Notification")] = jen.True()
		} else {
			d[jen.Id("ResultUp")] = jen.Id(m.ResultUp)
			d[jen.Id("ResultDown")] = jen.Id(m.ResultDown)
		}
		entries = append(entries, jen.Lit(m.Name).Op(":").Values(d))
		names = append(names, m.Name)
	}
	drops := c.drops()
	doc := fmt.Sprintf("%s converts the messages of MCP revision %s (package %s, %s) to this package's types and back: the params and results of %s, and with [Older.ToOlder] and [Older.FromOlder] the values of the definitions both revisions declare.",
		c.o.Var, c.o.Revision, c.o.Package, c.o.ImportPath, strings.Join(names, ", "))
	doc += fmt.Sprintf("\n\nA member %s does not declare goes, as JSON, to the unknown members (Extra) of its type where that type keeps them, and comes back from there; where it keeps none, the conversion fails with a [ConversionError], as it does for a union branch or an enum value %s lacks.", c.o.Revision, c.o.Revision)
	if len(drops) > 0 {
		doc += fmt.Sprintf(" The members the runtime handles itself are dropped on the way to %s: %s.", c.o.Revision, strings.Join(drops, ", "))
	}
	c.f.Comment(commentText(doc))
	c.f.Var().Id(c.o.Var).Op("=").Qual(protocolPkg, "NewOlder").Call(
		jen.Lit(c.o.Revision),
		jen.Map(jen.String()).Qual(protocolPkg, "OlderMethod").Values(entries...),
		jen.Id(c.o.ToValue), jen.Id(c.o.FromValue),
	)
}

// drops lists the members the conversions to the older revision drop.
func (c *convEmitter) drops() []string {
	seen := map[string]bool{}
	var out []string
	add := func(m string) {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	for _, p := range c.o.Pairs {
		for _, f := range p.Fields {
			if f.Down.Rule == ir.FieldDrop && f.New != nil && f.New.Name != "" {
				add(f.JSONName)
			}
			for _, m := range f.Down.Drop {
				add(m)
			}
			if f.Pair != nil {
				for _, m := range f.Pair.Down.Drop {
					add(m)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
