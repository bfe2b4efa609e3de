package emit

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/codec"
)

// validateValue returns statements that check expr, a value of type t,
// recording violations in s. It returns nothing when t has nothing to
// check.
func (e *emitter) validateValue(t *ir.Type, expr *jen.Statement) []jen.Code {
	return e.validateValueN(t, expr, 0)
}

func (e *emitter) validateValueN(t *ir.Type, expr *jen.Statement, depth int) []jen.Code {
	i, k, x, m := "i"+strconv.Itoa(depth), "k"+strconv.Itoa(depth), "x"+strconv.Itoa(depth), "m"+strconv.Itoa(depth)
	if t.C.Whole != nil {
		return e.wholeCheck(t.C.Whole, encodeValueN(t, expr, false, depth))
	}
	switch t.Kind {
	case ir.TString, ir.TInt, ir.TFloat, ir.TBool:
		return e.scalarChecks(t, expr, false)
	case ir.TRaw:
		if t.C.Raw == nil {
			return nil
		}
		return e.rawCall(t.C.Raw, expr)
	case ir.TExternal:
		return []jen.Code{jen.Qual(codecPkg, "ValidateExternal").Call(expr, jen.Id("s"))}
	case ir.TDecl:
		if !e.needsValidate(t.Decl) {
			return nil
		}
		if u := t.Union(); u != nil {
			return []jen.Code{holderOf(u, expr).Dot("ValidateWith").Call(jen.Id("s"))}
		}
		return []jen.Code{expr.Clone().Dot("ValidateWith").Call(jen.Id("s"))}
	case ir.TSlice:
		var out []jen.Code
		n := jen.Len(expr)
		if t.C.MinItems != nil && *t.C.MinItems > 0 {
			out = append(out, jen.If(n.Clone().Op("<").Lit(int(*t.C.MinItems))).Block(
				jen.Id("s").Dot("Add").Call(jen.Lit("minItems"), jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(n.Clone()).Op("+").Lit(fmt.Sprintf(" items, want at least %d", *t.C.MinItems))),
			))
		}
		if t.C.MaxItems != nil {
			out = append(out, jen.If(n.Clone().Op(">").Lit(int(*t.C.MaxItems))).Block(
				jen.Id("s").Dot("Add").Call(jen.Lit("maxItems"), jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(n.Clone()).Op("+").Lit(fmt.Sprintf(" items, want at most %d", *t.C.MaxItems))),
			))
		}
		inner := e.validateValueN(t.Elem, expr.Clone().Index(jen.Id(i)), depth+1)
		if len(inner) > 0 {
			loop := append([]jen.Code{jen.Id(m).Op(":=").Id("s").Dot("Mark").Call()}, inner...)
			loop = append(loop, jen.Id("s").Dot("AtIndex").Call(jen.Id(m), jen.Id(i)))
			out = append(out, jen.For(jen.Id(i).Op(":=").Range().Add(expr)).Block(loop...))
		}
		return out
	case ir.TMap:
		var out []jen.Code
		n := jen.Len(expr)
		if t.C.MinProperties != nil && *t.C.MinProperties > 0 {
			out = append(out, jen.If(n.Clone().Op("<").Lit(int(*t.C.MinProperties))).Block(
				jen.Id("s").Dot("Add").Call(jen.Lit("minProperties"), jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(n.Clone()).Op("+").Lit(fmt.Sprintf(" members, want at least %d", *t.C.MinProperties))),
			))
		}
		if t.C.MaxProperties != nil {
			out = append(out, jen.If(n.Clone().Op(">").Lit(int(*t.C.MaxProperties))).Block(
				jen.Id("s").Dot("Add").Call(jen.Lit("maxProperties"), jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(n.Clone()).Op("+").Lit(fmt.Sprintf(" members, want at most %d", *t.C.MaxProperties))),
			))
		}
		inner := e.validateValueN(t.Elem, jen.Id(x), depth+1)
		vars := jen.List(jen.Id(k), jen.Id(x))
		if len(inner) == 0 {
			vars = jen.Id(k) // only the key is checked
		}
		if t.C.KeyPattern != nil {
			// The one pattern takes every member; a key it does not
			// match is left to additionalProperties: false.
			inner = append([]jen.Code{jen.If(jen.Op("!").Id(e.pattern(*t.C.KeyPattern)).Dot("MatchString").Call(jen.Id(k))).Block(
				jen.Id("s").Dot("Add").Call(jen.Lit("additionalProperties"), jen.Lit("member is not allowed")),
			)}, inner...)
		}
		if len(inner) == 0 {
			return out
		}
		loop := append([]jen.Code{jen.Id(m).Op(":=").Id("s").Dot("Mark").Call()}, inner...)
		loop = append(loop, jen.Id("s").Dot("At").Call(jen.Id(m), jen.Id(k)))
		return append(out, jen.Block(
			jen.Id("start").Op(":=").Id("s").Dot("Mark").Call(),
			jen.For(vars.Op(":=").Range().Add(expr)).Block(loop...),
			jen.Id("s").Dot("SortSince").Call(jen.Id("start")),
		))
	}
	return nil
}

