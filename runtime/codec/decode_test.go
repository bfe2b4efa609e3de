package codec

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParseInt(t *testing.T) {
	for _, tc := range []struct {
		in             string
		n              int64
		isInt, inRange bool
	}{
		{"0", 0, true, true},
		{"-0", 0, true, true},
		{"2.0", 2, true, true},
		{"1e2", 100, true, true},
		{"1.5e1", 15, true, true},
		{"150e-1", 15, true, true},
		{"1.5", 0, false, false},
		{"1e-1", 0, false, false},
		{"9223372036854775807", math.MaxInt64, true, true},
		{"-9223372036854775808", math.MinInt64, true, true},
		{"9223372036854775808", 0, true, false},
		{"-9223372036854775809", 0, true, false},
		{"1e19", 0, true, false},
		{"1e400", 0, true, false},
		{"0.000000000000000000000000001e27", 1, true, true},
		{"123456789012345678901234567890e-29", 0, false, false},
		{"100000000000000000000e-20", 1, true, true},
		// Digits beyond the twenty kept: a non-zero one below the point
		// makes a number that is no integer, above it a large integer.
		{"1.00000000000000000001", 0, false, false},
		{"-1.00000000000000000001", 0, false, false},
		{"1.000000000000000000000000000000", 1, true, true},
		{"1.00000000000000000001e20", 0, true, false},
		{"1.00000000000000000001e19", 0, false, false},
		{"12345678901234567890123e-2", 0, false, false},
		{"12345678901234567890100e-2", 0, true, false},
		{"123456789012345678901234567890", 0, true, false},
		{"0.10000000000000000000000000001e1", 0, false, false},
		{"1.0", 1, true, true},
		{"1E+2", 100, true, true},
	} {
		n, isInt, inRange := ParseInt([]byte(tc.in))
		if n != tc.n || isInt != tc.isInt || inRange != tc.inRange {
			t.Errorf("ParseInt(%s) = %d, %v, %v; want %d, %v, %v", tc.in, n, isInt, inRange, tc.n, tc.isInt, tc.inRange)
		}
	}
}

func TestStrings(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{`"plain"`, "plain", ""},
		{`"a\"b\\c\/d\n\t\r\b\f"`, "a\"b\\c/d\n\t\r\b\f", ""},
		{`"\u00e9\u20ac"`, "é€", ""},
		{`"\ud83d\ude00"`, "😀", ""},
		{`"\ud83d"`, "\ufffd", ""}, // a lone surrogate becomes U+FFFD, as in encoding/json
		{`"\ude00\ud83d"`, "\ufffd\ufffd", ""},
		{`"é"`, "é", ""},
		{"\"\xff\"", "", "invalid UTF-8 in string"},
		{"\"a\x01\"", "", "control character in string"},
		{`"\x"`, "", "invalid escape in string"},
		{`"\u12"`, "", "invalid \\u escape in string"},
		{`"abc`, "", "unexpected end of JSON input in string"},
	} {
		var d Decoder
		d.Init([]byte(tc.in))
		got := d.Str()
		err := d.Finish()
		if tc.err != "" {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Msg != tc.err {
				t.Errorf("%s: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		// encoding/json reads the same string.
		var ref string
		if err := json.Unmarshal([]byte(tc.in), &ref); err != nil || ref != got {
			t.Errorf("%s: encoding/json reads %q", tc.in, ref)
		}
	}
}

func TestSkipChecksEverything(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{`{"a":[1,{"b":null}],"c":"d"}`, ""},
		{`{"a":1,"a":2}`, `duplicate member "a"`},
		{`{"a":{"x":1,"x":2}}`, `duplicate member "x"`},
		{`{"\u0061":1,"a":2}`, `duplicate member "a"`},
		{`[1,2,]`, "invalid character ']' looking for a value"},
		{`{"a":1,}`, "expected a member name"},
		{`01`, "unexpected data after the top-level value"},
		{`-`, "invalid number"},
		{`1.`, "invalid number"},
		{`tru`, "invalid literal"},
		{strings.Repeat("[", 10001) + strings.Repeat("]", 10001), "nesting deeper than 10000"},
		{strings.Repeat("[", 10000) + strings.Repeat("]", 10000), ""},
	} {
		d := Decoder{Data: []byte(tc.in)}
		d.Skip()
		err := d.Finish()
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%.30s: %v", tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%.30s: error %v, want %q", tc.in, err, tc.err)
		}
	}
	// A large object switches to a map for the duplicate check.
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 200; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("x", i) + `":1`)
	}
	d := Decoder{Data: []byte(b.String() + `,"k":2}`)}
	d.Skip()
	if err := d.Finish(); err == nil || !strings.Contains(err.Error(), `duplicate member "k"`) {
		t.Errorf("duplicate in a large object: %v", err)
	}
}

