package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// This file is the runtime of the conversions between a package's types
// and those of older revisions (mcpgen generate --serve-older). The
// conversions themselves are generated, one function per pair of types and
// direction; Older is the table that reaches them by method.

// Older converts the messages of one older MCP revision to this package's
// types and back: the params and results of every method both revisions
// carry, and the values of the definitions both declare. mcpgen generates
// one per revision given to --serve-older (Older20251125, ...); the older
// revision's own package, generated beside this one, reads and writes its
// JSON.
//
// The older side is always JSON: what an older peer sent, decoded and
// validated against the older revision's schema (its violations come back
// as this package's *ValidationError), or what to send to one, validated
// the same way before it is encoded. This package's side is Go values:
// the value a handler takes or returns (a pointer to the params or result
// struct, or a union's value), validated against this revision's schema.
//
// A value the other revision cannot carry is a *ConversionError naming
// where it is. The README lists the conversion rules and the members that
// are dropped on purpose (the era members the runtime handles itself).
type Older struct {
	revision string
	methods  map[string]OlderMethod
	names    []string
	to, from func(v any) (any, error)
}

// olderMethod is the generated conversions of one method.
type OlderMethod struct {
	Notification bool
	ParamsUp     func(params []byte) (any, error)
	ParamsDown   func(params any) ([]byte, error)
	ResultUp     func(result []byte) (any, error)
	ResultDown   func(result any) ([]byte, error)
}

// newOlder makes the table of one older revision.
func NewOlder(revision string, methods map[string]OlderMethod, to, from func(any) (any, error)) *Older {
	o := &Older{revision: revision, methods: methods, to: to, from: from}
	for name := range methods {
		o.names = append(o.names, name)
	}
	slices.Sort(o.names)
	return o
}

// Revision is the older revision's protocol version ("2025-11-25").
func (o *Older) Revision() string { return o.revision }

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

func (o *Older) method(name string, toOlder bool) (OlderMethod, error) {
	m, ok := o.methods[name]
	if !ok {
		return m, o.fail(&ConversionError{Message: "method " + strconv.Quote(name) + " is not carried by both revisions"}, toOlder)
	}
	return m, nil
}

// fail completes a conversion error with the revision and the direction.
func (o *Older) fail(err error, toOlder bool) error {
	if ce, ok := err.(*ConversionError); ok && ce.Revision == "" {
		ce.Revision, ce.ToOlder = o.revision, toOlder
	}
	return err
}

// ParamsFromOlder decodes the params of a request or notification as the
// older revision sends them (absent params are nil), validates them
// against its schema and converts them to this package's params.
func (o *Older) ParamsFromOlder(method string, params []byte) (any, error) {
	m, err := o.method(method, false)
	if err != nil {
		return nil, err
	}
	v, err := m.ParamsUp(params)
	return v, o.fail(err, false)
}

// ParamsToOlder converts params of this package (the type the method's
// handler takes; nil for none) to the older revision's, validates them
// against its schema and encodes them (nil when there are none).
func (o *Older) ParamsToOlder(method string, params any) ([]byte, error) {
	m, err := o.method(method, true)
	if err != nil {
		return nil, err
	}
	b, err := m.ParamsDown(params)
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
	v, err := m.ResultUp(result)
	return v, o.fail(err, false)
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
	b, err := m.ResultDown(result)
	return b, o.fail(err, true)
}

// ToOlder converts a value of this package to the older revision's type
// for the same definition: a pointer to a struct gives a pointer
// (*ServerCapabilities to *mcp20251125.ServerCapabilities), another value
// a value (LoggingLevel). The values it takes are those of the types both
// revisions' methods reach, and the implementation, capabilities and
// log level the older revisions' initialize and logging/setLevel carry.
// It converts; it does not validate.
func (o *Older) ToOlder(v any) (any, error) {
	x, err := o.to(v)
	return x, o.fail(err, true)
}

