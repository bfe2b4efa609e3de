package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file emits calls.go: the typed calls beyond one method per request
// (ir.TypedCalls). On the client: iterators over the paginated lists
// (Client.Tools, ...), a tool call with a Go value for the arguments
// (Client.Call) and one that decodes the structured output (CallAs). On
// the server: its requests to its client with typed params and results
// (Elicit, CreateMessage, ListRoots; revisions with the initialize
// handshake), the Asker of multi round-trip requests (2026-07-28), and its
// notifications with typed params (Send...). What they share is the
// runtime's (runtime/protocol/client_typed.go); this is the glue to the
// revision's types.

const iterPkg = "iter"

func (e *emitter) emitCalls() *jen.File {
	p := e.pkg.Protocol
	t := p.Typed
	f := newFile(e.pkg.Name)
	for _, l := range t.Lists {
		e.emitClientList(f, p.Client, l)
	}
	if t.Call != "" {
		e.emitToolCall(f, p, t)
	}
	if t.Read != "" {
		emitClientRead(f, p.Client, t)
	}
	for _, rt := range t.Texts {
		emitResultText(f, rt)
	}
	for _, a := range t.Asks {
		emitServerAsk(f, a)
	}
	if t.Asker != "" {
		e.emitAsker(f, p, t)
	}
	for _, n := range t.Notifies {
		emitServerNotify(f, n)
	}
	if t.Require != "" {
		emitRequire(f, t)
	}
	if t.Form != nil {
		emitForm(f, t.Form)
	}
	return f
}

// emitForm writes Form[T] and FormValue[T] (ir.FormCall), over the
// runtime's SetFormSchema and FormValue.
func emitForm(f *jen.File, fc *ir.FormCall) {
	tp := jen.Id("T").Any()
	f.Comment(commentText(fmt.Sprintf("%s returns the params of a form elicitation that shows message and asks for the fields of T, a struct: its requestedSchema is the schema AddTool derives from a struct (see Server: json names, required unless optional, the description of a jsonschema tag, the keywords of an mcp tag), which must be one a form may hold (strings, numbers, integers, booleans, and slices of enum strings; no nested structs): %s panics, naming T, otherwise. %s reads the answer into a T.", fc.Form, fc.Form, fc.Value)))
	f.Func().Id(fc.Form).Types(tp).Params(jen.Id("message").String()).Op("*").Id(fc.Params.Name).Block(
		jen.Id("p").Op(":=").Op("&").Id(fc.Params.Name).Values(jen.Id(fc.Message).Op(":").Id("message")),
		jen.Qual(protocolPkg, "SetFormSchema").Types(jen.Id("T")).Call(jen.Op("&").Id("p").Dot(fc.Schema)),
		jen.Return(jen.Id("p")),
	)
	f.Comment(commentText(fmt.Sprintf("%s decodes the answer to a form elicitation of %s[T] into a T. ok is false, with the zero T and a nil error, when r is nil or the user did not accept (declined or cancelled); an accepted content that T's schema refuses is an error (invalid params) listing the violations.", fc.Value, fc.Form)))
	f.Func().Id(fc.Value).Types(tp).Params(jen.Id("r").Op("*").Id(fc.Result.Name)).Params(jen.Id("v").Id("T"), jen.Id("ok").Bool(), jen.Err().Error()).Block(
		jen.If(jen.Id("r").Op("==").Nil()).Block(jen.Return(jen.Id("v"), jen.False(), jen.Nil())),
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Id("r").Dot("AppendJSON").Call(jen.Nil()),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("v"), jen.False(), jen.Err())),
		jen.Return(jen.Qual(protocolPkg, "FormValue").Types(jen.Id("T")).Call(jen.Id("b"))),
	)
}

// emitRequire writes the function that answers a request with the client
// capabilities it needs, typed: RequireClientCapabilities of its JSON.
func emitRequire(f *jen.File, t *ir.TypedCalls) {
	caps := t.RequireCaps.Name
	f.Comment(commentText(fmt.Sprintf("%s returns the error that answers a request needing the client capabilities caps, which the client did not declare (MissingRequiredClientCapabilityError, -32021, listing caps): RequireClientCapabilities with a %s instead of its JSON.", t.Require, caps)))
	f.Func().Id(t.Require).Params(jen.Id("caps").Id(caps)).Error().Block(
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Id("caps").Dot("AppendJSON").Call(jen.Nil()),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Qual(protocolPkg, "RequireClientCapabilities").Call(jen.Id("b"))),
	)
}

