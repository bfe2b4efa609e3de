package emit

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// emitPublic writes the exported methods every declaration has: the JSON
// ones in json.go, Validate in validate.go (types.go keeps the types and
// what is particular to each). Structs use pointer receivers; the other
// kinds are small values.
func (e *emitter) emitPublic(name string, ptr bool) {
	recv := jen.Id("v").Id(name)
	if ptr {
		recv = jen.Id("v").Op("*").Id(name)
	}
	f := e.codec
	f.Comment(commentText("MarshalJSON encodes v as JSON."))
	f.Func().Params(jen.Id("v").Id(name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("v").Dot("AppendJSON").Call(jen.Nil())),
	)
	f.Comment(commentText("AppendJSON appends the JSON encoding of v to b."))
	f.Func().Params(recv.Clone()).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Id("e").Op(":=").Qual(codecPkg, "Encoder").Values(jen.Id("Buf").Op(":").Id("b")),
		jen.Id("v").Dot("EncodeJSON").Call(jen.Op("&").Id("e")),
		jen.Return(jen.Id("e").Dot("Result").Call(jen.Id("b"))),
	)
	f.Comment(commentText("UnmarshalJSON decodes JSON into v. It fails with a *SyntaxError on malformed " +
		"JSON and with a *ValidationError on values v cannot hold (a wrong JSON type " +
		"or constant) and on missing required members; Validate checks the rest of the schema."))
	f.Func().Params(jen.Id("v").Op("*").Id(name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(
		jen.Var().Id("d").Qual(codecPkg, "Decoder"),
		jen.Id("d").Dot("Init").Call(jen.Id("b")),
		jen.Id("v").Dot("DecodeJSON").Call(jen.Op("&").Id("d")),
		jen.Return(jen.Id("d").Dot("Finish").Call()),
	)
	if !e.pkg.Validators {
		return
	}
	f = e.validate
	f.Comment(commentText("Validate reports every way v breaks the schema, as a *ValidationError, or returns nil."))
	f.Func().Params(recv.Clone()).Id("Validate").Params().Error().Block(
		jen.Id("s").Op(":=").Qual(codecPkg, "NewValidator").Call(),
		jen.Id("v").Dot("ValidateWith").Call(jen.Id("s")),
		jen.Return(jen.Id("s").Dot("Done").Call()),
	)
}

// emitStruct writes a struct declaration and its methods.
func (e *emitter) emitStruct(st *ir.Struct) {
	var fields []jen.Code
	for _, f := range st.Fields {
		if f.Name == "" {
			continue
		}
		tag := f.JSONName
		if !f.Required {
			tag += ",omitempty"
		}
		line := jen.Id(f.Name).Add(fieldGoType(f)).Tag(map[string]string{"json": tag})
		doc := f.Doc
		if f.Const != nil {
			doc = appendDoc(doc, fmt.Sprintf("When set, it must be %s.", f.Const.JSON))
		}
		fields = append(fields, docComment(jen.Null(), doc).Add(line))
	}
	doc := st.Doc
	for _, f := range st.Fields {
		if f.Name == "" && f.Const != nil {
			doc = appendDoc(doc, fmt.Sprintf("Its %q member is always %s; the type writes it.", f.JSONName, f.Const.JSON))
		}
	}
	if st.Extra != nil {
		doc := "Extra holds the members the schema does not name, in the order they were read."
		var typ jen.Code = e.rt(codecPkg, "Members")
		if st.Extra.Value.Kind != ir.TRaw || st.Extra.Value.C.Raw != nil {
			doc = "Extra holds the members the schema does not name."
			typ = jen.Map(jen.String()).Add(goType(st.Extra.Value))
		}
		fields = append(fields, docComment(jen.Null(), doc).Id(st.Extra.Name).Add(typ).Tag(map[string]string{"json": "-"}))
	}
	e.declDoc(doc).Type().Id(st.Name).Struct(fields...)
	e.emitGetters(st)
	e.emitMeta(st)
	e.emitPublic(st.Name, true)
	e.emitStructDecode(st)
	e.emitStructEncode(st)
	e.emitStructValidate(st)
	if st.Extra != nil {
		e.codec.Func().Params(jen.Id("v").Op("*").Id(st.Name)).Id("extraCount").Params().Int().Block(
			jen.Return(jen.Len(jen.Id("v").Dot(st.Extra.Name))),
		)
	} else {
		e.codec.Func().Params(jen.Op("*").Id(st.Name)).Id("extraCount").Params().Int().Block(jen.Return(jen.Lit(0)))
	}
}

// emitGetters writes the nil-safe getters of st's optional scalars.
func (e *emitter) emitGetters(st *ir.Struct) {
	for _, f := range st.Fields {
		if f.Getter == "" {
			continue
		}
		zero := zeroLit(f.Type)
		e.types.Comment(commentText(fmt.Sprintf("%s returns the value of %s, or %s when v or v.%s is nil.", f.Getter, f.Name, zeroText(f.Type), f.Name)))
		e.types.Func().Params(jen.Id("v").Op("*").Id(st.Name)).Id(f.Getter).Params().Add(goType(f.Type)).Block(
			jen.If(jen.Id("v").Op("==").Nil().Op("||").Id("v").Dot(f.Name).Op("==").Nil()).Block(jen.Return(zero)),
			jen.Return(jen.Op("*").Id("v").Dot(f.Name)),
		)
	}
}

// emitMeta writes st's MetaValue and SetMetaValue (ir.MetaAccess), which
// the runtime's codec.MetaGet and codec.MetaSet functions serve for each
// Go type _meta may have: raw JSON, or a struct by pointer or by value.
func (e *emitter) emitMeta(st *ir.Struct) {
	m := st.Meta
	if m == nil {
		return
	}
	f := m.Field
	meta := jen.Id("v").Dot(f.Name)
	get, set := jen.Qual(codecPkg, "MetaGet").Call(meta.Clone(), jen.Id("key")), "MetaSetRaw"
	if t := f.Type.Resolve(); t.Kind != ir.TRaw && !isNamedRaw(t) {
		arg := meta.Clone()
		if set = "MetaSetStruct"; !f.Pointer() {
			arg, set = jen.Op("&").Add(meta.Clone()), "MetaSetValue"
		}
		get = jen.Qual(codecPkg, "MetaGetStruct").Call(arg, jen.Id("key"))
	}
	e.types.Comment(commentText(fmt.Sprintf("%s returns the member key of v's %s as JSON, and whether it has one: the same method on every message with %s, whatever the Go type of its %s.", m.Get, f.JSONName, f.JSONName, f.Name)))
	e.types.Func().Params(jen.Id("v").Op("*").Id(st.Name)).Id(m.Get).Params(jen.Id("key").String()).Params(jen.Qual(jsonPkg, "RawMessage"), jen.Bool()).Block(
		jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.False())),
		jen.Return(get),
	)
	e.types.Comment(commentText(fmt.Sprintf("%s sets the member key of v's %s to value, one JSON value (nil removes it); a value that is not JSON, or that a typed member of %s cannot hold, is an error.", m.Set, f.JSONName, f.Name)))
	e.types.Func().Params(jen.Id("v").Op("*").Id(st.Name)).Id(m.Set).Params(jen.Id("key").String(), jen.Id("value").Qual(jsonPkg, "RawMessage")).Error().Block(
		jen.Return(jen.Qual(codecPkg, set).Call(jen.Op("&").Add(meta.Clone()), jen.Id("key"), jen.Id("value"))),
	)
}

