//go:build !mcpgen_bootstrap

package cli

import (
	"github.com/mcpgen/mcpgen/generated/mcp20241105"
	"github.com/mcpgen/mcpgen/generated/mcp20250326"
	"github.com/mcpgen/mcpgen/generated/mcp20250618"
	"github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// registries are the generated packages of the pinned revisions, by
// revision.
var registries = map[string]registry{
	"2024-11-05": {wrapNew(mcp20241105.NewValue), wrapCheck(mcp20241105.UnmarshalAndValidate)},
	"2025-03-26": {wrapNew(mcp20250326.NewValue), wrapCheck(mcp20250326.UnmarshalAndValidate)},
	"2025-06-18": {wrapNew(mcp20250618.NewValue), wrapCheck(mcp20250618.UnmarshalAndValidate)},
	"2025-11-25": {wrapNew(mcp20251125.NewValue), wrapCheck(mcp20251125.UnmarshalAndValidate)},
	"2026-07-28": {wrapNew(mcp20260728.NewValue), wrapCheck(mcp20260728.UnmarshalAndValidate)},
}

func wrapNew[V validator](f func(string) (V, bool)) func(string) (validator, bool) {
	return func(def string) (validator, bool) { return f(def) }
}

func wrapCheck(f func([]byte, interface {
	UnmarshalJSON([]byte) error
	Validate() error
}) error) func([]byte, validator) error {
	return func(b []byte, v validator) error { return f(b, v) }
}
