package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file emits tools.go: the typed glue of the tool set (Tools,
// AddTool, AddStructuredTool) and how the server dispatcher serves it. The
// machinery is in the runtime: a Go type's schema and decoding arguments
// against it in runtime/typeschema, the set itself in
// runtime/protocol/tools.go.

// serverDoc is the doc comment of Server; it states the rules of
// runtime/typeschema.
const serverDoc = `%[1]s is a set of tools, resources, resource templates and prompts, and the %[3]s that serves them. %[2]s adds a tool, deriving its inputSchema from the type of its arguments; the set answers tools/list with its tools, and tools/call by decoding the arguments into that type, checked against the schema, before the tool's function runs.%[6]s

Give a *%[1]s to %[4]s as the handler, or embed a *%[1]s in a handler of your own in place of %[5]s (which it embeds): its methods serve what your handler does not implement, and yours may call them. The dispatcher declares the capabilities of what the set holds when the dispatcher is made (tools always; resources and prompts once one is added), unless the options declare them, and the set announces each later change (list_changed, and ResourceUpdated) to every client the dispatcher serves.

The schema of a struct type:
  - A field's member name comes from its json tag, else its Go name. Fields tagged "-" and
    unexported fields are left out; the fields of an embedded struct without a json name are
    promoted (the shallowest wins, then a tagged one; two alike are an error).
  - A field is required unless it has omitempty or omitzero, or is a pointer. A pointer is
    optional, not nullable: null is refused like any value of the wrong type.
  - Names match exactly, and a member the struct does not declare is refused
    (additionalProperties: false).
  - A jsonschema tag is the member's description (as in the official Go SDK). An mcp tag
    holds keywords, comma-separated: enum=a|b (strings, and the items of slices of
    strings), titles=A|B (a title for each enum value: oneOf, or anyOf for a slice, of
    const and title) or enumNames=A|B (the legacy form), minimum=, maximum=,
    exclusiveMinimum=, exclusiveMaximum= (numbers), minLength=, maxLength= (strings),
    minItems=, maxItems= (slices), pattern= (a regular expression, no comma), format=
    (date-time, date, time, email, uri, uuid, ...), default= and example= (JSON values, a
    string's text, or a|b for a slice of strings; a default must fit the member), and
    header=Name, which mirrors an argument into an Mcp-Param-Name
    header over HTTP (x-mcp-header: for strings, integers and booleans reached through
    struct fields; such integers are bounded to ±(2^53-1)). A value against them is
    refused like one of the wrong type.
  - Booleans, strings, integers (bounded by their size: int8 is -128 to 127, unsigned ones are
    at least 0; the schema states no bound for 64-bit ones, and a value beyond the Go type is
    refused), floats, slices, arrays, maps with string keys, pointers and structs map as
    encoding/json maps them; []byte is a base64 string, time.Time a date-time string,
    json.RawMessage and any take any JSON, and a type that implements encoding.TextUnmarshaler
    is a string. A type with a method MCPSchema() []byte (typeschema.Schemaer) gives its own
    schema (a JSON Schema object): a value is checked against it, then decoded by encoding/json.
  - Channels, functions, complex numbers, interfaces with methods, maps with other keys, types
    with an UnmarshalJSON of their own (and no MCPSchema) and recursive types have no schema:
    adding a tool with one panics, naming the field.

The arguments type is a struct (struct{} for a tool without arguments, whose schema is
{"type": "object", "additionalProperties": false}) or a map with string keys.

The zero value is an empty set. A %[1]s is safe for concurrent use (tools, resources and prompts may be added and removed while it serves) and must not be copied once used.`

// emitTools writes tools.go.
func (e *emitter) emitTools() *jen.File {
	p := e.pkg.Protocol
	t := p.Tools
	f := newFile(e.pkg.Name)
	ctx := jen.Qual("context", "Context")
	callFunc := jen.Func().Params(ctx.Clone(), jen.Op("*").Id(t.CallParams)).Params(jen.Op("*").Id(t.Result), jen.Error())

	adders := t.Add
	if t.AddOutput != "" {
		adders = t.Add + " (or " + t.AddOutput + ", for a tool with structured results)"
	}
	more := ""
	if t.Resources != nil {
		more += " AddResource and AddResourceTemplate add resources (a template's are read by the URI template's variables), served by resources/list, resources/templates/list and resources/read."
	}
	if t.Prompts != nil {
		more += " AddPrompt adds a prompt whose arguments are a Go struct, served by prompts/list and prompts/get."
	}
	var fields []jen.Code
	if t.TTL != "" {
		fields = append(fields,
			jen.Comment(commentText("TTL is the ttlMs of the set's list answers (tools/list, and resources/list,\nresources/templates/list and prompts/list): how long clients may reuse them.\nZero, the default, tells them to ask again each time. (The HTTPHandler reads\nthe x-mcp-header annotations of the set's tools from the set itself, whatever\nthe TTL.)")),
			jen.Id("TTL").Qual("time", "Duration"),
			jen.Comment(commentText("CacheScope is the cacheScope of the set's list answers; empty means public,\nsince a set's lists are the same for every caller. Say private when your\nhandler filters them by caller.")),
			jen.Id("CacheScope").Id(t.CacheScopeType),
		)
	}
	if t.Cursor != "" {
		fields = append(fields,
			jen.Comment(commentText("PageSize is the most items one list answer holds; past it, the answer has a\nnextCursor for the next page. Zero or less, the default, lists every item on\none page.")),
			jen.Id("PageSize").Int(),
		)
	}
	fields = append(fields, jen.Id("tools").Qual(protocolPkg, "ToolSet").Types(jen.Id(t.Tool), jen.Id(t.CallParams), jen.Id(t.Result)))
	if r := t.Resources; r != nil {
		fields = append(fields,
			jen.Id("resources").Qual(protocolPkg, "Entries").Types(jen.Id(r.Resource), readFunc(r)),
			jen.Id("templates").Qual(protocolPkg, "Entries").Types(jen.Id(r.Template), jen.Qual(protocolPkg, "Template").Types(jen.Id(r.ReadParams), jen.Id(r.ReadResult))),
		)
	}
	if pr := t.Prompts; pr != nil {
		fields = append(fields, jen.Id("prompts").Qual(protocolPkg, "Entries").Types(jen.Id(pr.Prompt), getFunc(pr)))
	}
	fields = append(fields, jen.Id("changes").Qual(protocolPkg, "Notifier"))
	s := serverSide(p)
	fields = append([]jen.Code{jen.Id(s.Unimplemented)}, fields...)
	f.Comment(commentText(fmt.Sprintf(serverDoc, t.Set, adders, s.Handler, s.Constructor, s.Unimplemented, more)))
	f.Type().Id(t.Set).Struct(fields...)

	// type Registry interface { server() *Server }
	f.Comment(commentText(fmt.Sprintf("%s is where %s and the other Add functions add: a *%s, a handler that embeds one, or a *%s whose handler is, or embeds, a *%s (they panic if it is not).", t.Adder, t.Add, t.Set, s.Dispatcher, t.Set)))
	f.Type().Id(t.Adder).Interface(jen.Id("server").Params().Op("*").Id(t.Set))
	// func (d *ServerDispatcher) server() *Server
	f.Comment(commentText("server returns the " + t.Set + " d's handler is or embeds."))
	f.Func().Params(jen.Id("d").Op("*").Id(s.Dispatcher)).Id("server").Params().Op("*").Id(t.Set).Block(
		jen.If(
			jen.List(jen.Id("h"), jen.Id("ok")).Op(":=").Id("d").Dot("h").Assert(jen.Id(t.Adder)),
			jen.Id("ok").Op("&&").Id("h").Dot("server").Call().Op("!=").Nil(),
		).Block(jen.Return(jen.Id("h").Dot("server").Call())),
		jen.Panic(jen.Lit("mcp: the "+s.Dispatcher+"'s handler is not a *"+t.Set+" and does not embed one")),
	)
	// server marks a handler that is, or embeds, a Server.
	f.Comment(commentText("server marks a handler that is, or embeds, a " + t.Set + "."))
	f.Func().Params(jen.Id("s").Op("*").Id(t.Set)).Id("server").Params().Op("*").Id(t.Set).Block(jen.Return(jen.Id("s")))

	// changed announces a change of the set.
	f.Comment(commentText("changed announces a change of one of the set's lists (its list_changed notification)."))
	f.Func().Params(jen.Id("s").Op("*").Id(t.Set)).Id("changed").Params(jen.Id("method").String()).Block(
		jen.Id("s").Dot("changes").Dot("Notify").Call(jen.Qual(protocolPkg, "Change").Values(jen.Dict{jen.Id("Method"): jen.Id("method")})),
	)
	if t.TTL != "" {
		f.Comment(commentText("cacheScope is the cacheScope of the set's list answers."))
		f.Func().Params(jen.Id("s").Op("*").Id(t.Set)).Id(spec.MemberCacheScope).Params().Id(t.CacheScopeType).Block(
			jen.If(jen.Id("s").Dot("CacheScope").Op("==").Lit("")).Block(jen.Return(jen.Id(t.CacheScopePublic))),
			jen.Return(jen.Id("s").Dot("CacheScope")),
		)
	}

	e.emitAddTool(f, t)
	if t.AddOutput != "" {
		e.emitAddStructuredTool(f, t)
	}

	// func (s *Server) addTool(tool Tool, args, call) { validate; s.tools.Add(...); s.changed(...) }
	f.Comment(commentText("addTool adds a tool, after checking it against the schema, and announces the change."))
	addBody := []jen.Code{
		jen.If(jen.Err().Op(":=").Id("tool").Dot("Validate").Call(), jen.Err().Op("!=").Nil()).Block(
			jen.Panic(jen.Lit("mcp: tool ").Op("+").Qual(codecPkg, "Quote").Call(jen.Id("tool").Dot(t.ToolName)).Op("+").Lit(": ").Op("+").Err().Dot("Error").Call()),
		),
		jen.Id("s").Dot("tools").Dot("Add").Call(jen.Id("tool").Dot(t.ToolName), jen.Id("tool"), jen.Id("args"), jen.Id("call")),
	}
	addBody = append(addBody, e.announce(t.ListChangedMethod)...)
	f.Func().Params(jen.Id("s").Op("*").Id(t.Set)).Id("addTool").Params(jen.Id("tool").Id(t.Tool), jen.Id("args").Op("*").Qual(typeschemaPkg, "Codec"), jen.Id("call").Add(callFunc.Clone())).Block(addBody...)

	// RemoveTools
	e.emitRemove(f, t, "RemoveTools", "names", "tools", "the named tools", t.ListChangedMethod)

	// ListTools
	e.emitList(f, t, "ListTools", t.ListParams, t.ListResult, t.ListTools, "tools", "tools", nil)

	// CallTool
	f.Comment(commentText("CallTool answers tools/call: it runs the tool p names. An unknown name is\ninvalid params (-32602), the protocol error the specification gives it."))
	f.Func().Params(jen.Id("s").Op("*").Id(t.Set)).Id("CallTool").Params(jen.Id("ctx").Add(ctx.Clone()), jen.Id("p").Op("*").Id(t.CallParams)).Params(jen.Op("*").Id(t.Result), jen.Error()).Block(
		jen.Return(jen.Id("s").Dot("tools").Dot("Call").Call(jen.Id("ctx"), jen.Id("p").Dot(t.CallName), jen.Id("p"))),
	)

	// ErrorResult
	f.Comment(commentText("ErrorResult is a tool execution error: a result with isError and msg as its\ntext, which the model sees (return it with a nil error; an error the tool's\nfunction returns becomes one too)."))
	f.Func().Add(e.own("ErrorResult")).Params(jen.Id("msg").String()).Op("*").Id(t.Result).Block(
		jen.Return(jen.Op("&").Id(t.Result).Values(jen.Dict{
			jen.Id(t.Content): jen.Index().Id(t.ContentItem).Values(jen.Op("&").Id(t.Text).Values(jen.Dict{jen.Id(t.TextField): jen.Id("msg")})),
			jen.Id(t.IsError): jen.New(jen.True()),
		})),
	)

	// TextResult
	f.Comment(commentText(t.TextResult + " returns a result with one text content block: what most tools answer."))
	f.Func().Id(t.TextResult).Params(jen.Id("text").String()).Op("*").Id(t.Result).Block(
		jen.Return(jen.Op("&").Id(t.Result).Values(jen.Dict{
			jen.Id(t.Content): jen.Index().Id(t.ContentItem).Values(jen.Op("&").Id(t.Text).Values(jen.Dict{jen.Id(t.TextField): jen.Id("text")})),
		})),
	)

	if t.Capability != "" && p.ServerCapabilities != nil {
		e.emitDeclare(f, t)
	}
	if e.pkg.MCP {
		e.emitAttach(f, t)
	}
	if t.Resources != nil {
		e.emitResources(f, t)
	}
	if t.Prompts != nil {
		e.emitPrompts(f, t)
	}
	e.emitContentHelpers(f, t)
	if t.Listen {
		e.emitListen(f, t)
	}
	return f
}

// announce is the statement that announces a change by the list_changed
// notification method (a Method constant), or none.
func (e *emitter) announce(method string) []jen.Code {
	if method == "" {
		return nil
	}
	return []jen.Code{jen.Id("s").Dot("changed").Call(jen.Id(method))}
}

// emitRemove writes a Remove method of the set's entries field.
func (e *emitter) emitRemove(f *jen.File, t *ir.ToolSupport, name, param, field, what, method string) {
	doc := name + " removes " + what + " (unknown ones are ignored)"
	if method != "" {
		doc += " and, if it removed any,\nannounces the change to the clients"
	}
	f.Comment(commentText(doc + "."))
	body := []jen.Code{}
	if len(e.announce(method)) == 0 {
		body = append(body, jen.Id("s").Dot(field).Dot("Remove").Call(jen.Id(param).Op("...")))
	} else {
		body = append(body, jen.If(jen.Id("s").Dot(field).Dot("Remove").Call(jen.Id(param).Op("...")).Op(">").Lit(0)).Block(e.announce(method)...))
	}
	f.Func().Params(jen.Id("s").Op("*").Id(t.Set)).Id(name).Params(jen.Id(param).Op("...").String()).Block(body...)
}

// emitList writes a list method (ListTools, ListResources, ...): one
// page of the set's entries field, with the set's cache fields.
func (e *emitter) emitList(f *jen.File, t *ir.ToolSupport, name, params, result, listField, field, what string, unserved *jen.Statement) {
	ctx := jen.Qual("context", "Context")
	var body []jen.Code
	if unserved != nil {
		// Not served until the set holds one: method not found, as for a
		// server without the capability.
		body = append(body, jen.If(unserved).Block(jen.Return(jen.Id("s").Dot(serverSide(e.pkg.Protocol).Unimplemented).Dot(name).Call(jen.Id("ctx"), jen.Id("p")))))
	}
	values := jen.Dict{}
	if t.Cursor != "" {
		body = append(body,
			jen.Var().Id(spec.MemberCursor).Op("*").String(),
			jen.If(jen.Id("p").Op("!=").Nil()).Block(jen.Id(spec.MemberCursor).Op("=").Id("p").Dot(t.Cursor)),
			jen.List(jen.Id("items"), jen.Id("next"), jen.Err()).Op(":=").Id("s").Dot(field).Dot("Page").Call(jen.Id(spec.MemberCursor), jen.Id("s").Dot("PageSize")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		)
		values[jen.Id(listField)] = jen.Id("items")
		values[jen.Id("NextCursor")] = jen.Id("next")
	} else {
		values[jen.Id(listField)] = jen.Id("s").Dot(field).Dot("List").Call()
	}
	if t.TTL != "" {
		values[jen.Id(t.TTL)] = jen.Max(jen.Id("s").Dot("TTL").Dot("Milliseconds").Call(), jen.Lit(0))
		values[jen.Id(t.CacheScope)] = jen.Id("s").Dot(spec.MemberCacheScope).Call()
	}
	body = append(body, jen.Return(jen.Op("&").Id(result).Values(values), jen.Nil()))
	doc := name + " answers its list request with the " + what + " of s, in the order they were added"
	if t.Cursor != "" {
		doc += ",\nPageSize at a time (a cursor s did not hand out is invalid params, -32602)"
	}
	if t.TTL != "" {
		doc += ", with s's TTL and CacheScope"
	}
	f.Comment(commentText(doc + "."))
	pname, cname := jen.Id("_"), jen.Id("_")
	if t.Cursor != "" || unserved != nil {
		pname = jen.Id("p")
	}
	if unserved != nil {
		cname = jen.Id("ctx")
	}
	f.Func().Params(jen.Id("s").Op("*").Id(t.Set)).Id(name).Params(cname.Add(ctx.Clone()), pname.Op("*").Id(params)).Params(jen.Op("*").Id(result), jen.Error()).Block(body...)
}

// emitDeclare writes declareTools: the capabilities of what the set
// holds, unless the options declare them.
func (e *emitter) emitDeclare(f *jen.File, t *ir.ToolSupport) {
	s := serverSide(e.pkg.Protocol)
	caps := jen.Id("opts").Dot("Capabilities")
	toolCap := jen.Dict{}
	if t.ListChanged != "" {
		toolCap[jen.Id(t.ListChanged)] = jen.New(jen.True())
	}
	body := []jen.Code{
		jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("h").Assert(jen.Id(t.Adder)),
		jen.If(jen.Op("!").Id("ok").Op("||").Id("r").Dot("server").Call().Op("==").Nil()).Block(jen.Return()),
		jen.If(caps.Clone().Dot(t.Capability).Op("==").Nil()).Block(
			caps.Clone().Dot(t.Capability).Op("=").Op("&").Id(t.CapabilityType).Values(toolCap),
		),
	}
	if t.Resources != nil || t.Prompts != nil {
		body = append(body, jen.Id("s").Op(":=").Id("r").Dot("server").Call())
	}
	if r := t.Resources; r != nil {
		body = append(body, jen.If(caps.Clone().Dot(r.Capability).Op("==").Nil().Op("&&").Parens(jen.Id("s").Dot("resources").Dot("Len").Call().Op(">").Lit(0).Op("||").Id("s").Dot("templates").Dot("Len").Call().Op(">").Lit(0))).Block(
			caps.Clone().Dot(r.Capability).Op("=").Op("&").Id(r.CapabilityType).Values(jen.Dict{jen.Id(r.ListChanged): jen.New(jen.True()), jen.Id(r.Subscribe): jen.New(jen.True())}),
		))
	}
	if pr := t.Prompts; pr != nil {
		body = append(body, jen.If(caps.Clone().Dot(pr.Capability).Op("==").Nil().Op("&&").Id("s").Dot("prompts").Dot("Len").Call().Op(">").Lit(0)).Block(
			caps.Clone().Dot(pr.Capability).Op("=").Op("&").Id(pr.CapabilityType).Values(jen.Dict{jen.Id(pr.ListChanged): jen.New(jen.True())}),
		))
	}
	f.Comment(commentText("declareTools declares, for a handler that is or embeds a " + t.Set + ", the capabilities of\nwhat the set holds (tools always, with listChanged; resources, with subscribe and\nlistChanged, once it has one; prompts once it has one), unless opts declares them."))
	f.Func().Id("declareTools").Params(jen.Id("h").Id(s.Handler), jen.Id("opts").Op("*").Id(s.Options)).Block(body...)
}

// emitAttach writes attachServer: a dispatcher made for a Server is told
// of its changes.
func (e *emitter) emitAttach(f *jen.File, t *ir.ToolSupport) {
	s := serverSide(e.pkg.Protocol)
	body := []jen.Code{
		jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("d").Dot("h").Assert(jen.Id(t.Adder)),
		jen.If(jen.Op("!").Id("ok").Op("||").Id("r").Dot("server").Call().Op("==").Nil()).Block(jen.Return()),
		jen.Id("s").Op(":=").Id("r").Dot("server").Call(),
		jen.Id("s").Dot("changes").Dot("Attach").Call(jen.Op("&").Id("d").Dot("rpc")),
	}
	if e.pkg.Protocol.Modern {
		body = append(body, jen.Id("d").Dot("rpc").Dot("UseToolSet").Call(jen.Op("&").Id("s").Dot("tools")))
	}
	f.Comment(commentText("attachServer makes the " + t.Set + " d's handler is or embeds announce its changes to\nthe clients d serves."))
	f.Func().Id("attachServer").Params(jen.Id("d").Op("*").Id(s.Dispatcher)).Block(body...)
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
		jen.Id("s").Dot("server").Call().Dot("addTool").Call(jen.Id("tool"), jen.Id("args"), e.toolCall(t, jen.Return(jen.Id("h").Call(jen.Id("ctx"), jen.Id("p"), jen.Id("in"))))),
	)
}

// toolCall is the function a tool set runs for one tool: callTool with
// the arguments codec and a body that runs the tool on in.
func (e *emitter) toolCall(t *ir.ToolSupport, body ...jen.Code) *jen.Statement {
	ctx := jen.Qual("context", "Context")
	run := jen.Func().Params(jen.Id("in").Id("In")).Params(jen.Op("*").Id(t.Result), jen.Error()).Block(body...)
	return jen.Func().Params(jen.Id("ctx").Add(ctx), jen.Id("p").Op("*").Id(t.CallParams)).Params(jen.Op("*").Id(t.Result), jen.Error()).Block(
		jen.Return(jen.Qual(protocolPkg, "CallTool").Call(jen.Id("args"), jen.Id("p").Dot(t.CallName), jen.Id("p").Dot(t.Arguments), run, e.own("ErrorResult"))),
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
		jen.Id("s").Dot("server").Call().Dot("addTool").Call(jen.Id("tool"), jen.Id("args"), e.toolCall(t, body...)),
	)
}
