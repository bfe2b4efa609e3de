package bench

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/schema"
)

// The corpus is the 129 official examples (33,523 bytes when this was
// written; the byte count is logged, not pinned).
func TestCorpus(t *testing.T) {
	c := theCorpus(t)
	if len(c) != 129 {
		t.Errorf("found %d official %s examples, want 129", len(c), Revision)
	}
	for _, e := range c {
		if !json.Valid(e.Data) {
			t.Errorf("%s is not valid JSON", e.ID())
		}
	}
	t.Logf("corpus: %d examples of %d definitions, %d bytes", len(c), len(definitions(c)), Size(c))
}

// Every mcpgen type decodes its examples, validates them and encodes them
// back to the same JSON (members in any order, numbers by exact value),
// through the same calls the benchmarks time: so the speed cannot come from
// skipping work.
func TestMcpgenRoundTrip(t *testing.T) {
	for _, e := range theCorpus(t) {
		v, ok := mcp20260728.NewValue(e.Definition)
		if !ok {
			t.Errorf("%s: mcp20260728 has no type for %s", e.ID(), e.Definition)
			continue
		}
		if err := v.UnmarshalJSON(e.Data); err != nil {
			t.Errorf("%s: UnmarshalJSON: %v", e.ID(), err)
			continue
		}
		if err := v.Validate(); err != nil {
			t.Errorf("%s: Validate: %v", e.ID(), err)
		}
		out, err := v.AppendJSON(nil)
		if err != nil {
			t.Errorf("%s: AppendJSON: %v", e.ID(), err)
			continue
		}
		eq, err := JSONEqual(e.Data, out)
		if err != nil {
			t.Errorf("%s: output is not JSON: %v\n%s", e.ID(), err, out)
			continue
		}
		if !eq {
			t.Errorf("%s: round trip changed the document\n in: %s\nout: %s", e.ID(), e.Data, out)
		}
		// json.Marshal compacts what AppendJSON copies verbatim (free-form
		// members kept as raw JSON), so only the values must agree.
		viaMarshal, err := json.Marshal(v)
		if err != nil {
			t.Errorf("%s: json.Marshal: %v", e.ID(), err)
		} else if eq, _ := JSONEqual(e.Data, viaMarshal); !eq {
			t.Errorf("%s: json.Marshal changed the document\n in: %s\nout: %s", e.ID(), e.Data, viaMarshal)
		}
	}
}

// The validators the benchmark times accept every example, so their rows
// time a complete validation.
func TestValidatorsAccept(t *testing.T) {
	c := theCorpus(t)
	s := theSchema(t, Revision)
	for name, compile := range map[string]func([]byte, []string) (map[string]Validator, error){"jsonschema/v5": V5, "jsonschema/v6": V6} {
		vs, err := compile(s, definitions(c))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, e := range c {
			if err := vs[e.Definition](e.Data); err != nil {
				t.Errorf("%s rejects %s: %v", name, e.ID(), err)
			}
		}
	}
}

// Each SDK decodes and re-encodes every example it claims without error.
// How much of each example the SDK's type keeps is logged: those types are
// not meant to be lossless, and the report says which are not.
func TestAnchorsDecode(t *testing.T) {
	c := theCorpus(t)
	for _, a := range Anchors {
		covered := a.Covered(c)
		lossless, keptLeaves, allLeaves := 0, 0, 0
		var lossy []string
		for _, e := range covered {
			m := a.Map[e.Definition]
			v, err := m.Decode(e.Data)
			if err != nil {
				t.Errorf("%s: %s into %s: %v", a.Name, e.ID(), m.Type, err)
				continue
			}
			out, err := m.Marshal(v)
			if err != nil {
				t.Errorf("%s: %s: encoding %s: %v", a.Name, e.ID(), m.Type, err)
				continue
			}
			kept, all, err := leavesKept(e.Data, out)
			if err != nil {
				t.Errorf("%s: %s: %v", a.Name, e.ID(), err)
				continue
			}
			// A decode that keeps nothing is a silent failure.
			if kept == 0 {
				t.Errorf("%s: %s into %s keeps none of the example's %d values:\n in: %s\nout: %s", a.Name, e.ID(), m.Type, all, e.Data, out)
			}
			keptLeaves += kept
			allLeaves += all
			if eq, _ := JSONEqual(e.Data, out); eq {
				lossless++
			} else {
				lossy = append(lossy, fmt.Sprintf("%s (%d/%d)", e.ID(), kept, all))
			}
		}
		t.Logf("%s: covers %d of %d examples (%d bytes) in %d definitions; %d round-trip losslessly; %d of %d scalar values kept",
			a.Name, len(covered), len(c), Size(covered), len(definitions(covered)), lossless, keptLeaves, allLeaves)
		t.Logf("%s: not covered: %s", a.Name, strings.Join(a.Uncovered(c), ", "))
		for def, m := range a.Fails {
			n := 0
			for _, e := range c {
				if e.Definition != def {
					continue
				}
				n++
				if _, err := m.Decode(e.Data); err == nil {
					t.Errorf("%s: %s now decodes into %s: move it from Fails to Map", a.Name, e.ID(), m.Type)
				}
			}
			if n == 0 {
				t.Errorf("%s: Fails names %s, which has no example", a.Name, def)
			}
		}
		t.Logf("%s: lossy round trips (values kept/all): %s", a.Name, strings.Join(lossy, ", "))
	}
}

