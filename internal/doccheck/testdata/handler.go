package doc

import (
	"context"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// A handler h with its options, and the context ctx fragments use.
var (
	ctx                    = context.Background()
	h    mcp.ServerHandler = &mcp.Server{}
	opts                   = mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "example", Version: "1.0.0"}}
)
