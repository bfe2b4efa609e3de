package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file emits dispatch.go: the method table, handler interfaces, the
// Unimplemented handlers, and the dispatchers that route JSON-RPC
// messages to typed handlers (docs/serving.md).

func (e *emitter) emitProtocol() *jen.File {
	p := e.pkg.Protocol
	f := newFile(e.pkg.Name)
	e.emitMethodConsts(f, p)
	if len(p.ErrorCodes) > 0 {
		var defs []jen.Code
		for _, c := range p.ErrorCodes {
			defs = append(defs, jen.Comment(commentText(c.Doc)).Line().Id(c.Name).Op("=").Lit(int(c.Code)))
		}
		f.Comment(commentText("The error codes the specification defines beyond JSON-RPC's (CodeParseError,\nCodeInvalidRequest, CodeMethodNotFound, CodeInvalidParams, CodeInternalError)."))
		f.Const().Defs(defs...)
	}
	e.emitMethodTable(f, p)
	for _, s := range p.Sides {
		var ms []*ir.Method
		for _, m := range p.Methods {
			if m.Direction == s.Dir {
				ms = append(ms, m)
			}
		}
		if len(ms) > 0 {
			e.emitSide(f, p, s, ms)
		}
	}
	if p.Modern {
		e.emitModern(f, p)
	}
	return f
}

func directionText(d ir.Direction) string {
	if d == ir.ClientToServer {
		return "client to server"
	}
	return "server to client"
}

func (e *emitter) emitMethodConsts(f *jen.File, p *ir.Protocol) {
	seen := map[string]bool{}
	var defs []jen.Code
	for _, m := range p.Methods {
		if seen[m.Const] {
			continue
		}
		seen[m.Const] = true
		kind := "request"
		if m.Notification {
			kind = "notification"
		}
		var dirs []string
		for _, o := range p.Methods {
			if o.Name == m.Name {
				dirs = append(dirs, directionText(o.Direction))
			}
		}
		doc := fmt.Sprintf("%s is the %s %q ([%s]), %s.", m.Const, kind, m.Name, m.Definition.Name, strings.Join(dirs, " and "))
		defs = append(defs, jen.Comment(commentText(doc)).Line().Id(m.Const).Op("=").Lit(m.Name))
	}
	f.Comment(commentText("The JSON-RPC methods of the protocol."))
	f.Const().Defs(defs...)
}

// paramsGoType is the Go type of a method's params.
func paramsGoType(m *ir.Method) *jen.Statement {
	if m.Params.IsStruct() {
		return jen.Op("*").Add(goType(m.Params))
	}
	return goType(m.Params)
}

func resultGoType(m *ir.Method) *jen.Statement {
	if m.Result.IsStruct() {
		return jen.Op("*").Add(goType(m.Result))
	}
	return goType(m.Result)
}

// resultZero is the zero value of a method's result type in Go: nil for
// a pointer, an interface or raw JSON; the literal of a struct, string,
// number or boolean type otherwise (a union of scalars, an enum).
func resultZero(m *ir.Method) *jen.Statement {
	t := m.Result.Resolve()
	if t.IsStruct() || t.Union() != nil {
		return jen.Nil()
	}
	for t.Kind == ir.TDecl {
		switch d := t.Decl.(type) {
		case *ir.Kinds, *ir.Tuple, *ir.Struct:
			// A value, not a pointer: a multi-kind value, a tuple, or a
			// named type over a struct.
			return goType(m.Result).Values()
		case *ir.Enum:
			if d.Base == ir.KInt {
				return jen.Lit(0)
			}
			return jen.Lit("")
		case *ir.Named:
			t = d.Type.Resolve()
			continue
		}
		return jen.Nil()
	}
	switch t.Kind {
	case ir.TString:
		return jen.Lit("")
	case ir.TInt, ir.TFloat:
		return jen.Lit(0)
	case ir.TBool:
		return jen.False()
	}
	return jen.Nil()
}

// emptyResult is an empty result of m's result type: a new struct, or
// the JSON {} for a result kept as raw JSON.
func emptyResult(m *ir.Method) *jen.Statement {
	t := m.Result.Resolve()
	if t.IsStruct() {
		return jen.New(goType(t))
	}
	return goType(m.Result).Call(jen.Lit("{}"))
}

func (e *emitter) emitMethodTable(f *jen.File, p *ir.Protocol) {
	f.Comment(commentText("MethodInfo describes one method of the protocol in one direction."))
	f.Type().Id(p.Names.MethodInfo).Struct(
		jen.Id("Name").String(),
		jen.Comment("Notification is set for notifications; requests have a result."),
		jen.Id("Notification").Bool(),
		jen.Comment("FromClient is set for what clients send to servers, unset for what servers send to clients."),
		jen.Id("FromClient").Bool(),
		jen.Comment("Cacheable is set when the result carries caching hints (ttlMs, cacheScope)."),
		jen.Id("Cacheable").Bool(),
		jen.Comment("InputRequired is set when the request may be answered with an InputRequiredResult."),
		jen.Id("InputRequired").Bool(),
		jen.Comment("NewParams returns a new params value; nil when the method has no params."),
		jen.Id("NewParams").Func().Params().Add(e.own("Value")),
		jen.Comment("NewResult returns a new result value; nil for notifications."),
		jen.Id("NewResult").Func().Params().Add(e.own("Value")),
	)
	var entries []jen.Code
	for _, m := range p.Methods {
		fields := []jen.Code{jen.Id("Name").Op(":").Id(m.Const)}
		if m.Notification {
			fields = append(fields, jen.Id("Notification").Op(":").True())
		}
		if m.Direction == ir.ClientToServer {
			fields = append(fields, jen.Id("FromClient").Op(":").True())
		}
		if m.Cacheable {
			fields = append(fields, jen.Id("Cacheable").Op(":").True())
		}
		if m.InputRequired {
			fields = append(fields, jen.Id("InputRequired").Op(":").True())
		}
		if m.Params != nil {
			fields = append(fields, jen.Id("NewParams").Op(":").Func().Params().Add(e.own("Value")).Block(jen.Return(newValue(m.Params))))
		}
		if m.Result != nil {
			fields = append(fields, jen.Id("NewResult").Op(":").Func().Params().Add(e.own("Value")).Block(jen.Return(newValue(m.Result))))
		}
		entries = append(entries, jen.Values(fields...))
	}
	f.Comment(commentText("Methods lists the methods of the protocol, one entry per method and direction."))
	f.Var().Id(p.Names.Methods).Op("=").Index().Id(p.Names.MethodInfo).ValuesFunc(func(g *jen.Group) {
		for _, en := range entries {
			g.Line().Add(en)
		}
		g.Line()
	})

	// DecodeResult
	var cases []jen.Code
	seen := map[string]bool{}
	for _, m := range p.Methods {
		if m.Notification || seen[m.Name] {
			continue
		}
		seen[m.Name] = true
		var body []jen.Code
		if p.Modern {
			// resultType picks InputRequiredResult, or rejects a value the
			// client does not know.
			ir := jen.Id("_")
			if m.InputRequired && p.InputRequired != nil {
				ir = jen.Id("ir")
			}
			body = append(body, jen.List(ir, jen.Id("err")).Op(":=").Qual(protocolPkg, "ResultKind").Call(jen.Id("result"), jen.Lit(m.InputRequired && p.InputRequired != nil)),
				jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))))
			if m.InputRequired && p.InputRequired != nil {
				body = append(body, jen.If(jen.Id("ir")).Block(
					jen.Id("v").Op(":=").New(jen.Id(p.InputRequired.Name)),
					jen.Return(jen.Id("v"), jen.Id("v").Dot("UnmarshalJSON").Call(jen.Id("result"))),
				))
			}
		}
		st, _ := m.Result.Resolve().Decl.(*ir.Struct)
		if r := resultOf(p, st); p.Modern && r != nil && r.ResultType != nil {
			if fl := r.ResultType; p.Complete != "" {
				// A result without resultType comes from a server of an
				// earlier revision: it is complete.
				body = append(body,
					jen.Id("v").Op(":=").New(goType(m.Result.Resolve())),
					jen.Id("err").Op("=").Id("v").Dot("UnmarshalJSON").Call(jen.Id("result")), // err is resultKind's
					jen.If(jen.Qual(protocolPkg, "OnlyMissing").Call(jen.Id("err"), jen.Lit(fl.JSONName))).Block(
						jen.List(jen.Id("v").Dot(fl.Name), jen.Id("err")).Op("=").List(jen.Id(p.Complete), jen.Nil()),
					),
					jen.Return(jen.Id("v"), jen.Id("err")),
				)
				cases = append(cases, jen.Case(jen.Id(m.Const)).Block(body...))
				continue
			}
		}
		body = append(body,
			jen.Id("v").Op(":=").Add(newValue(m.Result)),
			jen.Return(jen.Id("v"), jen.Id("v").Dot("UnmarshalJSON").Call(jen.Id("result"))),
		)
		cases = append(cases, jen.Case(jen.Id(m.Const)).Block(body...))
	}
	doc := "DecodeResult decodes the result member of a response to a request of method."
	if p.Modern && p.InputRequired != nil {
		doc += "\nFor a method that may need more input, a result whose resultType is \"input_required\"\ncomes back as *" +
			p.InputRequired.Name + "; a missing resultType counts as \"complete\" (a server of an\nearlier revision; the decoded result says \"complete\"), and any other resultType\nis an error."
	}
	f.Comment(commentText(doc))
	f.Func().Id(p.Names.DecodeResult).Params(jen.Id("method").String(), jen.Id("result").Index().Byte()).Params(e.own("Value"), jen.Error()).Block(
		jen.Switch(jen.Id("method")).Block(cases...),
		jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("mcp: %q is not a request method of this revision"), jen.Id("method"))),
	)
}