// rawCall checks raw bytes expr against sc with a direct call of its raw
// check (a call through a func value would make the decoder escape).
//
//	if b := expr; b == nil { s.add(...) } else { var d decoder; s.reader(&d, b); rawCheckN(&d, s); d.rawDone(s) }
func (e *emitter) rawCall(sc *ir.Check, expr *jen.Statement) []jen.Code {
	name := e.raw.need(sc)
	return []jen.Code{jen.If(jen.Id("b").Op(":=").Add(expr), jen.Id("b").Op("==").Nil()).Block(
		jen.Id("s").Dot("Add").Call(jen.Lit("type"), jen.Lit("no value")),
	).Else().Block(
		jen.Var().Id("d").Qual(codecPkg, "Decoder"),
		jen.Id("s").Dot("Reader").Call(jen.Op("&").Id("d"), jen.Id("b")),
		jen.Id(name).Call(jen.Op("&").Id("d"), jen.Id("s")),
		jen.Id("d").Dot("RawDone").Call(jen.Id("s")),
	)}
}

// needsValidate reports whether values of d can break the schema once
// decoded: whether d has checks of its own or reaches, through the types
// of its members, a declaration that has, or a cycle (conservatively).
// The answer is remembered per declaration, so that the whole package
// costs one walk (a walk per use would be quadratic in a long chain of
// definitions).
func (e *emitter) needsValidate(d ir.Decl) bool {
	switch e.checks[d] {
	case checksComputing:
		return true // a cycle
	case checksNo:
		return false
	case checksYes:
		return true
	}
	e.checks[d] = checksComputing
	yes := e.declHasChecks(d)
	e.checks[d] = checksNo
	if yes {
		e.checks[d] = checksYes
	}
	return yes
}

// The states of emitter.checks. A declaration whose walk reached one
// still being computed is on a cycle, so its "yes" is final too.
const (
	checksUnknown int8 = iota
	checksComputing
	checksNo
	checksYes
)

func (e *emitter) declHasChecks(d ir.Decl) bool {
	hasChecks := e.typeHasChecks
	switch d := d.(type) {
	case *ir.Struct:
		for _, f := range d.Fields {
			if hasChecks(f.Type) || (f.Required && f.Name != "" && absentCheck(f.Type, jen.Id("x")) != nil) {
				return true
			}
		}
		return d.Whole != nil || d.Extra != nil && hasChecks(d.Extra.Value)
	case *ir.Tuple:
		return true
	case *ir.Enum, *ir.Union:
		return true
	case *ir.Kinds:
		return true // the Kind must be one of the alternatives
	case *ir.Raw:
		return true
	case *ir.Named:
		return hasChecks(d.Type)
	case *ir.Alias:
		return hasChecks(d.Target)
	}
	return true
}

// typeHasChecks reports whether a value of type t can break the schema.
func (e *emitter) typeHasChecks(t *ir.Type) bool {
	if t.C.Whole != nil {
		return true
	}
	switch t.Kind {
	case ir.TDecl:
		return e.needsValidate(t.Decl)
	case ir.TSlice:
		return t.C.MinItems != nil || t.C.MaxItems != nil || e.typeHasChecks(t.Elem)
	case ir.TMap:
		return t.C.KeyPattern != nil || t.C.MinProperties != nil || t.C.MaxProperties != nil || e.typeHasChecks(t.Elem)
	case ir.TRaw:
		return t.C.Raw != nil
	case ir.TExternal:
		return true
	}
	return scalarHasChecks(t)
}

func scalarHasChecks(t *ir.Type) bool {
	c := t.C
	return c.Format != "" || c.Minimum != nil || c.Maximum != nil || c.ExclusiveMinimum != nil ||
		c.ExclusiveMaximum != nil || c.MinLength != nil || c.MaxLength != nil || c.Pattern != nil ||
		c.Const != nil || c.Enum != nil || c.MultipleOf != nil
}