// leavesKept counts the scalar values of in that out holds unchanged at the
// same place.
func leavesKept(in, out []byte) (kept, all int, err error) {
	vi, err := DecodeNumber(in)
	if err != nil {
		return 0, 0, err
	}
	vo, err := DecodeNumber(out)
	if err != nil {
		return 0, 0, fmt.Errorf("output is not JSON: %v", err)
	}
	li, lo := Leaves(vi), Leaves(vo)
	for p, x := range li {
		if lo[p] == x {
			kept++
		}
	}
	return kept, len(li), nil
}

// The generator benchmark generates the five revisions and a synthetic
// schema of ten renamed copies of 2026-07-28's definitions; both must
// generate without error, and the copy must be ten times the original.
func TestGeneratorInputs(t *testing.T) {
	for _, rev := range Revisions {
		files, _, err := gen.Generate(rev+"/schema.json", theSchema(t, rev), gen.Options{Package: schema.PackageName(rev), Revision: rev})
		if err != nil {
			t.Fatalf("%s: %v", rev, err)
		}
		t.Logf("%s: %d files, %d bytes of Go", rev, len(files), filesSize(files))
	}
	orig := theSchema(t, Revision)
	syn, err := Synthetic(orig, 10)
	if err != nil {
		t.Fatal(err)
	}
	compact, err := Synthetic(orig, 1)
	if err != nil {
		t.Fatal(err)
	}
	d1, err := schema.Load("1x", orig)
	if err != nil {
		t.Fatal(err)
	}
	d10, err := schema.Load("10x", syn)
	if err != nil {
		t.Fatal(err)
	}
	if n1, n10 := len(d1.Defs), len(d10.Defs); n10 != 10*n1 {
		t.Errorf("synthetic schema has %d definitions, want 10 x %d", n10, n1)
	}
	f1, _, err := gen.Generate("1x", orig, gen.Options{Package: "mcp20260728", Revision: Revision})
	if err != nil {
		t.Fatal(err)
	}
	f10, _, err := gen.Generate("10x", syn, gen.Options{Package: "mcp20260728", Revision: Revision})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("synthetic 10x: %d bytes (the original compacted the same way: %d, ratio %.2f); generated Go: %d vs %d bytes (ratio %.2f)",
		len(syn), len(compact), float64(len(syn))/float64(len(compact)), filesSize(f10), filesSize(f1), float64(filesSize(f10))/float64(filesSize(f1)))
}

func filesSize(f gen.Files) int {
	n := 0
	for _, b := range f {
		n += len(b)
	}
	return n
}

// The validators (both reference validators and mcpgen's Validate) reject
// broken documents: a missing required member, a "byte" string that is not
// base64, a "uri" that is not a URI, a priority above 1. So their rows time
// real validation, format assertions included.
func TestValidatorsReject(t *testing.T) {
	broken := []struct{ def, doc string }{
		{"TextContent", `{"type": "text"}`},
		{"ImageContent", `{"type": "image", "data": "not base64!", "mimeType": "image/png"}`},
		{"Resource", `{"uri": "not a uri", "name": "README.md"}`},
		{"Resource", `{"uri": "file:///README.md", "name": "README.md", "annotations": {"priority": 1.5}}`},
	}
	s := theSchema(t, Revision)
	var defs []string
	for _, b := range broken {
		defs = append(defs, b.def)
	}
	for name, compile := range map[string]func([]byte, []string) (map[string]Validator, error){"jsonschema/v5": V5, "jsonschema/v6": V6} {
		vs, err := compile(s, defs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, b := range broken {
			if err := vs[b.def]([]byte(b.doc)); err == nil {
				t.Errorf("%s accepts a broken %s: %s", name, b.def, b.doc)
			}
		}
	}
	for _, b := range broken {
		v, _ := mcp20260728.NewValue(b.def)
		if v.UnmarshalJSON([]byte(b.doc)) == nil && v.Validate() == nil {
			t.Errorf("mcpgen accepts a broken %s: %s", b.def, b.doc)
		}
	}
}
