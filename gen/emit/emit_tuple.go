package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// emitTuple writes a tuple: a struct with a field per position of
// prefixItems and Rest for the elements after them, encoded as a JSON array.
func (e *emitter) emitTuple(tu *ir.Tuple) {
	var fields []jen.Code
	for _, f := range tu.Items {
		fields = append(fields, docComment(jen.Null(), f.Doc).Id(f.Name).Add(fieldGoType(f)))
	}
	if tu.RestType != nil {
		fields = append(fields, docComment(jen.Null(), "Rest holds the elements after the positions.").Id(tu.Rest).Index().Add(goType(tu.RestType)))
	}
	doc := appendDoc(tu.Doc, tupleDoc(tu))
	e.declDoc(doc).Type().Id(tu.Name).Struct(fields...)
	e.emitPublic(tu.Name, true)
	e.emitTupleDecode(tu)
	e.emitTupleEncode(tu)
	e.emitTupleValidate(tu)
}

func tupleDoc(tu *ir.Tuple) string {
	required := 0
	for _, f := range tu.Items {
		if f.Required {
			required++
		}
	}
	var names string
	switch n := len(tu.Items); n {
	case 1:
		names = "Item0 is its first element"
	case 2:
		names = "Item0 and Item1 are its first elements"
	default:
		names = fmt.Sprintf("Item0 to Item%d are its first elements", n-1)
	}
	s := "It is a JSON array; " + names + "."
	switch {
	case required == len(tu.Items):
	case required == 0:
		s += " Each may be absent (nil), and then so is every later one."
	default:
		s += fmt.Sprintf(" The ones after Item%d may be absent (nil), and then so is every later one.", required-1)
	}
	if tu.RestType != nil {
		return s + " Rest holds the elements after them."
	}
	return s + " No element may follow them."
}

// emitTupleDecode reads the array: position n into its field, the rest
// into Rest.
func (e *emitter) emitTupleDecode(tu *ir.Tuple) {
	var cases []jen.Code
	for i, f := range tu.Items {
		cases = append(cases, jen.Case(jen.Lit(i)).Block(decodeValue(f.Type, jen.Id("v").Dot(f.Name), f.Pointer())...))
	}
	var rest []jen.Code
	if tu.RestType != nil {
		rest = append([]jen.Code{jen.Var().Id("x").Add(goType(tu.RestType))}, decodeValue(tu.RestType, jen.Id("x"), false)...)
		rest = append(rest, jen.Id("v").Dot(tu.Rest).Op("=").Append(jen.Id("v").Dot(tu.Rest), jen.Id("x")))
	} else {
		// The Go type cannot hold it, as the schema does not allow it.
		rest = []jen.Code{
			jen.Id("d").Dot("Peek").Call(),
			jen.Id("d").Dot("Violate").Call(jen.Id("d").Dot("Pos"), jen.Lit("false"), jen.Lit("no value is allowed here")),
			jen.Id("d").Dot("Skip").Call(),
		}
	}
	cases = append(cases, jen.Default().Block(rest...))
	required := 0
	for _, f := range tu.Items {
		if f.Required {
			required++
		}
	}
	body := []jen.Code{jen.Op("*").Id("v").Op("=").Id(tu.Name).Values()}
	if required > 0 {
		// off is where the array starts: the pointer of a minItems
		// violation.
		body = append(body, jen.Id("d").Dot("Peek").Call(), jen.Id("off").Op(":=").Id("d").Dot("Pos"))
	}
	body = append(body,
		jen.If(jen.Op("!").Id("d").Dot("Array").Call()).Block(jen.Return()),
		jen.Id("n").Op(":=").Lit(0),
		jen.For(jen.Id("first").Op(":=").True(), jen.Id("d").Dot("NextElem").Call(jen.Op("&").Id("first")), jen.Id("n").Op("++")).Block(
			jen.Switch(jen.Id("n")).Block(cases...),
		),
	)
	if required > 0 {
		// Positions the Go type requires were absent: the array is too
		// short for minItems.
		body = append(body, jen.If(jen.Id("n").Op("<").Lit(required)).Block(
			jen.Id("d").Dot("Violate").Call(jen.Id("off"), jen.Lit("minItems"),
				jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("n")).Op("+").Lit(fmt.Sprintf(" items, want at least %d", *tu.MinItems))),
		))
	}
	e.codec.Func().Params(jen.Id("v").Op("*").Id(tu.Name)).Id("DecodeJSON").Params(jen.Id("d").Op("*").Qual(codecPkg, "Decoder")).Block(body...)
}