// emitSide writes the handler interface, its Unimplemented base, the
// options and the dispatcher of one direction.
func (e *emitter) emitSide(f *jen.File, p *ir.Protocol, s *ir.Side, ms []*ir.Method) {
	ctx := jen.Id("ctx").Qual("context", "Context")
	// The handler interface.
	var ifc []jen.Code
	var unimpl []jen.Code
	for _, m := range ms {
		params := []jen.Code{ctx.Clone()}
		uparams := []jen.Code{jen.Qual("context", "Context")}
		if m.Params != nil {
			params = append(params, jen.Id("params").Add(paramsGoType(m)))
			uparams = append(uparams, paramsGoType(m))
		}
		var doc string
		if m.Notification {
			doc = fmt.Sprintf("%s handles the notification %q ([%s]). An error is only logged: notifications have no response.", m.Handler, m.Name, m.Definition.Name)
			ifc = append(ifc, jen.Comment(commentText(doc)).Line().Id(m.Handler).Params(params...).Error())
			unimpl = append(unimpl, jen.Func().Params(jen.Id(s.Unimplemented)).Id(m.Handler).Params(uparams...).Error().Block(jen.Return(jen.Nil())))
			continue
		}
		doc = fmt.Sprintf("%s handles the request %q ([%s]).", m.Handler, m.Name, m.Definition.Name)
		switch m.Default {
		case "":
		case ir.DefaultSession:
			doc += " " + sessionMethodDoc(s.Dispatcher, m.Name)
		default:
			doc += fmt.Sprintf(" The %s answers it from its options when the handler does not implement it.", s.Dispatcher)
		}
		if m.InputRequired {
			doc += " It may return NeedInput(...) to ask the client for more input."
		}
		ifc = append(ifc, jen.Comment(commentText(doc)).Line().Id(m.Handler).Params(params...).Params(resultGoType(m), jen.Error()))
		unimpl = append(unimpl, jen.Func().Params(jen.Id(s.Unimplemented)).Id(m.Handler).Params(uparams...).Params(resultGoType(m), jen.Error()).Block(
			jen.Return(resultZero(m), jen.Qual(jsonrpcPkg, "ErrNotImplemented")),
		))
	}
	inIfc, inUnimpl := clientInputHandlers(p, s)
	ifc, unimpl = append(ifc, inIfc...), append(unimpl, inUnimpl...)
	must := "mustEmbed" + s.Unimplemented
	ifc = append(ifc, jen.Id(must).Params())
	f.Comment(commentText(fmt.Sprintf("%s handles what a %s sends to a %s. Implementations must embed %s,\nso that a method a new revision adds does not break them.", s.Handler, s.Sender, s.Receiver, s.Unimplemented)))
	f.Type().Id(s.Handler).Interface(ifc...)
	f.Comment(commentText(fmt.Sprintf("%s answers every request with method not found (or the %s's default\nanswer, for the methods that have one) and ignores every notification. Embed it in a %s.", s.Unimplemented, s.Dispatcher, s.Handler)))
	f.Type().Id(s.Unimplemented).Struct()
	for _, u := range unimpl {
		f.Add(u)
	}
	f.Func().Params(jen.Id(s.Unimplemented)).Id(must).Params().Block()

	e.emitOptions(f, p, s)
	e.emitDispatcher(f, p, s, ms)
}

