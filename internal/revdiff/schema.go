package revdiff

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/schema"
)

// SchemaChange is one difference between the schemas of two revisions at
// one place: a definition, a member, a required set, an enum or const, a
// validation keyword (bounds, lengths, patterns, formats, item and
// property counts, uniqueness), a default, the members of a union, a $ref,
// or (SchemaOptions.Descriptions) a description or title.
type SchemaChange struct {
	// Path is the definition's name, then the JSON pointer of the node
	// inside it: "ListToolsResult/properties/ttlMs".
	Path string `json:"path"`
	// Keyword is what changed there: "definition", "property", "required",
	// "enum", "const", "maximum", "pattern", "anyOf", "$ref", ...
	Keyword string `json:"keyword"`
	// Change is "added", "removed" or "changed".
	Change string `json:"change"`
	// From and To are the JSON values before and after ("" when absent).
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Breaks says whom the change can break: BreaksServerSent (messages a
	// server sends, which the definition is part of), BreaksClientSent
	// (messages a client sends) and BreaksGoAPI (the generated Go types).
	// Empty for a change that breaks no one (a description).
	Breaks []string `json:"breaks"`
}

// Whom a change can break (SchemaChange.Breaks).
const (
	BreaksServerSent = "server-sent"
	BreaksClientSent = "client-sent"
	BreaksGoAPI      = "go-api"
)

// SchemaOptions say what CompareSchemas reports.
type SchemaOptions struct {
	// Descriptions reports changed descriptions and titles too.
	Descriptions bool
}

// goAPIKeywords are the keywords whose change changes the generated Go
// types (their fields, constants or branches); the others change only
// what the validators accept.
var goAPIKeywords = map[string]bool{
	"definition": true, "property": true, "required": true, "type": true, "enum": true, "const": true,
	"anyOf": true, "oneOf": true, "allOf": true, "$ref": true, "items": true, "additionalProperties": true,
	"prefixItems": true, "patternProperties": true,
}

// CompareSchemas lists every difference between two schema documents,
// definition by definition, sorted by path and keyword. The packages built
// from them (nil when there is none) say which definitions each side of
// the protocol sends (Breaks).
func CompareSchemas(from, to *schema.Document, fromPkg, toPkg *ir.Package, opts SchemaOptions) []SchemaChange {
	c := &schemaComparer{opts: opts}
	dirs := senders(from, fromPkg)
	for name, d := range senders(to, toPkg) {
		dirs[name] |= d
	}
	old := map[string]*schema.Schema{}
	for _, d := range from.Defs {
		old[d.Name] = d
	}
	cur := map[string]bool{}
	for _, d := range to.Defs {
		cur[d.Name] = true
		c.def = d.Name
		if o := old[d.Name]; o == nil {
			c.add("", "definition", "added", "", defText(d))
		} else {
			c.node("", o, d)
		}
	}
	for _, d := range from.Defs {
		if !cur[d.Name] {
			c.def = d.Name
			c.add("", "definition", "removed", defText(d), "")
		}
	}
	for i := range c.out {
		ch := &c.out[i]
		def, _, _ := strings.Cut(ch.Path, "/")
		d := dirs[def]
		if ch.Keyword == "description" || ch.Keyword == "title" {
			ch.Breaks = []string{}
			continue
		}
		ch.Breaks = []string{}
		if d&sentByServer != 0 {
			ch.Breaks = append(ch.Breaks, BreaksServerSent)
		}
		if d&sentByClient != 0 {
			ch.Breaks = append(ch.Breaks, BreaksClientSent)
		}
		if goAPIKeywords[ch.Keyword] {
			ch.Breaks = append(ch.Breaks, BreaksGoAPI)
		}
	}
	slices.SortStableFunc(c.out, func(a, b SchemaChange) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Keyword, b.Keyword), strings.Compare(a.Change, b.Change), strings.Compare(a.To, b.To), strings.Compare(a.From, b.From))
	})
	return c.out
}

func defText(d *schema.Schema) string {
	if len(d.Types) > 0 {
		return strings.Join(d.Types, "|")
	}
	return "schema"
}

type schemaComparer struct {
	opts SchemaOptions
	def  string
	out  []SchemaChange
}

func (c *schemaComparer) add(ptr, keyword, change, from, to string) {
	path := c.def
	if ptr != "" {
		path += "/" + ptr
	}
	c.out = append(c.out, SchemaChange{Path: path, Keyword: keyword, Change: change, From: from, To: to})
}

// value compares one keyword's value, as JSON text ("" when absent).
func (c *schemaComparer) value(ptr, keyword, a, b string) {
	switch {
	case a == b:
	case a == "":
		c.add(ptr, keyword, "added", "", b)
	case b == "":
		c.add(ptr, keyword, "removed", a, "")
	default:
		c.add(ptr, keyword, "changed", a, b)
	}
}

