package gen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
)

// branchGoType is how a branch appears in the interface: *T for structs.
func branchGoType(t *Type) *jen.Statement {
	if isStruct(t) {
		return jen.Op("*").Add(goType(t))
	}
	return goType(t)
}

func branchNames(u *Union) string {
	var names []string
	for _, br := range u.Branches {
		if isStruct(br.Type) {
			names = append(names, "*"+br.Type.Decl.GoName())
		} else {
			names = append(names, br.Type.Decl.GoName())
		}
	}
	return strings.Join(names, ", ")
}

// emitUnion writes a sum type: a struct holding a sealed interface that
// only the branch types implement.
func (e *emitter) emitUnion(u *Union) {
	what := "at least one of its branches (anyOf)"
	if u.OneOf {
		what = "exactly one of its branches (oneOf)"
	}
	doc := appendDoc(u.Doc, fmt.Sprintf("A JSON value is a %s when it matches %s. Value holds the\nbranch: one of %s.", u.Name, what, branchNames(u)))
	docComment(e.types.Line(), doc).Type().Id(u.Name).Struct(
		jen.Id("Value").Id(u.Iface),
	)
	e.types.Comment(commentText(fmt.Sprintf("%s is implemented by the branches of %s: %s.", u.Iface, u.Name, branchNames(u))))
	methods := []jen.Code{
		jen.Id(u.Marker).Params(),
		jen.Id("encodeJSON").Params(jen.Id("e").Op("*").Id("encoder")),
	}
	if e.pkg.Validators {
		methods = append(methods, jen.Id("validate").Params(jen.Id("s").Op("*").Id("vstate")))
	}
	e.types.Type().Id(u.Iface).Interface(methods...)
	for _, br := range u.Branches {
		recv := branchGoType(br.Type.Resolve())
		e.types.Func().Params(recv).Id(u.Marker).Params().Block()
	}
	e.emitPublic(u.Name, false)

	// encodeJSON: the branch writes itself.
	e.codec.Func().Params(jen.Id("v").Id(u.Name)).Id("encodeJSON").Params(jen.Id("e").Op("*").Id("encoder")).Block(
		jen.If(jen.Id("v").Dot("Value").Op("==").Nil()).Block(jen.Id("e").Dot("null").Call(), jen.Return()),
		jen.Id("v").Dot("Value").Dot("encodeJSON").Call(jen.Id("e")),
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
		jen.If(jen.Id("v").Dot("Value").Op("==").Nil()).Block(
			jen.Id("s").Dot("add").Call(jen.Lit(keyword), jen.Lit("no value: want one of "+branchNames(u))),
			jen.Return(),
		),
		jen.Id("v").Dot("Value").Dot("validate").Call(jen.Id("s")),
	}
	if u.OneOf {
		// Encode, then count the branches the encoding matches.
		body = append(body,
			jen.Id("b").Op(",").Id("err").Op(":=").Id("v").Dot("AppendJSON").Call(jen.Nil()),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return()),
			jen.Var().Id("d").Id("decoder"),
			jen.Id("d").Dot("initShared").Call(jen.Id("b")),
			jen.Var().Id("w").Id(u.Name),
			jen.Id("w").Dot("decodeJSON").Call(jen.Op("&").Id("d")),
			jen.If(jen.Id("d").Dot("oneOfConflict")).Block(
				jen.Id("s").Dot("add").Call(jen.Lit("oneOf"), jen.Lit("matches more than one branch of "+u.Name)),
			),
		)
	}
	e.validate.Func().Params(jen.Id("v").Id(u.Name)).Id("validate").Params(jen.Id("s").Op("*").Id("vstate")).Block(body...)
}

// kindTest is the condition on the first byte c for a JSON kind.
func kindTest(k Kind) *jen.Statement {
	c := jen.Id("c")
	switch k {
	case KNull:
		return c.Op("==").LitRune('n')
	case KBool:
		return c.Op("==").LitRune('t').Op("||").Id("c").Op("==").LitRune('f')
	case KString:
		return c.Op("==").LitRune('"')
	case KArray:
		return c.Op("==").LitRune('[')
	case KObject:
		return c.Op("==").LitRune('{')
	}
	return jen.Id("rtIsNumberStart").Call(c)
}

func kindWord(k Kind) string {
	if k == KFloat {
		return "number"
	}
	return k.String()
}

