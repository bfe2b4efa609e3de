package conformance

import (
	"bytes"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/mcpgen/mcpgen/schema"
)

// This file derives variants of a document: the mutations the
// differential test checks besides the documents themselves.

// applicable returns, for every position (JSON pointer) of the document v,
// the schema nodes that apply there when v is checked against root: through
// $ref, allOf/anyOf/oneOf (every branch), properties, additionalProperties
// and items. It over-approximates: a branch that does not match still
// counts.
func applicable(root *schema.Schema, v *schema.Value) map[string][]*schema.Schema {
	at := map[string][]*schema.Schema{}
	type key struct {
		s   *schema.Schema
		ptr string
	}
	seen := map[key]bool{}
	var walk func(s *schema.Schema, v *schema.Value, ptr string)
	walk = func(s *schema.Schema, v *schema.Value, ptr string) {
		if s == nil || seen[key{s, ptr}] {
			return
		}
		seen[key{s, ptr}] = true
		at[ptr] = append(at[ptr], s)
		walk(s.Ref, v, ptr)
		for _, list := range [][]*schema.Schema{s.AllOf, s.AnyOf, s.OneOf} {
			for _, b := range list {
				walk(b, v, ptr)
			}
		}
		switch v.Kind {
		case schema.Object:
			for _, m := range v.Members {
				sub := s.Prop(m.Name)
				if sub == nil {
					sub = s.AdditionalProperties
				}
				walk(sub, m.Value, ptr+"/"+schema.EscapePointer(m.Name))
			}
		case schema.Array:
			for i, it := range v.Items {
				walk(s.Items, it, ptr+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(root, v, "")
	return at
}

// style is how encode writes a document.
type style int

const (
	compact style = iota
	escaped       // every character of every string and name as \uXXXX
	pretty        // indented, with spaces around the colons
)

// escapedName marks a member name that encode writes with every character
// escaped even in the compact style: "a" and "\u0061" are the same name.
const escapedName = "\x00escaped\x00"

// rawJSON returns a value that encode writes as text, verbatim: a number
// carries its text as it is, so a number node does.
func rawJSON(text string) *schema.Value {
	return &schema.Value{Kind: schema.Number, Num: text}
}

// encode writes v as JSON text in style st.
func encode(v *schema.Value, st style) []byte {
	var b bytes.Buffer
	writeValue(&b, v, st, 0)
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v *schema.Value, st style, indent int) {
	nl := func(n int) {
		if st == pretty {
			b.WriteString("\n")
			b.WriteString(strings.Repeat("  ", n))
		}
	}
	switch v.Kind {
	case schema.Null:
		b.WriteString("null")
	case schema.Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case schema.Number:
		b.WriteString(v.Num)
	case schema.String:
		writeString(b, v.Str, st == escaped)
	case schema.Array:
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(indent + 1)
			writeValue(b, it, st, indent+1)
		}
		if len(v.Items) > 0 {
			nl(indent)
		}
		b.WriteByte(']')
	case schema.Object:
		b.WriteByte('{')
		for i, m := range v.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(indent + 1)
			if name, ok := strings.CutPrefix(m.Name, escapedName); ok {
				writeString(b, name, true)
			} else {
				writeString(b, m.Name, st == escaped)
			}
			if st == pretty {
				b.WriteString(" : ")
			} else {
				b.WriteByte(':')
			}
			writeValue(b, m.Value, st, indent+1)
		}
		if len(v.Members) > 0 {
			nl(indent)
		}
		b.WriteByte('}')
	}
}

func writeString(b *bytes.Buffer, s string, escapeAll bool) {
	if !escapeAll {
		b.Write(jsonQuote(s))
		return
	}
	b.WriteByte('"')
	for _, r := range s {
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(b, `\u%04x`, u)
		}
	}
	b.WriteByte('"')
}

// jsonQuote quotes s as JSON: only the characters JSON requires escaped.
func jsonQuote(s string) []byte {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.Bytes()
}

// mutant is a variant of a document.
type mutant struct {
	label string
	doc   []byte
}

// mutator derives the variants of documents of one definition.
type mutator struct {
	def   *schema.Schema
	deep  bool // add the variants nested around encoding/json's depth limit
	plain int  // string positions without constraints that got variants
	// rich, when not nil, lists the positions (JSON pointers) of the
	// objects that get every unknown-member variant; the others get a few.
	rich map[string]bool
	out  []mutant
}

// richObjects decides, for each of a list of documents of one revision,
// which of its objects get every unknown-member variant: the first few
// objects (in document order) that each combination of schema nodes
// applies to. The rest of those variants would check the same generated
// code again.
func richObjects(r *revision, docs []baseDocument, perSchemas int) []map[string]bool {
	count := map[string]int{}
	out := make([]map[string]bool, len(docs))
	for i, d := range docs {
		out[i] = map[string]bool{}
		at := applicable(r.defIdx[d.def], d.value)
		walkPointers(d.value, "", func(ptr string, v *schema.Value) {
			if v.Kind != schema.Object {
				return
			}
			var ptrs []string
			for _, s := range at[ptr] {
				ptrs = append(ptrs, s.Pointer)
			}
			slices.Sort(ptrs)
			key := strings.Join(ptrs, " ")
			if count[key] < perSchemas {
				count[key]++
				out[i][ptr] = true
			}
		})
	}
	return out
}

// walkPointers calls f on every value of v with its JSON pointer.
func walkPointers(v *schema.Value, ptr string, f func(ptr string, v *schema.Value)) {
	f(ptr, v)
	for i, it := range v.Items {
		walkPointers(it, ptr+"/"+strconv.Itoa(i), f)
	}
	for _, m := range v.Members {
		walkPointers(m.Value, ptr+"/"+schema.EscapePointer(m.Name), f)
	}
}

func newMutator(r *revision, def string) *mutator {
	return &mutator{def: r.defIdx[def]}
}

// site is one value of the document being mutated.
type site struct {
	path    []int // member or item indexes from the root
	ptr     string
	v       *schema.Value
	schemas []*schema.Schema // the schema nodes that apply there
}

// replace returns a copy of root with the value at path replaced by nv,
// sharing what it does not change.
func replace(root *schema.Value, path []int, nv *schema.Value) *schema.Value {
	if len(path) == 0 {
		return nv
	}
	c := *root
	switch root.Kind {
	case schema.Array:
		c.Items = slices.Clone(root.Items)
		c.Items[path[0]] = replace(root.Items[path[0]], path[1:], nv)
	case schema.Object:
		c.Members = slices.Clone(root.Members)
		c.Members[path[0]].Value = replace(root.Members[path[0]].Value, path[1:], nv)
	}
	return &c
}

func (m *mutator) add(label string, root *schema.Value) {
	m.out = append(m.out, mutant{label: label, doc: encode(root, compact)})
}

func (m *mutator) addText(label string, doc []byte) {
	m.out = append(m.out, mutant{label: label, doc: doc})
}

// Scalars of every JSON type, for replacing values.
var replacements = []struct {
	label string
	text  string
}{
	{"null", "null"}, {"string", `"x"`}, {"empty string", `""`}, {"number", "1"},
	{"true", "true"}, {"false", "false"}, {"object", "{}"}, {"array", "[]"},
}

func parseText(text string) *schema.Value {
	v, err := schema.Parse([]byte(text))
	if err != nil {
		panic(fmt.Sprintf("parseText(%q): %v", text, err))
	}
	return v
}

// unknownValues are the values of the unknown members added to objects.
var unknownValues = []struct{ label, text string }{
	{"1", "1"},
	{"{}", "{}"},
	{"null", "null"},
	{"of every type", `{"a":["b",1,true,{"c":"d"}],"e":{"f":{"g":[]}}}`},
	{"with numbers no float64 holds exactly", `{"n":[1,2.5e300,"s",123456789012345678901234567890,0.1000000000000000055511151231257827]}`},
	{"with the same names nested", `{"a":1,"b":{"a":1,"b":[{"a":1,"b":2}]}}`},
	{"with a duplicate name nested", `{"a":1,"b":{"a":1,"b":[{"a":1,"a":2}]}}`},
	{"with a duplicate name, escaped", `{"a":1,"\u0061":2}`},
	{"with escaped names", `{"\u0061":1,"\u0062":2,"\n":3,"\"":4,"\\":5,"\/":6}`},
	{"with 70 names", manyMembers(70, -1)},
	{"with 70 names, the first twice", manyMembers(70, 0)},
	{"with 70 names, the 66th twice", manyMembers(70, 65)},
	{"with 64 names, the 64th twice", manyMembers(64, 63)},
}

// manyMembers returns an object with n members named k0, k1, ...; when dup
// is not negative, member dup comes again at the end.
func manyMembers(n, dup int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	if dup >= 0 {
		fmt.Fprintf(&b, `"k%d":%d,`, dup, dup)
	}
	return strings.TrimSuffix(b.String(), ",") + "}"
}

// numberVariants are numbers tried at every number position: fractions,
// whole numbers written as fractions or with exponents, the edges of int64
// and float64, and numbers float64 cannot tell from others.
var numberVariants = []string{
	"0", "-0", "0.0", "-1", "1.5", "-1.5", "2.0", "1e2", "1E+2", "1.0e1", "100e-2", "12.5e-1",
	"9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
	"9223372036854775807.0", "92233720368547758070e-1", "1e19", "1e18", "0.1e20",
	"18446744073709551616", "123456789012345678901234567890",
	"1.7976931348623157e308", "1.7976931348623159e308", "-1.7976931348623159e308", "1e309", "1e400",
	"4.9e-324", "1e-400", "-1e-400", "0.1", "3.4028234663852886e38", "1e-7",
	"1.0000000000000000001", "0.99999999999999999999", "-0.00000000000000000001",
}

// stringVariants are strings tried at every string position, as JSON text.
var stringVariants = []string{
	`"\u0000"`, `"\ud800"`, `"\udc00\ud800"`, `"\ud83d\ude00"`, `"\u00e9"`, `"é"`, `"\/"`, `"a\"b"`,
	`"\t"`,
}

// formatVariants are strings tried where a format applies, valid and not.
var formatVariants = []string{
	"", "x", "a:b", "relative/path", "/abs", "https://example.com/a b", "https://example.com/%zz",
	"https://example.com/%41", "https://[::1]/", "https://[::1/", "https://::1/", "https://[fe80::1%25en0]/",
	"http://example.com:99999/", "http://example.com:port/", "mailto:a@example.com", "file:///tmp/x",
	"urn:isbn:0451450523", "https://example.com/{id}", "https://example.com/{id", "https://example.com/{{id}}",
	"https://example.com/}{", "{scheme}://x", "https://example.com/a{b}c/{d}", "https://example.com/?q={q}",
	"\\\\server\\share", "https://example.com/\\", "HTTP://EXAMPLE.COM", "https://exa mple.com/",
	"aGVsbG8=", "aGVsbG8", "aGVsbG8==", "aGVsbA==", "aGVsbA=", "aGVs bG8=", "aGVs\nbG8=", "aGVsbG8-", "aGVsbG8_",
	"YQ", "YQ==", "YQ=", "====", "=", "++//", "-_", "\u00e9", "Zm9v\r\nYmFy",
}

// mutants returns the variants of root (a document of m.def).
func (m *mutator) mutants(root *schema.Value) []mutant {
	m.out, m.plain = nil, 0
	at := applicable(m.def, root)
	var sites []site
	var collect func(v *schema.Value, path []int, ptr string)
	collect = func(v *schema.Value, path []int, ptr string) {
		sites = append(sites, site{path: path, ptr: ptr, v: v, schemas: at[ptr]})
		switch v.Kind {
		case schema.Array:
			for i, it := range v.Items {
				collect(it, append(slices.Clone(path), i), ptr+"/"+strconv.Itoa(i))
			}
		case schema.Object:
			for i, mb := range v.Members {
				collect(mb.Value, append(slices.Clone(path), i), ptr+"/"+schema.EscapePointer(mb.Name))
			}
		}
	}
	collect(root, nil, "")

	for _, s := range sites {
		m.site(root, s)
	}
	m.whole(root)
	return m.out
}

// site adds the variants that change the value at one position.
func (m *mutator) site(root *schema.Value, s site) {
	at := s.ptr
	if at == "" {
		at = "/"
	}
	set := func(label string, nv *schema.Value) {
		m.add(label+" at "+at, replace(root, s.path, nv))
	}
	// Another JSON type (null included) in place of the value.
	for _, r := range replacements {
		set("replace by "+r.label, parseText(r.text))
	}
	// Wrapped in an array (every array element, and every value).
	set("wrap in an array", &schema.Value{Kind: schema.Array, Items: []*schema.Value{s.v}})

	switch s.v.Kind {
	case schema.Object:
		m.object(s, set)
	case schema.Array:
		m.array(s, set)
	case schema.String:
		m.string(s, set)
	case schema.Number:
		m.number(s, set)
	case schema.Bool:
		set("flip the boolean", &schema.Value{Kind: schema.Bool, Bool: !s.v.Bool})
	}
}

func (m *mutator) object(s site, set func(string, *schema.Value)) {
	v := s.v
	with := func(members []schema.Member) *schema.Value {
		c := *v
		c.Members = members
		return &c
	}
	// Drop each member.
	for i, mb := range v.Members {
		set(fmt.Sprintf("drop member %q", mb.Name), with(slices.Delete(slices.Clone(v.Members), i, i+1)))
	}
	// An unknown member, with values of several shapes: where the schema
	// allows unknown members only of some type, some of them fit. The
	// whole set only where the object's schemas have not had it often
	// (see rich); elsewhere the first two values.
	values := unknownValues
	if m.rich != nil && !m.rich[s.ptr] {
		values = values[:2]
	}
	for _, u := range values {
		set("add an unknown member "+u.label, with(append(slices.Clone(v.Members),
			schema.Member{Name: "x-mcpgen-unknown", Value: rawJSON(u.text)})))
	}
	for _, sc := range s.schemas {
		if ap := sc.AdditionalProperties; ap != nil && !ap.IsBool && !ap.IsEmpty() {
			if val := (&builder{full: true}).build([]*schema.Schema{ap}, 0, 0); val != nil {
				set("add an unknown member of the additionalProperties schema", with(append(slices.Clone(v.Members),
					schema.Member{Name: "x-mcpgen-unknown", Value: val})))
			}
		}
	}
	if m.rich == nil || m.rich[s.ptr] {
		// Many unknown members (decoders switch to a set past 64 names),
		// with and without a duplicate name among them.
		many := slices.Clone(v.Members)
		for i := range 70 {
			many = append(many, schema.Member{Name: fmt.Sprintf("x-mcpgen-%d", i), Value: rawJSON(strconv.Itoa(i))})
		}
		set("add 70 unknown members", with(many))
		set("add 70 unknown members, the first twice", with(append(slices.Clone(many),
			schema.Member{Name: "x-mcpgen-0", Value: rawJSON("0")})))
		set("add 70 unknown members, the 65th twice, escaped", with(append(slices.Clone(many),
			schema.Member{Name: escapedName + "x-mcpgen-64", Value: rawJSON("0")})))
	}
	// The properties the schemas name but the object lacks: each with an
	// instance of its schema, and with null.
	for _, name := range m.absentProperties(s) {
		var schemas []*schema.Schema
		for _, sc := range s.schemas {
			if p := sc.Prop(name); p != nil {
				schemas = append(schemas, p)
			}
		}
		b := &builder{}
		if val := b.build(schemas[:1], 0, 0); val != nil {
			set(fmt.Sprintf("add member %q", name), with(append(slices.Clone(v.Members), schema.Member{Name: name, Value: val})))
		}
		set(fmt.Sprintf("add member %q as null", name), with(append(slices.Clone(v.Members),
			schema.Member{Name: name, Value: &schema.Value{Kind: schema.Null}})))
	}
	if len(v.Members) > 0 {
		first := v.Members[0]
		// Duplicate member names (mcpgen must reject), spelled the same
		// and spelled with escapes; and a name that only looks the same.
		set(fmt.Sprintf("duplicate member %q", first.Name), with(append(slices.Clone(v.Members), first)))
		set(fmt.Sprintf("duplicate member %q, escaped", first.Name), with(append(slices.Clone(v.Members),
			schema.Member{Name: escapedName + first.Name, Value: first.Value})))
		set(fmt.Sprintf("duplicate member %q with another value", first.Name), with(append(slices.Clone(v.Members),
			schema.Member{Name: first.Name, Value: parseText("null")})))
		last := v.Members[len(v.Members)-1]
		set(fmt.Sprintf("duplicate member %q (the last) first", last.Name), with(append([]schema.Member{last}, v.Members...)))
		set(fmt.Sprintf("member %q escaped", first.Name), with(append([]schema.Member{{Name: escapedName + first.Name, Value: first.Value}},
			v.Members[1:]...)))
		set(fmt.Sprintf("member %q with a trailing space", first.Name), with(append([]schema.Member{{Name: first.Name + " ", Value: first.Value}},
			v.Members[1:]...)))
		set(fmt.Sprintf("member %q upper-cased", first.Name), with(append([]schema.Member{{Name: strings.ToUpper(first.Name), Value: first.Value}},
			v.Members[1:]...)))
		// The members in reverse order.
		rev := slices.Clone(v.Members)
		slices.Reverse(rev)
		set("members reversed", with(rev))
	}
}

// absentProperties lists the properties the schemas at s name that the
// object at s lacks.
func (m *mutator) absentProperties(s site) []string {
	var names []string
	for _, sc := range s.schemas {
		for _, p := range sc.Properties {
			if s.v.Get(p.Name) == nil && !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	return names
}

func (m *mutator) array(s site, set func(string, *schema.Value)) {
	v := s.v
	with := func(items []*schema.Value) *schema.Value {
		c := *v
		c.Items = items
		return &c
	}
	set("empty the array", with([]*schema.Value{}))
	if len(v.Items) > 0 {
		set("repeat the first element", with(append(slices.Clone(v.Items), v.Items[0])))
		set("add null", with(append(slices.Clone(v.Items), &schema.Value{Kind: schema.Null})))
		set("add an array of the first element", with(append(slices.Clone(v.Items),
			&schema.Value{Kind: schema.Array, Items: []*schema.Value{v.Items[0]}})))
	}
	// Around maxItems and minItems, with copies of the first element (or an
	// instance of the items schema).
	var elem *schema.Value
	if len(v.Items) > 0 {
		elem = v.Items[0]
	} else {
		var items []*schema.Schema
		for _, sc := range s.schemas {
			if sc.Items != nil {
				items = append(items, sc.Items)
			}
		}
		if len(items) > 0 {
			elem = (&builder{}).build(items[:1], 0, 0)
		}
	}
	if elem == nil {
		return
	}
	set("one element", with([]*schema.Value{elem}))
	var sizes []int64
	for _, sc := range s.schemas {
		for _, n := range []*int64{sc.MaxItems, sc.MinItems} {
			if n != nil {
				sizes = append(sizes, *n-1, *n, *n+1)
			}
		}
	}
	for _, n := range sizes {
		if n < 0 || n > 1000 {
			continue
		}
		items := make([]*schema.Value, n)
		for i := range items {
			items[i] = elem
		}
		set(fmt.Sprintf("%d elements", n), with(items))
	}
}

func (m *mutator) string(s site, set func(string, *schema.Value)) {
	str := func(x string) *schema.Value { return &schema.Value{Kind: schema.String, Str: x} }
	cur := s.v.Str
	// The constants and enum values of the position: each of them (valid
	// or another branch's), and strings near them.
	var words []string
	formats := false
	for _, sc := range s.schemas {
		if sc.Const != nil && sc.Const.Kind == schema.String {
			words = append(words, sc.Const.Str)
		}
		for _, e := range sc.Enum {
			if e.Kind == schema.String {
				words = append(words, e.Str)
			}
		}
		formats = formats || sc.Format != ""
	}
	// Any string goes where there are none of those: a few such positions
	// per document get the variants too.
	if len(words) == 0 && !formats {
		if m.plain >= 2 {
			return
		}
		m.plain++
	}
	words = append(words, cur+"x", strings.ToUpper(cur), " "+cur, cur+"\u0000", "x-mcpgen-other")
	if len(cur) > 1 {
		words = append(words, cur[:len(cur)-1])
	}
	for _, w := range uniq(words) {
		if w != cur {
			set(fmt.Sprintf("string %q", w), str(w))
		}
	}
	for _, text := range stringVariants {
		set("string "+text, rawJSON(text))
	}
	if formats {
		for _, f := range formatVariants {
			set(fmt.Sprintf("format string %q", f), str(f))
		}
	}
	// The string escaped character by character.
	var b bytes.Buffer
	writeString(&b, cur, true)
	set("string escaped", rawJSON(b.String()))
}

func (m *mutator) number(s site, set func(string, *schema.Value)) {
	num := func(x string) *schema.Value { return &schema.Value{Kind: schema.Number, Num: x} }
	cur := s.v.Num
	var texts []string
	// Around the bounds and constants of the position.
	for _, sc := range s.schemas {
		for _, b := range []*string{sc.Minimum, sc.Maximum, sc.ExclusiveMinimum, sc.ExclusiveMaximum} {
			if b != nil {
				texts = append(texts, around(*b)...)
			}
		}
		if sc.Const != nil && sc.Const.Kind == schema.Number {
			texts = append(texts, around(sc.Const.Num)...)
		}
		for _, e := range sc.Enum {
			if e.Kind == schema.Number {
				texts = append(texts, around(e.Num)...)
			}
		}
	}
	texts = append(texts, around(cur)...)
	texts = append(texts, numberVariants...)
	for _, x := range uniq(texts) {
		if x != cur {
			set("number "+x, num(x))
		}
	}
	set("number as a string", &schema.Value{Kind: schema.String, Str: cur})
}

// around returns numbers next to n: n itself in other spellings, n±1,
// n±0.5, n±a tiny bit.
func around(n string) []string {
	out := []string{n, n + ".0", n + "e0", n + "0e-1"}
	if len(n) < 30 && !strings.ContainsAny(n, "eE") {
		for _, d := range []string{"1", "0.5", "0.000000000000000000001"} {
			out = append(out, addDecimal(n, d), addDecimal(n, "-"+d))
		}
	}
	return out
}

// addDecimal adds two short decimal texts exactly.
func addDecimal(a, b string) string {
	x, _ := new(big.Rat).SetString(a)
	y, _ := new(big.Rat).SetString(b)
	s := new(big.Rat).Add(x, y)
	if s.IsInt() {
		return s.RatString()
	}
	return strings.TrimRight(s.FloatString(30), "0")
}

// whole adds the variants of the whole document: other documents, other
// spellings, broken JSON.
func (m *mutator) whole(root *schema.Value) {
	doc := encode(root, compact)
	for _, r := range []string{"null", "[]", `"x"`, "1", "{}", "true", "[{}]", `{"":null}`} {
		m.addText("document "+r, []byte(r))
	}
	m.addText("escaped", encode(root, escaped))
	m.addText("pretty", encode(root, pretty))
	m.addText("surrounded by white space", []byte(" \t\r\n"+string(doc)+"\n "))
	m.addText("trailing garbage", append(slices.Clone(doc), 'x'))
	m.addText("trailing value", append(slices.Clone(doc), []byte(" {}")...))
	m.addText("trailing comma", append(slices.Clone(doc), ','))
	m.addText("byte order mark", append([]byte("\ufeff"), doc...))
	m.addText("empty", nil)
	m.addText("white space only", []byte("  "))
	if len(doc) > 1 {
		m.addText("truncated", doc[:len(doc)-1])
	}
	// Cut short right after a member name's colon, an opening bracket or
	// a comma (at most 40 places, every other one followed by a space): a
	// decoder that looks ahead must stop at the end.
	cuts := 0
	for i, c := range doc {
		if cuts < 40 && (c == ':' || c == '{' || c == '[' || c == ',') {
			if cuts%2 == 0 {
				m.addText(fmt.Sprintf("cut after byte %d (%q)", i, c), doc[:i+1])
			} else {
				m.addText(fmt.Sprintf("cut after byte %d (%q) and a space", i, c), append(slices.Clone(doc[:i+1]), ' '))
			}
			cuts++
		}
	}
	if len(doc) > 2 && (doc[0] == '{' || doc[0] == '[') {
		// A comma before the closing bracket.
		m.addText("comma before the end", append(append(slices.Clone(doc[:len(doc)-1]), ','), doc[len(doc)-1]))
	}
	// Bytes that are not UTF-8 (mcpgen must reject), in the first string.
	for _, bad := range []string{"\xff", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x82", "\xf4\x90\x80\x80"} {
		if i := bytes.IndexByte(doc, '"'); i >= 0 {
			d := slices.Concat(doc[:i+1], []byte(bad), doc[i+1:])
			m.addText(fmt.Sprintf("not UTF-8 (%q) in a string", bad), d)
		}
	}
	// Control characters and bad escapes in the first string.
	for _, bad := range []string{"\x01", "\n", `\x41`, `\u12`, `\uZZZZ`, `\'`} {
		if i := bytes.IndexByte(doc, '"'); i >= 0 {
			d := slices.Concat(doc[:i+1], []byte(bad), doc[i+1:])
			m.addText(fmt.Sprintf("bad string content %q", bad), d)
		}
	}
	// Deep nesting in an unknown member: around encoding/json's limit.
	if m.deep && root.Kind == schema.Object {
		for _, depth := range []int{9998, 9999, 10000, 10001} {
			deep := strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1)
			c := *root
			c.Members = append(slices.Clone(root.Members), schema.Member{Name: "x-mcpgen-deep", Value: rawJSON(deep)})
			m.addText(fmt.Sprintf("nesting %d deep", depth), encode(&c, compact))
		}
	}
}

func uniq(list []string) []string {
	var out []string
	for _, s := range list {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
