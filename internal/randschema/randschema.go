// Package randschema makes small random JSON Schemas over every validation
// keyword of draft-07 and draft 2020-12, and random documents for them,
// for the differential test of the generated validators against the
// reference (conformance/keywords_test.go).
//
// A schema is built from a seed, so that a failing case can be replayed.
// The documents are drawn from the schema (valid ones often, near misses
// more often) and from a pool of awkward values: numbers on and around
// bounds, beyond int64 and float64, with more digits than float64 keeps;
// strings with escapes, of every length, matching and missing patterns and
// formats; objects whose names overlap properties and patterns.
package randschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Draft is the dialect of a generated document.
type Draft int

// The dialects.
const (
	Draft07 Draft = iota + 1
	Draft202012
)

// Schema returns the URI of the draft's metaschema, for "$schema".
func (d Draft) Schema() string {
	if d == Draft07 {
		return "http://json-schema.org/draft-07/schema#"
	}
	return "https://json-schema.org/draft/2020-12/schema"
}

// Defs is the keyword holding definitions.
func (d Draft) Defs() string {
	if d == Draft07 {
		return "definitions"
	}
	return "$defs"
}

// Obj is a JSON object with its members in order.
type Obj struct {
	Keys []string
	Vals map[string]any
}

// NewObj returns an empty object.
func NewObj() *Obj { return &Obj{Vals: map[string]any{}} }

// Set sets a member, appending it when new.
func (o *Obj) Set(k string, v any) {
	if _, ok := o.Vals[k]; !ok {
		o.Keys = append(o.Keys, k)
	}
	o.Vals[k] = v
}

// Get returns a member.
func (o *Obj) Get(k string) (any, bool) {
	v, ok := o.Vals[k]
	return v, ok
}

