package emit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// branchGoType is how a branch appears in the interface: *T for structs.
func branchGoType(t *ir.Type) *jen.Statement {
	if t.PointerMethods() {
		return jen.Op("*").Add(goType(t))
	}
	return goType(t)
}

func branchNames(u *ir.Union) string {
	var names []string
	for _, br := range u.Branches {
		if br.Type.PointerMethods() {
			names = append(names, "*"+br.Type.Decl.GoName())
		} else {
			names = append(names, br.Type.Decl.GoName())
		}
	}
	return strings.Join(names, ", ")
}

// concreteBranches lists the types that implement u: its branches, with
// a branch that is itself a union replaced by that union's branches.
func concreteBranches(u *ir.Union, seen map[*ir.Union]bool) []*ir.Type {
	if seen[u] {
		return nil
	}
	seen[u] = true
	var out []*ir.Type
	add := func(t *ir.Type) {
		// A type can be a branch twice over (directly and through a
		// nested union): it implements the union once.
		for _, o := range out {
			if o.Same(t) {
				return
			}
		}
		out = append(out, t)
	}
	for _, br := range u.Branches {
		if inner := br.Type.Union(); inner != nil {
			for _, t := range concreteBranches(inner, seen) {
				add(t)
			}
			continue
		}
		add(br.Type.Resolve())
	}
	return out
}

// enclosing lists the unions that have u among their branches, directly
// or through other unions: u's interface includes their markers, so that
// a u is one of them.
func (e *emitter) enclosing(u *ir.Union) []*ir.Union {
	var out []*ir.Union
	var visit func(x *ir.Union)
	visit = func(x *ir.Union) {
		for _, d := range e.pkg.Decls {
			o, ok := d.(*ir.Union)
			if !ok || slices.Contains(out, o) {
				continue
			}
			for _, br := range o.Branches {
				if br.Type.Union() == x {
					out = append(out, o)
					visit(o)
					break
				}
			}
		}
	}
	visit(u)
	return out
}

// holderOf is the composite literal of u's holder around expr.
func holderOf(u *ir.Union, expr jen.Code) *jen.Statement {
	return jen.Id(u.Holder).Values(jen.Id("Value").Op(":").Add(expr))
}

