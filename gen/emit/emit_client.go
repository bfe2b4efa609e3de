package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file emits client.go: the typed Client of a package (Connect, one
// method per request and notification a client sends, the accessors of
// what the server said when the connection started), the ClientHandler
// methods that answer the input requests of multi round-trip requests,
// and the Client's options. The transports, the version negotiation, the
// retries, the cache and the body of every method are the runtime's
// (runtime/protocol: rpc_client*.go, Request).

func (e *emitter) emitClient() *jen.File {
	p := e.pkg.Protocol
	c := p.Client
	f := newFile(e.pkg.Name)
	ctx := jen.Id("ctx").Qual("context", "Context")
	recv := jen.Id("c").Op("*").Id(c.Client)

	doc := fmt.Sprintf("%s is a connection to an MCP server, made by %s: one method per request and notification a client sends, with typed params and results. A request's params are checked against the schema before they are sent and its result when it arrives (ClientOptions.SkipRequestValidation and SkipResponseValidation turn that off); an error response comes back as an *RPCError with the server's code (the Code constants). What the server sends (notifications", c.Client, c.Connect)
	if len(c.Inputs) > 0 {
		doc += "; the input requests of multi round-trip requests"
	} else {
		doc += " and requests"
	}
	doc += ") goes to the ClientHandler given to " + c.Connect + ". A " + c.Client + " is safe for concurrent use."
	f.Comment(commentText(doc))
	f.Type().Id(c.Client).Struct(
		jen.Id("core").Op("*").Qual(protocolPkg, "ClientCore"),
		jen.Id("d").Op("*").Add(e.own("ClientDispatcher")),
		jen.Id("opts").Add(e.own("ClientOptions")),
	)

	e.emitConnect(f, p, c)

	// Accessors.
	f.Comment(commentText("ProtocolVersion returns the protocol version the client and the server agreed on."))
	f.Func().Params(recv.Clone()).Id("ProtocolVersion").Params().String().Block(jen.Return(jen.Id("c").Dot("core").Dot("ProtocolVersion").Call()))
	impl := goType(p.Implementation)
	var decodeInfo []jen.Code
	if p.Implementation.Kind == ir.TExternal {
		decodeInfo = []jen.Code{
			jen.Id("v").Op(":=").New(impl.Clone()),
			jen.If(jen.Qual(jsonPkg, "Unmarshal").Call(jen.Id("raw"), jen.Id("v")).Op("!=").Nil()).Block(jen.Return(jen.Nil())),
			jen.Return(jen.Id("v")),
		}
	} else {
		decodeInfo = []jen.Code{
			jen.Id("v").Op(":=").New(impl.Clone()),
			jen.If(jen.Id("v").Dot("UnmarshalJSON").Call(jen.Id("raw")).Op("!=").Nil()).Block(jen.Return(jen.Nil())),
			jen.Return(jen.Id("v")),
		}
	}
	f.Comment(commentText("ServerInfo returns the server's name and version as it gave them when the connection started (serverInfo), or nil when it gave none."))
	f.Func().Params(recv.Clone()).Id("ServerInfo").Params().Op("*").Add(impl.Clone()).Block(append([]jen.Code{
		jen.Id("raw").Op(":=").Qual(protocolPkg, "HelloMember").Call(jen.Id("c").Dot("core").Dot("HelloResult").Call(), jen.Lit("serverInfo")),
		jen.If(jen.Id("raw").Op("==").Nil()).Block(jen.Return(jen.Nil())),
	}, decodeInfo...)...)
	caps := p.ServerCapabilities.Name
	f.Comment(commentText("ServerCapabilities returns the capabilities the server declared when the connection started, or nil when it declared none the client can read."))
	f.Func().Params(recv.Clone()).Id("ServerCapabilities").Params().Op("*").Id(caps).Block(
		jen.Id("raw").Op(":=").Qual(protocolPkg, "HelloMember").Call(jen.Id("c").Dot("core").Dot("HelloResult").Call(), jen.Lit("capabilities")),
		jen.If(jen.Id("raw").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Id("v").Op(":=").New(jen.Id(caps)),
		jen.If(jen.Id("v").Dot("UnmarshalJSON").Call(jen.Id("raw")).Op("!=").Nil()).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Id("v")),
	)
	f.Comment(commentText("Instructions returns the instructions the server gave when the connection started, or \"\"."))
	f.Func().Params(recv.Clone()).Id("Instructions").Params().String().Block(
		jen.List(jen.Id("s"), jen.Id("_")).Op(":=").Qual(protocolPkg, "HeaderText").Call(jen.Qual(protocolPkg, "HelloMember").Call(jen.Id("c").Dot("core").Dot("HelloResult").Call(), jen.Lit("instructions"))),
		jen.Return(jen.Id("s")),
	)
	f.Comment(commentText("Close ends the connection: requests still waiting fail, and the transport closes (see its documentation). It returns nil when the server ended cleanly."))
	f.Func().Params(recv.Clone()).Id("Close").Params().Error().Block(jen.Return(jen.Id("c").Dot("core").Dot("Close").Call()))

	e.emitClientMethods(f, p, c)
	if e.pkg.MCP {
		e.emitClientListen(f, p, c)
	}
	for _, call := range c.Requests {
		e.emitClientRequest(f, p, c, call, ctx)
	}
	for _, call := range c.Notifications {
		e.emitClientNotification(f, c, call, ctx)
	}
	if c.Meta != nil {
		e.emitFillMeta(f, c)
	}
	if len(c.Inputs) > 0 {
		e.emitAnswerInput(f, c)
	}
	return f
}

// clientOlder reports whether the Client falls back to older revisions
// through the package's conversions.
func (e *emitter) clientOlder(p *ir.Protocol) bool {
	return p.Modern && len(e.pkg.Older) > 0 && e.pkg.OlderRevisions != ""
}

// emitConnect writes Connect.
func (e *emitter) emitConnect(f *jen.File, p *ir.Protocol, c *ir.ClientSupport) {
	// opts, err := protocol.OneOption("Connect", options)
	// if err != nil { return nil, err }
	body := []jen.Code{
		jen.List(jen.Id("opts"), jen.Id("err")).Op(":=").Qual(protocolPkg, "OneOption").Call(jen.Lit(c.Connect), jen.Id("options")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
	}
	if c.InfoName != "" {
		body = append(body, jen.If(jen.Id("opts").Dot("ClientInfo").Dot(c.InfoName).Op("==").Lit("")).Block(
			jen.Id("opts").Dot("ClientInfo").Dot(c.InfoName).Op("=").Lit("mcpgen-client"),
			jen.If(jen.Id("opts").Dot("ClientInfo").Dot(c.InfoVersion).Op("==").Lit("")).Block(
				jen.Id("opts").Dot("ClientInfo").Dot(c.InfoVersion).Op("=").Add(e.own("ProtocolVersion")),
			),
		))
	}
	if p.Implementation.Kind == ir.TExternal {
		body = append(body,
			jen.List(jen.Id("info"), jen.Id("err")).Op(":=").Qual(jsonPkg, "Marshal").Call(jen.Id("opts").Dot("ClientInfo")),
		)
	} else {
		body = append(body,
			jen.If(jen.Op("!").Id("opts").Dot("SkipRequestValidation")).Block(
				jen.If(jen.Id("err").Op(":=").Id("opts").Dot("ClientInfo").Dot("Validate").Call(), jen.Id("err").Op("!=").Nil()).Block(
					jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("mcp: Connect: ClientOptions.ClientInfo: %w"), jen.Id("err"))),
				),
			),
			jen.List(jen.Id("info"), jen.Id("err")).Op(":=").Id("opts").Dot("ClientInfo").Dot("AppendJSON").Call(jen.Nil()),
		)
	}
	body = append(body,
		jen.If(jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("mcp: Connect: ClientOptions.ClientInfo: %w"), jen.Id("err"))),
		),
		jen.If(jen.Op("!").Id("opts").Dot("SkipRequestValidation")).Block(
			jen.If(jen.Id("err").Op(":=").Id("opts").Dot("Capabilities").Dot("Validate").Call(), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("mcp: Connect: ClientOptions.Capabilities: %w"), jen.Id("err"))),
			),
		),
		jen.List(jen.Id("caps"), jen.Id("err")).Op(":=").Id("opts").Dot("Capabilities").Dot("AppendJSON").Call(jen.Nil()),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("mcp: Connect: ClientOptions.Capabilities: %w"), jen.Id("err"))),
		),
		jen.Id("d").Op(":=").Add(e.own("NewClientDispatcher")).Call(jen.Id("h"), jen.Id("opts")),
	)
	cfg := []jen.Code{
		jen.Id("Revision").Op(":").Add(e.own("ProtocolVersion")),
		jen.Id("Modern").Op(":").Lit(p.Modern),
		jen.Id("ClientInfo").Op(":").Id("info"),
		jen.Id("Capabilities").Op(":").Id("caps"),
		jen.Id("RequestTimeout").Op(":").Id("opts").Dot("RequestTimeout"),
		jen.Id("SkipRequestValidation").Op(":").Id("opts").Dot("SkipRequestValidation"),
		jen.Id("SkipResponseValidation").Op(":").Id("opts").Dot("SkipResponseValidation"),
		loggerValue(),
		jen.Id("Incoming").Op(":").Op("&").Id("d").Dot("rpc"),
		middlewareValue(),
	}
	if p.Modern {
		cfg = append(cfg, jen.Id("ProbeTimeout").Op(":").Id("opts").Dot("ProbeTimeout"))
	}
	if len(c.Inputs) > 0 {
		cfg = append(cfg,
			jen.Id("MaxRounds").Op(":").Id("opts").Dot("MaxInputRounds"),
			jen.Id("AnswerInput").Op(":").Id("d").Dot("answerInput"),
		)
	}
	if c.Cacheable {
		cfg = append(cfg,
			jen.Id("Cache").Op(":").Id("opts").Dot("Cache"),
			jen.Id("NoCache").Op(":").Id("opts").Dot("NoCache"),
			jen.Id("AuthContext").Op(":").Id("opts").Dot("AuthContext"),
		)
	} else {
		cfg = append(cfg, jen.Id("NoCache").Op(":").True())
	}
	older := e.clientOlder(p)
	if older {
		cfg = append(cfg, jen.Id("Older").Op(":").Id(e.pkg.OlderRevisions))
	}
	body = append(body,
		jen.List(jen.Id("core"), jen.Id("err")).Op(":=").Qual(protocolPkg, "NewClientCore").Call(jen.Id("ctx"), jen.Id("t"), jen.Qual(protocolPkg, "ClientConfig").Custom(oneALine, cfg...)),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		jen.Return(jen.Op("&").Id(c.Client).Values(
			jen.Id("core").Op(":").Id("core"),
			jen.Id("d").Op(":").Id("d"),
			jen.Id("opts").Op(":").Id("opts"),
		), jen.Nil()),
	)
	doc := c.Connect + " connects to the server that t reaches and returns a " + c.Client + " for it. h (nil: UnimplementedClientHandler{}) handles what the server sends; options, if given, is one ClientOptions (none: the zero value; more than one is an error)."
	if p.Modern && older {
		var revs []string
		for _, o := range e.pkg.Older {
			revs = append(revs, o.Revision)
		}
		doc += fmt.Sprintf(" It probes with server/discover at ProtocolVersion, as the specification says a client does (basic/versioning.mdx): a server that answers with its supported versions (or an UnsupportedProtocolVersionError that names this version) is a server of this era. Any other answer (or none within ClientOptions.ProbeTimeout) is a server of an earlier revision: the Client then opens with initialize at %s and talks the revision the server answers with (%s) through %s, the conversions of this package. Either way the methods take and return this package's types; ProtocolVersion says which revision the server speaks.", e.pkg.Older[0].Revision, strings.Join(revs, ", "), e.pkg.OlderRevisions)
	} else if p.Modern {
		doc += " It probes with server/discover at ProtocolVersion, as the specification says a client does (basic/versioning.mdx); a server that answers with its supported versions (or an UnsupportedProtocolVersionError that names this version) is a server of this era. A server that answers anything else is of an earlier revision, which this package does not talk to (generate it with --serve-older to talk to one): " + c.Connect + " returns an error that says so."
	} else {
		doc += " It opens with the initialize handshake at ProtocolVersion (ClientOptions.ClientInfo and Capabilities are what it declares) and fails when the server answers with another version; then it sends notifications/initialized."
	}
	doc += " ctx bounds the connection's start only; each request has its own context. Close the " + c.Client + " when done."
	f.Comment(commentText(doc))
	f.Func().Id(c.Connect).Params(
		jen.Id("ctx").Qual("context", "Context"), jen.Id("t").Add(e.rt(protocolPkg, "Transport")), jen.Id("h").Add(e.own("ClientHandler")), jen.Id("options").Op("...").Add(e.own("ClientOptions")),
	).Params(jen.Op("*").Id(c.Client), jen.Error()).Block(body...)
}

