package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// A Schema validates JSON documents against a JSON Schema by reading the
// schema at run time, where generated code validates with code written for
// each definition. It serves what must check the messages of a schema that
// has no generated package in the program (the older revisions a package
// converts to): the result is the same as that package's UnmarshalJSON
// followed by Validate, violations and all.
//
// It reads the validation keywords the MCP schemas use: type, properties,
// required, additionalProperties, items (a schema), anyOf, oneOf, allOf,
// not, if/then/else, enum, const, format (the formats the generated validators assert),
// minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf,
// minLength, maxLength, pattern, minItems, maxItems, minProperties,
// maxProperties, and $ref to a JSON pointer of the same document; boolean
// schemas; and it ignores annotations (description, title, default, ...).
// CompileSchema refuses a schema that uses another validation keyword.
//
// As the generated decoders do, it refuses numbers beyond the range of
// int64 where the schema says integer and beyond float64 where it says
// number, and JSON with duplicate member names, invalid UTF-8 or nesting
// deeper than 10000. A Schema is safe for concurrent use.
type Schema struct {
	nodes map[string]*schemaNode // by JSON pointer
	doc   any
}

// schemaNode is one compiled subschema.
type schemaNode struct {
	pointer string
	// name is the definition the node is (the last segment of
	// #/$defs/Name), for messages; "" inside one.
	name  string
	never bool // the false schema
	ref   string
	refTo *schemaNode
	// types is the allowed kinds (0: any); integer is allowed by number.
	types    uint16
	typeText string
	props    map[string]*schemaNode
	required []string
	// additional is the schema of undeclared members (nil: any);
	// noAdditional refuses them.
	additional   *schemaNode
	noAdditional bool
	items        *schemaNode
	anyOf, oneOf []*schemaNode
	allOf        []*schemaNode
	not          *schemaNode
	// cond, then and els are if, then and else (then and else count
	// only with an if).
	cond, then, els                    *schemaNode
	enum                               [][]byte
	enumText                           string
	cnst                               []byte
	format                             func(string) bool
	formatName                         string
	minimum, maximum                   *string
	exclusiveMinimum, exclusiveMaximum *string
	multipleOf                         *string
	minLength, maxLength               int
	minItems, maxItems                 int
	minProps, maxProps                 int
	pattern                            *regexp.Regexp
	patternText                        string
	// tag is the member whose constant string tells anyOf's branches
	// apart ("type"), with the branch of each value; "" when they have
	// none in common.
	tag      string
	byTag    map[string]*schemaNode
	tagsText string
}

const noLimit = -1

// The kinds of "type", as bits.
const (
	typeNull = 1 << iota
	typeBoolean
	typeInteger
	typeNumber
	typeString
	typeArray
	typeObject
)

var typeBits = map[string]uint16{"null": typeNull, "boolean": typeBoolean, "integer": typeInteger,
	"number": typeNumber, "string": typeString, "array": typeArray, "object": typeObject}

// annotations are the keywords a Schema ignores.
var annotations = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "title": true, "description": true,
	"default": true, "examples": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"definitions": true, "$defs": true, "contentMediaType": true, "contentEncoding": true,
}

// SchemaKeywords lists the validation keywords a Schema reads.
var SchemaKeywords = []string{"$ref", "type", "properties", "required", "additionalProperties", "items",
	"anyOf", "oneOf", "allOf", "not", "if", "then", "else", "enum", "const", "format", "minimum", "maximum", "exclusiveMinimum",
	"exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems",
	"minProperties", "maxProperties"}