// typedOptionFields are the fields ClientOptions gets for the typed calls.
func typedOptionFields(p *ir.Protocol) []jen.Code {
	if p.Typed == nil || !p.Typed.MaxPages {
		return nil
	}
	return []jen.Code{
		jen.Comment(commentText(fmt.Sprintf("MaxPages bounds how many pages the Client's iterators (%s) read of one list: one more ends the iteration with an error. 0 means %d.", listIters(p.Typed), 1000))),
		jen.Id("MaxPages").Int(),
	}
}

// listIters names the Client's iterators: "Tools, Prompts".
func listIters(t *ir.TypedCalls) string {
	s := ""
	for i, l := range t.Lists {
		if i > 0 {
			s += ", "
		}
		s += l.Iter
	}
	return s
}

// emitClientList writes the Client's iterator over one paginated list.
func (e *emitter) emitClientList(f *jen.File, c *ir.ClientSupport, l *ir.ClientList) {
	m := l.Call.Method
	item := goType(l.Item)
	ctx := jen.Id("ctx").Qual("context", "Context")
	doc := fmt.Sprintf("%s returns an iterator over the items of the server's %s (%s): it sends %s (%s, through the cache) for one page after another, following nextCursor, and yields each item with a nil error; an error is yielded once, with a nil item, and ends the iteration. It stops with an error when the server gives a nextCursor it already gave (the list would not end) or the list has more than ClientOptions.MaxPages pages.\n\n\tfor v, err := range c.%s(ctx) {\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\t...\n\t}", l.Iter, m.Name, l.Items, m.Name, l.Call.Name, l.Iter)
	f.Comment(commentText(doc))
	f.Func().Params(jen.Id("c").Op("*").Id(c.Client)).Id(l.Iter).Params(ctx.Clone()).Qual(iterPkg, "Seq2").Types(jen.Op("*").Add(item.Clone()), jen.Error()).Block(
		jen.Return(jen.Qual(protocolPkg, "Pages").Call(
			jen.Id("ctx"), jen.Id(m.Const), jen.Id("c").Dot("opts").Dot("MaxPages"),
			jen.Func().Params(ctx.Clone(), jen.Id(spec.MemberCursor).Op("*").String()).Params(jen.Index().Add(item.Clone()), jen.Op("*").String(), jen.Error()).Block(
				jen.List(jen.Id("r"), jen.Id("err")).Op(":=").Id("c").Dot(l.Call.Name).Call(jen.Id("ctx"), jen.Op("&").Id(l.Params.Name).Values(jen.Id(l.Cursor).Op(":").Id(spec.MemberCursor))),
				jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Nil(), jen.Id("err"))),
				jen.Return(jen.Id("r").Dot(l.Items), jen.Id("r").Dot(l.Next), jen.Nil()),
			),
		)),
	)
}