// emitClientRequest writes the Client's method for one request: its params
// made ready (a copy, with _meta filled), then protocol.Request with the
// method's descriptor (emitClientMethods) and what fills the members an
// earlier server may leave out.
func (e *emitter) emitClientRequest(f *jen.File, p *ir.Protocol, c *ir.ClientSupport, call *ir.ClientCall, ctx *jen.Statement) {
	m := call.Method
	recv := jen.Id("c").Op("*").Id(c.Client)
	params := []jen.Code{ctx.Clone()}
	var body []jen.Code
	arg := jen.Nil()
	if m.Params != nil {
		params = append(params, jen.Id("params").Add(paramsGoType(m)))
		var prep []jen.Code
		prep, arg = paramsCode(m, call)
		body = append(body, prep...)
	}
	var holder string
	rt := goType(m.Result)
	switch {
	case m.Result.IsStruct():
	case m.Result.Union() != nil:
		holder = m.Result.Union().Holder
		rt = jen.Id(holder)
	}
	fill := jen.Nil()
	if fl := clientFill(p, c, call); len(fl) > 0 {
		fill = jen.Func().Params(jen.Id("r").Op("*").Add(rt.Clone()), jen.Id("missing").Uint()).Block(fl...)
	}
	req := jen.Qual(protocolPkg, "Request").Index(rt.Clone()).Call(jen.Id("ctx"), jen.Id("c").Dot("core"), jen.Op("&").Id(clientMethodVar(m)), arg, fill)
	if m.Result.IsStruct() {
		body = append(body, jen.Return(req))
	} else {
		ret := jen.Op("*").Id("r")
		if holder != "" {
			ret = jen.Id("r").Dot("Value")
		}
		body = append(body,
			jen.List(jen.Id("r"), jen.Id("err")).Op(":=").Add(req),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(resultZero(m), jen.Id("err"))),
			jen.Return(ret, jen.Nil()),
		)
	}

	doc := fmt.Sprintf("%s sends the request %q ([%s]) and returns its result.", call.Name, m.Name, m.Definition.Name)
	if m.Params != nil && m.Params.IsStruct() {
		doc += " params may be nil (no members)"
		if call.Meta != nil {
			doc += "; the Client fills its _meta: the protocol version, and the clientInfo and clientCapabilities of ClientOptions unless params sets them"
		}
		doc += "."
	}
	if m.InputRequired && len(c.Inputs) > 0 {
		doc += " When the server answers with an InputRequiredResult, the Client asks the ClientHandler for each input request (" + inputHandlers(c) + ") and retries with the answers and the server's requestState, as many rounds as the server needs (ClientOptions.MaxInputRounds); the result is the final one."
	}
	if m.Cacheable {
		doc += " A fresh cached result is returned without a request, and a result whose caching hints allow it is cached (see Cache; ClientOptions.NoCache turns this off)."
	}
	if call.Listen {
		doc += " The request stays open, and the notifications it asked for reach the ClientHandler, until ctx ends (it then returns ctx's error) or the server ends the subscription."
	}
	f.Comment(commentText(doc))
	f.Func().Params(recv).Id(call.Name).Params(params...).Params(resultGoType(m), jen.Error()).Block(body...)
}