func (e *emitter) emitOptions(f *jen.File, p *ir.Protocol, s *ir.Side) {
	var fields []jen.Code
	if s.Dir == ir.ClientToServer {
		if p.Implementation != nil {
			fields = append(fields, jen.Comment(commentText("ServerInfo names the server (serverInfo).")))
			fields = append(fields, jen.Id("ServerInfo").Add(goType(p.Implementation)))
		}
		if p.ServerCapabilities != nil {
			fields = append(fields, jen.Comment(commentText("Capabilities are the server's capabilities, as default answers report them.")))
			fields = append(fields, jen.Id("Capabilities").Id(p.ServerCapabilities.Name))
		}
		fields = append(fields,
			jen.Comment(commentText("Instructions, if set, tell clients how to use the server.")),
			jen.Id("Instructions").String(),
			jen.Comment(commentText("SupportedVersions lists the protocol versions the server accepts, preferred\nfirst; empty means []string{ProtocolVersion}.")),
			jen.Id("SupportedVersions").Index().String(),
		)
		if p.Modern {
			fields = append(fields,
				jen.Comment(commentText("DiscoverTTL is the ttlMs of the default server/discover answer.")),
				jen.Id("DiscoverTTL").Qual("time", "Duration"),
			)
			if p.CacheScope != nil {
				fields = append(fields,
					jen.Comment(commentText("DiscoverCacheScope is the cacheScope of the default server/discover answer;\nempty means public.")),
					jen.Id("DiscoverCacheScope").Id(p.CacheScope.Name),
				)
			}
			fields = append(fields,
				jen.Comment(commentText("OmitServerInfo stops the dispatcher from adding ServerInfo to every result's\n_meta (io.modelcontextprotocol/serverInfo).")),
				jen.Id("OmitServerInfo").Bool(),
			)
			if e.serveOlder(p) {
				fields = append(fields,
					jen.Comment(commentText("OnlyThisRevision stops the dispatcher from serving the clients of\n"+e.pkg.OlderRevisions+" (the initialize era) through the conversions:\nServe and NewHTTPHandler then serve this revision's clients only, and a\nlegacy initialize gets UnsupportedProtocolVersionError naming the\nsupported versions.")),
					jen.Id("OnlyThisRevision").Bool(),
				)
			}
		}
		if sealsState(p, s, p.Methods) {
			fields = append(fields,
				jen.Comment(commentText("RequestStateKeys are the HMAC-SHA256 keys that protect the requestState of\nmulti round-trip requests (NeedInput): the dispatcher hands out the handler's\nrequestState inside a token bound to the request, the principal and an expiry,\nand refuses a retry whose token it cannot verify with invalid params (-32602).\nThe first key signs; every key verifies (list a new key first to rotate).\nReplicas that serve the same clients need the same keys. Each key needs at\nleast 16 bytes (32 random bytes are best). Empty means a random key per\nprocess: only this process accepts its states.")),
				jen.Id("RequestStateKeys").Index().Index().Byte(),
				jen.Comment(commentText("RequestStateTTL is how long a requestState stays valid; zero means 10 minutes.")),
				jen.Id("RequestStateTTL").Qual("time", "Duration"),
				jen.Comment(commentText("Principal, if set, names the authenticated principal a request comes from\n(read from its context, such as HTTPRequestFromContext's headers); a\nrequestState is accepted only from the principal it was issued to.")),
				jen.Id("Principal").Func().Params(jen.Qual("context", "Context")).String(),
			)
		}
		fields = append(fields,
			jen.Comment(commentText("ExtensionMethods serve request methods this revision's schema does not\ndefine, such as an extension's, by name. A name the revision defines is a\nprogramming error: the constructor panics.")),
			jen.Id("ExtensionMethods").Map(jen.String()).Add(e.rt(jsonrpcPkg, "ExtensionMethod")),
		)
		fields = append(fields, e.tasksOption(p, s)...)
	}
	// The reader of a client package meets these options as Connect's:
	// their comments speak of the Client and its ClientHandler.
	client := s.Dir == ir.ServerToClient && p.Client != nil
	skipDoc, logDoc := "SkipResultValidation stops the dispatcher from checking handler results\nagainst the schema before sending them. A result that breaks the schema is\notherwise answered with an internal error, not sent.", loggerDoc(e.pkg.MCP)
	if client {
		skipDoc = "SkipResultValidation stops the Client from checking its ClientHandler's\nanswers to the server's requests against the schema before sending them. An\nanswer that breaks the schema is otherwise not sent: the server gets an\ninternal error instead."
		if len(p.Client.Inputs) > 0 {
			skipDoc = "SkipResultValidation stops the Client from checking its ClientHandler's\nanswers (to the input requests of multi round-trip requests, and to the\nrequests of a server of an older revision) against the schema before sending\nthem. An answer that breaks the schema is otherwise not sent: the request that\nneeded it fails, or the older server gets an internal error."
		}
		logDoc = "Logger, if set, receives what goes wrong outside a response: a ClientHandler\nmethod that panics (Error); messages from the server no request could take,\ndropped notifications, failed writes (Warn). Nothing is logged per request at\nInfo; log requests with a Middleware."
	}
	fields = append(fields,
		jen.Comment(commentText(skipDoc)),
		jen.Id("SkipResultValidation").Bool(),
		jen.Comment(commentText(logDoc)),
		jen.Id("Logger").Op("*").Qual("log/slog", "Logger"),
	)
	if e.pkg.MCP {
		fields = append(fields, e.middlewareOptionField(s.Dir == ir.ClientToServer))
	}
	if client {
		fields = append(fields, clientServeOptionFields()...)
	} else {
		fields = append(fields, serveOptionFields(e.pkg.MCP)...)
	}
	if client {
		which := "each request the Client sends"
		for _, call := range p.Client.Requests {
			if call.Listen {
				which += " (not subscriptions/listen, which stays open until its context ends)"
			}
		}
		fields = append(fields,
			jen.Comment(commentText("RequestTimeout bounds how long "+which+" waits for its response; then\nnotifications/cancelled tells the server, and the call fails with an error\nwrapping context.DeadlineExceeded. A shorter deadline of the call's context\nwins. 0 means 5 minutes; a negative value, no limit but the context's.")),
			jen.Id("RequestTimeout").Qual("time", "Duration"),
		)
	} else {
		fields = append(fields, sessionOptionFields(s.Dir == ir.ClientToServer)...)
	}
	if s.Dir == ir.ServerToClient {
		fields = append(fields, e.clientOptionFields(p)...)
		fields = append(fields, typedOptionFields(p)...)
	}
	doc := fmt.Sprintf("%s configure a %s.", s.Options, s.Dispatcher)
	if s.Dir == ir.ServerToClient && p.Client != nil {
		// The reader of a client package meets ClientOptions as Connect's
		// last argument, not as a dispatcher's.
		doc = fmt.Sprintf("%s configure a %s: the optional last argument of %s (what the client says it is and declares, timeouts, validation), and the %s that hands what the server sends to the ClientHandler. The zero value is the defaults.", s.Options, p.Client.Client, p.Client.Connect, s.Dispatcher)
	}
	f.Comment(commentText(doc))
	f.Type().Id(s.Options).Struct(fields...)
}

