package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file converts the messages of older revisions to a package's types
// and back (mcpgen generate --serve-older). A conversion works on JSON: a
// message of one revision becomes one of the other by leaving out, or
// filling, the era members (spec.EraMembers), and everything else passes
// as it is, unknown members included. What one revision cannot carry is
// what the other's schema refuses: each side is validated against its own
// schema, the package's with its generated validators, the older
// revision's with a codec.Schema made from the schema the generator
// embeds in the package.

// Value is a value of a generated package: a params or result type.
type Value interface {
	UnmarshalJSON([]byte) error
	AppendJSON([]byte) ([]byte, error)
	Validate() error
}

// OlderTable is what mcpgen generates for one older revision a package
// converts to: NewOlder makes the conversions from it.
type OlderTable struct {
	// Revision is the older revision ("2025-11-25"); This is the package's
	// own ("2026-07-28"), for messages.
	Revision, This string
	// Schema is the older revision's schema as JSON, reduced to the
	// keywords validation reads (codec.CompileSchema reads it the first
	// time a conversion needs it).
	Schema string
	// Definitions is the JSON pointer of the older schema's definitions
	// ("/$defs" or "/definitions").
	Definitions string
	// Methods are the methods both revisions carry, in the same direction,
	// and the input requests the package embeds in InputRequiredResult that
	// older servers send as requests of their own.
	Methods []OlderMethod
	// NewValue returns a new value of the package's type for a definition
	// (the package's NewValue).
	NewValue func(definition string) (Value, bool)
}

// OlderMethod is one method both revisions carry.
type OlderMethod struct {
	Name         string
	Notification bool
	// ToClient is set for what servers send to clients (notifications, and
	// the requests of the initialize era: elicitation/create, ...).
	ToClient bool
	// Params and Result are the JSON pointers, in the older schema, of the
	// method's params and result; "" where the older revision has none.
	Params, Result string
	// ParamsRequired says whether the older revision requires the params;
	// NewParamsRequired whether the package's does.
	ParamsRequired, NewParamsRequired bool
	// NewParams and NewResult return new values of the package's params and
	// result types; nil where the package has none.
	NewParams, NewResult func() Value
	// ParamsMeta are the members the package's params require in their
	// _meta that an older message lacks (the era members the runtime fills:
	// zero values); ResultFill and ResultMeta those its result requires, at
	// the top and in _meta. Each is a name and its JSON.
	ParamsMeta, ResultFill, ResultMeta []Fill
}

// Fill is a member a conversion from an older revision adds where the
// message lacks it.
type Fill struct{ Name, JSON string }

// Older converts the messages of one older MCP revision to this package's
// types and back: the params and results of every method both revisions
// carry, and the values of the definitions both declare. mcpgen generates
// one per revision given to --serve-older (Older20251125, ...).
//
// The older side is always JSON: what an older peer sent, checked against
// the older revision's schema (its violations come back as a
// *ValidationError, malformed JSON as a *SyntaxError), or what to send to
// one, checked the same way before it is returned. This package's side is
// Go values: the value a handler takes or returns (a pointer to the params
// or result struct, or a union's value), validated against this
// revision's schema.
//
// A value the other revision cannot carry is a *ConversionError whose Err
// holds the violations. docs/revisions.md lists the conversion rules and the
// members that are dropped on purpose (the era members the runtime handles
// itself). An Older is safe for concurrent use.
type Older struct {
	t       OlderTable
	methods map[string]*OlderMethod
	names   []string

	once   sync.Once
	schema *codec.Schema
	err    error
}

// NewOlder makes the conversions of one older revision. It does not read
// the schema yet: the first conversion does.
func NewOlder(t OlderTable) *Older {
	o := &Older{t: t, methods: map[string]*OlderMethod{}}
	for i := range t.Methods {
		m := &o.t.Methods[i]
		o.methods[m.Name] = m
		o.names = append(o.names, m.Name)
	}
	slices.Sort(o.names)
	return o
}

