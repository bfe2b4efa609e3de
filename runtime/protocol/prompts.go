package protocol

import (
	"encoding"
	"errors"
	"reflect"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// This file is the runtime of AddPrompt: a Go struct as the arguments of a
// prompt (prompts/get takes a map of strings).
//
// The rules, for a struct type:
//   - A field's argument name comes from its json tag, else its Go name;
//     `json:"-"` and unexported fields are left out (embedded structs are
//     not read: name the fields).
//   - A field is required unless it has omitempty or omitzero, or is a
//     pointer.
//   - `jsonschema:"text"` is the argument's description.
//   - A field is a string, a pointer to one, a bool, an integer or a float
//     (the string parsed as Go's strconv parses it), or a type that
//     implements encoding.TextUnmarshaler.
//   - map[string]string takes every argument as it comes, and struct{}
//     none.

// PromptArg is one argument a prompt declares.
type PromptArg struct {
	Name        string
	Description string
	Required    bool
}

// PromptArgs is the plan of a prompt's arguments type.
type PromptArgs struct {
	typ    reflect.Type
	isMap  bool
	args   []PromptArg
	fields []promptField
}

type promptField struct {
	index int
	kind  reflect.Kind
	ptr   bool
	text  bool // an encoding.TextUnmarshaler
}

// NewPromptArgs returns the plan of In for the prompt named prompt, or
// panics with what in In cannot be a prompt argument: adding a prompt is
// a program's own setup.
func NewPromptArgs[In any](prompt string) *PromptArgs {
	p, err := newPromptArgs(reflect.TypeFor[In]())
	if err != nil {
		panic("mcp: prompt " + codec.Quote(prompt) + ": arguments type: " + err.Error())
	}
	return p
}

func newPromptArgs(t reflect.Type) (*PromptArgs, error) {
	p := &PromptArgs{typ: t}
	if t.Kind() == reflect.Map && t.Key().Kind() == reflect.String && t.Elem().Kind() == reflect.String {
		p.isMap = true
		return p, nil
	}
	if t.Kind() != reflect.Struct {
		return nil, errors.New(t.String() + " is not a struct or a map[string]string: prompt arguments are named strings")
	}
	seen := map[string]bool{}
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" || !sf.IsExported() {
			continue
		}
		if sf.Anonymous {
			return nil, errors.New(t.String() + "." + sf.Name + ": embedded fields are not read; name the field")
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		if seen[name] {
			return nil, errors.New(t.String() + "." + sf.Name + ": the argument " + codec.Quote(name) + " is declared twice")
		}
		seen[name] = true
		f := promptField{index: i}
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			f.ptr, ft = true, ft.Elem()
		}
		f.kind = ft.Kind()
		switch {
		case reflect.PointerTo(ft).Implements(reflect.TypeFor[encoding.TextUnmarshaler]()):
			f.text = true
		case f.kind == reflect.String, f.kind == reflect.Bool, f.kind >= reflect.Int && f.kind <= reflect.Uint64, f.kind == reflect.Float32, f.kind == reflect.Float64:
		default:
			return nil, errors.New(t.String() + "." + sf.Name + ": type " + sf.Type.String() + " cannot hold a prompt argument (a string, a number, a bool, or an encoding.TextUnmarshaler)")
		}
		omit := strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
		a := PromptArg{Name: name, Description: sf.Tag.Get("jsonschema"), Required: !omit && !f.ptr}
		p.args = append(p.args, a)
		p.fields = append(p.fields, f)
	}
	return p, nil
}

// Args are the arguments the prompt declares, in field order.
func (p *PromptArgs) Args() []PromptArg { return p.args }

// Decode fills dst (a pointer to the plan's type) from the arguments of a
// prompts/get. A missing required argument, an undeclared one, or a value
// its field cannot hold is invalid params (-32602), the error prompts.mdx
// gives invalid arguments.
func (p *PromptArgs) Decode(prompt string, args map[string]string, dst any) error {
	v := reflect.ValueOf(dst).Elem()
	if p.isMap {
		m := make(map[string]string, len(args))
		for k, a := range args {
			m[k] = a
		}
		v.Set(reflect.ValueOf(m).Convert(p.typ))
		return nil
	}
	bad := func(msg string) error {
		return &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid arguments for prompt " + codec.Quote(prompt) + ": " + msg}
	}
	for k := range args {
		known := false
		for _, a := range p.args {
			if a.Name == k {
				known = true
				break
			}
		}
		if !known {
			return bad("unknown argument " + codec.Quote(k))
		}
	}
	for i, a := range p.args {
		s, ok := args[a.Name]
		if !ok {
			if a.Required {
				return bad("missing required argument " + codec.Quote(a.Name))
			}
			continue
		}
		f := p.fields[i]
		fv := v.Field(f.index)
		if f.ptr {
			nv := reflect.New(fv.Type().Elem())
			fv.Set(nv)
			fv = nv.Elem()
		}
		if err := setPromptValue(fv, f, s); err != nil {
			return bad("argument " + codec.Quote(a.Name) + ": " + err.Error())
		}
	}
	return nil
}

func setPromptValue(v reflect.Value, f promptField, s string) error {
	if f.text {
		return v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s))
	}
	switch f.kind {
	case reflect.String:
		v.SetString(s)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return errors.New(codec.Quote(s) + " is not a boolean")
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, v.Type().Bits())
		if err != nil {
			return errors.New(codec.Quote(s) + " is not an integer of " + v.Type().String() + "'s range")
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, v.Type().Bits())
		if err != nil {
			return errors.New(codec.Quote(s) + " is not an integer of " + v.Type().String() + "'s range")
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		n, err := strconv.ParseFloat(s, v.Type().Bits())
		if err != nil {
			return errors.New(codec.Quote(s) + " is not a number")
		}
		v.SetFloat(n)
	}
	return nil
}