func (e *emitter) emitDispatcher(f *jen.File, p *ir.Protocol, s *ir.Side, ms []*ir.Method) {
	recv := jen.Id("d").Op("*").Id(s.Dispatcher)
	f.Comment(commentText(fmt.Sprintf("%s routes the JSON-RPC messages a %s sends to a %s, checking params\nagainst the schema and mapping failures to the JSON-RPC error codes.", s.Dispatcher, s.Sender, s.Handler)))
	// An MCP package's dispatcher is a protocol.Core (the JSON-RPC engine
	// and MCP's sessions, eras, tasks); another protocol's the engine alone.
	mcp := e.pkg.MCP
	engine := jen.Qual(jsonrpcPkg, "Dispatcher")
	if mcp {
		engine = jen.Qual(protocolPkg, "Core")
	}
	f.Type().Id(s.Dispatcher).Struct(
		jen.Id("h").Id(s.Handler),
		jen.Id("opts").Id(s.Options),
		jen.Id("rpc").Add(engine.Clone()),
	)
	var table []jen.Code
	hasInitialize := false
	for _, m := range ms {
		entry := []jen.Code{jen.Id("Call").Op(":").Id("d").Dot(callName(m))}
		if m.Notification {
			entry = append([]jen.Code{jen.Id("Notification").Op(":").True()}, entry...)
		}
		table = append(table, jen.Id(m.Const).Op(":").Values(entry...))
		hasInitialize = hasInitialize || m.Name == spec.MethodInitialize
	}
	rejectInit := p.Modern && s.Dir == ir.ClientToServer && !hasInitialize
	if rejectInit {
		// A legacy client opens with initialize: name the versions this
		// server speaks (basic/versioning: backward compatibility).
		table = append(table, jen.Lit(spec.MethodInitialize).Op(":").Values(jen.Id("Call").Op(":").Id("d").Dot("rejectInitialize")))
	}
	// A nil handler is the Unimplemented one.
	body := []jen.Code{jen.If(jen.Id("h").Op("==").Nil()).Block(jen.Id("h").Op("=").Id(s.Unimplemented).Values())}
	if s.Dir == ir.ClientToServer && p.Tools != nil && p.Tools.Capability != "" {
		body = append(body, jen.Id("declareTools").Call(jen.Id("h"), jen.Op("&").Id("opts")))
	}
	if s.Dir == ir.ClientToServer {
		body = append(body, jen.If(jen.Len(jen.Id("opts").Dot("SupportedVersions")).Op("==").Lit(0)).Block(
			jen.Id("opts").Dot("SupportedVersions").Op("=").Index().String().Values(e.own("ProtocolVersion")),
		))
		if p.Modern && p.DefaultCacheScope != "" {
			body = append(body, jen.If(jen.Id("opts").Dot("DiscoverCacheScope").Op("==").Lit("")).Block(
				jen.Id("opts").Dot("DiscoverCacheScope").Op("=").Id(p.DefaultCacheScope),
			))
		}
	}
	engineFields := []jen.Code{
		jen.Id("Batches").Op(":").Lit(p.Batches),
		jen.Id("OmitUnknownID").Op(":").Lit(p.ErrorIDOptional),
		loggerValue(),
		serveLimitsValue(),
		jen.Id("Methods").Op(":").Map(jen.String()).Op("*").Qual(jsonrpcPkg, "Method").Custom(oneALine, table...),
	}
	fields := engineFields
	if mcp {
		fields = []jen.Code{jen.Id("Dispatcher").Op(":").Qual(jsonrpcPkg, "Dispatcher").Custom(oneALine, engineFields...)}
	}
	if mcp {
		fields = append(fields, middlewareValue())
	}
	if mcp && s.Dir == ir.ClientToServer {
		fields = append(fields,
			jen.Id("Modern").Op(":").Lit(p.Modern),
			jen.Id("Versions").Op(":").Id("opts").Dot("SupportedVersions"),
		)
	}
	seal := sealsState(p, s, ms)
	var kinds []*ir.InputKind
	if seal {
		kinds = p.InputKinds
		fields = append(fields, jen.Id("State").Op(":").Qual(protocolPkg, "NewStateSealer").Call(
			jen.Id("opts").Dot("RequestStateKeys"), jen.Id("opts").Dot("RequestStateTTL"), jen.Id("opts").Dot("Principal")))
	}
	body = append(body, e.tasksDefaults(p, s)...)
	body = append(body,
		jen.Id("d").Op(":=").Op("&").Id(s.Dispatcher).Values(jen.Id("h").Op(":").Id("h"), jen.Id("opts").Op(":").Id("opts")),
		jen.Id("d").Dot("rpc").Op("=").Add(engine.Clone()).Custom(oneALine, fields...),
	)
	if mcp {
		body = append(body, jen.Id("d").Dot("rpc").Dot("Init").Call())
	}
	if len(kinds) > 0 {
		body = append(body, jen.Id("d").Dot("rpc").Dot("CheckInput").Op("=").Id("d").Dot("checkInputResponse"))
	}
	if s.Dir == ir.ClientToServer {
		if mcp {
			body = append(body, jen.Id("d").Dot("rpc").Dot("AddExtensions").Call(jen.Id("opts").Dot("ExtensionMethods")))
		} else {
			body = append(body, jen.Id("d").Dot("rpc").Dot("AddExtensions").Call(jen.Id("opts").Dot("ExtensionMethods"), jen.Nil()))
		}
		body = append(body, tasksAttach(p, s)...)
		if e.serveOlder(p) {
			body = append(body, jen.If(jen.Op("!").Id("opts").Dot("OnlyThisRevision")).Block(jen.Id("d").Dot("rpc").Dot("Older").Op("=").Qual(protocolPkg, "NewOlderFront").Call(jen.Op("&").Id("d").Dot("rpc"), jen.Qual(protocolPkg, "OlderServe").Custom(oneALine,
				jen.Id("Version").Op(":").Add(e.own("ProtocolVersion")),
				jen.Id("Olders").Op(":").Id(e.pkg.OlderRevisions),
				jen.Id("Capabilities").Op(":").Op("&").Id("d").Dot("opts").Dot("Capabilities"),
				jen.Id("ServerInfo").Op(":").Op("&").Id("d").Dot("opts").Dot("ServerInfo"),
				jen.Id("Instructions").Op(":").Id("d").Dot("opts").Dot("Instructions"),
			))))
		}
	}
	if s.Dir == ir.ClientToServer && p.Tools != nil && mcp {
		body = append(body, jen.Id("attachServer").Call(jen.Id("d")))
	}
	body = append(body, jen.Return(jen.Id("d")))
	f.Comment(commentText(fmt.Sprintf("%s returns a dispatcher for h; a nil h is %s{}.", s.Constructor, s.Unimplemented)))
	f.Func().Id(s.Constructor).Params(jen.Id("h").Id(s.Handler), jen.Id("opts").Id(s.Options)).Op("*").Id(s.Dispatcher).Block(body...)

	f.Comment(commentText("Handle answers one JSON-RPC message (or batch, where the revision has them):\nit returns the response to send, or nil when there is none (a notification)."))
	f.Func().Params(recv.Clone()).Id("Handle").Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("msg").Index().Byte()).Index().Byte().Block(
		jen.Return(jen.Id("d").Dot("rpc").Dot("Handle").Call(jen.Id("ctx"), jen.Id("msg"))),
	)
	serveDoc := "Serve reads newline-delimited messages from r (the MCP stdio transport),\nanswers requests concurrently and writes responses to w, one per line, until r\nends or ctx is done, and returns nil then (or the error of reading r). Several\nmessages on one line ({...}{...}) are answered each. A notifications/cancelled\nmessage cancels the context of the request it names (matching the id by value:\n100 and 1e2 are the same id), after which nothing about it is written, its\nresponse included; a request whose id is already in progress is refused with\nCodeInvalidRequest. Notifications are handled in order, one at a time, apart\nfrom requests. Responses to the requests sent to the peer (SendRequest) go to\nthe callers waiting for them. The options MaxInFlight and MaxBufferedBytes\nbound the work and memory of one connection (past them Serve stops reading),\nand ShutdownGrace bounds how long Serve waits, at the end, for handlers whose\ncontexts it has cancelled."
	if s.Dir == ir.ClientToServer && e.serveOlder(p) {
		serveDoc += "\n\nThe same connection serves a client of " + e.pkg.OlderRevisions + " (the initialize era): an initialize without this revision's per-request _meta opens that client's session, and its later requests go through the conversions to d's handlers (see mcpgen's docs/revisions.md)."
	}
	f.Comment(commentText(serveDoc))
	f.Func().Params(recv.Clone()).Id("Serve").Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("r").Qual("io", "Reader"), jen.Id("w").Qual("io", "Writer")).Error().Block(
		jen.Return(jen.Id("d").Dot("rpc").Dot("Serve").Call(jen.Id("ctx"), jen.Id("r"), jen.Id("w"))),
	)
	f.Comment(commentText("ServeStream is Serve over a stream of messages of one's own (an in-process\npipe, a WebSocket, a test double): it reads messages from s until s ends or\nctx is done, and writes the responses to s. It does not close s."))
	f.Func().Params(recv.Clone()).Id("ServeStream").Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("s").Qual(jsonrpcPkg, "Stream")).Error().Block(
		jen.Return(jen.Id("d").Dot("rpc").Dot("ServeStream").Call(jen.Id("ctx"), jen.Id("s"))),
	)
	if s.Dir == ir.ClientToServer && mcp {
		f.Comment(commentText("ServeStdio is Serve on the process's standard input and output\n(os.Stdin, os.Stdout): what a server that its client starts as a command runs.\nIt returns as Serve does: nil when the client closes standard input or ctx is\ndone. Standard output carries the messages only: log to standard error."))
		f.Func().Params(recv.Clone()).Id("ServeStdio").Params(jen.Id("ctx").Qual("context", "Context")).Error().Block(
			jen.Return(jen.Id("d").Dot("rpc").Dot("Serve").Call(jen.Id("ctx"), jen.Qual("os", "Stdin"), jen.Qual("os", "Stdout"))),
		)
		e.emitHTTP(f, p, s)
		e.emitTasks(f, p, s)
		e.emitSessionMethods(f, p, s, ms)
	}
	if len(kinds) > 0 {
		e.emitInputCheck(f, s, kinds)
	}
	if rejectInit {
		f.Func().Params(recv.Clone()).Id("rejectInitialize").Params(jen.Id("_").Qual("context", "Context"), jen.Id("raw").Index().Byte()).Params(jen.Qual(jsonrpcPkg, "Result"), jen.Error()).Block(
			jen.Return(jen.Nil(), jen.Qual(protocolPkg, "RejectInitialize").Call(jen.Id("raw"), jen.Id("d").Dot("opts").Dot("SupportedVersions"))),
		)
	}
	finishers := map[string]bool{}
	for _, m := range ms {
		e.emitCall(f, p, s, m)
		if m.Result != nil {
			st, _ := m.Result.Resolve().Decl.(*ir.Struct)
			if st != nil && !finishers[st.Name] {
				finishers[st.Name] = true
				e.emitFinish(f, p, s, st)
			}
		}
		if m.InputRequired && p.InputRequired != nil && !finishers[p.InputRequired.Name] {
			finishers[p.InputRequired.Name] = true
			e.emitFinish(f, p, s, p.InputRequired)
		}
	}
	if p.Modern && s.Dir == ir.ClientToServer && hasInputRequired(ms) && p.InputRequired != nil {
		// needInput answers with an InputRequiredResult after checking the
		// client declared what it is asked for.
		var sealing []jen.Code
		if seal {
			// The requestState the client gets is the sealed token.
			rs := p.InputRequired.FieldByJSON("requestState")
			sealing = []jen.Code{
				jen.List(jen.Id("st"), jen.Id("err")).Op(":=").Id("d").Dot("rpc").Dot("SealState").Call(jen.Id("ctx"), jen.Id("method"), jen.Id("params"), jen.Id("b")),
				jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
				jen.Id("res").Assert(jen.Op("*").Id(p.InputRequired.Name)).Dot(rs.Name).Op("=").Op("&").Id("st"),
			}
		}
		ctxParam, methodParam := jen.Id("_"), jen.Id("_")
		if seal {
			ctxParam, methodParam = jen.Id("ctx"), jen.Id("method")
		}
		nbody := []jen.Code{
			jen.List(jen.Id("ir"), jen.Id("ok")).Op(":=").Id("r").Assert(jen.Op("*").Id(p.InputRequired.Name)),
			jen.If(jen.Op("!").Id("ok").Op("||").Id("ir").Op("==").Nil()).Block(
				jen.Return(jen.Nil(), jen.Op("&").Add(e.rt(jsonrpcPkg, "RPCError")).Values(jen.Id("Code").Op(":").Add(e.rt(jsonrpcPkg, "CodeInternalError")), jen.Id("Message").Op(":").Lit("internal error: NeedInput without a result"))),
			),
			jen.List(jen.Id("res"), jen.Id("err")).Op(":=").Id("d").Dot(finishName(p.InputRequired)).Call(finishArgs(p, s, p.InputRequired, jen.Id("ir"), p.InputRequiredType)...),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
			jen.List(jen.Id("b"), jen.Id("err")).Op(":=").Id("ir").Dot("AppendJSON").Call(jen.Nil()),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
			jen.If(jen.Op("!").Id("d").Dot("opts").Dot("SkipResultValidation")).Block(
				jen.If(jen.Id("err").Op(":=").Qual(protocolPkg, "CheckInputRequired").Call(jen.Id("b")), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
			),
			jen.If(jen.Id("err").Op(":=").Qual(protocolPkg, "InputRequestCapabilities").Call(jen.Id("params"), jen.Id("b")), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		}
		nbody = append(nbody, sealing...)
		nbody = append(nbody, jen.Return(jen.Id("res"), jen.Nil()))
		f.Func().Params(recv.Clone()).Id("needInput").Params(ctxParam.Qual("context", "Context"), methodParam.String(), jen.Id("params").Index().Byte(), jen.Id("r").Qual(jsonrpcPkg, "Result")).Params(jen.Qual(jsonrpcPkg, "Result"), jen.Error()).Block(nbody...)
	}
	e.emitDefaults(f, p, s, ms)
}

func hasInputRequired(ms []*ir.Method) bool {
	for _, m := range ms {
		if m.InputRequired {
			return true
		}
	}
	return false
}

func callName(m *ir.Method) string {
	return "call" + strings.TrimPrefix(m.Const, "Method")
}

func finishName(st *ir.Struct) string { return "finish" + st.Name }

// fillsResultType reports whether the finish function of st fills the
// resultType of a handler's result (a server's results, in revisions with
// resultType).
func fillsResultType(p *ir.Protocol, s *ir.Side, st *ir.Struct) bool {
	r := resultOf(p, st)
	return p.Modern && s.Dir == ir.ClientToServer && r != nil && r.ResultType != nil && p.Complete != "" &&
		(p.InputRequired == nil || p.InputRequiredType != "")
}

// finishArgs are the arguments of st's finish function: the result, and
// the resultType constant when it fills one.
func finishArgs(p *ir.Protocol, s *ir.Side, st *ir.Struct, result jen.Code, resultType string) []jen.Code {
	if fillsResultType(p, s, st) {
		return []jen.Code{result, jen.Id(resultType)}
	}
	return []jen.Code{result}
}

// emitCall writes the function the method table calls for one method.
func (e *emitter) emitCall(f *jen.File, p *ir.Protocol, s *ir.Side, m *ir.Method) {
	var body []jen.Code
	if p.Modern && s.Dir == ir.ClientToServer && !m.Notification {
		body = append(body, jen.If(jen.Id("err").Op(":=").Qual(protocolPkg, "CheckProtocolVersion").Call(jen.Id("raw"), jen.Id("d").Dot("opts").Dot("SupportedVersions")), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Id("err")),
		))
	}
	args := []jen.Code{jen.Id("ctx")}
	if m.Params != nil {
		pt := goType(m.Params)
		if u := m.Params.Union(); u != nil {
			pt = jen.Id(u.Holder)
		}
		body = append(body,
			jen.Var().Id("p").Add(pt),
			jen.If(jen.Id("err").Op(":=").Qual(jsonrpcPkg, "DecodeParams").Call(jen.Id("raw"), jen.Op("&").Id("p"), jen.Lit(m.ParamsRequired)), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Id("err")),
			),
		)
		switch {
		case m.Params.Union() != nil:
			args = append(args, jen.Id("p").Dot("Value"))
		case m.Params.IsStruct():
			args = append(args, jen.Op("&").Id("p"))
		default:
			args = append(args, jen.Id("p"))
		}
		if m.InputRequired && s.Dir == ir.ClientToServer && sealsState(p, s, []*ir.Method{m}) {
			body = append(body, openStateCode(m)...)
		}
	}
	if m.Notification {
		body = append(body, jen.Return(jen.Nil(), jen.Id("d").Dot("h").Dot(m.Handler).Call(args...)))
	} else {
		body = append(body, jen.List(jen.Id("r"), jen.Id("err")).Op(":=").Id("d").Dot("h").Dot(m.Handler).Call(args...))
		if m.Default != "" {
			body = append(body, jen.If(jen.Qual("errors", "Is").Call(jen.Id("err"), jen.Qual(jsonrpcPkg, "ErrNotImplemented"))).Block(
				jen.List(jen.Id("r"), jen.Id("err")).Op("=").Id("d").Dot("default"+strings.TrimPrefix(m.Const, "Method")).Call(args[1:]...),
			))
		}
		errBlock := []jen.Code{}
		if m.InputRequired && p.Modern && p.InputRequired != nil && s.Dir == ir.ClientToServer {
			errBlock = append(errBlock, jen.If(jen.List(jen.Id("ir"), jen.Id("ok")).Op(":=").Qual(protocolPkg, "AsInputRequired").Call(jen.Id("err")), jen.Id("ok")).Block(
				jen.Return(jen.Id("d").Dot("needInput").Call(jen.Id("ctx"), jen.Id(m.Const), jen.Id("raw"), jen.Id("ir"))),
			))
		}
		errBlock = append(errBlock, jen.Return(jen.Nil(), jen.Id("err")))
		body = append(body, jen.If(jen.Id("err").Op("!=").Nil()).Block(errBlock...))
		st, _ := m.Result.Resolve().Decl.(*ir.Struct)
		if st != nil {
			body = append(body,
				jen.If(jen.Id("r").Op("==").Nil()).Block(
					jen.Return(jen.Nil(), jen.Op("&").Add(e.rt(jsonrpcPkg, "RPCError")).Values(jen.Id("Code").Op(":").Add(e.rt(jsonrpcPkg, "CodeInternalError")), jen.Id("Message").Op(":").Lit("internal error: the handler returned no result and no error"))),
				),
				jen.Return(jen.Id("d").Dot(finishName(st)).Call(finishArgs(p, s, st, jen.Id("r"), p.Complete)...)),
			)
		} else if u := m.Result.Union(); u != nil {
			body = append(body, jen.Return(jen.Op("&").Add(holderOf(u, jen.Id("r"))), jen.Nil()))
		} else if m.Result.PointerMethods() {
			// A tuple: its methods have pointer receivers.
			body = append(body, jen.Return(jen.Op("&").Id("r"), jen.Nil()))
		} else {
			body = append(body, jen.Return(jen.Id("r"), jen.Nil()))
		}
	}
	if !m.Notification && m.Params == nil {
		// raw is unused when there are no params and no version check.
		if !(p.Modern && s.Dir == ir.ClientToServer) {
			body = append([]jen.Code{jen.Id("_").Op("=").Id("raw")}, body...)
		}
	}
	if m.Notification && m.Params == nil {
		body = append([]jen.Code{jen.Id("_").Op("=").Id("raw")}, body...)
	}
	f.Func().Params(jen.Id("d").Op("*").Id(s.Dispatcher)).Id(callName(m)).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("raw").Index().Byte()).Params(jen.Qual(jsonrpcPkg, "Result"), jen.Error()).Block(body...)
}

