// Package typeschema derives a JSON Schema from a Go type and decodes and
// encodes JSON by that schema: decoding checks the JSON against the schema
// while it fills the Go value, so that what the schema refuses never
// reaches the program, and reports every violation with its JSON pointer.
// A generated MCP package uses it for a tool's arguments (the tool's
// inputSchema) and its structured result (outputSchema); it depends on
// nothing of MCP.
//
//	type Args struct {
//		City string `json:"city" jsonschema:"the city to look up"`
//		Days int    `json:"days,omitempty" mcp:"minimum=1,maximum=14"`
//	}
//
//	c, err := typeschema.ForInput(reflect.TypeFor[Args]())
//	if err != nil { ... } // Args has a member without a schema
//	fmt.Printf("%s\n", c.Schema())
//	// {"type":"object","properties":{"city":{"type":"string","description":"the city to look up"},...
//	var a Args
//	err = c.Decode([]byte(`{"city":"Oslo","days":30}`), &a)
//	// err is a *codec.ValidationError: /days: must be <= 14, got 30 (maximum)
//
// The rules, for a struct type:
//   - A field's member name comes from its json tag, else its Go name;
//     `json:"-"` and unexported fields are left out, and the fields of an
//     embedded struct without a json name are promoted (the shallowest
//     wins, then a tagged one; two candidates alike are an error, where
//     encoding/json would silently drop both).
//   - A field is required unless it has omitempty or omitzero, or is a
//     pointer. A pointer is optional and not nullable: null is refused
//     like any other value of the wrong type.
//   - Member names match exactly (encoding/json would also take "A" for
//     "a"; the schema does not), and a member the struct does not declare
//     is refused (additionalProperties: false).
//   - `jsonschema:"text"` is the member's description (the tag of the
//     official Go SDK); `mcp:"enum=a|b,header=Name"` restricts a string to
//     the listed values and marks an argument for an Mcp-Param-Name header
//     (x-mcp-header); enum= on a slice or array of strings restricts its
//     items; titles=A|B gives each enum value a title (oneOf of const and
//     title, or the items' anyOf for a slice: the titled enums of form
//     elicitation) and enumNames=A|B the legacy enumNames; its other
//     keywords (keywords.go) state bounds, lengths, a pattern, a format,
//     a default (which must fit the member) and examples.
//   - bool, strings, integers (their range: int8 is -128..127; no bound
//     is stated for 64-bit ones, whose range is checked all the same), floats,
//     slices, arrays, maps with string keys, pointers, structs, []byte (a
//     base64 string), time.Time (a date-time string), json.RawMessage and
//     any (any JSON), and types that implement encoding.TextUnmarshaler
//     (a string) have schemas; channels, functions, complex numbers,
//     interfaces with methods, other map keys, types with their own
//     UnmarshalJSON (unless they implement Schemaer), and recursive types
//     are refused when the codec is built.
package typeschema

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// argKind says how a Go type maps to JSON.
type argKind uint8

const (
	argBool argKind = iota + 1
	argString
	argInt
	argUint
	argFloat
	argBytes // []byte: a base64 string
	argTime  // time.Time: an RFC 3339 date-time string
	argText  // an encoding.TextUnmarshaler: a string
	argRaw   // json.RawMessage: any JSON, kept as it is
	argAny   // an empty interface: any JSON, decoded by encoding/json
	argStruct
	argSlice
	argArray
	argMap
	argPtr
	argCustom // a type with MCPSchema: its own schema, decoded by encoding/json
)

// argNode is the plan for one use of a Go type.
type argNode struct {
	kind argKind
	typ  reflect.Type
	elem *argNode // slice, array and map elements, pointer targets
	// Structs: the fields in order, and an index by member name.
	fields []argField
	byName map[string]int
	// Integers: the bounds the schema states (bounded), from the type's
	// size or from x-mcp-header's safe range.
	bounded    bool
	min, max   int64
	umax       uint64
	bits       int           // integer and float size
	enum       []string      // allowed strings, or nil
	typeName   string        // for messages about text values
	marshalTxt bool          // argText: the type implements encoding.TextMarshaler
	kw         *argKeywords  // the keywords of an mcp tag, or nil
	custom     *codec.Schema // argCustom: the type's own schema
	customText []byte        // argCustom: its text
	// titles are the display names of enum's values (mcp tag titles= or
	// enumNames=), in the same order; titledAs is how the schema writes
	// them: "oneOf" or "anyOf" of {const, title}, or "enumNames" (the
	// legacy form beside enum).
	titles   []string
	titledAs string
}

// argField is one member of a struct.
type argField struct {
	name     string
	quoted   string // `"name":`
	index    []int  // reflect field index path (promoted fields have several)
	required bool
	omit     byte // 0, 'e' (omitempty) or 'z' (omitzero)
	desc     string
	header   string
	node     *argNode
}

// Codec is the plan for one Go type of tool arguments or of
// structured results: its JSON Schema (an object), and how to decode
// JSON into it, or encode it, by that schema.
type Codec struct {
	typ    reflect.Type
	root   *argNode
	schema []byte
}

