package schema

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Dialect URIs, as they appear in "$schema".
var dialects = map[string]Draft{
	"http://json-schema.org/draft-04/schema#":      Draft04,
	"http://json-schema.org/draft-04/schema":       Draft04,
	"https://json-schema.org/draft-04/schema#":     Draft04,
	"https://json-schema.org/draft-04/schema":      Draft04,
	"http://json-schema.org/draft-06/schema#":      Draft06,
	"http://json-schema.org/draft-06/schema":       Draft06,
	"https://json-schema.org/draft-06/schema#":     Draft06,
	"https://json-schema.org/draft-06/schema":      Draft06,
	"http://json-schema.org/draft-07/schema#":      Draft07,
	"http://json-schema.org/draft-07/schema":       Draft07,
	"https://json-schema.org/draft-07/schema#":     Draft07,
	"https://json-schema.org/draft-07/schema":      Draft07,
	"https://json-schema.org/draft/2020-12/schema": Draft202012,
	"http://json-schema.org/draft/2020-12/schema":  Draft202012,
}

// keywords the model acts on, and annotations it knows and keeps or drops
// on purpose. Anything else is reported.
var (
	annotationKeywords = []string{"$comment", "title", "description", "examples", "default",
		"deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "$schema", "$id"}
	jsonTypes = []string{"null", "boolean", "object", "array", "number", "string", "integer"}
)

// Load parses and resolves a schema document. file names the document in
// messages. Errors are of type Errors (each a *Diagnostic naming the file
// and JSON pointer); problems that do not stop loading are the document's
// Warnings (gen.Generate turns them into errors in strict mode). Load never
// panics on bad input.
func Load(file string, data []byte) (doc *Document, err error) {
	return LoadWith(file, data, RefOptions{})
}

// LoadWith is Load, with opts saying where the documents the schema refers
// to come from (docs/references.md). Every document a reference brings
// in is checked against its metaschema too, and its nodes' pointers start
// with its file name and "#" (other.json#/$defs/A).
func LoadWith(file string, data []byte, opts RefOptions) (doc *Document, err error) {
	if enc := unicodeEncoding(data); enc != "" {
		return nil, Errors{{File: file, Message: "the file is " + enc + ", not UTF-8: JSON schemas are read as UTF-8 (RFC 8259); convert it, for example with iconv -f " + strings.Fields(enc)[0] + " -t UTF-8"}}
	}
	// A UTF-8 byte order mark is no part of the JSON text (RFC 8259 lets
	// a reader ignore it).
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	root, perr := Parse(data)
	if perr != nil {
		var pe *PosError
		if errors.As(perr, &pe) {
			return nil, Errors{{File: file, Pointer: pe.Pointer, Message: "malformed JSON: " + pe.Error()}}
		}
		return nil, Errors{{File: file, Message: "malformed JSON: " + perr.Error()}}
	}
	uri := fileURI("/" + filepath.Base(file))
	if opts.Dir != "" {
		if abs, err := filepath.Abs(filepath.Join(opts.Dir, filepath.Base(file))); err == nil {
			uri = fileURI(abs)
		}
	}
	if opts.BaseURI != "" {
		uri, _ = splitFragment(opts.BaseURI)
	}
	main := &srcDoc{file: file, uri: uri, root: root}
	l := &loader{
		file:  file,
		root:  root,
		nodes: map[string]*Schema{},
		opts:  opts,
		cur:   main,
		docs:  []*srcDoc{main},

		resources:  map[string]*resource{},
		res:        map[*Value]*resource{},
		refMap:     map[string]string{},
		schemaVals: map[*Value]bool{},
	}
	for k, v := range opts.Map {
		abs, _ := splitFragment(k)
		l.refMap[abs] = v
	}
	doc, err = l.load()
	// The metaschema's verdict comes first, with the validator's own
	// locations; mcpgen's checks follow.
	var meta Errors
	for _, d := range l.docs {
		if d.draft != 0 {
			meta = append(meta, checkMetaschema(d.file, metaschemaDraft(d.root, d.draft), d.root, l.schemaVals)...)
		}
	}
	if len(meta) > 0 {
		var own Errors
		errors.As(err, &own)
		return nil, append(meta, own...)
	}
	return doc, err
}

// unicodeEncoding names the encoding of data when it is UTF-16 or UTF-32:
// by its byte order mark, or, without one, by the zero bytes around the
// first character of a JSON text (which is ASCII). "" otherwise.
func unicodeEncoding(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte{0, 0, 0xfe, 0xff}):
		return "UTF-32BE (it starts with a byte order mark)"
	case bytes.HasPrefix(data, []byte{0xff, 0xfe, 0, 0}):
		return "UTF-32LE (it starts with a byte order mark)"
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		return "UTF-16BE (it starts with a byte order mark)"
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		return "UTF-16LE (it starts with a byte order mark)"
	}
	if len(data) >= 4 {
		switch {
		case data[0] == 0 && data[1] == 0 && data[2] == 0 && data[3] != 0:
			return "UTF-32BE"
		case data[0] != 0 && data[1] == 0 && data[2] == 0 && data[3] == 0:
			return "UTF-32LE"
		case data[0] == 0 && data[1] != 0 && data[2] == 0:
			return "UTF-16BE"
		case data[0] != 0 && data[1] == 0 && data[3] == 0:
			return "UTF-16LE"
		}
	}
	return ""
}