// isNamedRaw reports whether t is a named type of raw JSON.
func isNamedRaw(t *ir.Type) bool {
	if t.Kind != ir.TDecl {
		return false
	}
	n, ok := t.Decl.(*ir.Named)
	return ok && n.Type.Resolve().Kind == ir.TRaw
}

// zeroLit is the zero value of a scalar type (through named types), as
// a literal and as doc text.
func zeroLit(t *ir.Type) jen.Code {
	switch scalarKind(t) {
	case ir.TString:
		return jen.Lit("")
	case ir.TBool:
		return jen.False()
	}
	return jen.Lit(0)
}

func zeroText(t *ir.Type) string {
	switch scalarKind(t) {
	case ir.TString:
		return `""`
	case ir.TBool:
		return "false"
	}
	return "0"
}

// scalarKind is the kind of the scalar under t: an enum is a string or an
// integer, a named type its underlying type.
func scalarKind(t *ir.Type) ir.TKind {
	t = t.Resolve()
	if t.Kind != ir.TDecl {
		return t.Kind
	}
	switch d := t.Decl.(type) {
	case *ir.Enum:
		if d.Base == ir.KString {
			return ir.TString
		}
		return ir.TInt
	case *ir.Named:
		return scalarKind(d.Type)
	}
	return t.Kind
}

func appendDoc(doc, more string) string {
	if doc == "" {
		return more
	}
	return doc + "\n\n" + more
}