var (
	timeType            = reflect.TypeFor[time.Time]()
	rawType             = reflect.TypeFor[json.RawMessage]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	jsonMarshalerType   = reflect.TypeFor[json.Marshaler]()
	stringType          = reflect.TypeFor[string]()
	schemaerType        = reflect.TypeFor[Schemaer]()
)

// Schemaer is a Go type that gives its own JSON Schema (a type with a JSON
// form of its own, such as a decimal or a wrapped time): MCPSchema returns
// a JSON Schema object, called on the zero value. A tool's arguments check
// a value against it, then decode it with encoding/json (the type's
// UnmarshalJSON, if it has one); a structured result encodes it with
// encoding/json (its MarshalJSON).
type Schemaer interface {
	MCPSchema() []byte
}

// maxSafeInteger is 2^53-1, the largest integer x-mcp-header allows.
const maxSafeInteger = 1<<53 - 1

// argsBuilder builds the plan of one type.
type argsBuilder struct {
	output  bool           // encoding structured results, not decoding arguments
	stack   []reflect.Type // the struct types being built, outermost first
	headers map[string]string
}

// ForInput returns the codec of t for decoding: tool arguments, a JSON
// object, so t is a struct or a map with string keys. An error says what in
// t has no schema.
func ForInput(t reflect.Type) (*Codec, error) { return build(t, false) }

// ForOutput returns the codec of t for encoding: a structured result, a JSON
// object, so t is a struct or a pointer to one (a nil pointer encodes as the
// zero struct). An error says what in t has no schema.
func ForOutput(t reflect.Type) (*Codec, error) { return build(t, true) }

// Schema returns the JSON Schema of the codec's type (an object, compact).
// The caller must not modify it.
func (c *Codec) Schema() []byte { return c.schema }

// Type returns the Go type the codec was built for.
func (c *Codec) Type() reflect.Type { return c.typ }

// build builds the plan and schema of t; output says it encodes values
// (structured results) rather than decoding them (arguments).
func build(t reflect.Type, output bool) (*Codec, error) {
	b := &argsBuilder{output: output, headers: map[string]string{}}
	root := t
	if output && root.Kind() == reflect.Pointer && root.Elem().Kind() == reflect.Struct {
		root = root.Elem() // a nil *Out encodes as the zero Out
	}
	var n *argNode
	var err error
	switch {
	case root.Kind() == reflect.Struct && root != timeType && !b.special(root):
		n, err = b.node(root, root.String(), true)
	case root.Kind() == reflect.Map && !output:
		n, err = b.node(root, root.String(), false)
	case output:
		return nil, errors.New(t.String() + " is not a struct or a pointer to one: a structured result is a JSON object")
	default:
		return nil, errors.New(t.String() + " is not a struct or a map with string keys: tool arguments are a JSON object")
	}
	if err != nil {
		return nil, err
	}
	c := &Codec{typ: t, root: n}
	var e codec.Encoder
	n.writeSchema(&e, nil)
	c.schema = e.Buf
	return c, nil
}

// special reports whether t maps to JSON through an interface of its own
// (text marshaling), not through its fields.
func (b *argsBuilder) special(t reflect.Type) bool {
	if b.output {
		return t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)
	}
	return reflect.PointerTo(t).Implements(textUnmarshalerType)
}

// node builds the plan of t, found at path (for errors); static says
// whether it is reached from the root through struct fields only (where
// x-mcp-header may go).
func (b *argsBuilder) node(t reflect.Type, path string, static bool) (*argNode, error) {
	n := &argNode{typ: t}
	switch {
	case t == timeType:
		n.kind, n.typeName, n.marshalTxt = argTime, t.String(), true
		return n, nil
	case t == rawType:
		n.kind = argRaw
		return n, nil
	case t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && (t.Implements(schemaerType) || reflect.PointerTo(t).Implements(schemaerType)):
		return b.customNode(t, path)
	case t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && b.special(t):
		n.kind, n.typeName = argText, t.String()
		n.marshalTxt = t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)
		return n, nil
	case t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && !b.output &&
		(t.Implements(jsonUnmarshalerType) || reflect.PointerTo(t).Implements(jsonUnmarshalerType)):
		return nil, errors.New(path + ": " + t.String() + " has a JSON form of its own (it implements json.Unmarshaler), so its schema is unknown; use json.RawMessage, or a type without UnmarshalJSON")
	case t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && b.output &&
		(t.Implements(jsonMarshalerType) || reflect.PointerTo(t).Implements(jsonMarshalerType)):
		return nil, errors.New(path + ": " + t.String() + " has a JSON form of its own (it implements json.Marshaler), so its schema is unknown; use json.RawMessage, or a type without MarshalJSON")
	}
	switch t.Kind() {
	case reflect.Bool:
		n.kind = argBool
	case reflect.String:
		n.kind = argString
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n.kind, n.bits = argInt, t.Bits()
		n.min, n.max = math.MinInt64, math.MaxInt64
		if n.bits < 64 {
			n.bounded = true
			n.max = 1<<(n.bits-1) - 1
			n.min = -n.max - 1
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n.kind, n.bits = argUint, t.Bits()
		n.bounded = true // minimum 0
		n.umax = math.MaxUint64
		if n.bits < 64 {
			n.umax = 1<<n.bits - 1
		}
	case reflect.Float32, reflect.Float64:
		n.kind, n.bits = argFloat, t.Bits()
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !b.special(t.Elem()) {
			n.kind = argBytes
			return n, nil
		}
		n.kind = argSlice
		elem, err := b.node(t.Elem(), path+"[]", false)
		if err != nil {
			return nil, err
		}
		n.elem = elem
	case reflect.Array:
		n.kind = argArray
		elem, err := b.node(t.Elem(), path+"[]", false)
		if err != nil {
			return nil, err
		}
		n.elem = elem
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, errors.New(path + ": map key type " + t.Key().String() + ": the keys of a JSON object are strings; use a map with string keys")
		}
		n.kind = argMap
		elem, err := b.node(t.Elem(), path+"[key]", false)
		if err != nil {
			return nil, err
		}
		n.elem = elem
	case reflect.Pointer:
		n.kind = argPtr
		elem, err := b.node(t.Elem(), path, static)
		if err != nil {
			return nil, err
		}
		n.elem = elem
	case reflect.Interface:
		if t.NumMethod() > 0 {
			return nil, errors.New(path + ": interface type " + t.String() + " has methods, so the JSON values it may hold are unknown; use any or json.RawMessage")
		}
		n.kind = argAny
	case reflect.Struct:
		return b.structNode(t, path, static)
	default:
		return nil, errors.New(path + ": type " + t.String() + " has no JSON form")
	}
	return n, nil
}