// clientDefaults are the members of call's result an earlier server may
// leave out (ClientMethod.Defaults), in the order of their bits.
func clientDefaults(p *ir.Protocol, call *ir.ClientCall) []string {
	var d []string
	if call.ResultType != nil && p.Complete != "" {
		d = append(d, spec.MemberResultType)
	}
	if call.TTL != nil {
		d = append(d, spec.MemberTTL)
	}
	if call.CacheScope != nil {
		d = append(d, spec.MemberCacheScope)
	}
	return d
}

// clientFill is the body of the function that gives a result the members
// an earlier server left out (bit i of missing: clientDefaults(call)[i]):
// resultType "complete", cacheScope "private", and a ttlMs that is
// negative or missing 0 (caching.mdx: "If ttlMs is negative, clients
// SHOULD ignore it and treat it as 0.").
func clientFill(p *ir.Protocol, c *ir.ClientSupport, call *ir.ClientCall) []jen.Code {
	var body []jen.Code
	for i, name := range clientDefaults(p, call) {
		switch name {
		case spec.MemberResultType:
			body = append(body, jen.If(jen.Id("missing").Op("&").Lit(1<<i).Op("!=").Lit(0)).Block(jen.Id("r").Dot(call.ResultType.Name).Op("=").Id(p.Complete)))
		case spec.MemberTTL:
			body = append(body, jen.If(jen.Id("r").Dot(call.TTL.Name).Op("<").Lit(0)).Block(jen.Id("r").Dot(call.TTL.Name).Op("=").Lit(0)))
		case spec.MemberCacheScope:
			body = append(body, jen.If(jen.Id("missing").Op("&").Lit(1<<i).Op("!=").Lit(0)).Block(jen.Id("r").Dot(call.CacheScope.Name).Op("=").Id(c.CacheScopePrivate)))
		}
	}
	return body
}

