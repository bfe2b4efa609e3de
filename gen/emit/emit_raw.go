package emit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// Raw checks validate JSON that is kept as bytes (json.RawMessage and the
// opaque types) against its schema. Each schema node gets one function,
// rawCheckN(d *decoder, s *vstate), that reads one value from d and
// records its violations; $ref calls the target's function, so recursive
// schemas such as JSONValue work.

type rawChecks struct {
	names map[*ir.Check]string
	queue []*ir.Check
	done  int
}

func newRawChecks() *rawChecks {
	return &rawChecks{names: map[*ir.Check]string{}}
}

// need returns the function name that checks s, queueing it.
func (r *rawChecks) need(s *ir.Check) string {
	if n, ok := r.names[s]; ok {
		return n
	}
	n := "rawCheck" + strconv.Itoa(len(r.queue)+1)
	r.names[s] = n
	r.queue = append(r.queue, s)
	return n
}

func (e *emitter) emitRawChecks() {
	for e.raw.done < len(e.raw.queue) {
		s := e.raw.queue[e.raw.done]
		e.raw.done++
		e.emitRawCheck(s, e.raw.names[s])
	}
}

func (e *emitter) emitRawCheck(sc *ir.Check, name string) {
	where := "#" + sc.Pointer
	if sc.Pointer == "" {
		where = "the schema"
	}
	e.validate.Comment(commentText(fmt.Sprintf("%s checks one JSON value against %s.", name, where)))
	e.validate.Func().Id(name).Params(jen.Id("d").Op("*").Id("decoder"), jen.Id("s").Op("*").Id("vstate")).Block(e.rawBody(sc)...)
}

