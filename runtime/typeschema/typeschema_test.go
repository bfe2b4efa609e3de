package typeschema

import (
	"encoding/json"
	"errors"
	"math"
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// The rules of the schema engine (typeschema.go, keywords.go), one test each, with the
// error texts pinned.

func mustCodec[T any](t *testing.T, output bool) *Codec {
	t.Helper()
	c, err := build(reflect.TypeFor[T](), output)
	if err != nil {
		t.Fatalf("build(%s): %v", reflect.TypeFor[T](), err)
	}
	return c
}

func checkSchema[T any](t *testing.T, want string) {
	t.Helper()
	c := mustCodec[T](t, false)
	if string(c.schema) != want {
		t.Errorf("schema of %s:\n got %s\nwant %s", reflect.TypeFor[T](), c.schema, want)
	}
	if !json.Valid(c.schema) {
		t.Errorf("schema of %s is not JSON", reflect.TypeFor[T]())
	}
}

type addArgs struct {
	A int64 `json:"a" jsonschema:"the first addend"`
	B int64 `json:"b"`
}

type fieldRules struct {
	Name    string    `json:"name"`
	Limit   *int      `json:"limit"`          // pointer: optional
	Page    int       `json:"page,omitempty"` // omitempty: optional
	When    time.Time `json:"when,omitzero"`  // omitzero: optional
	Skipped string    `json:"-"`              // left out
	//lint:ignore SA5008 encoding/json reads this tag as the member "-", and so does the tool set
	Dash     string            `json:"-,"`
	NoTag    bool              ``                  // the Go name
	OnlyOpts string            `json:",omitempty"` // the Go name, optional
	Unit     string            `json:"unit" mcp:"enum=celsius|fahrenheit"`
	Region   string            `json:"region" mcp:"header=Region"`
	Tags     []string          `json:"tags"`
	Labels   map[string]string `json:"labels,omitempty"`
	hidden   string            // unexported: left out
}

func TestToolSchemaFields(t *testing.T) {
	_ = fieldRules{}.hidden
	checkSchema[addArgs](t, `{"type":"object","properties":{"a":{"type":"integer","description":"the first addend"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`)
	checkSchema[fieldRules](t, `{"type":"object","properties":{`+
		`"name":{"type":"string"},`+
		`"limit":{"type":"integer"},`+
		`"page":{"type":"integer"},`+
		`"when":{"type":"string","format":"date-time"},`+
		`"-":{"type":"string"},`+
		`"NoTag":{"type":"boolean"},`+
		`"OnlyOpts":{"type":"string"},`+
		`"unit":{"type":"string","enum":["celsius","fahrenheit"]},`+
		`"region":{"type":"string","x-mcp-header":"Region"},`+
		`"tags":{"type":"array","items":{"type":"string"}},`+
		`"labels":{"type":"object","additionalProperties":{"type":"string"}}},`+
		`"required":["name","-","NoTag","unit","region","tags"],"additionalProperties":false}`)
	// No parameters: the schema tools.mdx recommends.
	checkSchema[struct{}](t, `{"type":"object","additionalProperties":false}`)
	checkSchema[map[string]any](t, `{"type":"object","additionalProperties":{}}`)
}

type kinds struct {
	I8   int8            `json:"i8"`
	I16  int16           `json:"i16"`
	I32  int32           `json:"i32"`
	U    uint            `json:"u"`
	U8   uint8           `json:"u8"`
	U32  uint32          `json:"u32"`
	F32  float32         `json:"f32"`
	F64  float64         `json:"f64"`
	Data []byte          `json:"data"`
	Raw  json.RawMessage `json:"raw"`
	Any  any             `json:"any"`
	Addr netip.Addr      `json:"addr"`
	Pair [2]int          `json:"pair"`
	PP   **string        `json:"pp"`
}

func TestToolSchemaKinds(t *testing.T) {
	checkSchema[kinds](t, `{"type":"object","properties":{`+
		`"i8":{"type":"integer","minimum":-128,"maximum":127},`+
		`"i16":{"type":"integer","minimum":-32768,"maximum":32767},`+
		`"i32":{"type":"integer","minimum":-2147483648,"maximum":2147483647},`+
		`"u":{"type":"integer","minimum":0},`+
		`"u8":{"type":"integer","minimum":0,"maximum":255},`+
		`"u32":{"type":"integer","minimum":0,"maximum":4294967295},`+
		`"f32":{"type":"number"},"f64":{"type":"number"},`+
		`"data":{"type":"string","contentEncoding":"base64"},`+
		`"raw":{},"any":{},`+
		`"addr":{"type":"string"},`+
		`"pair":{"type":"array","items":{"type":"integer"},"minItems":2,"maxItems":2},`+
		`"pp":{"type":"string"}},`+
		`"required":["i8","i16","i32","u","u8","u32","f32","f64","data","raw","any","addr","pair"],"additionalProperties":false}`)
}

type inner struct {
	Deep   bool  `json:"deep"`
	Header int64 `json:"n,omitempty" mcp:"header=N"`
}

type nested struct {
	Filter  inner            `json:"filter"`
	List    []inner          `json:"list,omitempty"`
	ByName  map[string]inner `json:"byName,omitempty"`
	Counter uint64           `json:"counter,omitempty" mcp:"header=Counter"`
}

func TestToolSchemaNested(t *testing.T) {
	// A header inside a struct reached through properties is allowed; an
	// integer header is bounded to the safe range (2^53-1).
	c, err := build(reflect.TypeFor[struct {
		Filter struct {
			Deep   bool  `json:"deep"`
			Header int64 `json:"n,omitempty" mcp:"header=N"`
		} `json:"filter"`
		Counter uint64 `json:"counter,omitempty" mcp:"header=Counter"`
	}](), false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{"filter":{"type":"object","properties":{"deep":{"type":"boolean"},"n":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991,"x-mcp-header":"N"}},"required":["deep"],"additionalProperties":false},"counter":{"type":"integer","minimum":0,"maximum":9007199254740991,"x-mcp-header":"Counter"}},"required":["filter"],"additionalProperties":false}`
	if string(c.schema) != want {
		t.Errorf("schema:\n got %s\nwant %s", c.schema, want)
	}
	// The same struct under an array or a map may not carry a header.
	_, err = build(reflect.TypeFor[nested](), false)
	checkErr(t, err, `typeschema.nested.List[].Header: x-mcp-header "N": only members reached through object properties from the root may be headers, not array elements or map values`)
}

type Base struct {
	ID   string `json:"id"`
	Note string `json:"note,omitempty"`
}

type withEmbedded struct {
	Base
	Note string `json:"note"` // shallower: wins over Base.Note
	Size int    `json:"size"`
}

type Tagged struct {
	X int `json:"X"`
}

// Untagged's X has no json tag: Tagged's X wins.
type Untagged struct {
	X int
}
type tagWins struct {
	Tagged
	Untagged
}

func TestToolSchemaEmbedded(t *testing.T) {
	checkSchema[withEmbedded](t, `{"type":"object","properties":{"id":{"type":"string"},"note":{"type":"string"},"size":{"type":"integer"}},"required":["id","note","size"],"additionalProperties":false}`)
	checkSchema[tagWins](t, `{"type":"object","properties":{"X":{"type":"integer"}},"required":["X"],"additionalProperties":false}`)
	c := mustCodec[withEmbedded](t, false)
	var v withEmbedded
	if err := c.Decode([]byte(`{"id":"i","note":"outer","size":3}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.ID != "i" || v.Note != "outer" || v.Base.Note != "" || v.Size != 3 {
		t.Errorf("decoded %+v", v)
	}
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Errorf("no error, want %q", want)
		return
	}
	if err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", err, want)
	}
}

