package gen

import (
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// typedClientMethods are the Client's methods of the typed calls, by the
// list method they range over (and tools/call for Call).
var typedClientMethods = map[string]string{
	spec.MethodListTools:             "Tools",
	spec.MethodListResources:         "Resources",
	spec.MethodListResourceTemplates: "ResourceTemplates",
	spec.MethodListPrompts:           "Prompts",
	spec.MethodCallTool:              "Call",
	spec.MethodReadResource:          "Read",
}

// typedNames are the package-level names of the typed calls that do not
// come from a method: CallAs, and the asker of 2026-07-28.
var typedNames = struct{ CallAs, Asker, AskFunc, Require, Form, FormValue string }{"CallAs", "Asker", "Ask", "RequireCapabilities", "Form", "FormValue"}

// runtimeNotifications are the notifications a server's handlers do not
// send as they are: the runtime sends them itself (cancelled, when a
// request to the client is abandoned; subscriptions/acknowledged, for
// subscriptions/listen) or a helper of its does (Log filters
// notifications/message by the level the client asked for; SendProgress
// needs the request's progressToken).
var runtimeNotifications = map[string]bool{
	spec.MethodCancelled:          true,
	spec.MethodListenAcknowledged: true,
	spec.MethodLogMessage:         true,
	spec.MethodProgress:           true,
}

// buildTyped decides the typed calls of a package (ir.TypedCalls,
// calls.go) from the protocol and its client: the Client's iterators over
// the paginated lists and its tool calls with Go values, the server's
// requests to its client with typed params and results (revisions with
// the initialize handshake) or the asker of multi round-trip requests
// (2026-07-28), the server's notifications with typed params, and the
// MissingRequiredClientCapabilityError of a typed ClientCapabilities. Each is
// left out when the revision lacks what it needs or its name is taken.
func (b *builder) buildTyped(p *ir.Protocol) *ir.TypedCalls {
	t := &ir.TypedCalls{}
	free := func(name string) bool {
		if _, taken := b.owners[name]; taken {
			return false
		}
		b.reserve(name, "the typed calls")
		return true
	}
	if c := p.Client; c != nil {
		taken := map[string]bool{}
		for _, a := range clientAccessors {
			taken[a] = true
		}
		for _, call := range append(slices.Clone(c.Requests), c.Notifications...) {
			taken[call.Name] = true
		}
		calls := map[string]*ir.ClientCall{}
		for _, call := range c.Requests {
			calls[call.Method.Name] = call
		}
		for _, pl := range spec.PaginatedLists {
			if l := clientList(calls[pl.Method], pl.Items); l != nil && !taken[typedClientMethods[pl.Method]] {
				l.Iter = typedClientMethods[pl.Method]
				t.Lists = append(t.Lists, l)
			}
		}
		t.MaxPages = len(t.Lists) > 0
		if call := calls[spec.MethodReadResource]; call != nil && !taken[typedClientMethods[spec.MethodReadResource]] {
			if ps := structOfType(call.Method.Params); ps != nil && call.Method.Params.IsStruct() {
				uri := toolField(ps, "uri")
				others := false
				for _, f := range ps.Fields {
					others = others || (f != uri && f.Required && f != call.Meta)
				}
				if isKind(uri, ir.TString, true) && !others {
					t.Read, t.ReadCall, t.ReadParams, t.ReadURI = typedClientMethods[spec.MethodReadResource], call, ps, uri.Name
				}
			}
		}
		if tools := p.Tools; tools != nil && calls[spec.MethodCallTool] != nil && !taken[typedClientMethods[spec.MethodCallTool]] {
			t.Call = typedClientMethods[spec.MethodCallTool]
			listed := false
			for _, l := range t.Lists {
				listed = listed || l.Call.Method.Name == spec.MethodListTools
			}
			if listed && tools.Structured != "" && tools.OutputSchema != "" && hasText(resultTexts(p), tools.Result) && free(typedNames.CallAs) {
				t.CallAs = typedNames.CallAs
			}
		}
	}
	if !p.Modern {
		for _, m := range p.Methods {
			if m.Direction == ir.ServerToClient && !m.Notification && slices.Contains(spec.ServerAsks, m.Name) && structOfType(m.Result) != nil && free(m.Handler) {
				t.Asks = append(t.Asks, &ir.ServerAsk{Method: m, Func: m.Handler})
			}
		}
	} else if reqs, resps := asker(p); reqs != nil && free(typedNames.Asker) && free(typedNames.AskFunc) {
		t.Asker, t.AskFunc, t.AskRequests, t.AskResponses = typedNames.Asker, typedNames.AskFunc, reqs, resps
	}
	for _, m := range p.Methods {
		if m.Direction != ir.ServerToClient || !m.Notification || runtimeNotifications[m.Name] {
			continue
		}
		name := "Send" + strings.TrimPrefix(m.Handler, "On")
		if free(name) {
			t.Notifies = append(t.Notifies, &ir.ServerNotify{Method: m, Func: name})
		}
	}
	if p.ClientCapabilities != nil && free(typedNames.Require) {
		t.Require, t.RequireCaps = typedNames.Require, p.ClientCapabilities
	}
	if f := formCall(p); f != nil && free(typedNames.Form) && free(typedNames.FormValue) {
		f.Form, f.Value = typedNames.Form, typedNames.FormValue
		t.Form = f
	}
	t.Texts = resultTexts(p)
	if len(t.Lists) == 0 && t.Call == "" && len(t.Texts) == 0 && len(t.Asks) == 0 && t.Asker == "" && len(t.Notifies) == 0 && t.Require == "" && t.Form == nil {
		return nil
	}
	return t
}

// formCall finds the params of a form elicitation (the params of
// elicitation/create, a request from server to client or an input request
// of 2026-07-28, or the branch of their union with a required string
// message and a struct requestedSchema) and its result (a struct), or nil.
func formCall(p *ir.Protocol) *ir.FormCall {
	var params *ir.Type
	var result *ir.Struct
	for _, m := range p.Methods {
		if m.Name == spec.MethodElicit && !m.Notification {
			params, result = m.Params, structOfType(m.Result)
		}
	}
	if params == nil && p.Client != nil {
		for _, in := range p.Client.Inputs {
			if in.Method == spec.MethodElicit {
				params, result = in.Params, in.Result
			}
		}
	}
	if params == nil || result == nil {
		return nil
	}
	candidates := []*ir.Type{params}
	if t := params.Resolve(); t.Kind == ir.TDecl {
		if u, ok := t.Decl.(*ir.Union); ok {
			candidates = nil
			for _, b := range u.Branches {
				candidates = append(candidates, b.Type)
			}
		}
	}
	for _, c := range candidates {
		st := structOfType(c)
		if st == nil {
			continue
		}
		msg, sch := toolField(st, "message"), toolField(st, "requestedSchema")
		if isKind(msg, ir.TString, true) && sch != nil && sch.Required && structOfType(sch.Type) != nil {
			return &ir.FormCall{Params: st, Message: msg.Name, Schema: sch.Name, Result: result}
		}
	}
	return nil
}

// clientList is the iterator over a list request's pages, or nil when the
// request does not have the shape pagination.mdx gives it: params with an
// optional string cursor, a result with the items (a slice) and an
// optional string nextCursor.
func clientList(call *ir.ClientCall, items string) *ir.ClientList {
	if call == nil || call.Method.Params == nil {
		return nil
	}
	ps, rs := structOfType(call.Method.Params), structOfType(call.Method.Result)
	if ps == nil || rs == nil {
		return nil
	}
	cursor, next, list := toolField(ps, spec.MemberCursor), toolField(rs, spec.MemberNextCursor), toolField(rs, items)
	if !isKind(cursor, ir.TString, false) || !cursor.Pointer() || !isKind(next, ir.TString, false) || !next.Pointer() || !isKind(list, ir.TSlice, true) {
		return nil
	}
	return &ir.ClientList{Call: call, Params: ps, Cursor: cursor.Name, Items: list.Name, Item: list.Type.Resolve().Elem, Next: next.Name}
}

// asker returns the types of inputRequests and inputResponses when the
// revision can have the asker of multi round-trip requests, and fills the
// answer types of its input requests: its handlers' params carry
// inputResponses (a map of a union whose branches are the answers), and
// every input request of the client has an answer among them.
func asker(p *ir.Protocol) (requests, responses *ir.Type) {
	if p.Client == nil || len(p.Client.Inputs) == 0 || p.InputRequired == nil || p.Tools == nil {
		return nil, nil
	}
	if f := p.InputRequired.FieldByJSON("requestState"); !isKind(f, ir.TString, false) || !f.Pointer() {
		return nil, nil
	}
	reqs := p.InputRequired.FieldByJSON("inputRequests")
	if reqs == nil || reqs.Name == "" {
		return nil, nil
	}
	var call *ir.Method
	for _, m := range p.Methods {
		if m.Name == spec.MethodCallTool && m.Direction == ir.ClientToServer {
			call = m
		}
	}
	if call == nil {
		return nil, nil
	}
	ps := structOfType(call.Params)
	if ps == nil {
		return nil, nil
	}
	f := toolField(ps, "inputResponses")
	if f == nil {
		return nil, nil
	}
	mt := f.Type.Resolve()
	if n, ok := mt.Decl.(*ir.Named); ok && mt.Kind == ir.TDecl {
		mt = n.Type.Resolve()
	}
	if mt.Kind != ir.TMap || mt.Elem.Union() == nil {
		return nil, nil
	}
	for _, in := range p.Client.Inputs {
		in.Answer = nil
		for _, br := range mt.Elem.Union().Branches {
			if structOfType(br.Type) == in.Result {
				in.Answer = br.Type
			}
		}
		if in.Answer == nil || in.Request == nil {
			return nil, nil
		}
	}
	return reqs.Type, f.Type
}

// resultTexts finds the results that get a Text method: the results of
// tools/call (its content, text blocks: TextContent) and of resources/read
// (its contents, TextResourceContents), each when it has that shape and no
// field or member named Text.
func resultTexts(p *ir.Protocol) []*ir.ResultText {
	var out []*ir.ResultText
	for _, want := range []struct{ method, member, branch string }{
		{spec.MethodCallTool, "content", "TextContent"},
		{spec.MethodReadResource, "contents", "TextResourceContents"},
	} {
		for _, m := range p.Methods {
			if m.Name != want.method || m.Direction != ir.ClientToServer {
				continue
			}
			rs := structOfType(m.Result)
			if rs == nil {
				continue
			}
			content := toolField(rs, want.member)
			if !isKind(content, ir.TSlice, true) {
				continue
			}
			u := content.Type.Resolve().Elem.Union()
			if u == nil || hasField(rs, "Text") {
				continue
			}
			for _, br := range u.Branches {
				if st := structOfType(br.Type); st != nil && st.Definition == want.branch {
					if f := toolField(st, "text"); isKind(f, ir.TString, true) {
						out = append(out, &ir.ResultText{Result: rs, Content: content.Name, Branch: st.Name, TextField: f.Name})
					}
				}
			}
		}
	}
	return out
}

// hasField reports whether a struct has a field of that Go name.
func hasField(st *ir.Struct, name string) bool {
	for _, f := range st.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

// hasText reports whether the result struct of that name gets a Text method.
func hasText(texts []*ir.ResultText, result string) bool {
	for _, rt := range texts {
		if rt.Result.Name == result {
			return true
		}
	}
	return false
}
