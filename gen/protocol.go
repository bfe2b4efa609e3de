package gen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/spec"

	"github.com/mcpgen/mcpgen/schema"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// This file holds what mcpgen knows about MCP beyond its schemas: facts
// the specification states in prose. The builder applies them; each one
// is checked against the schema it is applied to, so a schema without the
// definitions they name generates as plain JSON Schema.

// typedMembers are members whose schema is a plain string but whose values
// the specification lists in the description of a definition: a struct
// member of that name is typed by the definition, so that its values are
// the definition's constants (resultType is ResultType, "complete" is
// ResultTypeComplete).
var typedMembers = map[string]string{
	spec.MemberResultType: "ResultType",
}

// namedValues are the constants of those definitions (a plain string in
// the schema): definition -> constants.
// The values of ResultType, and the default cache scope.
const (
	resultComplete      = "complete"
	resultInputRequired = "input_required"
	cacheScopePublic    = "public"
)

var namedValues = map[string][]namedValue{
	"ResultType": {
		{"Complete", resultComplete, "marks a result that completes its request."},
		{"InputRequired", resultInputRequired, "marks an InputRequiredResult: the server needs more input from the client,\nwhich retries the request."},
	},
}

type namedValue struct {
	word, value, doc string
}

// namedConsts gives n, the type of definition d, the constants a
// protocol fact lists for it.
func (b *builder) namedConsts(n *ir.Named, d *schema.Schema) {
	vals, ok := namedValues[d.Name]
	if !ok || !plainString(d) {
		return
	}
	for _, v := range vals {
		name := n.Name + v.word
		if !b.claimAs(name, d.Pointer, "a value of "+n.Name) {
			continue
		}
		n.Consts = append(n.Consts, &ir.Const{Name: name, Value: v.value, Doc: name + " " + v.doc})
	}
}

// capabilityDefs are the definitions whose members declare capabilities.
// An open object among them (`logging: {}`: an object with no declared
// properties) is a typed empty struct that keeps the members it is sent,
// not raw JSON, so that a capability is set with a composite literal.
var capabilityDefs = []string{"ServerCapabilities", "ClientCapabilities"}

// plainString reports whether s is `{"type": "string"}` and nothing more
// (a description aside).
func plainString(s *schema.Schema) bool {
	if len(s.Types) != 1 || s.Types[0] != "string" {
		return false
	}
	c := *s
	c.Types = nil
	return !hasConstraints(&c)
}

// memberType returns the type a protocol fact gives the member jsonName of
// schema ps, or nil.
func (b *builder) memberType(jsonName string, ps *schema.Schema) *ir.Type {
	defName, ok := typedMembers[jsonName]
	if !ok {
		return nil
	}
	def := b.doc.Def(defName)
	if def == nil || !b.isDef(def) || !plainString(def) {
		return nil
	}
	cs, err := b.deref(ps, 0)
	if err != nil || !plainString(cs) {
		return nil
	}
	return b.defType(def)
}

// inCapabilities reports whether the object schema s is a capability
// definition or an object reached from one through properties only.
func (b *builder) inCapabilities(s *schema.Schema) bool {
	for _, name := range capabilityDefs {
		def := b.doc.Def(name)
		if def == nil {
			continue
		}
		if s == def {
			return true
		}
		rest, ok := strings.CutPrefix(s.Pointer, def.Pointer+"/")
		if !ok {
			continue
		}
		parts := strings.Split(rest, "/")
		if len(parts)%2 != 0 {
			continue
		}
		all := true
		for i := 0; i < len(parts); i += 2 {
			all = all && parts[i] == "properties"
		}
		if all {
			return true
		}
	}
	return false
}

// openCapability returns the typed empty struct for the member ps of a
// capability object when ps is an open object (one with no declared
// properties, like `logging: {}` or `completions: {"$ref": "#/$defs/JSONObject"}`),
// or nil.
func (b *builder) openCapability(ps *schema.Schema, name string) *ir.Type {
	cs, err := b.deref(ps, 0)
	if err != nil || cs.IsBool || len(cs.Properties) > 0 || len(cs.Required) > 0 || !slices.Equal(cs.Types, []string{"object"}) {
		return nil
	}
	if len(cs.AnyOf)+len(cs.OneOf)+len(cs.AllOf) > 0 || cs.Enum != nil || cs.Const != nil {
		return nil
	}
	// Inline, the object must leave its members free: one that constrains
	// them is a map of named things (experimental). Through a $ref it is
	// the schema's free-form object definition (JSONObject).
	viaRef := ps.Ref != nil && !hasConstraints(ps)
	if ap := cs.AdditionalProperties; ap != nil && (ap.IsFalse() || (!viaRef && !isTrue(ap))) {
		return nil
	}
	// The struct stands for the member (its pointer and description), not
	// for a definition it may refer to (JSONObject).
	c := *cs
	c.Pointer, c.Name = ps.Pointer, ""
	c.Description, c.Title, c.Deprecated = ps.Description, ps.Title, ps.Deprecated
	if t, ok := b.intern.typeAt(c.Pointer); ok {
		return t
	}
	return b.structType(&c, name)
}

