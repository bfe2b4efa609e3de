package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// This file emits tools.go: the typed glue of the tool set (Tools,
// AddTool, AddStructuredTool) and how the server dispatcher serves it. The
// machinery (a Go type's schema, decoding arguments against it, the set
// itself) is in runtime/protocol/tools.go.

// toolsDoc is the doc comment of Tools; it states the rules of
// runtime/protocol/tools.go.
const toolsDoc = `%[1]s is a set of tools whose arguments are Go types, and the %[3]s that serves them. %[2]s adds a tool, deriving its inputSchema from the type of its arguments; the set answers tools/list with its tools, and tools/call by decoding the arguments into that type, checked against the schema, before the tool's function runs.

Give a *%[1]s to %[4]s as the handler, or embed a *%[1]s in a handler of your own in place of %[5]s (which it embeds): its ListTools and CallTool serve what your handler does not implement, and yours may call them. The dispatcher declares the tools capability for such a handler unless the options declare it.

The schema of a struct type:
  - A field's member name comes from its json tag, else its Go name. Fields tagged "-" and
    unexported fields are left out; the fields of an embedded struct without a json name are
    promoted (the shallowest wins, then a tagged one; two alike are an error).
  - A field is required unless it has omitempty or omitzero, or is a pointer. A pointer is
    optional, not nullable: null is refused like any value of the wrong type.
  - Names match exactly, and a member the struct does not declare is refused
    (additionalProperties: false).
  - A jsonschema tag is the member's description (as in the official Go SDK). An mcp tag
    restricts a string to a list of values (mcp:"enum=celsius|fahrenheit"), or mirrors an
    argument into an Mcp-Param-Name header over HTTP (mcp:"header=Region", x-mcp-header: for
    strings, integers and booleans reached through struct fields; such integers are bounded to
    ±(2^53-1)).
  - Booleans, strings, integers (bounded by their size: int8 is -128 to 127, unsigned ones are
    at least 0; the schema states no bound for 64-bit ones, and a value beyond the Go type is
    refused), floats, slices, arrays, maps with string keys, pointers and structs map as
    encoding/json maps them; []byte is a base64 string, time.Time a date-time string,
    json.RawMessage and any take any JSON, and a type that implements encoding.TextUnmarshaler
    is a string.
  - Channels, functions, complex numbers, interfaces with methods, maps with other keys, types
    with an UnmarshalJSON of their own and recursive types have no schema: adding a tool with
    one panics, naming the field.

The arguments type is a struct (struct{} for a tool without arguments, whose schema is
{"type": "object", "additionalProperties": false}) or a map with string keys.

The zero value is an empty set. A %[1]s is safe for concurrent use (tools may be added while it
serves) and must not be copied once used.`

