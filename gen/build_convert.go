package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/spec"
	"github.com/mcpgen/mcpgen/schema"
)

// This file builds the conversions between a package's messages and those
// of older revisions (Options.Older, mcpgen generate --serve-older). A
// conversion works on JSON (runtime/protocol, convert.go): the era members
// (spec.EraMembers) are left out on the way to an older revision and
// filled on the way back, and everything else passes as it is; each side
// is checked against its own schema. So what the builder decides is per
// method: which methods both revisions carry, where their params and
// result are in the older schema, and what this revision requires that an
// older message lacks. The older schema itself goes into the package,
// reduced to what validation reads.

// Older is an older revision to convert to and from.
type Older struct {
	File string // names the schema in messages
	Data []byte // the schema
	// Options are the older package's own (those it is generated with):
	// PinnedOptions for a pinned revision.
	Options Options
}

// olderSuffix is the part of the names of an older revision's
// conversions that names the revision: its letters and digits, the first
// letter upper case ("2025-11-25" -> "20251125").
func olderSuffix(revision string) string {
	var b strings.Builder
	for _, c := range revision {
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			b.WriteRune(c)
		}
	}
	s := b.String()
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

// olderVar is the exported variable holding an older revision's
// conversions.
func olderVar(revision string) string { return "Older" + olderSuffix(revision) }

// reserveOlderNames claims the exported names the conversions declare,
// before any definition.
func (b *builder) reserveOlderNames() {
	if len(b.opts.Older) == 0 {
		return
	}
	b.ownName(olderRevisionsName, "the conversions to older revisions")
	for _, o := range b.opts.Older {
		b.ownName(olderVar(o.Options.Revision), "the conversions to revision "+o.Options.Revision)
	}
}

// olderRevisionsName is the exported list of every older revision's
// conversions, newest first.
const olderRevisionsName = "OlderRevisions"

// buildOlder builds the conversions to and from each older revision
// (loaded and built by loadOlder).
func (b *builder) buildOlder(pkg *ir.Package) {
	if len(b.opts.Older) == 0 {
		return
	}
	if pkg.Protocol == nil {
		b.errorf("", "--serve-older needs the dispatcher (and a schema with methods): the conversions are per method")
		return
	}
	seen := map[string]bool{}
	for _, o := range b.older {
		rev := o.Options.Revision
		switch {
		case rev == "" || o.Options.Package == "":
			b.errorf("", "older revision %q: a revision and a package name are needed", rev)
			continue
		case rev == b.opts.Revision:
			b.errorf("", "older revision %s is the revision being generated", rev)
			continue
		case seen[rev]:
			b.errorf("", "older revision %s is listed twice", rev)
			continue
		}
		seen[rev] = true
		if o.err != nil {
			b.errs = append(b.errs, o.err)
			continue
		}
		doc, old := o.doc, o.pkg
		if old.Protocol == nil {
			b.errorf("", "older revision %s has no methods to convert (no dispatcher)", rev)
			continue
		}
		reduced, err := reduceSchema(o.Data)
		if err == nil {
			_, err = codec.CompileSchema(reduced)
		}
		if err != nil {
			b.errs = append(b.errs, &schema.Diagnostic{File: o.File, Message: fmt.Sprintf("older revision %s: the conversions cannot check its messages: %v", rev, err)})
			continue
		}
		c := &convBuilder{b: b, doc: doc, newPkg: pkg, oldPkg: old}
		out := &ir.Older{
			Revision:    rev,
			File:        "older_" + o.Options.Package + ".go",
			SchemaFile:  "older_" + o.Options.Package + ".json",
			SchemaVar:   "older" + olderSuffix(rev) + "Schema",
			Var:         b.ownName(olderVar(rev), "the conversions to revision "+rev),
			Schema:      reduced,
			Definitions: defsPointer(o.Data),
		}
		b.claimAs(out.SchemaVar, "/older/"+rev+"/schema", "the schema of revision "+rev)
		out.Methods = c.methods()
		pkg.Older = append(pkg.Older, out)
	}
	sort.SliceStable(pkg.Older, func(i, j int) bool { return pkg.Older[i].Revision > pkg.Older[j].Revision })
	if len(pkg.Older) > 0 {
		pkg.OlderRevisions = b.ownName(olderRevisionsName, "the conversions to older revisions")
	}
}

// defsPointer is where the schema document keeps its definitions.
func defsPointer(data []byte) string {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) == nil {
		if _, ok := top["$defs"]; ok {
			return "/$defs"
		}
	}
	return "/definitions"
}

// convBuilder finds the methods one newer and one older package both
// carry.
type convBuilder struct {
	b              *builder
	doc            *schema.Document // the older schema
	newPkg, oldPkg *ir.Package
}