// emitFinish writes finishT: it fills what the protocol makes the
// sender's job (resultType, serverInfo) on a copy of the handler's result,
// then checks the result against the schema.
func (e *emitter) emitFinish(f *jen.File, p *ir.Protocol, s *ir.Side, st *ir.Struct) {
	var body []jen.Code
	body = append(body, jen.Id("c").Op(":=").Op("*").Id("r"))
	if p.Modern && s.Dir == ir.ClientToServer {
		r := resultOf(p, st)
		if fillsResultType(p, s, st) {
			fl := r.ResultType
			body = append(body, jen.If(jen.Id("c").Dot(fl.Name).Op("==").Lit("")).Block(
				jen.Id("c").Dot(fl.Name).Op("=").Id(spec.MemberResultType),
			))
		}
		if r != nil && r.ServerInfo != nil {
			fl, si := r.Meta, r.ServerInfo
			ms := fl.Type.Resolve().Decl.(*ir.Struct)
			var fill []jen.Code
			if fl.Pointer() {
				// m := ResultMetaObject{}; if c.Meta != nil { m = *c.Meta }; if m.ServerInfo == nil { ...; c.Meta = &m }
				fill = []jen.Code{
					jen.Var().Id("m").Id(ms.Name),
					jen.If(jen.Id("c").Dot(fl.Name).Op("!=").Nil()).Block(jen.Id("m").Op("=").Op("*").Id("c").Dot(fl.Name)),
					jen.If(jen.Id("m").Dot(si.Name).Op("==").Nil()).Block(
						jen.Id("info").Op(":=").Id("d").Dot("opts").Dot("ServerInfo"),
						jen.Id("m").Dot(si.Name).Op("=").Op("&").Id("info"),
						jen.Id("c").Dot(fl.Name).Op("=").Op("&").Id("m"),
					),
				}
			} else {
				fill = []jen.Code{
					jen.If(jen.Id("c").Dot(fl.Name).Dot(si.Name).Op("==").Nil()).Block(
						jen.Id("info").Op(":=").Id("d").Dot("opts").Dot("ServerInfo"),
						jen.Id("c").Dot(fl.Name).Dot(si.Name).Op("=").Op("&").Id("info"),
					),
				}
			}
			body = append(body, jen.If(jen.Op("!").Id("d").Dot("opts").Dot("OmitServerInfo")).Block(fill...))
		}
	}
	if scope, private := cacheScopeDefault(p, s, st); scope != "" {
		// A cacheable result that says nothing of its sharing is private:
		// the dispatcher cannot know it is the same for every caller.
		body = append(body, jen.If(jen.Id("c").Dot(scope).Op("==").Lit("")).Block(jen.Id("c").Dot(scope).Op("=").Id(private)))
	}
	body = append(body,
		jen.If(jen.Op("!").Id("d").Dot("opts").Dot("SkipResultValidation")).Block(
			jen.If(jen.Id("err").Op(":=").Id("c").Dot("Validate").Call(), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Qual(jsonrpcPkg, "InvalidResult").Call(jen.Id("err"))),
			),
		),
		jen.Return(jen.Op("&").Id("c"), jen.Nil()),
	)
	params := []jen.Code{jen.Id("r").Op("*").Id(st.Name)}
	if fillsResultType(p, s, st) {
		params = append(params, jen.Id(spec.MemberResultType).Id(p.ResultType.GoName()))
	}
	f.Func().Params(jen.Id("d").Op("*").Id(s.Dispatcher)).Id(finishName(st)).Params(params...).Params(jen.Qual(jsonrpcPkg, "Result"), jen.Error()).Block(body...)
}