// emitToolCall writes Client.Call and CallAs.
func (e *emitter) emitToolCall(f *jen.File, p *ir.Protocol, t *ir.TypedCalls) {
	c, ts := p.Client, p.Tools
	var call *ir.ClientCall
	for _, r := range c.Requests {
		if r.Method.Name == spec.MethodCallTool {
			call = r
		}
	}
	m := call.Method
	ctx := jen.Id("ctx").Qual("context", "Context")
	doc := fmt.Sprintf("%s calls the tool name with args as its arguments (%s, %s): args is any Go value encoding/json encodes as a JSON object (a struct, a map, a json.RawMessage), or nil for none. A failure of the tool itself is a result with %s set, not an error", t.Call, m.Name, call.Name, ts.IsError)
	if t.CallAs != "" {
		doc += fmt.Sprintf("; %s also decodes the structured output", t.CallAs)
	}
	doc += "."
	f.Comment(commentText(doc))
	f.Func().Params(jen.Id("c").Op("*").Id(c.Client)).Id(t.Call).Params(ctx.Clone(), jen.Id("name").String(), jen.Id("args").Any()).Params(jen.Op("*").Id(ts.Result), jen.Error()).Block(
		jen.List(jen.Id("a"), jen.Id("err")).Op(":=").Qual(protocolPkg, "ToolArguments").Call(jen.Id("args")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(protocolPkg, "ParamsError").Call(jen.Id(m.Const), jen.Id("err")))),
		jen.Return(jen.Id("c").Dot(call.Name).Call(jen.Id("ctx"), jen.Op("&").Id(ts.CallParams).Values(
			jen.Id(ts.CallName).Op(":").Id("name"), jen.Id(ts.Arguments).Op(":").Id("a"),
		))),
	)
	lists := ""
	for _, l := range t.Lists {
		if l.Call.Method.Name == spec.MethodListTools {
			lists = l.Iter
		}
	}
	if t.CallAs == "" || lists == "" {
		return
	}
	doc = fmt.Sprintf("%s calls the tool name with args, as %s does, and decodes the result's structuredContent into an Out with encoding/json. Unless ClientOptions.SkipResponseValidation is set, the structuredContent is first checked against the tool's outputSchema, as tools.mdx says clients should: the schema is the one the tools/list results the Client received give (it lists the tools with %s to learn it when none named the tool, and takes a tool the whole list does not name to have none), and a mismatch is an error that wraps the *ValidationError with every violation. A result with %s set is a *ToolError; a result without structuredContent is an error. The result comes back whenever there is one, with the error.\n\n\tsum, _, err := mcp.%s[Sum](ctx, c, \"add\", AddArgs{A: 40, B: 2})", t.CallAs, t.Call, lists, ts.IsError, t.CallAs)
	f.Comment(commentText(doc))
	body := []jen.Code{
		jen.Var().Id("out").Id("Out"),
		jen.List(jen.Id("r"), jen.Id("err")).Op(":=").Id("c").Dot(t.Call).Call(jen.Id("ctx"), jen.Id("name"), jen.Id("args")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("out"), jen.Nil(), jen.Id("err"))),
		jen.If(jen.Id("r").Dot(ts.IsError).Op("!=").Nil().Op("&&").Op("*").Id("r").Dot(ts.IsError)).Block(
			jen.Return(jen.Id("out"), jen.Id("r"), jen.Op("&").Qual(protocolPkg, "ToolError").Values(
				jen.Id("Tool").Op(":").Id("name"), jen.Id("Text").Op(":").Id("r").Dot("Text").Call(),
			)),
		),
		jen.Var().Id("schema").Op("*").Qual(codecPkg, "Schema"),
		jen.If(jen.Op("!").Id("c").Dot("opts").Dot("SkipResponseValidation")).Block(
			jen.If(jen.List(jen.Id("schema"), jen.Id("err")).Op("=").Id("c").Dot("core").Dot("ToolOutputSchema").Call(jen.Id("ctx"), jen.Id("name"), jen.Func().Params(jen.Id("ctx").Qual("context", "Context")).Error().Block(
				jen.For(jen.List(jen.Id("_"), jen.Id("err")).Op(":=").Range().Id("c").Dot(lists).Call(jen.Id("ctx"))).Block(
					jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
				),
				jen.Return(jen.Nil()),
			)), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("out"), jen.Id("r"), jen.Id("err"))),
		),
		jen.List(jen.Id("out"), jen.Id("err")).Op("=").Qual(protocolPkg, "DecodeStructured").Types(jen.Id("Out")).Call(jen.Id("name"), jen.Id("r").Dot(ts.Structured), jen.Id("schema")),
		jen.Return(jen.Id("out"), jen.Id("r"), jen.Id("err")),
	}
	f.Func().Id(t.CallAs).Types(jen.Id("Out").Any()).Params(ctx.Clone(), jen.Id("c").Op("*").Id(c.Client), jen.Id("name").String(), jen.Id("args").Any()).Params(jen.Id("Out"), jen.Op("*").Id(ts.Result), jen.Error()).Block(body...)
}

// paramsValue is how typed glue passes a params argument (named params)
// as the runtime's AppendJSON value: the holder of a union, the pointer
// of a struct; ok reports whether the argument can be nil (checked by
// the caller).
func paramsValue(t *ir.Type) (v *jen.Statement, nilable bool) {
	if u := t.Union(); u != nil {
		return jen.Op("&").Add(holderOf(u, jen.Id("params"))), false
	}
	if t.IsStruct() {
		return jen.Id("params"), true
	}
	return jen.Id("params"), false
}

// emitServerAsk writes a server's typed request to its client.
func emitServerAsk(f *jen.File, a *ir.ServerAsk) {
	m := a.Method
	ctx := jen.Id("ctx").Qual("context", "Context")
	res := goType(m.Result)
	args := []jen.Code{ctx.Clone()}
	var body []jen.Code
	send := func(params jen.Code) jen.Code {
		return jen.Qual(protocolPkg, "Ask").Types(res.Clone()).Call(jen.Id("ctx"), jen.Id(m.Const), params)
	}
	doc := fmt.Sprintf("%s sends the request %q ([%s]) to the client of the request ctx belongs to, waits for its answer and returns it, checked against the schema: SendRequest, typed (it says where the request goes, what the client must have declared, and when it gives up). params are checked before they are sent.", a.Func, m.Name, m.Definition.Name)
	if m.Params == nil {
		body = append(body, jen.Return(send(jen.Nil())))
	} else {
		args = append(args, jen.Id("params").Add(paramsGoType(m)))
		v, nilable := paramsValue(m.Params)
		if nilable {
			doc += " params may be nil (no members)."
			body = append(body, jen.If(jen.Id("params").Op("==").Nil()).Block(jen.Id("params").Op("=").New(goType(m.Params))))
		}
		body = append(body,
			jen.Id("p").Op(":=").Add(v),
			jen.If(jen.Id("err").Op(":=").Id("p").Dot("Validate").Call(), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Qual(protocolPkg, "ParamsError").Call(jen.Id(m.Const), jen.Id("err"))),
			),
			jen.Return(send(jen.Id("p"))),
		)
	}
	f.Comment(commentText(doc))
	f.Func().Id(a.Func).Params(args...).Params(jen.Op("*").Add(res), jen.Error()).Block(body...)
}

