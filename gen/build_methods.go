package gen

import (
	"sort"
	"strings"
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

var directionDefs = map[string]struct {
	dir          Direction
	notification bool
}{
	"ClientRequest":      {ClientToServer, false},
	"ServerRequest":      {ServerToClient, false},
	"ClientNotification": {ClientToServer, true},
	"ServerNotification": {ServerToClient, true},
}

// buildProtocol fills pkg.Protocol, or leaves it nil when the schema has
// no direction definitions.
func (b *builder) buildProtocol() *Protocol {
	defs := map[string]Decl{}
	for _, d := range b.decls {
		if name := d.info().Definition; name != "" {
			defs[name] = d
		}
	}
	structOf := func(name string) *Struct {
		d, ok := defs[name]
		if !ok {
			return nil
		}
		t := (&Type{Kind: TDecl, Decl: d}).Resolve()
		st, _ := t.Decl.(*Struct)
		return st
	}
	methodConst := func(st *Struct) string {
		for _, f := range st.Fields {
			if f.JSONName == "method" && f.Required && f.Const != nil && f.Const.Kind == 3 /* schema.String */ {
				return f.Const.Str
			}
		}
		return ""
	}
	// Which methods go which way.
	type dirKey struct {
		method string
		dir    Direction
	}
	sent := map[dirKey]bool{}
	found := false
	for name, dd := range directionDefs {
		d, ok := defs[name]
		if !ok {
			continue
		}
		found = true
		var structs []*Struct
		switch t := (&Type{Kind: TDecl, Decl: d}).Resolve().Decl.(type) {
		case *Union:
			for _, br := range t.Branches {
				if st, ok := br.Type.Resolve().Decl.(*Struct); ok {
					structs = append(structs, st)
				}
			}
		case *Struct:
			structs = append(structs, t)
		}
		for _, st := range structs {
			if m := methodConst(st); m != "" {
				sent[dirKey{m, dd.dir}] = true
			}
		}
	}
	if !found {
		return nil
	}
	// The definition that carries each method.
	carriers := map[string]*Struct{}
	var order []string
	for _, d := range b.decls {
		st, ok := d.(*Struct)
		name := d.info().Definition
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
	p := &Protocol{
		Implementation:     typeOfDef(defs, b, "Implementation"),
		ServerCapabilities: structOf("ServerCapabilities"),
		ClientCapabilities: structOf("ClientCapabilities"),
		InputRequired:      structOf("InputRequiredResult"),
	}
	if d, ok := defs["ResultType"]; ok {
		p.ResultType = d
	}
	if _, ok := carriers["server/discover"]; ok {
		p.Modern = true
	}
	if msg, ok := defs["JSONRPCMessage"].(*Union); ok {
		for _, br := range msg.Branches {
			if kindsHave(br.Kinds, KArray) {
				p.Batches = true
			}
		}
	}
	for _, name := range []string{"JSONRPCErrorResponse", "JSONRPCError"} {
		if st := structOf(name); st != nil {
			if f := fieldByJSON(st, "id"); f != nil && !f.Required {
				p.ErrorIDOptional = true
			}
			break
		}
	}
	for _, e := range b.enumsByName("CacheScope") {
		p.CacheScope = e
	}
	p.ErrorCodes = b.errorCodes(p.Modern)
	sort.Strings(order)
	consts := map[string]string{}
	for _, name := range order {
		st := carriers[name]
		def := st.Definition
		notification := strings.HasSuffix(def, "Notification")
		base := strings.TrimSuffix(strings.TrimSuffix(def, "Request"), "Notification")
		for _, dir := range []Direction{ClientToServer, ServerToClient} {
			if !sent[dirKey{name, dir}] {
				continue
			}
			m := &Method{
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
			if prev, ok := consts[m.Const]; ok && prev != name {
				b.errorf(st.Pointer, "methods %q and %q both map to the Go constant %s", prev, name, m.Const)
				continue
			}
			if _, ok := consts[m.Const]; !ok {
				if !b.claim(m.Const, st.Pointer+"/properties/method") {
					continue
				}
				consts[m.Const] = name
			}
			for _, f := range st.Fields {
				if f.JSONName == "params" {
					m.Params, m.ParamsRequired = f.Type, f.Required
				}
			}
			if !notification {
				if !b.pairResult(m, defs, base, structOf) {
					continue
				}
			}
			switch {
			case p.Modern && name == "server/discover":
				m.Default = "discover"
			case !p.Modern && name == "initialize":
				m.Default = "initialize"
			case !p.Modern && name == "notifications/initialized":
				m.Default = "initialized"
			case name == "ping":
				m.Default = "ping"
			case !p.Modern && sessionMethods[name]:
				m.Default = "session"
			}
			p.Methods = append(p.Methods, m)
		}
	}
	sort.SliceStable(p.Methods, func(i, j int) bool {
		if p.Methods[i].Direction != p.Methods[j].Direction {
			return p.Methods[i].Direction < p.Methods[j].Direction
		}
		return p.Methods[i].Name < p.Methods[j].Name
	})
	return p
}

// pairResult finds the result type of a request: XRequest -> XResult, the
// exceptions table, and (where the schema has one) the XResultResponse
// definition, which also says whether an InputRequiredResult may come back.
func (b *builder) pairResult(m *Method, defs map[string]Decl, base string, structOf func(string) *Struct) bool {
	def := m.Definition.Definition
	name := base + "Result"
	if ex, ok := resultExceptions[def]; ok {
		name = ex
	}
	if resp := structOf(base + "ResultResponse"); resp != nil {
		for _, f := range resp.Fields {
			if f.JSONName != "result" {
				continue
			}
			if u, ok := f.Type.Resolve().Decl.(*Union); ok && f.Type.Kind == TDecl {
				for _, br := range u.Branches {
					if br.Type.Resolve().Decl.info().Definition == "InputRequiredResult" {
						m.InputRequired = true
					}
				}
			}
		}
	}
	d, ok := defs[name]
	if !ok {
		b.errorf(m.Definition.Pointer, "request %s (method %q) has no result type: there is no %s definition and the pairing table in gen/build_methods.go has no entry for it",
			def, m.Name, name)
		return false
	}
	m.Result = &Type{Kind: TDecl, Decl: d}
	if st, ok := m.Result.Resolve().Decl.(*Struct); ok {
		var ttl, scope bool
		for _, f := range st.Fields {
			ttl = ttl || f.JSONName == "ttlMs"
			scope = scope || f.JSONName == "cacheScope"
		}
		m.Cacheable = ttl && scope
	}
	return true
}

func kindsHave(ks []Kind, k Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

func (b *builder) enumsByName(name string) []*Enum {
	var out []*Enum
	for _, d := range b.decls {
		if e, ok := d.(*Enum); ok && e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// typeOfDef is the type of a definition: a struct declaration, or the
// external type the user mapped it to; nil otherwise.
func typeOfDef(defs map[string]Decl, b *builder, name string) *Type {
	if d, ok := defs[name]; ok {
		if t := (&Type{Kind: TDecl, Decl: d}).Resolve(); isStruct(t) {
			return t
		}
		return nil
	}
	if ext, ok := b.opts.External[name]; ok {
		return &Type{Kind: TExternal, Ext: &ext}
	}
	return nil
}

// sameType reports whether t is the type u names (through aliases).
func sameType(t, u *Type) bool {
	if t == nil || u == nil {
		return false
	}
	t, u = t.Resolve(), u.Resolve()
	switch {
	case t.Kind == TDecl && u.Kind == TDecl:
		return t.Decl == u.Decl
	case t.Kind == TExternal && u.Kind == TExternal:
		return *t.Ext == *u.Ext
	}
	return false
}
