package codec

import (
	"strings"
	"testing"
)

func TestMetaGetSet(t *testing.T) {
	if v, ok := MetaGet([]byte(`{"a":1,"b":{"c":2}}`), "b"); !ok || string(v) != `{"c":2}` {
		t.Errorf("MetaGet b: %s %v", v, ok)
	}
	for _, meta := range []string{``, `[]`, `{"a":1}`} {
		if v, ok := MetaGet([]byte(meta), "b"); ok || v != nil {
			t.Errorf("MetaGet(%s, b): %s %v", meta, v, ok)
		}
	}
	for _, c := range []struct {
		meta, key, value, want string
	}{
		{``, "a", `1`, `{"a":1}`},
		{`{}`, "a", `"x"`, `{"a":"x"}`},
		{`{"a":1,"b":2}`, "a", `[3]`, `{"a":[3],"b":2}`},
		{` { "a" : 1 , "b" : 2 } `, "c", `null`, `{"a":1,"b":2,"c":null}`},
		{`{"a":1,"b":2}`, "a", ``, `{"b":2}`},
		{`{"a\"q":1}`, "k\n", `true`, `{"a\"q":1,"k\n":true}`},
	} {
		var value []byte
		if c.value != "" {
			value = []byte(c.value)
		}
		got, err := MetaSet([]byte(c.meta), c.key, value)
		if err != nil || string(got) != c.want {
			t.Errorf("MetaSet(%s, %q, %s) = %s, %v; want %s", c.meta, c.key, c.value, got, err, c.want)
		}
	}
	for _, c := range []struct {
		meta, value, want string
	}{
		{`[1]`, `1`, "_meta is not a JSON object"},
		{`{"a":1}`, `1 2`, `the value of "k" is not one JSON value`},
		{`{"a":1}`, `{`, `the value of "k" is not one JSON value`},
		{`{"a":1,"a":2}`, `1`, "duplicate"},
		{`{"a":1} x`, `1`, "after the top-level value"},
	} {
		_, err := MetaSet([]byte(c.meta), "k", []byte(c.value))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("MetaSet(%s, k, %s): %v, want %q", c.meta, c.value, err, c.want)
		}
	}
}