// MarshalJSON writes the members in order.
func (o *Obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.Keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := Marshal(o.Vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Num is a JSON number written as its text.
type Num string

// MarshalJSON writes the text.
func (n Num) MarshalJSON() ([]byte, error) { return []byte(n), nil }

// Marshal encodes a value made of nil, bool, string, Num, []any and *Obj,
// without HTML escaping.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Case is one generated schema: its definition (named Name) and the
// helper definitions it refers to with $ref (named Name + "_h0", ...).
type Case struct {
	Name    string
	Schema  any            // *Obj or bool
	Helpers map[string]any // name -> schema
	order   []string
}

// HelperNames returns the helpers in the order they were made.
func (c *Case) HelperNames() []string { return c.order }

// Document returns a schema document holding cases as definitions.
func Document(d Draft, cases []*Case) ([]byte, error) {
	return Marshal(DocumentValue(d, cases))
}

// contentKeywords are the annotations ForReference leaves out.
var contentKeywords = []string{"contentMediaType", "contentEncoding", "contentSchema"}

// ForReference returns the document as the reference validator
// (santhosh-tekuri/jsonschema v5) must get it to apply the specification,
// where it departs from it:
//
//   - v5 asserts contentEncoding and contentMediaType in draft-07 (which
//     the draft allows and does not require); mcpgen reads the content
//     keywords as the annotations 2020-12 says they are, in both drafts:
//     they are left out;
//   - v5 ignores an empty enum, which accepts no value ("valid if equal to
//     one of the elements"): it becomes "allOf": [..., false].
//
// (The member names the generator uses never collide with these keywords,
// so the walk can treat every object as a schema.)
func ForReference(v any) any {
	switch v := v.(type) {
	case *Obj:
		o := NewObj()
		emptyEnum := false
		for _, k := range v.Keys {
			switch x := v.Vals[k]; {
			case slices.Contains(contentKeywords, k):
			case k == "enum" && isEmptyList(x):
				emptyEnum = true
			default:
				o.Set(k, ForReference(x))
			}
		}
		if emptyEnum {
			all, _ := o.Get("allOf")
			list, _ := all.([]any)
			o.Set("allOf", append(slices.Clone(list), false))
		}
		return o
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = ForReference(x)
		}
		return out
	}
	return v
}

func isEmptyList(v any) bool {
	l, ok := v.([]any)
	return ok && len(l) == 0
}

// DocumentValue is Document as a value (for ForReference).
func DocumentValue(d Draft, cases []*Case) any {
	defs := NewObj()
	for _, c := range cases {
		defs.Set(c.Name, c.Schema)
		for _, h := range c.order {
			defs.Set(h, c.Helpers[h])
		}
	}
	root := NewObj()
	root.Set("$schema", d.Schema())
	root.Set(d.Defs(), defs)
	return root
}

// gen makes one case.
type gen struct {
	r      *rand.Rand
	draft  Draft
	c      *Case
	made   map[string]bool // helpers made so far
	self   string          // the helper being made
	branch bool            // the schema being made is a branch of anyOf or oneOf
	nodes  int             // schema nodes made so far, to keep the case small
	// grammar adds the shapes of grammar.go (NewGrammar); without it the
	// random stream is the one the differential test's seeds were chosen
	// with.
	grammar bool
}

// New makes a case called name from the random source r.
func New(r *rand.Rand, d Draft, name string) *Case {
	g := &gen{r: r, draft: d, c: &Case{Name: name, Helpers: map[string]any{}}, made: map[string]bool{}}
	// A few helpers first, so that $ref has targets (one of them may refer
	// to itself through a member, which makes a recursive schema).
	for i := range g.r.IntN(3) {
		hn := name + "_h" + strconv.Itoa(i)
		g.c.order = append(g.c.order, hn)
		g.self = hn
		g.c.Helpers[hn] = g.schema(2, hn)
		g.made[hn] = true
	}
	g.self = ""
	g.c.Schema = g.schema(3, "")
	return g.c
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

var jsonTypes = []string{"null", "boolean", "object", "array", "number", "string", "integer"}

// propNames overlap the patterns below on purpose.
var propNames = []string{"a", "b", "c", "foo", "bar", "vroom", "x-ext", "x-2", "a/b", "t~1", "", "αβ", "AB", "b1"}

// patterns are Go-compatible regular expressions with names they match.
var patterns = []string{"^v", "^x-", "a", "^[a-c]$", "^[A-Z]+$", "\\d", "^$", "o{2}", "^.{2,3}$", "(?i)^B"}

var formats = []string{"date", "date-time", "time", "email", "hostname", "ipv4", "ipv6", "uri",
	"uri-reference", "uuid", "json-pointer", "regex", "duration", "unknown-format"}

var numberPool = []string{"0", "-0", "1", "-1", "2", "3", "5", "7", "10", "100", "-100", "0.5", "1.5", "2.5",
	"0.1", "0.3", "0.30", "1e2", "1E+2", "1.0", "2.0", "-7.5", "1e-3", "9007199254740993",
	"9223372036854775807", "9223372036854775808", "-9223372036854775809", "12345678901234567890",
	"1e20", "1e308", "1e400", "-1e400", "1e-400", "0.30000000000000001", "1.00000000000000000001",
	"4.9e-324", "3.4028234663852886e38"}

var stringPool = []string{"", "a", "b", "ab", "abc", "foo", "bar", "vroom", "x-1", "B2", "ABC", "1",
	"2020-01-01", "2020-13-01", "2020-01-01T10:00:00Z", "10:00:00Z", "a@b.co", "not an email",
	"example.com", "-bad-.com", "127.0.0.1", "256.0.0.1", "::1", "http://x.y/z", "not a uri",
	"/a/b", "a/b", "123e4567-e89b-12d3-a456-426614174000", "P1D", "PT", "[a-z", "^ok$",
	"é", "😀", "a\nb", "\u0000", "\"q\"", "00", "latest"}

// number returns a number text, near n when n is set.
func (g *gen) number(integer bool) string {
	if integer && g.chance(0.7) {
		return strconv.Itoa(g.r.IntN(41) - 20)
	}
	if g.chance(0.5) {
		return pick(g.r, numberPool)
	}
	if integer {
		return strconv.Itoa(g.r.IntN(2001) - 1000)
	}
	return strconv.FormatFloat(float64(g.r.IntN(4001)-2000)/float64(pick(g.r, []int{1, 2, 4, 10, 100})), 'f', -1, 64)
}

func (g *gen) smallInt(max int) Num { return Num(strconv.Itoa(g.r.IntN(max + 1))) }

// schema makes a schema of at most depth levels; self is the helper being
// made (a $ref to it is only allowed below a member or element).
func (g *gen) schema(depth int, self string) any {
	g.nodes++
	if g.chance(0.06) || g.nodes > 40 {
		return g.chance(0.75)
	}
	if g.grammar && g.chance(0.25) {
		return g.shape(depth, self)
	}
	s := NewObj()
	if depth <= 0 {
		g.leaf(s)
		return s
	}
	// A type, most of the time: typed schemas get Go types of their own.
	// (The branches of anyOf and oneOf get one more often: mcpgen names an
	// inline branch by its type, and refuses one without; issue 13.)
	var types []string
	typeChance := 0.6
	if g.branch {
		typeChance, g.branch = 0.9, false
	}
	switch {
	case g.chance(typeChance):
		types = []string{pick(g.r, jsonTypes)}
		s.Set("type", types[0])
	case g.chance(0.15):
		a, b := pick(g.r, jsonTypes), pick(g.r, jsonTypes)
		if a != b {
			types = []string{a, b}
			s.Set("type", []any{a, b})
		}
	}
	has := func(t string) bool { return len(types) == 0 || slices.Contains(types, t) }
	n := 1 + g.r.IntN(3)
	for range n {
		switch k := g.r.IntN(9); {
		case k <= 1 && (has("object") || g.chance(0.2)):
			g.object(s, depth, self)
		case k == 2 && (has("array") || g.chance(0.2)):
			g.array(s, depth, self)
		case k == 3 && (has("string") || g.chance(0.2)):
			g.stringKeywords(s)
		case k == 4 && (has("number") || has("integer") || g.chance(0.2)):
			g.numberKeywords(s)
		case k == 5:
			g.constEnum(s)
		default:
			g.applicator(s, depth, self)
		}
	}
	if g.chance(0.1) {
		s.Set("description", g.description())
	}
	return s
}

// leaf adds one simple keyword.
func (g *gen) leaf(s *Obj) {
	switch g.r.IntN(5) {
	case 0:
		s.Set("type", pick(g.r, jsonTypes))
	case 1:
		g.stringKeywords(s)
	case 2:
		g.numberKeywords(s)
	case 3:
		g.constEnum(s)
	default:
		if r := g.ref(g.self, false); r != nil && g.chance(0.5) {
			s.Set("$ref", r.(*Obj).Vals["$ref"])
		} else {
			s.Set("type", pick(g.r, jsonTypes))
		}
	}
}

// ref returns a $ref to a helper, or nil. Refs to the helper being made
// (or a later one) are only allowed below a member or element, which the
// callers pass as deep.
func (g *gen) ref(self string, deep bool) any {
	var ok []string
	for _, h := range g.c.order {
		if h == self && !deep {
			break
		}
		if !g.made[h] && h != self {
			continue // a later helper, not made yet
		}
		ok = append(ok, h)
	}
	if len(ok) == 0 {
		return nil
	}
	r := NewObj()
	r.Set("$ref", "#/"+g.draft.Defs()+"/"+pick(g.r, ok))
	return r
}

// sub makes a subschema below a member or element.
func (g *gen) sub(depth int, self string) any {
	if g.chance(0.12) {
		if r := g.ref(self, true); r != nil {
			return r
		}
	}
	return g.schema(depth-1, self)
}

// inPlace makes a subschema that applies to the value itself.
func (g *gen) inPlace(depth int, self string) any {
	if g.chance(0.1) {
		if r := g.ref(self, false); r != nil {
			return r
		}
	}
	return g.schema(depth-1, self)
}

func (g *gen) object(s *Obj, depth int, self string) {
	switch g.r.IntN(10) {
	case 0, 1, 2:
		props := NewObj()
		for range 1 + g.r.IntN(3) {
			props.Set(g.propName(), g.sub(depth, self))
		}
		s.Set("properties", props)
		if g.chance(0.5) {
			var req []any
			for _, k := range props.Keys {
				if g.chance(0.5) {
					req = append(req, k)
				}
			}
			if g.chance(0.2) {
				req = append(req, pick(g.r, propNames))
			}
			s.Set("required", uniqueStrings(req))
		}
	case 3:
		s.Set("additionalProperties", g.sub(depth, self))
	case 4:
		pp := NewObj()
		for range 1 + g.r.IntN(2) {
			pp.Set(pick(g.r, patterns), g.sub(depth, self))
		}
		s.Set("patternProperties", pp)
	case 5:
		s.Set("propertyNames", g.sub(depth, self))
	case 6:
		if g.chance(0.5) {
			s.Set("minProperties", g.smallInt(3))
		} else {
			s.Set("maxProperties", g.smallInt(3))
		}
	case 7:
		dr := NewObj()
		for range 1 + g.r.IntN(2) {
			var req []any
			for range 1 + g.r.IntN(2) {
				req = append(req, pick(g.r, propNames))
			}
			// A member that requires itself requires nothing: it is left
			// out, so that some lists of dependents are empty (and the
			// random stream is the one it was before they were).
			key := pick(g.r, propNames)
			dr.Set(key, slices.DeleteFunc(uniqueStrings(req), func(r any) bool { return r == key }))
		}
		switch {
		case g.draft == Draft07 || g.chance(0.15):
			// draft-07 spells it dependencies (which the reference and
			// mcpgen read in 2020-12 too); mix in a schema dependency.
			if g.chance(0.5) {
				dr.Set(pick(g.r, propNames), g.inPlace(depth, self))
			}
			s.Set("dependencies", dr)
		default:
			s.Set("dependentRequired", dr)
		}
	case 8:
		if g.draft == Draft07 {
			s.Set("additionalProperties", g.chance(0.5))
			return
		}
		ds := NewObj()
		ds.Set(pick(g.r, propNames), g.inPlace(depth, self))
		s.Set("dependentSchemas", ds)
	default:
		if g.draft == Draft07 {
			s.Set("required", uniqueStrings([]any{pick(g.r, propNames)}))
			return
		}
		s.Set("unevaluatedProperties", g.unevaluated(depth, self))
	}
}

func (g *gen) unevaluated(depth int, self string) any {
	if g.chance(0.6) {
		return false
	}
	return g.sub(depth, self)
}

func (g *gen) array(s *Obj, depth int, self string) {
	switch g.r.IntN(8) {
	case 0, 1:
		s.Set("items", g.sub(depth, self))
	case 2, 3:
		var prefix []any
		for range 1 + g.r.IntN(3) {
			prefix = append(prefix, g.sub(depth, self))
		}
		if g.draft == Draft07 {
			s.Set("items", prefix)
			if g.chance(0.6) {
				s.Set("additionalItems", g.sub(depth, self))
			}
		} else {
			s.Set("prefixItems", prefix)
			if g.chance(0.6) {
				s.Set("items", g.sub(depth, self))
			}
		}
	case 4:
		s.Set("contains", g.sub(depth, self))
		if g.draft == Draft202012 && g.chance(0.6) {
			if g.chance(0.5) {
				s.Set("minContains", g.smallInt(2))
			} else {
				s.Set("maxContains", g.smallInt(2))
			}
		}
	case 5:
		s.Set("uniqueItems", g.chance(0.85))
	case 6:
		if g.chance(0.5) {
			s.Set("minItems", g.smallInt(3))
		} else {
			s.Set("maxItems", g.smallInt(3))
		}
	default:
		if g.draft == Draft07 {
			s.Set("items", g.sub(depth, self))
			return
		}
		s.Set("unevaluatedItems", g.unevaluated(depth, self))
	}
}

func (g *gen) stringKeywords(s *Obj) {
	switch g.r.IntN(5) {
	case 0:
		s.Set("minLength", g.smallInt(3))
	case 1:
		s.Set("maxLength", g.smallInt(3))
	case 2:
		s.Set("pattern", pick(g.r, patterns))
	case 3:
		s.Set("format", pick(g.r, formats))
	default:
		// Content keywords are annotations.
		s.Set("contentMediaType", "application/json")
		if g.chance(0.5) {
			s.Set("contentEncoding", "base64")
		}
		if g.draft == Draft202012 && g.chance(0.5) {
			cs := NewObj()
			cs.Set("type", "object")
			s.Set("contentSchema", cs)
		}
	}
}

func (g *gen) numberKeywords(s *Obj) {
	b := func() Num {
		if g.chance(0.3) {
			return Num(pick(g.r, []string{"0.5", "1.5", "-2.5", "0.1", "1e2", "10.0"}))
		}
		return Num(strconv.Itoa(g.r.IntN(21) - 10))
	}
	switch g.r.IntN(5) {
	case 0:
		s.Set("minimum", b())
	case 1:
		s.Set("maximum", b())
	case 2:
		s.Set("exclusiveMinimum", b())
	case 3:
		s.Set("exclusiveMaximum", b())
	default:
		s.Set("multipleOf", Num(pick(g.r, []string{"2", "3", "0.5", "0.1", "1.5", "1e-2", "7", "0.3"})))
	}
}

// value returns a random JSON value (small).
func (g *gen) value(depth int) any {
	switch k := g.r.IntN(7); {
	case k == 0:
		return nil
	case k == 1:
		return g.chance(0.5)
	case k == 2:
		return Num(g.number(g.chance(0.5)))
	case k == 3 || depth <= 0:
		return pick(g.r, stringPool)
	case k == 4:
		var a []any
		for range g.r.IntN(3) {
			a = append(a, g.value(depth-1))
		}
		if a == nil {
			a = []any{}
		}
		return a
	default:
		o := NewObj()
		for range g.r.IntN(3) {
			o.Set(pick(g.r, propNames), g.value(depth-1))
		}
		return o
	}
}

func (g *gen) constEnum(s *Obj) {
	if g.chance(0.4) {
		s.Set("const", g.value(2))
		return
	}
	var vals []any
	seen := map[string]bool{}
	n := g.r.IntN(4)
	if g.draft == Draft07 {
		n = 1 + g.r.IntN(3) // the draft-07 metaschema wants at least one value
	}
	for range n {
		v := g.value(1)
		key := canonical(v)
		if !seen[key] {
			seen[key] = true
			vals = append(vals, v)
		}
	}
	if vals == nil {
		vals = []any{}
	}
	s.Set("enum", vals)
}

func (g *gen) applicator(s *Obj, depth int, self string) {
	list := func(branches bool) []any {
		var out []any
		for range 1 + g.r.IntN(3) {
			g.branch = branches
			out = append(out, g.inPlace(depth, self))
			g.branch = false
		}
		return out
	}
	switch g.r.IntN(7) {
	case 0:
		s.Set("allOf", list(false))
	case 1:
		s.Set("anyOf", list(true))
	case 2:
		s.Set("oneOf", list(true))
	case 3:
		s.Set("not", g.inPlace(depth, self))
	case 4:
		s.Set("if", g.inPlace(depth, self))
		if g.chance(0.8) {
			s.Set("then", g.inPlace(depth, self))
		}
		if g.chance(0.6) {
			s.Set("else", g.inPlace(depth, self))
		}
	case 5:
		if r := g.ref(self, false); r != nil {
			s.Set("$ref", r.(*Obj).Vals["$ref"])
			return
		}
		s.Set("allOf", list(false))
	default:
		s.Set("anyOf", list(true))
	}
}

func uniqueStrings(xs []any) []any {
	var out []any
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	if out == nil {
		out = []any{}
	}
	return out
}

// canonical renders a value so that equal JSON values render alike (for
// enums without repeats; numbers by their text, which is good enough for
// the pools here since equal numbers spelled differently are rare and only
// make an enum the metaschema and mcpgen reject).
func canonical(v any) string {
	switch v := v.(type) {
	case *Obj:
		keys := slices.Clone(v.Keys)
		sort.Strings(keys)
		var b strings.Builder
		b.WriteByte('{')
		for _, k := range keys {
			fmt.Fprintf(&b, "%q:%s,", k, canonical(v.Vals[k]))
		}
		b.WriteByte('}')
		return b.String()
	case []any:
		var b strings.Builder
		b.WriteByte('[')
		for _, x := range v {
			b.WriteString(canonical(x) + ",")
		}
		b.WriteByte(']')
		return b.String()
	case Num:
		return "n" + numKey(string(v))
	}
	b, _ := Marshal(v)
	return string(b)
}

// numKey is the exact value of a number, so that equal numbers spelled
// differently (1, 1.0, 1e0) get one key.
func numKey(s string) string {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return s
	}
	return r.RatString()
}

// Only returns a copy of c in which every schema keeps only "type",
// "$ref" and the keywords in keep (their subschemas filtered the same
// way), and whether any schema of the copy uses a keyword of keep: the
// keywords alone, where New combines them.
func Only(c *Case, keep ...string) (*Case, bool) {
	f := &only{keep: keep}
	out := &Case{Name: c.Name, Schema: f.schema(c.Schema), Helpers: map[string]any{}, order: c.order}
	for _, h := range c.order {
		out.Helpers[h] = f.schema(c.Helpers[h])
	}
	return out, f.used
}

type only struct {
	keep []string
	used bool
}

// The keywords whose value is a schema, an object of schemas, or an array
// of schemas ("items" and draft-07 "dependencies" may be either kind).
var (
	schemaKeywords = []string{"not", "if", "then", "else", "contains", "propertyNames", "additionalProperties",
		"additionalItems", "unevaluatedProperties", "unevaluatedItems", "items", "contentSchema"}
	schemaMapKeywords   = []string{"properties", "patternProperties", "dependentSchemas", "dependencies"}
	schemaArrayKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

func (f *only) schema(v any) any {
	o, ok := v.(*Obj)
	if !ok {
		return v
	}
	out := NewObj()
	for _, k := range o.Keys {
		x := o.Vals[k]
		if k != "type" && k != "$ref" && !slices.Contains(f.keep, k) {
			continue
		}
		if slices.Contains(f.keep, k) {
			f.used = true
		}
		switch {
		case slices.Contains(schemaArrayKeywords, k) && isList(x):
			l := x.([]any)
			n := make([]any, len(l))
			for i, s := range l {
				n[i] = f.schema(s)
			}
			x = n
		case slices.Contains(schemaKeywords, k):
			x = f.schema(x)
		case slices.Contains(schemaMapKeywords, k):
			if m, ok := x.(*Obj); ok {
				n := NewObj()
				for _, name := range m.Keys {
					n.Set(name, f.schema(m.Vals[name])) // a list (dependencies) stays
				}
				x = n
			}
		}
		out.Set(k, x)
	}
	return out
}

func isList(v any) bool {
	_, ok := v.([]any)
	return ok
}