type Node struct {
	Name     string  `json:"name"`
	Children []*Node `json:"children"`
}

type unmarshaler struct{}

func (*unmarshaler) UnmarshalJSON([]byte) error { return nil }

type A1 struct{ X int }
type A2 struct{ X int }
type ambiguous struct {
	A1
	A2
}

type embedsPointer struct {
	*Base
}

func TestToolSchemaErrors(t *testing.T) {
	for _, tc := range []struct {
		typ    reflect.Type
		output bool
		want   string
	}{
		{reflect.TypeFor[struct{ C chan int }](), false, "struct { C chan int }.C: type chan int has no JSON form"},
		{reflect.TypeFor[struct{ F func() }](), false, "struct { F func() }.F: type func() has no JSON form"},
		{reflect.TypeFor[struct{ Z complex128 }](), false, "struct { Z complex128 }.Z: type complex128 has no JSON form"},
		{reflect.TypeFor[struct{ E error }](), false, "struct { E error }.E: interface type error has methods, so the JSON values it may hold are unknown; use any or json.RawMessage"},
		{reflect.TypeFor[struct{ M map[int]string }](), false, "struct { M map[int]string }.M: map key type int: the keys of a JSON object are strings; use a map with string keys"},
		{reflect.TypeFor[Node](), false, "typeschema.Node.Children[]: recursive type typeschema.Node: a tool schema is written out in full, without $ref; break the cycle with json.RawMessage"},
		{reflect.TypeFor[embedsPointer](), false, "typeschema.embedsPointer.Base: embedded pointer *typeschema.Base is not supported; embed the struct itself"},
		{reflect.TypeFor[ambiguous](), false, `typeschema.ambiguous: fields typeschema.ambiguous.A1.X and typeschema.ambiguous.A2.X both map to the member "X"; rename one with a json tag`},
		{reflect.TypeFor[struct {
			N int `json:"n,string"`
		}](), false, `struct { N int "json:\"n,string\"" }.N: the json tag option ",string" is not supported`},
		{reflect.TypeFor[struct {
			N int `jsonschema:""`
		}](), false, `struct { N int "jsonschema:\"\"" }.N: empty jsonschema tag (it holds the member's description)`},
		{reflect.TypeFor[struct {
			N int `jsonschema:"description=a number"`
		}](), false, `struct { N int "jsonschema:\"description=a number\"" }.N: jsonschema tag "description=a number" looks like key=value; it holds only the member's description (put enum and header in the mcp tag)`},
		{reflect.TypeFor[struct {
			N int `mcp:"min=1"`
		}](), false, `struct { N int "mcp:\"min=1\"" }.N: unknown mcp tag option "min" (want enum, titles, enumNames, header, minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, minItems, maxItems, pattern, format, default or example)`},
		{reflect.TypeFor[struct {
			N int `mcp:"enum=1|2"`
		}](), false, `struct { N int "mcp:\"enum=1|2\"" }.N: mcp tag enum= applies to strings and slices of strings, not int`},
		{reflect.TypeFor[struct {
			S string `mcp:"enum="`
		}](), false, `struct { S string "mcp:\"enum=\"" }.S: mcp tag enum= lists no values`},
		{reflect.TypeFor[struct {
			S []int `mcp:"enum=1|2"`
		}](), false, `struct { S []int "mcp:\"enum=1|2\"" }.S: mcp tag enum= applies to strings and slices of strings, not []int`},
		{reflect.TypeFor[struct {
			S string `mcp:"titles=A|B"`
		}](), false, `struct { S string "mcp:\"titles=A|B\"" }.S: mcp tag titles= names the values of enum=, which the tag does not have`},
		{reflect.TypeFor[struct {
			S string `mcp:"enum=a|b,titles=A"`
		}](), false, `struct { S string "mcp:\"enum=a|b,titles=A\"" }.S: mcp tag titles= lists 1 titles for the 2 values of enum=`},
		{reflect.TypeFor[struct {
			S string `mcp:"enum=a|b,titles=A|B,enumNames=A|B"`
		}](), false, `struct { S string "mcp:\"enum=a|b,titles=A|B,enumNames=A|B\"" }.S: mcp tag has both titles= and enumNames= (titles= writes oneOf/anyOf with a title for each value, enumNames= the legacy enumNames; choose one)`},
		{reflect.TypeFor[struct {
			S string `mcp:"enum=a|b,titles="`
		}](), false, `struct { S string "mcp:\"enum=a|b,titles=\"" }.S: mcp tag titles= lists no titles`},
		{reflect.TypeFor[struct {
			S []string `mcp:"enum=a|b,enumNames=A|B"`
		}](), false, `struct { S []string "mcp:\"enum=a|b,enumNames=A|B\"" }.S: mcp tag enumNames= applies to a single string (the legacy form); name the values of a multiple choice with titles=`},
		{reflect.TypeFor[struct {
			S string `mcp:"enum=a|b,default=c"`
		}](), false, `struct { S string "mcp:\"enum=a|b,default=c\"" }.S: mcp tag default="c" is not a value of the member: "c" is not one of "a", "b" (enum)`},
		{reflect.TypeFor[struct {
			N int8 `mcp:"default=300"`
		}](), false, `struct { N int8 "mcp:\"default=300\"" }.N: mcp tag default=300 is not a value of the member: must be <= 127, got 300 (maximum)`},
		{reflect.TypeFor[struct {
			N int `mcp:"minimum=1,default=0"`
		}](), false, `struct { N int "mcp:\"minimum=1,default=0\"" }.N: mcp tag default=0 is not a value of the member: must be >= 1, got 0 (minimum)`},
		{reflect.TypeFor[struct {
			B bool `mcp:"default=yes"`
		}](), false, `struct { B bool "mcp:\"default=yes\"" }.B: mcp tag default=yes: not a JSON value`},
		{reflect.TypeFor[struct {
			S []string `mcp:"enum=a|b,default=a|c"`
		}](), false, `struct { S []string "mcp:\"enum=a|b,default=a|c\"" }.S: mcp tag default=["a","c"] is not a value of the member: /1: "c" is not one of "a", "b" (enum)`},
		{reflect.TypeFor[struct {
			F float64 `mcp:"header=F"`
		}](), false, `struct { F float64 "mcp:\"header=F\"" }.F: x-mcp-header "F": a number cannot be a header (only strings, integers and booleans)`},
		{reflect.TypeFor[struct {
			S []string `mcp:"header=S"`
		}](), false, `struct { S []string "mcp:\"header=S\"" }.S: x-mcp-header "S": []string cannot be a header (only strings, integers and booleans)`},
		{reflect.TypeFor[struct {
			S string `mcp:"header=Bad Name"`
		}](), false, `struct { S string "mcp:\"header=Bad Name\"" }.S: x-mcp-header "Bad Name": not an HTTP token: " " is not allowed`},
		{reflect.TypeFor[struct {
			S string `mcp:"header="`
		}](), false, `struct { S string "mcp:\"header=\"" }.S: x-mcp-header "": empty header name`},
		{reflect.TypeFor[struct {
			A string `mcp:"header=Region"`
			B string `mcp:"header=region"`
		}](), false, `struct { A string "mcp:\"header=Region\""; B string "mcp:\"header=region\"" }.B: x-mcp-header "region" is already the header of struct { A string "mcp:\"header=Region\""; B string "mcp:\"header=region\"" }.A (header names are case-insensitive)`},
		{reflect.TypeFor[struct{ U unmarshaler }](), false, "struct { U typeschema.unmarshaler }.U: typeschema.unmarshaler has a JSON form of its own (it implements json.Unmarshaler), so its schema is unknown; use json.RawMessage, or a type without UnmarshalJSON"},
		{reflect.TypeFor[int](), false, "int is not a struct or a map with string keys: tool arguments are a JSON object"},
		{reflect.TypeFor[*addArgs](), false, "*typeschema.addArgs is not a struct or a map with string keys: tool arguments are a JSON object"},
		{reflect.TypeFor[time.Time](), false, "time.Time is not a struct or a map with string keys: tool arguments are a JSON object"},
		{reflect.TypeFor[map[string]int](), true, "map[string]int is not a struct or a pointer to one: a structured result is a JSON object"},
		{reflect.TypeFor[struct {
			S string `mcp:"header=S"`
		}](), true, `struct { S string "mcp:\"header=S\"" }.S: mcp tag header= applies to tool arguments, not to structured results`},
	} {
		_, err := build(tc.typ, tc.output)
		checkErr(t, err, tc.want)
	}
}