// Revision is the older revision's protocol version ("2025-11-25").
func (o *Older) Revision() string { return o.t.Revision }

// Methods lists the methods whose params and results convert, sorted: the
// methods both revisions carry, and the requests a newer server embeds in
// an InputRequiredResult that an older one sends as requests of their own
// (elicitation/create, sampling/createMessage, roots/list).
func (o *Older) Methods() []string { return slices.Clone(o.names) }

// Carries reports whether method's params and results convert.
func (o *Older) Carries(method string) bool {
	_, ok := o.methods[method]
	return ok
}

// notification reports whether method is a notification of both.
func (o *Older) notification(method string) bool {
	m := o.methods[method]
	return m != nil && m.Notification
}

// older returns the older revision's compiled schema.
func (o *Older) older() (*codec.Schema, error) {
	o.once.Do(func() {
		o.schema, o.err = codec.CompileSchema([]byte(o.t.Schema))
		if o.err != nil {
			o.err = errors.New("mcp: the embedded schema of " + o.t.Revision + " does not compile (a bug in mcpgen): " + o.err.Error())
		}
	})
	return o.schema, o.err
}

func (o *Older) method(name string, toOlder bool) (*OlderMethod, error) {
	m, ok := o.methods[name]
	if !ok {
		return nil, o.fail(&ConversionError{Message: "method " + codec.Quote(name) + " is not carried by both revisions"}, toOlder)
	}
	return m, nil
}

// fail completes a conversion error with the revision and the direction.
func (o *Older) fail(err error, toOlder bool) error {
	if ce, ok := err.(*ConversionError); ok && ce.Revision == "" {
		ce.Revision, ce.ToOlder = o.t.Revision, toOlder
	}
	return err
}

// checkOlder validates data against the older schema at pointer.
func (o *Older) checkOlder(pointer string, data []byte) error {
	s, err := o.older()
	if err != nil {
		return err
	}
	return s.Validate(pointer, data)
}

// paramsUp converts the params of an older message to this revision's
// JSON: checked against the older schema, with the _meta members this
// revision requires filled with their zero values (for the runtime to fill
// from the session). Absent params stay absent unless this revision
// requires them.
func (o *Older) paramsUp(m *OlderMethod, params []byte) ([]byte, error) {
	params, meta, err := o.paramsUpMeta(m, params)
	if err != nil || meta == nil {
		return params, err
	}
	return setMember(params, spec.MemberMeta, meta), nil
}

// paramsUpMeta is paramsUp leaving the _meta to set: it returns the
// checked params (nil for none) and, when this revision requires _meta
// members, the _meta they should carry (else nil), for a caller that
// changes _meta again to set it once.
func (o *Older) paramsUpMeta(m *OlderMethod, params []byte) (_, meta []byte, _ error) {
	if params == nil {
		if m.ParamsRequired && m.Params != "" {
			return nil, nil, &codec.ValidationError{Violations: []codec.Violation{{Keyword: "required", Message: "params are required"}}}
		}
		if !m.NewParamsRequired {
			return nil, nil, nil
		}
		params = []byte("{}")
	} else if m.Params != "" {
		if err := o.checkOlder(m.Params, params); err != nil {
			return nil, nil, err
		}
	}
	if len(m.ParamsMeta) == 0 {
		return params, nil, nil
	}
	meta = codec.Lookup(params, spec.MemberMeta)
	switch {
	case meta == nil:
		meta = []byte("{}")
	case meta[0] != '{':
		return params, nil, nil // this revision's schema refuses it
	}
	return params, addMembers(meta, m.ParamsMeta), nil
}

// paramsDown converts this revision's params (JSON) to the older
// revision's: without the era members of _meta, checked against the older
// schema.
func (o *Older) paramsDown(m *OlderMethod, params []byte) ([]byte, error) {
	if params == nil {
		if m.ParamsRequired {
			return nil, &ConversionError{Message: o.t.Revision + " requires the params of " + m.Name}
		}
		return nil, nil
	}
	if m.Params == "" {
		return nil, nil // the older revision's message has no params
	}
	params = dropEra(params, false)
	if err := o.checkOlder(m.Params, params); err != nil {
		return nil, convInvalid(o.t.Revision, err)
	}
	return params, nil
}