// bit returns the word index and the mask (`1 << n`) of bit i in a
// [N]uint64 bit set.
func bit(i int) (word int, mask jen.Code) {
	return i / 64, jen.Parens(jen.Lit(1).Op("<<").Lit(i % 64))
}

func (e *emitter) emitStructDecode(st *ir.Struct) {
	words := (len(st.Fields) + 63) / 64
	var cases []jen.Code
	for i, f := range st.Fields {
		w, mask := bit(i)
		body := []jen.Code{
			// if !d.once(&seen[w], mask) { return }
			jen.If(jen.Op("!").Id("d").Dot("Once").Call(jen.Op("&").Id("seen").Index(jen.Lit(w)), mask)).Block(jen.Return()),
		}
		lv := jen.Id("v").Dot(f.Name)
		switch {
		case f.Const != nil && f.Name == "":
			body = append(body, decodeConst(f.Const, f.Type))
		default:
			body = append(body, decodeValue(f.Type, lv, f.Pointer())...)
		}
		cases = append(cases, jen.Case(jen.Lit(f.JSONName)).Block(body...))
	}
	cases = append(cases, jen.Default().Block(e.decodeExtra(st)...))
	body := []jen.Code{
		jen.Op("*").Id("v").Op("=").Id(st.Name).Values(),
		jen.If(jen.Op("!").Id("d").Dot("Object").Call()).Block(jen.Return()),
	}
	// Required members that were absent are reported at the object: a
	// mask per word of seen says whether any is missing at all, so a
	// complete object costs one comparison per word.
	masks := make([]uint64, max(words, 1))
	for i, f := range st.Fields {
		if f.Required {
			masks[i/64] |= 1 << (i % 64)
		}
	}
	hasRequired := slices.ContainsFunc(masks, func(m uint64) bool { return m != 0 })
	if hasRequired {
		// off is where the object starts: the violations' pointer.
		body = append(body, jen.Id("off").Op(":=").Id("d").Dot("Pos").Op("-").Lit(1))
	}
	if len(st.Fields) > 0 {
		body = append(body, jen.Var().Id("seen").Index(jen.Lit(max(words, 1))).Uint64())
	}
	if rawExtra(st) {
		body = append(body, jen.Var().Id("ix").Qual(codecPkg, "MemberIndex"))
	}
	body = append(body, jen.For(jen.Id("first").Op(":=").True(), jen.Id("d").Dot("NextMember").Call(jen.Op("&").Id("first")), jen.Empty()).Block(
		jen.Switch(jen.Id("d").Dot("Key")).Block(cases...),
	))
	for w, mask := range masks {
		if mask == 0 {
			continue
		}
		var checks []jen.Code
		for i, f := range st.Fields {
			if !f.Required || i/64 != w {
				continue
			}
			_, bm := bit(i)
			checks = append(checks, jen.If(jen.Id("seen").Index(jen.Lit(w)).Op("&").Add(bm).Op("==").Lit(0)).Block(
				jen.Id("d").Dot("Violate").Call(jen.Id("off"), jen.Lit("required"), jen.Lit(requiredMessage(f.JSONName))),
			))
		}
		var m *jen.Statement
		if mask < 1<<63 {
			m = jen.Lit(int(mask))
		} else {
			m = jen.Lit(mask)
		}
		body = append(body, jen.If(jen.Id("seen").Index(jen.Lit(w)).Op("&").Add(m).Op("!=").Add(m.Clone())).Block(checks...))
	}
	e.codec.Func().Params(jen.Id("v").Op("*").Id(st.Name)).Id("DecodeJSON").Params(jen.Id("d").Op("*").Qual(codecPkg, "Decoder")).Block(body...)
}

// decodeConst reads a member whose value is fixed.
func decodeConst(c *ir.Value, t *ir.Type) jen.Code {
	switch c.Kind {
	case ir.String:
		return jen.Id("d").Dot("ConstString").Call(jen.Lit(c.Str))
	case ir.Bool:
		return jen.Id("d").Dot("ConstBool").Call(jen.Lit(c.Bool))
	case ir.Number:
		if t.Kind == ir.TInt {
			if n, ok := int64Lit(c.Num); ok {
				return jen.Id("d").Dot("ConstInt").Call(jen.Lit(n))
			}
		}
	}
	return jen.Id("d").Dot("ConstRaw").Call(jen.Lit(c.JSON))
}

