package protocol

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

func TestConvPathPointer(t *testing.T) {
	if p := ConvRoot.pointer(); p != "" {
		t.Errorf("root: %q", p)
	}
	p := ConvRoot.Member("content").Elem(2).Member("a/b~c").Member("")
	if got, want := p.pointer(), "/content/2/a~1b~0c/"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	err := ConvFail(ConvRoot.Member("x"), "no")
	if got := err.Error(); got != "/x: no" {
		t.Errorf("got %q", got)
	}
}

func TestConversionErrorText(t *testing.T) {
	cases := []struct {
		err  ConversionError
		want string
	}{
		{ConversionError{Revision: "2025-03-26", ToOlder: true, Pointer: "/content/1", Message: "no ResourceLink"}, "converting to 2025-03-26: /content/1: no ResourceLink"},
		{ConversionError{Revision: "2025-03-26", Message: "m"}, "converting from 2025-03-26: m"},
		{ConversionError{Message: "m", Err: &codec.ValidationError{Violations: []codec.Violation{{Pointer: "/a", Keyword: "type", Message: "bad"}}}}, "m: invalid: /a: bad (type)"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
	var ve *codec.ValidationError
	if !errors.As(ConvInvalid("r", &codec.ValidationError{}), &ve) {
		t.Error("convInvalid does not unwrap to the violations")
	}
}

func TestConvDropMembers(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a":1,"b":{"c":2},"d":"x"}`, `{"a":1,"d":"x"}`},
		{` { "b" : 1 } `, `{}`},
		{`{"a":1}`, `{"a":1}`},            // nothing to drop: the same bytes
		{`[1,2]`, `[1,2]`},                // not an object
		{`{"\u0062":1,"z":2}`, `{"z":2}`}, // names compare decoded
		{`{"é\n":1,"b":2}`, `{"é\n":1}`},  // kept names are written as JSON
	}
	for _, c := range cases {
		if got := string(ConvDropMembers([]byte(c.in), "b")); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
	in := []byte(`{"a":1,"b":2}`)
	ConvDropMembers(in, "b")
	if string(in) != `{"a":1,"b":2}` {
		t.Error("the input changed")
	}
}

func TestConvAddMembers(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{}`, `{"v":"","c":{}}`},
		{` { } `, `{"v":"","c":{}}`},
		{`{"c":{"x":1}}`, `{"v":"","c":{"x":1}}`},
		{`{"v":"1","c":{},"k":2}`, `{"v":"1","c":{},"k":2}`},
		{`{"k":2}`, `{"v":"","c":{},"k":2}`},
		{`"s"`, `"s"`},
	}
	for _, c := range cases {
		got := ConvAddMembers([]byte(c.in), "v", `""`, "c", `{}`)
		if string(got) != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
		if json.Valid([]byte(c.in)) && !json.Valid(got) {
			t.Errorf("%s: %s is not JSON", c.in, got)
		}
	}
}

func TestConvEmptyObject(t *testing.T) {
	for in, want := range map[string]bool{`{}`: true, ` { } `: true, `{"a":1}`: false, `[]`: false, `null`: false, ``: false} {
		if got := ConvEmptyObject([]byte(in)); got != want {
			t.Errorf("%q: got %v", in, got)
		}
	}
}

func TestConvExtraGet(t *testing.T) {
	m := map[string]json.RawMessage{"a": json.RawMessage(`[1]`)}
	b, ok, err := ConvExtraGet(m, "a", ConvRoot)
	if string(b) != `[1]` || !ok || err != nil {
		t.Errorf("got %s %v %v", b, ok, err)
	}
	if _, ok, _ := ConvExtraGet(m, "b", ConvRoot); ok {
		t.Error("found a member that is not there")
	}
	bad := map[string]json.RawMessage{"a": json.RawMessage(`{`)}
	if _, _, err := ConvExtraGet(bad, "a", ConvRoot.Member("x")); err == nil {
		t.Error("no error for JSON that does not encode")
	}
}

// TestOlderTable: the table fills in the revision and the direction of
// the errors the generated functions return, and refuses what it does not
// carry.
func TestOlderTable(t *testing.T) {
	fail := func(p *ConvPath) error { return ConvFail(p.Member("a"), "no") }
	o := NewOlder("2020-01-01", map[string]OlderMethod{
		"b/call": {
			ParamsUp:   func(b []byte) (any, error) { return string(b), nil },
			ParamsDown: func(v any) ([]byte, error) { return nil, fail(ConvRoot) },
			ResultUp:   func(b []byte) (any, error) { return nil, fail(ConvRoot) },
			ResultDown: func(v any) ([]byte, error) { return []byte(`{}`), nil },
		},
		"a/note": {Notification: true},
	}, func(v any) (any, error) { return nil, ConvWrongType(v, "T") }, func(v any) (any, error) { return v, nil })
	if got := o.Methods(); !slices.Equal(got, []string{"a/note", "b/call"}) {
		t.Errorf("methods %v", got)
	}
	if !o.Carries("b/call") || o.Carries("c") || o.Revision() != "2020-01-01" {
		t.Error("Carries or Revision")
	}
	if v, err := o.ParamsFromOlder("b/call", []byte("x")); v != "x" || err != nil {
		t.Errorf("got %v %v", v, err)
	}
	check := func(err error, toOlder bool, pointer string) {
		t.Helper()
		var ce *ConversionError
		if !errors.As(err, &ce) || ce.Revision != "2020-01-01" || ce.ToOlder != toOlder || ce.Pointer != pointer {
			t.Errorf("got %#v", err)
		}
	}
	_, err := o.ParamsToOlder("b/call", 1)
	check(err, true, "/a")
	_, err = o.ResultFromOlder("b/call", nil)
	check(err, false, "/a")
	_, err = o.ResultToOlder("a/note", nil)
	check(err, true, "")
	_, err = o.ParamsFromOlder("c", nil)
	check(err, false, "")
	_, err = o.ToOlder(1)
	check(err, true, "")
	if v, err := o.FromOlder(2); v != 2 || err != nil {
		t.Errorf("FromOlder: %v %v", v, err)
	}
}