// structNode builds the plan of a struct: its members, with the fields of
// embedded structs promoted.
func (b *argsBuilder) structNode(t reflect.Type, path string, static bool) (*argNode, error) {
	if slices.Contains(b.stack, t) {
		return nil, errors.New(path + ": recursive type " + t.String() + ": a tool schema is written out in full, without $ref; break the cycle with json.RawMessage")
	}
	b.stack = append(b.stack, t)
	defer func() { b.stack = b.stack[:len(b.stack)-1] }()

	type candidate struct {
		f      argField
		depth  int
		tagged bool
		goName string
	}
	var cands []candidate
	var walk func(st reflect.Type, index []int, depth int, prefix string) error
	walk = func(st reflect.Type, index []int, depth int, prefix string) error {
		for i := range st.NumField() {
			sf := st.Field(i)
			tag, tagged := sf.Tag.Lookup("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(slices.Clone(index), i)
			if sf.Anonymous && name == "" {
				ft := sf.Type
				if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
					return errors.New(path + "." + prefix + sf.Name + ": embedded pointer " + ft.String() + " is not supported; embed the struct itself")
				}
				if ft.Kind() == reflect.Struct {
					if slices.Contains(b.stack, ft) {
						return errors.New(path + "." + prefix + sf.Name + ": recursive type " + ft.String() + ": a tool schema is written out in full, without $ref; break the cycle with json.RawMessage")
					}
					if err := walk(ft, idx, depth+1, prefix+sf.Name+"."); err != nil {
						return err
					}
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			fpath := path + "." + prefix + sf.Name
			if name == "" {
				name = sf.Name
				tagged = false
			}
			f := argField{name: name, index: idx}
			for o := range strings.SplitSeq(opts, ",") {
				switch o {
				case "omitempty":
					f.omit = 'e'
				case "omitzero":
					f.omit = 'z'
				case "string":
					return errors.New(fpath + `: the json tag option ",string" is not supported`)
				}
			}
			f.required = f.omit == 0 && sf.Type.Kind() != reflect.Pointer
			n, err := b.node(sf.Type, fpath, static)
			if err != nil {
				return err
			}
			f.node = n
			if desc, ok := sf.Tag.Lookup("jsonschema"); ok {
				if desc == "" {
					return errors.New(fpath + `: empty jsonschema tag (it holds the member's description)`)
				}
				if k, _, ok := strings.Cut(desc, "="); ok && !strings.ContainsAny(k, " \t\n") {
					return errors.New(fpath + `: jsonschema tag ` + strconv.Quote(desc) + ` looks like key=value; it holds only the member's description (put enum and header in the mcp tag)`)
				}
				f.desc = desc
			}
			if opt, ok := sf.Tag.Lookup("mcp"); ok {
				if err := b.mcpTag(&f, opt, fpath, static); err != nil {
					return err
				}
			}
			cands = append(cands, candidate{f: f, depth: depth, tagged: tagged, goName: fpath})
		}
		return nil
	}
	if err := walk(t, nil, 0, ""); err != nil {
		return nil, err
	}
	// The dominant field of each name: the shallowest, then a tagged one.
	n := &argNode{kind: argStruct, typ: t, byName: map[string]int{}}
	byName := map[string][]int{}
	var order []string
	for i, c := range cands {
		if _, ok := byName[c.f.name]; !ok {
			order = append(order, c.f.name)
		}
		byName[c.f.name] = append(byName[c.f.name], i)
	}
	for _, name := range order {
		group := byName[name]
		best := group[0]
		ambiguous := -1
		for _, i := range group[1:] {
			c, bc := cands[i], cands[best]
			switch {
			case c.depth < bc.depth || (c.depth == bc.depth && c.tagged && !bc.tagged):
				best, ambiguous = i, -1
			case c.depth == bc.depth && c.tagged == bc.tagged:
				ambiguous = i
			}
		}
		if ambiguous >= 0 {
			return nil, errors.New(path + ": fields " + cands[best].goName + " and " + cands[ambiguous].goName + " both map to the member " + strconv.Quote(name) + "; rename one with a json tag")
		}
		f := cands[best].f
		f.quoted = strconv.Quote(f.name) + ":"
		n.byName[f.name] = len(n.fields)
		n.fields = append(n.fields, f)
	}
	return n, nil
}

// mcpTag applies the options of an mcp tag (enum=a|b, header=Name) to f.
func (b *argsBuilder) mcpTag(f *argField, tag, path string, static bool) error {
	base := f.node
	for base.kind == argPtr {
		base = base.elem
	}
	// enum= restricts a string, or the items of a slice or array of
	// strings (a multiple choice); titles= and enumNames= name its values.
	strs := base
	if base.kind == argSlice || base.kind == argArray {
		strs = base.elem
		for strs.kind == argPtr {
			strs = strs.elem
		}
	}
	var titleKey string
	var titles []string
	for opt := range strings.SplitSeq(tag, ",") {
		key, val, _ := strings.Cut(opt, "=")
		switch key {
		case "enum":
			if strs.kind != argString {
				return errors.New(path + ": mcp tag enum= applies to strings and slices of strings, not " + f.node.typ.String())
			}
			if val == "" {
				return errors.New(path + ": mcp tag enum= lists no values")
			}
			strs.enum = strings.Split(val, "|")
		case "titles", "enumNames":
			if titleKey != "" {
				return errors.New(path + ": mcp tag has both " + titleKey + "= and " + key + "= (titles= writes oneOf/anyOf with a title for each value, enumNames= the legacy enumNames; choose one)")
			}
			if val == "" {
				return errors.New(path + ": mcp tag " + key + "= lists no titles")
			}
			titleKey, titles = key, strings.Split(val, "|")
		case "header":
			if b.output {
				return errors.New(path + ": mcp tag header= applies to tool arguments, not to structured results")
			}
			if err := checkHeaderName(val); err != nil {
				return errors.New(path + ": x-mcp-header " + strconv.Quote(val) + ": " + err.Error())
			}
			if !static {
				return errors.New(path + ": x-mcp-header " + strconv.Quote(val) + ": only members reached through object properties from the root may be headers, not array elements or map values")
			}
			switch base.kind {
			case argString, argBool, argTime, argText, argBytes:
			case argInt:
				base.bounded = true
				base.min, base.max = max(base.min, -maxSafeInteger), min(base.max, maxSafeInteger)
			case argUint:
				base.umax = min(base.umax, maxSafeInteger)
			case argFloat:
				return errors.New(path + ": x-mcp-header " + strconv.Quote(val) + ": a number cannot be a header (only strings, integers and booleans)")
			default:
				return errors.New(path + ": x-mcp-header " + strconv.Quote(val) + ": " + f.node.typ.String() + " cannot be a header (only strings, integers and booleans)")
			}
			low := strings.ToLower(val)
			if prev, dup := b.headers[low]; dup {
				return errors.New(path + ": x-mcp-header " + strconv.Quote(val) + " is already the header of " + prev + " (header names are case-insensitive)")
			}
			b.headers[low] = path
			f.header = val
		default:
			if err := base.keyword(key, val, path); err != nil {
				return err
			}
		}
	}
	if titleKey != "" {
		switch {
		case strs.enum == nil:
			return errors.New(path + ": mcp tag " + titleKey + "= names the values of enum=, which the tag does not have")
		case len(titles) != len(strs.enum):
			return errors.New(path + ": mcp tag " + titleKey + "= lists " + strconv.Itoa(len(titles)) + " titles for the " + strconv.Itoa(len(strs.enum)) + " values of enum=")
		case titleKey == "enumNames" && strs != base:
			return errors.New(path + ": mcp tag enumNames= applies to a single string (the legacy form); name the values of a multiple choice with titles=")
		}
		strs.titles, strs.titledAs = titles, titleKey
		if titleKey == "titles" {
			// As the titled enums of form elicitation write them
			// (SEP-1330): oneOf for a single choice, anyOf for the items
			// of a multiple one.
			strs.titledAs = "oneOf"
			if strs != base {
				strs.titledAs = "anyOf"
			}
		}
	}
	if base.kw != nil && base.kw.def != nil {
		// The default must be a value the member takes.
		var d codec.Decoder
		d.Init(base.kw.def)
		base.decode(&d, reflect.New(base.typ).Elem())
		if err := d.Finish(); err != nil {
			why := err.Error()
			var ve *codec.ValidationError
			if errors.As(err, &ve) && len(ve.Violations) > 0 {
				v := ve.Violations[0]
				why = v.Message + " (" + v.Keyword + ")"
				if v.Pointer != "" {
					why = v.Pointer + ": " + why
				}
			}
			return errors.New(path + ": mcp tag default=" + string(base.kw.def) + " is not a value of the member: " + why)
		}
	}
	return nil
}

// checkHeaderName checks an x-mcp-header value: an HTTP field-name token
// (RFC 9110, 1*tchar).
func checkHeaderName(s string) error {
	if s == "" {
		return errors.New("empty header name")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return errors.New("not an HTTP token: " + strconv.Quote(string(c)) + " is not allowed")
		}
	}
	return nil
}

// writeSchema writes the JSON Schema of n; f, when set, adds the member's
// annotations (description, x-mcp-header).
func (n *argNode) writeSchema(e *codec.Encoder, f *argField) {
	e.Buf = append(e.Buf, '{')
	switch n.kind {
	case argPtr:
		// A pointer is its target (optional, not nullable).
		e.Buf = e.Buf[:len(e.Buf)-1]
		n.elem.writeSchema(e, f)
		return
	case argBool:
		e.Name(`"type":`)
		e.Str("boolean")
	case argString:
		if n.titledAs != "anyOf" {
			// The items of a titled multiple choice are the anyOf alone,
			// as elicitation's TitledMultiSelectEnumSchema has them.
			e.Name(`"type":`)
			e.Str("string")
		}
		switch {
		case n.titledAs == "oneOf" || n.titledAs == "anyOf":
			e.Name(`"` + n.titledAs + `":`)
			e.Buf = append(e.Buf, '[')
			for i, v := range n.enum {
				e.Comma()
				e.Buf = append(e.Buf, '{')
				e.Name(`"const":`)
				e.Str(v)
				e.Name(`"title":`)
				e.Str(n.titles[i])
				e.Buf = append(e.Buf, '}')
			}
			e.Buf = append(e.Buf, ']')
		case n.enum != nil:
			e.Name(`"enum":`)
			e.Buf = append(e.Buf, '[')
			for _, v := range n.enum {
				e.Comma()
				e.Str(v)
			}
			e.Buf = append(e.Buf, ']')
			if n.titledAs == "enumNames" {
				e.Name(`"enumNames":`)
				e.Buf = append(e.Buf, '[')
				for _, v := range n.titles {
					e.Comma()
					e.Str(v)
				}
				e.Buf = append(e.Buf, ']')
			}
		}
	case argInt:
		e.Name(`"type":`)
		e.Str("integer")
		if n.bounded {
			if n.kw == nil || n.kw.minimum == "" {
				e.Name(`"minimum":`)
				e.Int(n.min)
			}
			if n.kw == nil || n.kw.maximum == "" {
				e.Name(`"maximum":`)
				e.Int(n.max)
			}
		}
	case argUint:
		e.Name(`"type":`)
		e.Str("integer")
		if n.kw == nil || n.kw.minimum == "" {
			e.Name(`"minimum":0`)
		}
		if n.umax != math.MaxUint64 && (n.kw == nil || n.kw.maximum == "") {
			e.Name(`"maximum":`)
			e.Buf = strconv.AppendUint(e.Buf, n.umax, 10)
		}
	case argFloat:
		e.Name(`"type":`)
		e.Str("number")
	case argBytes:
		e.Name(`"type":`)
		e.Str("string")
		e.Name(`"contentEncoding":`)
		e.Str("base64")
	case argTime:
		e.Name(`"type":`)
		e.Str("string")
		e.Name(`"format":`)
		e.Str("date-time")
	case argText:
		e.Name(`"type":`)
		e.Str("string")
	case argCustom:
		// The type's own schema, with the member's annotations merged in.
		e.Buf = append(e.Buf, n.customText[1:len(n.customText)-1]...)
	case argRaw, argAny:
		// Any JSON value.
	case argSlice, argArray:
		e.Name(`"type":`)
		e.Str("array")
		e.Name(`"items":`)
		n.elem.writeSchema(e, nil)
		if n.kind == argArray {
			e.Name(`"minItems":`)
			e.Int(int64(n.typ.Len()))
			e.Name(`"maxItems":`)
			e.Int(int64(n.typ.Len()))
		}
	case argMap:
		e.Name(`"type":`)
		e.Str("object")
		e.Name(`"additionalProperties":`)
		n.elem.writeSchema(e, nil)
	case argStruct:
		e.Name(`"type":`)
		e.Str("object")
		if len(n.fields) > 0 {
			e.Name(`"properties":`)
			e.Buf = append(e.Buf, '{')
			for i := range n.fields {
				fl := &n.fields[i]
				e.Name(fl.quoted)
				fl.node.writeSchema(e, fl)
			}
			e.Buf = append(e.Buf, '}')
			req := false
			for i := range n.fields {
				if !n.fields[i].required {
					continue
				}
				if !req {
					e.Name(`"required":`)
					e.Buf = append(e.Buf, '[')
					req = true
				}
				e.Comma()
				e.Str(n.fields[i].name)
			}
			if req {
				e.Buf = append(e.Buf, ']')
			}
		}
		e.Name(`"additionalProperties":false`)
	}
	if n.kw != nil {
		n.kw.writeSchema(e)
	}
	if f != nil && f.desc != "" {
		e.Name(`"description":`)
		e.Str(f.desc)
	}
	if f != nil && f.header != "" {
		e.Name(`"x-mcp-header":`)
		e.Str(f.header)
	}
	e.Buf = append(e.Buf, '}')
}

// emptyArguments stands for absent arguments: no members.
var emptyArguments = []byte("{}")

// Decode decodes data (tool arguments; empty means {}) into v, a pointer
// to a value of the codec's type, checking the schema as it goes. It
// returns a *codec.ValidationError listing every violation, with JSON
// pointers, or a *codec.SyntaxError.
func (c *Codec) Decode(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Type().Elem() != c.typ {
		return errors.New("typeschema: decoding into " + rv.Type().String() + ", want *" + c.typ.String())
	}
	var d codec.Decoder
	if len(data) == 0 {
		d.InitShared(emptyArguments)
	} else {
		d.Init(data)
	}
	c.root.decode(&d, rv.Elem())
	return d.Finish()
}

// decode reads the next value into v (settable, of n's type), then checks
// the keywords of its mcp tag.
func (n *argNode) decode(d *codec.Decoder, v reflect.Value) {
	if n.kw == nil {
		n.decodeValue(d, v)
		return
	}
	d.Peek()
	off := d.Pos
	before := len(d.Errs)
	n.decodeValue(d, v)
	if len(d.Errs) == before && !d.Failed() {
		n.kw.check(d, off, v)
	}
}

// decodeValue reads the next value into v by n's type.
func (n *argNode) decodeValue(d *codec.Decoder, v reflect.Value) {
	switch n.kind {
	case argBool:
		v.SetBool(d.Bool())
	case argString:
		d.Peek()
		off := d.Pos
		before := d.ErrCount()
		s := d.Str()
		if d.ErrCount() == before && !d.Failed() && n.enum != nil && !slices.Contains(n.enum, s) {
			d.Violate(off, "enum", codec.Quote(s)+" is not one of "+codec.QuoteList(n.enum))
		}
		v.SetString(s)
	case argInt:
		d.Peek()
		off := d.Pos
		before := d.ErrCount()
		x := d.Int()
		if d.ErrCount() == before && !d.Failed() && n.bounded {
			switch {
			case x < n.min:
				d.Violate(off, "minimum", "must be >= "+strconv.FormatInt(n.min, 10)+", got "+strconv.FormatInt(x, 10))
			case x > n.max:
				d.Violate(off, "maximum", "must be <= "+strconv.FormatInt(n.max, 10)+", got "+strconv.FormatInt(x, 10))
			}
		}
		if x >= n.min && x <= n.max {
			v.SetInt(x)
		}
	case argUint:
		v.SetUint(n.decodeUint(d))
	case argFloat:
		d.Peek()
		off := d.Pos
		before := d.ErrCount()
		f := d.Float()
		if d.ErrCount() == before && !d.Failed() && n.bits == 32 && math.Abs(f) > math.MaxFloat32 {
			d.Violate(off, "type", "number "+strconv.FormatFloat(f, 'g', -1, 64)+" is out of the range of float32")
		}
		v.SetFloat(f)
	case argBytes, argTime, argText:
		if d.Peek() != '"' {
			d.Mismatch("string")
			return
		}
		off := d.Pos
		s, ok := d.ReadStr()
		if !ok {
			return
		}
		n.decodeString(d, off, s, v)
	case argRaw:
		b := d.Raw()
		if !d.Failed() {
			v.SetBytes(b)
		}
	case argAny:
		b := d.Raw()
		if d.Failed() {
			return
		}
		var x any
		if err := json.Unmarshal(b, &x); err != nil {
			d.Fail(err.Error())
			return
		}
		if x != nil {
			v.Set(reflect.ValueOf(x))
		}
	case argCustom:
		d.Peek()
		off := d.Pos
		b := d.Raw()
		if d.Failed() {
			return
		}
		if err := n.custom.Validate("", b); err != nil {
			var ve *codec.ValidationError
			if errors.As(err, &ve) {
				for _, x := range ve.Violations {
					msg := x.Message
					if x.Pointer != "" {
						msg = x.Pointer + ": " + msg
					}
					d.Violate(off, "$ref", n.typ.String()+": "+msg)
				}
				return
			}
			d.Fail(err.Error())
			return
		}
		if err := json.Unmarshal(b, v.Addr().Interface()); err != nil {
			d.Violate(off, "type", "not a valid "+n.typ.String()+": "+err.Error())
		}
	case argPtr:
		p := reflect.New(n.typ.Elem())
		n.elem.decode(d, p.Elem())
		v.Set(p)
	case argSlice:
		if !d.Array() {
			return
		}
		s := reflect.MakeSlice(n.typ, 0, 0)
		zero := reflect.Zero(n.typ.Elem())
		first := true
		for i := 0; d.NextElem(&first); i++ {
			s = reflect.Append(s, zero)
			n.elem.decode(d, s.Index(i))
			if d.Failed() {
				return
			}
		}
		v.Set(s)
	case argArray:
		d.Peek()
		off := d.Pos
		if !d.Array() {
			return
		}
		first := true
		i := 0
		for ; d.NextElem(&first); i++ {
			if i < v.Len() {
				n.elem.decode(d, v.Index(i))
			} else {
				d.Skip()
			}
			if d.Failed() {
				return
			}
		}
		if i != v.Len() {
			kw, rel := "minItems", "at least"
			if i > v.Len() {
				kw, rel = "maxItems", "at most"
			}
			d.Violate(off, kw, "must have "+rel+" "+strconv.Itoa(v.Len())+" items, got "+strconv.Itoa(i))
		}
	case argMap:
		if !d.Object() {
			return
		}
		m := reflect.MakeMap(n.typ)
		kt := n.typ.Key()
		first := true
		for d.NextMember(&first) {
			k := reflect.ValueOf(d.Key)
			if kt != stringType {
				k = k.Convert(kt)
			}
			if m.MapIndex(k).IsValid() {
				d.Dup(d.Key)
				return
			}
			ev := reflect.New(n.elem.typ).Elem()
			n.elem.decode(d, ev)
			if d.Failed() {
				return
			}
			m.SetMapIndex(k, ev)
		}
		v.Set(m)
	case argStruct:
		n.decodeStruct(d, v)
	}
}

// decodeStruct reads an object into the struct v: declared members into
// their fields, and a violation for each undeclared or missing one.
func (n *argNode) decodeStruct(d *codec.Decoder, v reflect.Value) {
	d.Peek()
	off := d.Pos
	if !d.Object() {
		return
	}
	var small uint64
	var seen []bool
	if len(n.fields) > 64 {
		seen = make([]bool, len(n.fields))
	}
	first := true
	for d.NextMember(&first) {
		i, ok := n.byName[d.Key]
		if !ok {
			d.NotAllowed()
			if d.Failed() {
				return
			}
			continue
		}
		if seen != nil {
			if seen[i] {
				d.Dup(d.Key)
				return
			}
			seen[i] = true
		} else if !d.Once(&small, 1<<i) {
			return
		}
		f := &n.fields[i]
		fv := v.Field(f.index[0])
		for _, j := range f.index[1:] {
			fv = fv.Field(j)
		}
		f.node.decode(d, fv)
		if d.Failed() {
			return
		}
	}
	if d.Failed() {
		return
	}
	for i := range n.fields {
		f := &n.fields[i]
		if !f.required {
			continue
		}
		if (seen != nil && !seen[i]) || (seen == nil && small&(1<<i) == 0) {
			d.Violate(off, "required", "missing required member "+strconv.Quote(f.name))
		}
	}
}

// decodeUint reads an unsigned integer (any number with an integral value,
// "2.0" and "1e2" too) within n's range.
func (n *argNode) decodeUint(d *codec.Decoder) uint64 {
	if !codec.IsNumberStart(d.Peek()) {
		d.Mismatch("integer")
		return 0
	}
	off := d.Pos
	text, ok := d.Number()
	if !ok {
		return 0
	}
	x, isInt, inRange := codec.ParseInt(text)
	var u uint64
	switch {
	case !isInt:
		d.Violate(off, "type", "expected integer, got "+codec.QuoteNum(text))
		return 0
	case inRange && x < 0:
		d.Violate(off, "minimum", "must be >= 0, got "+strconv.FormatInt(x, 10))
		return 0
	case inRange:
		u = uint64(x)
	default:
		// Beyond int64: the plain digits of a large uint64, or too large.
		p, err := strconv.ParseUint(string(text), 10, 64)
		if err != nil {
			if text[0] == '-' {
				d.Violate(off, "minimum", "must be >= 0, got "+codec.QuoteNum(text))
			} else {
				d.Violate(off, "type", "integer "+codec.QuoteNum(text)+" is out of the range of uint64")
			}
			return 0
		}
		u = p
	}
	if u > n.umax {
		d.Violate(off, "maximum", "must be <= "+strconv.FormatUint(n.umax, 10)+", got "+strconv.FormatUint(u, 10))
		return 0
	}
	return u
}

// decodeString finishes a value whose JSON form is a string s (read at
// off): base64 bytes, a date-time, or text for an encoding.TextUnmarshaler.
func (n *argNode) decodeString(d *codec.Decoder, off int, s string, v reflect.Value) {
	switch n.kind {
	case argBytes:
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			d.Violate(off, "contentEncoding", codec.Quote(s)+" is not base64")
			return
		}
		v.SetBytes(b)
	case argTime:
		var t time.Time
		if err := t.UnmarshalText([]byte(s)); err != nil {
			d.Violate(off, "format", codec.Quote(s)+" is not a date-time (RFC 3339)")
			return
		}
		v.Set(reflect.ValueOf(t))
	case argText:
		u := v.Addr().Interface().(encoding.TextUnmarshaler)
		if err := u.UnmarshalText([]byte(s)); err != nil {
			d.Violate(off, "format", codec.Quote(s)+" is not a valid "+n.typeName+": "+codec.Clip(err.Error(), 2*codec.MaxQuoted))
		}
	}
}

