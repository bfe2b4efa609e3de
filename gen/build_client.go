package gen

import (
	"strings"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// clientNames are the package-level names client.go declares (the rest of
// the client is the runtime's: Transport, CommandTransport, StreamTransport,
// HTTPTransport, HTTPStatusError, Cache, NewCache).
var clientNames = []string{"Client", "Connect"}

// clientAccessors are the Client's methods besides one per request and
// notification; a method of the protocol may not take one of them.
var clientAccessors = []string{"ProtocolVersion", "ServerInfo", "ServerCapabilities", "Instructions", "Close"}

// buildClient decides the typed client of a package (ir.ClientSupport):
// one method per request and notification the client sends, the request
// _meta it fills (revisions with per-request metadata) and the input
// requests its handler answers (multi round-trip requests). It returns nil
// when the schema lacks the client's side of the protocol (a schema that
// is not MCP generates without a client).
func (b *builder) buildClient(p *ir.Protocol, defs map[string]ir.Decl) *ir.ClientSupport {
	if p.Implementation == nil || p.ClientCapabilities == nil || p.ServerCapabilities == nil {
		return nil
	}
	c := &ir.ClientSupport{Client: b.ownName(clientNames[0], "the generated client"), Connect: b.ownName(clientNames[1], "the generated client")}
	if st := structOfType(p.Implementation); st != nil {
		if n, v := toolField(st, "name"), toolField(st, "version"); isKind(n, ir.TString, true) && isKind(v, ir.TString, true) {
			c.InfoName, c.InfoVersion = n.Name, v.Name
		}
	}
	if p.Modern {
		c.Meta = clientMeta(p, defs)
	}
	if p.CacheScope != nil {
		for _, v := range p.CacheScope.Values {
			if v.Value.Str == "private" {
				c.CacheScopePrivate = v.Name
			}
		}
	}
	used := map[string]bool{}
	for _, a := range clientAccessors {
		used[a] = true
	}
	resultTypes := map[*ir.Struct]*ir.Field{}
	for _, r := range p.Results {
		if r.ResultType != nil {
			resultTypes[r.Struct] = r.ResultType
		}
	}
	for _, m := range p.Methods {
		if m.Direction != ir.ClientToServer || m.Name == spec.MethodInitialize || m.Name == spec.MethodInitialized {
			continue
		}
		call := &ir.ClientCall{Method: m, Name: m.Handler, Listen: m.Name == spec.MethodListen}
		if m.Notification {
			call.Name = "Notify" + strings.TrimPrefix(m.Handler, "On")
		}
		if used[call.Name] {
			b.errorf(m.Definition.Pointer, "the Client method %s of %q is taken (by another method or one of the Client's own: %s)", call.Name, m.Name, strings.Join(clientAccessors, ", "))
			continue
		}
		used[call.Name] = true
		if c.Meta != nil && m.Params != nil {
			if ps := structOfType(m.Params); ps != nil {
				if f := toolField(ps, spec.MemberMeta); f != nil && !f.Pointer() && structOfType(f.Type) == c.Meta.Struct {
					call.Meta = f
				}
			}
		}
		if rs := structOfType(m.Result); rs != nil {
			call.ResultType = resultTypes[rs]
			if m.Cacheable && c.CacheScopePrivate != "" {
				ttl, scope := toolField(rs, spec.MemberTTL), toolField(rs, spec.MemberCacheScope)
				if isKind(ttl, ir.TInt, true) && scope != nil && scope.Required && scope.Type.Same(&ir.Type{Kind: ir.TDecl, Decl: p.CacheScope}) {
					call.TTL, call.CacheScope = ttl, scope
				}
			}
		}
		if m.Notification {
			c.Notifications = append(c.Notifications, call)
			continue
		}
		c.Cacheable = c.Cacheable || m.Cacheable
		c.Requests = append(c.Requests, call)
	}
	toClient := false
	for _, m := range p.Methods {
		toClient = toClient || m.Direction == ir.ServerToClient
	}
	if len(c.Requests) == 0 || !toClient {
		// No requests to send, or no ClientHandler to receive with.
		return nil
	}
	c.Inputs = clientInputs(p)
	return c
}

// clientMeta finds the _meta struct of modern requests (RequestMetaObject)
// and the members the Client fills, or returns nil.
func clientMeta(p *ir.Protocol, defs map[string]ir.Decl) *ir.ClientMeta {
	st := structOf(defs, "RequestMetaObject")
	if st == nil {
		return nil
	}
	m := &ir.ClientMeta{
		Struct:             st,
		ProtocolVersion:    toolField(st, spec.MetaProtocolVersion),
		ClientInfo:         toolField(st, spec.MetaClientInfo),
		ClientCapabilities: toolField(st, spec.MetaClientCapabilities),
	}
	if !isKind(m.ProtocolVersion, ir.TString, true) {
		return nil
	}
	if m.ClientInfo != nil && (!m.ClientInfo.Pointer() || !m.ClientInfo.Type.Same(p.Implementation)) {
		m.ClientInfo = nil
	}
	if f := m.ClientCapabilities; f != nil && (f.Pointer() || structOfType(f.Type) != p.ClientCapabilities) {
		m.ClientCapabilities = nil
	}
	if m.ClientCapabilities != nil {
		for _, f := range p.ClientCapabilities.Fields {
			if f.Name == "" {
				continue
			}
			if !nilable(f) {
				m.CapsFields = nil
				break
			}
			m.CapsFields = append(m.CapsFields, f)
		}
	}
	return m
}

// nilable reports whether a struct field's Go value can be nil: a pointer,
// a slice, a map, raw JSON, a union.
func nilable(f *ir.Field) bool {
	if f.Pointer() {
		return true
	}
	t := f.Type.Resolve()
	switch t.Kind {
	case ir.TSlice, ir.TMap, ir.TRaw:
		return true
	case ir.TDecl:
		switch d := t.Decl.(type) {
		case *ir.Union, *ir.Raw:
			return true
		case *ir.Named:
			k := d.Type.Resolve().Kind
			return k == ir.TSlice || k == ir.TMap || k == ir.TRaw
		}
	}
	return false
}

// clientInputs lists the input requests of the revision's
// InputRequiredResult with the ClientHandler methods that answer them: a
// request XRequest is answered by X (ElicitRequest by Elicit), as the
// handler of a request the server sends would be.
func clientInputs(p *ir.Protocol) []*ir.ClientInput {
	if p.InputRequired == nil || len(p.InputKinds) == 0 {
		return nil
	}
	f := p.InputRequired.FieldByJSON("inputRequests")
	if f == nil {
		return nil
	}
	t := f.Type.Resolve()
	if n, ok := t.Decl.(*ir.Named); ok && t.Kind == ir.TDecl {
		t = n.Type.Resolve()
	}
	if t.Kind != ir.TMap {
		return nil
	}
	u := t.Elem.Union()
	if u == nil {
		return nil
	}
	declared := map[string]*ir.Method{}
	for _, m := range p.Methods {
		if m.Direction == ir.ServerToClient && !m.Notification {
			declared[m.Name] = m
		}
	}
	var out []*ir.ClientInput
	for _, br := range u.Branches {
		req := structOfType(br.Type)
		if req == nil || len(br.Tags["method"]) != 1 {
			continue
		}
		method := br.Tags["method"][0]
		var kind *ir.InputKind
		for _, k := range p.InputKinds {
			if k.Method == method {
				kind = k
			}
		}
		if kind == nil {
			continue
		}
		in := &ir.ClientInput{Method: method, Handler: strings.TrimSuffix(req.Definition, "Request"), Result: kind.Result,
			FillDefaults: method == spec.MethodElicit}
		in.Request = req
		if pf := req.FieldByJSON("params"); pf != nil {
			in.Params, in.ParamsField = pf.Type, pf
		}
		if m, ok := declared[method]; ok {
			in.Declared, in.Handler = true, m.Handler
		}
		if in.Handler == "" {
			continue
		}
		out = append(out, in)
	}
	return out
}