func join(ptr, tok string) string {
	tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
	if ptr == "" {
		return tok
	}
	return ptr + "/" + tok
}

func num(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func count(p *int64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatInt(*p, 10)
}

func str(s string) string {
	if s == "" {
		return ""
	}
	return strconv.Quote(s)
}

func val(v *schema.Value) string {
	if v == nil {
		return ""
	}
	return v.JSON()
}

func boolean(b bool) string {
	if b {
		return "true"
	}
	return ""
}

// refName is how a $ref is compared: as written, with #/definitions/
// written #/$defs/ (draft-07 and 2020-12 name the same definition so).
func refName(s *schema.Schema) string {
	if s.RefKeyword == "" {
		return ""
	}
	return strconv.Quote(refText(s.RefPointer))
}

func refText(ref string) string {
	if rest, ok := strings.CutPrefix(ref, "#/definitions/"); ok {
		return "#/$defs/" + rest
	}
	return ref
}

// node compares two schema nodes at ptr inside the current definition.
func (c *schemaComparer) node(ptr string, a, b *schema.Schema) {
	if a.IsBool || b.IsBool {
		if a.IsBool != b.IsBool || a.BoolValue != b.BoolValue {
			c.value(ptr, "schema", boolText(a), boolText(b))
		}
		if a.IsBool && b.IsBool {
			return
		}
	}
	c.value(ptr, "$ref", refName(a), refName(b))
	c.value(ptr, "type", quoteList(a.Types), quoteList(b.Types))
	c.value(ptr, "const", val(a.Const), val(b.Const))
	c.set(ptr, "enum", values(a.Enum), values(b.Enum))
	c.set(ptr, "required", quoted(a.Required), quoted(b.Required))
	c.value(ptr, "minimum", num(a.Minimum), num(b.Minimum))
	c.value(ptr, "maximum", num(a.Maximum), num(b.Maximum))
	c.value(ptr, "exclusiveMinimum", num(a.ExclusiveMinimum), num(b.ExclusiveMinimum))
	c.value(ptr, "exclusiveMaximum", num(a.ExclusiveMaximum), num(b.ExclusiveMaximum))
	c.value(ptr, "multipleOf", num(a.MultipleOf), num(b.MultipleOf))
	c.value(ptr, "minItems", count(a.MinItems), count(b.MinItems))
	c.value(ptr, "maxItems", count(a.MaxItems), count(b.MaxItems))
	c.value(ptr, "minLength", count(a.MinLength), count(b.MinLength))
	c.value(ptr, "maxLength", count(a.MaxLength), count(b.MaxLength))
	c.value(ptr, "minProperties", count(a.MinProperties), count(b.MinProperties))
	c.value(ptr, "maxProperties", count(a.MaxProperties), count(b.MaxProperties))
	c.value(ptr, "minContains", count(a.MinContains), count(b.MinContains))
	c.value(ptr, "maxContains", count(a.MaxContains), count(b.MaxContains))
	c.value(ptr, "uniqueItems", boolean(a.UniqueItems), boolean(b.UniqueItems))
	c.value(ptr, "pattern", strp(a.Pattern), strp(b.Pattern))
	c.value(ptr, "format", str(a.Format), str(b.Format))
	c.value(ptr, "contentMediaType", str(a.ContentMediaType), str(b.ContentMediaType))
	c.value(ptr, "contentEncoding", str(a.ContentEncoding), str(b.ContentEncoding))
	c.value(ptr, "default", val(a.Default), val(b.Default))
	c.value(ptr, "deprecated", boolean(a.Deprecated), boolean(b.Deprecated))
	if c.opts.Descriptions {
		c.value(ptr, "description", str(a.Description), str(b.Description))
		c.value(ptr, "title", str(a.Title), str(b.Title))
	}

	// Members, by name.
	for _, p := range b.Properties {
		at := join(join(ptr, "properties"), p.Name)
		if q := a.Prop(p.Name); q == nil {
			c.add(at, "property", "added", "", typeText(p.Schema))
		} else {
			c.node(at, q, p.Schema)
		}
	}
	for _, p := range a.Properties {
		if b.Prop(p.Name) == nil {
			c.add(join(join(ptr, "properties"), p.Name), "property", "removed", typeText(p.Schema), "")
		}
	}
	// Sub-schemas in one place.
	for _, sub := range []struct {
		kw   string
		a, b *schema.Schema
	}{
		{"additionalProperties", a.AdditionalProperties, b.AdditionalProperties},
		{"items", a.Items, b.Items},
		{"not", a.Not, b.Not},
		{"if", a.If, b.If},
		{"then", a.Then, b.Then},
		{"else", a.Else, b.Else},
		{"propertyNames", a.PropertyNames, b.PropertyNames},
		{"contains", a.Contains, b.Contains},
		{"unevaluatedProperties", a.UnevaluatedProperties, b.UnevaluatedProperties},
		{"unevaluatedItems", a.UnevaluatedItems, b.UnevaluatedItems},
		{"contentSchema", a.ContentSchema, b.ContentSchema},
	} {
		// Absent, these keywords allow anything, as an empty schema does.
		if allowsAll[sub.kw] && (sub.a == nil && sub.b != nil && sub.b.IsEmpty() || sub.b == nil && sub.a != nil && sub.a.IsEmpty()) {
			continue
		}
		c.sub(join(ptr, sub.kw), sub.kw, sub.a, sub.b)
	}
	// Union members and other lists of schemas, by position; a union's
	// members are also compared as a set of $refs, which is how a member
	// added in the middle reads.
	for _, l := range []struct {
		kw   string
		a, b []*schema.Schema
	}{{"anyOf", a.AnyOf, b.AnyOf}, {"oneOf", a.OneOf, b.OneOf}, {"allOf", a.AllOf, b.AllOf}, {"prefixItems", a.PrefixItems, b.PrefixItems}} {
		ra, rb := refs(l.a), refs(l.b)
		if ra != nil && rb != nil && len(ra) == len(l.a) && len(rb) == len(l.b) {
			c.set(ptr, l.kw, ra, rb) // every member a $ref: compare as a set
			continue
		}
		for i := 0; i < max(len(l.a), len(l.b)); i++ {
			at := join(join(ptr, l.kw), strconv.Itoa(i))
			switch {
			case i >= len(l.a):
				c.add(at, l.kw, "added", "", typeText(l.b[i]))
			case i >= len(l.b):
				c.add(at, l.kw, "removed", typeText(l.a[i]), "")
			default:
				c.node(at, l.a[i], l.b[i])
			}
		}
	}
	// patternProperties by pattern, dependencies by keyword and member.
	pa := map[string]*schema.Schema{}
	for _, p := range a.PatternProperties {
		pa[p.Pattern] = p.Schema
	}
	pb := map[string]bool{}
	for _, p := range b.PatternProperties {
		pb[p.Pattern] = true
		c.sub(join(join(ptr, "patternProperties"), p.Pattern), "patternProperties", pa[p.Pattern], p.Schema)
	}
	for _, p := range a.PatternProperties {
		if !pb[p.Pattern] {
			c.sub(join(join(ptr, "patternProperties"), p.Pattern), "patternProperties", p.Schema, nil)
		}
	}
	da := map[string]*schema.Dependency{}
	for _, d := range a.Dependencies {
		da[d.Keyword+"\x00"+d.Name] = d
	}
	db := map[string]bool{}
	for _, d := range b.Dependencies {
		k := d.Keyword + "\x00" + d.Name
		db[k] = true
		at := join(join(ptr, d.Keyword), d.Name)
		o := da[k]
		switch {
		case o == nil:
			c.add(at, d.Keyword, "added", "", depText(d))
		case d.Schema != nil && o.Schema != nil:
			c.node(at, o.Schema, d.Schema)
		default:
			c.value(at, d.Keyword, depText(o), depText(d))
		}
	}
	for _, d := range a.Dependencies {
		if !db[d.Keyword+"\x00"+d.Name] {
			c.add(join(join(ptr, d.Keyword), d.Name), d.Keyword, "removed", depText(d), "")
		}
	}
}

// allowsAll are the keywords whose absence means what an empty schema
// ({} or true) says: any value.
var allowsAll = map[string]bool{"additionalProperties": true, "items": true, "propertyNames": true, "unevaluatedProperties": true, "unevaluatedItems": true}

func (c *schemaComparer) sub(ptr, kw string, a, b *schema.Schema) {
	switch {
	case a == nil && b == nil:
	case a == nil:
		c.add(ptr, kw, "added", "", typeText(b))
	case b == nil:
		c.add(ptr, kw, "removed", typeText(a), "")
	default:
		c.node(ptr, a, b)
	}
}

// set compares two lists as sets: one change per value added or removed.
func (c *schemaComparer) set(ptr, kw string, a, b []string) {
	in := func(l []string, v string) bool { return slices.Contains(l, v) }
	for _, v := range b {
		if !in(a, v) {
			c.add(ptr, kw, "added", "", v)
		}
	}
	for _, v := range a {
		if !in(b, v) {
			c.add(ptr, kw, "removed", v, "")
		}
	}
}

func quoted(l []string) []string {
	if l == nil {
		return nil
	}
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = strconv.Quote(s)
	}
	return out
}

