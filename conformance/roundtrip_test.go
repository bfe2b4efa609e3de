package conformance

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/reference"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

// TestExamplesRoundTrip decodes every official 2026-07-28 example into the
// type of its definition and encodes it again: the JSON must be the same
// (members in any order, numbers by exact value), and the example must
// validate.
func TestExamplesRoundTrip(t *testing.T) {
	examples := testenv.Examples(t, "2026-07-28")
	if len(examples) != 129 {
		t.Errorf("found %d official examples, want 129", len(examples))
	}
	for _, ex := range examples {
		t.Run(ex.Definition+"/"+ex.Name, func(t *testing.T) {
			roundTrip(t, ex.Definition, ex.Data)
		})
	}
}

// unknownMember is what TestExamplesRoundTripUnknownMembers adds: a member
// no MCP definition names, with numbers no float64 holds exactly.
const unknownMember = `{"n": [1, 2.5e300, "s", 123456789012345678901234567890, 0.1000000000000000055511151231257827]}`

// TestExamplesRoundTripUnknownMembers adds a member the schema does not name
// to every object of every example where the schema allows one (the
// reference validator still accepts the document), and checks the round
// trip again. Where the schema does not allow it (an object whose members
// must all be strings, say), the generated code must reject the document
// too.
func TestExamplesRoundTripUnknownMembers(t *testing.T) {
	ref, err := reference.New(testenv.Schema(t, "2026-07-28"))
	if err != nil {
		t.Fatal(err)
	}
	added, refused := 0, 0
	for _, ex := range testenv.Examples(t, "2026-07-28") {
		t.Run(ex.Definition+"/"+ex.Name, func(t *testing.T) {
			doc, err := schema.Parse(ex.Data)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, obj := range objects(doc) {
				extra, _ := schema.Parse([]byte(unknownMember))
				obj.Members = append(obj.Members, schema.Member{Name: "x-mcpgen-unknown", Value: extra})
				trial := []byte(doc.JSON())
				ok, _, err := ref.Validate(ex.Definition, trial)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					// Not allowed here: mcpgen must say so too, then undo.
					if decodesAndValidates(t, ex.Definition, trial) {
						t.Errorf("accepts an unknown member at %s that the schema forbids:\n%s", obj.Pointer, trial)
					}
					obj.Members = obj.Members[:len(obj.Members)-1]
					refused++
					continue
				}
				n++
			}
			if n == 0 {
				t.Fatalf("no object of the example takes an unknown member")
			}
			added += n
			roundTrip(t, ex.Definition, []byte(doc.JSON()))
		})
	}
	t.Logf("added %d unknown members; %d places refused one (as the schema says)", added, refused)
}

// objects lists the objects in v, innermost last.
func objects(v *schema.Value) []*schema.Value {
	var out []*schema.Value
	switch v.Kind {
	case schema.Array:
		for _, it := range v.Items {
			out = append(out, objects(it)...)
		}
	case schema.Object:
		out = append(out, v)
		for _, m := range v.Members {
			out = append(out, objects(m.Value)...)
		}
	}
	return out
}

func decodesAndValidates(t *testing.T, def string, data []byte) bool {
	v, ok := mcp20260728.NewValue(def)
	if !ok {
		t.Fatalf("mcp20260728 has no type for definition %s", def)
	}
	return v.UnmarshalJSON(data) == nil && v.Validate() == nil
}

func roundTrip(t *testing.T, def string, data []byte) {
	t.Helper()
	v, ok := mcp20260728.NewValue(def)
	if !ok {
		t.Fatalf("mcp20260728 has no type for definition %s", def)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("json.Unmarshal into %T: %v\ninput: %s", v, err, data)
	}
	if err := v.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	want, err := schema.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := schema.Parse(out)
	if err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if !schema.Equal(want, got) {
		t.Errorf("round trip changed the document\n in: %s\nout: %s", want.JSON(), got.JSON())
	}
}