// emitTupleEncode writes the positions up to the first absent one, then
// Rest. A position set after an absent one has no JSON form: encoding
// fails.
func (e *emitter) emitTupleEncode(tu *ir.Tuple) {
	var body []jen.Code
	gap := tupleGapCheck(tu)
	if gap != nil {
		body = append(body, jen.If(jen.Id("v").Dot("gap").Call()).Block(
			jen.Id("e").Dot("Fail").Call(jen.Lit(tu.Name+": a position is set after an absent one")),
		))
	}
	body = append(body, jen.Id("e").Dot("Buf").Op("=").Append(jen.Id("e").Dot("Buf"), jen.LitRune('[')))
	for _, f := range tu.Items {
		lv := jen.Id("v").Dot(f.Name)
		enc := append([]jen.Code{jen.Id("e").Dot("Comma").Call()}, encodeField(f, lv)...)
		if f.Required {
			body = append(body, enc...)
		} else {
			body = append(body, jen.If(presentCheck(f, lv)).Block(enc...))
		}
	}
	if tu.RestType != nil {
		body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("v").Dot(tu.Rest)).Block(
			append([]jen.Code{jen.Id("e").Dot("Comma").Call()}, encodeValue(tu.RestType, jen.Id("v").Dot(tu.Rest).Index(jen.Id("i")), true)...)...,
		))
	}
	body = append(body, jen.Id("e").Dot("Buf").Op("=").Append(jen.Id("e").Dot("Buf"), jen.LitRune(']')))
	e.codec.Func().Params(jen.Id("v").Op("*").Id(tu.Name)).Id("EncodeJSON").Params(jen.Id("e").Op("*").Qual(codecPkg, "Encoder")).Block(body...)
	if gap != nil {
		e.codec.Comment(commentText("gap reports whether a position is set after an absent one (or Rest has elements after one), which has no JSON form."))
		e.codec.Func().Params(jen.Id("v").Op("*").Id(tu.Name)).Id("gap").Params().Bool().Block(jen.Return(gap))
	}
}

// tupleGapCheck is the condition under which a tuple value has no JSON
// form: an optional position is absent and a later one (or Rest) is not.
func tupleGapCheck(tu *ir.Tuple) *jen.Statement {
	var conds []*jen.Statement
	for i, f := range tu.Items {
		if f.Required {
			continue
		}
		var after []jen.Code
		for _, g := range tu.Items[i+1:] {
			after = append(after, presentCheck(g, jen.Id("v").Dot(g.Name)))
		}
		if tu.RestType != nil {
			after = append(after, jen.Len(jen.Id("v").Dot(tu.Rest)).Op(">").Lit(0))
		}
		if len(after) == 0 {
			continue
		}
		any := jen.Null()
		for j, a := range after {
			if j > 0 {
				any.Op("||")
			}
			any.Add(a)
		}
		conds = append(conds, jen.Op("!").Parens(presentCheck(f, jen.Id("v").Dot(f.Name))).Op("&&").Parens(any))
	}
	if len(conds) == 0 {
		return nil
	}
	out := jen.Null()
	for i, c := range conds {
		if i > 0 {
			out.Op("||")
		}
		out.Parens(c)
	}
	return out
}

