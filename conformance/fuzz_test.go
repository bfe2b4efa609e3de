package conformance

import (
	"slices"
	"testing"
)

// The fuzz targets feed one document to both sides, as an instance of one
// definition, and fail on any disagreement or panic, with the same
// documented exceptions as TestDifferential. The input is a definition
// index (into the generated package's Definitions, modulo its length) and
// the document. They are seeded with the official examples (2026-07-28)
// and with the instances built from the schema (every revision).
//
// Run one at a time, e.g.
//
//	go test ./conformance -run '^$' -fuzz '^FuzzDifferential20241105$' -fuzztime 3m
//
// Inputs that failed are kept under testdata/fuzz/<target>/ and run as
// regression cases by every `go test`.

func FuzzDifferential20241105(f *testing.F) { fuzzDifferential(f, "2024-11-05") }
func FuzzDifferential20250326(f *testing.F) { fuzzDifferential(f, "2025-03-26") }
func FuzzDifferential20250618(f *testing.F) { fuzzDifferential(f, "2025-06-18") }
func FuzzDifferential20251125(f *testing.F) { fuzzDifferential(f, "2025-11-25") }
func FuzzDifferential20260728(f *testing.F) { fuzzDifferential(f, "2026-07-28") }

func fuzzDifferential(f *testing.F, rev string) {
	r := loadRevision(f, rev)
	defs := r.defs
	if len(defs) == 0 || len(defs) > 256 {
		f.Fatalf("%s: %d definitions do not fit the index byte", rev, len(defs))
	}
	for _, b := range baseDocuments(f, r) {
		i := slices.Index(defs, b.def)
		if i < 0 {
			continue // no Go type: TestDifferential reports it
		}
		f.Add(byte(i), encode(b.value, compact))
	}
	f.Fuzz(func(t *testing.T, index byte, doc []byte) {
		def := defs[int(index)%len(defs)]
		d, err := r.check(testCase{def: def, label: "fuzz", doc: doc})
		if err != nil {
			t.Fatal(err)
		}
		if d != nil {
			t.Fatalf("disagreement: %s", d)
		}
	})
}
