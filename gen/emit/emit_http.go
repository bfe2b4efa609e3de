package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// This file emits the typed glue of the server's HTTP transport and of the
// requestState protection of multi round-trip requests; the machinery is
// in runtime/protocol (server_http.go, request_state.go).

// sealsState reports whether the server dispatcher protects requestState:
// a revision with multi round-trip requests whose InputRequiredResult has
// a requestState string.
func sealsState(p *ir.Protocol, s *ir.Side, ms []*ir.Method) bool {
	if !p.Modern || s.Dir != ir.ClientToServer || p.InputRequired == nil || !hasInputRequired(ms) {
		return false
	}
	f := p.InputRequired.FieldByJSON("requestState")
	return f != nil && f.Name != "" && f.Type.Kind == ir.TString && f.Pointer()
}

// stateFields returns the requestState (a *string) and inputResponses (a
// map) fields of a method's params, or nils.
func stateFields(m *ir.Method) (rs, inputs *ir.Field) {
	if m.Params == nil || !m.Params.IsStruct() {
		return nil, nil
	}
	st, ok := m.Params.Resolve().Decl.(*ir.Struct)
	if !ok {
		return nil, nil
	}
	rs = st.FieldByJSON("requestState")
	inputs = st.FieldByJSON("inputResponses")
	if rs == nil || rs.Name == "" || rs.Type.Kind != ir.TString || !rs.Pointer() {
		return nil, nil
	}
	if inputs != nil && (inputs.Name == "" || !isMap(inputs.Type)) {
		inputs = nil
	}
	return rs, inputs
}

func isMap(t *ir.Type) bool {
	t = t.Resolve()
	if t.Kind == ir.TDecl {
		if n, ok := t.Decl.(*ir.Named); ok {
			t = n.Type.Resolve()
		}
	}
	return t.Kind == ir.TMap
}

// emitInputCheck writes checkInputResponse, which the runtime calls to
// check an input response against the result type of its request's method.
func (e *emitter) emitInputCheck(f *jen.File, s *ir.Side, kinds []*ir.InputKind) {
	var cases []jen.Code
	for _, k := range kinds {
		cases = append(cases, jen.Case(jen.Lit(k.Method)).Block(
			jen.Return(jen.Qual(jsonrpcPkg, "CheckValue").Call(jen.Id("raw"), jen.New(jen.Id(k.Result.Name)))),
		))
	}
	f.Func().Params(jen.Id("d").Op("*").Id(s.Dispatcher)).Id("checkInputResponse").Params(jen.Id("method").String(), jen.Id("raw").Index().Byte()).Error().Block(
		jen.Switch(jen.Id("method")).Block(cases...),
		jen.Return(jen.Nil()),
	)
}

// emitOpenState writes, in a method's call function after its params are
// decoded, the check of a retry's requestState and inputResponses.
func openStateCode(m *ir.Method) []jen.Code {
	rs, inputs := stateFields(m)
	if rs == nil {
		return nil
	}
	drop := jen.Id("_")
	if inputs != nil {
		drop = jen.Id("drop")
	}
	code := []jen.Code{
		jen.List(jen.Id("st"), drop, jen.Id("err")).Op(":=").Id("d").Dot("rpc").Dot("OpenState").Call(jen.Id("ctx"), jen.Id(m.Const), jen.Id("raw")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		jen.Id("p").Dot(rs.Name).Op("=").Id("st"),
	}
	if inputs != nil {
		code = append(code, jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Id("drop")).Block(
			jen.Delete(jen.Id("p").Dot(inputs.Name), jen.Id("k")),
		))
	}
	return code
}

// emitHTTP writes NewHTTPHandler for the server dispatcher.
func (e *emitter) emitHTTP(f *jen.File, p *ir.Protocol, s *ir.Side) {
	doc := "NewHTTPHandler returns an http.Handler that serves d over Streamable HTTP at one\nendpoint: mount it at the endpoint's path. It keeps no state between requests,\nso any number of replicas can serve one client. See HTTPOptions for the\nchecks and limits it applies, and HTTPHandler.NewServer for an http.Server\nwith timeouts."
	if !p.Modern {
		doc = httpSessionDoc()
	}
	if e.serveOlder(p) {
		doc += "\n\nIt also serves the clients of " + e.pkg.OlderRevisions + " (the initialize era), with d's handlers through the conversions, at the same endpoint: a POST whose MCP-Protocol-Version header is absent or names an older revision (and whose params carry no per-request _meta), and every request that names a session (Mcp-Session-Id), goes to a handler with sessions as the older revisions' transport describes (see mcpgen's docs/revisions.md). HTTPOptions.Fallback, if set, replaces that handler, and ServerOptions.OnlyThisRevision turns it off."
	}
	f.Comment(commentText(doc))
	call := jen.Qual(protocolPkg, "NewHTTPHandler").Call(jen.Op("&").Id("d").Dot("rpc"), jen.Id("opts"))
	if e.serveOlder(p) {
		call = jen.Qual(protocolPkg, "NewHTTPHandlerOlder").Call(jen.Op("&").Id("d").Dot("rpc"), jen.Id("opts"))
	}
	if !p.Modern {
		// Sessions, or the HTTP+SSE transport of revisions before
		// 2025-03-26 (the runtime tells them apart by the revision).
		call = jen.Qual(protocolPkg, "NewSessionHTTPHandler").Call(jen.Op("&").Id("d").Dot("rpc"), jen.Id("opts"), e.own("ProtocolVersion"))
	}
	f.Func().Add(e.own("NewHTTPHandler")).Params(jen.Id("d").Op("*").Id(s.Dispatcher), jen.Id("opts").Add(e.rt(protocolPkg, "HTTPOptions"))).Op("*").Add(e.rt(protocolPkg, "HTTPHandler")).Block(
		jen.Return(call),
	)
}