func (e *emitter) decodeExtra(st *ir.Struct) []jen.Code {
	if st.Extra == nil {
		// additionalProperties: false
		return []jen.Code{jen.Id("d").Dot("NotAllowed").Call()}
	}
	if rawExtra(st) {
		// if !d.extraMember(&v.Extra, &ix) { return } (ix is declared by
		// emitStructDecode: it keeps the duplicate check linear)
		return []jen.Code{
			jen.If(jen.Op("!").Id("d").Dot("ExtraMember").Call(jen.Op("&").Id("v").Dot(st.Extra.Name), jen.Op("&").Id("ix"))).Block(jen.Return()),
		}
	}
	x := jen.Id("x")
	body := []jen.Code{
		jen.Id("k").Op(":=").Id("d").Dot("Key"),
		jen.If(jen.Id("v").Dot(st.Extra.Name).Op("==").Nil()).Block(
			jen.Id("v").Dot(st.Extra.Name).Op("=").Map(jen.String()).Add(goType(st.Extra.Value)).Values(),
		),
		jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Id("v").Dot(st.Extra.Name).Index(jen.Id("k")), jen.Id("dup")).Block(
			jen.Id("d").Dot("Dup").Call(jen.Id("k")),
			jen.Return(),
		),
		jen.Var().Id("x").Add(goType(st.Extra.Value)),
	}
	body = append(body, decodeValue(st.Extra.Value, x, false)...)
	return append(body, jen.Id("v").Dot(st.Extra.Name).Index(jen.Id("k")).Op("=").Add(x))
}

// rawExtra says whether st keeps its undeclared members as Members.
func rawExtra(st *ir.Struct) bool {
	return st.Extra != nil && st.Extra.Value.Kind == ir.TRaw && st.Extra.Value.C.Raw == nil
}

// presentCheck is true when an optional field is present.
func presentCheck(f *ir.Field, expr *jen.Statement) *jen.Statement {
	if f.Pointer() {
		return expr.Clone().Op("!=").Nil()
	}
	if z := nonZeroCheck(f.Type, expr); z != nil {
		return z
	}
	return jen.True()
}

func (e *emitter) emitStructEncode(st *ir.Struct) {
	body := []jen.Code{jen.Id("e").Dot("Buf").Op("=").Append(jen.Id("e").Dot("Buf"), jen.LitRune('{'))}
	for _, f := range st.Fields {
		lv := jen.Id("v").Dot(f.Name)
		var write []jen.Code
		if f.Const != nil && f.Name == "" {
			// The constant member, name and value in one piece.
			write = []jen.Code{jen.Id("e").Dot("Name").Call(jen.Lit(quotedName(f.JSONName) + f.Const.JSON))}
		} else {
			write = append([]jen.Code{jen.Id("e").Dot("Name").Call(jen.Lit(quotedName(f.JSONName)))}, encodeField(f, lv)...)
		}
		switch {
		case f.Required && f.Name != "" && absentCheck(f.Type, lv) != nil:
			// A union without a branch, a multi-kind value without a
			// kind: there is nothing to write, so the member is absent
			// (and Validate reports it).
			body = append(body, jen.If(nonZeroCheck(f.Type, lv)).Block(write...))
		case f.Required:
			body = append(body, write...)
		default:
			body = append(body, jen.If(presentCheck(f, lv)).Block(write...))
		}
	}
	if st.Extra != nil {
		if st.Extra.Value.Kind == ir.TRaw && st.Extra.Value.C.Raw == nil {
			body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("m")).Op(":=").Range().Id("v").Dot(st.Extra.Name)).Block(
				jen.Id("e").Dot("Key").Call(jen.Id("m").Dot("Name")),
				jen.Id("e").Dot("Raw").Call(jen.Id("m").Dot("Value")),
			))
		} else {
			x := jen.Id("v").Dot(st.Extra.Name).Index(jen.Id("k"))
			inner := append([]jen.Code{jen.Id("e").Dot("Key").Call(jen.Id("k"))}, encodeValue(st.Extra.Value, x, false)...)
			body = append(body, jen.Block(
				jen.List(jen.Id("ks"), jen.Id("n")).Op(":=").Qual(codecPkg, "SortedKeys").Call(jen.Id("e"), jen.Id("v").Dot(st.Extra.Name)),
				jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Id("ks")).Block(inner...),
				jen.Id("e").Dot("Keys").Op("=").Id("e").Dot("Keys").Index(jen.Empty(), jen.Id("n"))))
		}
	}
	body = append(body, jen.Id("e").Dot("Buf").Op("=").Append(jen.Id("e").Dot("Buf"), jen.LitRune('}')))
	e.codec.Func().Params(jen.Id("v").Op("*").Id(st.Name)).Id("EncodeJSON").Params(jen.Id("e").Op("*").Qual(codecPkg, "Encoder")).Block(body...)
}