// CompileSchema reads a JSON Schema document. It fails on malformed JSON,
// a validation keyword the Schema does not read, and a $ref that does not
// resolve, naming the keyword's JSON pointer.
func CompileSchema(doc []byte) (*Schema, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("schema: %v", err)
	}
	s := &Schema{nodes: map[string]*schemaNode{}, doc: v}
	if _, err := s.compile(""); err != nil {
		return nil, err
	}
	// Every definition, whether or not the root refers to it.
	if top, ok := v.(map[string]any); ok {
		for _, defs := range []string{"$defs", "definitions"} {
			m, ok := top[defs].(map[string]any)
			if !ok {
				continue
			}
			for name := range m {
				if _, err := s.compile("/" + defs + "/" + EscapePointer(name)); err != nil {
					return nil, err
				}
			}
		}
	}
	// Compile every node a $ref reaches, and resolve the references.
	for {
		var pending []*schemaNode
		for _, n := range s.nodes {
			if n.ref != "" && n.refTo == nil {
				pending = append(pending, n)
			}
		}
		if len(pending) == 0 {
			break
		}
		for _, n := range pending {
			to, err := s.compile(n.ref)
			if err != nil {
				return nil, fmt.Errorf("%s/$ref: %w", n.pointer, err)
			}
			n.refTo = to
		}
	}
	for _, n := range s.nodes {
		n.findTag()
	}
	return s, nil
}

// lookup returns the value at a JSON pointer of the document.
func (s *Schema) lookup(pointer string) (any, error) {
	v := s.doc
	if pointer == "" {
		return v, nil
	}
	for _, seg := range strings.Split(pointer[1:], "/") {
		seg = strings.NewReplacer("~1", "/", "~0", "~").Replace(seg)
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[seg]; !ok {
				return nil, fmt.Errorf("%s does not exist", pointer)
			}
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("%s does not exist", pointer)
			}
			v = x[i]
		default:
			return nil, fmt.Errorf("%s does not exist", pointer)
		}
	}
	return v, nil
}

func (s *Schema) compile(pointer string) (*schemaNode, error) {
	if n, ok := s.nodes[pointer]; ok {
		return n, nil
	}
	v, err := s.lookup(pointer)
	if err != nil {
		return nil, err
	}
	n := &schemaNode{pointer: pointer, minLength: noLimit, maxLength: noLimit, minItems: noLimit, maxItems: noLimit, minProps: noLimit, maxProps: noLimit}
	if i := strings.LastIndexByte(pointer, '/'); i >= 0 {
		if parent := pointer[:i]; parent == "/$defs" || parent == "/definitions" {
			n.name = pointer[i+1:]
		}
	}
	s.nodes[pointer] = n
	switch x := v.(type) {
	case bool:
		n.never = !x
		return n, nil
	case map[string]any:
		return n, s.fill(n, x)
	}
	return nil, fmt.Errorf("%s: a schema must be an object or a boolean", pointerText(pointer))
}

func pointerText(p string) string {
	if p == "" {
		return "the root"
	}
	return p
}