// emitDefaults writes the answers the dispatcher gives itself.
func (e *emitter) emitDefaults(f *jen.File, p *ir.Protocol, s *ir.Side, ms []*ir.Method) {
	for _, m := range ms {
		if m.Default == "" || m.Notification {
			continue
		}
		name := "default" + strings.TrimPrefix(m.Const, "Method")
		var params []jen.Code
		if m.Params != nil {
			params = append(params, jen.Id("p").Add(paramsGoType(m)))
		}
		st, _ := m.Result.Resolve().Decl.(*ir.Struct)
		var body []jen.Code
		switch m.Default {
		case ir.DefaultPing, ir.DefaultSession:
			body = []jen.Code{jen.Return(emptyResult(m), jen.Nil())}
		case ir.DefaultDiscover, ir.DefaultInitialize:
			body = e.defaultAnswer(p, m, st)
		}
		if len(body) == 0 {
			body = []jen.Code{jen.Return(resultZero(m), jen.Qual(jsonrpcPkg, "ErrNotImplemented"))}
		}
		if m.Default != ir.DefaultInitialize && m.Params != nil {
			params[0] = jen.Id("_").Add(paramsGoType(m))
		}
		f.Func().Params(jen.Id("d").Op("*").Id(s.Dispatcher)).Id(name).Params(params...).Params(resultGoType(m), jen.Error()).Block(body...)
	}
}

