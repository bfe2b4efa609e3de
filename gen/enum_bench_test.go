package gen_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
)

// BenchmarkGenerateEnum runs the whole pipeline on a schema whose one
// definition is a string enum of 10k and 100k values (issue 14: the
// duplicate check and the list of values in the validation message were
// quadratic). ns/value stays flat when generation is linear in the values.
func BenchmarkGenerateEnum(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		vals := make([]string, n)
		for i := range vals {
			vals[i] = `"v` + strconv.Itoa(i) + `"`
		}
		data := []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"E":{"type":"string","enum":[` +
			strings.Join(vals, ",") + `]}}}`)
		b.Run(strconv.Itoa(n/1000)+"k", func(b *testing.B) {
			for b.Loop() {
				files, _, err := gen.Generate("enum.json", data, gen.Options{Package: "enum"})
				if err != nil {
					b.Fatal(err)
				}
				if len(files) == 0 {
					b.Fatal("no files")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/value")
		})
	}
}