// methods pairs the methods both revisions carry, in the same direction,
// and the input requests of the newer revision (elicitation/create inside
// an InputRequiredResult) with the older revision's requests of the same
// method, which its servers send.
func (c *convBuilder) methods() []*ir.ConvMethod {
	type key struct {
		name string
		dir  ir.Direction
	}
	old := map[key]*ir.Method{}
	for _, m := range c.oldPkg.Protocol.Methods {
		old[key{m.Name, m.Direction}] = m
	}
	byName := map[string]*ir.ConvMethod{}
	var out []*ir.ConvMethod
	add := func(name string, dir ir.Direction, notification bool, np *ir.Type, npReq bool, nr *ir.Type, om *ir.Method) {
		if m := byName[name]; m != nil {
			m.ToClient = m.ToClient || dir == ir.ServerToClient
			return
		}
		if (np == nil) != (om.Params == nil) {
			return // params one revision has and the other cannot carry
		}
		m := &ir.ConvMethod{Name: name, Notification: notification, ToClient: dir == ir.ServerToClient,
			NewParams: np, NewParamsRequired: npReq, ParamsRequired: om.ParamsRequired}
		if om.Params != nil {
			p, ok := c.paramsPointer(om)
			if !ok {
				c.b.errorf("", "older revision %s: the params of %s are not at properties/params of %s", c.oldPkg.Revision, name, om.Definition.Name)
				return
			}
			m.Params = p
			m.ParamsMeta = metaFills(np)
		}
		if !notification {
			if nr == nil || om.Result == nil {
				return
			}
			p := declPointer(om.Result)
			if p == "" {
				c.b.errorf("", "older revision %s: the result of %s is not a definition", c.oldPkg.Revision, name)
				return
			}
			m.NewResult, m.Result = nr, p
			m.ResultFill = resultFills(nr)
			m.ResultMeta = metaFills(nr)
		}
		byName[name] = m
		out = append(out, m)
	}
	for _, m := range c.newPkg.Protocol.Methods {
		om := old[key{m.Name, m.Direction}]
		if om == nil || om.Notification != m.Notification {
			continue
		}
		add(m.Name, m.Direction, m.Notification, m.Params, m.ParamsRequired, m.Result, om)
	}
	// Input requests: the newer revision's InputRequest branches carry
	// the method; their params and the result paired with them.
	if p := c.newPkg.Protocol; p.InputRequired != nil {
		reqs := inputRequestStructs(p)
		for _, k := range p.InputKinds {
			om := old[key{k.Method, ir.ServerToClient}]
			req := reqs[k.Method]
			if om == nil || om.Notification || req == nil {
				continue
			}
			var np *ir.Type
			var npReq bool
			if f := req.FieldByJSON("params"); f != nil {
				np, npReq = f.Type, f.Required
			}
			add(k.Method, ir.ServerToClient, false, np, npReq, &ir.Type{Kind: ir.TDecl, Decl: k.Result}, om)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// paramsPointer is the JSON pointer, in the older schema, of the params
// member of the method's request or notification definition.
func (c *convBuilder) paramsPointer(m *ir.Method) (string, bool) {
	if m.Definition == nil {
		return "", false
	}
	def := c.doc.Def(m.Definition.DefName())
	if def == nil {
		return "", false
	}
	for _, p := range def.Properties {
		if p.Name == "params" && p.Schema != nil {
			return p.Schema.Pointer, true
		}
	}
	return "", false
}

// declPointer is the JSON pointer of the schema node a declared type
// comes from, or "".
func declPointer(t *ir.Type) string {
	r := t.Resolve()
	if r.Kind != ir.TDecl {
		return ""
	}
	return r.Decl.Info().Pointer
}

// resultFills are the era members a result type requires at its top,
// with what a conversion from an older revision gives them.
func resultFills(t *ir.Type) []*ir.ZeroMember {
	st, ok := rep(t).Decl.(*ir.Struct)
	if !ok || rep(t).Kind != ir.TDecl {
		return nil
	}
	var out []*ir.ZeroMember
	for _, f := range st.Fields {
		em, era := spec.Era(f.JSONName, spec.InMessage)
		if !era || !f.Required {
			continue
		}
		switch {
		case em.Fill != "":
			out = append(out, &ir.ZeroMember{Name: f.JSONName, JSON: fmt.Sprintf("%q", em.Fill)})
		case zeroJSON(f.Type) != "":
			out = append(out, &ir.ZeroMember{Name: f.JSONName, JSON: zeroJSON(f.Type)})
		}
	}
	return out
}

// metaFills are the era members the _meta of a params or result type
// requires, with their zero values (the runtime fills them where it has
// them: the protocol version and the client's capabilities, from the
// session).
func metaFills(t *ir.Type) []*ir.ZeroMember {
	if t == nil {
		return nil
	}
	st, ok := rep(t).Decl.(*ir.Struct)
	if !ok || rep(t).Kind != ir.TDecl {
		return nil
	}
	f := st.FieldByJSON(spec.MemberMeta)
	if f == nil {
		return nil
	}
	ms, ok := rep(f.Type).Decl.(*ir.Struct)
	if !ok || rep(f.Type).Kind != ir.TDecl {
		return nil
	}
	var out []*ir.ZeroMember
	for _, mf := range ms.Fields {
		if _, era := spec.Era(mf.JSONName, spec.InMeta); !era || !mf.Required {
			continue
		}
		if z := zeroJSON(mf.Type); z != "" {
			out = append(out, &ir.ZeroMember{Name: mf.JSONName, JSON: z})
		}
	}
	return out
}

// inputRequestStructs maps the method of each input request an
// InputRequiredResult may carry to its struct (ElicitRequest).
func inputRequestStructs(p *ir.Protocol) map[string]*ir.Struct {
	out := map[string]*ir.Struct{}
	f := p.InputRequired.FieldByJSON("inputRequests")
	if f == nil {
		return out
	}
	t := rep(f.Type)
	if t.Kind != ir.TMap {
		return out
	}
	u := t.Elem.Union()
	if u == nil {
		return out
	}
	for _, br := range u.Branches {
		if st, ok := br.Type.Resolve().Decl.(*ir.Struct); ok && len(br.Tags["method"]) == 1 {
			out[br.Tags["method"][0]] = st
		}
	}
	return out
}

// rep is the representation of a type: aliases and named types followed
// to the type they name.
func rep(t *ir.Type) *ir.Type {
	for {
		t = t.Resolve()
		if t.Kind == ir.TDecl {
			if n, ok := t.Decl.(*ir.Named); ok {
				t = n.Type
				continue
			}
		}
		return t
	}
}

// zeroJSON is the JSON of the zero value of t, or "" when it has none.
func zeroJSON(t *ir.Type) string {
	r := rep(t)
	switch {
	case r.Kind == ir.TString:
		return `""`
	case r.Kind == ir.TInt, r.Kind == ir.TFloat:
		return "0"
	case r.Kind == ir.TBool:
		return "false"
	case r.Kind == ir.TSlice:
		return "[]"
	case r.Kind == ir.TMap:
		return "{}"
	case r.Kind == ir.TDecl:
		switch d := r.Decl.(type) {
		case *ir.Struct:
			for _, f := range d.Fields {
				if f.Required {
					return ""
				}
			}
			return "{}"
		case *ir.Enum:
			if d.Base == ir.KInt {
				return "0"
			}
			return `""`
		}
	}
	return ""
}

// reduceSchema keeps of a JSON Schema document what validation reads
// (codec.SchemaKeywords and the definitions), in a canonical form: the
// conversions check older messages against it. A validation keyword the
// runtime's Schema does not read is an error.
func reduceSchema(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, k := range codec.SchemaKeywords {
		keep[k] = true
	}
	var walk func(v any, at string) (any, error)
	walkMap := func(v any, at string) (any, error) {
		m, ok := v.(map[string]any)
		if !ok {
			return v, nil
		}
		out := map[string]any{}
		for k, sub := range m {
			r, err := walk(sub, at+"/"+codec.EscapePointer(k))
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	}
	walk = func(v any, at string) (any, error) {
		m, ok := v.(map[string]any)
		if !ok {
			return v, nil // a boolean schema
		}
		out := map[string]any{}
		for k, sub := range m {
			here := at + "/" + codec.EscapePointer(k)
			var err error
			switch k {
			case "definitions", "$defs", "properties":
				out[k], err = walkMap(sub, here)
			case "items", "not":
				out[k], err = walk(sub, here)
			case "additionalProperties":
				if _, isBool := sub.(bool); isBool {
					out[k] = sub
				} else {
					out[k], err = walk(sub, here)
				}
			case "anyOf", "oneOf", "allOf":
				list, _ := sub.([]any)
				rs := make([]any, len(list))
				for i, e := range list {
					if rs[i], err = walk(e, fmt.Sprintf("%s/%d", here, i)); err != nil {
						break
					}
				}
				out[k] = rs
			default:
				switch {
				case keep[k]:
					out[k] = sub
				case codec.ValidationKeyword(k):
					return nil, fmt.Errorf("%s: the keyword %q is not one the conversions' validator reads", here, k)
				}
			}
			if err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	r, err := walk(doc, "")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b.Bytes()), nil
}