// defaultAnswer builds server/discover's or initialize's result from the
// options, field by field, for the fields the revision's result has.
func (e *emitter) defaultAnswer(p *ir.Protocol, m *ir.Method, st *ir.Struct) []jen.Code {
	if st == nil {
		return nil
	}
	body := []jen.Code{jen.Id("r").Op(":=").Op("&").Id(st.Name).Values()}
	opts := jen.Id("d").Dot("opts")
	// set assigns v to the field, through a variable when it is a pointer.
	set := func(fl *ir.Field, v *jen.Statement, tmp string) []jen.Code {
		if fl.Pointer() {
			return []jen.Code{jen.Id(tmp).Op(":=").Add(v), jen.Id("r").Dot(fl.Name).Op("=").Op("&").Id(tmp)}
		}
		return []jen.Code{jen.Id("r").Dot(fl.Name).Op("=").Add(v)}
	}
	for _, df := range m.DefaultFields {
		fl := df.Field
		switch df.Source {
		case ir.FromSupportedVersions:
			body = append(body, jen.Id("r").Dot(fl.Name).Op("=").Qual("slices", "Clone").Call(opts.Clone().Dot("SupportedVersions")))
		case ir.FromCapabilities:
			body = append(body, set(fl, opts.Clone().Dot("Capabilities"), "caps")...)
		case ir.FromServerInfo:
			body = append(body, set(fl, opts.Clone().Dot("ServerInfo"), "info")...)
		case ir.FromInstructions:
			body = append(body, jen.If(opts.Clone().Dot("Instructions").Op("!=").Lit("")).Block(set(fl, opts.Clone().Dot("Instructions"), "in")...))
		case ir.FromNegotiatedVersion:
			body = append(body,
				jen.Id("r").Dot(fl.Name).Op("=").Add(opts.Clone().Dot("SupportedVersions")).Index(jen.Lit(0)),
				jen.If(jen.Qual("slices", "Contains").Call(opts.Clone().Dot("SupportedVersions"), jen.Id("p").Dot(df.Param.Name))).Block(
					jen.Id("r").Dot(fl.Name).Op("=").Id("p").Dot(df.Param.Name),
				),
			)
		case ir.FromDiscoverTTL:
			body = append(body, jen.Id("r").Dot(fl.Name).Op("=").Add(opts.Clone().Dot("DiscoverTTL")).Dot("Milliseconds").Call())
		case ir.FromDiscoverCacheScope:
			body = append(body, jen.Id("r").Dot(fl.Name).Op("=").Add(opts.Clone().Dot("DiscoverCacheScope")))
		}
	}
	return append(body, jen.Return(jen.Id("r"), jen.Nil()))
}

// resultOf is what the protocol makes of the result struct st, or nil.
func resultOf(p *ir.Protocol, st *ir.Struct) *ir.Result {
	for _, r := range p.Results {
		if r.Struct == st {
			return r
		}
	}
	return nil
}