// scalarChecks checks a string, number or boolean against its constraints.
// In a raw check (raw), s may be quiet: the message is built only when s
// records violations.
func (e *emitter) scalarChecks(t *ir.Type, x *jen.Statement, raw bool) []jen.Code {
	c := t.C
	var out []jen.Code
	add := func(cond *jen.Statement, keyword string, msg jen.Code) {
		if raw {
			cond = jen.Parens(cond).Op("&&").Id("s").Dot("Loud").Call()
		}
		out = append(out, jen.If(cond).Block(jen.Id("s").Dot("Add").Call(jen.Lit(keyword), msg)))
	}
	show := func() *jen.Statement {
		switch t.Kind {
		case ir.TString:
			return jen.Qual(codecPkg, "Quote").Call(x)
		case ir.TInt:
			return jen.Qual("strconv", "FormatInt").Call(x, jen.Lit(10))
		case ir.TFloat:
			return jen.Qual("strconv", "FormatFloat").Call(x, jen.LitByte('g'), jen.Lit(-1), jen.Lit(64))
		}
		return jen.Qual("strconv", "FormatBool").Call(x)
	}
	if c.Const != nil {
		add(x.Clone().Op("!=").Add(litValue(c.Const, t)), "const", show().Op("+").Lit(" is not "+c.Const.JSON))
	}
	if c.Format != "" {
		fn, _ := codec.FormatFunc(c.Format)
		add(jen.Op("!").Qual(codecPkg, fn).Call(x), "format", show().Op("+").Lit(" is not a valid "+c.Format))
	}
	if t.Kind == ir.TString {
		runes := jen.Qual("unicode/utf8", "RuneCountInString").Call(x)
		if c.MinLength != nil && *c.MinLength > 0 {
			add(runes.Clone().Op("<").Lit(int(*c.MinLength)), "minLength", show().Op("+").Lit(fmt.Sprintf(" is shorter than %d characters", *c.MinLength)))
		}
		if c.MaxLength != nil {
			add(runes.Clone().Op(">").Lit(int(*c.MaxLength)), "maxLength", show().Op("+").Lit(fmt.Sprintf(" is longer than %d characters", *c.MaxLength)))
		}
		if c.Pattern != nil {
			v := e.pattern(*c.Pattern)
			text := c.PatternText
			if text == "" {
				text = *c.Pattern
			}
			add(jen.Op("!").Id(v).Dot("MatchString").Call(x), "pattern", show().Op("+").Lit(" does not match "+strconv.Quote(text)))
		}
	}
	if c.MultipleOf != nil && (t.Kind == ir.TInt || t.Kind == ir.TFloat) {
		fn := "MultipleOfInt"
		if t.Kind == ir.TFloat {
			fn = "MultipleOfFloat"
		}
		add(jen.Op("!").Qual(codecPkg, fn).Call(x, jen.Lit(*c.MultipleOf)), "multipleOf", jen.Lit("must be a multiple of "+*c.MultipleOf+", got ").Op("+").Add(show()))
	}
	if t.Kind == ir.TInt || t.Kind == ir.TFloat {
		for _, b := range []struct {
			bound   *string
			keyword string
			op      string // the comparison that violates
			text    string
		}{
			{c.Minimum, "minimum", "<", ">="},
			{c.ExclusiveMinimum, "exclusiveMinimum", "<=", ">"},
			{c.Maximum, "maximum", ">", "<="},
			{c.ExclusiveMaximum, "exclusiveMaximum", ">=", "<"},
		} {
			if b.bound == nil {
				continue
			}
			cond, ok := boundCheck(t.Kind, x, b.op, *b.bound)
			if !ok {
				continue
			}
			add(cond, b.keyword, jen.Lit("must be "+b.text+" "+*b.bound+", got ").Op("+").Add(show()))
		}
	}
	return out
}

// boundCheck returns the condition under which x violates "x op bound"
// (op is the violating comparison). For integers the bound is moved to the
// nearest integer so the comparison is exact; ok is false when no int64
// can violate it.
func boundCheck(k ir.TKind, x *jen.Statement, op, bound string) (*jen.Statement, bool) {
	if k == ir.TFloat {
		f, _ := strconv.ParseFloat(bound, 64)
		return x.Clone().Op(op).Lit(f), true
	}
	r, ok := new(big.Rat).SetString(bound)
	if !ok {
		return nil, false
	}
	// Turn "x < r" into "x < ceil(r)", "x <= r" into "x <= floor(r)", etc.
	var n *big.Int
	switch op {
	case "<", ">=":
		n = ceilRat(r)
	default:
		n = floorRat(r)
	}
	if !n.IsInt64() {
		// Beyond int64: either every value or none violates.
		below := n.Sign() < 0
		switch {
		case (op == "<" || op == "<=") && below, (op == ">" || op == ">=") && !below:
			return nil, false
		}
		return jen.True(), true
	}
	return x.Clone().Op(op).Lit(n.Int64()), true
}

func floorRat(r *big.Rat) *big.Int {
	q := new(big.Int)
	q.Div(r.Num(), r.Denom()) // Euclidean division rounds toward -inf for positive divisors
	return q
}

func ceilRat(r *big.Rat) *big.Int {
	q := floorRat(r)
	if !r.IsInt() {
		q.Add(q, big.NewInt(1))
	}
	return q
}

func int64Lit(num string) (int64, bool) {
	r, ok := new(big.Rat).SetString(num)
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// pattern returns the package variable holding a compiled pattern.
func (e *emitter) pattern(src string) string {
	if v, ok := e.patterns[src]; ok {
		return v
	}
	v := "pattern" + strconv.Itoa(len(e.patOrder)+1)
	e.patterns[src] = v
	e.patOrder = append(e.patOrder, src)
	return v
}

func (e *emitter) emitPatterns() {
	for _, src := range e.patOrder {
		e.validate.Var().Id(e.patterns[src]).Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(src))
	}
}

// enumList renders enum values for a message: `"a", "b"`.
func enumList(vals []*ir.Value) string {
	var parts []string
	for _, v := range vals {
		parts = append(parts, v.JSON)
	}
	return strings.Join(parts, ", ")
}