// jsonrpcCodes are the error codes of JSON-RPC 2.0 itself; the runtime
// declares their constants (CodeParseError, ...) in every package with a
// dispatcher.
var jsonrpcCodes = []int64{-32700, -32600, -32601, -32602, -32603}

// resourceNotFound is the code the resources pages of 2025-11-25 and
// earlier give an unknown resource; 2026-07-28 retires it (servers answer
// -32602) but clients still accept it from earlier servers.
const resourceNotFound = spec.CodeResourceNotFound

// errorCodes lists the error codes of the revision: one per error
// definition with a constant code (XError gets CodeX), and, for MCP,
// resource not found, which the specification names in prose.
func (b *builder) errorCodes(modern, mcp bool) []*ir.ErrorCode {
	var codes []*ir.ErrorCode
	if mcp {
		nf := &ir.ErrorCode{Name: "CodeResourceNotFound", Code: resourceNotFound,
			Doc: "CodeResourceNotFound (-32002) answers a resources/read of a resource that does not exist."}
		if modern {
			nf.Doc = "CodeResourceNotFound (-32002) is how servers of revisions before this one answer a resources/read of a resource that does not exist; clients still accept it from them.\n\nDeprecated: servers of this revision answer CodeInvalidParams."
		}
		codes = append(codes, nf)
	}
	ptrs := map[*ir.ErrorCode]string{}
	for _, d := range b.decls {
		st, ok := d.(*ir.Struct)
		if !ok || !strings.HasSuffix(st.Definition, "Error") || st.Definition == "Error" {
			continue
		}
		code, ok := constCode(st)
		if !ok || slices.Contains(jsonrpcCodes, code) {
			continue
		}
		c := &ir.ErrorCode{Name: "Code" + strings.TrimSuffix(st.Name, "Error"), Code: code, Definition: st.Name,
			Doc: fmt.Sprintf("Code%s (%d) is the code of %s.", strings.TrimSuffix(st.Name, "Error"), code, st.Name)}
		codes = append(codes, c)
		ptrs[c] = st.Pointer
	}
	// A schema that defines ResourceNotFoundError itself gives the code
	// its constant; the fact from prose steps aside.
	if len(codes) > 0 && codes[0].Code == resourceNotFound && codes[0].Definition == "" {
		for _, c := range codes[1:] {
			if c.Name == codes[0].Name {
				codes = codes[1:]
				break
			}
		}
	}
	var out []*ir.ErrorCode
	for _, c := range codes {
		if b.claimAs(c.Name, ptrs[c], "an error code constant") {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(x, y *ir.ErrorCode) int { return int(y.Code - x.Code) })
	return out
}

// constCode finds the constant integer code of an error definition: its
// own required "code" member, or that of its "error" member.
func constCode(st *ir.Struct) (int64, bool) {
	for _, f := range st.Fields {
		if f.JSONName == "code" && f.Required && f.Const != nil && f.Type.Kind == ir.TInt {
			n, err := strconv.ParseInt(f.Const.Num, 10, 64)
			return n, err == nil
		}
	}
	for _, f := range st.Fields {
		if f.JSONName == "error" && f.Type.Kind == ir.TDecl {
			if inner, ok := f.Type.Resolve().Decl.(*ir.Struct); ok && inner != st {
				return constCode(inner)
			}
		}
	}
	return 0, false
}

// sides are the two directions of the protocol and the names of what
// dispatch.go declares for each.
var sides = []ir.Side{
	{Dir: ir.ClientToServer, Handler: "ServerHandler", Unimplemented: "UnimplementedServerHandler", Dispatcher: "ServerDispatcher",
		Options: "ServerOptions", Constructor: "NewServerDispatcher", Receiver: "server", Sender: "client"},
	{Dir: ir.ServerToClient, Handler: "ClientHandler", Unimplemented: "UnimplementedClientHandler", Dispatcher: "ClientDispatcher",
		Options: "ClientOptions", Constructor: "NewClientDispatcher", Receiver: "client", Sender: "server"},
}

// protocolNames are the other names dispatch.go declares.
var protocolNames = ir.ProtocolNames{
	MethodInfo: "MethodInfo", Methods: "Methods", DecodeResult: "DecodeResult", NeedInput: "NeedInput", CacheKey: "CacheKey",
	EffectiveResultType: "EffectiveResultType", TTL: "TTL", Fresh: "Fresh",
	MetaValue: "MetaValue", SetMetaValue: "SetMetaValue",
}

// helperMethods are the methods the package adds to a struct with the
// member: resultType gets EffectiveResultType, ttlMs gets TTL and Fresh (on
// result structs), _meta gets MetaValue and SetMetaValue (see metaField).
// They are claimed in every struct with the member (memberNames).
var helperMethods = map[string][]string{
	spec.MemberResultType: {protocolNames.EffectiveResultType},
	spec.MemberTTL:        {protocolNames.TTL, protocolNames.Fresh},
	spec.MemberMeta:       {protocolNames.MetaValue, protocolNames.SetMetaValue},
}

// metaField is the field of st's _meta when the struct gets MetaValue and
// SetMetaValue, which read and write one member of it as JSON: a _meta of
// raw JSON (json.RawMessage or a named type of it) or of a struct type
// (with typed members and Extra), by value or pointer. Another type
// (a map of one value type, a union) gets none: nil.
func metaField(st *ir.Struct) *ir.Field {
	for _, f := range st.Fields {
		if f.JSONName != spec.MemberMeta || f.Name == "" {
			continue
		}
		t := f.Type.Resolve()
		switch {
		case t.Kind == ir.TRaw:
			return f
		case t.Kind != ir.TDecl:
			return nil
		}
		switch d := t.Decl.(type) {
		case *ir.Struct:
			return f
		case *ir.Named:
			if d.Type.Resolve().Kind == ir.TRaw {
				return f
			}
		}
	}
	return nil
}

// defaultSources says which members of server/discover's and initialize's
// results the dispatcher fills from its options (or the request).
var defaultSources = map[string]ir.Source{
	"supportedVersions":   ir.FromSupportedVersions,
	"capabilities":        ir.FromCapabilities,
	"serverInfo":          ir.FromServerInfo,
	"instructions":        ir.FromInstructions,
	"protocolVersion":     ir.FromNegotiatedVersion,
	spec.MemberTTL:        ir.FromDiscoverTTL,
	spec.MemberCacheScope: ir.FromDiscoverCacheScope,
}

// sessionMethods are the requests of revisions with the initialize
// handshake whose bookkeeping the runtime does (runtime/protocol/session.go): the
// dispatcher answers them with an empty result when the handler does not
// (ir.DefaultSession), and keeps what they set in the session.
var sessionMethods = map[string]bool{
	spec.MethodSetLevel:    true,
	spec.MethodSubscribe:   true,
	spec.MethodUnsubscribe: true,
}

// glueNames are the functions the emitted glue of the HTTP transport and
// of the tasks extension declares (gen/emit/emit_http.go, emit_tasks.go);
// the rest of both is the runtime's.
var glueNames = []string{"NewHTTPHandler", "RunAsTask", "AwaitInput"}

// claimProtocolNames claims what dispatch.go declares: the sides' names
// and the package-level names (the helper methods are claimed by each
// struct, see memberNames).
func (b *builder) claimProtocolNames() {
	for _, s := range sides {
		for _, n := range []*string{&s.Handler, &s.Unimplemented, &s.Dispatcher, &s.Options, &s.Constructor} {
			*n = b.ownName(*n, "the generated dispatcher")
		}
		b.sides = append(b.sides, s)
	}
	b.names = protocolNames
	n := &b.names
	for _, name := range []*string{&n.MethodInfo, &n.Methods, &n.DecodeResult, &n.NeedInput, &n.CacheKey} {
		*name = b.ownName(*name, "the generated dispatcher")
	}
	for _, name := range glueNames {
		b.ownName(name, "the generated dispatcher")
	}
	for _, name := range clientNames {
		b.ownName(name, "the generated client")
	}
}

// results works out what the protocol makes of each result struct: every
// struct with a resultType typed ResultType, and the results of methods.
func (b *builder) results(p *ir.Protocol) []*ir.Result {
	byStruct := map[*ir.Struct]*ir.Result{}
	get := func(st *ir.Struct) *ir.Result {
		if r, ok := byStruct[st]; ok {
			return r
		}
		r := &ir.Result{Struct: st}
		byStruct[st] = r
		return r
	}
	for _, d := range b.decls {
		st, ok := d.(*ir.Struct)
		if !ok {
			continue
		}
		if f := st.FieldByJSON(spec.MemberResultType); f != nil && f.Name != "" && !f.Pointer() && p.ResultType != nil &&
			f.Type.Kind == ir.TDecl && f.Type.Decl == p.ResultType {
			get(st).ResultType = f
		}
	}
	// What a handler answers: the results of methods, and the
	// InputRequiredResult of NeedInput.
	var answers []*ir.Struct
	for _, m := range p.Methods {
		if m.Result == nil {
			continue
		}
		st, ok := m.Result.Resolve().Decl.(*ir.Struct)
		if !ok || m.Result.Resolve().Kind != ir.TDecl {
			continue
		}
		answers = append(answers, st)
		if f := st.FieldByJSON(spec.MemberTTL); m.Cacheable && f != nil && f.Type.Kind == ir.TInt && !f.Pointer() {
			get(st).TTL = f
		}
	}
	if p.InputRequired != nil {
		answers = append(answers, p.InputRequired)
	}
	for _, st := range answers {
		meta := st.FieldByJSON(spec.MemberMeta)
		if meta == nil || p.Implementation == nil || meta.Type.Kind != ir.TDecl {
			continue
		}
		if ms, ok := meta.Type.Resolve().Decl.(*ir.Struct); ok {
			if si := ms.FieldByJSON(spec.MetaServerInfo); si != nil && si.Type.Same(p.Implementation) && si.Pointer() {
				r := get(st)
				r.Meta, r.ServerInfo = meta, si
			}
		}
	}
	var out []*ir.Result
	for _, r := range byStruct {
		out = append(out, r)
	}
	slices.SortFunc(out, func(x, y *ir.Result) int { return strings.Compare(x.Struct.Name, y.Struct.Name) })
	return out
}

// defaultFields lists the fields of a default answer (server/discover,
// initialize) the dispatcher fills, each where the types allow it.
func defaultFields(p *ir.Protocol, m *ir.Method) []*ir.DefaultField {
	if m.Result == nil || (m.Default != ir.DefaultDiscover && m.Default != ir.DefaultInitialize) {
		return nil
	}
	st, ok := m.Result.Resolve().Decl.(*ir.Struct)
	if !ok {
		return nil
	}
	var out []*ir.DefaultField
	for _, fl := range st.Fields {
		src, ok := defaultSources[fl.JSONName]
		if fl.Name == "" || !ok {
			continue
		}
		t := fl.Type.Resolve()
		df := &ir.DefaultField{Field: fl, Source: src}
		switch src {
		case ir.FromSupportedVersions:
			ok = t.Kind == ir.TSlice && t.Elem.Kind == ir.TString
		case ir.FromCapabilities:
			ok = p.ServerCapabilities != nil && t.Kind == ir.TDecl && t.Decl == ir.Decl(p.ServerCapabilities)
		case ir.FromServerInfo:
			ok = t.Same(p.Implementation)
		case ir.FromInstructions:
			ok = t.Kind == ir.TString && fl.Pointer()
		case ir.FromNegotiatedVersion:
			ok = m.Default == ir.DefaultInitialize && t.Kind == ir.TString && !fl.Pointer() && m.Params != nil && m.Params.IsStruct()
			if ok {
				pf := m.Params.Resolve().Decl.(*ir.Struct).FieldByJSON("protocolVersion")
				ok = pf != nil && pf.Type.Kind == ir.TString && !pf.Pointer()
				df.Param = pf
			}
		case ir.FromDiscoverTTL:
			ok = t.Kind == ir.TInt && !fl.Pointer()
		case ir.FromDiscoverCacheScope:
			ok = p.CacheScope != nil && t.Kind == ir.TDecl && t.Decl == ir.Decl(p.CacheScope) && !fl.Pointer()
		}
		if ok {
			out = append(out, df)
		}
	}
	return out
}

// protocolConsts records the constants the dispatcher uses for the values
// the specification gives resultType and cacheScope.
func protocolConsts(p *ir.Protocol) {
	set := func(value, name string) {
		switch value {
		case resultComplete:
			p.Complete = name
		case resultInputRequired:
			p.InputRequiredType = name
		}
	}
	switch rt := p.ResultType.(type) {
	case *ir.Named:
		for _, c := range rt.Consts {
			set(c.Value, c.Name)
		}
	case *ir.Enum:
		// A draft of 2026-07-28 made ResultType an enum.
		for _, v := range rt.Values {
			if v.Value.Kind == ir.String {
				set(v.Value.Str, v.Name)
			}
		}
	}
	if p.CacheScope != nil {
		for _, v := range p.CacheScope.Values {
			if v.Value.Str == cacheScopePublic {
				p.DefaultCacheScope = v.Name
			}
		}
	}
}