// emitModern writes what revisions with per-request _meta add: resultType
// values, NeedInput, caching helpers and CacheKey.
func (e *emitter) emitModern(f *jen.File, p *ir.Protocol) {
	if n, ok := p.ResultType.(*ir.Named); ok && p.Complete != "" {
		for _, r := range p.Results {
			fl, st := r.ResultType, r.Struct
			if fl == nil {
				continue
			}
			f.Comment(commentText(fmt.Sprintf("%s returns the result's resultType, or \"complete\" when it is empty, as the specification says for results from servers of earlier revisions.", p.Names.EffectiveResultType)))
			f.Func().Params(jen.Id("r").Op("*").Id(st.Name)).Id(p.Names.EffectiveResultType).Params().Id(n.Name).Block(
				jen.If(jen.Id("r").Dot(fl.Name).Op("==").Lit("")).Block(jen.Return(jen.Id(p.Complete))),
				jen.Return(jen.Id("r").Dot(fl.Name)),
			)
		}
	}
	if p.InputRequired != nil {
		f.Comment(commentText("NeedInput returns an error that makes the dispatcher answer the request with r\n(resultType \"input_required\") instead of a result: the client fulfils\nr.InputRequests and retries. The dispatcher first checks that the client\ndeclared the capabilities the input requests need, and answers\nMissingRequiredClientCapabilityError (-32021) otherwise."))
		f.Func().Id(p.Names.NeedInput).Params(jen.Id("r").Id(p.InputRequired.Name)).Error().Block(
			jen.Return(jen.Op("&").Qual(protocolPkg, "InputRequired").Values(jen.Id("Result").Op(":").Op("&").Id("r"))),
		)
	}
	// Cache helpers for every cacheable result type.
	done := map[string]bool{}
	var cacheable []string
	for _, m := range p.Methods {
		if !m.Cacheable {
			continue
		}
		cacheable = append(cacheable, m.Const)
		st := m.Result.Resolve().Decl.(*ir.Struct)
		if done[st.Name] {
			continue
		}
		done[st.Name] = true
		r := resultOf(p, st)
		if r == nil || r.TTL == nil {
			continue
		}
		ttl, n := r.TTL, p.Names
		f.Comment(commentText(fmt.Sprintf("%s returns %s as a duration; a negative %s counts as 0 (immediately stale).", n.TTL, ttl.JSONName, ttl.JSONName)))
		f.Func().Params(jen.Id("r").Op("*").Id(st.Name)).Id(n.TTL).Params().Qual("time", "Duration").Block(
			jen.Return(jen.Qual(protocolPkg, "TTL").Call(jen.Id("r").Dot(ttl.Name))),
		)
		f.Comment(commentText(fmt.Sprintf("%s reports whether the result, received at received, is still fresh at now: now < received + %s.", n.Fresh, ttl.JSONName)))
		f.Func().Params(jen.Id("r").Op("*").Id(st.Name)).Id(n.Fresh).Params(jen.List(jen.Id("received"), jen.Id("now")).Qual("time", "Time")).Bool().Block(
			jen.Return(jen.Id("now").Dot("Before").Call(jen.Id("received").Dot("Add").Call(jen.Id("r").Dot(n.TTL).Call()))),
		)
	}
	var cases []jen.Code
	seen := map[string]bool{}
	for _, c := range cacheable {
		if !seen[c] {
			seen[c] = true
			cases = append(cases, jen.Id(c))
		}
	}
	f.Comment(commentText("CacheKey returns the key a client caches the result of a request under: the\nmethod and the params that affect the result (all but _meta) as canonical JSON.\nok is false when the result must not be cached: the method's results carry no\ncaching hints, or the request is a retry carrying inputResponses or requestState."))
	body := []jen.Code{}
	if len(cases) > 0 {
		body = append(body,
			jen.Switch(jen.Id("method")).Block(
				jen.Case(cases...),
				jen.Default().Block(jen.Return(jen.Lit(""), jen.False())),
			),
			jen.Var().Id("raw").Index().Byte(),
			jen.If(jen.Id("params").Op("!=").Nil()).Block(
				jen.List(jen.Id("b"), jen.Id("err")).Op(":=").Id("params").Dot("AppendJSON").Call(jen.Nil()),
				jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Lit(""), jen.False())),
				jen.Id("raw").Op("=").Id("b"),
			),
			jen.Return(jen.Qual(protocolPkg, "CacheKey").Call(jen.Id("method"), jen.Id("raw"))),
		)
	} else {
		body = append(body, jen.Return(jen.Lit(""), jen.False()))
	}
	f.Func().Id(p.Names.CacheKey).Params(jen.Id("method").String(), jen.Id("params").Add(e.own("Value"))).Params(jen.Id("key").String(), jen.Id("ok").Bool()).Block(body...)
}

// middlewareOptionField is the Middleware field of an MCP package's
// ServerOptions (server) or ClientOptions.
func (e *emitter) middlewareOptionField(server bool) jen.Code {
	doc := "Middleware wraps the serving of every request and notification the\ndispatcher receives, and the sending of the requests and notifications it\nsends the client (Session.Request, SendRequest, SendNotification, Log,\nSendProgress; not the broadcasts to every session); the first is the\noutermost. See docs/middleware.md for where it runs among the runtime's own\nchecks."
	if !server {
		doc = "Middleware wraps the sending of every request and notification the Client\nsends (each on the wire: the handshake's, each round of a multi round-trip\nrequest, each retry; not answers from the cache), and the serving of every\none the server sends it; the first is the outermost. See docs/middleware.md."
	}
	return jen.Comment(commentText(doc)).Line().Id("Middleware").Index().Add(e.rt(protocolPkg, "Middleware"))
}

// middlewareValue sets a protocol.Core's (or ClientConfig's) Middleware
// from opts.
func middlewareValue() jen.Code {
	return jen.Id("Middleware").Op(":").Qual(protocolPkg, "Chain").Call(jen.Id("opts").Dot("Middleware").Op("..."))
}

// oneALine renders a composite literal with one element a line (in place
// of Values, which writes them on one line): a dispatcher's method table
// and the configurations, which would otherwise make lines of a thousand
// characters (TestLineLength keeps these files' lines within 200).
var oneALine = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

// longLit is the string literal of s, written as a sum of literals of at
// most 100 bytes cut after ", " when s is longer (lists of names that
// would make lines of hundreds of characters).
func longLit(s string) jen.Code {
	if len(s) <= 100 {
		return jen.Lit(s)
	}
	var parts []string
	for s != "" {
		cut := len(s)
		if cut > 100 {
			cut = strings.LastIndex(s[:100], ", ") + 2
			if cut < 2 {
				if i := strings.Index(s, ", "); i >= 0 {
					cut = i + 2
				} else {
					cut = len(s)
				}
			}
		}
		parts = append(parts, s[:cut])
		s = s[cut:]
	}
	lit := jen.Lit(parts[0])
	for _, p := range parts[1:] {
		lit = lit.Op("+").Line().Lit(p)
	}
	return lit
}

// loggerValue sets a dispatcher's (or ClientConfig's) Logger from opts.
func loggerValue() jen.Code {
	return jen.Id("Logger").Op(":").Id("opts").Dot("Logger")
}

// loggerDoc documents the Logger option.
func loggerDoc(mcp bool) string {
	doc := "Logger, if set, receives what goes wrong outside a response: handler panics\n(Error), dropped notifications and messages, failed writes (Warn); requests\ncancelled by the peer (Debug). Nothing is logged per request at Info"
	if mcp {
		return doc + "; log\nrequests with a Middleware. Records use the OpenTelemetry MCP attribute names\nwhere they have one (mcp.method.name, jsonrpc.request.id)."
	}
	return doc + "."
}

// cacheScopeDefault is the Go name of a server result's cacheScope field
// and the CacheScope constant "private" it defaults to; "" when the
// result has no such field.
func cacheScopeDefault(p *ir.Protocol, s *ir.Side, st *ir.Struct) (field, private string) {
	if !p.Modern || s.Dir != ir.ClientToServer || p.CacheScope == nil {
		return "", ""
	}
	f := st.FieldByJSON(spec.MemberCacheScope)
	if f == nil || f.Name == "" || f.Pointer() || !f.Type.Same(&ir.Type{Kind: ir.TDecl, Decl: p.CacheScope}) {
		return "", ""
	}
	for _, v := range p.CacheScope.Values {
		if v.Value.Str == spec.CacheScopePrivate {
			return f.Name, v.Name
		}
	}
	return "", ""
}