func (e *emitter) emitUnionDecode(u *Union) {
	p := u.Plan
	var cases []jen.Code
	var wants []string
	for _, kc := range p.ByKind {
		wants = append(wants, kindWord(kc.Kind))
		var body []jen.Code
		if kc.Kind == KObject && p.Discriminator != "" {
			body = e.decodeByTag(u)
		} else {
			body = e.decodeCandidates(u, kc.Candidates)
		}
		cases = append(cases, jen.Case(kindTest(kc.Kind)).Block(body...))
	}
	cases = append(cases, jen.Default().Block(jen.Id("d").Dot("mismatch").Call(jen.Lit(strings.Join(wants, " or ")))))
	e.codec.Func().Params(jen.Id("v").Op("*").Id(u.Name)).Id("decodeJSON").Params(jen.Id("d").Op("*").Id("decoder")).Block(
		jen.Id("v").Dot("Value").Op("=").Nil(),
		jen.Switch(jen.Id("c").Op(":=").Id("d").Dot("peek").Call(), jen.Empty()).Block(cases...),
	)
}

// decodeByTag picks the candidates by the discriminator's value.
func (e *emitter) decodeByTag(u *Union) []jen.Code {
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
	unknown := []jen.Code{jen.Id("d").Dot("badTag").Call(jen.Lit(p.Discriminator), jen.Id("tag"), jen.Lit(u.Name), jen.Lit(list))}
	if len(p.Unknown) > 0 {
		unknown = e.decodeCandidates(u, p.Unknown)
	}
	tagCases = append(tagCases, jen.Default().Block(unknown...))
	absent := []jen.Code{jen.Id("d").Dot("missingTag").Call(jen.Lit(p.Discriminator), jen.Lit(u.Name), jen.Lit(list))}
	if len(p.Untagged) > 0 {
		absent = e.decodeCandidates(u, p.Untagged)
	}
	return []jen.Code{
		jen.List(jen.Id("tag"), jen.Id("state")).Op(":=").Id("d").Dot("peekTag").Call(jen.Lit(p.Discriminator)),
		jen.Switch(jen.Id("state")).Block(
			jen.Case(jen.Id("tagAbsent")).Block(absent...),
			jen.Case(jen.Id("tagString")).Block(jen.Switch(jen.Id("tag")).Block(tagCases...)),
			jen.Default().Block(unknown...),
		),
	}
}

// decodeCandidates decodes the value as the one candidate, or tries each
// and keeps the best (README: "How unions decode").
func (e *emitter) decodeCandidates(u *Union, cands []int) []jen.Code {
	newValue := func(br *Branch) []jen.Code {
		if isStruct(br.Type) {
			return []jen.Code{jen.Id("x").Op(":=").New(goType(br.Type.Resolve()))}
		}
		return []jen.Code{jen.Var().Id("x").Add(goType(br.Type.Resolve()))}
	}
	if len(cands) == 1 {
		br := u.Branches[cands[0]]
		out := newValue(br)
		out = append(out,
			jen.Id("x").Dot("decodeJSON").Call(jen.Id("d")),
			jen.Id("v").Dot("Value").Op("=").Id("x"),
		)
		return out
	}
	out := []jen.Code{
		jen.Var().Id("t").Id("trial"),
		jen.Var().Id("best").Id(u.Iface),
	}
	for _, i := range cands {
		br := u.Branches[i]
		extra := jen.Lit(0)
		if st, ok := br.Type.Resolve().Decl.(*Struct); ok {
			extra = jen.Id("x").Dot("extraCount").Call()
			_ = st
		}
		block := []jen.Code{jen.Id("sd").Op(":=").Id("d").Dot("sub").Call()}
		block = append(block, newValue(br)...)
		block = append(block, jen.Id("x").Dot("decodeJSON").Call(jen.Op("&").Id("sd")))
		violations := jen.Lit(0)
		if e.pkg.Validators {
			// The branch the value is valid against wins.
			block = append(block,
				jen.Id("vs").Op(":=").Id("newVState").Call(),
				jen.Id("x").Dot("validate").Call(jen.Id("vs")),
				jen.Id("n").Op(":=").Len(jen.Id("vs").Dot("errs")),
				jen.Id("vs").Dot("release").Call(),
			)
			violations = jen.Id("n")
		}
		block = append(block,
			jen.If(jen.Id("t").Dot("offer").Call(jen.Op("&").Id("sd"), violations, extra)).Block(
				jen.Id("best").Op("=").Id("x"),
			),
		)
		out = append(out, jen.Block(block...))
	}
	out = append(out,
		jen.Id("t").Dot("finish").Call(jen.Id("d"), jen.Lit(u.OneOf)),
		jen.Id("v").Dot("Value").Op("=").Id("best"),
	)
	return out
}