// emitServerNotify writes a server's typed notification.
func emitServerNotify(f *jen.File, n *ir.ServerNotify) {
	m := n.Method
	args := []jen.Code{jen.Id("ctx").Qual("context", "Context")}
	doc := fmt.Sprintf("%s sends the notification %q ([%s]) to the client of the request ctx belongs to: SendNotification, typed (it says where the notification goes and when it fails).", n.Func, m.Name, m.Definition.Name)
	var body []jen.Code
	if m.Params == nil {
		body = append(body, jen.Return(jen.Qual(protocolPkg, "SendNotification").Call(jen.Id("ctx"), jen.Id(m.Const), jen.Nil())))
	} else {
		args = append(args, jen.Id("params").Add(paramsGoType(m)))
		v, nilable := paramsValue(m.Params)
		if nilable {
			doc += " params may be nil (no members)."
			body = append(body, jen.If(jen.Id("params").Op("==").Nil()).Block(
				jen.Return(jen.Qual(protocolPkg, "SendNotification").Call(jen.Id("ctx"), jen.Id(m.Const), jen.Nil())),
			))
		}
		body = append(body, jen.Return(jen.Qual(protocolPkg, "SendNotification").Call(jen.Id("ctx"), jen.Id(m.Const), v)))
	}
	f.Comment(commentText(doc))
	f.Func().Id(n.Func).Params(args...).Error().Block(body...)
}

