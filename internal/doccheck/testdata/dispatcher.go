package doc

import (
	"context"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The dispatcher d and the context ctx fragments use.
var (
	ctx = context.Background()
	d   = mcp.NewServerDispatcher(&mcp.Server{}, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "example", Version: "1.0.0"}})
)
