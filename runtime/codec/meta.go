package codec

import "encoding/json"

// This file reads and writes one member of a JSON object held as raw
// JSON: the generated MetaValue and SetMetaValue methods use it for
// _meta, whatever Go type a message's _meta has.

// MetaGet returns the member key of the JSON object meta, and whether meta
// has one. A meta that is empty or not an object has none.
func MetaGet(meta []byte, key string) (json.RawMessage, bool) {
	v := Lookup(meta, key)
	return v, v != nil
}

// MetaSet returns the JSON object meta with its member key set to value,
// in place of a member of that name, or appended; a nil value removes the
// member. An empty meta counts as {}. It fails when meta is not a JSON
// object or value is not one JSON value; meta itself is not changed.
func MetaSet(meta []byte, key string, value json.RawMessage) ([]byte, error) {
	if value != nil {
		var d Decoder
		d.InitShared(value)
		d.Skip()
		if err := d.Finish(); err != nil {
			return nil, &EncodeError{Msg: "the value of " + Quote(key) + " is not one JSON value: " + err.Error()}
		}
	}
	var e Encoder
	e.Buf = append(make([]byte, 0, len(meta)+len(key)+len(value)+4), '{')
	if len(meta) > 0 {
		var d Decoder
		d.InitShared(meta)
		if d.Peek() != '{' {
			return nil, &EncodeError{Msg: "_meta is not a JSON object"}
		}
		// The whole object first: its syntax, and no name twice.
		d.Skip()
		if err := d.Finish(); err != nil {
			return nil, err
		}
		d = Decoder{}
		d.InitShared(meta)
		d.Object()
		for first := true; d.NextMember(&first); {
			name := d.Key
			raw := d.Raw()
			if name == key {
				if value == nil {
					continue
				}
				raw, value = value, nil // in its place
			}
			e.Key(name)
			e.Buf = append(e.Buf, raw...)
		}
	}
	if value != nil {
		e.Key(key)
		e.Buf = append(e.Buf, value...)
	}
	return append(e.Buf, '}'), nil
}

// MetaStruct is a generated struct type of _meta, through its pointer.
type MetaStruct[T any] interface {
	*T
	AppendJSON([]byte) ([]byte, error)
	UnmarshalJSON([]byte) error
}

// MetaGetStruct is MetaGet on the JSON of the struct m points to (nil:
// it has no members).
func MetaGetStruct[T any, P MetaStruct[T]](m P, key string) (json.RawMessage, bool) {
	if m == nil {
		return nil, false
	}
	b, err := m.AppendJSON(nil)
	if err != nil {
		return nil, false
	}
	return MetaGet(b, key)
}

// MetaSetStruct is MetaSet on the struct *m points to (nil counts as no
// members): its JSON with the member set, decoded into a new struct that
// *m then points to. A value a typed member cannot hold fails, and *m is
// left as it was.
func MetaSetStruct[T any, P MetaStruct[T]](m *P, key string, value json.RawMessage) error {
	var b []byte
	if *m != nil {
		var err error
		if b, err = (*m).AppendJSON(nil); err != nil {
			return err
		}
	}
	t, err := metaDecode[T, P](b, key, value)
	if err != nil {
		return err
	}
	*m = t
	return nil
}

// MetaSetValue is MetaSetStruct for a _meta held by value.
func MetaSetValue[T any, P MetaStruct[T]](m P, key string, value json.RawMessage) error {
	b, err := m.AppendJSON(nil)
	if err != nil {
		return err
	}
	t, err := metaDecode[T, P](b, key, value)
	if err != nil {
		return err
	}
	*m = *t
	return nil
}

func metaDecode[T any, P MetaStruct[T]](b []byte, key string, value json.RawMessage) (P, error) {
	b, err := MetaSet(b, key, value)
	if err != nil {
		return nil, err
	}
	t := P(new(T))
	if err := t.UnmarshalJSON(b); err != nil {
		return nil, err
	}
	return t, nil
}

// MetaSetRaw is MetaSet on a _meta of raw JSON, in place.
func MetaSetRaw[R ~[]byte](m *R, key string, value json.RawMessage) error {
	b, err := MetaSet(*m, key, value)
	if err != nil {
		return err
	}
	*m = R(b)
	return nil
}
