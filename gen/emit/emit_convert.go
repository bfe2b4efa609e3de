package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file writes the conversions between the package's messages and
// those of older revisions (ir.Older): older.go with the list of them, and
// per revision older_<package>.go, the table the runtime converts with
// (protocol.NewOlder), and older_<package>.json, the older revision's
// schema reduced to what validation reads, which the table embeds.

// emitOlder returns the Go files of the conversions, by name, and the
// JSON files they embed.
func (e *emitter) emitOlder() (map[string]*jen.File, Files) {
	if len(e.pkg.Older) == 0 {
		return nil, nil
	}
	files := map[string]*jen.File{}
	data := Files{}
	list := newFile(e.pkg.Name)
	var vars []jen.Code
	var revs []string
	for _, o := range e.pkg.Older {
		vars = append(vars, jen.Id(o.Var))
		revs = append(revs, o.Revision)
		files[o.File] = e.olderTable(o)
		data[o.SchemaFile] = append(append([]byte(nil), o.Schema...), '\n')
	}
	list.Comment(commentText(fmt.Sprintf("%s are the conversions between this package's messages and those of the older revisions it serves (%s), newest first: a server picks the one for the revision a client negotiates with initialize, a client the one for the revision a server answers with.",
		e.pkg.OlderRevisions, strings.Join(revs, ", "))))
	list.Var().Id(e.pkg.OlderRevisions).Op("=").Index().Op("*").Add(e.rt(protocolPkg, "Older")).Values(vars...)
	list.Line()
	list.Comment("olderValue is NewValue for the conversions.")
	list.Func().Id("olderValue").Params(jen.Id("definition").String()).Params(jen.Qual(protocolPkg, "Value"), jen.Bool()).Block(
		jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Add(e.own("NewValue")).Call(jen.Id("definition")),
		jen.Return(jen.Id("v"), jen.Id("ok")),
	)
	files["older.go"] = list
	return files, data
}

// olderTable writes the file of one older revision: its embedded schema
// and the exported *Older.
func (e *emitter) olderTable(o *ir.Older) *jen.File {
	f := newFile(e.pkg.Name)
	f.Anon("embed")
	f.Comment(commentText(fmt.Sprintf("%s is MCP revision %s's schema, reduced to what validation reads: the conversions check the messages of that revision against it.", o.SchemaVar, o.Revision)))
	f.Comment("")
	f.Comment("//go:embed " + o.SchemaFile)
	f.Var().Id(o.SchemaVar).String()
	var methods []jen.Code
	var names []string
	for _, m := range o.Methods {
		names = append(names, m.Name)
		d := jen.Dict{jen.Id("Name"): jen.Lit(m.Name)}
		if m.Notification {
			d[jen.Id("Notification")] = jen.True()
		}
		if m.ToClient {
			d[jen.Id("ToClient")] = jen.True()
		}
		if m.Params != "" {
			d[jen.Id("Params")] = jen.Lit(m.Params)
		}
		if m.Result != "" {
			d[jen.Id("Result")] = jen.Lit(m.Result)
		}
		if m.ParamsRequired {
			d[jen.Id("ParamsRequired")] = jen.True()
		}
		if m.NewParamsRequired {
			d[jen.Id("NewParamsRequired")] = jen.True()
		}
		if m.NewParams != nil {
			d[jen.Id("NewParams")] = jen.Func().Params().Qual(protocolPkg, "Value").Block(jen.Return(newValue(m.NewParams)))
		}
		if m.NewResult != nil {
			d[jen.Id("NewResult")] = jen.Func().Params().Qual(protocolPkg, "Value").Block(jen.Return(newValue(m.NewResult)))
		}
		for _, fill := range []struct {
			field string
			list  []*ir.ZeroMember
		}{{"ParamsMeta", m.ParamsMeta}, {"ResultFill", m.ResultFill}, {"ResultMeta", m.ResultMeta}} {
			if len(fill.list) == 0 {
				continue
			}
			var vs []jen.Code
			for _, z := range fill.list {
				vs = append(vs, jen.Values(jen.Dict{jen.Id("Name"): jen.Lit(z.Name), jen.Id("JSON"): jen.Lit(z.JSON)}))
			}
			d[jen.Id(fill.field)] = jen.Index().Qual(protocolPkg, "Fill").Values(vs...)
		}
		methods = append(methods, jen.Values(d))
	}
	var drops []string
	for _, m := range spec.EraMembers {
		drops = append(drops, m.Name)
	}
	doc := fmt.Sprintf("%s converts the messages of MCP revision %s to this package's types and back: the params and results of %s, and with [Older.ToOlder] and [Older.FromOlder] the values of the definitions both revisions declare.",
		o.Var, o.Revision, strings.Join(names, ", "))
	doc += fmt.Sprintf("\n\nA conversion leaves the members the runtime handles itself out of what goes to %s (%s) and fills those this revision requires in what comes from it; everything else passes as it is, and each side is checked against its own schema: what %s cannot carry is a [ConversionError] naming where it is.",
		o.Revision, strings.Join(drops, ", "), o.Revision)
	f.Comment(commentText(doc))
	f.Var().Id(o.Var).Op("=").Qual(protocolPkg, "NewOlder").Call(jen.Qual(protocolPkg, "OlderTable").Values(jen.Dict{
		jen.Id("Revision"):    jen.Lit(o.Revision),
		jen.Id("This"):        e.own("ProtocolVersion"),
		jen.Id("Schema"):      jen.Id(o.SchemaVar),
		jen.Id("Definitions"): jen.Lit(o.Definitions),
		jen.Id("NewValue"):    jen.Id("olderValue"),
		jen.Id("Methods"):     jen.Index().Qual(protocolPkg, "OlderMethod").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, methods...),
	}))
	return f
}