// FromOlder converts a value of the older revision's package to this
// package's type for the same definition, as ToOlder does the other way.
func (o *Older) FromOlder(v any) (any, error) {
	x, err := o.from(v)
	return x, o.fail(err, false)
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
	// Err is the older revision's verdict on a converted value it does not
	// accept (a *ValidationError of this package), or nil.
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
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// convInvalid reports a converted value that the target revision's schema
// does not accept (its violations, as this package's *ValidationError).
func ConvInvalid(revision string, err error) error {
	return &ConversionError{Message: revision + "'s schema does not accept the converted value", Err: err}
}

// convAddMembers returns the object data with the named members added
// where it lacks them (name, JSON value, name, JSON value, ...); anything
// but an object comes back as it is.
func ConvAddMembers(data []byte, pairs ...string) []byte {
	d := codec.Decoder{Data: data}
	if !d.Object() {
		return data
	}
	seen := map[string]bool{}
	for first := true; d.NextMember(&first); {
		seen[d.Key] = true
		d.Skip()
	}
	if d.Failed() {
		return data
	}
	e := codec.Encoder{Buf: []byte{'{'}}
	for i := 0; i+1 < len(pairs); i += 2 {
		if !seen[pairs[i]] {
			e.Key(pairs[i])
			e.Buf = append(e.Buf, pairs[i+1]...)
		}
	}
	if len(e.Buf) == 1 {
		return data
	}
	rest := bytes.TrimSpace(bytes.TrimSpace(data)[1:]) // after the {
	if len(rest) > 0 && rest[0] != '}' {
		e.Buf = append(e.Buf, ',')
	}
	return append(e.Buf, rest...)
}

// convPath is where a conversion is, as a chain from the innermost step
// out: a member name, or an array index. The generated conversions build
// it as they descend (member and elem are small enough to be inlined, so
// the steps stay on the stack); only an error turns it into a pointer.
type ConvPath struct {
	up     *ConvPath
	name   string
	index  int
	isElem bool // an array element, not a member
}

// convRoot is the path of a whole message (params or result).
var ConvRoot *ConvPath

// member is the path of the member name below p (p may be nil: the top).
func (p *ConvPath) Member(name string) *ConvPath { return &ConvPath{up: p, name: name} }

// elem is the path of the array element i below p.
func (p *ConvPath) Elem(i int) *ConvPath { return &ConvPath{up: p, index: i, isElem: true} }

// pointer is the JSON pointer of p.
func (p *ConvPath) pointer() string {
	var steps []string
	for ; p != nil; p = p.up {
		if p.isElem {
			steps = append(steps, strconv.Itoa(p.index))
		} else {
			steps = append(steps, codec.EscapePointer(p.name))
		}
	}
	slices.Reverse(steps)
	if len(steps) == 0 {
		return ""
	}
	return "/" + strings.Join(steps, "/")
}

// convFail is a conversion error at p.
func ConvFail(p *ConvPath, message string) error {
	return &ConversionError{Pointer: p.pointer(), Message: message}
}

// convMissing reports a member the target requires that the value lacks.
func ConvMissing(p *ConvPath, revision, member string) error {
	return ConvFail(p, revision+" requires "+strconv.Quote(member)+", which the value lacks")
}

// ConvNotAllowed reports a value the target's enum lacks.
func ConvNotAllowed(p *ConvPath, revision, value, allowed string) error {
	return ConvFail(p, revision+" has no value "+value+" here (it allows "+allowed+")")
}

// convEncode is the JSON of a value of either package (their encoders,
// through MarshalJSON).
func ConvEncode(v any, p *ConvPath) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, ConvFail(p, "cannot encode the value: "+err.Error())
	}
	return b, nil
}

// convDecode decodes JSON into a value of either package (its decoder,
// through UnmarshalJSON).
func ConvDecode(data []byte, v any, p *ConvPath, revision, typeName string) error {
	if err := json.Unmarshal(data, v); err != nil {
		return ConvFail(p, "the value does not fit "+revision+"'s "+typeName+": "+err.Error())
	}
	return nil
}

// convSplit decodes a JSON array or object into its elements or members
// as JSON, for the element by element decoding of a slice or map.
func ConvSplit[T any](data []byte, p *ConvPath) (T, error) {
	var out T
	if err := json.Unmarshal(data, &out); err != nil {
		return out, ConvFail(p, "the value does not fit: "+err.Error())
	}
	return out, nil
}

// convDropMembers returns the object data without the named members; data
// is not changed. Anything but an object comes back as it is.
func ConvDropMembers(data []byte, names ...string) []byte {
	d := codec.Decoder{Data: data}
	if !d.Object() {
		return data
	}
	e := codec.Encoder{Buf: []byte{'{'}}
	found := false
	for first := true; d.NextMember(&first); {
		if slices.Contains(names, d.Key) {
			found = true
			d.Skip()
			continue
		}
		e.Key(d.Key)
		e.Buf = append(e.Buf, d.Raw()...)
	}
	if d.Failed() || !found {
		return data
	}
	return append(e.Buf, '}')
}

// convEmptyObject reports whether data is the JSON object {}.
func ConvEmptyObject(data []byte) bool {
	d := codec.Decoder{Data: data}
	if !d.Object() {
		return false
	}
	first := true
	return !d.NextMember(&first) && !d.Failed()
}

// convPtr returns a pointer to a new variable holding v.
func ConvPtr[T any](v T) *T { return &v }

// convWrongType reports a value of another type than the conversion takes.
func ConvWrongType(v any, want string) error {
	return &ConversionError{Message: fmt.Sprintf("want %s, got %T", want, v)}
}

// convMissingParams is the violation of absent params a method requires.
func ConvMissingParams() error {
	return &codec.ValidationError{Violations: []codec.Violation{{Keyword: "required", Message: "params are required"}}}
}

// ConvExtraGet is the JSON of the unknown member name of a typed map of
// them, and whether there is one.
func ConvExtraGet[T any](m map[string]T, name string, p *ConvPath) (json.RawMessage, bool, error) {
	v, ok := m[name]
	if !ok {
		return nil, false, nil
	}
	b, err := ConvEncode(v, p)
	return b, true, err
}
