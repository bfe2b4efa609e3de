package schema

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestEqualKey: two values share an equalKey exactly when Equal says they
// are equal.
func TestEqualKey(t *testing.T) {
	texts := []string{
		`null`, `true`, `false`, `0`, `-0`, `0.0`, `1`, `1.0`, `10e-1`, `100`, `1e2`, `1E+2`,
		`0.01`, `1e-2`, `-1`, `-1.0`, `12345678901234567890`, `1.2345678901234567890e19`,
		`1e400`, `10e399`, `"1"`, `""`, `"a"`, `"\u0061"`, `"ab"`, `"a\u0000b"`,
		`[]`, `[1]`, `[1.0]`, `[1,2]`, `[2,1]`, `[[1]]`, `["1"]`, `{}`,
		`{"a":1}`, `{"a":1.0}`, `{"b":1}`, `{"a":1,"b":2}`, `{"b":2,"a":1}`, `{"a":{"b":[1]}}`,
		`{"a":{"b":[1.00]}}`, `{"1:s":""}`, `{"1":"s:"}`, `["s1:a"]`, `["s1:","a"]`,
	}
	vals := make([]*Value, len(texts))
	for i, s := range texts {
		v, err := Parse([]byte(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		vals[i] = v
	}
	for i, a := range vals {
		for j, b := range vals {
			if eq, same := Equal(a, b), equalKey(a) == equalKey(b); eq != same {
				t.Errorf("%s, %s: Equal = %v, equal keys = %v (%q, %q)", texts[i], texts[j], eq, same, equalKey(a), equalKey(b))
			}
		}
	}
}

func enumSchema(values []string) []byte {
	return []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"E":{"enum":[` + strings.Join(values, ",") + `]}}}`)
}

// TestEnumDuplicates: each value equal to an earlier one is reported once,
// at its own pointer.
func TestEnumDuplicates(t *testing.T) {
	_, err := Load("s.json", enumSchema([]string{`1`, `"a"`, `1.0`, `{"x":1,"y":2}`, `{"y":2,"x":1}`,
		`[1,2]`, `[2,1]`, `null`, `null`, `1e0`}))
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("Load = %v, want errors", err)
	}
	var got []string
	for _, e := range errs {
		// The metaschema's uniqueItems reports the first repeat too.
		if !strings.Contains(e.Message, "by its metaschema") {
			got = append(got, e.Pointer+": "+e.Message)
		}
	}
	want := []string{
		`/definitions/E/enum/2: "enum" lists 1.0 twice`,
		`/definitions/E/enum/4: "enum" lists {"y":2,"x":1} twice`,
		`/definitions/E/enum/8: "enum" lists null twice`,
		`/definitions/E/enum/9: "enum" lists 1e0 twice`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEnumDuplicatesLarge: 100,000 values (a pairwise check makes 5e9
// comparisons here), with and without a repeat.
func TestEnumDuplicatesLarge(t *testing.T) {
	const n = 100_000
	vals := enumValues(n)
	if _, err := Load("s.json", enumSchema(vals)); err != nil {
		t.Fatalf("distinct values: %v", err)
	}
	_, err := Load("s.json", enumSchema(append(vals, `"v12345"`)))
	var errs Errors
	if !errors.As(err, &errs) || errs[len(errs)-1].Pointer != "/definitions/E/enum/"+strconv.Itoa(n) ||
		!strings.Contains(errs[len(errs)-1].Message, `"enum" lists "v12345" twice`) {
		t.Errorf("one repeat: %v", err)
	}
}

func enumValues(n int) []string {
	vals := make([]string, n)
	for i := range vals {
		vals[i] = `"v` + strconv.Itoa(i) + `"`
	}
	return vals
}

// BenchmarkLoadEnum loads a schema whose one definition is an enum of 10k
// and 100k strings; ns/value stays flat when the duplicate check is linear.
func BenchmarkLoadEnum(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		data := enumSchema(enumValues(n))
		b.Run(strconv.Itoa(n/1000)+"k", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Load("s.json", data); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/value")
		})
	}
}