// emitUnion writes a sum type: a sealed interface that only the branch
// types implement, and a holder for a value on its own.
func (e *emitter) emitUnion(u *ir.Union) {
	what := "at least one of its branches (anyOf)"
	if u.OneOf {
		what = "exactly one of its branches (oneOf)"
	}
	doc := appendDoc(u.Doc, fmt.Sprintf("A JSON value is a %s when it matches %s. %s is implemented by %s; a nil %s is no value. [%s] decodes one on its own, and [%s] holds one for [NewValue] and [UnmarshalAndValidate].",
		u.Name, what, u.Name, branchNames(u), u.Name, u.Unmarshal, u.Holder))
	if u.OneOf && e.pkg.Validators {
		doc = appendDoc(doc, fmt.Sprintf("The Validate method of a %s checks its branch; %s{Value: v}.Validate() also checks that v matches no other branch.", u.Name, u.Holder))
	}
	methods := []jen.Code{jen.Id(u.Marker).Params()}
	for _, o := range e.enclosing(u) {
		methods = append(methods, jen.Id(o.Marker).Params())
	}
	// The exported methods every branch has, then the ones the package
	// uses.
	methods = append(methods,
		jen.Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()),
		jen.Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()),
	)
	if e.pkg.Validators {
		methods = append(methods, jen.Id("Validate").Params().Error())
	}
	methods = append(methods, jen.Id("EncodeJSON").Params(jen.Id("e").Op("*").Qual(codecPkg, "Encoder")))
	if e.pkg.Validators {
		methods = append(methods, jen.Id("ValidateWith").Params(jen.Id("s").Op("*").Qual(codecPkg, "Validator")))
	}
	e.declDoc(doc).Type().Id(u.Name).Interface(methods...)
	for _, t := range concreteBranches(u, map[*ir.Union]bool{}) {
		e.types.Func().Params(branchGoType(t)).Id(u.Marker).Params().Block()
	}

	e.types.Comment(commentText(fmt.Sprintf("%s holds a [%s] on its own, so that it can be decoded, validated and encoded by itself ([NewValue] returns one for the %s definition).", u.Holder, u.Name, u.Name)))
	e.types.Type().Id(u.Holder).Struct(jen.Id("Value").Id(u.Name))
	e.emitPublic(u.Holder, true)
	e.types.Comment(commentText(fmt.Sprintf("%s decodes a %s from JSON. It fails like UnmarshalJSON: with a *SyntaxError on malformed JSON and with a *ValidationError on values a %s cannot hold.", u.Unmarshal, u.Name, u.Name)))
	e.types.Func().Id(u.Unmarshal).Params(jen.Id("b").Index().Byte()).Params(jen.Id(u.Name), jen.Error()).Block(
		jen.Var().Id("h").Id(u.Holder),
		jen.Id("err").Op(":=").Id("h").Dot("UnmarshalJSON").Call(jen.Id("b")),
		jen.Return(jen.Id("h").Dot("Value"), jen.Id("err")),
	)

	// encodeJSON: the branch writes itself.
	e.codec.Func().Params(jen.Id("v").Id(u.Holder)).Id("EncodeJSON").Params(jen.Id("e").Op("*").Qual(codecPkg, "Encoder")).Block(
		jen.If(jen.Qual(codecPkg, "IsNil").Call(jen.Id("v").Dot("Value"))).Block(jen.Id("e").Dot("Null").Call(), jen.Return()),
		jen.Id("v").Dot("Value").Dot("EncodeJSON").Call(jen.Id("e")),
	)
	e.emitUnionDecode(u)

	if !e.pkg.Validators {
		return
	}
	// validate: the branch checks itself; oneOf also needs no other branch to match.
	keyword := "anyOf"
	if u.OneOf {
		keyword = "oneOf"
	}
	body := []jen.Code{
		jen.If(jen.Qual(codecPkg, "IsNil").Call(jen.Id("v").Dot("Value"))).Block(
			jen.Id("s").Dot("Add").Call(jen.Lit(keyword), longLit("no value: want one of "+branchNames(u))),
			jen.Return(),
		),
	}
	// A branch that is a union is checked as that union (its own oneOf).
	check := jen.Id("v").Dot("Value").Dot("ValidateWith").Call(jen.Id("s"))
	var chain *jen.Statement
	for _, br := range u.Branches {
		iu := br.Type.Union()
		if iu == nil {
			continue
		}
		cond := jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Id("v").Dot("Value").Assert(jen.Id(iu.Name)), jen.Id("ok")).Block(
			holderOf(iu, jen.Id("x")).Dot("ValidateWith").Call(jen.Id("s")),
		)
		if chain == nil {
			chain = cond
		} else {
			chain.Else().Add(cond)
		}
	}
	if chain != nil {
		chain.Else().Block(check)
		check = chain
	}
	body = append(body, check)
	if u.OneOf {
		// Encode, then count the branches the encoding matches.
		body = append(body,
			jen.List(jen.Id("b"), jen.Id("err")).Op(":=").Id("v").Dot("AppendJSON").Call(jen.Nil()),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return()),
			jen.Var().Id("d").Qual(codecPkg, "Decoder"),
			jen.Id("d").Dot("InitShared").Call(jen.Id("b")),
			jen.Var().Id("w").Id(u.Holder),
			jen.Id("w").Dot("DecodeJSON").Call(jen.Op("&").Id("d")),
			jen.If(jen.Id("d").Dot("OneOfConflict")).Block(
				jen.Id("s").Dot("Add").Call(jen.Lit("oneOf"), jen.Lit("matches more than one branch of "+u.Name)),
			),
			jen.If(jen.Id("d").Dot("OneOfUnsure")).Block(
				jen.Id("s").Dot("Add").Call(jen.Lit("oneOf"), jen.Lit("matches one branch of "+u.Name+", and has a number beyond the range of another branch's Go type, which may match too")),
			),
		)
	}
	e.validate.Func().Params(jen.Id("v").Id(u.Holder)).Id("ValidateWith").Params(jen.Id("s").Op("*").Qual(codecPkg, "Validator")).Block(body...)
}

// kindTest is the condition on the first byte c for a JSON kind.
func kindTest(k ir.Kind) *jen.Statement {
	c := jen.Id("c")
	switch k {
	case ir.KNull:
		return c.Op("==").LitRune('n')
	case ir.KBool:
		return c.Op("==").LitRune('t').Op("||").Id("c").Op("==").LitRune('f')
	case ir.KString:
		return c.Op("==").LitRune('"')
	case ir.KArray:
		return c.Op("==").LitRune('[')
	case ir.KObject:
		return c.Op("==").LitRune('{')
	}
	return jen.Qual(codecPkg, "IsNumberStart").Call(c)
}

