//go:build mcpgen_bootstrap

package cli

// Built with -tags mcpgen_bootstrap (as `make generate` does), mcpgen does
// not import the packages it generates, so it can regenerate them even when
// they do not compile; `mcpgen validate` then knows no revision.
var registries = map[string]registry{}
