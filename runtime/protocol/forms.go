package protocol

import (
	"reflect"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
	"github.com/mcpgen/mcpgen/runtime/typeschema"
)

// This file is the runtime of a generated package's Form and FormValue:
// a form elicitation whose fields are a Go struct's (client/elicitation.mdx),
// and the decoding of the answer into one.

// formCodecs caches the codec of each struct type a form was made of.
var formCodecs sync.Map // reflect.Type -> *typeschema.Codec

// formCodec is the codec of T's fields, as AddTool derives them for tool
// arguments.
func formCodec[T any]() *typeschema.Codec {
	t := reflect.TypeFor[T]()
	if c, ok := formCodecs.Load(t); ok {
		return c.(*typeschema.Codec)
	}
	c, err := typeschema.ForInput(t)
	if err != nil {
		panic("mcp: form of " + t.String() + ": " + err.Error())
	}
	c2, _ := formCodecs.LoadOrStore(t, c)
	return c2.(*typeschema.Codec)
}

// SetFormSchema fills dst, the requestedSchema of a form elicitation, with
// the schema of T's fields: the schema AddTool derives from a struct (its
// json names, required unless optional, descriptions, enum and its
// titles, bounds, format, default), but for additionalProperties, which a form's schema does not
// have. It panics, naming T, when that is not a schema a form may hold
// (dst's decoding or Validate refuses it: a nested struct, a slice that is
// not of enum strings, ...).
func SetFormSchema[T any](dst interface {
	UnmarshalJSON([]byte) error
	Validate() error
}) {
	c := formCodec[T]()
	sch, err := codec.MetaSet(c.Schema(), "additionalProperties", nil)
	if err == nil {
		err = dst.UnmarshalJSON(sch)
	}
	if err == nil {
		err = dst.Validate()
	}
	if err != nil {
		panic("mcp: form of " + c.Type().String() + ": " + string(sch) + " is not a form's requestedSchema: " + err.Error())
	}
}

// elicitAccepted reports whether result, an elicitation's result as JSON,
// says the user accepted (submitted the form).
func elicitAccepted(result []byte) bool {
	a := codec.Lookup(result, "action")
	if len(a) == 0 || a[0] != '"' {
		return false
	}
	var d codec.Decoder
	d.InitShared(a)
	return d.Str() == spec.ElicitAccept
}

// formFields keeps of content (a form's answer, a JSON object; nil: none)
// the members T declares: a form's schema, unlike a tool's, lets an answer
// carry others, which T has no field for.
func formFields(c *typeschema.Codec, content []byte) ([]byte, error) {
	if content == nil {
		return []byte("{}"), nil
	}
	props := codec.Lookup(c.Schema(), "properties")
	var d codec.Decoder
	d.InitShared(content)
	if d.Peek() != '{' {
		return content, nil // the decoder says what is wrong
	}
	var e codec.Encoder
	e.Buf = append(make([]byte, 0, len(content)), '{')
	d.Object()
	for first := true; d.NextMember(&first); {
		name := d.Key
		raw := d.Raw()
		if codec.Lookup(props, name) == nil {
			continue
		}
		e.Key(name)
		e.Buf = append(e.Buf, raw...)
	}
	if err := d.Finish(); err != nil {
		return nil, err
	}
	return append(e.Buf, '}'), nil
}

// FormValue decodes the answer to a form elicitation (an ElicitResult, as
// JSON) into a T: ok is false, with the zero T and no error, when the user
// did not accept (action decline or cancel); an accepted content is
// checked against the schema of T's fields (SetFormSchema) and decoded as
// tool arguments are, and one it refuses is an error listing the
// violations. Members T does not declare are left out, as the form's
// schema allows them.
func FormValue[T any](result []byte) (v T, ok bool, err error) {
	if !elicitAccepted(result) {
		return v, false, nil
	}
	c := formCodec[T]()
	content, err := formFields(c, codec.Lookup(result, "content"))
	if err == nil {
		err = c.Decode(content, &v)
	}
	if err != nil {
		var zero T
		return zero, false, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "the form's answer does not fit " + c.Type().String() + ": " + err.Error()}
	}
	return v, true, nil
}
