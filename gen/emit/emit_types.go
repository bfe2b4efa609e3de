package emit

import (
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// This file holds the snippets every emitter shares: the Go spelling of a
// Type and the statements that decode, encode and validate one value of
// it. Identifiers in the generated code: v is the receiver, d the decoder,
// e the encoder, s the validation state.

const jsonPkg = "encoding/json"

// goType is the Go type of a value of t (not a pointer).
func goType(t *ir.Type) *jen.Statement {
	switch t.Kind {
	case ir.TString:
		return jen.String()
	case ir.TInt:
		return jen.Int64()
	case ir.TFloat:
		return jen.Float64()
	case ir.TBool:
		return jen.Bool()
	case ir.TRaw:
		return jen.Qual(jsonPkg, "RawMessage")
	case ir.TDecl:
		return jen.Id(t.Decl.GoName())
	case ir.TSlice:
		return jen.Index().Add(goType(t.Elem))
	case ir.TMap:
		return jen.Map(jen.String()).Add(goType(t.Elem))
	case ir.TExternal:
		return jen.Qual(t.Ext.ImportPath, t.Ext.Name)
	}
	panic(fmt.Sprintf("goType: kind %d", t.Kind))
}

// fieldGoType is the Go type of a struct field.
func fieldGoType(f *ir.Field) *jen.Statement {
	if f.Pointer() {
		return jen.Op("*").Add(goType(f.Type))
	}
	return goType(f.Type)
}

// decodeValue returns statements that decode the next JSON value into the
// addressable expression lv, of type t. asPtr makes lv a pointer that gets
// a new variable.
func decodeValue(t *ir.Type, lv *jen.Statement, asPtr bool) []jen.Code {
	return decodeValueN(t, lv, asPtr, 0)
}

// decodeValueN is decodeValue inside depth enclosing loops (for names).
func decodeValueN(t *ir.Type, lv *jen.Statement, asPtr bool, depth int) []jen.Code {
	x := "x" + strconv.Itoa(depth)
	k := "k" + strconv.Itoa(depth)
	switch t.Kind {
	case ir.TFloat:
		if c := t.C; c.Minimum != nil || c.Maximum != nil || c.ExclusiveMinimum != nil || c.ExclusiveMaximum != nil || c.MultipleOf != nil {
			m := "FloatBounds"
			if c.MultipleOf != nil {
				m = "FloatExact"
			}
			if asPtr {
				m += "Ptr"
			}
			str := func(p *string) jen.Code {
				if p == nil {
					return jen.Lit("")
				}
				return jen.Lit(*p)
			}
			args := []jen.Code{str(c.Minimum), str(c.Maximum), str(c.ExclusiveMinimum), str(c.ExclusiveMaximum)}
			if c.MultipleOf != nil {
				args = append(args, str(c.MultipleOf))
			}
			return []jen.Code{lv.Clone().Op("=").Id("d").Dot(m).Call(args...)}
		}
		fallthrough
	case ir.TString, ir.TInt, ir.TBool:
		m := map[ir.TKind]string{ir.TString: "Str", ir.TInt: "Int", ir.TFloat: "Float", ir.TBool: "Bool"}[t.Kind]
		if asPtr {
			m += "Ptr"
		}
		return []jen.Code{lv.Clone().Op("=").Id("d").Dot(m).Call()}
	case ir.TRaw:
		return []jen.Code{lv.Clone().Op("=").Id("d").Dot("Raw").Call()}
	case ir.TExternal:
		if asPtr {
			return []jen.Code{
				lv.Clone().Op("=").New(goType(t)),
				jen.Id("d").Dot("External").Call(lv.Clone()),
			}
		}
		return []jen.Code{jen.Id("d").Dot("External").Call(jen.Op("&").Add(lv))}
	case ir.TDecl:
		if u := t.Union(); u != nil {
			// A union decodes through its holder: var h UHolder; h.decodeJSON(d); lv = h.Value
			h := "h" + strconv.Itoa(depth)
			return []jen.Code{
				jen.Var().Id(h).Id(u.Holder),
				jen.Id(h).Dot("DecodeJSON").Call(jen.Id("d")),
				lv.Clone().Op("=").Id(h).Dot("Value"),
			}
		}
		if asPtr {
			// lv = new(T); lv.decodeJSON(d)
			return []jen.Code{
				lv.Clone().Op("=").New(goType(t)),
				lv.Clone().Dot("DecodeJSON").Call(jen.Id("d")),
			}
		}
		return []jen.Code{lv.Clone().Dot("DecodeJSON").Call(jen.Id("d"))}
	case ir.TSlice:
		// Elements go to a small array on the stack first, then into a
		// slice of the exact length: one allocation for most arrays.
		//
		//	if d.array() { var buf [8]T; s := buf[:0]; for ... { var x T; ...; s = append(s, x) }; lv = append(make([]T, 0, len(s)), s...) }
		buf, sl := "buf"+strconv.Itoa(depth), "s"+strconv.Itoa(depth)
		body := append([]jen.Code{jen.Var().Id(x).Add(goType(t.Elem))}, decodeValueN(t.Elem, jen.Id(x), false, depth+1)...)
		body = append(body, jen.Id(sl).Op("=").Append(jen.Id(sl), jen.Id(x)))
		return []jen.Code{jen.If(jen.Id("d").Dot("Array").Call()).Block(
			jen.Var().Id(buf).Index(jen.Lit(8)).Add(goType(t.Elem)),
			jen.Id(sl).Op(":=").Id(buf).Index(jen.Empty(), jen.Lit(0)),
			jen.For(jen.Id("first").Op(":=").True(), jen.Id("d").Dot("NextElem").Call(jen.Op("&").Id("first")), jen.Empty()).Block(body...),
			lv.Clone().Op("=").Append(jen.Make(goType(t), jen.Lit(0), jen.Len(jen.Id(sl))), jen.Id(sl).Op("...")),
		)}
	case ir.TMap:
		// if d.object() { m := map[string]T{}; for first := true; d.member(&first); { k := d.key; dup check; var x T; ...; m[k] = x }; lv = m }
		m := "m" + strconv.Itoa(depth)
		body := []jen.Code{
			jen.Id(k).Op(":=").Id("d").Dot("Key"),
			jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Id(m).Index(jen.Id(k)), jen.Id("dup")).Block(
				jen.Id("d").Dot("Dup").Call(jen.Id(k)),
				jen.Break(),
			),
			jen.Var().Id(x).Add(goType(t.Elem)),
		}
		body = append(body, decodeValueN(t.Elem, jen.Id(x), false, depth+1)...)
		body = append(body, jen.Id(m).Index(jen.Id(k)).Op("=").Id(x))
		return []jen.Code{jen.If(jen.Id("d").Dot("Object").Call()).Block(
			jen.Id(m).Op(":=").Add(goType(t)).Values(),
			jen.For(jen.Id("first").Op(":=").True(), jen.Id("d").Dot("NextMember").Call(jen.Op("&").Id("first")), jen.Empty()).Block(body...),
			lv.Clone().Op("=").Id(m),
		)}
	}
	panic("decodeValue")
}