func TestPointerAt(t *testing.T) {
	doc := []byte(`{"a": [10, {"b~/c": "x", "d": [true]}], "e": {}}`)
	for _, tc := range []struct {
		at   string
		want string
	}{
		{`{"a"`, ""},
		{`10`, "/a/0"},
		{`"x"`, "/a/1/b~0~1c"},
		{`true`, "/a/1/d/0"},
		{`{}`, "/e"},
	} {
		off := strings.Index(string(doc), tc.at)
		if got := pointerAt(doc, off); got != tc.want {
			t.Errorf("pointer at %q = %q, want %q", tc.at, got, tc.want)
		}
	}
}

func TestPeekTruncated(t *testing.T) {
	// A discriminator cut off after its colon must not read past the end.
	for _, in := range []string{`{"type":`, `{"type": `, `{"a":1,"type":`} {
		d := Decoder{Data: []byte(in)}
		if off := d.PeekMember("type"); off != -1 {
			t.Errorf("peekMember(%q) = %d, want -1", in, off)
		}
		if _, state := d.PeekTag("type"); state != TagAbsent {
			t.Errorf("peekTag(%q) = %d", in, state)
		}
	}
}

func TestEncoderMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"plain", "a\"b\\c", "\x00\x1f\n", "<&>", "\u2028\u2029", "é😀", "\xff"} {
		var e Encoder
		e.Str(s)
		ref, _ := json.Marshal(s)
		refNoHTML := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(ref))
		if string(e.Buf) != refNoHTML {
			t.Errorf("string %q encodes as %s, encoding/json as %s", s, e.Buf, refNoHTML)
		}
	}
	for _, f := range []float64{0, 1, -1.5, 0.1, 1e21, 1e-7, 123456789, 1.7976931348623157e308} {
		var e Encoder
		e.Float(f)
		ref, _ := json.Marshal(f)
		if string(e.Buf) != string(ref) {
			t.Errorf("float %v encodes as %s, encoding/json as %s", f, e.Buf, ref)
		}
	}
	var e Encoder
	e.Float(math.NaN())
	if e.Err == nil {
		t.Error("NaN encodes without an error")
	}
}

// TestIntegerPastKeptDigits: the decoder's Int and the run-time schema's
// "integer" refuse a number whose fraction is non-zero only past the
// twentieth significant digit, and take 1.0.
func TestIntegerPastKeptDigits(t *testing.T) {
	s, err := CompileSchema([]byte(`{"type":"integer"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in string
		ok bool
	}{{"1.00000000000000000001", false}, {"1.0", true}, {"1.000000000000000000000", true}} {
		var d Decoder
		d.Init([]byte(c.in))
		d.Int()
		err := d.Finish()
		if (err == nil) != c.ok || !c.ok && !strings.Contains(err.Error(), "expected integer") {
			t.Errorf("Int(%s): %v", c.in, err)
		}
		err = s.Validate("", []byte(c.in))
		if (err == nil) != c.ok || !c.ok && !strings.Contains(err.Error(), "expected integer") {
			t.Errorf("schema integer, %s: %v", c.in, err)
		}
	}
}