// emitAsker writes the Asker of multi round-trip requests (2026-07-28).
func (e *emitter) emitAsker(f *jen.File, p *ir.Protocol, t *ir.TypedCalls) {
	c := p.Client
	need := p.Names.NeedInput
	inputRequired := p.InputRequired
	stateField := inputRequired.FieldByJSON("requestState").Name
	requestsField := inputRequired.FieldByJSON("inputRequests").Name
	doc := fmt.Sprintf("%s asks the client for input from a handler of a multi round-trip request (tools/call, resources/read, prompts/get; basic/patterns/mrtr.mdx) and reads the answers. The handler runs again for each round: each method returns the answer the retry brought for its key, or nil when there is none yet, and Err then asks the client for everything that had no answer, in one InputRequiredResult. The dispatcher checks each answer against the request of its key before the handler runs (see %s).\n\n\tin := mcp.%s(p.InputResponses)\n\tname := in.Elicit(\"name\", &mcp.ElicitRequestFormParams{Message: \"Your name?\", RequestedSchema: schema})\n\tif err := in.Err(); err != nil {\n\t\treturn nil, err // asks the client; the handler runs again with the answer\n\t}", t.Asker, need, t.AskFunc)
	f.Comment(commentText(doc))
	f.Type().Id(t.Asker).Struct(
		jen.Comment(commentText("State, if set, is the requestState Err sends with the input requests: the handler's params carry it back with the answers (the dispatcher seals it).")),
		jen.Id("State").Op("*").String(),
		jen.Id("responses").Add(goType(t.AskResponses)),
		jen.Id("asked").Add(goType(t.AskRequests)),
	)
	f.Comment(commentText(fmt.Sprintf("%s returns an %s that reads the answers among responses, the inputResponses of the handler's params.", t.AskFunc, t.Asker)))
	f.Func().Id(t.AskFunc).Params(jen.Id("responses").Add(goType(t.AskResponses))).Op("*").Id(t.Asker).Block(
		jen.Return(jen.Op("&").Id(t.Asker).Values(jen.Id("responses").Op(":").Id("responses"))),
	)
	recv := jen.Id("a").Op("*").Id(t.Asker)
	for _, in := range c.Inputs {
		args := []jen.Code{jen.Id("key").String()}
		var fill, set []jen.Code
		if pf := in.ParamsField; pf != nil {
			switch {
			case in.Params.Union() != nil:
				args = append(args, jen.Id("params").Add(goType(in.Params)))
				fill = append(fill, jen.Id(pf.Name).Op(":").Id("params"))
			case pf.Pointer():
				// Optional params: the request goes without them.
			case in.Params.IsStruct():
				args = append(args, jen.Id("params").Op("*").Add(goType(in.Params)))
				set = append(set, jen.If(jen.Id("params").Op("!=").Nil()).Block(jen.Id("r").Dot(pf.Name).Op("=").Op("*").Id("params")))
			default:
				args = append(args, jen.Id("params").Add(goType(in.Params)))
				fill = append(fill, jen.Id(pf.Name).Op(":").Id("params"))
			}
		}
		ans := goType(in.Answer)
		if in.Answer.IsStruct() {
			ans = jen.Op("*").Add(ans)
		}
		doc := fmt.Sprintf("%s returns the answer to the input request %q of key, or nil when the retry did not bring one: Err then asks for it ([%s]).", in.Handler, in.Method, in.Request.Name)
		f.Comment(commentText(doc))
		body := []jen.Code{
			jen.If(jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("a").Dot("responses").Index(jen.Id("key")).Assert(ans.Clone()), jen.Id("ok").Op("&&").Id("r").Op("!=").Nil()).Block(jen.Return(jen.Id("r"))),
			jen.If(jen.Id("a").Dot("asked").Op("==").Nil()).Block(jen.Id("a").Dot("asked").Op("=").Add(goType(t.AskRequests)).Values()),
			jen.Id("r").Op(":=").Op("&").Id(in.Request.Name).Values(fill...),
		}
		body = append(body, set...)
		body = append(body,
			jen.Id("a").Dot("asked").Index(jen.Id("key")).Op("=").Id("r"),
			jen.Return(jen.Nil()),
		)
		f.Func().Params(recv.Clone()).Id(in.Handler).Params(args...).Add(ans.Clone()).Block(body...)
	}
	f.Comment(commentText(fmt.Sprintf("Err returns nil when every input request asked for had its answer, and otherwise %s's error asking the client for the ones that had none (with State): return it from the handler.", need)))
	f.Func().Params(recv.Clone()).Id("Err").Params().Error().Block(
		jen.If(jen.Len(jen.Id("a").Dot("asked")).Op("==").Lit(0)).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Id(need).Call(jen.Id(inputRequired.Name).Values(
			jen.Id(requestsField).Op(":").Id("a").Dot("asked"),
			jen.Id(stateField).Op(":").Id("a").Dot("State"),
		))),
	)
}

// emitClientRead writes Client.Read.
func emitClientRead(f *jen.File, c *ir.ClientSupport, t *ir.TypedCalls) {
	m := t.ReadCall.Method
	f.Comment(commentText(fmt.Sprintf("%s reads the resource uri (%s, %s with only the uri).", t.Read, m.Name, t.ReadCall.Name)))
	f.Func().Params(jen.Id("c").Op("*").Id(c.Client)).Id(t.Read).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("uri").String()).Params(resultGoType(m), jen.Error()).Block(
		jen.Return(jen.Id("c").Dot(t.ReadCall.Name).Call(jen.Id("ctx"), jen.Op("&").Id(t.ReadParams.Name).Values(jen.Id(t.ReadURI).Op(":").Id("uri")))),
	)
}

// emitResultText writes the Text method of a result.
func emitResultText(f *jen.File, rt *ir.ResultText) {
	f.Comment(commentText(fmt.Sprintf("Text returns the text of r's %s, joined with newlines: the %s of each %s (other kinds of content are left out); \"\" when there is none.", rt.Content, rt.TextField, rt.Branch)))
	f.Func().Params(jen.Id("r").Op("*").Id(rt.Result.Name)).Id("Text").Params().String().Block(
		jen.If(jen.Id("r").Op("==").Nil()).Block(jen.Return(jen.Lit(""))),
		jen.Var().Id("text").Index().String(),
		jen.For(jen.List(jen.Id("_"), jen.Id("b")).Op(":=").Range().Id("r").Dot(rt.Content)).Block(
			jen.If(jen.List(jen.Id("t"), jen.Id("ok")).Op(":=").Id("b").Assert(jen.Op("*").Id(rt.Branch)), jen.Id("ok").Op("&&").Id("t").Op("!=").Nil()).Block(
				jen.Id("text").Op("=").Append(jen.Id("text"), jen.Id("t").Dot(rt.TextField)),
			),
		),
		jen.Return(jen.Qual("strings", "Join").Call(jen.Id("text"), jen.Lit("\n"))),
	)
}