// fill compiles the keywords of the object schema x into n.
func (s *Schema) fill(n *schemaNode, x map[string]any) error {
	at := func(k string) string { return n.pointer + "/" + EscapePointer(k) }
	sub := func(k string) (*schemaNode, error) { return s.compile(at(k)) }
	subs := func(k string) ([]*schemaNode, error) {
		list, ok := x[k].([]any)
		if !ok || len(list) == 0 {
			return nil, fmt.Errorf("%s: must be a non-empty array of schemas", at(k))
		}
		out := make([]*schemaNode, len(list))
		for i := range list {
			c, err := s.compile(at(k) + "/" + strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	number := func(k string) (*string, error) {
		num, ok := x[k].(json.Number)
		if !ok {
			return nil, fmt.Errorf("%s: must be a number", at(k))
		}
		t := num.String()
		return &t, nil
	}
	count := func(k string) (int, error) {
		num, ok := x[k].(json.Number)
		c, err := strconv.Atoi(string(num))
		if !ok || err != nil || c < 0 {
			return 0, fmt.Errorf("%s: must be a non-negative integer", at(k))
		}
		return c, nil
	}
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var err error
	for _, k := range keys {
		val := x[k]
		switch k {
		case "$ref":
			ref, ok := val.(string)
			if !ok || !strings.HasPrefix(ref, "#") {
				return fmt.Errorf("%s: only references within the document (#/...) are read", at(k))
			}
			n.ref = ref[1:]
		case "type":
			var names []string
			switch t := val.(type) {
			case string:
				names = []string{t}
			case []any:
				for _, e := range t {
					name, _ := e.(string)
					names = append(names, name)
				}
			}
			for _, name := range names {
				bit, ok := typeBits[name]
				if !ok {
					return fmt.Errorf("%s: unknown type %q", at(k), name)
				}
				n.types |= bit
			}
			n.typeText = strings.Join(names, " or ")
		case "properties":
			props, ok := val.(map[string]any)
			if !ok {
				return fmt.Errorf("%s: must be an object", at(k))
			}
			n.props = map[string]*schemaNode{}
			for name := range props {
				if n.props[name], err = s.compile(at(k) + "/" + EscapePointer(name)); err != nil {
					return err
				}
			}
		case "required":
			list, ok := val.([]any)
			if !ok {
				return fmt.Errorf("%s: must be an array of strings", at(k))
			}
			for _, e := range list {
				name, ok := e.(string)
				if !ok {
					return fmt.Errorf("%s: must be an array of strings", at(k))
				}
				n.required = append(n.required, name)
			}
		case "additionalProperties":
			if b, ok := val.(bool); ok {
				n.noAdditional = !b
				continue
			}
			if n.additional, err = sub(k); err != nil {
				return err
			}
		case "items":
			if _, ok := val.([]any); ok {
				return fmt.Errorf("%s: an array of schemas (a tuple) is not read", at(k))
			}
			if n.items, err = sub(k); err != nil {
				return err
			}
		case "anyOf":
			if n.anyOf, err = subs(k); err != nil {
				return err
			}
		case "oneOf":
			if n.oneOf, err = subs(k); err != nil {
				return err
			}
		case "allOf":
			if n.allOf, err = subs(k); err != nil {
				return err
			}
		case "not":
			if n.not, err = sub(k); err != nil {
				return err
			}
		case "if":
			if n.cond, err = sub(k); err != nil {
				return err
			}
		case "then":
			if n.then, err = sub(k); err != nil {
				return err
			}
		case "else":
			if n.els, err = sub(k); err != nil {
				return err
			}
		case "enum":
			list, ok := val.([]any)
			if !ok {
				return fmt.Errorf("%s: must be an array", at(k))
			}
			var texts []string
			for _, e := range list {
				b, err := json.Marshal(e)
				if err != nil {
					return fmt.Errorf("%s: %v", at(k), err)
				}
				n.enum = append(n.enum, b)
				texts = append(texts, string(b))
			}
			n.enumText = strings.Join(texts, ", ")
		case "const":
			if n.cnst, err = json.Marshal(val); err != nil {
				return fmt.Errorf("%s: %v", at(k), err)
			}
		case "format":
			name, _ := val.(string)
			n.formatName, n.format = name, FormatChecker(name)
		case "minimum":
			n.minimum, err = number(k)
		case "maximum":
			n.maximum, err = number(k)
		case "exclusiveMinimum":
			n.exclusiveMinimum, err = number(k)
		case "exclusiveMaximum":
			n.exclusiveMaximum, err = number(k)
		case "multipleOf":
			n.multipleOf, err = number(k)
		case "minLength":
			n.minLength, err = count(k)
		case "maxLength":
			n.maxLength, err = count(k)
		case "minItems":
			n.minItems, err = count(k)
		case "maxItems":
			n.maxItems, err = count(k)
		case "minProperties":
			n.minProps, err = count(k)
		case "maxProperties":
			n.maxProps, err = count(k)
		case "pattern":
			text, _ := val.(string)
			re, rerr := regexp.Compile(text)
			if rerr != nil {
				return fmt.Errorf("%s: %v", at(k), rerr)
			}
			n.pattern, n.patternText = re, text
		default:
			if !annotations[k] && ValidationKeyword(k) {
				return fmt.Errorf("%s: the keyword %q is not read by this validator", at(k), k)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// ValidationKeyword reports whether k is a validation keyword of a JSON
// Schema draft (not an annotation, and not a keyword of the schema's
// structure such as $defs).
func ValidationKeyword(k string) bool {
	switch k {
	case "$ref", "$dynamicRef", "$recursiveRef", "type", "properties", "required", "additionalProperties",
		"patternProperties", "propertyNames", "items", "prefixItems", "additionalItems", "contains",
		"minContains", "maxContains", "anyOf", "oneOf", "allOf", "not", "if", "then", "else", "enum", "const",
		"format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
		"maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
		"dependencies", "dependentRequired", "dependentSchemas", "unevaluatedItems", "unevaluatedProperties":
		return true
	}
	return false
}

// findTag looks for the member that tells the branches of anyOf (or
// oneOf) apart: one every branch requires, with a constant string value
// of its own.
func (n *schemaNode) findTag() {
	branches := n.anyOf
	if branches == nil {
		branches = n.oneOf
	}
	if len(branches) < 2 {
		return
	}
	first := branches[0].resolve()
	for name := range first.props {
		if !slices.Contains(first.required, name) {
			continue
		}
		byTag := map[string]*schemaNode{}
		var tags []string
		for _, b := range branches {
			b = b.resolve()
			bp := b.props[name]
			if bp == nil || !slices.Contains(b.required, name) {
				byTag = nil
				break
			}
			var vals []string
			r := bp.resolve()
			if r.cnst != nil {
				var v string
				if json.Unmarshal(r.cnst, &v) != nil {
					byTag = nil
					break
				}
				vals = []string{v}
			} else {
				for _, e := range r.enum {
					var v string
					if json.Unmarshal(e, &v) != nil {
						vals = nil
						break
					}
					vals = append(vals, v)
				}
			}
			if len(vals) == 0 {
				byTag = nil
				break
			}
			for _, v := range vals {
				if _, dup := byTag[v]; dup {
					byTag = nil
					break
				}
				byTag[v] = b
				tags = append(tags, strconv.Quote(v))
			}
			if byTag == nil {
				break
			}
		}
		if byTag != nil && (n.tag == "" || name < n.tag) {
			n.tag, n.byTag, n.tagsText = name, byTag, strings.Join(tags, ", ")
		}
	}
}

// resolve follows $ref (a node with only a $ref is its target).
func (n *schemaNode) resolve() *schemaNode {
	for i := 0; n.refTo != nil && n.onlyRef() && i < 64; i++ {
		n = n.refTo
	}
	return n
}

func (n *schemaNode) onlyRef() bool {
	return n.types == 0 && n.props == nil && n.required == nil && n.additional == nil && !n.noAdditional &&
		n.items == nil && n.anyOf == nil && n.oneOf == nil && n.allOf == nil && n.not == nil && n.cond == nil && n.enum == nil &&
		n.cnst == nil && n.format == nil && !n.never
}

// forLabel is " for Name" when the node is a definition, for a message.
func (n *schemaNode) forLabel() string {
	if r := n.resolve(); r.name != "" {
		return " for " + r.name
	} else if n.name != "" {
		return " for " + n.name
	}
	return ""
}

// label names the node for a message.
func (n *schemaNode) label() string {
	if r := n.resolve(); r.name != "" {
		return r.name
	}
	if n.name != "" {
		return n.name
	}
	return "the schema at " + pointerText(n.pointer)
}

// Has reports whether the document has a schema at pointer (a JSON
// pointer such as /$defs/CallToolRequest/properties/params) that Validate
// checks against: the root, a definition, or a schema inside one.
func (s *Schema) Has(pointer string) bool {
	_, ok := s.nodes[pointer]
	return ok
}

// Validate checks data, one JSON document, against the schema at pointer:
// nil, a *SyntaxError for malformed JSON, or a *ValidationError with every
// violation, each with its JSON pointer within data.
func (s *Schema) Validate(pointer string, data []byte) error {
	n, ok := s.nodes[pointer]
	if !ok {
		return fmt.Errorf("codec: the schema has no subschema at %s", pointerText(pointer))
	}
	d := Decoder{Data: data}
	d.Skip()
	if err := d.Finish(); err != nil {
		return err
	}
	vs := NewValidator()
	check(n, bytes.TrimSpace(data), vs, 0)
	return vs.Done()
}

// maxSchemaDepth bounds the nesting of references a value is checked
// through (a schema that refers to itself without consuming the value).
const maxSchemaDepth = 10000

// check validates raw (a well-formed JSON value) against n into vs.
func check(n *schemaNode, raw []byte, vs *Validator, depth int) {
	if depth > maxSchemaDepth {
		vs.Add("$ref", "the schema refers to itself without end")
		return
	}
	if n.never {
		vs.Add("false", "no value is valid here")
		return
	}
	if n.refTo != nil {
		check(n.refTo, raw, vs, depth+1)
	}
	c := raw[0]
	if n.types != 0 && !n.typeOK(c, raw, vs) {
		return
	}
	if n.cnst != nil && !JSONEqual(raw, n.cnst) {
		if vs.Loud() {
			vs.Add("const", quoteJSON(raw)+" is not "+string(n.cnst))
		}
	}
	if n.enum != nil && !slices.ContainsFunc(n.enum, func(e []byte) bool { return JSONEqual(raw, e) }) {
		if vs.Loud() {
			vs.Add("enum", quoteJSON(raw)+" is not one of "+n.enumText)
		}
	}
	switch {
	case c == '{':
		n.checkObject(raw, vs, depth)
	case c == '[':
		n.checkArray(raw, vs, depth)
	case c == '"':
		n.checkString(raw, vs)
	case IsNumberStart(c):
		n.checkNumber(raw, vs)
	}
	for _, a := range n.allOf {
		check(a, raw, vs, depth+1)
	}
	if n.anyOf != nil {
		n.checkBranches(n.anyOf, false, raw, vs, depth)
	}
	if n.oneOf != nil {
		n.checkBranches(n.oneOf, true, raw, vs, depth)
	}
	if n.not != nil {
		q := NewQuietValidator()
		check(n.not, raw, q, depth+1)
		if q.Release() && vs.Loud() {
			vs.Add("not", "matches the schema it must not match")
		}
	}
	if n.cond != nil {
		q := NewQuietValidator()
		check(n.cond, raw, q, depth+1)
		branch := n.els
		if q.Release() {
			branch = n.then
		}
		if branch != nil {
			check(branch, raw, vs, depth+1)
		}
	}
}

// typeOK checks the kind of raw against "type", as the generated decoders
// do (an integer must fit int64, a number float64).
func (n *schemaNode) typeOK(c byte, raw []byte, vs *Validator) bool {
	var ok bool
	switch {
	case c == '{':
		ok = n.types&typeObject != 0
	case c == '[':
		ok = n.types&typeArray != 0
	case c == '"':
		ok = n.types&typeString != 0
	case c == 't' || c == 'f':
		ok = n.types&typeBoolean != 0
	case c == 'n':
		ok = n.types&typeNull != 0
	default:
		_, isInt, inRange := ParseInt(raw)
		switch {
		case n.types&typeNumber != 0:
			if _, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(raw), len(raw)), 64); err != nil {
				vs.Add("type", "number "+QuoteNum(raw)+" is out of the range of float64")
				return false
			}
			return true
		case n.types&typeInteger != 0 && isInt && !inRange:
			vs.Add("type", "integer "+QuoteNum(raw)+" is out of the range of int64")
			return false
		case n.types&typeInteger != 0 && !isInt:
			vs.Add("type", "expected integer, got "+QuoteNum(raw))
			return false
		}
		ok = n.types&typeInteger != 0
	}
	if !ok && vs.Loud() {
		vs.Add("type", "expected "+n.typeText+", got "+KindOf(c))
	}
	return ok
}

func (n *schemaNode) checkObject(raw []byte, vs *Validator, depth int) {
	if n.props == nil && n.additional == nil && !n.noAdditional && n.required == nil && n.minProps == noLimit && n.maxProps == noLimit {
		return // nothing to check member by member
	}
	// raw is well-formed (Validate read it whole): skipping its values
	// need not look for duplicate names again.
	d := Decoder{Data: raw, AllowDup: true}
	d.Object()
	var seenBuf [64]bool
	var seen []bool
	if len(n.required) > len(seenBuf) {
		seen = make([]bool, len(n.required))
	} else {
		seen = seenBuf[:len(n.required)]
	}
	count := 0
	for first := true; d.NextMember(&first); {
		key := d.Key
		d.Peek()
		val := d.Raw()
		count++
		if i := slices.Index(n.required, key); i >= 0 {
			seen[i] = true
		}
		mark := vs.Mark()
		switch p := n.props[key]; {
		case p != nil:
			check(p, val, vs, depth+1)
		case n.additional != nil:
			check(n.additional, val, vs, depth+1)
		case n.noAdditional:
			if vs.Loud() {
				vs.Add("additionalProperties", "member "+Quote(key)+" is not allowed")
			}
		}
		vs.At(mark, key)
	}
	for i, r := range n.required {
		if !seen[i] && vs.Loud() {
			vs.Add("required", "missing required member "+strconv.Quote(r))
		}
	}
	if n.minProps != noLimit && count < n.minProps && vs.Loud() {
		vs.Add("minProperties", "has "+strconv.Itoa(count)+" members, want at least "+strconv.Itoa(n.minProps))
	}
	if n.maxProps != noLimit && count > n.maxProps && vs.Loud() {
		vs.Add("maxProperties", "has "+strconv.Itoa(count)+" members, want at most "+strconv.Itoa(n.maxProps))
	}
}

func (n *schemaNode) checkArray(raw []byte, vs *Validator, depth int) {
	if n.items == nil && n.minItems == noLimit && n.maxItems == noLimit {
		return // nothing to check item by item
	}
	d := Decoder{Data: raw, AllowDup: true} // well-formed, as in checkObject
	d.Array()
	i := 0
	for first := true; d.NextElem(&first); i++ {
		val := d.Raw()
		if n.items != nil {
			mark := vs.Mark()
			check(n.items, val, vs, depth+1)
			vs.AtIndex(mark, i)
		}
	}
	if n.minItems != noLimit && i < n.minItems && vs.Loud() {
		vs.Add("minItems", "has "+strconv.Itoa(i)+" items, want at least "+strconv.Itoa(n.minItems))
	}
	if n.maxItems != noLimit && i > n.maxItems && vs.Loud() {
		vs.Add("maxItems", "has "+strconv.Itoa(i)+" items, want at most "+strconv.Itoa(n.maxItems))
	}
}

func (n *schemaNode) checkString(raw []byte, vs *Validator) {
	if n.format == nil && n.pattern == nil && n.minLength == noLimit && n.maxLength == noLimit {
		return
	}
	d := Decoder{Data: raw}
	s, _ := d.ReadStr()
	if n.format != nil && !n.format(s) && vs.Loud() {
		vs.Add("format", Quote(s)+" is not a valid "+n.formatName)
	}
	if n.pattern != nil && !n.pattern.MatchString(s) && vs.Loud() {
		vs.Add("pattern", Quote(s)+" does not match "+strconv.Quote(n.patternText))
	}
	if n.minLength != noLimit || n.maxLength != noLimit {
		c := utf8.RuneCountInString(s)
		if n.minLength != noLimit && c < n.minLength && vs.Loud() {
			vs.Add("minLength", "has "+strconv.Itoa(c)+" characters, want at least "+strconv.Itoa(n.minLength))
		}
		if n.maxLength != noLimit && c > n.maxLength && vs.Loud() {
			vs.Add("maxLength", "has "+strconv.Itoa(c)+" characters, want at most "+strconv.Itoa(n.maxLength))
		}
	}
}

func (n *schemaNode) checkNumber(raw []byte, vs *Validator) {
	for _, b := range []struct {
		bound     *string
		keyword   string
		violates  func(cmp int) bool
		allowText string
	}{
		{n.minimum, "minimum", func(c int) bool { return c < 0 }, ">="},
		{n.exclusiveMinimum, "exclusiveMinimum", func(c int) bool { return c <= 0 }, ">"},
		{n.maximum, "maximum", func(c int) bool { return c > 0 }, "<="},
		{n.exclusiveMaximum, "exclusiveMaximum", func(c int) bool { return c >= 0 }, "<"},
	} {
		if b.bound != nil && b.violates(CmpNumber(raw, *b.bound)) && vs.Loud() {
			vs.Add(b.keyword, "must be "+b.allowText+" "+*b.bound+", got "+QuoteNum(raw))
		}
	}
	if n.multipleOf != nil && !MultipleOf(raw, *n.multipleOf) && vs.Loud() {
		vs.Add("multipleOf", "must be a multiple of "+*n.multipleOf+", got "+QuoteNum(raw))
	}
}

// checkBranches checks anyOf (or oneOf, which must match exactly one). A
// value whose tag names a branch is checked against that branch alone;
// otherwise the branch with the fewest violations speaks for them all.
func (n *schemaNode) checkBranches(branches []*schemaNode, one bool, raw []byte, vs *Validator, depth int) {
	if n.tag != "" && raw[0] == '{' {
		d := Decoder{Data: raw}
		if off := d.PeekMember(n.tag); off >= 0 && raw[off] == '"' {
			s := Decoder{Data: raw, Pos: off}
			tag, _ := s.ReadStr()
			b, ok := n.byTag[tag]
			if !ok {
				if vs.Loud() {
					mark := vs.Mark()
					vs.Add("const", "unknown "+strconv.Quote(n.tag)+" "+Quote(tag)+n.forLabel()+"; want one of "+n.tagsText)
					vs.At(mark, n.tag)
				}
				return
			}
			check(b, raw, vs, depth+1)
			return
		}
	}
	matched := 0
	best := -1
	var bestScore [3]int
	for i, b := range branches {
		q := NewQuietValidator()
		check(b, raw, q, depth+1)
		c := q.fails
		q.Release()
		if c == 0 {
			matched++
			if !one {
				return
			}
			continue
		}
		if vs.quiet {
			continue
		}
		// The closest branch: one whose constant members match (those
		// tell branches apart), then the fewest violations, then the
		// deepest (it fails further in).
		l := NewValidator()
		check(b, raw, l, depth+1)
		score := [3]int{0, c, 0}
		for _, e := range l.Errs {
			if len(e.segs) == 1 && (e.keyword == "const" || e.keyword == "enum") {
				score[0] = 1
			}
			score[2] = min(score[2], -len(e.segs))
		}
		l.Release()
		if best < 0 || score[0] < bestScore[0] || score[0] == bestScore[0] && (score[1] < bestScore[1] || score[1] == bestScore[1] && score[2] < bestScore[2]) {
			best, bestScore = i, score
		}
	}
	switch {
	case one && matched == 1, !one && matched > 0:
		return
	case one && matched > 1:
		if vs.Loud() {
			vs.Add("oneOf", "matches more than one branch of "+n.label())
		}
		return
	}
	if !vs.Loud() {
		return
	}
	// The closest branch's violations say what is wrong.
	check(branches[best], raw, vs, depth+1)
}

// quoteJSON renders a JSON value for a message, shortened.
func quoteJSON(raw []byte) string {
	if len(raw) > 64 {
		return string(raw[:61]) + "..."
	}
	return string(raw)
}