// encodeValue returns statements that encode expr, of type t. A struct
// held in a non-addressable expression (a map value) is copied first.
func encodeValue(t *ir.Type, expr *jen.Statement, addressable bool) []jen.Code {
	return encodeValueN(t, expr, addressable, 0)
}

func encodeValueN(t *ir.Type, expr *jen.Statement, addressable bool, depth int) []jen.Code {
	i := "i" + strconv.Itoa(depth)
	k := "k" + strconv.Itoa(depth)
	switch t.Kind {
	case ir.TString:
		return []jen.Code{jen.Id("e").Dot("Str").Call(expr)}
	case ir.TInt:
		return []jen.Code{jen.Id("e").Dot("Int").Call(expr)}
	case ir.TFloat:
		return []jen.Code{jen.Id("e").Dot("Float").Call(expr)}
	case ir.TBool:
		return []jen.Code{jen.Id("e").Dot("Bool").Call(expr)}
	case ir.TRaw:
		return []jen.Code{jen.Id("e").Dot("Raw").Call(expr)}
	case ir.TExternal:
		return []jen.Code{jen.Id("e").Dot("External").Call(expr)}
	case ir.TDecl:
		if u := t.Union(); u != nil {
			return []jen.Code{holderOf(u, expr).Dot("EncodeJSON").Call(jen.Id("e"))}
		}
		if t.PointerMethods() && !addressable {
			x := "x" + strconv.Itoa(depth)
			return []jen.Code{jen.Block(
				jen.Id(x).Op(":=").Add(expr),
				jen.Id(x).Dot("EncodeJSON").Call(jen.Id("e")),
			)}
		}
		return []jen.Code{expr.Clone().Dot("EncodeJSON").Call(jen.Id("e"))}
	case ir.TSlice:
		// e.buf = append(e.buf, '['); for i := range expr { e.comma(); <elem> }; e.buf = append(e.buf, ']')
		body := append([]jen.Code{jen.Id("e").Dot("Comma").Call()}, encodeValueN(t.Elem, expr.Clone().Index(jen.Id(i)), true, depth+1)...)
		return []jen.Code{
			jen.Id("e").Dot("Buf").Op("=").Append(jen.Id("e").Dot("Buf"), jen.LitRune('[')),
			jen.For(jen.Id(i).Op(":=").Range().Add(expr)).Block(body...),
			jen.Id("e").Dot("Buf").Op("=").Append(jen.Id("e").Dot("Buf"), jen.LitRune(']')),
		}
	case ir.TMap:
		// e.buf = append(e.buf, '{'); ks, n := SortedKeys(e, expr); for _, k := range ks { e.key(k); <value> }; e.keys = e.keys[:n]; ...
		body := append([]jen.Code{jen.Id("e").Dot("Key").Call(jen.Id(k))}, encodeValueN(t.Elem, expr.Clone().Index(jen.Id(k)), false, depth+1)...)
		ks, n := "ks"+strconv.Itoa(depth), "n"+strconv.Itoa(depth)
		return []jen.Code{jen.Block(
			jen.Id("e").Dot("Buf").Op("=").Append(jen.Id("e").Dot("Buf"), jen.LitRune('{')),
			jen.List(jen.Id(ks), jen.Id(n)).Op(":=").Qual(codecPkg, "SortedKeys").Call(jen.Id("e"), expr),
			jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Id(ks)).Block(body...),
			jen.Id("e").Dot("Keys").Op("=").Id("e").Dot("Keys").Index(jen.Empty(), jen.Id(n)),
			jen.Id("e").Dot("Buf").Op("=").Append(jen.Id("e").Dot("Buf"), jen.LitRune('}')),
		)}
	}
	panic("encodeValue")
}