// "pointer keyword message" lines.
func decodeErr[T any](t *testing.T, data string) (T, []string) {
	t.Helper()
	c := mustCodec[T](t, false)
	var v T
	err := c.Decode([]byte(data), &v)
	if err == nil {
		return v, nil
	}
	var ve *codec.ValidationError
	if !errors.As(err, &ve) {
		return v, []string{"error " + err.Error()}
	}
	var out []string
	for _, x := range ve.Violations {
		out = append(out, x.Pointer+" "+x.Keyword+" "+x.Message)
	}
	return v, out
}

func checkViolations(t *testing.T, data string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got %q\nwant %q", data, got, want)
	}
}

func TestToolDecodeValid(t *testing.T) {
	v, errs := decodeErr[fieldRules](t, `{"name":"n","limit":5,"page":2.0,"when":"2025-01-02T03:04:05Z","-":"d","NoTag":true,"unit":"celsius","region":"eu","tags":["a","b\u00e9"],"labels":{"k":"v"}}`)
	checkViolations(t, "valid", errs, nil)
	when := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	want := fieldRules{Name: "n", Limit: new(5), Page: 2, When: when, Dash: "d", NoTag: true, Unit: "celsius", Region: "eu", Tags: []string{"a", "bé"}, Labels: map[string]string{"k": "v"}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("decoded %+v\nwant %+v", v, want)
	}
	// Optional members may be absent; an empty array is not nil.
	v, errs = decodeErr[fieldRules](t, `{"name":"","-":"","NoTag":false,"unit":"fahrenheit","region":"","tags":[]}`)
	checkViolations(t, "minimal", errs, nil)
	if v.Limit != nil || v.Tags == nil || len(v.Tags) != 0 || v.Labels != nil {
		t.Errorf("decoded %+v", v)
	}

	k, errs := decodeErr[kinds](t, `{"i8":-128,"i16":32767,"i32":1e3,"u":18446744073709551615,"u8":255,"u32":0,"f32":1.5,"f64":-2e-3,"data":"aGk=","raw":{"x":[1, 2]},"any":{"n":1},"addr":"127.0.0.1","pair":[1,2],"pp":"s"}`)
	checkViolations(t, "kinds", errs, nil)
	if k.I8 != -128 || k.I16 != 32767 || k.I32 != 1000 || k.U != math.MaxUint64 || k.U8 != 255 || k.F32 != 1.5 || k.F64 != -2e-3 ||
		string(k.Data) != "hi" || string(k.Raw) != `{"x":[1, 2]}` || !reflect.DeepEqual(k.Any, map[string]any{"n": 1.0}) ||
		k.Addr != netip.MustParseAddr("127.0.0.1") || k.Pair != [2]int{1, 2} || k.PP == nil || **k.PP != "s" {
		t.Errorf("decoded %+v", k)
	}

	m, errs := decodeErr[map[string]int](t, `{"a":1,"b":2}`)
	checkViolations(t, "map", errs, nil)
	if !reflect.DeepEqual(m, map[string]int{"a": 1, "b": 2}) {
		t.Errorf("decoded %v", m)
	}
}

