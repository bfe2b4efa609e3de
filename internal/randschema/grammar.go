package randschema

import (
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
)

// This file is the grammar fuzz target's part (issue 13): a random source
// a fuzzer's bytes drive, and the shapes a generator of Go code has to get
// right besides the validation keywords: unions of constants (enums),
// branches of one JSON type told apart by a constant or by what they
// require, untyped branches, free-form values, constants without a type,
// deep nesting (long derived names), allOf of one schema twice, member
// and definition names that clash with Go keywords or with the methods
// and fields of generated types, text Go source cannot carry, bounds
// beyond what Go represents, and requests and results a dispatcher pairs.

// FromBytes returns a random generator whose numbers come from data (a
// fuzzer's input), eight bytes a number, each mixed so that a change of
// any byte changes the choice it makes; after data, from a PCG seeded by
// data, so that a short input still makes a whole schema.
func FromBytes(data []byte) *rand.Rand {
	h := fnv.New64a()
	h.Write(data)
	seed := h.Sum64()
	return rand.New(&byteSource{data: data, pcg: rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)})
}

type byteSource struct {
	data []byte
	pcg  *rand.PCG
}

func (b *byteSource) Uint64() uint64 {
	if len(b.data) == 0 {
		return b.pcg.Uint64()
	}
	var buf [8]byte
	n := copy(buf[:], b.data)
	b.data = b.data[n:]
	// splitmix64's finalizer: a bijection that spreads every bit.
	x := binary.LittleEndian.Uint64(buf[:])
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// NewGrammar makes a case like New, with the grammar's shapes mixed in
// (a quarter of the schemas), its member names and its descriptions.
func NewGrammar(r *rand.Rand, d Draft, name string) *Case {
	g := &gen{r: r, draft: d, c: &Case{Name: name, Helpers: map[string]any{}}, made: map[string]bool{}, grammar: true}
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

// GrammarDocument makes the cases of one grammar document: one to three
// definitions under names a Go generator must be careful with, and
// sometimes a request (a "method" constant) with or without its result.
func GrammarDocument(r *rand.Rand) (Draft, []*Case) {
	d := Draft202012
	if r.IntN(3) == 0 {
		d = Draft07
	}
	var cases []*Case
	used := map[string]bool{}
	for range 1 + r.IntN(3) {
		name := pick(r, defNames)
		if r.IntN(60) == 0 {
			name = "Value" // the generated package's own: refused
		}
		if used[name] {
			continue
		}
		used[name] = true
		cases = append(cases, NewGrammar(r, d, name))
	}
	if r.IntN(3) == 0 {
		cases = append(cases, requestCases(r, d)...)
	}
	return d, cases
}

// defNames are definition names: ordinary, Go keywords (their Go names
// are capitalised), names of the generated package's own API, names that
// only differ in case or punctuation, and names derived names can meet.
var defNames = []string{"Thing", "Role", "map", "type", "func", "range", "Item", "ItemKind",
	"thing", "x-thing", "Thing2", "Extra", "Content", "ContentBlock", "Result", "Params", "ThingHolder"}

// clashNames are member names that meet the names generated types use
// for their own methods and fields, Go keywords, and names that differ
// only in case or punctuation.
var clashNames = []string{"validate", "Validate", "marshalJSON", "unmarshalJSON", "appendJSON", "MarshalJSON",
	"extra", "Extra", "kind", "type", "value", "Value", "func", "map", "_meta", "x_y", "X-Y", "xY", "@type", "$ref", "enum", "get"}

// texts are descriptions: some hold what Go source cannot carry (NUL,
// other control characters, U+FEFF, line and paragraph separators) or
// what a comment must not end with.
var texts = []string{"generated", "a\x00b", "\ufeffstarts with a BOM", "ends a comment */ here", "line one\nline two",
	"sep\u2028arated", "tab\tand\rreturn", "`back` \"quotes\"", "\x7f\x1b[31m", "// not a comment"}

func (g *gen) description() string {
	if !g.grammar {
		return "generated"
	}
	return pick(g.r, texts)
}

func (g *gen) propName() string {
	if g.grammar && g.chance(0.3) {
		return pick(g.r, clashNames)
	}
	return pick(g.r, propNames)
}

// enumStrings are string constants: ordinary ones, and ones an enum
// constant's Go name has to be made from with care.
var enumStrings = []string{"user", "assistant", "text", "image", "", "with space", "a-b", "9lives", "é", "A", "a", "_", "x\x00"}

// shape makes one of the grammar's shapes.
func (g *gen) shape(depth int, self string) any {
	s := NewObj()
	typed := g.chance(0.6)
	consts := func(n int, str bool) []any {
		var out []any
		for range n {
			var v any = Num(strconv.Itoa(g.r.IntN(7) - 3))
			if str {
				v = pick(g.r, enumStrings)
			}
			if !containsValue(out, v) {
				out = append(out, v)
			}
		}
		return out
	}
	union := func() string {
		if g.chance(0.3) {
			return "oneOf"
		}
		return "anyOf"
	}
	switch g.r.IntN(12) {
	case 0, 1:
		// An anyOf (oneOf) of constants: an enum.
		str := g.chance(0.7)
		var branches []any
		for _, v := range consts(2+g.r.IntN(3), str) {
			b := NewObj()
			if typed {
				b.Set("type", map[bool]string{true: "string", false: "integer"}[str])
			}
			b.Set("const", v)
			if g.chance(0.2) {
				b.Set("description", g.description())
			}
			branches = append(branches, b)
		}
		s.Set(union(), branches)
	case 2:
		// Object branches that differ only in what they require.
		props := NewObj()
		names := []string{g.propName(), g.propName(), g.propName()}
		for _, n := range names {
			props.Set(n, g.sub(depth, self))
		}
		var branches []any
		for i := range 2 + g.r.IntN(2) {
			b := NewObj()
			b.Set("type", "object")
			b.Set("properties", props)
			b.Set("required", []any{props.Keys[i%len(props.Keys)]})
			branches = append(branches, b)
		}
		s.Set(union(), branches)
	case 3:
		// Branches told apart by a constant member.
		tag := pick(g.r, []string{"type", "kind", "role"})
		var branches []any
		for _, v := range consts(2+g.r.IntN(2), true) {
			b := NewObj()
			b.Set("type", "object")
			props := NewObj()
			c := NewObj()
			c.Set("type", "string")
			c.Set("const", v)
			props.Set(tag, c)
			if g.chance(0.6) {
				props.Set(g.propName(), g.sub(depth, self))
			}
			b.Set("properties", props)
			if g.chance(0.7) {
				b.Set("required", []any{tag})
			}
			branches = append(branches, b)
		}
		s.Set(union(), branches)
	case 4:
		// A typed enum of awkward strings.
		s.Set("type", "string")
		s.Set("enum", consts(1+g.r.IntN(4), true))
	case 5:
		// Free-form values.
		switch g.r.IntN(3) {
		case 0:
		case 1:
			s.Set("type", "object")
			s.Set("additionalProperties", NewObj())
		default:
			s.Set("type", "object")
		}
	case 6:
		// Constants and enums without a type, of several JSON kinds.
		if g.chance(0.5) {
			s.Set("enum", []any{Num("1"), "1", nil, g.value(1)}[:2+g.r.IntN(2)])
		} else {
			props := NewObj()
			c := NewObj()
			c.Set("const", g.value(1))
			props.Set(g.propName(), c)
			s.Set("properties", props)
		}
	case 7:
		// Nesting deep enough for derived names past their cap.
		n := 3 + g.r.IntN(40)
		var inner any = g.schema(0, self)
		for range n {
			o := NewObj()
			o.Set("type", "object")
			props := NewObj()
			props.Set(pick(g.r, []string{"child", "nextLevelOfNesting", "a"}), inner)
			o.Set("properties", props)
			inner = o
		}
		return inner
	case 8:
		// allOf of one schema twice.
		one := g.inPlace(depth, self)
		s.Set("allOf", []any{one, one})
	case 9:
		// Inline branches without "type".
		var branches []any
		for range 2 + g.r.IntN(2) {
			b := NewObj()
			switch g.r.IntN(4) {
			case 0:
				props := NewObj()
				props.Set(g.propName(), g.sub(depth, self))
				b.Set("properties", props)
			case 1:
				b.Set("required", []any{g.propName()})
			case 2:
				b.Set("minLength", g.smallInt(3))
			default:
				b.Set("items", g.sub(depth, self))
			}
			branches = append(branches, b)
		}
		s.Set(union(), branches)
	case 10:
		// Bounds beyond what Go represents (mcpgen refuses them, naming
		// the pointer), now and then.
		if g.chance(0.8) {
			return g.schema(depth-1, self)
		}
		switch g.r.IntN(4) {
		case 0:
			s.Set("type", "number")
			s.Set("minimum", Num("1e309"))
		case 1:
			s.Set("type", "string")
			s.Set("maxLength", Num("100000000000000000000"))
		case 2:
			s.Set("type", "integer")
			s.Set("maximum", Num("9223372036854775808"))
		default:
			s.Set("type", "array")
			s.Set("maxItems", Num("1e2"))
		}
	default:
		// A $ref and an inline schema of the same type as branches.
		var branches []any
		if r := g.ref(self, false); r != nil {
			branches = append(branches, r)
		}
		branches = append(branches, g.inPlace(depth, self), g.inPlace(depth, self))
		s.Set(union(), branches)
	}
	if g.chance(0.1) {
		s.Set("description", g.description())
	}
	return s
}

// requestCases makes a request: a definition XRequest whose "method" is
// a constant, with params, and (most of the time) its result XResult.
func requestCases(r *rand.Rand, d Draft) []*Case {
	x := pick(r, []string{"Foo", "Get", "List", "Put", "Ping"})
	method := pick(r, []string{"foo", "item/get", "list", "message/send", "ping", "initialize", "server/discover", "logging/setLevel"})
	req := NewGrammar(r, d, x+"Request")
	o := NewObj()
	o.Set("type", "object")
	props := NewObj()
	m := NewObj()
	m.Set("type", "string")
	m.Set("const", method)
	props.Set("method", m)
	switch r.IntN(4) {
	case 0:
		props.Set("params", NewObj()) // free-form params
	case 1:
		p := NewObj()
		p.Set("type", "object")
		p.Set("additionalProperties", NewObj())
		props.Set("params", p)
	default:
		props.Set("params", req.Schema)
	}
	o.Set("properties", props)
	req.Schema = o
	if r.IntN(2) == 0 {
		o.Set("required", []any{"method", "params"})
	} else {
		o.Set("required", []any{"method"})
	}
	out := []*Case{req}
	if r.IntN(4) != 0 {
		out = append(out, NewGrammar(r, d, x+"Result"))
	}
	if r.IntN(3) != 0 {
		// The union of the requests a client sends, by the naming
		// convention (README "Pairing requests with results"): the
		// package gets a dispatcher.
		ref := NewObj()
		ref.Set("$ref", "#/"+d.Defs()+"/"+req.Name)
		u := NewObj()
		u.Set("anyOf", []any{ref})
		out = append(out, &Case{Name: "AgentRequest", Schema: u, Helpers: map[string]any{}})
	}
	return out
}

func containsValue(xs []any, v any) bool {
	for _, x := range xs {
		if canonical(x) == canonical(v) {
			return true
		}
	}
	return false
}