func (e *emitter) rawBody(sc *ir.Check) []jen.Code {
	skip := jen.Id("d").Dot("skip").Call()
	if sc.IsBool {
		if sc.Accept {
			return []jen.Code{skip}
		}
		return []jen.Code{jen.Id("s").Dot("add").Call(jen.Lit("false"), jen.Lit("no value is allowed here")), skip}
	}
	var out []jen.Code
	// Applicators that look at the whole value use sub decoders; the
	// value itself is read below.
	sub := func(fn string, st string) jen.Code {
		return jen.Block(
			jen.Id("sd").Op(":=").Id("d").Dot("sub").Call(),
			jen.Id(fn).Call(jen.Op("&").Id("sd"), jen.Id(st)),
		)
	}
	if sc.Ref != nil {
		out = append(out, sub(e.raw.need(sc.Ref), "s"))
	}
	for _, p := range sc.AllOf {
		out = append(out, sub(e.raw.need(p), "s"))
	}
	for _, l := range []struct {
		kw   string
		list []*ir.Check
	}{{"anyOf", sc.AnyOf}, {"oneOf", sc.OneOf}} {
		if len(l.list) == 0 {
			continue
		}
		block := []jen.Code{jen.Id("n").Op(":=").Lit(0)}
		for _, p := range l.list {
			try := []jen.Code{
				jen.Id("sd").Op(":=").Id("d").Dot("sub").Call(),
				jen.Id("vs").Op(":=").Id("newVState").Call(),
				jen.Id(e.raw.need(p)).Call(jen.Op("&").Id("sd"), jen.Id("vs")),
				jen.If(jen.Id("vs").Dot("release").Call()).Block(jen.Id("n").Op("++")),
			}
			// A branch whose type rules out the value's kind fails without
			// being run (and without building messages).
			if cond := kindGuard(p); cond != nil {
				block = append(block, jen.If(cond).Block(try...))
			} else {
				block = append(block, jen.Block(try...))
			}
		}
		if l.kw == "anyOf" {
			block = append(block, jen.If(jen.Id("n").Op("==").Lit(0)).Block(
				jen.Id("s").Dot("add").Call(jen.Lit("anyOf"), jen.Lit("matches none of the alternatives")),
			))
		} else {
			block = append(block, jen.If(jen.Id("n").Op("!=").Lit(1)).Block(
				jen.Id("s").Dot("add").Call(jen.Lit("oneOf"), jen.Lit("must match exactly one alternative, matches ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("n"))),
			))
		}
		out = append(out, jen.Block(block...))
	}
	if sc.Types != nil {
		var conds []jen.Code
		var words []string
		intOnly := slices.Contains(sc.Types, ir.KInt) && !slices.Contains(sc.Types, ir.KFloat)
		for _, k := range sc.Types {
			words = append(words, k.String())
			switch {
			case k == ir.KInt && !intOnly:
				continue // number holds every integer
			case k == ir.KInt:
				conds = append(conds, kindTest(ir.KFloat).Op("&&").Id("d").Dot("peekInteger").Call())
			default:
				conds = append(conds, kindTest(k))
			}
		}
		ok := jen.Null()
		for i, c := range conds {
			if i > 0 {
				ok.Op("||")
			}
			ok.Parens(c)
		}
		out = append(out, jen.If(jen.Op("!").Parens(ok)).Block(
			jen.Id("s").Dot("add").Call(jen.Lit("type"), jen.Lit("expected "+strings.Join(words, " or ")+", got ").Op("+").Id("d").Dot("describe").Call()),
			skip,
			jen.Return(),
		))
	}
	if sc.Const != nil {
		out = append(out, jen.If(jen.Op("!").Id("rtJSONEqual").Call(jen.Id("d").Dot("peekRaw").Call(), jen.Lit(sc.Const.JSON))).Block(
			jen.Id("s").Dot("add").Call(jen.Lit("const"), jen.String().Call(jen.Id("d").Dot("peekRaw").Call()).Op("+").Lit(" is not "+sc.Const.JSON)),
		))
	}
	if sc.Enum != nil {
		var conds []jen.Code
		for _, v := range sc.Enum {
			conds = append(conds, jen.Op("!").Id("rtJSONEqual").Call(jen.Id("raw"), jen.Lit(v.JSON)))
		}
		all := jen.Null()
		for i, c := range conds {
			if i > 0 {
				all.Op("&&")
			}
			all.Add(c)
		}
		out = append(out, jen.If(jen.Id("raw").Op(":=").Id("d").Dot("peekRaw").Call(), all).Block(
			jen.Id("s").Dot("add").Call(jen.Lit("enum"), jen.Id("rtQuote").Call(jen.String().Call(jen.Id("raw"))).Op("+").Lit(" is not one of "+enumList(sc.Enum))),
		))
	}
	var cases []jen.Code
	if obj := e.rawObject(sc); obj != nil {
		cases = append(cases, jen.Case(kindTest(ir.KObject)).Block(obj...))
	}
	if arr := e.rawArray(sc); arr != nil {
		cases = append(cases, jen.Case(kindTest(ir.KArray)).Block(arr...))
	}
	if str := e.rawString(sc); str != nil {
		cases = append(cases, jen.Case(kindTest(ir.KString)).Block(str...))
	}
	if num := rawNumber(sc); num != nil {
		cases = append(cases, jen.Case(kindTest(ir.KFloat)).Block(num...))
	}
	usesC := sc.Types != nil || len(cases) > 0 || usesKindGuard(sc)
	if usesC {
		out = append([]jen.Code{jen.Id("c").Op(":=").Id("d").Dot("peek").Call()}, out...)
	}
	if len(cases) == 0 {
		return append(out, skip)
	}
	cases = append(cases, jen.Default().Block(skip))
	return append(out, jen.Switch().Block(cases...))
}

func usesKindGuard(sc *ir.Check) bool {
	for _, l := range [][]*ir.Check{sc.AnyOf, sc.OneOf} {
		for _, p := range l {
			if kindGuard(p) != nil {
				return true
			}
		}
	}
	return false
}

// kindGuard is the condition on the first byte c under which a branch can
// match, from its (and its $ref target's) "type"; nil when any kind can.
func kindGuard(br *ir.Check) *jen.Statement {
	for i := 0; i < 10 && br.Ref != nil && br.Types == nil && !br.IsBool; i++ {
		br = br.Ref
	}
	if br.IsBool || br.Types == nil {
		return nil
	}
	cond := jen.Null()
	seen := map[ir.Kind]bool{}
	for _, k := range br.Types {
		if k == ir.KInt {
			k = ir.KFloat // the first byte tells a number, not an integer
		}
		if seen[k] {
			continue
		}
		if len(seen) > 0 {
			cond.Op("||")
		}
		seen[k] = true
		cond.Parens(kindTest(k))
	}
	return cond
}

func (e *emitter) rawObject(sc *ir.Check) []jen.Code {
	if sc.Properties == nil && sc.Required == nil && sc.AdditionalProperties == nil {
		return nil
	}
	var names []string
	for _, p := range sc.Properties {
		names = append(names, p.Name)
	}
	for _, r := range sc.Required {
		if !slices.Contains(names, r) {
			names = append(names, r)
		}
	}
	addl := func() []jen.Code {
		ap := sc.AdditionalProperties
		switch {
		case ap == nil || (ap.IsBool && ap.Accept):
			return []jen.Code{jen.Id("d").Dot("skip").Call()}
		case ap.IsBool && !ap.Accept:
			return []jen.Code{
				jen.Id("s").Dot("add").Call(jen.Lit("additionalProperties"), jen.Lit("member is not allowed")),
				jen.Id("d").Dot("skip").Call(),
			}
		}
		return []jen.Code{jen.Id(e.raw.need(ap)).Call(jen.Id("d"), jen.Id("s"))}
	}
	var cases []jen.Code
	for i, n := range names {
		w, mask := bit(i)
		body := []jen.Code{jen.Id("seen").Index(jen.Lit(w)).Op("|=").Add(mask)}
		if p := sc.Prop(n); p != nil {
			body = append(body, jen.Id(e.raw.need(p)).Call(jen.Id("d"), jen.Id("s")))
		} else {
			body = append(body, addl()...)
		}
		cases = append(cases, jen.Case(jen.Lit(n)).Block(body...))
	}
	cases = append(cases, jen.Default().Block(addl()...))
	var out []jen.Code
	out = append(out, jen.Id("d").Dot("object").Call())
	if len(names) > 0 {
		out = append(out, jen.Var().Id("seen").Index(jen.Lit(max((len(names)+63)/64, 1))).Uint64())
	}
	out = append(out, jen.For(jen.Id("first").Op(":=").True(), jen.Id("d").Dot("member").Call(jen.Op("&").Id("first")), jen.Empty()).Block(
		jen.Id("k").Op(":=").Id("d").Dot("key"),
		jen.Id("m").Op(":=").Id("s").Dot("mark").Call(),
		jen.Switch(jen.Id("k")).Block(cases...),
		jen.Id("s").Dot("at").Call(jen.Id("m"), jen.Id("k")),
	))
	for i, n := range names {
		if !sc.IsRequired(n) {
			continue
		}
		w, mask := bit(i)
		out = append(out, jen.If(jen.Id("seen").Index(jen.Lit(w)).Op("&").Add(mask).Op("==").Lit(0)).Block(requiredViolation(n)))
	}
	return out
}

func (e *emitter) rawArray(sc *ir.Check) []jen.Code {
	if sc.Items == nil && sc.MinItems == nil && sc.MaxItems == nil {
		return nil
	}
	each := []jen.Code{jen.Id("d").Dot("skip").Call()}
	if sc.Items != nil {
		each = []jen.Code{
			jen.Id("m").Op(":=").Id("s").Dot("mark").Call(),
			jen.Id(e.raw.need(sc.Items)).Call(jen.Id("d"), jen.Id("s")),
			jen.Id("s").Dot("atIndex").Call(jen.Id("m"), jen.Id("n")),
		}
	}
	out := []jen.Code{
		jen.Id("d").Dot("array").Call(),
		jen.Id("n").Op(":=").Lit(0),
		jen.For(jen.Id("first").Op(":=").True(), jen.Id("d").Dot("elem").Call(jen.Op("&").Id("first")), jen.Id("n").Op("++")).Block(each...),
	}
	if sc.MinItems != nil && *sc.MinItems > 0 {
		out = append(out, jen.If(jen.Id("n").Op("<").Lit(int(*sc.MinItems))).Block(
			jen.Id("s").Dot("add").Call(jen.Lit("minItems"), jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("n")).Op("+").Lit(fmt.Sprintf(" items, want at least %d", *sc.MinItems))),
		))
	}
	if sc.MaxItems != nil {
		out = append(out, jen.If(jen.Id("n").Op(">").Lit(int(*sc.MaxItems))).Block(
			jen.Id("s").Dot("add").Call(jen.Lit("maxItems"), jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("n")).Op("+").Lit(fmt.Sprintf(" items, want at most %d", *sc.MaxItems))),
		))
	}
	return out
}