func values(vs []*schema.Value) []string {
	if vs == nil {
		return nil
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.JSON()
	}
	return out
}

// refs are the $refs of a list of schemas, or nil when one is not a
// plain $ref.
func refs(l []*schema.Schema) []string {
	var out []string
	for _, s := range l {
		if s.RefKeyword == "" || hasMore(s) {
			return nil
		}
		out = append(out, strconv.Quote(refText(s.RefPointer)))
	}
	return out
}

// hasMore reports whether a $ref node has keywords besides it (other than
// annotations).
func hasMore(s *schema.Schema) bool {
	return len(s.Types) > 0 || len(s.Properties) > 0 || len(s.AnyOf)+len(s.OneOf)+len(s.AllOf) > 0 || s.Items != nil ||
		s.Const != nil || s.Enum != nil || s.Minimum != nil || s.Maximum != nil || s.Pattern != nil || s.Format != ""
}

func strp(p *string) string {
	if p == nil {
		return ""
	}
	return strconv.Quote(*p)
}

func boolText(s *schema.Schema) string {
	if !s.IsBool {
		return "schema"
	}
	return strconv.FormatBool(s.BoolValue)
}

func quoteList(l []string) string {
	if l == nil {
		return ""
	}
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ",") + "]"
}

func depText(d *schema.Dependency) string {
	if d.Schema != nil {
		return "schema"
	}
	return quoteList(d.Required)
}