// emitTools writes tools.go.
func (e *emitter) emitTools() *jen.File {
	p := e.pkg.Protocol
	t := p.Tools
	f := newFile(e.pkg.Name)
	ctx := jen.Qual("context", "Context")
	callFunc := jen.Func().Params(ctx.Clone(), jen.Op("*").Id(t.CallParams)).Params(jen.Op("*").Id(t.Result), jen.Error())

	// type Tools struct { TTL time.Duration; CacheScope CacheScope; set toolSet[Tool, CallToolRequestParams, CallToolResult] }
	adders := t.Add
	if t.AddOutput != "" {
		adders = t.Add + " (or " + t.AddOutput + ", for a tool with structured results)"
	}
	var fields []jen.Code
	if t.TTL != "" {
		fields = append(fields,
			jen.Comment(commentText("TTL is the ttlMs of the tools/list answer: how long clients may reuse it. The\nHTTPHandler reads the x-mcp-header annotations from the same answer and\nreuses them as long. Zero means ask again each time.")),
			jen.Id("TTL").Qual("time", "Duration"),
			jen.Comment(commentText("CacheScope is the cacheScope of the tools/list answer; empty means public.")),
			jen.Id("CacheScope").Id(t.CacheScopeType),
		)
	}
	fields = append(fields, jen.Id("set").Qual(protocolPkg, "ToolSet").Types(jen.Id(t.Tool), jen.Id(t.CallParams), jen.Id(t.Result)))
	s := serverSide(p)
	fields = append([]jen.Code{jen.Id(s.Unimplemented)}, fields...)
	f.Comment(commentText(fmt.Sprintf(toolsDoc, t.Set, adders, s.Handler, s.Constructor, s.Unimplemented)))
	f.Type().Id(t.Set).Struct(fields...)

	// type ToolAdder interface { tools() *Tools }
	f.Comment(commentText(fmt.Sprintf("%s is where %s adds a tool: a *%s, a handler that embeds one, or a *%s whose handler is, or embeds, a *%s (%s panics if it is not).", t.Adder, adders, t.Set, s.Dispatcher, t.Set, t.Add)))
	f.Type().Id(t.Adder).Interface(jen.Id("tools").Params().Op("*").Id(t.Set))
	// func (d *ServerDispatcher) tools() *Tools
	f.Comment(commentText("tools returns the " + t.Set + " d's handler is or embeds; " + t.Add + " adds tools to it."))
	f.Func().Params(jen.Id("d").Op("*").Id(s.Dispatcher)).Id("tools").Params().Op("*").Id(t.Set).Block(
		jen.If(
			jen.List(jen.Id("h"), jen.Id("ok")).Op(":=").Id("d").Dot("h").Assert(jen.Id(t.Adder)),
			jen.Id("ok").Op("&&").Id("h").Dot("tools").Call().Op("!=").Nil(),
		).Block(jen.Return(jen.Id("h").Dot("tools").Call())),
		jen.Panic(jen.Lit("mcp: "+t.Add+": the "+s.Dispatcher+"'s handler is not a *"+t.Set+" and does not embed one")),
	)

	e.emitAddTool(f, t)
	if t.AddOutput != "" {
		e.emitAddStructuredTool(f, t)
	}

	// func (t *Tools) add(tool Tool, call func(...)) { if err := tool.Validate(); err != nil { panic(...) }; t.set.add(tool.Name, tool, call) }
	f.Comment(commentText("add adds a tool, after checking it against the schema."))
	f.Func().Params(jen.Id("t").Op("*").Id(t.Set)).Id("add").Params(jen.Id("tool").Id(t.Tool), jen.Id("call").Add(callFunc.Clone())).Block(
		jen.If(jen.Err().Op(":=").Id("tool").Dot("Validate").Call(), jen.Err().Op("!=").Nil()).Block(
			jen.Panic(jen.Lit("mcp: tool ").Op("+").Qual(codecPkg, "Quote").Call(jen.Id("tool").Dot(t.ToolName)).Op("+").Lit(": ").Op("+").Err().Dot("Error").Call()),
		),
		jen.Id("t").Dot("set").Dot("Add").Call(jen.Id("tool").Dot(t.ToolName), jen.Id("tool"), jen.Id("call")),
	)

	// ListTools
	var list []jen.Code
	if t.Cursor != "" {
		list = append(list, jen.If(jen.Id("p").Op("!=").Nil().Op("&&").Id("p").Dot(t.Cursor).Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual(protocolPkg, "ErrToolsCursor")),
		))
	}
	values := jen.Dict{jen.Id(t.ListTools): jen.Id("t").Dot("set").Dot("List").Call()}
	if t.TTL != "" {
		list = append(list,
			jen.Id("scope").Op(":=").Id("t").Dot("CacheScope"),
			jen.If(jen.Id("scope").Op("==").Lit("")).Block(jen.Id("scope").Op("=").Id(t.CacheScopePublic)),
		)
		values[jen.Id(t.TTL)] = jen.Max(jen.Id("t").Dot("TTL").Dot("Milliseconds").Call(), jen.Lit(0))
		values[jen.Id(t.CacheScope)] = jen.Id("scope")
	}
	list = append(list, jen.Return(jen.Op("&").Id(t.ListResult).Values(values), jen.Nil()))
	doc := "ListTools answers tools/list with the tools of t, in the order they were added, on one page"
	if t.Cursor != "" {
		doc += " (so\na cursor is invalid params, -32602)"
	}
	if t.TTL != "" {
		doc += ", with t's TTL and CacheScope"
	}
	f.Comment(commentText(doc + "."))
	pname := jen.Id("_")
	if t.Cursor != "" {
		pname = jen.Id("p")
	}
	f.Func().Params(jen.Id("t").Op("*").Id(t.Set)).Id("ListTools").Params(jen.Id("_").Add(ctx.Clone()), pname.Op("*").Id(t.ListParams)).Params(jen.Op("*").Id(t.ListResult), jen.Error()).Block(list...)

	// CallTool
	f.Comment(commentText("CallTool answers tools/call: it runs the tool p names. An unknown name is\ninvalid params (-32602), the protocol error the specification gives it."))
	f.Func().Params(jen.Id("t").Op("*").Id(t.Set)).Id("CallTool").Params(jen.Id("ctx").Add(ctx.Clone()), jen.Id("p").Op("*").Id(t.CallParams)).Params(jen.Op("*").Id(t.Result), jen.Error()).Block(
		jen.Return(jen.Id("t").Dot("set").Dot("Call").Call(jen.Id("ctx"), jen.Id("p").Dot(t.CallName), jen.Id("p"))),
	)

	// toolError
	f.Comment(commentText("toolError is a tool execution error: a result with isError and msg as its text."))
	f.Func().Id("toolError").Params(jen.Id("msg").String()).Op("*").Id(t.Result).Block(
		jen.Id("isError").Op(":=").True(),
		jen.Return(jen.Op("&").Id(t.Result).Values(jen.Dict{
			jen.Id(t.Content): jen.Index().Id(t.ContentItem).Values(jen.Op("&").Id(t.Text).Values(jen.Dict{jen.Id(t.TextField): jen.Id("msg")})),
			jen.Id(t.IsError): jen.Op("&").Id("isError"),
		})),
	)

	// TextResult
	f.Comment(commentText(t.TextResult + " returns a result with one text content block: what most tools answer."))
	f.Func().Id(t.TextResult).Params(jen.Id("text").String()).Op("*").Id(t.Result).Block(
		jen.Return(jen.Op("&").Id(t.Result).Values(jen.Dict{
			jen.Id(t.Content): jen.Index().Id(t.ContentItem).Values(jen.Op("&").Id(t.Text).Values(jen.Dict{jen.Id(t.TextField): jen.Id("text")})),
		})),
	)

	// tools marks a handler that is, or embeds, a Tools.
	f.Comment(commentText("tools marks a handler that is, or embeds, a " + t.Set + "."))
	f.Func().Params(jen.Id("t").Op("*").Id(t.Set)).Id("tools").Params().Op("*").Id(t.Set).Block(jen.Return(jen.Id("t")))

	if t.Capability != "" && p.ServerCapabilities != nil {
		// func declareTools(h ServerHandler, opts *ServerOptions) { if _, ok := h.(ToolAdder); ok && opts.Capabilities.Tools == nil { ... } }
		f.Comment(commentText("declareTools declares the tools capability in opts for a handler that is, or\nembeds, a " + t.Set + ", unless opts declares it."))
		f.Func().Id("declareTools").Params(jen.Id("h").Id(s.Handler), jen.Id("opts").Op("*").Id(s.Options)).Block(
			jen.If(
				jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Id("h").Assert(jen.Id(t.Adder)),
				jen.Id("ok").Op("&&").Id("opts").Dot("Capabilities").Dot(t.Capability).Op("==").Nil(),
			).Block(
				jen.Id("opts").Dot("Capabilities").Dot(t.Capability).Op("=").Op("&").Id(t.CapabilityType).Values(),
			),
		)
	}
	return f
}