func kindWord(k ir.Kind) string {
	if k == ir.KFloat {
		return "number"
	}
	return k.String()
}

func (e *emitter) emitUnionDecode(u *ir.Union) {
	p := u.Plan
	var cases []jen.Code
	var wants []string
	for _, kc := range p.ByKind {
		wants = append(wants, kindWord(kc.Kind))
		var body []jen.Code
		if kc.Kind == ir.KObject && p.Discriminator != "" {
			body = e.decodeByTag(u)
		} else {
			body = e.decodeCandidates(u, kc.Candidates)
		}
		cases = append(cases, jen.Case(kindTest(kc.Kind)).Block(body...))
	}
	cases = append(cases, jen.Default().Block(jen.Id("d").Dot("Mismatch").Call(jen.Lit(strings.Join(wants, " or ")))))
	e.codec.Func().Params(jen.Id("v").Op("*").Id(u.Holder)).Id("DecodeJSON").Params(jen.Id("d").Op("*").Qual(codecPkg, "Decoder")).Block(
		jen.Id("v").Dot("Value").Op("=").Nil(),
		jen.Switch(jen.Id("c").Op(":=").Id("d").Dot("Peek").Call(), jen.Empty()).Block(cases...),
	)
}

// decodeByTag picks the candidates by the discriminator's value.
func (e *emitter) decodeByTag(u *ir.Union) []jen.Code {
	p := u.Plan
	allowed := make([]string, len(p.Allowed))
	for i, a := range p.Allowed {
		allowed[i] = encoderString(a)
	}
	list := strings.Join(allowed, ", ")
	var tagCases []jen.Code
	for _, tc := range p.ByTag {
		tagCases = append(tagCases, jen.Case(jen.Lit(tc.Value)).Block(e.decodeCandidates(u, tc.Candidates)...))
	}
	unknown := []jen.Code{jen.Id("d").Dot("BadTag").Call(jen.Lit(p.Discriminator), jen.Id("tag"), jen.Lit(u.Name), longLit(list))}
	if len(p.Unknown) > 0 {
		unknown = e.decodeCandidates(u, p.Unknown)
	}
	tagCases = append(tagCases, jen.Default().Block(unknown...))
	absent := []jen.Code{jen.Id("d").Dot("MissingTag").Call(jen.Lit(p.Discriminator), jen.Lit(u.Name), longLit(list))}
	if len(p.Untagged) > 0 {
		absent = e.decodeCandidates(u, p.Untagged)
	}
	return []jen.Code{
		jen.List(jen.Id("tag"), jen.Id("state")).Op(":=").Id("d").Dot("PeekTag").Call(jen.Lit(p.Discriminator)),
		jen.Switch(jen.Id("state")).Block(
			jen.Case(jen.Qual(codecPkg, "TagAbsent")).Block(absent...),
			jen.Case(jen.Qual(codecPkg, "TagString")).Block(jen.Switch(jen.Id("tag")).Block(tagCases...)),
			jen.Default().Block(unknown...),
		),
	}
}