// clientMethodVar names the package variable that describes a request to
// the runtime (protocol.ClientMethod).
func clientMethodVar(m *ir.Method) string {
	return "client" + strings.TrimPrefix(m.Const, "Method")
}

// emitClientMethods writes the descriptors of the requests the Client
// sends.
func (e *emitter) emitClientMethods(f *jen.File, p *ir.Protocol, c *ir.ClientSupport) {
	var vars []jen.Code
	for _, call := range c.Requests {
		m := call.Method
		fields := []jen.Code{jen.Id("Name").Op(":").Id(m.Const)}
		if m.Cacheable {
			fields = append(fields, jen.Id("Cacheable").Op(":").True())
		}
		if m.InputRequired && len(c.Inputs) > 0 {
			fields = append(fields, jen.Id("InputRequired").Op(":").True())
		}
		if d := clientDefaults(p, call); len(d) > 0 {
			var lits []jen.Code
			for _, n := range d {
				lits = append(lits, jen.Lit(n))
			}
			fields = append(fields, jen.Id("Defaults").Op(":").Index().String().Values(lits...))
		}
		vars = append(vars, jen.Id(clientMethodVar(m)).Op("=").Qual(protocolPkg, "ClientMethod").Values(fields...))
	}
	f.Comment("The requests the Client sends, as the runtime needs to know them.")
	f.Var().Defs(vars...)
}

