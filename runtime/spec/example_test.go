package spec_test

import (
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/spec"
)

// What a revision does differently, by its version.
func ExampleOf() {
	for _, v := range []string{"2025-03-26", "2026-07-28"} {
		r := spec.Of(v, false)
		fmt.Printf("%s: handshake %v, batches %v\n", r.Version, r.Handshake, r.Batches)
	}
	// Output:
	// 2025-03-26: handshake true, batches true
	// 2026-07-28: handshake false, batches false
}
