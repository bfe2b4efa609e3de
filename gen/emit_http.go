package gen

import (
	"strings"

	"github.com/dave/jennifer/jen"
)

// This file emits the typed glue of the server's HTTP transport and of the
// requestState protection of multi round-trip requests; the machinery is
// in gen/rt (rpc_http.go, rpc_state.go).

// httpNames are the exported names the runtime's HTTP transport and the
// glue below declare.
var httpNames = []string{"HTTPHandler", "HTTPOptions", "NewHTTPHandler", "HTTPRequestFromContext", "ExtensionMethod"}

// sealsState reports whether the server dispatcher protects requestState:
// a revision with multi round-trip requests whose InputRequiredResult has
// a requestState string.
func sealsState(p *Protocol, s side, ms []*Method) bool {
	if !p.Modern || s.dir != ClientToServer || p.InputRequired == nil || !hasInputRequired(ms) {
		return false
	}
	f := fieldByJSON(p.InputRequired, "requestState")
	return f != nil && f.Name != "" && f.Type.Kind == TString && f.Pointer()
}

// stateFields returns the requestState (a *string) and inputResponses (a
// map) fields of a method's params, or nils.
func stateFields(m *Method) (rs, ir *Field) {
	if m.Params == nil || !isStruct(m.Params) {
		return nil, nil
	}
	st, ok := m.Params.Resolve().Decl.(*Struct)
	if !ok {
		return nil, nil
	}
	rs = fieldByJSON(st, "requestState")
	ir = fieldByJSON(st, "inputResponses")
	if rs == nil || rs.Name == "" || rs.Type.Kind != TString || !rs.Pointer() {
		return nil, nil
	}
	if ir != nil && (ir.Name == "" || !isMap(ir.Type)) {
		ir = nil
	}
	return rs, ir
}

func isMap(t *Type) bool {
	t = t.Resolve()
	if t.Kind == TDecl {
		if n, ok := t.Decl.(*Named); ok {
			t = n.Type.Resolve()
		}
	}
	return t.Kind == TMap
}

// inputKind pairs the method of an input request with the struct its
// answer must be.
type inputKind struct {
	method string
	result *Struct
}

// inputKinds reads the input requests an InputRequiredResult may carry
// (the branches of the inputRequests map's value union, told apart by
// their method) and pairs each with its result: XRequest with XResult, as
// methods are paired.
func (e *emitter) inputKinds(p *Protocol) []inputKind {
	f := fieldByJSON(p.InputRequired, "inputRequests")
	if f == nil {
		return nil
	}
	t := f.Type.Resolve()
	if n, ok := t.Decl.(*Named); ok && t.Kind == TDecl {
		t = n.Type.Resolve()
	}
	if t.Kind != TMap {
		return nil
	}
	u, ok := t.Elem.Resolve().Decl.(*Union)
	if !ok {
		return nil
	}
	byDef := map[string]*Struct{}
	for _, d := range e.pkg.Decls {
		if st, ok := d.(*Struct); ok && st.Definition != "" {
			byDef[st.Definition] = st
		}
	}
	var out []inputKind
	for _, br := range u.Branches {
		req, ok := br.Type.Resolve().Decl.(*Struct)
		if !ok || len(br.Tags["method"]) != 1 {
			continue
		}
		name := strings.TrimSuffix(req.Definition, "Request") + "Result"
		if ex, ok := resultExceptions[req.Definition]; ok {
			name = ex
		}
		if res := byDef[name]; res != nil {
			out = append(out, inputKind{br.Tags["method"][0], res})
		}
	}
	return out
}

// emitInputCheck writes checkInputResponse, which the runtime calls to
// check an input response against the result type of its request's method.
func (e *emitter) emitInputCheck(f *jen.File, s side, kinds []inputKind) {
	var cases []jen.Code
	for _, k := range kinds {
		cases = append(cases, jen.Case(jen.Lit(k.method)).Block(
			jen.Return(jen.Id("checkValue").Call(jen.Id("raw"), jen.New(jen.Id(k.result.Name)))),
		))
	}
	f.Func().Params(jen.Id("d").Op("*").Id(s.dispatcher)).Id("checkInputResponse").Params(jen.Id("method").String(), jen.Id("raw").Index().Byte()).Error().Block(
		jen.Switch(jen.Id("method")).Block(cases...),
		jen.Return(jen.Nil()),
	)
}

// emitOpenState writes, in a method's call function after its params are
// decoded, the check of a retry's requestState and inputResponses.
func openStateCode(m *Method) []jen.Code {
	rs, ir := stateFields(m)
	if rs == nil {
		return nil
	}
	drop := jen.Id("_")
	if ir != nil {
		drop = jen.Id("drop")
	}
	code := []jen.Code{
		jen.List(jen.Id("st"), drop, jen.Id("err")).Op(":=").Id("d").Dot("rpc").Dot("openState").Call(jen.Id("ctx"), jen.Id(m.Const), jen.Id("raw")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		jen.Id("p").Dot(rs.Name).Op("=").Id("st"),
	}
	if ir != nil {
		code = append(code, jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Id("drop")).Block(
			jen.Delete(jen.Id("p").Dot(ir.Name), jen.Id("k")),
		))
	}
	return code
}

// emitHTTP writes NewHTTPHandler for the server dispatcher.
func (e *emitter) emitHTTP(f *jen.File, p *Protocol, s side) {
	doc := "NewHTTPHandler returns an http.Handler that serves d over Streamable HTTP at one\nendpoint: mount it at the endpoint's path. It keeps no state between requests,\nso any number of replicas can serve one client. See HTTPOptions for the\nchecks and limits it applies, and HTTPHandler.NewServer for an http.Server\nwith timeouts."
	if !p.Modern {
		doc = httpSessionDoc(p)
	}
	f.Comment(commentText(doc))
	call := jen.Id("newHTTPHandler").Call(jen.Op("&").Id("d").Dot("rpc"), jen.Id("opts"))
	if !p.Modern {
		// Sessions, or the HTTP+SSE transport of revisions before
		// 2025-03-26 (the runtime tells them apart by the revision).
		call = jen.Id("newSessionHTTPHandler").Call(jen.Op("&").Id("d").Dot("rpc"), jen.Id("opts"), jen.Id("ProtocolVersion"))
	}
	f.Func().Id("NewHTTPHandler").Params(jen.Id("d").Op("*").Id(s.dispatcher), jen.Id("opts").Id("HTTPOptions")).Op("*").Id("HTTPHandler").Block(
		jen.Return(call),
	)
}