func TestToolDecodeAbsentArguments(t *testing.T) {
	c := mustCodec[struct {
		N *int `json:"n"`
	}](t, false)
	var v struct {
		N *int `json:"n"`
	}
	if err := c.Decode(nil, &v); err != nil {
		t.Errorf("absent arguments with no required member: %v", err)
	}
	_, errs := decodeErr[addArgs](t, "")
	checkViolations(t, "absent", errs, []string{` required missing required member "a"`, ` required missing required member "b"`})
}

func TestToolDecodeViolations(t *testing.T) {
	for _, tc := range []struct {
		data string
		want []string
	}{
		{`{"a":"forty","b":2}`, []string{`/a type expected integer, got string`}},
		{`{"a":1}`, []string{` required missing required member "b"`}},
		{`{"a":1,"b":2,"c":3}`, []string{`/c additionalProperties member "c" is not allowed`}},
		{`{"A":1,"b":2}`, []string{`/A additionalProperties member "A" is not allowed`, ` required missing required member "a"`}},
		{`{"a":1.5,"b":null}`, []string{`/a type expected integer, got 1.5`, `/b type expected integer, got null`}},
		{`{"a":1e30,"b":2}`, []string{`/a type integer 1e30 is out of the range of int64`}},
		{`[1,2]`, []string{` type expected object, got array`}},
	} {
		_, errs := decodeErr[addArgs](t, tc.data)
		checkViolations(t, tc.data, errs, tc.want)
	}
	for _, tc := range []struct {
		data string
		want []string
	}{
		{`{"name":"n","limit":null,"-":"","NoTag":false,"unit":"kelvin","region":"","tags":["a",1]}`, []string{
			`/limit type expected integer, got null`,
			`/unit enum "kelvin" is not one of "celsius", "fahrenheit"`,
			`/tags/1 type expected string, got number`,
		}},
		{`{"name":"n","-":"","NoTag":false,"unit":"celsius","region":"","tags":[],"when":"yesterday","labels":{"k":1}}`, []string{
			`/when format "yesterday" is not a date-time (RFC 3339)`,
			`/labels/k type expected string, got number`,
		}},
	} {
		_, errs := decodeErr[fieldRules](t, tc.data)
		checkViolations(t, tc.data, errs, tc.want)
	}
	_, errs := decodeErr[kinds](t, `{"i8":128,"i16":-32769,"i32":0,"u":-1,"u8":256,"u32":-1e20,"f32":1e39,"f64":0,"data":"!!","raw":null,"any":null,"addr":"nowhere","pair":[1,2,3],"pp":null}`)
	checkViolations(t, "kinds", errs, []string{
		`/i8 maximum must be <= 127, got 128`,
		`/i16 minimum must be >= -32768, got -32769`,
		`/u minimum must be >= 0, got -1`,
		`/u8 maximum must be <= 255, got 256`,
		`/u32 minimum must be >= 0, got -1e20`,
		`/f32 type number 1e+39 is out of the range of float32`,
		`/data contentEncoding "!!" is not base64`,
		`/addr format "nowhere" is not a valid netip.Addr: ParseAddr("nowhere"): unable to parse IP`,
		`/pair maxItems must have at most 2 items, got 3`,
		`/pp type expected string, got null`,
	})
	_, errs = decodeErr[struct {
		Pair [2]int `json:"pair"`
	}](t, `{"pair":[1]}`)
	checkViolations(t, "short array", errs, []string{`/pair minItems must have at least 2 items, got 1`})

	// A header integer stays within the safe range.
	_, errs = decodeErr[struct {
		N int64 `json:"n" mcp:"header=N"`
	}](t, `{"n":9007199254740992}`)
	checkViolations(t, "header integer", errs, []string{`/n maximum must be <= 9007199254740991, got 9007199254740992`})
}

