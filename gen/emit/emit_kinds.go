package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// kindConst is the runtime constant for a kind.
func kindConst(k ir.Kind) string {
	return map[ir.Kind]string{ir.KNull: "KindNull", ir.KBool: "KindBoolean", ir.KInt: "KindInteger", ir.KFloat: "KindNumber",
		ir.KString: "KindString", ir.KArray: "KindArray", ir.KObject: "KindObject"}[k]
}

// kindsWant lists the kinds of k for messages: "string or integer".
func kindsWant(k *ir.Kinds) string {
	var names []string
	for _, a := range k.Alts {
		names = append(names, strings.ToLower(a.Name))
	}
	return strings.Join(names, " or ")
}

// emitKinds writes a value that holds one of several JSON kinds: a
// comparable struct whose Kind field says which.
func (e *emitter) emitKinds(k *ir.Kinds) {
	var consts []string
	for _, a := range k.Alts {
		consts = append(consts, kindConst(a.Kind))
	}
	fields := []jen.Code{
		jen.Comment(commentText(fmt.Sprintf("Kind says which JSON kind the value is: %s. The zero Kind\nmeans no value (an absent member).", strings.Join(consts, " or ")))).Line().Id("Kind").Add(e.rt(codecPkg, "Kind")),
	}
	for _, a := range k.Alts {
		if a.Type != nil {
			fields = append(fields, jen.Comment(commentText(fmt.Sprintf("%s is the %s, when Kind is %s.", a.Field, strings.ToLower(a.Name), kindConst(a.Kind)))).Line().Id(a.Field).Add(goType(a.Type)))
		}
	}
	doc := appendDoc(k.Doc, fmt.Sprintf("It holds a JSON %s. The zero value holds nothing (an absent member).", kindsWant(k)))
	e.declDoc(doc).Type().Id(k.Name).Struct(fields...)
	for _, a := range k.Alts {
		fn := k.Name + "From" + a.Name
		if a.Type == nil {
			e.types.Comment(commentText(fmt.Sprintf("%s returns a %s holding null.", fn, k.Name)))
			e.types.Func().Id(fn).Params().Id(k.Name).Block(
				jen.Return(jen.Id(k.Name).Values(jen.Id("Kind").Op(":").Add(e.rt(codecPkg, kindConst(a.Kind))))),
			)
			e.types.Comment(commentText("IsNull reports whether v holds null."))
			e.types.Func().Params(jen.Id("v").Id(k.Name)).Id("IsNull").Params().Bool().Block(
				jen.Return(jen.Id("v").Dot("Kind").Op("==").Add(e.rt(codecPkg, kindConst(a.Kind)))),
			)
			continue
		}
		e.types.Comment(commentText(fmt.Sprintf("%s returns a %s holding a JSON %s.", fn, k.Name, strings.ToLower(a.Name))))
		e.types.Func().Id(fn).Params(jen.Id("x").Add(goType(a.Type))).Id(k.Name).Block(
			jen.Return(jen.Id(k.Name).Values(jen.Id("Kind").Op(":").Add(e.rt(codecPkg, kindConst(a.Kind))), jen.Id(a.Field).Op(":").Id("x"))),
		)
		e.types.Comment(commentText(fmt.Sprintf("As%s returns the %s v holds, and whether it holds one.", a.Name, strings.ToLower(a.Name))))
		e.types.Func().Params(jen.Id("v").Id(k.Name)).Id("As"+a.Name).Params().Params(goType(a.Type), jen.Bool()).Block(
			jen.Return(jen.Id("v").Dot(a.Field), jen.Id("v").Dot("Kind").Op("==").Add(e.rt(codecPkg, kindConst(a.Kind)))),
		)
	}
	e.types.Comment(commentText("IsZero reports whether v holds nothing."))
	e.types.Func().Params(jen.Id("v").Id(k.Name)).Id("IsZero").Params().Bool().Block(
		jen.Return(jen.Id("v").Dot("Kind").Op("==").Lit(0)),
	)
	e.types.Comment(commentText("String returns v as JSON text."))
	e.types.Func().Params(jen.Id("v").Id(k.Name)).Id("String").Params().String().Block(
		jen.List(jen.Id("b"), jen.Id("_")).Op(":=").Id("v").Dot("AppendJSON").Call(jen.Nil()),
		jen.Return(jen.String().Call(jen.Id("b"))),
	)
	e.emitPublic(k.Name, false)

	// decodeJSON: the first byte says the kind.
	var cases []jen.Code
	var wants []string
	for _, a := range k.Alts {
		wants = append(wants, kindWord(a.Kind))
		var body []jen.Code
		if a.Type == nil {
			body = []jen.Code{jen.Id("d").Dot("Literal").Call(jen.Lit("null"))}
		} else {
			body = decodeValue(a.Type, jen.Id("v").Dot(a.Field), false)
		}
		body = append([]jen.Code{jen.Id("v").Dot("Kind").Op("=").Add(e.rt(codecPkg, kindConst(a.Kind)))}, body...)
		cases = append(cases, jen.Case(kindTest(a.Kind)).Block(body...))
	}
	cases = append(cases, jen.Default().Block(jen.Id("d").Dot("Mismatch").Call(jen.Lit(strings.Join(wants, " or ")))))
	e.codec.Func().Params(jen.Id("v").Op("*").Id(k.Name)).Id("DecodeJSON").Params(jen.Id("d").Op("*").Qual(codecPkg, "Decoder")).Block(
		jen.Op("*").Id("v").Op("=").Id(k.Name).Values(),
		jen.Switch(jen.Id("c").Op(":=").Id("d").Dot("Peek").Call(), jen.Empty()).Block(cases...),
	)

	// encodeJSON
	var enc []jen.Code
	for _, a := range k.Alts {
		var body []jen.Code
		if a.Type == nil {
			body = []jen.Code{jen.Id("e").Dot("Null").Call()}
		} else {
			body = encodeValue(a.Type, jen.Id("v").Dot(a.Field), true)
		}
		enc = append(enc, jen.Case(e.rt(codecPkg, kindConst(a.Kind))).Block(body...))
	}
	enc = append(enc, jen.Default().Block(jen.Id("e").Dot("Null").Call()))
	e.codec.Func().Params(jen.Id("v").Id(k.Name)).Id("EncodeJSON").Params(jen.Id("e").Op("*").Qual(codecPkg, "Encoder")).Block(
		jen.Switch(jen.Id("v").Dot("Kind")).Block(enc...),
	)

	// validate: the kind must be one of the alternatives.
	var val []jen.Code
	for _, a := range k.Alts {
		var checks []jen.Code
		if a.Type != nil {
			checks = e.validateValue(a.Type, jen.Id("v").Dot(a.Field))
		}
		val = append(val, jen.Case(e.rt(codecPkg, kindConst(a.Kind))).Block(checks...))
	}
	val = append(val,
		jen.Case(jen.Lit(0)).Block(jen.Id("s").Dot("Add").Call(jen.Lit("type"), jen.Lit("no value: want "+kindsWant(k)))),
		jen.Default().Block(jen.Id("s").Dot("Add").Call(jen.Lit("type"), jen.Lit("holds a ").Op("+").Id("v").Dot("Kind").Dot("String").Call().Op("+").Lit(", want "+kindsWant(k)))),
	)
	e.validateFunc().Params(jen.Id("v").Id(k.Name)).Id("ValidateWith").Params(jen.Id("s").Op("*").Qual(codecPkg, "Validator")).Block(
		jen.Switch(jen.Id("v").Dot("Kind")).Block(val...),
	)
}
