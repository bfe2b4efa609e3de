package gen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/spec"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/schema"
)

// This file builds the method table: one entry per request and
// notification a client or server may send, from the `method` const of the
// *Request / *Notification definitions, with the direction given by the
// ClientRequest / ServerRequest / ClientNotification / ServerNotification
// definitions.

// resultExceptions pairs the requests whose result is not named after them
// (XRequest -> XResult). Reviewed against every pinned revision: these
// requests answer with an empty result.
var resultExceptions = map[string]string{
	"PingRequest":        "EmptyResult",
	"SubscribeRequest":   "EmptyResult",
	"UnsubscribeRequest": "EmptyResult",
	"SetLevelRequest":    "EmptyResult",
}

// dirDef says which way the methods of a direction definition go.
type dirDef struct {
	dir          ir.Direction
	notification bool
}

// directionDefs are MCP's direction definitions: unions of the requests
// and notifications each side sends.
var directionDefs = map[string]dirDef{
	"ClientRequest":      {ir.ClientToServer, false},
	"ServerRequest":      {ir.ServerToClient, false},
	"ClientNotification": {ir.ClientToServer, true},
	"ServerNotification": {ir.ServerToClient, true},
}

// directionUnions are the definitions that say who sends which method
// (docs/other-schemas.md, "Pairing requests with results"): MCP's direction definitions
// when the schema has any; otherwise every union definition whose name
// ends in Request (or Notification) and whose branches are all method
// definitions (a $ref to an object with a constant "method"), for the
// methods a client sends (A2A's A2ARequest).
func (b *builder) directionUnions() map[string]dirDef {
	out := map[string]dirDef{}
	for name, dd := range directionDefs {
		if b.doc.Def(name) != nil {
			out[name] = dd
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, d := range b.doc.Defs {
		notification := strings.HasSuffix(d.Name, "Notification")
		if !notification && !strings.HasSuffix(d.Name, "Request") {
			continue
		}
		branches := d.AnyOf
		if len(branches) == 0 {
			branches = d.OneOf
		}
		if len(branches) == 0 {
			continue
		}
		all := true
		for _, br := range branches {
			all = all && br.Ref != nil && !hasConstraints(br) && schemaMethod(br.Ref) != ""
		}
		if all {
			out[d.Name] = dirDef{ir.ClientToServer, notification}
		}
	}
	return out
}

// schemaMethod is the constant "method" member of a method definition's
// schema (an object that requires it), or "".
func schemaMethod(s *schema.Schema) string {
	if !s.IsRequired("method") {
		return ""
	}
	m := s.Prop("method")
	for i := 0; m != nil && m.Ref != nil && m.Const == nil && i < 100; i++ {
		m = m.Ref
	}
	if m == nil || m.Const == nil || m.Const.Kind != schema.String {
		return ""
	}
	return m.Const.Str
}

// buildProtocol returns the protocol of the schema, or nil when it has no
// direction definitions: the facts about the revision, then its methods,
// then what the protocol makes of the result types.
func (b *builder) buildProtocol() *ir.Protocol {
	defs := b.definitionDecls()
	sent, found := directions(defs, b.directionUnions())
	if !found {
		return nil
	}
	carriers, order := b.methodCarriers()
	p := b.protocolFacts(defs, carriers)
	for _, name := range order {
		for _, dir := range []ir.Direction{ir.ClientToServer, ir.ServerToClient} {
			if sent[dirKey{name, dir}] {
				if m := b.method(p, defs, name, carriers[name], dir); m != nil {
					p.Methods = append(p.Methods, m)
				}
			}
		}
	}
	sort.SliceStable(p.Methods, func(i, j int) bool {
		if p.Methods[i].Direction != p.Methods[j].Direction {
			return p.Methods[i].Direction < p.Methods[j].Direction
		}
		return p.Methods[i].Name < p.Methods[j].Name
	})
	for _, m := range p.Methods {
		m.DefaultFields = defaultFields(p, m)
	}
	p.Results = b.results(p)
	p.InputKinds = inputKinds(p, defs)
	p.Tasks = taskSupport(p)
	p.Tools = b.buildTools(p, defs)
	p.Client = b.buildClient(p, defs)
	p.Typed = b.buildTyped(p)
	return p
}

// taskSupport works out whether the revision can carry the server side of
// the tasks extension (SEP-2663), and with which types: the extension
// needs per-request _meta (it is not defined for revisions with the
// initialize handshake), tools/call and multi round-trip input.
func taskSupport(p *ir.Protocol) *ir.TaskSupport {
	if !p.Modern || p.InputRequired == nil || p.Implementation == nil {
		return nil
	}
	var call *ir.Method
	for _, m := range p.Methods {
		if m.Name == spec.MethodCallTool && m.Direction == ir.ClientToServer && !m.Notification {
			call = m
		}
	}
	if call == nil || call.Result == nil || !call.Result.IsStruct() {
		return nil
	}
	ts := &ir.TaskSupport{Call: call, Result: call.Result.Resolve().Decl.(*ir.Struct)}
	if f := p.InputRequired.FieldByJSON("inputRequests"); f != nil && namedMap(f.Type) {
		ts.Requests = f.Type.Resolve().Decl.GoName()
	}
	if call.Params != nil && call.Params.IsStruct() {
		st := call.Params.Resolve().Decl.(*ir.Struct)
		if f := st.FieldByJSON("inputResponses"); f != nil && f.Name != "" && namedMap(f.Type) {
			ts.Responses = f.Type.Resolve().Decl.GoName()
		}
	}
	if ts.Requests == "" || ts.Responses == "" {
		return nil
	}
	if p.ServerCapabilities != nil {
		if f := p.ServerCapabilities.FieldByJSON("extensions"); f != nil && f.Name != "" {
			if t := f.Type.Resolve(); t.Kind == ir.TMap && rawJSON(t.Elem) {
				ts.Extensions = f
			}
		}
	}
	return ts
}

// namedMap reports whether t is a named map type (type M map[string]T),
// whose AppendJSON, UnmarshalJSON and Validate the glue calls.
func namedMap(t *ir.Type) bool {
	t = t.Resolve()
	if t.Kind != ir.TDecl {
		return false
	}
	n, ok := t.Decl.(*ir.Named)
	return ok && n.Type.Resolve().Kind == ir.TMap
}

// rawJSON reports whether values of t are JSON bytes (json.RawMessage or a
// named type of it).
func rawJSON(t *ir.Type) bool {
	t = t.Resolve()
	if t.Kind == ir.TRaw {
		return true
	}
	if t.Kind == ir.TDecl {
		_, ok := t.Decl.(*ir.Raw)
		return ok
	}
	return false
}

// inputKinds reads the input requests an InputRequiredResult may carry
// (the branches of the inputRequests map's value union, told apart by
// their method) and pairs each with its result, as methods are paired.
func inputKinds(p *ir.Protocol, defs map[string]ir.Decl) []*ir.InputKind {
	if p.InputRequired == nil {
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
	u, ok := t.Elem.Resolve().Decl.(*ir.Union)
	if !ok {
		return nil
	}
	var out []*ir.InputKind
	for _, br := range u.Branches {
		req, ok := br.Type.Resolve().Decl.(*ir.Struct)
		if !ok || len(br.Tags["method"]) != 1 {
			continue
		}
		name := strings.TrimSuffix(req.Definition, "Request") + "Result"
		if ex, ok := resultExceptions[req.Definition]; ok {
			name = ex
		}
		if res := structOf(defs, name); res != nil {
			out = append(out, &ir.InputKind{Method: br.Tags["method"][0], Result: res})
		}
	}
	return out
}

// definitionDecls maps each definition name to its declaration.
func (b *builder) definitionDecls() map[string]ir.Decl {
	defs := map[string]ir.Decl{}
	for _, d := range b.decls {
		if name := d.Info().Definition; name != "" {
			defs[name] = d
		}
	}
	return defs
}

// structOf is the struct declaration of a definition (through aliases),
// or nil.
func structOf(defs map[string]ir.Decl, name string) *ir.Struct {
	d, ok := defs[name]
	if !ok {
		return nil
	}
	st, _ := (&ir.Type{Kind: ir.TDecl, Decl: d}).Resolve().Decl.(*ir.Struct)
	return st
}

// methodConst is the method a request or notification struct carries in
// its constant "method" member, or "".
func methodConst(st *ir.Struct) string {
	for _, f := range st.Fields {
		if f.JSONName == "method" && f.Required && f.Const != nil && f.Const.Kind == ir.String {
			return f.Const.Str
		}
	}
	return ""
}

// dirKey is a method sent one way.
type dirKey struct {
	method string
	dir    ir.Direction
}

// directions reads which way each method goes from the direction
// definitions (ClientRequest, ...); found is false when there are none.
func directions(defs map[string]ir.Decl, unions map[string]dirDef) (sent map[dirKey]bool, found bool) {
	sent = map[dirKey]bool{}
	for name, dd := range unions {
		d, ok := defs[name]
		if !ok {
			continue
		}
		found = true
		var structs []*ir.Struct
		switch t := (&ir.Type{Kind: ir.TDecl, Decl: d}).Resolve().Decl.(type) {
		case *ir.Union:
			for _, br := range t.Branches {
				if st, ok := br.Type.Resolve().Decl.(*ir.Struct); ok {
					structs = append(structs, st)
				}
			}
		case *ir.Struct:
			structs = append(structs, t)
		}
		for _, st := range structs {
			if m := methodConst(st); m != "" {
				sent[dirKey{m, dd.dir}] = true
			}
		}
	}
	return sent, found
}

// methodCarriers finds the definition that carries each method (the first
// *Request or *Notification struct with its constant), and the methods in
// order.
func (b *builder) methodCarriers() (map[string]*ir.Struct, []string) {
	carriers := map[string]*ir.Struct{}
	var order []string
	for _, d := range b.decls {
		st, ok := d.(*ir.Struct)
		name := d.Info().Definition
		if !ok || name == "" {
			continue
		}
		if _, isDir := directionDefs[name]; isDir {
			continue
		}
		if !strings.HasSuffix(name, "Request") && !strings.HasSuffix(name, "Notification") {
			continue
		}
		m := methodConst(st)
		if m == "" {
			continue
		}
		if _, dup := carriers[m]; !dup {
			carriers[m] = st
			order = append(order, m)
		}
	}
	sort.Strings(order)
	return carriers, order
}

// protocolFacts records what the revision's era and definitions say about
// the protocol: the types the dispatcher uses by role, the era, batches,
// error ids, error codes, and the names dispatch.go declares.
func (b *builder) protocolFacts(defs map[string]ir.Decl, carriers map[string]*ir.Struct) *ir.Protocol {
	p := &ir.Protocol{
		Implementation:     typeOfDef(defs, b, "Implementation"),
		ServerCapabilities: structOf(defs, "ServerCapabilities"),
		ClientCapabilities: structOf(defs, "ClientCapabilities"),
		InputRequired:      structOf(defs, "InputRequiredResult"),
		Names:              b.names,
	}
	for i := range b.sides {
		p.Sides = append(p.Sides, &b.sides[i])
	}
	if d, ok := defs["ResultType"]; ok {
		p.ResultType = d
	}
	if _, ok := carriers[spec.MethodDiscover]; ok {
		p.Modern = true
	}
	if msg, ok := defs["JSONRPCMessage"].(*ir.Union); ok {
		for _, br := range msg.Branches {
			if ir.HasKind(br.Kinds, ir.KArray) {
				p.Batches = true
			}
		}
	}
	for _, name := range []string{"JSONRPCErrorResponse", "JSONRPCError"} {
		if st := structOf(defs, name); st != nil {
			if f := st.FieldByJSON("id"); f != nil && !f.Required {
				p.ErrorIDOptional = true
			}
			break
		}
	}
	for _, e := range b.enumsByName("CacheScope") {
		p.CacheScope = e
	}
	mcp := false
	for name := range directionDefs {
		mcp = mcp || b.doc.Def(name) != nil
	}
	p.ErrorCodes = b.errorCodes(p.Modern, mcp)
	protocolConsts(p)
	return p
}

// method makes the method table entry of one method in one direction, or
// returns nil after reporting why it cannot.
func (b *builder) method(p *ir.Protocol, defs map[string]ir.Decl, name string, st *ir.Struct, dir ir.Direction) *ir.Method {
	def := st.Definition
	notification := strings.HasSuffix(def, "Notification")
	base := strings.TrimSuffix(strings.TrimSuffix(def, "Request"), "Notification")
	m := &ir.Method{
		Name:         name,
		Notification: notification,
		Direction:    dir,
		Definition:   st,
		Const:        "Method" + base,
		Handler:      base,
	}
	if notification {
		m.Const = "Method" + def
		m.Handler = "On" + base
	}
	if prev, ok := b.methodConsts[m.Const]; ok && prev != name {
		b.errorf(st.Pointer, "methods %q and %q both map to the Go constant %s", prev, name, m.Const)
		return nil
	}
	if _, ok := b.methodConsts[m.Const]; !ok {
		if !b.claim(m.Const, st.Pointer+"/properties/method") {
			return nil
		}
		b.methodConsts[m.Const] = name
	}
	if f := st.FieldByJSON("params"); f != nil {
		m.Params, m.ParamsRequired = f.Type, f.Required
		if _, ok := f.Type.Resolve().Decl.(*ir.Tuple); ok && f.Type.Resolve().Kind == ir.TDecl {
			// JSON-RPC allows params by position; the handlers take
			// them by name (found by the grammar fuzzer: the tuple was
			// declared twice).
			b.warnf(st.Pointer+"/properties/params", "the params of %s (method %q) are an array by position (a tuple), which the dispatcher does not take, so it leaves the method out; the type %s is generated",
				st.Name, name, f.Type.Resolve().Decl.GoName())
			return nil
		}
		if !isValueType(f.Type) {
			// Free-form params ({} or an open object) are raw JSON: the
			// handler gets them as a named type of their own, which
			// decodes, encodes and validates itself like every other.
			m.Params = b.wrapType(f.Type, st.Pointer+"/properties/params", derive(st.Name, "Params"),
				fmt.Sprintf("the params of the method %q", m.Name),
				fmt.Sprintf("is the params of [%s] (method %q), as the schema gives them.", st.Name, m.Name))
			if m.Params == nil {
				return nil
			}
		}
	}
	if !notification && !b.pairResult(m, defs, base) {
		return nil
	}
	switch {
	case p.Modern && name == spec.MethodDiscover:
		m.Default = ir.DefaultDiscover
	case !p.Modern && name == spec.MethodInitialize:
		m.Default = ir.DefaultInitialize
	case !p.Modern && name == spec.MethodInitialized:
		m.Default = ir.DefaultInitialized
	case name == spec.MethodPing && emptiable(m.Result):
		m.Default = ir.DefaultPing
	case !p.Modern && sessionMethods[name] && emptiable(m.Result):
		m.Default = ir.DefaultSession
	}
	return m
}

// emptiable reports whether a result type can hold the empty object the
// default answers of ping and the session methods give: a struct, or
// raw JSON (another protocol's "ping" may return anything else; its
// handler answers then).
func emptiable(t *ir.Type) bool {
	r := t.Resolve()
	if r.Kind == ir.TRaw {
		return true
	}
	if r.Kind != ir.TDecl {
		return false
	}
	switch d := r.Decl.(type) {
	case *ir.Struct, *ir.Raw:
		return true
	case *ir.Named:
		return d.Type.Resolve().Kind == ir.TRaw
	}
	return false
}

// pairResult finds the result type of a request XRequest (docs/other-schemas.md,
// "Pairing requests with results"), in order: the definition XResult; the
// exceptions table (MCP requests answered with EmptyResult); the "result"
// member of the JSON-RPC response definition named after the request,
// XSuccessResponse, or XResponse (itself, or its branch that has a
// "result", as A2A's XResponse is the union of the error response and
// XSuccessResponse). The XResultResponse definition, where the schema has
// one, also says whether an InputRequiredResult may come back. A request
// with none of these is left out of the dispatcher, with a warning.
func (b *builder) pairResult(m *ir.Method, defs map[string]ir.Decl, base string) bool {
	def := m.Definition.Definition
	name := base + "Result"
	if ex, ok := resultExceptions[def]; ok && defs[name] == nil {
		name = ex // an MCP request answered with EmptyResult
	}
	if resp := structOf(defs, base+"ResultResponse"); resp != nil {
		for _, f := range resp.Fields {
			if f.JSONName != "result" {
				continue
			}
			if u, ok := f.Type.Resolve().Decl.(*ir.Union); ok && f.Type.Kind == ir.TDecl {
				for _, br := range u.Branches {
					if br.Type.Resolve().Decl.Info().Definition == "InputRequiredResult" {
						m.InputRequired = true
					}
				}
			}
		}
	}
	if d, ok := defs[name]; ok {
		m.Result = &ir.Type{Kind: ir.TDecl, Decl: d}
	} else if t := b.responseResult(defs, base); t != nil {
		m.Result = t
	} else {
		b.warnf(m.Definition.Pointer, "request %s (method %q) has no result to pair it with (no %s definition, no \"result\" member in a %sSuccessResponse or %sResponse definition), so the dispatcher leaves the method out; see \"Pairing requests with results\" in mcpgen's docs/other-schemas.md",
			def, m.Name, name, base, base)
		return false
	}
	if st, ok := m.Result.Resolve().Decl.(*ir.Struct); ok {
		var ttl, scope bool
		for _, f := range st.Fields {
			ttl = ttl || f.JSONName == spec.MemberTTL
			scope = scope || f.JSONName == spec.MemberCacheScope
		}
		m.Cacheable = ttl && scope
	}
	return true
}

// responseResult is the type of the "result" member of the response
// definition of a request (base is its name without "Request"), a type
// of its own when the member's type is not one already, or nil.
func (b *builder) responseResult(defs map[string]ir.Decl, base string) *ir.Type {
	for _, name := range []string{base + "SuccessResponse", base + "Response"} {
		d, ok := defs[name]
		if !ok {
			continue
		}
		var cands []*ir.Struct
		switch d := (&ir.Type{Kind: ir.TDecl, Decl: d}).Resolve().Decl.(type) {
		case *ir.Struct:
			cands = append(cands, d)
		case *ir.Union:
			for _, br := range d.Branches {
				if st, ok := br.Type.Resolve().Decl.(*ir.Struct); ok {
					cands = append(cands, st)
				}
			}
		}
		for _, st := range cands {
			f := st.FieldByJSON("result")
			if f == nil || f.Name == "" || !f.Required || st.FieldByJSON("error") != nil {
				continue
			}
			if isValueType(f.Type) {
				return f.Type
			}
			return b.wrapType(f.Type, st.Pointer+"/properties/result", derive(st.Name, "Result"),
				"the result of "+st.Name, fmt.Sprintf("is the result member of [%s].", st.Name))
		}
	}
	return nil
}

// wrapType declares a named type for t, a member's type that is no
// declaration (free-form params, a result that is an array), so that the
// dispatcher can decode, encode and validate it; once per member (a
// method sent both ways is built twice). nil after a name clash.
func (b *builder) wrapType(t *ir.Type, ptr, name, role, doc string) *ir.Type {
	if w, ok := b.wrapped[ptr]; ok {
		return w
	}
	if !b.claimAs(name, ptr, role) {
		return nil
	}
	n := &ir.Named{DeclInfo: ir.DeclInfo{Name: name, Pointer: ptr, Doc: name + " " + doc}, Type: t}
	b.add(n)
	w := &ir.Type{Kind: ir.TDecl, Decl: n}
	b.wrapped[ptr] = w
	return w
}

// isValueType reports whether values of t are a declared type of the
// package, which has the methods the dispatcher calls (decodeJSON,
// encodeJSON, validate).
func isValueType(t *ir.Type) bool {
	t = t.Resolve()
	if t.Kind != ir.TDecl {
		return false
	}
	switch t.Decl.(type) {
	case *ir.Struct, *ir.Union, *ir.Kinds, *ir.Named, *ir.Enum, *ir.Raw:
		return true
	}
	return false
}

func (b *builder) enumsByName(name string) []*ir.Enum {
	var out []*ir.Enum
	for _, d := range b.decls {
		if e, ok := d.(*ir.Enum); ok && e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// typeOfDef is the type of a definition: a struct declaration, or the
// external type the user mapped it to; nil otherwise.
func typeOfDef(defs map[string]ir.Decl, b *builder, name string) *ir.Type {
	if d, ok := defs[name]; ok {
		if t := (&ir.Type{Kind: ir.TDecl, Decl: d}).Resolve(); t.IsStruct() {
			return t
		}
		return nil
	}
	if ext, ok := b.opts.External[name]; ok {
		return &ir.Type{Kind: ir.TExternal, Ext: &ext}
	}
	return nil
}
