package conformance

import (
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/testenv"
)

// TestValidateAllocatesNothing checks that validating an already decoded,
// valid value allocates nothing, for every official example.
func TestValidateAllocatesNothing(t *testing.T) {
	for _, ex := range testenv.Examples(t, "2026-07-28") {
		v, _ := mcp20260728.NewValue(ex.Definition)
		if err := v.UnmarshalJSON(ex.Data); err != nil {
			t.Fatalf("%s/%s: %v", ex.Definition, ex.Name, err)
		}
		allocs := testing.AllocsPerRun(20, func() {
			if err := v.Validate(); err != nil {
				t.Fatalf("%s/%s: %v", ex.Definition, ex.Name, err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s/%s: Validate allocates %.1f times", ex.Definition, ex.Name, allocs)
		}
	}
}
