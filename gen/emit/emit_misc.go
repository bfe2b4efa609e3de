package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// emitEnum writes a named string (or integer) type with a constant per
// value. The type holds any value so decoding never loses one; Validate
// reports values outside the list.
func (e *emitter) emitEnum(en *ir.Enum) {
	base := jen.String()
	if en.Base == ir.KInt {
		base = jen.Int64()
	}
	e.declDoc(en.Doc).Type().Id(en.Name).Add(base)
	var defs []jen.Code
	var cases []jen.Code
	for _, v := range en.Values {
		var lit jen.Code
		if en.Base == ir.KInt {
			n, _ := int64Lit(v.Value.Num)
			lit = jen.Lit(int(n))
		} else {
			lit = jen.Lit(v.Value.Str)
		}
		if v.Name == "" {
			// No constant (its name clashes): the literal stands for it.
			cases = append(cases, lit)
			continue
		}
		defs = append(defs, jen.Id(v.Name).Id(en.Name).Op("=").Add(lit))
		cases = append(cases, jen.Id(v.Name))
	}
	if len(defs) > 0 {
		e.types.Comment(commentText(fmt.Sprintf("The values of %s.", en.Name)))
		e.types.Const().Defs(defs...)
	}
	e.emitPublic(en.Name, false)

	under := &ir.Type{Kind: ir.TString}
	if en.Base == ir.KInt {
		under = &ir.Type{Kind: ir.TInt}
	}
	e.emitConverted(en.Name, under)

	show := jen.Qual(codecPkg, "Quote").Call(jen.String().Call(jen.Id("v")))
	if en.Base == ir.KInt {
		show = jen.Qual("strconv", "FormatInt").Call(jen.Int64().Call(jen.Id("v")), jen.Lit(10))
	}
	e.validateFunc().Params(jen.Id("v").Id(en.Name)).Id("ValidateWith").Params(jen.Id("s").Op("*").Qual(codecPkg, "Validator")).Block(
		jen.Switch(jen.Id("v")).Block(
			jen.Case(cases...),
			jen.Default().Block(jen.Id("s").Dot("Add").Call(jen.Lit("enum"), show.Op("+").Lit(" is not one of "+enumValuesList(en)))),
		),
	)
}

func enumValuesList(en *ir.Enum) string {
	var b strings.Builder
	for i, v := range en.Values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.Value.JSON)
	}
	return b.String()
}

// emitConverted writes decodeJSON and encodeJSON for a named type by
// converting to and from its underlying type.
func (e *emitter) emitConverted(name string, under *ir.Type) {
	// func (v *N) decodeJSON(d *decoder) { var u U; <decode u>; *v = N(u) }
	dec := []jen.Code{jen.Var().Id("u").Add(goType(under))}
	dec = append(dec, decodeValue(under, jen.Id("u"), false)...)
	dec = append(dec, jen.Op("*").Id("v").Op("=").Id(name).Call(jen.Id("u")))
	e.codec.Func().Params(jen.Id("v").Op("*").Id(name)).Id("DecodeJSON").Params(jen.Id("d").Op("*").Qual(codecPkg, "Decoder")).Block(dec...)
	// func (v N) encodeJSON(e *encoder) { u := U(v); <encode u> }
	enc := []jen.Code{jen.Id("u").Op(":=").Add(goType(under)).Call(jen.Id("v"))}
	enc = append(enc, encodeValue(under, jen.Id("u"), true)...)
	e.codec.Func().Params(jen.Id("v").Id(name)).Id("EncodeJSON").Params(jen.Id("e").Op("*").Qual(codecPkg, "Encoder")).Block(enc...)
}

// emitNamed writes a named non-struct type: a string, a slice, a map, raw
// JSON.
func (e *emitter) emitNamed(n *ir.Named) {
	e.declDoc(n.Doc).Type().Id(n.Name).Add(goType(n.Type))
	if len(n.Consts) > 0 {
		var defs []jen.Code
		for _, c := range n.Consts {
			defs = append(defs, jen.Comment(commentText(c.Doc)).Line().Id(c.Name).Id(n.Name).Op("=").Lit(c.Value))
		}
		e.types.Comment(commentText(fmt.Sprintf("The %s values the specification defines.", n.Name)))
		e.types.Const().Defs(defs...)
	}
	e.emitPublic(n.Name, false)
	e.emitConverted(n.Name, n.Type)
	checks := e.validateValue(n.Type, jen.Id("u"))
	body := []jen.Code{}
	if len(checks) > 0 {
		body = append(body, jen.Id("u").Op(":=").Add(goType(n.Type)).Call(jen.Id("v")))
		body = append(body, checks...)
	}
	e.validateFunc().Params(jen.Id("v").Id(n.Name)).Id("ValidateWith").Params(jen.Id("s").Op("*").Qual(codecPkg, "Validator")).Block(body...)
}

// emitRaw writes an opaque JSON type that keeps its exact bytes.
func (e *emitter) emitRaw(r *ir.Raw) {
	doc := appendDoc(r.Doc, fmt.Sprintf("%s keeps the exact JSON bytes; Validate checks them against the schema.", r.Name))
	e.declDoc(doc).Type().Id(r.Name).Qual(jsonPkg, "RawMessage")
	e.emitPublic(r.Name, false)
	e.emitConverted(r.Name, &ir.Type{Kind: ir.TRaw})
	e.validateFunc().Params(jen.Id("v").Id(r.Name)).Id("ValidateWith").Params(jen.Id("s").Op("*").Qual(codecPkg, "Validator")).Block(
		e.rawCall(r.Check, jen.Id("v"))...,
	)
}

// emitAlias writes `type A = B`.
func (e *emitter) emitAlias(a *ir.Alias) {
	e.declDoc(a.Doc).Type().Id(a.Name).Op("=").Add(goType(a.Target))
}
