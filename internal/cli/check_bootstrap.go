//go:build mcpgen_bootstrap

package cli

import "context"

// Built with -tags mcpgen_bootstrap, mcpgen does not import the packages
// it generates, which mcpgen check validates messages with.
func runCheck(context.Context, []string, Env) error {
	return &usageError{"this mcpgen was built with -tags mcpgen_bootstrap and cannot check"}
}