// Encode writes v (a value of the codec's type) as JSON by the schema: a
// nil pointer is left out (or, at the root, is the zero value), a nil
// slice is [] and a nil map {}, omitempty and omitzero leave members out as
// encoding/json does, and map keys are sorted. A string outside its enum,
// or a value without a JSON form (NaN), is an error.
func (c *Codec) Encode(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Type() != c.typ {
		return nil, errors.New("typeschema: encoding a value of type " + reflectTypeName(rv) + ", want " + c.typ.String())
	}
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			rv = reflect.New(c.typ.Elem())
		}
		rv = rv.Elem()
	}
	e := codec.Encoder{}
	c.root.encode(&e, rv)
	return e.Result(nil)
}

func reflectTypeName(v reflect.Value) string {
	if !v.IsValid() {
		return "nil"
	}
	return v.Type().String()
}

func (n *argNode) encode(e *codec.Encoder, v reflect.Value) {
	switch n.kind {
	case argBool:
		e.Bool(v.Bool())
	case argString:
		s := v.String()
		if n.enum != nil && !slices.Contains(n.enum, s) {
			e.Fail(codec.Quote(s) + " is not one of " + codec.QuoteList(n.enum))
		}
		e.Str(s)
	case argInt:
		e.Int(v.Int())
	case argUint:
		e.Buf = strconv.AppendUint(e.Buf, v.Uint(), 10)
	case argFloat:
		f := v.Float()
		if n.bits == 32 && !math.IsNaN(f) && !math.IsInf(f, 0) {
			// The shortest text that reads back as the same float32.
			f, _ = strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 32), 64)
		}
		e.Float(f)
	case argBytes:
		e.Str(base64.StdEncoding.EncodeToString(v.Bytes()))
	case argTime, argText:
		if !n.marshalTxt {
			e.Fail(n.typ.String() + " has no MarshalText")
			e.Null()
			return
		}
		if !v.CanAddr() {
			p := reflect.New(v.Type())
			p.Elem().Set(v)
			v = p.Elem()
		}
		var m encoding.TextMarshaler
		if v.Type().Implements(textMarshalerType) {
			m = v.Interface().(encoding.TextMarshaler)
		} else {
			m = v.Addr().Interface().(encoding.TextMarshaler)
		}
		b, err := m.MarshalText()
		if err != nil {
			e.Fail(err.Error())
		}
		e.Str(string(b))
	case argRaw:
		if v.IsNil() {
			e.Null()
			return
		}
		e.Raw(v.Bytes())
	case argCustom:
		b, err := json.Marshal(v.Interface())
		if err != nil {
			e.Fail(err.Error())
			e.Null()
			return
		}
		e.Raw(b)
	case argAny:
		if v.IsNil() {
			e.Null()
			return
		}
		b, err := json.Marshal(v.Interface())
		if err != nil {
			e.Fail(err.Error())
			e.Null()
			return
		}
		e.Raw(b)
	case argPtr:
		if v.IsNil() {
			// A member leaves a nil pointer out; an element cannot.
			e.Fail("a nil " + n.typ.String() + " in an array or map has no value the schema allows")
			e.Null()
			return
		}
		n.elem.encode(e, v.Elem())
	case argSlice, argArray:
		e.Buf = append(e.Buf, '[')
		for i := range v.Len() {
			e.Comma()
			n.elem.encode(e, v.Index(i))
		}
		e.Buf = append(e.Buf, ']')
	case argMap:
		e.Buf = append(e.Buf, '{')
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			e.Key(k.String())
			n.elem.encode(e, v.MapIndex(k))
		}
		e.Buf = append(e.Buf, '}')
	case argStruct:
		e.Buf = append(e.Buf, '{')
		for i := range n.fields {
			f := &n.fields[i]
			fv := v.Field(f.index[0])
			for _, j := range f.index[1:] {
				fv = fv.Field(j)
			}
			if omitted(f, fv) {
				continue
			}
			e.Name(f.quoted)
			f.node.encode(e, fv)
		}
		e.Buf = append(e.Buf, '}')
	}
}