func TestToolDecodeSyntax(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"a":1,"a":2,"b":3}`, `error invalid JSON at offset 11: duplicate member "a"`},
		{`{"a":1,"b":2`, `error invalid JSON at offset 12: expected ',' or '}' after object member`},
	} {
		_, errs := decodeErr[addArgs](t, tc.data)
		checkViolations(t, tc.data, errs, []string{tc.want})
	}
	_, errs := decodeErr[map[string]int](t, `{"a":1,"a":2}`)
	checkViolations(t, "map duplicate", errs, []string{`error invalid JSON at offset 11: duplicate member "a"`})
}

// Structs with more than 64 fields track their members in a slice.
type wide struct {
	F00, F01, F02, F03, F04, F05, F06, F07, F08, F09 int
	F10, F11, F12, F13, F14, F15, F16, F17, F18, F19 int
	F20, F21, F22, F23, F24, F25, F26, F27, F28, F29 int
	F30, F31, F32, F33, F34, F35, F36, F37, F38, F39 int
	F40, F41, F42, F43, F44, F45, F46, F47, F48, F49 int
	F50, F51, F52, F53, F54, F55, F56, F57, F58, F59 int
	F60, F61, F62, F63, F64, F65, F66, F67, F68      int
	F69                                              int `json:",omitempty"`
}

func TestToolDecodeWide(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 68 { // F00 to F67: F68 is missing
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"F` + string(rune('0'+i/10)) + string(rune('0'+i%10)) + `":1`)
	}
	b.WriteString("}")
	v, errs := decodeErr[wide](t, b.String())
	checkViolations(t, "wide", errs, []string{` required missing required member "F68"`})
	if v.F00 != 1 || v.F67 != 1 || v.F69 != 0 {
		t.Errorf("decoded %+v", v)
	}
	_, errs = decodeErr[wide](t, strings.Replace(b.String(), `"F67":1`, `"F66":1`, 1))
	checkViolations(t, "wide duplicate", errs, []string{`error invalid JSON at offset 543: duplicate member "F66"`})
}

