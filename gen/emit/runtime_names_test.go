package emit

import (
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// TestRuntimeNames checks that the emitter declares exactly the runtime
// names the IR lists (ir.RuntimeNames, which the builder claims), in the
// same order, and that Emit refuses a package that re-exports a name it
// cannot declare.
func TestRuntimeNames(t *testing.T) {
	var want, got []string
	for _, n := range ir.RuntimeNames {
		want = append(want, n.Name)
	}
	for _, n := range runtimeNames {
		got = append(got, n.name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("the emitter declares %q,\nthe IR lists %q", got, want)
	}
	_, err := Emit(&ir.Package{Name: "p", ReExported: []string{"Member", "NoSuchName"}})
	if err == nil {
		t.Error("Emit accepted a re-export of a name the runtime does not have")
	}
}
