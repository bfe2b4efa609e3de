package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// emitRegistry writes Value, Definitions and NewValue: a way to reach the
// type of a definition by its schema name (used by `mcpgen validate` and
// by tests that run every official example).
func (e *emitter) emitRegistry() {
	f := e.types
	f.Comment(commentText("Value is implemented by a pointer to every type of this package but the\nunions, which are interfaces; their holders stand for them."))
	methods := []jen.Code{
		jen.Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()),
		jen.Id("UnmarshalJSON").Params(jen.Index().Byte()).Error(),
		jen.Id("AppendJSON").Params(jen.Index().Byte()).Params(jen.Index().Byte(), jen.Error()),
	}
	if e.pkg.Validators {
		methods = append(methods, jen.Id("Validate").Params().Error())
	}
	f.Type().Add(e.own("Value")).Interface(methods...)
	var names []jen.Code
	var cases []jen.Code
	for _, d := range e.pkg.Decls {
		def := d.Info().Definition
		if def == "" {
			continue
		}
		names = append(names, jen.Lit(def))
		cases = append(cases, jen.Case(jen.Lit(def)).Block(jen.Return(newValue(&ir.Type{Kind: ir.TDecl, Decl: d}), jen.True())))
	}
	cases = append(cases, jen.Default().Block(jen.Return(jen.Nil(), jen.False())))
	f.Comment(commentText("Definitions lists the names of the schema's definitions, sorted."))
	f.Var().Add(e.own("Definitions")).Op("=").Index().String().ValuesFunc(func(g *jen.Group) {
		for _, n := range names {
			g.Line().Add(n)
		}
		g.Line()
	})
	f.Comment(commentText("NewValue returns a pointer to a new zero value of the Go type of the named\nschema definition (for a union, to its holder), and false if there is no\nsuch definition."))
	f.Func().Add(e.own("NewValue")).Params(jen.Id("definition").String()).Params(e.own("Value"), jen.Bool()).Block(
		jen.Switch(jen.Id("definition")).Block(cases...),
	)
}

// newValue is `new(T)` for the Go type of t, through aliases; a union's
// holder stands for the union.
func newValue(t *ir.Type) *jen.Statement {
	if u := t.Union(); u != nil {
		return jen.New(jen.Id(u.Holder))
	}
	return jen.New(goType(t.Resolve()))
}