type outRules struct {
	Sum     int               `json:"sum"`
	Note    string            `json:"note,omitempty"`
	When    time.Time         `json:"when,omitzero"`
	Ptr     *int              `json:"ptr"`
	List    []string          `json:"list"`
	Map     map[string]int    `json:"map"`
	Data    []byte            `json:"data,omitempty"`
	Unit    string            `json:"unit,omitempty" mcp:"enum=c|f"`
	F32     float32           `json:"f32"`
	Raw     json.RawMessage   `json:"raw,omitempty"`
	Items   []*int            `json:"items,omitempty"`
	Nested  struct{ X int }   `json:"nested"`
	Any     any               `json:"any,omitempty"`
	ByAddr  map[string]string `json:"byAddr,omitempty"`
	private int
}

func TestToolEncode(t *testing.T) {
	c := mustCodec[outRules](t, true)
	_ = outRules{}.private
	b, err := c.Encode(outRules{Sum: 3, F32: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"sum":3,"list":[],"map":{},"f32":0.1,"nested":{"X":0}}`; string(b) != want {
		t.Errorf("encode zero:\n got %s\nwant %s", b, want)
	}
	when := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	b, err = c.Encode(outRules{Sum: 1, Note: "n", When: when, Ptr: new(7), List: []string{"x"}, Map: map[string]int{"b": 2, "a": 1},
		Data: []byte("hi"), Unit: "c", Raw: json.RawMessage(`[1]`), Items: []*int{new(1)}, Any: map[string]any{"k": true}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"sum":1,"note":"n","when":"2025-01-02T03:04:05Z","ptr":7,"list":["x"],"map":{"a":1,"b":2},"data":"aGk=","unit":"c","f32":0,"raw":[1],"items":[1],"nested":{"X":0},"any":{"k":true}}`; string(b) != want {
		t.Errorf("encode:\n got %s\nwant %s", b, want)
	}
	// What the schema refuses is an error, not a result.
	for _, tc := range []struct {
		v    outRules
		want string
	}{
		{outRules{Unit: "k"}, `cannot encode as JSON: "k" is not one of "c", "f"`},
		{outRules{Items: []*int{nil}}, `cannot encode as JSON: a nil *int in an array or map has no value the schema allows`},
		{outRules{F32: float32(math.NaN())}, `cannot encode as JSON: unsupported number NaN`},
	} {
		_, err := c.Encode(tc.v)
		checkErr(t, err, tc.want)
	}
	// A nil pointer result is the zero value.
	pc := mustCodec[*addArgs](t, true)
	b, err = pc.Encode((*addArgs)(nil))
	if err != nil || string(b) != `{"a":0,"b":0}` {
		t.Errorf("encode nil pointer = %s, %v", b, err)
	}
	_, err = pc.Encode(addArgs{})
	checkErr(t, err, "typeschema: encoding a value of type typeschema.addArgs, want *typeschema.addArgs")
}

// What the encoder writes, the decoder reads back unchanged.
func TestToolEncodeDecodeRoundTrip(t *testing.T) {
	type round struct {
		S  string            `json:"s"`
		I  int8              `json:"i"`
		U  uint64            `json:"u"`
		F  float64           `json:"f"`
		P  *string           `json:"p"`
		L  []int             `json:"l"`
		M  map[string]bool   `json:"m"`
		T  time.Time         `json:"t"`
		B  []byte            `json:"b"`
		A  netip.Addr        `json:"a"`
		N  struct{ X int }   `json:"n"`
		MM map[string][]bool `json:"mm,omitempty"`
	}
	in := round{S: "s\u2028\"", I: -5, U: math.MaxUint64, F: 1e-7, P: new("p"), L: []int{1, 2}, M: map[string]bool{"x": true},
		T: time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC), B: []byte{0, 255}, A: netip.MustParseAddr("::1"), N: struct{ X int }{3}}
	out := mustCodec[round](t, true)
	b, err := out.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	var back round
	if err := mustCodec[round](t, false).Decode(b, &back); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	if !reflect.DeepEqual(in, back) {
		t.Errorf("round trip through %s:\n got %+v\nwant %+v", b, back, in)
	}
}

