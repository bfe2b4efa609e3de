package check

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/schema"
)

// Bounds on the tool schemas the checker reads.
const (
	maxSchemaBytes = 1 << 20
	maxSchemaDepth = 128
)

// checkTools judges the listed tools: names, schemas, x-mcp-header.
func (r *run) checkTools() {
	seen := map[string]bool{}
	for _, t := range r.tools {
		switch {
		case !validToolName(t.name):
			r.failf("tool-names-format", t.step, t.x, "tool name %q (at %s): 1 to 128 of A-Z a-z 0-9 _ - .", t.name, t.at)
		default:
			r.pass("tool-names-format")
		}
		if seen[t.name] {
			r.failf("tool-names-unique", t.step, t.x, "tool %q is listed twice", t.name)
		} else {
			r.pass("tool-names-unique")
		}
		seen[t.name] = true
		if t.input != nil {
			r.toolSchema(t, "inputSchema", t.input, "tool-input-schema-valid")
		}
		if t.output != nil && string(t.output) != "null" {
			r.toolSchema(t, "outputSchema", t.output, "tool-output-schema-valid")
		}
		if r.modern && t.input != nil {
			r.headerRules(t)
		}
	}
}

func validToolName(n string) bool {
	if len(n) == 0 || len(n) > 128 {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// depth is the nesting depth of a JSON text.
func depth(b []byte) int {
	d, m := 0, 0
	in, esc := false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case in:
		case c == '{' || c == '[':
			d++
			m = max(m, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return m
}

// toolSchema judges one schema of a tool: its metaschema, its $refs.
func (r *run) toolSchema(t tool, member string, data json.RawMessage, id string) {
	at := t.at + "/" + member
	if len(data) > maxSchemaBytes || depth(data) > maxSchemaDepth {
		r.errorf(id, t.step, t.x, "tool %q: %s not checked: it exceeds %d KiB or depth %d", t.name, member, maxSchemaBytes>>10, maxSchemaDepth)
		return
	}
	d, errs := schema.CheckMetaschema(member, data, schema.Draft202012)
	if d == 0 && len(errs) == 1 && errs[0].Pointer == "/$schema" {
		r.note("tool %q: %s %s: not checked", t.name, member, errs[0].Message)
		return
	}
	for _, e := range errs {
		r.fail(id, &Place{Step: t.step, Pointer: at + e.Pointer, Message: fmt.Sprintf("tool %q: %s%s: %s", t.name, member, e.Pointer, e.Message), Exchange: r.view(t.x)})
	}
	if len(errs) > 0 {
		return
	}
	root, err := schema.Parse(data)
	if err != nil {
		return
	}
	ids := map[string]bool{}
	anchors := map[string]bool{}
	walkSchema(root, true, func(v *schema.Value, _ bool) {
		if s := v.Get("$id"); s != nil && s.Kind == schema.String {
			ids[strings.TrimSuffix(s.Str, "#")] = true
		}
		if s := v.Get("$anchor"); s != nil && s.Kind == schema.String {
			anchors[s.Str] = true
		}
	})
	base := ""
	if s := root.Get("$id"); s != nil && s.Kind == schema.String {
		base = s.Str
	}
	bad := false
	walkSchema(root, true, func(v *schema.Value, _ bool) {
		ref := v.Get("$ref")
		if ref == nil || ref.Kind != schema.String {
			return
		}
		where := at + ref.Pointer
		switch problem, network := refProblem(root, ref.Str, base, ids, anchors); {
		case network:
			r.fail("tool-schema-no-network-ref", &Place{Step: t.step, Pointer: where, Message: fmt.Sprintf("tool %q: %s%s: $ref %q is a network URI: clients do not fetch it, and reject the tool", t.name, member, ref.Pointer, ref.Str), Exchange: r.view(t.x)})
		case problem != "":
			bad = true
			r.fail(id, &Place{Step: t.step, Pointer: where, Message: fmt.Sprintf("tool %q: %s%s: $ref %q %s", t.name, member, ref.Pointer, ref.Str, problem), Exchange: r.view(t.x)})
		default:
			r.pass("tool-schema-no-network-ref")
		}
	})
	if !bad {
		r.pass(id)
	}
}

// refProblem says what is wrong with a $ref: "" when it resolves in the
// document; network when it names a network URI.
func refProblem(root *schema.Value, ref, base string, ids, anchors map[string]bool) (string, bool) {
	if strings.HasPrefix(ref, "#") {
		frag := ref[1:]
		switch {
		case frag == "":
			return "", false
		case strings.HasPrefix(frag, "/"):
			if resolvePointer(root, frag) == nil {
				return "does not resolve in the schema", false
			}
			return "", false
		case anchors[frag] || ids["#"+frag]:
			return "", false
		}
		return "names no $anchor of the schema", false
	}
	u, err := url.Parse(ref)
	if err != nil {
		return "is not a URI reference", false
	}
	target := ref
	if !u.IsAbs() && base != "" {
		if b, err := url.Parse(base); err == nil {
			target = b.ResolveReference(u).String()
		}
	}
	doc, _, _ := strings.Cut(target, "#")
	if ids[doc] {
		return "", false
	}
	if t, err := url.Parse(target); err == nil && (t.Scheme == "http" || t.Scheme == "https") {
		return "", true
	}
	return "does not resolve in the schema (and is no network URI)", false
}

// resolvePointer returns the value at a JSON pointer (URI-fragment
// encoded), or nil.
func resolvePointer(root *schema.Value, ptr string) *schema.Value {
	if p, err := url.PathUnescape(ptr); err == nil {
		ptr = p
	}
	v := root
	for _, tok := range strings.Split(ptr, "/")[1:] {
		tok = schema.UnescapePointer(tok)
		switch v.Kind {
		case schema.Object:
			v = v.Get(tok)
		case schema.Array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v.Items) {
				return nil
			}
			v = v.Items[i]
		default:
			return nil
		}
		if v == nil {
			return nil
		}
	}
	return v
}

// The keywords whose values are schemas, maps of schemas or lists of them.
var (
	schemaMaps  = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true}
	schemaOne   = map[string]bool{"items": true, "additionalProperties": true, "not": true, "if": true, "then": true, "else": true, "contains": true, "propertyNames": true, "unevaluatedItems": true, "unevaluatedProperties": true, "additionalItems": true}
	schemaLists = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true, "items": true}
)

