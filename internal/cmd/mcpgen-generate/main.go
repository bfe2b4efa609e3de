// Command mcpgen-generate is mcpgen without the commands that speak MCP
// (check): it links no generated package, so make generate regenerates
// generated/ with it even when generated/ is stale, broken or absent.
// Everything else is cmd/mcpgen's (internal/cli).
package main

import (
	"os"

	"github.com/mcpgen/mcpgen/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
