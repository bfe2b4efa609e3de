package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// schemaRevision is the revision a check with a schema of its own
// (Options.Schema) runs: the exchanges and rules of the pinned revision
// rules, the protocolVersion version on the wire, and every message
// validated against the given schema by the runtime's own validator
// (codec.Schema) instead of rules' generated package. Its methods are
// rules' (direction, caching, input requests) that the schema also has: a
// request or notification is found by the definition whose "method" is
// that name as a const, its params at that definition's
// /properties/params, its result by the name of rules' result type.
func schemaRevision(rules *revision, version string, doc []byte) (*revision, error) {
	s, err := codec.CompileSchema(doc)
	if err != nil {
		return nil, err
	}
	var top struct {
		Defs        map[string]json.RawMessage `json:"$defs"`
		Definitions map[string]json.RawMessage `json:"definitions"`
	}
	if err := json.Unmarshal(doc, &top); err != nil {
		return nil, err
	}
	defsKey, defs := "/$defs/", top.Defs
	if len(defs) == 0 {
		defsKey, defs = "/definitions/", top.Definitions
	}
	if len(defs) == 0 {
		return nil, errors.New("the schema has no definitions ($defs or definitions)")
	}
	defPointer := func(name string) (string, bool) {
		p := defsKey + escapeToken(name)
		return p, s.Has(p)
	}
	// The definition of each method: the one whose properties.method is a
	// const (the first by name when two are).
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	methodDef := map[string]string{}
	for _, n := range names {
		var d struct {
			Properties struct {
				Method struct {
					Const *string `json:"const"`
				} `json:"method"`
			} `json:"properties"`
		}
		if json.Unmarshal(defs[n], &d) != nil || d.Properties.Method.Const == nil {
			continue
		}
		if _, dup := methodDef[*d.Properties.Method.Const]; !dup {
			methodDef[*d.Properties.Method.Const] = n
		}
	}
	valueAt := func(p string) func() value {
		if !s.Has(p) {
			return nil
		}
		return func() value { return &schemaValue{s: s, pointer: p} }
	}
	r := &revision{name: version, rules: rules.name, requests: map[string]method{}, notes: map[string]method{}}
	r.newValue = func(d string) (value, bool) {
		p, ok := defPointer(d)
		if !ok {
			return nil, false
		}
		return &schemaValue{s: s, pointer: p}, true
	}
	r.check = func(b []byte, v value) error {
		if err := v.UnmarshalJSON(b); err != nil {
			return err
		}
		return v.Validate()
	}
	r.violations = func(err error) ([]violation, bool) {
		var ve *codec.ValidationError
		if !errors.As(err, &ve) {
			return nil, false
		}
		out := make([]violation, len(ve.Violations))
		for i, v := range ve.Violations {
			out[i] = violation{v.Pointer, v.Keyword, v.Message}
		}
		return out, true
	}
	add := func(to map[string]method, from map[string]method) {
		for name, m := range from {
			def, ok := methodDef[name]
			if !ok {
				continue
			}
			out := method{cacheable: m.cacheable, inputRequired: m.inputRequired}
			if m.newParams != nil {
				p, _ := defPointer(def)
				out.newParams = valueAt(p + "/properties/params")
			}
			if m.newResult != nil {
				if p, ok := defPointer(typeName(m.newResult())); ok {
					out.newResult = valueAt(p)
				}
			}
			to[name] = out
		}
	}
	add(r.requests, rules.requests)
	add(r.notes, rules.notes)
	if len(r.requests) == 0 {
		return nil, fmt.Errorf("the schema has none of the requests of %s (no definition with a \"method\" const)", rules.name)
	}
	return r, nil
}

// typeName is the name of the type of a generated package's value (a
// pointer to a named type): the definition's name.
func typeName(v value) string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

// escapeToken writes a name as a JSON pointer token.
func escapeToken(name string) string {
	var b bytes.Buffer
	for _, c := range name {
		switch c {
		case '~':
			b.WriteString("~0")
		case '/':
			b.WriteString("~1")
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// schemaValue is a value of a schema given to check: UnmarshalJSON keeps
// the bytes, Validate checks them against the subschema at pointer.
type schemaValue struct {
	s       *codec.Schema
	pointer string
	data    []byte
}

func (v *schemaValue) UnmarshalJSON(b []byte) error {
	v.data = append(v.data[:0], b...)
	return nil
}

func (v *schemaValue) Validate() error { return v.s.Validate(v.pointer, v.data) }