// resultUp converts an older result to this revision's JSON: checked, with
// the era members this revision requires filled.
func (o *Older) resultUp(m *OlderMethod, result []byte) ([]byte, error) {
	if m.Result != "" {
		if err := o.checkOlder(m.Result, result); err != nil {
			return nil, err
		}
	}
	result = addMembers(result, m.ResultFill)
	if len(m.ResultMeta) > 0 {
		meta := codec.Lookup(result, spec.MemberMeta)
		switch {
		case meta == nil:
			result = setMember(result, spec.MemberMeta, addMembers([]byte("{}"), m.ResultMeta))
		case meta[0] == '{':
			result = setMember(result, spec.MemberMeta, addMembers(meta, m.ResultMeta))
		}
	}
	return result, nil
}

// resultDown converts this revision's result (JSON) to the older
// revision's: without the era members, checked against the older schema.
func (o *Older) resultDown(m *OlderMethod, result []byte) ([]byte, error) {
	result = dropEra(result, true)
	if m.Result != "" {
		if err := o.checkOlder(m.Result, result); err != nil {
			return nil, convInvalid(o.t.Revision, err)
		}
	}
	return result, nil
}

// decodeNew decodes JSON of this revision into v and validates it.
func (o *Older) decodeNew(data []byte, v Value) error {
	if err := codec.UnmarshalAndValidate(data, v); err != nil {
		return convInvalid(o.t.This, err)
	}
	return nil
}

// ParamsFromOlder decodes the params of a request or notification as the
// older revision sends them (absent params are nil), validates them
// against its schema and converts them to this package's params.
func (o *Older) ParamsFromOlder(method string, params []byte) (any, error) {
	m, err := o.method(method, false)
	if err != nil {
		return nil, err
	}
	b, err := o.paramsUp(m, params)
	if err != nil || b == nil || m.NewParams == nil {
		return nil, o.fail(err, false)
	}
	v := m.NewParams()
	return v, o.fail(o.decodeNew(b, v), false)
}

// ParamsToOlder converts params of this package (the type the method's
// handler takes; nil for none) to the older revision's, validates them
// against its schema and encodes them (nil when there are none).
func (o *Older) ParamsToOlder(method string, params any) ([]byte, error) {
	m, err := o.method(method, true)
	if err != nil {
		return nil, err
	}
	if err := checkType(params, m.NewParams); err != nil {
		return nil, o.fail(err, true)
	}
	b, err := encodeAny(params)
	if err != nil {
		return nil, o.fail(err, true)
	}
	b, err = o.paramsDown(m, b)
	return b, o.fail(err, true)
}

// ResultFromOlder decodes a request's result as the older revision sends
// it, validates it and converts it to this package's result.
func (o *Older) ResultFromOlder(method string, result []byte) (any, error) {
	m, err := o.method(method, false)
	if err != nil {
		return nil, err
	}
	if m.Notification {
		return nil, o.fail(&ConversionError{Message: method + " is a notification: it has no result"}, false)
	}
	b, err := o.resultUp(m, result)
	if err != nil {
		return nil, o.fail(err, false)
	}
	v := m.NewResult()
	return v, o.fail(o.decodeNew(b, v), false)
}

// ResultToOlder converts a result of this package (the type the method's
// handler returns) to the older revision's, validates it against its
// schema and encodes it.
func (o *Older) ResultToOlder(method string, result any) ([]byte, error) {
	m, err := o.method(method, true)
	if err != nil {
		return nil, err
	}
	if m.Notification {
		return nil, o.fail(&ConversionError{Message: method + " is a notification: it has no result"}, true)
	}
	if err := checkType(result, m.NewResult); err != nil {
		return nil, o.fail(err, true)
	}
	b, err := encodeAny(result)
	if err != nil {
		return nil, o.fail(err, true)
	}
	if b == nil {
		return nil, o.fail(&ConversionError{Message: "no result to convert"}, true)
	}
	b, err = o.resultDown(m, b)
	return b, o.fail(err, true)
}