// serverSide is the side whose handler a tool set serves (the builder puts
// it first).
func serverSide(p *ir.Protocol) *ir.Side {
	return p.Sides[0]
}

// emitAddTool writes AddTool.
func (e *emitter) emitAddTool(f *jen.File, t *ir.ToolSupport) {
	ctx := jen.Qual("context", "Context")
	protocolErrs := "an *RPCError and the context's error"
	if e.pkg.Protocol.Modern && e.pkg.Protocol.InputRequired != nil {
		protocolErrs = "an *RPCError, NeedInput's error and the context's error"
	}
	doc := t.Add + ` adds tool to the set s is or serves (see ` + t.Adder + `), with h as its function. The tool's inputSchema is derived from In (see ` + t.Set + ` for the rules) and must be left empty. A call decodes its arguments into an In, checked against that schema, before h runs: arguments the schema refuses are answered with a result with isError whose text lists the violations and their JSON pointers (the specification makes input validation errors tool execution errors, so that a model can correct itself), and h does not run.

An error h returns is a tool execution error too (its text in a result with isError), but for ` + protocolErrs + `, which answer the request as they would from a handler. A nil result with a nil error is an empty result.

` + t.Add + ` panics if In has no schema (see ` + t.Set + `), if the tool breaks the schema of ` + t.Tool + `, or if the set has a tool of that name already.`
	f.Comment(commentText(doc))
	// func AddTool[In any](t *Tools, tool Tool, h func(ctx context.Context, p *CallToolRequestParams, in In) (*CallToolResult, error)) {
	//	args := toolCodec[In](tool.Name, false)
	//	setToolSchema(tool.Name, "inputSchema", &tool.InputSchema, args)
	//	t.add(tool, func(ctx context.Context, p *CallToolRequestParams) (*CallToolResult, error) {
	//		return callTool(args, p.Name, p.Arguments, func(in In) (*CallToolResult, error) { return h(ctx, p, in) }, toolError)
	//	})
	// }
	f.Func().Id(t.Add).Types(jen.Id("In").Any()).Params(
		jen.Id("s").Id(t.Adder),
		jen.Id("tool").Id(t.Tool),
		jen.Id("h").Func().Params(jen.Id("ctx").Add(ctx.Clone()), jen.Id("p").Op("*").Id(t.CallParams), jen.Id("in").Id("In")).Params(jen.Op("*").Id(t.Result), jen.Error()),
	).Block(
		jen.Id("args").Op(":=").Qual(protocolPkg, "ToolCodec").Types(jen.Id("In")).Call(jen.Id("tool").Dot(t.ToolName), jen.False()),
		jen.Qual(protocolPkg, "SetToolSchema").Call(jen.Id("tool").Dot(t.ToolName), jen.Lit("inputSchema"), jen.Op("&").Id("tool").Dot(t.InputSchema), jen.Id("args")),
		jen.Id("s").Dot("tools").Call().Dot("add").Call(jen.Id("tool"), toolCall(t, jen.Return(jen.Id("h").Call(jen.Id("ctx"), jen.Id("p"), jen.Id("in"))))),
	)
}