// encodeField encodes a field's value (dereferencing pointer fields).
func encodeField(f *ir.Field, lv *jen.Statement) []jen.Code {
	return encodeValue(f.Type, derefScalar(f, lv), true)
}

// derefScalar dereferences an optional scalar field; methods of declared
// types are called through the pointer, and external values are passed as
// the pointer.
func derefScalar(f *ir.Field, lv *jen.Statement) *jen.Statement {
	if f.Pointer() && f.Type.Kind != ir.TDecl && f.Type.Kind != ir.TExternal {
		return jen.Op("*").Add(lv)
	}
	return lv
}

func (e *emitter) emitStructValidate(st *ir.Struct) {
	if !e.pkg.Validators {
		return
	}
	if st.Whole != nil {
		body := e.wholeCheck(st.Whole, []jen.Code{jen.Id("v").Dot("EncodeJSON").Call(jen.Id("e"))})
		e.validate.Func().Params(jen.Id("v").Op("*").Id(st.Name)).Id("ValidateWith").Params(jen.Id("s").Op("*").Qual(codecPkg, "Validator")).Block(body...)
		return
	}
	var body []jen.Code
	for _, f := range st.Fields {
		lv := jen.Id("v").Dot(f.Name)
		if f.Required {
			// Decoding reports a required member that was absent; a value
			// built in Go has every required member but a union without a
			// branch and a multi-kind value without a kind, which have no
			// JSON form.
			check := e.validateField(f, lv)
			var absent *jen.Statement
			if f.Name != "" {
				absent = absentCheck(f.Type, lv)
			}
			switch {
			case absent != nil && len(check) == 0:
				body = append(body, jen.If(absent).Block(requiredViolation(f.JSONName)))
			case absent != nil:
				body = append(body, jen.If(absent).Block(requiredViolation(f.JSONName)).Else().Block(check...))
			case len(check) > 0:
				body = append(body, jen.Block(check...))
			}
			continue
		}
		check := e.validateField(f, lv)
		if len(check) > 0 {
			body = append(body, jen.If(presentCheck(f, lv)).Block(check...))
		}
	}
	if st.Extra != nil && !(st.Extra.Value.Kind == ir.TRaw && st.Extra.Value.C.Raw == nil) {
		x := jen.Id("x")
		inner := e.validateValue(st.Extra.Value, x)
		if len(inner) > 0 {
			loop := append([]jen.Code{jen.Id("m").Op(":=").Id("s").Dot("Mark").Call()}, inner...)
			loop = append(loop, jen.Id("s").Dot("At").Call(jen.Id("m"), jen.Id("k")))
			body = append(body,
				jen.Id("m0").Op(":=").Id("s").Dot("Mark").Call(),
				jen.For(jen.List(jen.Id("k"), jen.Id("x")).Op(":=").Range().Id("v").Dot(st.Extra.Name)).Block(loop...),
				jen.Id("s").Dot("SortSince").Call(jen.Id("m0")),
			)
		}
	}
	e.validate.Func().Params(jen.Id("v").Op("*").Id(st.Name)).Id("ValidateWith").Params(jen.Id("s").Op("*").Qual(codecPkg, "Validator")).Block(body...)
}

func requiredViolation(name string) jen.Code {
	return jen.Id("s").Dot("Add").Call(jen.Lit("required"), jen.Lit(requiredMessage(name)))
}

// requiredMessage is the message of a missing required member, the same
// whether decoding or Validate finds it.
func requiredMessage(name string) string {
	return fmt.Sprintf("missing required member %s", encoderString(name))
}

// validateField checks a present field and prefixes its violations with
// the member name.
func (e *emitter) validateField(f *ir.Field, lv *jen.Statement) []jen.Code {
	if f.Name == "" {
		return nil // a required const is checked when decoding
	}
	checks := e.validateValue(f.Type, derefScalar(f, lv))
	if len(checks) == 0 {
		return nil
	}
	out := []jen.Code{jen.Id("m").Op(":=").Id("s").Dot("Mark").Call()}
	out = append(out, checks...)
	return append(out, jen.Id("s").Dot("At").Call(jen.Id("m"), jen.Lit(f.JSONName)))
}