// walkSchema calls f on every schema object of the document; reachable
// says whether it is reached from the root through properties keys alone.
func walkSchema(v *schema.Value, reachable bool, f func(*schema.Value, bool)) {
	var walk func(v *schema.Value, reach bool, isRoot bool)
	walk = func(v *schema.Value, reach bool, isRoot bool) {
		if v.Kind != schema.Object {
			return
		}
		f(v, reach && !isRoot)
		for _, m := range v.Members {
			switch {
			case schemaMaps[m.Name] && m.Value.Kind == schema.Object:
				for _, sub := range m.Value.Members {
					walk(sub.Value, reach && m.Name == "properties", false)
				}
			case schemaOne[m.Name] && m.Value.Kind == schema.Object:
				walk(m.Value, false, false)
			case schemaLists[m.Name] && m.Value.Kind == schema.Array:
				for _, it := range m.Value.Items {
					walk(it, false, false)
				}
			}
		}
	}
	walk(v, reachable, true)
}

// headerRules judges the x-mcp-header annotations of a tool's inputSchema.
func (r *run) headerRules(t tool) {
	root, err := schema.Parse(t.input)
	if err != nil || len(t.input) > maxSchemaBytes || depth(t.input) > maxSchemaDepth {
		return
	}
	at := t.at + "/inputSchema"
	seen := map[string]string{}
	walkSchema(root, true, func(v *schema.Value, reachable bool) {
		h := v.Get("x-mcp-header")
		if h == nil {
			return
		}
		p := at + h.Pointer
		place := func(format string, args ...any) *Place {
			return &Place{Step: t.step, Pointer: p, Message: fmt.Sprintf("tool %q: inputSchema%s: ", t.name, h.Pointer) + fmt.Sprintf(format, args...) + " (clients over HTTP drop the tool)", Exchange: r.view(t.x)}
		}
		if reachable {
			r.pass("x-mcp-header-reachable")
		} else {
			r.fail("x-mcp-header-reachable", place("x-mcp-header on a schema not reached through properties keys alone"))
		}
		switch {
		case h.Kind != schema.String:
			r.fail("x-mcp-header-token", place("x-mcp-header is a JSON %s, not a string", h.Kind))
		case h.Str == "":
			r.fail("x-mcp-header-nonempty", place("x-mcp-header is empty"))
		case !isToken(h.Str):
			r.pass("x-mcp-header-nonempty")
			r.fail("x-mcp-header-token", place("x-mcp-header %q is not an HTTP field-name token", h.Str))
		default:
			r.pass("x-mcp-header-nonempty")
			r.pass("x-mcp-header-token")
			lower := strings.ToLower(h.Str)
			if first, dup := seen[lower]; dup {
				r.fail("x-mcp-header-unique", place("x-mcp-header %q is also at %s", h.Str, first))
			} else {
				seen[lower] = h.Pointer
				r.pass("x-mcp-header-unique")
			}
		}
		typ := v.Get("type")
		if typ != nil && typ.Kind == schema.String && (typ.Str == "string" || typ.Str == "integer" || typ.Str == "boolean") {
			r.pass("x-mcp-header-primitive")
		} else {
			what := "no type"
			if typ != nil {
				what = "type " + typ.JSON()
			}
			r.fail("x-mcp-header-primitive", place("x-mcp-header on a property with %s (string, integer or boolean only)", what))
		}
	})
}

// isToken reports whether s is an HTTP field-name token (RFC 9110 5.6.2).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