// nonZeroCheck is true when expr does not hold the zero value of t (a
// present optional member), or nil when that is not cheap to tell
// (structs).
func nonZeroCheck(t *ir.Type, expr *jen.Statement) *jen.Statement {
	switch t.Kind {
	case ir.TString:
		return expr.Clone().Op("!=").Lit("")
	case ir.TInt, ir.TFloat:
		return expr.Clone().Op("!=").Lit(0)
	case ir.TBool:
		return expr.Clone()
	case ir.TRaw, ir.TSlice, ir.TMap:
		return expr.Clone().Op("!=").Nil()
	case ir.TDecl:
		switch d := t.Decl.(type) {
		case *ir.Enum:
			if d.Base == ir.KString {
				return expr.Clone().Op("!=").Lit("")
			}
			return expr.Clone().Op("!=").Lit(0)
		case *ir.Union:
			return expr.Clone().Op("!=").Nil()
		case *ir.Kinds:
			return jen.Op("!").Add(expr.Clone()).Dot("IsZero").Call()
		case *ir.Raw:
			return expr.Clone().Op("!=").Nil()
		case *ir.Named:
			return nonZeroCheck(d.Type, asUnderlying(d, expr))
		case *ir.Alias:
			return nonZeroCheck(d.Target, expr)
		}
	}
	return nil
}

// asUnderlying converts expr, of the named type n, to n's underlying type
// when that is a Kinds type, whose methods (IsZero) n does not have.
func asUnderlying(n *ir.Named, expr *jen.Statement) *jen.Statement {
	if r := n.Type.Resolve(); r.Kind == ir.TDecl {
		if _, ok := r.Decl.(*ir.Kinds); ok {
			return goType(n.Type).Call(expr.Clone())
		}
	}
	return expr
}

// absentCheck is true for a required member that cannot have a valid
// encoding even though the value was built in Go: a union with no branch,
// a Kinds value with no kind.
func absentCheck(t *ir.Type, expr *jen.Statement) *jen.Statement {
	t = t.Resolve()
	if t.Kind != ir.TDecl {
		return nil
	}
	switch d := t.Decl.(type) {
	case *ir.Union:
		return expr.Clone().Op("==").Nil()
	case *ir.Kinds:
		return expr.Clone().Dot("IsZero").Call()
	case *ir.Named:
		return absentCheck(d.Type, asUnderlying(d, expr))
	}
	return nil
}

// litValue is a Go literal for a JSON scalar const.
func litValue(v *ir.Value, t *ir.Type) jen.Code {
	switch v.Kind {
	case ir.String:
		return jen.Lit(v.Str)
	case ir.Bool:
		return jen.Lit(v.Bool)
	case ir.Number:
		if t.Kind == ir.TInt {
			n, err := strconv.ParseInt(v.Num, 10, 64)
			if err == nil {
				return jen.Lit(n)
			}
		}
		f, _ := strconv.ParseFloat(v.Num, 64)
		return jen.Lit(f)
	}
	return jen.Lit(v.JSON)
}

// quotedName is a member name as it appears in JSON, with its colon, for
// e.name.
func quotedName(name string) string {
	e := encoderString(name)
	return e + ":"
}

// encoderString quotes s the way the runtime encoder does.
func encoderString(s string) string {
	q := strconv.Quote(s)
	// strconv.Quote escapes non-ASCII and uses \x; JSON needs \u. Member
	// names in MCP are ASCII; fall back to a JSON-safe form otherwise.
	ok := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			ok = false
		}
	}
	if ok {
		return q
	}
	b := []byte{'"'}
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			b = append(b, fmt.Sprintf(`\u%04x`, r)...)
		default:
			b = append(b, string(r)...)
		}
	}
	return string(append(b, '"'))
}