// omitted reports whether the member f with value v is left out: a nil
// pointer, an empty value under omitempty (false, 0, "", a nil or empty
// slice, map or interface), a zero one under omitzero (IsZero, where the
// type has it).
func omitted(f *argField, v reflect.Value) bool {
	switch f.omit {
	case 'e':
		switch v.Kind() {
		case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
			return v.Len() == 0
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
			return v.IsZero()
		}
	case 'z':
		if z, ok := v.Interface().(interface{ IsZero() bool }); ok && (v.Kind() != reflect.Pointer || !v.IsNil()) {
			return z.IsZero()
		}
		return v.IsZero()
	}
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// customNode is the plan of a type with MCPSchema: its schema must be a
// JSON object the run-time validator reads.
func (b *argsBuilder) customNode(t reflect.Type, path string) (*argNode, error) {
	var sch []byte
	if t.Implements(schemaerType) {
		sch = reflect.Zero(t).Interface().(Schemaer).MCPSchema()
	} else {
		sch = reflect.New(t).Interface().(Schemaer).MCPSchema()
	}
	sch = bytes.TrimSpace(sch)
	if len(sch) < 2 || sch[0] != '{' || !json.Valid(sch) {
		return nil, errors.New(path + ": " + t.String() + ".MCPSchema is not a JSON object")
	}
	// Compact, so that the schema can be spliced into the member's.
	var buf bytes.Buffer
	if err := json.Compact(&buf, sch); err != nil {
		return nil, errors.New(path + ": " + t.String() + ".MCPSchema: " + err.Error())
	}
	c, err := codec.CompileSchema(buf.Bytes())
	if err != nil {
		return nil, errors.New(path + ": " + t.String() + ".MCPSchema: " + err.Error())
	}
	return &argNode{kind: argCustom, typ: t, custom: c, customText: buf.Bytes()}, nil
}