type loader struct {
	file   string // of the document being read (cur)
	root   *Value // the schema's root
	draft  Draft  // of the document being read (cur)
	opts   RefOptions
	refMap map[string]string // opts.Map without fragments
	cur    *srcDoc           // the document whose nodes are being made
	docs   []*srcDoc         // the schema, then the documents references brought in
	// The schema resources of every document, by URI, in the order they
	// were found, and the resource of every schema value.
	resources     map[string]*resource
	resourceOrder []*resource
	res           map[*Value]*resource
	retrieved     []*Retrieved
	dynamicRefs   []*Schema          // nodes with a $dynamicRef
	nodes         map[string]*Schema // by pointer
	errs          Errors
	warnings      []*Diagnostic
	pending       []*Schema          // nodes whose $ref is not resolved yet
	refVals       map[*Schema]*Value // the $ref (or $dynamicRef) value
	objVals       map[*Schema]*Value // the node's own value
	// schemaVals are the values read as schemas where the document places
	// them (not as targets of a $ref), for the metaschema check.
	schemaVals map[*Value]bool
	resolving  bool                         // resolving $refs: nodes made now are not placed as schemas
	index      map[*Value]map[string]*Value // members of large objects by name, for lookup
}

// enter makes d the document whose nodes are made, returning the one that was.
func (l *loader) enter(d *srcDoc) *srcDoc {
	prev := l.cur
	l.cur, l.file, l.draft = d, d.file, d.draft
	return prev
}