// inputHandlers names the ClientHandler methods that answer input
// requests: "Elicit, CreateMessage, ListRoots".
func inputHandlers(c *ir.ClientSupport) string {
	s := ""
	for i, in := range c.Inputs {
		if i > 0 {
			s += ", "
		}
		s += in.Handler
	}
	return s
}

// emitClientNotification writes the Client's method for one notification.
func (e *emitter) emitClientNotification(f *jen.File, c *ir.ClientSupport, call *ir.ClientCall, ctx *jen.Statement) {
	m := call.Method
	recv := jen.Id("c").Op("*").Id(c.Client)
	params := []jen.Code{ctx.Clone()}
	var body []jen.Code
	arg := jen.Nil()
	if m.Params != nil {
		params = append(params, jen.Id("params").Add(paramsGoType(m)))
		var prep []jen.Code
		prep, arg = paramsCode(m, call)
		body = append(body, prep...)
	}
	body = append(body, jen.Return(jen.Id("c").Dot("core").Dot("Notification").Call(jen.Id("ctx"), jen.Id(m.Const), arg)))
	doc := fmt.Sprintf("%s sends the notification %q ([%s]).", call.Name, m.Name, m.Definition.Name)
	if m.Params != nil && m.Params.IsStruct() {
		doc += " params may be nil (no members)."
	}
	f.Comment(commentText(doc))
	f.Func().Params(recv).Id(call.Name).Params(params...).Error().Block(body...)
}

