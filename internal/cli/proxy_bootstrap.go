//go:build mcpgen_bootstrap

package cli

import "context"

// Built with -tags mcpgen_bootstrap, mcpgen does not import the packages
// it generates, which mcpgen proxy serves and forwards with.
func runProxy(context.Context, []string, Env) error {
	return &usageError{"this mcpgen was built with -tags mcpgen_bootstrap and cannot proxy"}
}
