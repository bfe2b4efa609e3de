package protocol

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// The examples of streamable-http.mdx, "Value Encoding".
func TestHeaderValueEncoding(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"us-west1", "us-west1"},
		{"Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="},
		{" padded ", "=?base64?IHBhZGRlZCA=?="},
		{"line1\nline2", "=?base64?bGluZTEKbGluZTI=?="},
		{"=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="},
		{"", ""},
		{"a\tb", "a\tb"},
		{"\tlead", "=?base64?CWxlYWQ=?="},
	} {
		if got := encodeHeaderValue(c.in); got != c.out {
			t.Errorf("encode %q = %q, want %q", c.in, got, c.out)
		}
		if got, err := decodeHeaderValue(c.out); err != nil || got != c.in {
			t.Errorf("decode %q = %q, %v; want %q", c.out, got, err, c.in)
		}
	}
	for _, bad := range []string{"=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?=", "=?base64?SGVsbG9=?=", "=?base64?/w==?=", "é", "a\x00b", "a\x7fb"} {
		if got, err := decodeHeaderValue(bad); err == nil {
			t.Errorf("decode %q = %q, want an error", bad, got)
		}
	}
	// Without both markers a value is literal.
	for _, lit := range []string{"=?base64?SGVsbG8=", "SGVsbG8=?=", "?base64?SGVsbG8=?="} {
		if got, err := decodeHeaderValue(lit); err != nil || got != lit {
			t.Errorf("decode %q = %q, %v; want it literal", lit, got, err)
		}
	}
}

func TestParamHeaders(t *testing.T) {
	got, err := paramHeaders([]byte(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"n":{"type":"integer","x-mcp-header":"count_2"},
		"deep":{"type":"object","properties":{"flag":{"type":"boolean","x-mcp-header":"Flag"}}},
		"list":{"type":"array","items":{"type":"string","x-mcp-header":"Ignored"}},
		"plain":{"type":"string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, b := range got {
		s = append(s, strings.Join(b.path, ".")+"="+b.key+":"+b.typ)
	}
	want := "deep.flag=Mcp-Param-Flag:boolean n=Mcp-Param-Count_2:integer region=Mcp-Param-Region:string"
	if strings.Join(s, " ") != want {
		t.Errorf("got %s\nwant %s", strings.Join(s, " "), want)
	}
	for _, bad := range []string{
		`{"properties":{"a":{"type":"string","x-mcp-header":""}}}`,
		`{"properties":{"a":{"type":"string","x-mcp-header":"has space"}}}`,
		`{"properties":{"a":{"type":"string","x-mcp-header":"a\r\nb"}}}`,
		`{"properties":{"a":{"type":"string","x-mcp-header":5}}}`,
		`{"properties":{"a":{"type":"number","x-mcp-header":"A"}}}`,
		`{"properties":{"a":{"type":"object","x-mcp-header":"A"}}}`,
		`{"properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"string","x-mcp-header":"a"}}}`,
		`not json`,
	} {
		if _, err := paramHeaders([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestHeaderMatches(t *testing.T) {
	for _, c := range []struct {
		h, raw string
		ok     bool
	}{
		{"x", `"x"`, true},
		{"x", `"X"`, false},
		{"42", `42`, true},
		{"42.0", `42`, true},
		{"4.2e1", `42`, true},
		{"-7", `-7`, true},
		{"42", `"42"`, true},
		{"42.0", `"42"`, false},
		{"+42", `42`, false},
		{"42 ", `42`, false},
		{"true", `true`, true},
		{"True", `true`, false},
		{"null", `null`, false},
		{"{}", `{}`, false},
	} {
		if got := headerMatches(c.h, []byte(c.raw)); got != c.ok {
			t.Errorf("headerMatches(%q, %s) = %v", c.h, c.raw, got)
		}
	}
	if s, ok := HeaderText([]byte(`"a\u00e9"`)); !ok || s != "aé" {
		t.Errorf("headerText: %q %v", s, ok)
	}
	if s, ok := HeaderText([]byte(`1e2`)); !ok || s != "100" {
		t.Errorf("headerText of an integer: %q %v", s, ok)
	}
	if v := argumentAt([]byte(`{"a":{"b":{"c":5}}}`), []string{"a", "b", "c"}); string(v) != "5" {
		t.Errorf("argumentAt: %s", v)
	}
	if v := argumentAt([]byte(`{"a":[{"b":1}]}`), []string{"a", "b"}); v != nil {
		t.Errorf("argumentAt through an array: %s", v)
	}
}

func TestSSERoundTrip(t *testing.T) {
	msgs := []string{`{"a":1}`, "{\n  \"pretty\": true\r\n}", `{"s":"line\nbreak"}`, "{\r\"cr\":1}"}
	var b []byte
	for _, m := range msgs {
		b = appendSSEEvent(b, []byte(m))
	}
	stream := ": comment\n\n" + string(b) + "id: 7\nretry: 1500\nevent: other\ndata: x\ndata:y\n\n"
	r := newSSEReader(strings.NewReader(stream), 1<<10)
	for i, m := range msgs {
		ev, err := r.next()
		if err != nil {
			t.Fatal(err)
		}
		// Line breaks come back as "\n": JSON whitespace, the same value.
		want := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(m)
		if string(ev.data) != want || ev.event != "message" {
			t.Errorf("event %d: %q %q, want %q", i, ev.event, ev.data, want)
		}
	}
	ev, err := r.next()
	if err != nil || ev.id != "7" || ev.retry != 1500 || ev.event != "other" || string(ev.data) != "x\ny" {
		t.Errorf("fields: %+v %v", ev, err)
	}
	if _, err := r.next(); err != io.EOF {
		t.Errorf("end: %v", err)
	}
	// A stream that stops in the middle of an event.
	r = newSSEReader(strings.NewReader("data: {\"a\""), 1<<10)
	if _, err := r.next(); err != io.ErrUnexpectedEOF {
		t.Errorf("truncated: %v", err)
	}
	r = newSSEReader(strings.NewReader("data: "+strings.Repeat("x", 5000)+"\n\n"), 1<<10)
	if _, err := r.next(); !errors.Is(err, errSSETooLong) {
		t.Errorf("too long: %v", err)
	}
}

// TestReadLimited: bodies of every size up to the limit come back whole,
// with or without a (right, low or high) Content-Length, in small reads
// or large; one over the limit is refused.
func TestReadLimited(t *testing.T) {
	const max = 100_000
	for _, n := range []int{0, 1, 16 << 10, 16<<10 + 1, 70_000, max} {
		body := bytes.Repeat([]byte("x"), n)
		for _, size := range []int64{-1, int64(n), int64(n / 2), int64(n) + 1000} {
			for _, r := range []io.Reader{bytes.NewReader(body), iotest.HalfReader(bytes.NewReader(body))} {
				got, err := readLimited(r, size, max)
				if err != nil || !bytes.Equal(got, body) {
					t.Fatalf("%d bytes, size %d: %d bytes, %v", n, size, len(got), err)
				}
			}
		}
	}
	for _, size := range []int64{-1, max, max + 1} {
		if _, err := readLimited(bytes.NewReader(make([]byte, max+1)), size, max); err != errBodyTooLarge {
			t.Errorf("size %d: err %v", size, err)
		}
	}
}
