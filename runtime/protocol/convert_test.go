package protocol

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

func TestConversionErrorText(t *testing.T) {
	ve := &codec.ValidationError{Violations: []codec.Violation{{Pointer: "/a", Keyword: "type", Message: "bad"}, {Pointer: "/b", Keyword: "type", Message: "worse"}}}
	cases := []struct {
		err  error
		want string
	}{
		{&ConversionError{Revision: "2025-03-26", ToOlder: true, Pointer: "/content/1", Message: "no ResourceLink"}, "converting to 2025-03-26: /content/1: no ResourceLink"},
		{&ConversionError{Revision: "2025-03-26", Message: "m"}, "converting from 2025-03-26: m"},
		{&ConversionError{Message: "m", Err: ve}, "m: 2 violations: /a: bad (type); /b: worse (type)"},
		// The target's verdict: its first violation says where and why.
		{convInvalid("r", ve), "/a: bad (and 1 more)"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
	var got *codec.ValidationError
	if !errors.As(convInvalid("r", ve), &got) || got != ve {
		t.Error("convInvalid does not unwrap to the violations")
	}
}

func TestDropMembers(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a":1,"b":{"c":2},"d":"x"}`, `{"a":1,"d":"x"}`},
		{` { "b" : 1 } `, `{}`},
		{`{"a":1}`, `{"a":1}`},            // nothing to drop: the same bytes
		{`[1,2]`, `[1,2]`},                // not an object
		{`{"\u0062":1,"z":2}`, `{"z":2}`}, // names compare decoded
		{`{"é\n":1,"b":2}`, `{"é\n":1}`},  // kept names are written as JSON
	}
	for _, c := range cases {
		if got := string(dropMembers([]byte(c.in), "b")); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
	in := []byte(`{"a":1,"b":2}`)
	dropMembers(in, "b")
	if string(in) != `{"a":1,"b":2}` {
		t.Error("the input changed")
	}
}

func TestAddMembers(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{}`, `{"v":"","c":{}}`},
		{` { } `, `{"v":"","c":{}}`},
		{`{"c":{"x":1}}`, `{"v":"","c":{"x":1}}`},
		{`{"v":"1","c":{},"k":2}`, `{"v":"1","c":{},"k":2}`},
		{`{"k":2}`, `{"v":"","c":{},"k":2}`},
		{`"s"`, `"s"`},
	}
	for _, c := range cases {
		got := addPairs([]byte(c.in), "v", `""`, "c", `{}`)
		if string(got) != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
		if json.Valid([]byte(c.in)) && !json.Valid(got) {
			t.Errorf("%s: %s is not JSON", c.in, got)
		}
	}
}

func TestDropEra(t *testing.T) {
	cases := []struct {
		in, want string
		result   bool
	}{
		{`{"resultType":"complete","ttlMs":5,"cacheScope":"public","tools":[]}`, `{"tools":[]}`, true},
		{`{"resultType":"complete"}`, `{"resultType":"complete"}`, false}, // params keep their members
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":"v","progressToken":1},"name":"t"}`, `{"_meta":{"progressToken":1},"name":"t"}`, false},
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":"v"},"name":"t"}`, `{"name":"t"}`, false}, // a _meta of era keys only goes
		{`{"_meta":{},"name":"t"}`, `{"_meta":{},"name":"t"}`, false},                                   // one without any stays
		{`{"_meta":null}`, `{"_meta":null}`, true},
	}
	for _, c := range cases {
		if got := string(dropEra([]byte(c.in), c.result)); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

// value is a Value of this test: a JSON object with a required "name".
type value struct {
	raw json.RawMessage
}

func (v *value) UnmarshalJSON(b []byte) error { v.raw = append(v.raw[:0], b...); return nil }
func (v *value) AppendJSON(b []byte) ([]byte, error) {
	if v.raw == nil {
		return append(b, "{}"...), nil
	}
	return append(b, v.raw...), nil
}
func (v *value) Validate() error {
	if codec.Lookup(v.raw, "name") == nil && codec.Lookup(v.raw, "n") == nil {
		return &codec.ValidationError{Violations: []codec.Violation{{Keyword: "required", Message: `missing required member "name"`}}}
	}
	return nil
}

const testOlderSchema = `{"$defs": {
	"CallRequest": {"type": "object", "properties": {"method": {"const": "b/call"}, "params": {"type": "object", "properties": {"name": {"type": "string"}, "_meta": {"type": "object"}}, "required": ["name"]}}},
	"CallResult": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
	"Note": {"type": "object", "properties": {"params": {"type": "object"}}}
}}`

// TestOlderTable: the table checks the older side against the embedded
// schema, fills and drops the era members, names the revision and the
// direction in its errors, and refuses what it does not carry.
func TestOlderTable(t *testing.T) {
	newValue := func() Value { return new(value) }
	o := NewOlder(OlderTable{
		Revision: "2020-01-01", This: "2030-01-01", Schema: testOlderSchema, Definitions: "/$defs",
		NewValue: func(def string) (Value, bool) { return new(value), def == "CallResult" },
		Methods: []OlderMethod{
			{Name: "b/call", Params: "/$defs/CallRequest/properties/params", Result: "/$defs/CallResult", ParamsRequired: true, NewParamsRequired: true,
				NewParams: newValue, NewResult: newValue,
				ParamsMeta: []Fill{{"io.modelcontextprotocol/protocolVersion", `""`}}, ResultFill: []Fill{{"resultType", `"complete"`}}},
			{Name: "a/note", Notification: true, ToClient: true, Params: "/$defs/Note/properties/params", NewParams: newValue},
		},
	})
	if got := o.Methods(); !slices.Equal(got, []string{"a/note", "b/call"}) {
		t.Errorf("methods %v", got)
	}
	if !o.Carries("b/call") || o.Carries("c") || o.Revision() != "2020-01-01" || !o.notification("a/note") {
		t.Error("Carries, Revision or notification")
	}
	v, err := o.ParamsFromOlder("b/call", []byte(`{"name":"x","extra":1}`))
	if err != nil || string(v.(*value).raw) != `{"_meta":{"io.modelcontextprotocol/protocolVersion":""},"name":"x","extra":1}` {
		t.Errorf("ParamsFromOlder: %s, %v", v.(*value).raw, err)
	}
	check := func(err error, toOlder bool, pointer, message string) {
		t.Helper()
		var ce *ConversionError
		if !errors.As(err, &ce) || ce.Revision != "2020-01-01" || ce.ToOlder != toOlder || ce.Pointer != pointer || ce.Message != message {
			t.Errorf("got %#v (%v)", err, err)
		}
	}
	// The older side's own verdict comes as it is.
	var ve *codec.ValidationError
	if _, err := o.ParamsFromOlder("b/call", []byte(`{"name":5}`)); !errors.As(err, &ve) || ve.Violations[0].Pointer != "/name" {
		t.Errorf("older params of the wrong type: %v", err)
	}
	var se *codec.SyntaxError
	if _, err := o.ParamsFromOlder("b/call", []byte(`{"name":`)); !errors.As(err, &se) {
		t.Errorf("malformed older params: %v", err)
	}
	b, err := o.ParamsToOlder("b/call", &value{raw: json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"v"},"name":"y"}`)})
	if err != nil || string(b) != `{"name":"y"}` {
		t.Errorf("ParamsToOlder: %s, %v", b, err)
	}
	_, err = o.ParamsToOlder("b/call", &value{raw: json.RawMessage(`{"name":1}`)})
	check(err, true, "/name", "expected string, got number")
	_, err = o.ParamsToOlder("b/call", 1)
	check(err, true, "", "want *value, got int")
	_, err = o.ParamsToOlder("b/call", nil)
	check(err, true, "", "2020-01-01 requires the params of b/call")
	r, err := o.ResultFromOlder("b/call", []byte(`{"n":1}`))
	if err != nil || string(r.(*value).raw) != `{"resultType":"complete","n":1}` {
		t.Errorf("ResultFromOlder: %v, %v", r, err)
	}
	if b, err := o.ResultToOlder("b/call", r); err != nil || string(b) != `{"n":1}` {
		t.Errorf("ResultToOlder: %s, %v", b, err)
	}
	_, err = o.ResultToOlder("b/call", &value{raw: json.RawMessage(`{"n":1.5}`)})
	check(err, true, "/n", "expected integer, got 1.5")
	_, err = o.ResultToOlder("a/note", nil)
	check(err, true, "", "a/note is a notification: it has no result")
	_, err = o.ParamsFromOlder("c", nil)
	check(err, false, "", `method "c" is not carried by both revisions`)
	// This revision's verdict on what comes from the older one.
	_, err = o.ParamsFromOlder("a/note", []byte(`{}`))
	check(err, false, "", `missing required member "name"`)
	if b, err := o.ToOlder("CallResult", &value{raw: json.RawMessage(`{"n":2}`)}); err != nil || string(b) != `{"n":2}` {
		t.Errorf("ToOlder: %s, %v", b, err)
	}
	_, err = o.ToOlder("Missing", &value{})
	check(err, true, "", `2020-01-01 has no definition "Missing"`)
	if _, err := o.FromOlder("CallResult", []byte(`{"n":"x"}`)); !errors.As(err, &ve) {
		t.Errorf("FromOlder of an invalid value: %v", err)
	}
}

// TestOlderBadSchema: a table whose schema does not compile (a bug in
// mcpgen) fails each conversion, and says so, without a panic.
func TestOlderBadSchema(t *testing.T) {
	o := NewOlder(OlderTable{Revision: "r", Schema: `{"$defs": {"A": {"uniqueItems": true}}}`, Definitions: "/$defs",
		Methods: []OlderMethod{{Name: "m", Params: "/$defs/A"}}})
	if _, err := o.ParamsFromOlder("m", []byte(`{}`)); err == nil {
		t.Error("no error")
	}
}