// decodeCandidates decodes the value as the one candidate, or tries each
// and keeps the best (docs/generated-code.md, "How unions decode").
func (e *emitter) decodeCandidates(u *ir.Union, cands []int) []jen.Code {
	// decode reads the branch into x.
	decode := func(br *ir.Branch, d jen.Code) []jen.Code {
		switch {
		case br.Type.Union() != nil:
			iu := br.Type.Union()
			return []jen.Code{
				jen.Var().Id("h").Id(iu.Holder),
				jen.Id("h").Dot("DecodeJSON").Call(d),
				jen.Id("x").Op(":=").Id("h").Dot("Value"),
			}
		case br.Type.PointerMethods():
			return []jen.Code{jen.Id("x").Op(":=").New(goType(br.Type.Resolve())), jen.Id("x").Dot("DecodeJSON").Call(d)}
		}
		return []jen.Code{jen.Var().Id("x").Add(goType(br.Type.Resolve())), jen.Id("x").Dot("DecodeJSON").Call(d)}
	}
	if len(cands) == 1 {
		out := decode(u.Branches[cands[0]], jen.Id("d"))
		return append(out, jen.Id("v").Dot("Value").Op("=").Id("x"))
	}
	out := []jen.Code{
		jen.Var().Id("t").Qual(codecPkg, "Trial"),
		jen.Var().Id("best").Id(u.Name),
	}
	// A branch that requires a member the object lacks cannot be valid:
	// one look at the object's member names rules such branches out before
	// any is decoded. When none is left, all are tried, to report the
	// closest.
	guards := e.requiredGuards(u, cands, &out)
	for ci, i := range cands {
		br := u.Branches[i]
		extra := jen.Lit(0)
		if br.Type.IsStruct() {
			extra = jen.Id("x").Dot("extraCount").Call()
		}
		block := []jen.Code{jen.Id("sd").Op(":=").Id("d").Dot("Sub").Call()}
		block = append(block, decode(br, jen.Op("&").Id("sd"))...)
		violations := jen.Lit(0)
		if e.pkg.Validators {
			// The branch the value is valid against wins.
			check := jen.Id("x").Dot("ValidateWith").Call(jen.Id("vs"))
			if iu := br.Type.Union(); iu != nil {
				check = holderOf(iu, jen.Id("x")).Dot("ValidateWith").Call(jen.Id("vs"))
			}
			block = append(block,
				jen.Id("vs").Op(":=").Qual(codecPkg, "NewValidator").Call(),
				check,
				jen.Id("n").Op(":=").Len(jen.Id("vs").Dot("Errs")),
				jen.Id("vs").Dot("Release").Call(),
			)
			violations = jen.Id("n")
		}
		block = append(block,
			jen.If(jen.Id("t").Dot("Offer").Call(jen.Op("&").Id("sd"), violations, extra)).Block(
				jen.Id("best").Op("=").Id("x"),
			),
		)
		if guards != nil && guards[ci] != "" {
			out = append(out, jen.If(jen.Id(guards[ci])).Block(block...))
		} else {
			out = append(out, jen.Block(block...))
		}
	}
	out = append(out,
		jen.Id("t").Dot("Finish").Call(jen.Id("d"), jen.Lit(u.OneOf)),
		jen.Id("v").Dot("Value").Op("=").Id("best"),
	)
	return out
}

// requiredGuards emits, for object candidates that require members, a
// boolean per candidate saying whether the object has them all, and
// returns the variable names ("" for a candidate without a guard).
//
//	keys := d.peekKeys([]string{"id", "jsonrpc", "method"})
//	ok0 := keys&0b111 == 0b111
//	...
//	if !(ok0 || ok1 ...) { ok0, ok1 = true, true }
func (e *emitter) requiredGuards(u *ir.Union, cands []int, out *[]jen.Code) []string {
	var names []string
	index := map[string]int{}
	any := false
	for _, i := range cands {
		if !ir.HasKind(u.Branches[i].Kinds, ir.KObject) {
			return nil
		}
		for _, r := range u.Branches[i].Required {
			if _, ok := index[r]; !ok {
				index[r] = len(names)
				names = append(names, r)
			}
			any = true
		}
	}
	if !any || len(names) > 64 {
		return nil
	}
	var lits []jen.Code
	for _, n := range names {
		lits = append(lits, jen.Lit(n))
	}
	keys := jen.Index().String().Values(lits...)
	if len(lits) > 8 {
		keys = jen.Index().String().Custom(oneALine, lits...)
	}
	*out = append(*out, jen.Id("keys").Op(":=").Id("d").Dot("PeekKeys").Call(keys))
	guards := make([]string, len(cands))
	var all, trues, vars []jen.Code
	unguarded := false
	for ci, i := range cands {
		var mask uint64
		for _, r := range u.Branches[i].Required {
			mask |= 1 << uint(index[r])
		}
		if mask == 0 {
			// This candidate requires nothing: it is always tried, and
			// the fallback below is never needed.
			unguarded = true
			continue
		}
		g := "ok" + strconv.Itoa(ci)
		guards[ci] = g
		*out = append(*out, jen.Id(g).Op(":=").Id("keys").Op("&").Lit(int(mask)).Op("==").Lit(int(mask)))
		all = append(all, jen.Id(g))
		vars = append(vars, jen.Id(g))
		trues = append(trues, jen.True())
	}
	if !unguarded {
		cond := jen.Null()
		for i, a := range all {
			if i > 0 {
				cond.Op("||")
			}
			cond.Add(a)
		}
		*out = append(*out, jen.If(jen.Op("!").Parens(cond)).Block(jen.List(vars...).Op("=").List(trues...)))
	}
	return guards
}