// ToOlder converts a value of this package (v, of the type of definition)
// to the older revision's JSON for the same definition, checked against
// its schema: the implementation, capabilities and log level the older
// revisions' initialize and logging/setLevel carry, and the types both
// revisions' methods reach.
func (o *Older) ToOlder(definition string, v any) ([]byte, error) {
	b, err := encodeAny(v)
	if err != nil || b == nil {
		return nil, o.fail(err, true) // nil converts to none
	}
	p := o.t.Definitions + "/" + codec.EscapePointer(definition)
	if s, err := o.older(); err != nil {
		return nil, err
	} else if !s.Has(p) {
		return nil, o.fail(&ConversionError{Message: o.t.Revision + " has no definition " + strconv.Quote(definition)}, true)
	}
	if err := o.checkOlder(p, b); err != nil {
		return nil, o.fail(convInvalid(o.t.Revision, err), true)
	}
	return b, nil
}

// Validate checks data against the part of the older revision's schema at
// path, a JSON pointer below its definitions ("/InitializeResult",
// "/InitializeRequest/properties/params"): for the messages no conversion
// carries, such as the initialize handshake, which a tap between a client
// and a server checks as they pass.
func (o *Older) Validate(path string, data []byte) error {
	s, err := o.older()
	if err != nil {
		return err
	}
	p := o.t.Definitions + path
	if !s.Has(p) {
		return o.fail(&ConversionError{Message: o.t.Revision + "'s schema has no " + strconv.Quote(path) + " below its definitions"}, false)
	}
	return o.checkOlder(p, data)
}

// FromOlder converts the older revision's JSON of a definition to a value
// of this package's type for it, as ToOlder does the other way.
func (o *Older) FromOlder(definition string, data []byte) (any, error) {
	p := o.t.Definitions + "/" + codec.EscapePointer(definition)
	s, err := o.older()
	if err != nil {
		return nil, err
	}
	v, ok := o.t.NewValue(definition)
	if !ok || !s.Has(p) {
		return nil, o.fail(&ConversionError{Message: "both revisions do not declare " + strconv.Quote(definition)}, false)
	}
	if err := o.checkOlder(p, data); err != nil {
		return nil, err
	}
	return v, o.fail(o.decodeNew(data, v), false)
}

// encodeAny encodes a value of a generated package (nil, typed or not,
// for none).
func encodeAny(v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return nil, nil
	}
	a, ok := v.(interface {
		AppendJSON([]byte) ([]byte, error)
	})
	if !ok {
		return nil, &ConversionError{Message: "a value of type " + typeName(v) + " has no JSON form"}
	}
	b, err := a.AppendJSON(nil)
	if err != nil {
		return nil, &ConversionError{Message: "cannot encode the value: " + err.Error()}
	}
	if string(b) == "null" {
		return nil, nil
	}
	return b, nil
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }

// checkType fails unless v is of the type make returns, or make returns a
// union's holder (whose Value field any branch of the union goes in).
func checkType(v any, make func() Value) error {
	if v == nil || make == nil {
		return nil
	}
	want := make()
	if reflect.TypeOf(v) == reflect.TypeOf(want) {
		return nil
	}
	if rt := reflect.TypeOf(want); rt.Kind() == reflect.Pointer && rt.Elem().Kind() == reflect.Struct {
		if f, ok := rt.Elem().FieldByName("Value"); ok && f.Type.Kind() == reflect.Interface {
			if reflect.TypeOf(v).Implements(f.Type) {
				return nil
			}
		}
	}
	name := typeName(want)
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = "*" + name[i+1:]
	}
	return &ConversionError{Message: "want " + name + ", got " + typeName(v)}
}