// emitFillMeta writes the method that fills a request's _meta.
func (e *emitter) emitFillMeta(f *jen.File, c *ir.ClientSupport) {
	m := c.Meta
	body := []jen.Code{
		jen.Id("m").Dot(m.ProtocolVersion.Name).Op("=").Id("c").Dot("core").Dot("ProtocolVersion").Call(),
	}
	if m.ClientInfo != nil {
		body = append(body, jen.If(jen.Id("m").Dot(m.ClientInfo.Name).Op("==").Nil()).Block(
			jen.Id("m").Dot(m.ClientInfo.Name).Op("=").Op("&").Id("c").Dot("opts").Dot("ClientInfo"),
		))
	}
	if m.ClientCapabilities != nil && m.CapsFields != nil {
		caps := jen.Id("m").Dot(m.ClientCapabilities.Name)
		var cond *jen.Statement
		and := func(x jen.Code) {
			if cond == nil {
				cond = jen.Add(x)
			} else {
				cond = cond.Op("&&").Line().Add(x) // one test a line
			}
		}
		for _, fl := range m.CapsFields {
			and(caps.Clone().Dot(fl.Name).Op("==").Nil())
		}
		if ex := capsExtra(c); ex != "" {
			and(jen.Len(caps.Clone().Dot(ex)).Op("==").Lit(0))
		}
		body = append(body, jen.If(cond).Block(caps.Clone().Op("=").Id("c").Dot("opts").Dot("Capabilities")))
	}
	f.Comment(commentText("fillMeta fills what the Client puts in the _meta of every request: the negotiated protocol version, and the clientInfo and clientCapabilities of the options unless the caller set them."))
	f.Func().Params(jen.Id("c").Op("*").Id(c.Client)).Id("fillMeta").Params(jen.Id("m").Op("*").Id(m.Struct.Name)).Block(body...)
}

// capsExtra is the Extra field of ClientCapabilities, or "".
func capsExtra(c *ir.ClientSupport) string {
	st := c.Meta.ClientCapabilities.Type.Resolve().Decl.(*ir.Struct)
	if st.Extra != nil {
		return st.Extra.Name
	}
	return ""
}

// emitAnswerInput writes the ClientDispatcher method that answers one
// input request of a multi round-trip request with the handler.
func (e *emitter) emitAnswerInput(f *jen.File, c *ir.ClientSupport) {
	var cases []jen.Code
	for _, in := range c.Inputs {
		var stmts []jen.Code
		args := []jen.Code{jen.Id("ctx")}
		if in.Params != nil {
			pt := goType(in.Params)
			if u := in.Params.Union(); u != nil {
				pt = jen.Id(u.Holder)
			}
			stmts = append(stmts,
				jen.Var().Id("p").Add(pt),
				jen.If(jen.Id("err").Op(":=").Qual(jsonrpcPkg, "DecodeParams").Call(jen.Id("raw"), jen.Op("&").Id("p"), jen.False()), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
			)
			switch {
			case in.Params.Union() != nil:
				args = append(args, jen.Id("p").Dot("Value"))
			case in.Params.IsStruct():
				args = append(args, jen.Op("&").Id("p"))
			default:
				args = append(args, jen.Id("p"))
			}
		}
		// (The runtime fills the defaults of an elicitation: in.FillDefaults.)
		answer := jen.Return(jen.Id("b"), jen.Nil())
		stmts = append(stmts,
			jen.List(jen.Id("r"), jen.Id("err")).Op(":=").Id("d").Dot("h").Dot(in.Handler).Call(args...),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(protocolPkg, "InputError").Call(jen.Lit(in.Handler), jen.Id("err")))),
			jen.If(jen.Id("r").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(protocolPkg, "InputError").Call(jen.Lit(in.Handler), jen.Nil()))),
			jen.If(jen.Op("!").Id("d").Dot("opts").Dot("SkipResultValidation")).Block(
				jen.If(jen.Id("err").Op(":=").Id("r").Dot("Validate").Call(), jen.Id("err").Op("!=").Nil()).Block(
					jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("mcp: the result of "+in.Handler+": %w"), jen.Id("err"))),
				),
			),
			jen.List(jen.Id("b"), jen.Id("err")).Op(":=").Id("r").Dot("AppendJSON").Call(jen.Nil()),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
			answer,
		)
		cases = append(cases, jen.Case(jen.Lit(in.Method)).Block(stmts...))
	}
	f.Comment(commentText("answerInput answers one input request of an InputRequiredResult with the handler: the params and the answer as JSON."))
	f.Func().Params(jen.Id("d").Op("*").Add(e.own("ClientDispatcher"))).Id("answerInput").Params(
		jen.Id("ctx").Qual("context", "Context"), jen.Id("method").String(), jen.Id("raw").Index().Byte(),
	).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Switch(jen.Id("method")).Block(cases...),
		jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("mcp: the server asks for %q, which is not an input request of this revision"), jen.Id("method"))),
	)
}