// FuzzToolArguments: whatever the arguments, decoding returns (no panic),
// and what decodes, encodes and decodes back to the same value.
func FuzzToolArguments(f *testing.F) {
	type args struct {
		Name string   `json:"name"`
		N    *int16   `json:"n"`
		U    uint8    `json:"u,omitempty"`
		Tags []string `json:"tags,omitempty"`
		Sub  *struct {
			Deep bool `json:"deep"`
		} `json:"sub"`
		Map   map[string]uint32 `json:"map,omitempty"`
		Pair  [2]bool           `json:"pair,omitzero"`
		Bytes []byte            `json:"bytes,omitempty"`
	}
	for _, s := range []string{`{"name":"a"}`, `{"name":"","n":-3,"u":2,"tags":["x"],"sub":{"deep":true},"map":{"k":1},"pair":[true,false],"bytes":"AA=="}`,
		`{"name":1}`, `{}`, `[]`, `{"name":"a","name":"b"}`, `{"name":"a","zz":{}}`} {
		f.Add([]byte(s))
	}
	in, err := build(reflect.TypeFor[args](), false)
	if err != nil {
		f.Fatal(err)
	}
	out, err := build(reflect.TypeFor[args](), true)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v args
		if err := in.Decode(data, &v); err != nil {
			return
		}
		b, err := out.Encode(v)
		if err != nil {
			t.Fatalf("encode %+v: %v", v, err)
		}
		var back args
		if err := in.Decode(b, &back); err != nil {
			t.Fatalf("decode %s: %v", b, err)
		}
		if !reflect.DeepEqual(v, back) {
			t.Fatalf("round trip of %s through %s: %+v != %+v", data, b, back, v)
		}
	})
}

type keywordArgs struct {
	Count int      `json:"count" mcp:"minimum=1,maximum=10,default=3"`
	Ratio float64  `json:"ratio" mcp:"exclusiveMinimum=0,exclusiveMaximum=1"`
	Code  string   `json:"code" mcp:"minLength=2,maxLength=4,pattern=^[A-Z]+$,example=ABC"`
	Email *string  `json:"email" mcp:"format=email"`
	Tags  []string `json:"tags,omitempty" mcp:"minItems=1,maxItems=2"`
	Level uint8    `json:"level,omitempty" mcp:"maximum=5"`
}

func TestToolSchemaKeywords(t *testing.T) {
	checkSchema[keywordArgs](t, `{"type":"object","properties":{`+
		`"count":{"type":"integer","minimum":1,"maximum":10,"default":3},`+
		`"ratio":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1},`+
		`"code":{"type":"string","minLength":2,"maxLength":4,"pattern":"^[A-Z]+$","examples":["ABC"]},`+
		`"email":{"type":"string","format":"email"},`+
		`"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":2},`+
		`"level":{"type":"integer","minimum":0,"maximum":5}},`+
		`"required":["count","ratio","code"],"additionalProperties":false}`)
	c := mustCodec[keywordArgs](t, false)
	var ok keywordArgs
	if err := c.Decode([]byte(`{"count":3,"ratio":0.5,"code":"AB","email":"a@b.co","tags":["x"],"level":5}`), &ok); err != nil {
		t.Fatalf("valid arguments: %v", err)
	}
	var bad keywordArgs
	err := c.Decode([]byte(`{"count":0,"ratio":1,"code":"abcde","email":"nope","tags":[],"level":6}`), &bad)
	var ve *codec.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("invalid arguments: %v, want a validation error", err)
	}
	var got []string
	for _, v := range ve.Violations {
		got = append(got, v.Pointer+" "+v.Message)
	}
	want := []string{
		"/count must be >= 1, got 0",
		"/ratio must be < 1, got 1",
		"/code must be at most 4 characters long, got 5",
		`/email "nope" is not a valid email`,
		"/tags must have at least 1 items, got 0",
		"/level must be <= 5, got 6",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, tc := range []struct{ tag, err string }{
		{`mcp:"minLength=1"`, "mcp tag minLength= applies to strings, not int"},
		{`mcp:"minimum=x"`, "mcp tag minimum=x: not a number"},
	} {
		typ := reflect.StructOf([]reflect.StructField{{Name: "N", Type: reflect.TypeFor[int](), Tag: reflect.StructTag(`json:"n" ` + tc.tag)}})
		if _, err := build(typ, false); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want %q", tc.tag, err, tc.err)
		}
	}
}