// dropEra leaves the era members out of a message (params, or a result
// when result is set): their _meta keys, and a result's members; a _meta
// that only held era members goes too.
func dropEra(msg []byte, result bool) []byte {
	if result {
		var names []string
		for _, m := range spec.EraMembers {
			if m.Where == spec.InMessage {
				names = append(names, m.Name)
			}
		}
		msg = dropMembers(msg, names...)
	}
	meta := codec.Lookup(msg, spec.MemberMeta)
	if meta == nil || meta[0] != '{' {
		return msg
	}
	var keys []string
	for _, m := range spec.EraMembers {
		if m.Where == spec.InMeta {
			keys = append(keys, m.Name)
		}
	}
	rest := dropMembers(meta, keys...)
	switch {
	case len(rest) == len(meta):
		return msg
	case emptyObject(rest):
		return dropMembers(msg, spec.MemberMeta)
	}
	return setMember(msg, spec.MemberMeta, rest)
}

// ConversionError reports a value that one revision cannot carry to
// another: a member, a union branch (a content kind) or an enum value the
// target revision lacks, or a member it requires that the value lacks.
type ConversionError struct {
	// Revision is the older revision; ToOlder says the direction.
	Revision string
	ToOlder  bool
	// Pointer is the JSON pointer of the value within the message (params
	// or result) being converted; "" for the whole of it.
	Pointer string
	// Message says what is missing.
	Message string
	// Err is the target revision's verdict on a converted value it does
	// not accept (a *ValidationError), or nil.
	Err error
}

// Unwrap returns Err.
func (e *ConversionError) Unwrap() error { return e.Err }