// clientInputHandlers returns the ClientHandler methods (and their
// UnimplementedClientHandler bodies) for the input requests the revision
// does not also send as requests from server to client; emitSide adds
// them to the client's side.
func clientInputHandlers(p *ir.Protocol, s *ir.Side) (ifc, unimpl []jen.Code) {
	if p.Client == nil || s.Dir != ir.ServerToClient {
		return nil, nil
	}
	for _, in := range p.Client.Inputs {
		if in.Declared {
			continue
		}
		params := []jen.Code{jen.Id("ctx").Qual("context", "Context")}
		uparams := []jen.Code{jen.Qual("context", "Context")}
		if in.Params != nil {
			pt := goType(in.Params)
			if in.Params.IsStruct() {
				pt = jen.Op("*").Add(pt)
			}
			params = append(params, jen.Id("params").Add(pt.Clone()))
			uparams = append(uparams, pt)
		}
		doc := fmt.Sprintf("%s answers the input request %q that a server's InputRequiredResult carries (multi round-trip requests): the Client calls it and sends the result with its retry of the request.", in.Handler, in.Method)
		if in.FillDefaults {
			doc += " Members of an accepted form that the result leaves out and requestedSchema gives a default are filled with the default."
		}
		ifc = append(ifc, jen.Comment(commentText(doc)).Line().Id(in.Handler).Params(params...).Params(jen.Op("*").Id(in.Result.Name), jen.Error()))
		unimpl = append(unimpl, jen.Func().Params(jen.Id(s.Unimplemented)).Id(in.Handler).Params(uparams...).Params(jen.Op("*").Id(in.Result.Name), jen.Error()).Block(
			jen.Return(jen.Nil(), jen.Qual(jsonrpcPkg, "ErrNotImplemented")),
		))
	}
	return ifc, unimpl
}

// clientOptionFields are the fields ClientOptions gets for the Client.
func (e *emitter) clientOptionFields(p *ir.Protocol) []jen.Code {
	c := p.Client
	if c == nil {
		return nil
	}
	fields := []jen.Code{
		jen.Comment(commentText("ClientInfo names the client to the server (clientInfo). An empty name is \"mcpgen-client\".")),
		jen.Id("ClientInfo").Add(goType(p.Implementation)),
		jen.Comment(commentText("Capabilities are the capabilities the client declares: what its ClientHandler answers.")),
		jen.Id("Capabilities").Id(p.ClientCapabilities.Name),
		jen.Comment(commentText("SkipRequestValidation stops the Client from checking the params of its requests against the schema before sending them.")),
		jen.Id("SkipRequestValidation").Bool(),
		jen.Comment(commentText("SkipResponseValidation stops the Client from checking the results it receives against the schema (they are still decoded).")),
		jen.Id("SkipResponseValidation").Bool(),
	}
	if p.Modern {
		fields = append(fields,
			jen.Comment(commentText("ProbeTimeout bounds the server/discover request that starts a connection: a server of an earlier revision may not answer it at all. 0 means 10 seconds.")),
			jen.Id("ProbeTimeout").Qual("time", "Duration"),
		)
	}
	if len(c.Inputs) > 0 {
		fields = append(fields,
			jen.Comment(commentText("MaxInputRounds bounds how many times the Client retries one request a server answers with an InputRequiredResult. 0 means 10.")),
			jen.Id("MaxInputRounds").Int(),
		)
	}
	if c.Cacheable {
		fields = append(fields,
			jen.Comment(commentText("Cache keeps the results the server marks cacheable (see Cache); Clients may share one. nil means a cache of the Client's own.")),
			jen.Id("Cache").Op("*").Add(e.rt(protocolPkg, "Cache")),
			jen.Comment(commentText("NoCache turns the cache off: every request goes to the server.")),
			jen.Id("NoCache").Bool(),
			jen.Comment(commentText("AuthContext names the authorization context of the Client's requests (such as the user a token belongs to): cached results whose cacheScope is private are shared only by Clients with the same one. Empty means the HTTPTransport's Authorization header, or else a context of the Client's own.")),
			jen.Id("AuthContext").String(),
		)
	}
	return fields
}