// choices has every kind of enum a form elicitation knows (SEP-1330).
type choices struct {
	Plain   string    `json:"plain" mcp:"enum=a|b"`
	Titled  *string   `json:"titled,omitempty" mcp:"enum=a|b,titles=Alpha|Beta,default=b"`
	Legacy  string    `json:"legacy,omitempty" mcp:"enumNames=Alpha|Beta,enum=a|b"`
	Many    []string  `json:"many,omitempty" mcp:"enum=a|b|c,minItems=1,default=a|c"`
	Labeled []string  `json:"labeled,omitempty" mcp:"enum=a|b,titles=Alpha|Beta"`
	Pair    [2]string `json:"pair,omitzero" mcp:"enum=x|y"`
}

func TestToolSchemaEnums(t *testing.T) {
	checkSchema[choices](t, `{"type":"object","properties":{`+
		`"plain":{"type":"string","enum":["a","b"]},`+
		`"titled":{"type":"string","oneOf":[{"const":"a","title":"Alpha"},{"const":"b","title":"Beta"}],"default":"b"},`+
		`"legacy":{"type":"string","enum":["a","b"],"enumNames":["Alpha","Beta"]},`+
		`"many":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":1,"default":["a","c"]},`+
		`"labeled":{"type":"array","items":{"anyOf":[{"const":"a","title":"Alpha"},{"const":"b","title":"Beta"}]}},`+
		`"pair":{"type":"array","items":{"type":"string","enum":["x","y"]},"minItems":2,"maxItems":2}},`+
		`"required":["plain"],"additionalProperties":false}`)
	c := mustCodec[choices](t, false)
	var ok choices
	if err := c.Decode([]byte(`{"plain":"a","titled":"b","legacy":"a","many":["c"],"labeled":["a","b"],"pair":["y","x"]}`), &ok); err != nil {
		t.Fatalf("valid arguments: %v", err)
	}
	if *ok.Titled != "b" || ok.Many[0] != "c" || ok.Pair != [2]string{"y", "x"} {
		t.Errorf("decoded %+v", ok)
	}
	var bad choices
	err := c.Decode([]byte(`{"plain":"z","titled":"Alpha","legacy":"Beta","many":["a","d"],"labeled":["c"],"pair":["x","z"]}`), &bad)
	var ve *codec.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("invalid arguments: %v, want a validation error", err)
	}
	var got []string
	for _, v := range ve.Violations {
		got = append(got, v.Pointer+" "+v.Keyword+" "+v.Message)
	}
	want := []string{
		`/plain enum "z" is not one of "a", "b"`,
		`/titled enum "Alpha" is not one of "a", "b"`,
		`/legacy enum "Beta" is not one of "a", "b"`,
		`/many/1 enum "d" is not one of "a", "b", "c"`,
		`/labeled/0 enum "c" is not one of "a", "b"`,
		`/pair/1 enum "z" is not one of "x", "y"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A value outside the enum is not encoded either.
	if _, err := c.Encode(choices{Plain: "a", Many: []string{"q"}}); err == nil || !strings.Contains(err.Error(), `"q" is not one of "a", "b", "c"`) {
		t.Errorf("encoding a value outside the enum: %v", err)
	}
}

// decimal has a JSON form of its own (a string of digits) and says so.
type decimal struct{ units int64 }

func (decimal) MCPSchema() []byte { return []byte(`{"type": "string", "pattern": "^[0-9]+$"}`) }

func (d *decimal) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	n, err := strconv.ParseInt(s, 10, 64)
	d.units = n
	return err
}

func (d decimal) MarshalJSON() ([]byte, error) { return json.Marshal(strconv.FormatInt(d.units, 10)) }

func TestToolSchemaOwnType(t *testing.T) {
	type args struct {
		Price decimal `json:"price" jsonschema:"the price"`
	}
	checkSchema[args](t, `{"type":"object","properties":{"price":{"type":"string","pattern":"^[0-9]+$","description":"the price"}},"required":["price"],"additionalProperties":false}`)
	c := mustCodec[args](t, false)
	var a args
	if err := c.Decode([]byte(`{"price":"125"}`), &a); err != nil || a.Price.units != 125 {
		t.Errorf("decode: %+v %v", a, err)
	}
	err := c.Decode([]byte(`{"price":"1.5"}`), &a)
	if err == nil || !strings.Contains(err.Error(), "/price") || !strings.Contains(err.Error(), "typeschema.decimal") {
		t.Errorf("a value against the type's schema: %v", err)
	}
	out := mustCodec[args](t, true)
	b, err := out.Encode(args{Price: decimal{7}})
	if err != nil || string(b) != `{"price":"7"}` {
		t.Errorf("encode: %s %v", b, err)
	}
}