func (l *loader) errorf(ptr, format string, args ...any) {
	l.errs = append(l.errs, &Diagnostic{File: l.file, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
}

func (l *loader) warnf(ptr, format string, args ...any) {
	l.warnings = append(l.warnings, &Diagnostic{File: l.file, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
}

func (l *loader) load() (*Document, error) {
	if l.root.Kind != Object {
		return nil, Errors{{File: l.file, Message: fmt.Sprintf("the schema is a JSON %s, not an object", l.root.Kind)}}
	}
	l.draft = l.detectDraft()
	if len(l.errs) > 0 {
		return nil, l.errs
	}
	l.cur.draft = l.draft
	l.indexDoc(l.cur)
	defsKey := l.draft.DefsKeyword()
	defsVal := l.root.Get(defsKey)
	other := "$defs"
	if defsKey == "$defs" {
		other = "definitions"
	}
	if defsVal == nil && l.root.Get(other) != nil {
		l.warnf("/"+other, "%s keeps definitions under %q; reading them from %q", l.draft, defsKey, other)
		defsKey, defsVal = other, l.root.Get(other)
	}
	l.refVals = map[*Schema]*Value{}
	l.objVals = map[*Schema]*Value{}
	doc := &Document{File: l.file, Draft: l.draft}
	// The root is a schema too: MCP's carry only $schema and the
	// definitions, but a schema may be the type itself (draft-04 ones
	// often are); the generator names it (Document.Root).
	doc.Root = l.node(l.root)
	// Nothing to generate but a root that accepts every value: the
	// generator says so unless it is asked to name the root.
	if defsVal == nil && doc.Root.IsEmpty() && doc.Root.RefPointer == "" {
		doc.Empty = &Diagnostic{File: l.file, Message: fmt.Sprintf("no definitions: the schema has no %q object, and its root is no type", defsKey)}
	}
	if defsVal != nil && defsVal.Kind != Object {
		return nil, Errors{{File: l.file, Pointer: "/" + defsKey, Message: fmt.Sprintf("%q is a JSON %s, not an object", defsKey, defsVal.Kind)}}
	}
	if defsVal != nil && defsVal.Kind == Object && len(defsVal.Members) == 0 && doc.Root.IsEmpty() && doc.Root.RefPointer == "" {
		doc.Empty = &Diagnostic{File: l.file, Pointer: "/" + defsKey, Message: "no definitions: the object is empty, and the root is no type"}
	}
	if defsVal != nil {
		for _, m := range defsVal.Members {
			s := l.node(m.Value)
			if s == nil {
				continue
			}
			s.Name = m.Name
			doc.Defs = append(doc.Defs, s)
		}
	}
	l.resolveRefs()
	l.dynamicAnchors(doc)
	if len(l.errs) == 0 {
		l.checkCycles(doc)
	}
	if len(l.errs) > 0 {
		return nil, l.errs
	}
	doc.Warnings = l.warnings
	doc.Retrieved = l.retrieved
	doc.nodes = l.nodes
	return doc, nil
}

// detectDraft picks the schema's draft (dialectOf).
func (l *loader) detectDraft() Draft {
	d, notes, errPtr, errMsg := dialectOf(l.root, 0)
	if errMsg != "" {
		l.errorf(errPtr, "%s", errMsg)
		return 0
	}
	for _, n := range notes {
		l.warnf(n.ptr, "%s", n.msg)
	}
	return d
}

// node builds (once) the Schema for the value v, which sits at a schema
// position. It returns nil after reporting an error.
func (l *loader) node(v *Value) *Schema {
	key := l.cur.prefix + v.Pointer
	if s, ok := l.nodes[key]; ok {
		return s
	}
	s := &Schema{Pointer: key, Resource: l.resourceOf(l.cur, v).exported()}
	l.nodes[key] = s
	l.objVals[s] = v
	if !l.resolving {
		l.schemaVals[v] = true
	}
	switch v.Kind {
	case Bool:
		s.IsBool, s.BoolValue = true, v.Bool
		return s
	case Object:
	default:
		l.errorf(v.Pointer, "a schema must be an object or a boolean, not a JSON %s", v.Kind)
		return s
	}
	hasRef := v.Get("$ref") != nil
	for _, m := range v.Members {
		ptr := m.Value.Pointer
		if hasRef && l.draft.refSiblingsIgnored() && m.Name != "$ref" && !slices.Contains(annotationKeywords, m.Name) &&
			m.Name != "definitions" && m.Name != "$defs" && !(l.draft == Draft04 && m.Name == "id") {
			l.warnf(ptr, "keyword %q next to \"$ref\" is ignored in %s", m.Name, l.draft)
			s.Ignored = append(s.Ignored, m.Name)
			continue
		}
		l.keyword(s, m.Name, m.Value, ptr, v)
	}
	if l.draft == Draft04 {
		draft04Exclusive(s, v)
	}
	return s
}

// draft04Exclusive applies draft-04's boolean exclusiveMinimum and
// exclusiveMaximum: true makes minimum (maximum) exclusive.
func draft04Exclusive(s *Schema, v *Value) {
	if x := v.Get("exclusiveMinimum"); x != nil && x.Kind == Bool && x.Bool && s.Minimum != nil {
		s.ExclusiveMinimum, s.Minimum = s.Minimum, nil
	}
	if x := v.Get("exclusiveMaximum"); x != nil && x.Kind == Bool && x.Bool && s.Maximum != nil {
		s.ExclusiveMaximum, s.Maximum = s.Maximum, nil
	}
}

func (l *loader) keyword(s *Schema, name string, v *Value, ptr string, obj *Value) {
	switch name {
	case "$ref", "$dynamicRef":
		if v.Kind != String {
			l.errorf(ptr, "%q must be a string, not a JSON %s", name, v.Kind)
			return
		}
		if name == "$dynamicRef" && l.draft != Draft202012 {
			l.unknown(s, name, ptr)
			return
		}
		if s.RefKeyword != "" {
			l.errorf(ptr, "\"$ref\" and \"$dynamicRef\" in one schema are not supported: put one of them in an allOf")
			return
		}
		s.RefPointer, s.RefKeyword = v.Str, name
		l.pending = append(l.pending, s)
		l.refVals[s] = v
	case "type":
		switch v.Kind {
		case String:
			if l.checkType(v.Str, ptr) {
				s.Types = []string{v.Str}
			}
		case Array:
			if len(v.Items) == 0 {
				l.errorf(ptr, "\"type\" must not be an empty array")
			}
			s.Types = []string{}
			for _, it := range v.Items {
				if it.Kind != String {
					l.errorf(it.Pointer, "\"type\" entries must be strings, not a JSON %s", it.Kind)
					continue
				}
				if slices.Contains(s.Types, it.Str) {
					l.errorf(it.Pointer, "\"type\" lists %q twice", it.Str)
					continue
				}
				if l.checkType(it.Str, it.Pointer) {
					s.Types = append(s.Types, it.Str)
				}
			}
		default:
			l.errorf(ptr, "\"type\" must be a string or an array of strings, not a JSON %s", v.Kind)
		}
	case "properties":
		if v.Kind != Object {
			l.errorf(ptr, "\"properties\" must be an object, not a JSON %s", v.Kind)
			return
		}
		s.Properties = []*Property{}
		for _, m := range v.Members {
			if ps := l.node(m.Value); ps != nil {
				s.Properties = append(s.Properties, &Property{Name: m.Name, Schema: ps})
			}
		}
	case "required":
		if v.Kind != Array {
			l.errorf(ptr, "\"required\" must be an array of strings, not a JSON %s", v.Kind)
			return
		}
		s.Required = []string{}
		for _, it := range v.Items {
			if it.Kind != String {
				l.errorf(it.Pointer, "\"required\" entries must be strings, not a JSON %s", it.Kind)
				continue
			}
			if slices.Contains(s.Required, it.Str) {
				l.errorf(it.Pointer, "\"required\" lists %q twice", it.Str)
				continue
			}
			s.Required = append(s.Required, it.Str)
		}
	case "additionalProperties":
		s.AdditionalProperties = l.node(v)
	case "items":
		if v.Kind == Array {
			if !l.draft.pre2019() {
				l.errorf(ptr, "the array form of \"items\" is draft-07; draft 2020-12 spells it \"prefixItems\"")
				return
			}
			s.PrefixItems = l.schemaList(v)
			if s.PrefixItems == nil {
				s.PrefixItems = []*Schema{}
			}
			// additionalItems, before or after, applies past the tuple.
			if ai := obj.Get("additionalItems"); ai != nil {
				s.Items, s.ItemsKeyword = l.node(ai), "additionalItems"
			}
			return
		}
		s.Items, s.ItemsKeyword = l.node(v), "items"
	case "additionalItems":
		switch {
		case !l.draft.pre2019():
			l.warnf(ptr, "\"additionalItems\" is not a draft 2020-12 keyword (it is draft-07's; 2020-12 spells it \"items\" next to \"prefixItems\"); it is ignored")
			s.Ignored = append(s.Ignored, name)
		default:
			// Read next to an array "items"; otherwise it has no effect
			// (draft-07), but it is still a schema to check.
			l.node(v)
		}
	case "prefixItems":
		if l.draft.pre2019() {
			l.unknown(s, name, ptr)
			return
		}
		if v.Kind != Array || len(v.Items) == 0 {
			l.errorf(ptr, "\"prefixItems\" must be a non-empty array of schemas")
			return
		}
		s.PrefixItems = l.schemaList(v)
	case "contains":
		s.Contains = l.node(v)
	case "minContains", "maxContains", "minProperties", "maxProperties":
		if l.draft.pre2019() && strings.HasSuffix(name, "Contains") {
			l.unknown(s, name, ptr)
			return
		}
		n, ok := nonNegInt(v)
		if !ok {
			l.errorf(ptr, "%q must be a non-negative integer, not %s", name, v.JSON())
			return
		}
		switch name {
		case "minContains":
			s.MinContains = &n
		case "maxContains":
			s.MaxContains = &n
		case "minProperties":
			s.MinProperties = &n
		default:
			s.MaxProperties = &n
		}
	case "uniqueItems":
		if v.Kind != Bool {
			l.errorf(ptr, "\"uniqueItems\" must be a boolean, not a JSON %s", v.Kind)
			return
		}
		s.UniqueItems = v.Bool
	case "unevaluatedItems", "unevaluatedProperties":
		if l.draft.pre2019() {
			l.unknown(s, name, ptr)
			return
		}
		if name == "unevaluatedItems" {
			s.UnevaluatedItems = l.node(v)
		} else {
			s.UnevaluatedProperties = l.node(v)
		}
	case "not":
		s.Not = l.node(v)
	case "if":
		s.If = l.node(v)
		// then and else mean nothing without if.
		if t := obj.Get("then"); t != nil {
			s.Then = l.node(t)
		}
		if e := obj.Get("else"); e != nil {
			s.Else = l.node(e)
		}
	case "then", "else":
		if obj.Get("if") == nil {
			l.node(v) // no effect without "if", but still a schema
		}
	case "multipleOf":
		if v.Kind != Number || !positive(v.Num) {
			l.errorf(ptr, "\"multipleOf\" must be a number greater than 0, not %s", v.JSON())
			return
		}
		n := v.Num
		s.MultipleOf = &n
	case "patternProperties":
		if v.Kind != Object {
			l.errorf(ptr, "\"patternProperties\" must be an object, not a JSON %s", v.Kind)
			return
		}
		s.PatternProperties = []*PatternProperty{}
		for _, m := range v.Members {
			ps := l.node(m.Value)
			if ps == nil {
				continue
			}
			pp := &PatternProperty{Pattern: m.Name, Schema: ps}
			if !l.checkPattern(s, m.Name, m.Value.Pointer, "patternProperties") {
				pp.Unsupported = true
			}
			s.PatternProperties = append(s.PatternProperties, pp)
		}
	case "propertyNames":
		s.PropertyNames = l.node(v)
	case "dependentRequired", "dependentSchemas", "dependencies":
		if l.draft.pre2019() && name != "dependencies" {
			l.unknown(s, name, ptr)
			return
		}
		if v.Kind != Object {
			l.errorf(ptr, "%q must be an object, not a JSON %s", name, v.Kind)
			return
		}
		for _, m := range v.Members {
			dep := &Dependency{Keyword: name, Name: m.Name}
			isList := m.Value.Kind == Array
			switch {
			case name == "dependentRequired" && !isList:
				l.errorf(m.Value.Pointer, "\"dependentRequired\" entries must be arrays of strings, not a JSON %s", m.Value.Kind)
				continue
			case name == "dependentSchemas" && isList:
				l.errorf(m.Value.Pointer, "\"dependentSchemas\" entries must be schemas, not a JSON array")
				continue
			}
			if isList {
				dep.Required = []string{}
				for _, it := range m.Value.Items {
					if it.Kind != String {
						l.errorf(it.Pointer, "%q entries must be strings, not a JSON %s", name, it.Kind)
						continue
					}
					dep.Required = append(dep.Required, it.Str)
				}
			} else {
				dep.Schema = l.node(m.Value)
				if dep.Schema == nil {
					continue
				}
			}
			s.Dependencies = append(s.Dependencies, dep)
		}
	case "contentSchema":
		if l.draft.pre2019() {
			l.unknown(s, name, ptr)
			return
		}
		s.ContentSchema = l.node(v)
	case "contentMediaType", "contentEncoding":
		if v.Kind != String {
			l.errorf(ptr, "%q must be a string, not a JSON %s", name, v.Kind)
			return
		}
		if name == "contentMediaType" {
			s.ContentMediaType = v.Str
		} else {
			s.ContentEncoding = v.Str
		}
	case "$recursiveRef":
		l.warnf(ptr, "%q is not supported; it is not enforced, and the schemas that depend on it accept what it would reject", name)
		s.Ignored = append(s.Ignored, name)
		s.Inexact = true
	case "anyOf", "oneOf", "allOf":
		if v.Kind != Array || len(v.Items) == 0 {
			l.errorf(ptr, "%q must be a non-empty array of schemas", name)
			return
		}
		var list []*Schema
		for _, it := range v.Items {
			list = append(list, l.node(it))
		}
		switch name {
		case "anyOf":
			s.AnyOf = list
		case "oneOf":
			s.OneOf = list
		default:
			s.AllOf = list
		}
	case "const":
		s.Const = v
	case "enum":
		if v.Kind != Array {
			l.errorf(ptr, "\"enum\" must be an array, not a JSON %s", v.Kind)
			return
		}
		// Equal values share a key: one pass finds every repeat.
		seen := make(map[string]bool, len(v.Items))
		for _, it := range v.Items {
			k := equalKey(it)
			if seen[k] {
				l.errorf(it.Pointer, "\"enum\" lists %s twice", it.JSON())
			}
			seen[k] = true
		}
		s.Enum = v.Items
		if s.Enum == nil {
			s.Enum = []*Value{} // an empty enum: no value is valid
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		if v.Kind == Bool && l.draft == Draft04 && strings.HasPrefix(name, "exclusive") {
			return // applied to minimum (maximum) when the node is read
		}
		if v.Kind != Number {
			if v.Kind == Bool && strings.HasPrefix(name, "exclusive") {
				l.errorf(ptr, "boolean %q is draft-04; %s wants a number", name, l.draft)
				return
			}
			l.errorf(ptr, "%q must be a number, not a JSON %s", name, v.Kind)
			return
		}
		n := v.Num
		switch name {
		case "minimum":
			s.Minimum = &n
		case "maximum":
			s.Maximum = &n
		case "exclusiveMinimum":
			s.ExclusiveMinimum = &n
		default:
			s.ExclusiveMaximum = &n
		}
	case "minItems", "maxItems", "minLength", "maxLength":
		n, ok := nonNegInt(v)
		if !ok {
			if r, isNum := new(big.Rat).SetString(v.Num); v.Kind == Number && isNum && r.IsInt() && r.Sign() >= 0 {
				l.errorf(ptr, "%q is %s, beyond what mcpgen can represent (at most %d)", name, v.Num, int64(math.MaxInt64))
				return
			}
			l.errorf(ptr, "%q must be a non-negative integer, not %s", name, v.JSON())
			return
		}
		switch name {
		case "minItems":
			s.MinItems = &n
		case "maxItems":
			s.MaxItems = &n
		case "minLength":
			s.MinLength = &n
		default:
			s.MaxLength = &n
		}
	case "pattern":
		if v.Kind != String {
			l.errorf(ptr, "\"pattern\" must be a string, not a JSON %s", v.Kind)
			return
		}
		p := v.Str
		if l.checkPattern(s, p, ptr, "pattern") {
			s.Pattern = &p
		}
	case "format":
		if v.Kind != String {
			l.errorf(ptr, "\"format\" must be a string, not a JSON %s", v.Kind)
			return
		}
		s.Format = v.Str
	case "default":
		s.Default = v
	case "title", "description":
		if v.Kind != String {
			l.errorf(ptr, "%q must be a string, not a JSON %s", name, v.Kind)
			return
		}
		if name == "title" {
			s.Title = v.Str
		} else {
			s.Description = v.Str
		}
	case "deprecated":
		if v.Kind != Bool {
			l.errorf(ptr, "\"deprecated\" must be a boolean, not a JSON %s", v.Kind)
			return
		}
		s.Deprecated = v.Bool
	case "definitions", "$defs":
		// Containers; their members are schemas only if something refers to them.
		if v.Kind != Object {
			l.errorf(ptr, "%q must be an object, not a JSON %s", name, v.Kind)
		}
	case "$schema":
		if obj != l.cur.root {
			l.warnf(ptr, "\"$schema\" inside a subschema is ignored")
		}
	case "$id", "$anchor", "$dynamicAnchor":
		// Read by the index (refs.go).
		if name != "$id" && l.draft != Draft202012 {
			l.unknown(s, name, ptr)
		}
	case "id":
		if l.draft != Draft04 {
			l.warnf(ptr, "unknown keyword %q is not supported; it is not enforced (\"id\" is draft-04's \"$id\")", name)
			s.Ignored = append(s.Ignored, name)
			return
		}
	case "$comment", "examples", "readOnly", "writeOnly":
		// Annotations with no effect on the generated code.
	default:
		l.unknown(s, name, ptr)
	}
}

// unknown reports a keyword the model does not read.
func (l *loader) unknown(s *Schema, name, ptr string) {
	l.warnf(ptr, "unknown keyword %q is not supported; it is not enforced", name)
	s.Ignored = append(s.Ignored, name)
}

// schemaList builds the schemas of an array of schemas.
func (l *loader) schemaList(v *Value) []*Schema {
	var out []*Schema
	for _, it := range v.Items {
		if n := l.node(it); n != nil {
			out = append(out, n)
		}
	}
	return out
}

// checkPattern checks a regular expression of "pattern" or
// "patternProperties": one Go's regexp cannot match is a warning, and the
// node is inexact. It reports whether the pattern is enforced.
func (l *loader) checkPattern(s *Schema, p, ptr, keyword string) bool {
	_, unsupported, err := GoPattern(p)
	switch {
	case err != nil:
		l.errorf(ptr, "%s %q is not a regular expression: %v", keyword, p, err)
		return false
	case unsupported != "":
		what := "it is not enforced"
		if keyword == "patternProperties" {
			what = "its schema is not applied, and additionalProperties and unevaluatedProperties accept every member it might match"
		}
		l.warnf(ptr, "%s %q uses %s, which Go's regexp cannot match; %s", keyword, p, unsupported, what)
		s.Inexact = true
		return false
	}
	return true
}

func positive(num string) bool {
	r, ok := new(big.Rat).SetString(num)
	return ok && r.Sign() > 0
}

func (l *loader) checkType(t, ptr string) bool {
	if !slices.Contains(jsonTypes, t) {
		l.errorf(ptr, "%q is not a JSON Schema type (want one of %s)", t, strings.Join(jsonTypes, ", "))
		return false
	}
	return true
}

func nonNegInt(v *Value) (int64, bool) {
	if v.Kind != Number {
		return 0, false
	}
	r, ok := new(big.Rat).SetString(v.Num)
	if !ok || !r.IsInt() || r.Sign() < 0 || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// resolveRefs resolves every pending $ref and $dynamicRef (refs.go),
// loading the documents they refer to.
func (l *loader) resolveRefs() {
	l.resolving = true
	defer func() { l.resolving = false }()
	for len(l.pending) > 0 {
		s := l.pending[0]
		l.pending = l.pending[1:]
		ref := s.RefPointer
		d := l.docOf(s)
		prev := l.enter(d)
		ptr := strings.TrimPrefix(s.Pointer, d.prefix) + "/" + s.RefKeyword
		t, err := l.resolve(l.objVals[s], ref)
		if err != nil {
			l.errorf(ptr, "%s", strings.Replace(err.Error(), "$ref", s.RefKeyword, 1))
			l.enter(prev)
			continue
		}
		if t.val.Kind != Object && t.val.Kind != Bool {
			l.errorf(ptr, "%s %q points at a JSON %s, not a schema", s.RefKeyword, ref, t.val.Kind)
			l.enter(prev)
			continue
		}
		l.enter(t.doc)
		s.Ref = l.node(t.val) // "#" is the root, Document.Root
		l.enter(prev)
		if s.RefKeyword == "$dynamicRef" {
			l.dynamicRefs = append(l.dynamicRefs, s)
			// Bookended: the static target has a $dynamicAnchor of the
			// fragment's name.
			if t.anchor != "" && t.res.dynamic[t.anchor] == t.val {
				s.Dynamic = &DynamicRef{Name: t.anchor}
			}
		}
	}
}

// docOf is the document node s belongs to.
func (l *loader) docOf(s *Schema) *srcDoc {
	for _, d := range l.docs[1:] {
		if strings.HasPrefix(s.Pointer, d.prefix) {
			return d
		}
	}
	return l.docs[0]
}

// dynamicAnchors makes the nodes of every $dynamicAnchor that a bookended
// $dynamicRef may resolve to (their names), in every resource loaded,
// and records them in the resources; Document.Dynamic says whether some
// name has more than one.
func (l *loader) dynamicAnchors(doc *Document) {
	for {
		names := l.dynamicNames()
		count := map[string]int{}
		before := len(l.nodes)
		for _, r := range l.resourceOrder {
			for _, n := range names {
				v, ok := r.dynamic[n]
				if !ok {
					continue
				}
				count[n]++
				prev := l.enter(r.doc)
				a := l.node(v)
				l.enter(prev)
				m := r.exported()
				if m.Dynamic == nil {
					m.Dynamic = map[string]*Schema{}
				}
				m.Dynamic[n] = a
			}
		}
		l.resolveRefs()
		if len(l.nodes) == before {
			for _, n := range count {
				doc.Dynamic = doc.Dynamic || n > 1
			}
			return
		}
	}
}

// exported is the model of the resource, made once.
func (r *resource) exported() *Resource {
	if r.model == nil {
		r.model = &Resource{URI: r.uri}
	}
	return r.model
}

// member is v.Get(name), through an index for a large object (a $ref per
// definition into thousands of definitions would be quadratic otherwise).
func (l *loader) member(v *Value, name string) *Value {
	if len(v.Members) < 16 {
		return v.Get(name)
	}
	idx, ok := l.index[v]
	if !ok {
		idx = make(map[string]*Value, len(v.Members))
		for _, m := range v.Members {
			idx[m.Name] = m.Value
		}
		if l.index == nil {
			l.index = map[*Value]map[string]*Value{}
		}
		l.index[v] = idx
	}
	return idx[name]
}

func unescapeFragment(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", errors.New("bad escape")
		}
		n, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", err
		}
		b.WriteByte(byte(n))
		i += 2
	}
	return b.String(), nil
}

// checkCycles reports cycles that no Go type can represent: a schema that
// reaches itself through the applicators to the value itself alone ($ref,
// allOf, anyOf, oneOf, not, if/then/else, dependent schemas), with no
// properties, items or additionalProperties on the way (a value that would
// have to contain itself, or a check that would never end).
func (l *loader) checkCycles(doc *Document) {
	const (
		white = iota
		grey
		black
	)
	color := map[*Schema]int{}
	var stack []*Schema
	reported := map[*Schema]bool{}
	var visit func(s *Schema)
	visit = func(s *Schema) {
		switch color[s] {
		case black:
			return
		case grey:
			i := slices.Index(stack, s)
			cycle := stack[i:]
			if !reported[s] {
				for _, c := range cycle {
					reported[c] = true
				}
				var names []string
				for _, c := range append(cycle, s) {
					names = append(names, displayPointer(c.Pointer))
				}
				l.errorf(s.Pointer, "$ref cycle that cannot be represented (a value would contain itself): %s", strings.Join(names, " -> "))
			}
			return
		}
		color[s] = grey
		stack = append(stack, s)
		for _, c := range s.InPlace() {
			visit(c)
		}
		stack = stack[:len(stack)-1]
		color[s] = black
	}
	for _, d := range doc.Defs {
		visit(d)
	}
	// Subschemas that are not definitions are reached from the definitions
	// through properties/items, each of which starts a fresh walk.
	ptrs := make([]string, 0, len(l.nodes))
	for p := range l.nodes {
		ptrs = append(ptrs, p)
	}
	slices.Sort(ptrs)
	for _, p := range ptrs {
		visit(l.nodes[p])
	}
}