func (e *emitter) rawString(sc *ir.Check) []jen.Code {
	f := ""
	if formatFuncs[sc.Format] != "" {
		f = sc.Format
	}
	t := &ir.Type{Kind: ir.TString, C: ir.Constraints{Format: f, MinLength: sc.MinLength, MaxLength: sc.MaxLength, Pattern: sc.Pattern}}
	checks := e.scalarChecks(t, jen.Id("x"))
	if len(checks) == 0 {
		return nil
	}
	return append([]jen.Code{jen.Id("x").Op(":=").Id("d").Dot("string").Call()}, checks...)
}

// rawNumber compares a number's text with the bounds exactly.
func rawNumber(sc *ir.Check) []jen.Code {
	var checks []jen.Code
	for _, b := range []struct {
		bound   *string
		keyword string
		bad     string // violating comparison of rtCmpNumber's result with 0
		text    string
	}{
		{sc.Minimum, "minimum", "<", ">="},
		{sc.ExclusiveMinimum, "exclusiveMinimum", "<=", ">"},
		{sc.Maximum, "maximum", ">", "<="},
		{sc.ExclusiveMaximum, "exclusiveMaximum", ">=", "<"},
	} {
		if b.bound == nil {
			continue
		}
		checks = append(checks, jen.If(jen.Id("rtCmpNumber").Call(jen.Id("x"), jen.Lit(*b.bound)).Op(b.bad).Lit(0)).Block(
			jen.Id("s").Dot("add").Call(jen.Lit(b.keyword), jen.Lit("must be "+b.text+" "+*b.bound+", got ").Op("+").String().Call(jen.Id("x"))),
		))
	}
	if len(checks) == 0 {
		return nil
	}
	return append([]jen.Code{jen.List(jen.Id("x"), jen.Id("_")).Op(":=").Id("d").Dot("number").Call()}, checks...)
}
