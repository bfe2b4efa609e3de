package jsonrpc

import (
	"strings"
	"testing"
)

func TestIDKey(t *testing.T) {
	same := [][]string{
		{`100`, `1e2`, `1E+2`, `100.0`, `1000e-1`, `0.1e3`},
		{`0`, `-0`, `0.0`, `0e5`},
		{`-7`, `-7.00`, `-70e-1`},
		{`12345678901234567890123`, `1.2345678901234567890123e22`},
		{`"A"`, `"\u0041"`},
		{`"é/"`, `"\u00e9\/"`, `"\u00E9/"`},
		{`""`},
		{`"100"`},
		{`101`},
		{`-100`},
	}
	keys := map[string]string{}
	for _, group := range same {
		k := IDKey([]byte(group[0]))
		for _, id := range group[1:] {
			if got := IDKey([]byte(id)); got != k {
				t.Errorf("IDKey(%s) = %q, IDKey(%s) = %q: want equal", id, got, group[0], k)
			}
		}
		if other, ok := keys[k]; ok {
			t.Errorf("IDKey(%s) = IDKey(%s) = %q: want different", group[0], other, k)
		}
		keys[k] = group[0]
	}
}

func TestSplitMessages(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{``, nil},
		{" \t\r", nil},
		{`{"a":1}`, []string{`{"a":1}`}},
		{` {"a":1} `, []string{`{"a":1}`}},
		{`{"a":1}{"b":[2]} [3]`, []string{`{"a":1}`, `{"b":[2]}`, `[3]`}},
		{`{"a":"}{\"]["}{}`, []string{`{"a":"}{\"]["}`, `{}`}},
		{`{"a":1}garbage {}`, []string{`{"a":1}`, `garbage {}`}},
		{`42 {}`, []string{`42 {}`}},
		{`{"a":{}`, []string{`{"a":{}`}},
		{`{]}`, []string{`{]`, `}`}},
		{`{"a":"\`, []string{`{"a":"\`}},
	} {
		var got []string
		for _, m := range splitMessages([]byte(tc.line)) {
			got = append(got, string(m))
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("splitMessages(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}