// toolCall is the function a tool set runs for one tool: callTool with
// the arguments codec and a body that runs the tool on in.
func toolCall(t *ir.ToolSupport, body ...jen.Code) *jen.Statement {
	ctx := jen.Qual("context", "Context")
	run := jen.Func().Params(jen.Id("in").Id("In")).Params(jen.Op("*").Id(t.Result), jen.Error()).Block(body...)
	return jen.Func().Params(jen.Id("ctx").Add(ctx), jen.Id("p").Op("*").Id(t.CallParams)).Params(jen.Op("*").Id(t.Result), jen.Error()).Block(
		jen.Return(jen.Qual(protocolPkg, "CallTool").Call(jen.Id("args"), jen.Id("p").Dot(t.CallName), jen.Id("p").Dot(t.Arguments), run, jen.Id("toolError"))),
	)
}

// emitAddStructuredTool writes AddStructuredTool.
func (e *emitter) emitAddStructuredTool(f *jen.File, t *ir.ToolSupport) {
	ctx := jen.Qual("context", "Context")
	doc := t.AddOutput + ` adds a tool whose function returns a structured result, an Out, as ` + t.Add + ` adds one with typed arguments. Out is a struct, or a pointer to one (nil is the zero value); its schema, by the rules of ` + t.Set + `, is the tool's outputSchema (which must be left empty). A call's result has the JSON of h's Out as structuredContent, and the same JSON as its text content, for clients that do not read structuredContent (as the specification recommends). An Out the schema refuses (a string outside its enum, a NaN) is an internal error, not a result.`
	f.Comment(commentText(doc))
	body := []jen.Code{
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("h").Call(jen.Id("ctx"), jen.Id("p"), jen.Id("in")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual(protocolPkg, "StructuredResult").Call(jen.Id("out"), jen.Id("p").Dot(t.CallName), jen.Id("v")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Op("&").Id(t.Result).Values(jen.Dict{
			jen.Id(t.Content):    jen.Index().Id(t.ContentItem).Values(jen.Op("&").Id(t.Text).Values(jen.Dict{jen.Id(t.TextField): jen.String().Call(jen.Id("b"))})),
			jen.Id(t.Structured): jen.Id("b"),
		}), jen.Nil()),
	}
	f.Func().Id(t.AddOutput).Types(jen.List(jen.Id("In"), jen.Id("Out")).Any()).Params(
		jen.Id("s").Id(t.Adder),
		jen.Id("tool").Id(t.Tool),
		jen.Id("h").Func().Params(jen.Id("ctx").Add(ctx.Clone()), jen.Id("p").Op("*").Id(t.CallParams), jen.Id("in").Id("In")).Params(jen.Id("Out"), jen.Error()),
	).Block(
		jen.Id("args").Op(":=").Qual(protocolPkg, "ToolCodec").Types(jen.Id("In")).Call(jen.Id("tool").Dot(t.ToolName), jen.False()),
		jen.Id("out").Op(":=").Qual(protocolPkg, "ToolCodec").Types(jen.Id("Out")).Call(jen.Id("tool").Dot(t.ToolName), jen.True()),
		jen.Qual(protocolPkg, "SetToolSchema").Call(jen.Id("tool").Dot(t.ToolName), jen.Lit("inputSchema"), jen.Op("&").Id("tool").Dot(t.InputSchema), jen.Id("args")),
		jen.If(jen.Id("tool").Dot(t.OutputSchema).Op("==").Nil()).Block(
			jen.Id("tool").Dot(t.OutputSchema).Op("=").New(jen.Id(t.OutputSchemaType)),
		),
		jen.Qual(protocolPkg, "SetToolSchema").Call(jen.Id("tool").Dot(t.ToolName), jen.Lit("outputSchema"), jen.Id("tool").Dot(t.OutputSchema), jen.Id("out")),
		jen.Id("s").Dot("tools").Call().Dot("add").Call(jen.Id("tool"), toolCall(t, body...)),
	)
}