func (e *ConversionError) Error() string {
	var b strings.Builder
	switch {
	case e.Revision != "" && e.ToOlder:
		b.WriteString("converting to " + e.Revision + ": ")
	case e.Revision != "":
		b.WriteString("converting from " + e.Revision + ": ")
	}
	if e.Pointer != "" {
		b.WriteString(e.Pointer + ": ")
	}
	b.WriteString(e.Message)
	if e.Err != nil && !e.fromErr() {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// fromErr reports whether Pointer and Message are Err's first violation.
func (e *ConversionError) fromErr() bool {
	var ve *codec.ValidationError
	return errors.As(e.Err, &ve) && len(ve.Violations) > 0 && ve.Violations[0].Pointer == e.Pointer &&
		strings.HasPrefix(e.Message, ve.Violations[0].Message)
}

// convInvalid reports a converted value that the target revision's schema
// does not accept: where and why its first violation says, and the rest
// in Err (a *ValidationError), or a *SyntaxError in Err.
func convInvalid(revision string, err error) error {
	ce := &ConversionError{Message: revision + "'s schema does not accept the converted value", Err: err}
	var ve *codec.ValidationError
	if errors.As(err, &ve) && len(ve.Violations) > 0 {
		v := ve.Violations[0]
		ce.Pointer, ce.Message = v.Pointer, v.Message
		if n := len(ve.Violations) - 1; n > 0 {
			ce.Message += " (and " + strconv.Itoa(n) + " more)"
		}
	}
	return ce
}

// addMembers returns the object data with the fills it lacks added at its
// start; anything but an object comes back as it is. The members of data
// are copied as they are, not decoded: one allocation of about the size
// of data, none when it lacks none of the fills.
func addMembers(data []byte, fills []Fill) []byte {
	if len(fills) == 0 {
		return data
	}
	d := codec.Decoder{Data: data, AllowDup: true}
	if !d.Object() {
		return data
	}
	var hasBuf [8]bool
	var has []bool
	if len(fills) > len(hasBuf) {
		has = make([]bool, len(fills))
	} else {
		has = hasBuf[:len(fills)]
	}
	for first := true; d.NextMember(&first); {
		for i := range fills {
			if fills[i].Name == d.Key {
				has[i] = true
			}
		}
		d.Skip()
	}
	if d.Failed() {
		return data
	}
	size := len(data) + 1
	missing := false
	for i, f := range fills {
		if !has[i] {
			size += len(f.Name) + len(f.JSON) + 8
			missing = true
		}
	}
	if !missing {
		return data
	}
	e := codec.Encoder{Buf: make([]byte, 0, size)}
	e.Buf = append(e.Buf, '{')
	for i, f := range fills {
		if !has[i] {
			e.Key(f.Name)
			e.Buf = append(e.Buf, f.JSON...)
		}
	}
	rest := bytes.TrimSpace(bytes.TrimSpace(data)[1:]) // after the {
	if len(rest) > 0 && rest[0] != '}' {
		e.Buf = append(e.Buf, ',')
	}
	return append(e.Buf, rest...)
}

// addPairs is addMembers for name, JSON, name, JSON, ...
func addPairs(data []byte, pairs ...string) []byte {
	fills := make([]Fill, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		fills = append(fills, Fill{pairs[i], pairs[i+1]})
	}
	return addMembers(data, fills)
}

// memberSpan is where one member of an object is in its JSON: from its
// name's quote to the end of its value.
type memberSpan struct{ start, end int }

// dropMembers returns the object data without the named members; data is
// not changed. Anything but an object comes back as it is. The other
// members are copied as they are: nothing is allocated when none of the
// names is there, else one buffer of at most the size of data.
func dropMembers(data []byte, names ...string) []byte {
	d := codec.Decoder{Data: data, AllowDup: true}
	if !d.Object() {
		return data
	}
	var dropBuf [4]memberSpan
	drop := dropBuf[:0]
	for first := true; d.NextMember(&first); {
		start := d.KeyPos
		named := slices.Contains(names, d.Key)
		d.Skip()
		if named {
			drop = append(drop, memberSpan{start, d.Pos})
		}
	}
	if d.Failed() || len(drop) == 0 {
		return data
	}
	// Copy the spans between the dropped members, and the commas that
	// separate what is kept.
	out := make([]byte, 0, len(data))
	out = append(out, '{')
	d = codec.Decoder{Data: data, AllowDup: true}
	d.Object()
	kept := 0
	for first := true; d.NextMember(&first); {
		start := d.KeyPos
		d.Skip()
		if len(drop) > 0 && drop[0].start == start {
			drop = drop[1:]
			continue
		}
		if kept > 0 {
			out = append(out, ',')
		}
		out = append(out, data[start:d.Pos]...)
		kept++
	}
	return append(out, '}')
}

// setMember returns the object data with member name set to value (in
// place of the member, or at the start): one copy of data, its other
// members as they are.
func setMember(data []byte, name string, value []byte) []byte {
	d := codec.Decoder{Data: data, AllowDup: true}
	if !d.Object() {
		return data
	}
	for first := true; d.NextMember(&first); {
		if d.Key != name {
			d.Skip()
			continue
		}
		// Replace the value in place.
		d.Peek()
		start := d.Pos
		d.Skip()
		if d.Failed() {
			return data
		}
		out := make([]byte, 0, len(data)-(d.Pos-start)+len(value))
		out = append(out, data[:start]...)
		out = append(out, value...)
		return append(out, data[d.Pos:]...)
	}
	if d.Failed() {
		return data
	}
	return addMembers(data, []Fill{{name, string(value)}})
}

// emptyObject reports whether data is the JSON object {}.
func emptyObject(data []byte) bool {
	d := codec.Decoder{Data: data}
	if !d.Object() {
		return false
	}
	first := true
	return !d.NextMember(&first) && !d.Failed()
}

// toOlderJSON checks JSON of this package's definition against the older
// revision's schema of it.
func (o *Older) toOlderJSON(definition string, b []byte) ([]byte, error) {
	p := o.t.Definitions + "/" + codec.EscapePointer(definition)
	if err := o.checkOlder(p, b); err != nil {
		return nil, o.fail(convInvalid(o.t.Revision, err), true)
	}
	return b, nil
}