// emitTupleValidate checks the positions and Rest, the item counts, and
// that the value has no hole; or, with Whole, its encoding.
func (e *emitter) emitTupleValidate(tu *ir.Tuple) {
	if !e.pkg.Validators {
		return
	}
	var body []jen.Code
	if tu.Whole != nil {
		body = e.wholeCheck(tu.Whole, []jen.Code{jen.Id("v").Dot("EncodeJSON").Call(jen.Id("e"))})
	} else {
		if tupleGapCheck(tu) != nil {
			body = append(body, jen.If(jen.Id("v").Dot("gap").Call()).Block(
				jen.Id("s").Dot("Add").Call(jen.Lit("prefixItems"), jen.Lit("a position is set after an absent one, which has no JSON form")),
			))
		}
		fixed := 0
		var optional []*ir.Field
		for _, f := range tu.Items {
			if f.Required {
				fixed++
			} else {
				optional = append(optional, f)
			}
		}
		if tu.MinItems != nil || tu.MaxItems != nil {
			body = append(body, jen.Id("n").Op(":=").Lit(fixed))
			for _, f := range optional {
				body = append(body, jen.If(presentCheck(f, jen.Id("v").Dot(f.Name))).Block(jen.Id("n").Op("++")))
			}
			if tu.RestType != nil {
				body = append(body, jen.Id("n").Op("+=").Len(jen.Id("v").Dot(tu.Rest)))
			}
			if tu.MinItems != nil && *tu.MinItems > 0 {
				body = append(body, jen.If(jen.Id("n").Op("<").Lit(int(*tu.MinItems))).Block(
					jen.Id("s").Dot("Add").Call(jen.Lit("minItems"), jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("n")).Op("+").Lit(fmt.Sprintf(" items, want at least %d", *tu.MinItems))),
				))
			}
			if tu.MaxItems != nil {
				body = append(body, jen.If(jen.Id("n").Op(">").Lit(int(*tu.MaxItems))).Block(
					jen.Id("s").Dot("Add").Call(jen.Lit("maxItems"), jen.Lit("has ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("n")).Op("+").Lit(fmt.Sprintf(" items, want at most %d", *tu.MaxItems))),
				))
			}
		}
		for i, f := range tu.Items {
			lv := jen.Id("v").Dot(f.Name)
			checks := e.validateValue(f.Type, derefScalar(f, lv))
			if len(checks) == 0 {
				continue
			}
			block := append([]jen.Code{jen.Id("m").Op(":=").Id("s").Dot("Mark").Call()}, checks...)
			block = append(block, jen.Id("s").Dot("AtIndex").Call(jen.Id("m"), jen.Lit(i)))
			if f.Required {
				body = append(body, jen.Block(block...))
			} else {
				body = append(body, jen.If(presentCheck(f, lv)).Block(block...))
			}
		}
		if tu.RestType != nil {
			checks := e.validateValue(tu.RestType, jen.Id("v").Dot(tu.Rest).Index(jen.Id("i")))
			if len(checks) > 0 {
				loop := append([]jen.Code{jen.Id("m").Op(":=").Id("s").Dot("Mark").Call()}, checks...)
				loop = append(loop, jen.Id("s").Dot("AtIndex").Call(jen.Id("m"), jen.Lit(len(tu.Items)).Op("+").Id("i")))
				body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("v").Dot(tu.Rest)).Block(loop...))
			}
		}
	}
	e.validate.Func().Params(jen.Id("v").Op("*").Id(tu.Name)).Id("ValidateWith").Params(jen.Id("s").Op("*").Qual(codecPkg, "Validator")).Block(body...)
}

// wholeCheck checks a value by its JSON encoding: encode (statements that
// write to e) writes it into the validation state's own buffer, so that a
// valid value costs no allocation, and the raw check of the schema reads
// it.
//
//	{ e := s.encoder(); <encode>; var d decoder; if s.encoded(&d) { rawCheckN(&d, s) } }
func (e *emitter) wholeCheck(c *ir.Check, encode []jen.Code) []jen.Code {
	out := []jen.Code{jen.Id("e").Op(":=").Id("s").Dot("Encoder").Call()}
	out = append(out, encode...)
	out = append(out,
		jen.Var().Id("d").Qual(codecPkg, "Decoder"),
		jen.If(jen.Id("s").Dot("Encoded").Call(jen.Op("&").Id("d"))).Block(
			jen.Id(e.raw.need(c)).Call(jen.Op("&").Id("d"), jen.Id("s")),
		),
	)
	return []jen.Code{jen.Block(out...)}
}