// paramsCode makes p, what the runtime sends as the method's params, from
// the Client method's params argument: a copy of a struct (with its _meta
// filled), or a holder of the union, or the value itself. It returns the
// statements and the argument (&p) to pass on.
func paramsCode(m *ir.Method, call *ir.ClientCall) ([]jen.Code, *jen.Statement) {
	var body []jen.Code
	switch {
	case m.Params.IsStruct():
		body = append(body,
			jen.Var().Id("p").Add(goType(m.Params)),
			jen.If(jen.Id("params").Op("!=").Nil()).Block(jen.Id("p").Op("=").Op("*").Id("params")),
		)
		if call.Meta != nil {
			body = append(body, jen.Id("c").Dot("fillMeta").Call(jen.Op("&").Id("p").Dot(call.Meta.Name)))
		}
	case m.Params.Union() != nil:
		body = append(body, jen.Id("p").Op(":=").Add(holderOf(m.Params.Union(), jen.Id("params"))))
	default:
		body = append(body, jen.Id("p").Op(":=").Id("params"))
	}
	return body, jen.Op("&").Id("p")
}

// emitClientListen writes Client.Listen: the server's list changes and
// resource updates, the same way whatever the revision the connection
// speaks (runtime/protocol: ClientCore.Listen).
func (e *emitter) emitClientListen(f *jen.File, p *ir.Protocol, c *ir.ClientSupport) {
	var listen *ir.ClientCall
	for _, call := range c.Requests {
		if call.Listen {
			listen = call
		}
	}
	modern := listen != nil && p.Tools != nil && p.Tools.Listen
	doc := "Listen calls on with each change the server announces that s asks for: a list that changed (notifications/tools/list_changed, .../prompts/list_changed, .../resources/list_changed) or a resource that was updated (notifications/resources/updated, with its URI), in the order the server sent them, on the goroutine that handles the server's notifications (the ClientHandler's On methods are called too, first). It returns when ctx ends (ctx's error), when the server ends the subscription (nil), or when the connection ends; s.Ready, if set, is called once no change can be missed.\n\nIt works alike whatever revision the connection speaks: "
	if modern {
		doc += "with a 2026-07-28 server it sends subscriptions/listen with s as its filter and stays open while the server sends; "
	}
	rest := "it sends resources/subscribe for each of s.ResourceSubscriptions, and resources/unsubscribe when it returns, and the list_changed notifications come unasked (a server sends those of the lists whose capability says listChanged). Give on quick work, or hand the change to a goroutine of your own: the notifications after it wait."
	if modern {
		doc += "with a server of a revision with the initialize handshake (" + c.Connect + " falls back to one) " + rest
	} else {
		doc = strings.TrimSuffix(doc, "It works alike whatever revision the connection speaks: ") + "In this revision " + rest
	}
	var fn jen.Code = jen.Nil()
	if modern {
		isTrue := func(field string) jen.Code {
			return jen.If(jen.Id("s").Dot(field)).Block(jen.Id("filter").Dot(field).Op("=").New(jen.True()))
		}
		fn = jen.Func().Params(jen.Id("ctx").Qual("context", "Context")).Error().Block(
			jen.Id("filter").Op(":=").Id("SubscriptionFilter").Values(jen.Dict{jen.Id("ResourceSubscriptions"): jen.Id("s").Dot("ResourceSubscriptions")}),
			isTrue("ToolsListChanged"),
			isTrue("PromptsListChanged"),
			isTrue("ResourcesListChanged"),
			jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("c").Dot(listen.Name).Call(jen.Id("ctx"), jen.Op("&").Id("SubscriptionsListenRequestParams").Values(jen.Dict{jen.Id("Notifications"): jen.Id("filter")})),
			jen.Return(jen.Err()),
		)
	}
	f.Comment(commentText(doc))
	f.Func().Params(jen.Id("c").Op("*").Id(c.Client)).Id("Listen").Params(
		jen.Id("ctx").Qual("context", "Context"), jen.Id("s").Add(e.rt(protocolPkg, "Subscription")), jen.Id("on").Func().Params(e.rt(protocolPkg, "Change")),
	).Error().Block(
		jen.Return(jen.Id("c").Dot("core").Dot("Listen").Call(jen.Id("ctx"), jen.Id("s"), jen.Id("on"), fn)),
	)
}
