package emit

import (
	"github.com/dave/jennifer/jen"
	"strconv"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// This file emits the rest of the Server in tools.go: resources, resource
// templates, prompts, the content helpers and subscriptions/listen. The
// machinery (the ordered sets, URI templates, prompt arguments, the
// notification fan-out) is in runtime/protocol/sets.go, uritemplate.go
// and prompts.go.

func readFunc(r *ir.ResourceSupport) *jen.Statement {
	return jen.Func().Params(jen.Qual("context", "Context"), jen.Op("*").Id(r.ReadParams)).Params(jen.Op("*").Id(r.ReadResult), jen.Error())
}

func getFunc(p *ir.PromptSupport) *jen.Statement {
	return jen.Func().Params(jen.Qual("context", "Context"), jen.Op("*").Id(p.GetParams)).Params(jen.Op("*").Id(p.GetResult), jen.Error())
}

// emitResources writes AddResource, AddResourceTemplate, their removal,
// the resources methods of the Server and the resource helpers.
func (e *emitter) emitResources(f *jen.File, t *ir.ToolSupport) {
	r := t.Resources
	ctx := jen.Qual("context", "Context")
	set := jen.Op("*").Id(t.Set)

	f.Comment(commentText("AddResource adds a resource to the set s is or serves (see " + t.Adder + "), with h as the\nfunction that reads it: resources/read of its URI runs h, and what h returns\nis the answer (an error too, as from a handler). It panics if the resource\nbreaks the schema of " + r.Resource + " or the set has one of that URI already."))
	f.Func().Add(e.own("AddResource")).Params(
		jen.Id("s").Id(t.Adder), jen.Id("r").Id(r.Resource),
		jen.Id("h").Func().Params(jen.Id("ctx").Add(ctx.Clone()), jen.Id("p").Op("*").Id(r.ReadParams)).Params(jen.Op("*").Id(r.ReadResult), jen.Error()),
	).Block(
		jen.If(jen.Err().Op(":=").Id("r").Dot("Validate").Call(), jen.Err().Op("!=").Nil()).Block(
			jen.Panic(jen.Lit("mcp: resource ").Op("+").Qual(codecPkg, "Quote").Call(jen.Id("r").Dot(r.ResourceURI)).Op("+").Lit(": ").Op("+").Err().Dot("Error").Call()),
		),
		jen.Id("set").Op(":=").Id("s").Dot("server").Call(),
		jen.If(jen.Op("!").Id("set").Dot("resources").Dot("Add").Call(jen.Id("r").Dot(r.ResourceURI), jen.Id("r"), jen.Id("h"))).Block(
			jen.Panic(jen.Lit("mcp: resource ").Op("+").Qual(codecPkg, "Quote").Call(jen.Id("r").Dot(r.ResourceURI)).Op("+").Lit(" is added twice")),
		),
		jen.Id("set").Dot("changed").Call(jen.Id(r.ListChangedMethod)),
	)

	f.Comment(commentText("AddResourceTemplate adds a resource template to the set s is or serves (see\n" + t.Adder + "), with h as the function that reads the resources it matches:\nresources/read of a URI the set has no resource of runs h for the first\ntemplate (in the order they were added) whose uriTemplate, an RFC 6570 URI\ntemplate, matches the URI, with the template's variables (see\nprotocol.URITemplate for what matches). It panics if the template breaks the\nschema of " + r.Template + " or is not a URI template, or the set has it already."))
	f.Func().Add(e.own("AddResourceTemplate")).Params(
		jen.Id("s").Id(t.Adder), jen.Id("t").Id(r.Template),
		jen.Id("h").Func().Params(jen.Id("ctx").Add(ctx.Clone()), jen.Id("p").Op("*").Id(r.ReadParams), jen.Id("vars").Map(jen.String()).String()).Params(jen.Op("*").Id(r.ReadResult), jen.Error()),
	).Block(
		jen.If(jen.Err().Op(":=").Id("t").Dot("Validate").Call(), jen.Err().Op("!=").Nil()).Block(
			jen.Panic(jen.Lit("mcp: resource template ").Op("+").Qual(codecPkg, "Quote").Call(jen.Id("t").Dot(r.TemplateURI)).Op("+").Lit(": ").Op("+").Err().Dot("Error").Call()),
		),
		jen.List(jen.Id("ut"), jen.Err()).Op(":=").Qual(protocolPkg, "ParseURITemplate").Call(jen.Id("t").Dot(r.TemplateURI)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Panic(jen.Lit("mcp: ").Op("+").Err().Dot("Error").Call())),
		jen.Id("set").Op(":=").Id("s").Dot("server").Call(),
		jen.If(jen.Op("!").Id("set").Dot("templates").Dot("Add").Call(jen.Id("t").Dot(r.TemplateURI), jen.Id("t"), jen.Qual(protocolPkg, "Template").Types(jen.Id(r.ReadParams), jen.Id(r.ReadResult)).Values(jen.Dict{jen.Id("URI"): jen.Id("ut"), jen.Id("Read"): jen.Id("h")}))).Block(
			jen.Panic(jen.Lit("mcp: resource template ").Op("+").Qual(codecPkg, "Quote").Call(jen.Id("t").Dot(r.TemplateURI)).Op("+").Lit(" is added twice")),
		),
		jen.Id("set").Dot("changed").Call(jen.Id(r.ListChangedMethod)),
	)

	e.emitRemove(f, t, "RemoveResources", "uris", "resources", "the resources of the URIs", r.ListChangedMethod)
	e.emitRemove(f, t, "RemoveResourceTemplates", "uriTemplates", "templates", "the resource templates of the uriTemplates", r.ListChangedMethod)

	f.Comment(commentText("ResourceUpdated announces that the resource of uri changed\n(notifications/resources/updated) to the clients that subscribed to it."))
	f.Func().Params(jen.Id("s").Add(set.Clone())).Id("ResourceUpdated").Params(jen.Id("uri").String()).Block(
		jen.Id("s").Dot("changes").Dot("Notify").Call(jen.Qual(protocolPkg, "Change").Values(jen.Dict{jen.Id("Method"): jen.Id(r.UpdatedMethod), jen.Id("URI"): jen.Id("uri")})),
	)

	e.emitList(f, t, "ListResources", r.ListParams, r.ListResult, r.ListField, "resources", "resources", jen.Id("s").Dot("resources").Dot("Len").Call().Op("==").Lit(0).Op("&&").Id("s").Dot("templates").Dot("Len").Call().Op("==").Lit(0))
	e.emitList(f, t, "ListResourceTemplates", r.TemplatesParams, r.TemplatesResult, r.TemplatesField, "templates", "resource templates", jen.Id("s").Dot("resources").Dot("Len").Call().Op("==").Lit(0).Op("&&").Id("s").Dot("templates").Dot("Len").Call().Op("==").Lit(0))

	f.Comment(commentText("ReadResource answers resources/read: the resource of p's URI, else the first\ntemplate that matches it, else ResourceNotFound. Until the set holds a resource\nor template, resources/read and the resources lists are method not found, as\nfor a server without the capability."))
	f.Func().Params(jen.Id("s").Add(set.Clone())).Id("ReadResource").Params(jen.Id("ctx").Add(ctx.Clone()), jen.Id("p").Op("*").Id(r.ReadParams)).Params(jen.Op("*").Id(r.ReadResult), jen.Error()).Block(
		jen.If(jen.Id("s").Dot("resources").Dot("Len").Call().Op("==").Lit(0).Op("&&").Id("s").Dot("templates").Dot("Len").Call().Op("==").Lit(0)).Block(jen.Return(jen.Id("s").Dot(serverSide(e.pkg.Protocol).Unimplemented).Dot("ReadResource").Call(jen.Id("ctx"), jen.Id("p")))),
		jen.Return(jen.Qual(protocolPkg, "ReadResource").Call(jen.Id("ctx"), jen.Op("&").Id("s").Dot("resources"), jen.Op("&").Id("s").Dot("templates"), jen.Id("p").Dot(r.ReadURI), jen.Id("p"), e.own("ResourceNotFound"))),
	)

	code := "invalid params (-32602)"
	if r.NotFoundCode != -32602 {
		code = strconv.Itoa(r.NotFoundCode)
	}
	f.Comment(commentText("ResourceNotFound is the error of resources/read for a URI the server does not\nhave: " + code + ", the code the specification gives it, with the URI in\nits data."))
	f.Func().Add(e.own("ResourceNotFound")).Params(jen.Id("uri").String()).Error().Block(
		jen.Id("data").Op(":=").Qual(jsonrpcPkg, "AppendQuoted").Call(jen.Index().Byte().Call(jen.Lit(`{"uri":`)), jen.Id("uri")),
		jen.Return(jen.Op("&").Add(e.rt(jsonrpcPkg, "RPCError")).Values(jen.Dict{
			jen.Id("Code"):    jen.Lit(r.NotFoundCode),
			jen.Id("Message"): jen.Lit("resource not found: ").Op("+").Id("uri"),
			jen.Id("Data"):    jen.Append(jen.Id("data"), jen.LitRune('}')),
		})),
	)

	// Contents helpers.
	mime := func() *jen.Statement {
		return jen.Var().Id("m").Op("*").String().Line().If(jen.Id("mimeType").Op("!=").Lit("")).Block(jen.Id("m").Op("=").Op("&").Id("mimeType"))
	}
	f.Comment(commentText("TextContents is the text contents of a resource (its MIME type may be \"\")."))
	f.Func().Add(e.own("TextContents")).Params(jen.List(jen.Id("uri"), jen.Id("mimeType"), jen.Id("text")).String()).Op("*").Id(r.TextContents).Block(
		mime(),
		jen.Return(jen.Op("&").Id(r.TextContents).Values(jen.Dict{jen.Id(r.ContentsURI): jen.Id("uri"), jen.Id(r.ContentsMIME): jen.Id("m"), jen.Id(r.ContentsText): jen.Id("text")})),
	)
	f.Comment(commentText("BlobContents is the binary contents of a resource (its MIME type may be \"\"),\nbase64-encoded."))
	f.Func().Add(e.own("BlobContents")).Params(jen.List(jen.Id("uri"), jen.Id("mimeType")).String(), jen.Id("data").Index().Byte()).Op("*").Id(r.BlobContents).Block(
		mime(),
		jen.Return(jen.Op("&").Id(r.BlobContents).Values(jen.Dict{jen.Id(r.ContentsURI): jen.Id("uri"), jen.Id(r.ContentsMIME): jen.Id("m"), jen.Id(r.ContentsBlob): jen.Qual("encoding/base64", "StdEncoding").Dot("EncodeToString").Call(jen.Id("data"))})),
	)
	f.Comment(commentText("TextResource is a resources/read answer with one text contents: what most\nresources answer."))
	f.Func().Add(e.own("TextResource")).Params(jen.List(jen.Id("uri"), jen.Id("mimeType"), jen.Id("text")).String()).Op("*").Id(r.ReadResult).Block(
		jen.Return(jen.Op("&").Id(r.ReadResult).Values(jen.Dict{jen.Id(r.ReadContents): jen.Index().Id(r.ContentsItem).Values(e.own("TextContents").Call(jen.Id("uri"), jen.Id("mimeType"), jen.Id("text")))})),
	)
	f.Comment(commentText("BlobResource is a resources/read answer with one binary contents."))
	f.Func().Add(e.own("BlobResource")).Params(jen.List(jen.Id("uri"), jen.Id("mimeType")).String(), jen.Id("data").Index().Byte()).Op("*").Id(r.ReadResult).Block(
		jen.Return(jen.Op("&").Id(r.ReadResult).Values(jen.Dict{jen.Id(r.ReadContents): jen.Index().Id(r.ContentsItem).Values(e.own("BlobContents").Call(jen.Id("uri"), jen.Id("mimeType"), jen.Id("data")))})),
	)
}

// emitPrompts writes AddPrompt, RemovePrompts and the prompts methods of
// the Server.
func (e *emitter) emitPrompts(f *jen.File, t *ir.ToolSupport) {
	pr := t.Prompts
	ctx := jen.Qual("context", "Context")
	set := jen.Op("*").Id(t.Set)

	f.Comment(commentText("AddPrompt adds a prompt to the set s is or serves (see " + t.Adder + "), with h as the\nfunction that builds it. The prompt's arguments are derived from In, a struct\n(see protocol.PromptArgs for the rules: a field is an argument, required\nunless it is a pointer or has omitempty, described by its jsonschema tag) or\nmap[string]string, and must be left empty. prompts/get decodes its arguments\ninto an In before h runs: a missing required argument, an unknown one or a\nvalue its field cannot hold is invalid params (-32602), and h does not run.\nAddPrompt panics if In cannot hold prompt arguments, if the prompt breaks the\nschema of " + pr.Prompt + ", or if the set has a prompt of that name already."))
	f.Func().Add(e.own("AddPrompt")).Types(jen.Id("In").Any()).Params(
		jen.Id("s").Id(t.Adder), jen.Id("pr").Id(pr.Prompt),
		jen.Id("h").Func().Params(jen.Id("ctx").Add(ctx.Clone()), jen.Id("p").Op("*").Id(pr.GetParams), jen.Id("in").Id("In")).Params(jen.Op("*").Id(pr.GetResult), jen.Error()),
	).Block(
		jen.Id("args").Op(":=").Qual(protocolPkg, "NewPromptArgs").Types(jen.Id("In")).Call(jen.Id("pr").Dot(pr.PromptName)),
		jen.If(jen.Id("pr").Dot(pr.PromptArgs).Op("!=").Nil()).Block(
			jen.Panic(jen.Lit("mcp: prompt ").Op("+").Qual(codecPkg, "Quote").Call(jen.Id("pr").Dot(pr.PromptName)).Op("+").Lit(": arguments are derived from the Go type; leave them empty")),
		),
		jen.For(jen.List(jen.Id("_"), jen.Id("a")).Op(":=").Range().Id("args").Dot("Args").Call()).Block(
			jen.Id("arg").Op(":=").Id(pr.Arg).Values(jen.Dict{jen.Id(pr.ArgName): jen.Id("a").Dot("Name")}),
			jen.If(jen.Id("a").Dot("Description").Op("!=").Lit("")).Block(jen.Id("arg").Dot(pr.ArgDesc).Op("=").New(jen.Id("a").Dot("Description"))),
			jen.If(jen.Id("a").Dot("Required")).Block(jen.Id("arg").Dot(pr.ArgReq).Op("=").New(jen.True())),
			jen.Id("pr").Dot(pr.PromptArgs).Op("=").Append(jen.Id("pr").Dot(pr.PromptArgs), jen.Id("arg")),
		),
		jen.If(jen.Err().Op(":=").Id("pr").Dot("Validate").Call(), jen.Err().Op("!=").Nil()).Block(
			jen.Panic(jen.Lit("mcp: prompt ").Op("+").Qual(codecPkg, "Quote").Call(jen.Id("pr").Dot(pr.PromptName)).Op("+").Lit(": ").Op("+").Err().Dot("Error").Call()),
		),
		jen.Id("get").Op(":=").Func().Params(jen.Id("ctx").Add(ctx.Clone()), jen.Id("p").Op("*").Id(pr.GetParams)).Params(jen.Op("*").Id(pr.GetResult), jen.Error()).Block(
			jen.Var().Id("in").Id("In"),
			jen.If(jen.Err().Op(":=").Id("args").Dot("Decode").Call(jen.Id("p").Dot(pr.GetName), jen.Id("p").Dot(pr.GetArgs), jen.Op("&").Id("in")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Id("h").Call(jen.Id("ctx"), jen.Id("p"), jen.Id("in"))),
		),
		jen.Id("set").Op(":=").Id("s").Dot("server").Call(),
		jen.If(jen.Op("!").Id("set").Dot("prompts").Dot("Add").Call(jen.Id("pr").Dot(pr.PromptName), jen.Id("pr"), jen.Id("get"))).Block(
			jen.Panic(jen.Lit("mcp: prompt ").Op("+").Qual(codecPkg, "Quote").Call(jen.Id("pr").Dot(pr.PromptName)).Op("+").Lit(" is added twice")),
		),
		jen.Id("set").Dot("changed").Call(jen.Id(pr.ListChangedMethod)),
	)

	e.emitRemove(f, t, "RemovePrompts", "names", "prompts", "the named prompts", pr.ListChangedMethod)
	e.emitList(f, t, "ListPrompts", pr.ListParams, pr.ListResult, pr.ListField, "prompts", "prompts", jen.Id("s").Dot("prompts").Dot("Len").Call().Op("==").Lit(0))

	f.Comment(commentText("GetPrompt answers prompts/get: it builds the prompt p names. An unknown name is\ninvalid params (-32602). Until the set holds a prompt, prompts/get and\nprompts/list are method not found."))
	f.Func().Params(jen.Id("s").Add(set.Clone())).Id("GetPrompt").Params(jen.Id("ctx").Add(ctx.Clone()), jen.Id("p").Op("*").Id(pr.GetParams)).Params(jen.Op("*").Id(pr.GetResult), jen.Error()).Block(
		jen.If(jen.Id("s").Dot("prompts").Dot("Len").Call().Op("==").Lit(0)).Block(jen.Return(jen.Id("s").Dot(serverSide(e.pkg.Protocol).Unimplemented).Dot("GetPrompt").Call(jen.Id("ctx"), jen.Id("p")))),
		jen.List(jen.Id("get"), jen.Id("ok")).Op(":=").Id("s").Dot("prompts").Dot("Func").Call(jen.Id("p").Dot(pr.GetName)),
		jen.If(jen.Op("!").Id("ok")).Block(
			jen.Return(jen.Nil(), jen.Op("&").Add(e.rt(jsonrpcPkg, "RPCError")).Values(jen.Dict{jen.Id("Code"): e.rt(jsonrpcPkg, "CodeInvalidParams"), jen.Id("Message"): jen.Lit("unknown prompt ").Op("+").Qual(codecPkg, "Quote").Call(jen.Id("p").Dot(pr.GetName))})),
		),
		jen.Return(jen.Id("get").Call(jen.Id("ctx"), jen.Id("p"))),
	)
}

// emitContentHelpers writes the content helpers the revision's types
// allow.
func (e *emitter) emitContentHelpers(f *jen.File, t *ir.ToolSupport) {
	c := t.Helpers
	if c == nil {
		return
	}
	f.Comment(commentText("Text is a text content block."))
	f.Func().Add(e.own("Text")).Params(jen.Id("text").String()).Op("*").Id(t.Text).Block(
		jen.Return(jen.Op("&").Id(t.Text).Values(jen.Dict{jen.Id(t.TextField): jen.Id("text")})),
	)
	media := func(name, typ, what string) {
		if typ == "" {
			return
		}
		name = e.pkg.Own(name)
		f.Comment(commentText(name + " is " + what + " content block of data, base64-encoded, of the MIME type."))
		f.Func().Id(name).Params(jen.Id("data").Index().Byte(), jen.Id("mimeType").String()).Op("*").Id(typ).Block(
			jen.Return(jen.Op("&").Id(typ).Values(jen.Dict{jen.Id("Data"): jen.Qual("encoding/base64", "StdEncoding").Dot("EncodeToString").Call(jen.Id("data")), jen.Id("MIMEType"): jen.Id("mimeType")})),
		)
	}
	media("Image", c.Image, "an image")
	media("Audio", c.Audio, "an audio")
	if c.Link != "" {
		f.Comment(commentText("Link is a resource link content block: the URI and name of a resource the\nclient may read."))
		f.Func().Add(e.own("Link")).Params(jen.List(jen.Id("uri"), jen.Id("name")).String()).Op("*").Id(c.Link).Block(
			jen.Return(jen.Op("&").Id(c.Link).Values(jen.Dict{jen.Id("URI"): jen.Id("uri"), jen.Id("Name"): jen.Id("name")})),
		)
	}
	if r := t.Resources; r != nil && c.Embedded != "" {
		f.Comment(commentText("EmbeddedText is an embedded resource content block with text contents."))
		f.Func().Add(e.own("EmbeddedText")).Params(jen.List(jen.Id("uri"), jen.Id("mimeType"), jen.Id("text")).String()).Op("*").Id(c.Embedded).Block(
			jen.Return(jen.Op("&").Id(c.Embedded).Values(jen.Dict{jen.Id("Resource"): e.own("TextContents").Call(jen.Id("uri"), jen.Id("mimeType"), jen.Id("text"))})),
		)
		f.Comment(commentText("EmbeddedBlob is an embedded resource content block with binary contents."))
		f.Func().Add(e.own("EmbeddedBlob")).Params(jen.List(jen.Id("uri"), jen.Id("mimeType")).String(), jen.Id("data").Index().Byte()).Op("*").Id(c.Embedded).Block(
			jen.Return(jen.Op("&").Id(c.Embedded).Values(jen.Dict{jen.Id("Resource"): e.own("BlobContents").Call(jen.Id("uri"), jen.Id("mimeType"), jen.Id("data"))})),
		)
	}
	if pr := t.Prompts; pr != nil && c.PromptMessage != "" {
		f.Comment(commentText("UserMessage is a prompt message from the user."))
		f.Func().Add(e.own("UserMessage")).Params(jen.Id("c").Id(c.PromptContent)).Id(c.PromptMessage).Block(
			jen.Return(jen.Id(c.PromptMessage).Values(jen.Dict{jen.Id("Role"): jen.Id(c.RoleUser), jen.Id("Content"): jen.Id("c")})),
		)
		f.Comment(commentText("AssistantMessage is a prompt message from the assistant."))
		f.Func().Add(e.own("AssistantMessage")).Params(jen.Id("c").Id(c.PromptContent)).Id(c.PromptMessage).Block(
			jen.Return(jen.Id(c.PromptMessage).Values(jen.Dict{jen.Id("Role"): jen.Id(c.RoleAssistant), jen.Id("Content"): jen.Id("c")})),
		)
		f.Comment(commentText("PromptResult is a prompts/get answer with the messages."))
		f.Func().Add(e.own("PromptResult")).Params(jen.Id("messages").Op("...").Id(c.PromptMessage)).Op("*").Id(pr.GetResult).Block(
			jen.Return(jen.Op("&").Id(pr.GetResult).Values(jen.Dict{jen.Id("Messages"): jen.Id("messages")})),
		)
		f.Comment(commentText(e.pkg.Own("TextPrompt") + " is a prompts/get answer of one user message with text: what a prompt function returns, as TextResult is for a tool."))
		f.Func().Add(e.own("TextPrompt")).Params(jen.Id("text").String()).Op("*").Id(pr.GetResult).Block(
			jen.Return(e.own("PromptResult").Call(e.own("UserMessage").Call(e.own("Text").Call(jen.Id("text"))))),
		)
	}
}

// emitListen writes the Server's subscriptions/listen (2026-07-28): the
// stream of the set's changes a client asks for.
func (e *emitter) emitListen(f *jen.File, t *ir.ToolSupport) {
	ctx := jen.Qual("context", "Context")
	set := jen.Op("*").Id(t.Set)
	r, pr := t.Resources, t.Prompts
	isTrue := func(field string) *jen.Statement {
		return jen.Id("req").Dot(field).Op("!=").Nil().Op("&&").Op("*").Id("req").Dot(field)
	}
	f.Comment(commentText("SubscriptionsListen answers subscriptions/listen with a stream of the set's\nchanges: it acknowledges the notifications it will send (the list changes of\ntools, prompts and resources, and the updates of the resources named that the\nset has or a template of it matches, that the client asks for; others are left out, as the acknowledgement must), then sends\neach change (ResourceUpdated, additions and removals) tagged with the\nsubscription's id, until the client closes the stream or EndSubscriptions ends\nit with a result."))
	f.Func().Params(jen.Id("s").Add(set.Clone())).Id("SubscriptionsListen").Params(jen.Id("ctx").Add(ctx.Clone()), jen.Id("p").Op("*").Id("SubscriptionsListenRequestParams")).Params(jen.Op("*").Id("SubscriptionsListenResult"), jen.Error()).Block(
		jen.Var().Id("id").Id("RequestId"),
		jen.If(jen.Err().Op(":=").Id("id").Dot("UnmarshalJSON").Call(e.rt(jsonrpcPkg, "RequestFromContext").Call(jen.Id("ctx")).Dot("ID")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("req").Op(":=").Id("p").Dot("Notifications"),
		jen.Var().Id("g").Id("SubscriptionFilter"),
		jen.If(isTrue("ToolsListChanged")).Block(jen.Id("g").Dot("ToolsListChanged").Op("=").New(jen.True())),
		jen.If(isTrue("PromptsListChanged")).Block(jen.Id("g").Dot("PromptsListChanged").Op("=").New(jen.True())),
		jen.If(isTrue("ResourcesListChanged")).Block(jen.Id("g").Dot("ResourcesListChanged").Op("=").New(jen.True())),
		jen.Id("g").Dot("ResourceSubscriptions").Op("=").Qual(protocolPkg, "KnownURIs").Call(jen.Op("&").Id("s").Dot("resources"), jen.Op("&").Id("s").Dot("templates"), jen.Id("req").Dot("ResourceSubscriptions")),
		jen.Id("want").Op(":=").Func().Params(jen.Id("c").Qual(protocolPkg, "Change")).Bool().Block(
			jen.Switch(jen.Id("c").Dot("Method")).Block(
				jen.Case(jen.Id(t.ListChangedMethod)).Block(jen.Return(jen.Id("g").Dot("ToolsListChanged").Op("!=").Nil())),
				jen.Case(jen.Id(pr.ListChangedMethod)).Block(jen.Return(jen.Id("g").Dot("PromptsListChanged").Op("!=").Nil())),
				jen.Case(jen.Id(r.ListChangedMethod)).Block(jen.Return(jen.Id("g").Dot("ResourcesListChanged").Op("!=").Nil())),
				jen.Case(jen.Id(r.UpdatedMethod)).Block(jen.Return(jen.Qual("slices", "Contains").Call(jen.Id("g").Dot("ResourceSubscriptions"), jen.Id("c").Dot("URI")))),
			),
			jen.Return(jen.False()),
		),
		jen.Id("tag").Op(":=").Op("&").Id("NotificationMetaObject").Values(jen.Dict{jen.Id("SubscriptionID"): jen.Id("id")}),
		jen.Id("note").Op(":=").Func().Params(jen.Id("c").Qual(protocolPkg, "Change")).Qual(protocolPkg, "JSONParams").Block(
			jen.If(jen.Id("c").Dot("URI").Op("!=").Lit("")).Block(
				jen.Return(jen.Op("&").Id("ResourceUpdatedNotificationParams").Values(jen.Dict{jen.Id("Meta"): jen.Id("tag"), jen.Id("URI"): jen.Id("c").Dot("URI")})),
			),
			jen.Return(jen.Op("&").Id("NotificationParams").Values(jen.Dict{jen.Id("Meta"): jen.Id("tag")})),
		),
		jen.Id("ack").Op(":=").Op("&").Id("SubscriptionsAcknowledgedNotificationParams").Values(jen.Dict{jen.Id("Meta"): jen.Id("tag"), jen.Id("Notifications"): jen.Id("g")}),
		jen.If(jen.Err().Op(":=").Qual(protocolPkg, "ServeListen").Call(jen.Id("ctx"), jen.Op("&").Id("s").Dot("changes"), jen.Id("want"), jen.Id("MethodSubscriptionsAcknowledgedNotification"), jen.Id("ack"), jen.Id("note")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err()),
		),
		jen.Return(jen.Op("&").Id("SubscriptionsListenResult").Values(jen.Dict{jen.Id("Meta"): jen.Id("SubscriptionsListenResultMetaObject").Values(jen.Dict{jen.Id("SubscriptionID"): jen.Id("id")})}), jen.Nil()),
	)
	f.Comment(commentText("EndSubscriptions ends the open subscriptions/listen streams of the set with\ntheir result (a graceful end, before the server shuts down); streams opened\nlater end at once."))
	f.Func().Params(jen.Id("s").Add(set.Clone())).Id("EndSubscriptions").Params().Block(jen.Id("s").Dot("changes").Dot("End").Call())
}