// typeText is a short description of a schema added or removed.
func typeText(s *schema.Schema) string {
	switch {
	case s == nil:
		return ""
	case s.IsBool:
		return strconv.FormatBool(s.BoolValue)
	case s.RefKeyword != "":
		return s.RefKeyword + " " + strconv.Quote(refText(s.RefPointer))
	case len(s.Types) > 0:
		return strings.Join(s.Types, "|")
	case s.Const != nil:
		return "const " + s.Const.JSON()
	case len(s.AnyOf) > 0:
		return fmt.Sprintf("anyOf (%d)", len(s.AnyOf))
	case len(s.OneOf) > 0:
		return fmt.Sprintf("oneOf (%d)", len(s.OneOf))
	}
	return "schema"
}

// Directions a definition is sent in (bits).
const (
	sentByServer = 1 << iota
	sentByClient
)

// senders maps each definition to the sides that send a message it is
// part of: the request or notification of each method and its result, and
// every definition they reach through $refs.
func senders(doc *schema.Document, pkg *ir.Package) map[string]int {
	out := map[string]int{}
	if doc == nil || pkg == nil || pkg.Protocol == nil {
		return out
	}
	byPtr := map[string]*schema.Schema{}
	for _, d := range doc.Defs {
		byPtr[d.Pointer] = d
	}
	var mark func(name string, dir int)
	mark = func(name string, dir int) {
		d := doc.Def(name)
		if d == nil || out[name]&dir != 0 {
			return
		}
		out[name] |= dir
		walkRefs(d, map[*schema.Schema]bool{}, func(target *schema.Schema) {
			for ptr := target.Pointer; ; {
				if def := byPtr[ptr]; def != nil {
					mark(def.Name, dir)
					return
				}
				i := strings.LastIndex(ptr, "/")
				if i < 0 {
					return
				}
				ptr = ptr[:i]
			}
		})
	}
	for _, m := range pkg.Protocol.Methods {
		send, answer := sentByClient, sentByServer
		if m.Direction == ir.ServerToClient {
			send, answer = sentByServer, sentByClient
		}
		if m.Definition != nil {
			mark(m.Definition.DefName(), send)
		}
		if m.Result != nil {
			if t := m.Result.Resolve(); t.Kind == ir.TDecl {
				mark(declInfo(t.Decl).DefName(), answer)
			}
		}
	}
	return out
}

// walkRefs calls f with the target of every $ref under s.
func walkRefs(s *schema.Schema, seen map[*schema.Schema]bool, f func(*schema.Schema)) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if s.Ref != nil {
		f(s.Ref)
	}
	for _, p := range s.Properties {
		walkRefs(p.Schema, seen, f)
	}
	for _, l := range [][]*schema.Schema{s.AnyOf, s.OneOf, s.AllOf, s.PrefixItems} {
		for _, x := range l {
			walkRefs(x, seen, f)
		}
	}
	for _, x := range []*schema.Schema{s.AdditionalProperties, s.Items, s.Not, s.If, s.Then, s.Else, s.PropertyNames, s.Contains, s.UnevaluatedProperties, s.UnevaluatedItems, s.ContentSchema} {
		walkRefs(x, seen, f)
	}
	for _, p := range s.PatternProperties {
		walkRefs(p.Schema, seen, f)
	}
	for _, d := range s.Dependencies {
		walkRefs(d.Schema, seen, f)
	}
}
