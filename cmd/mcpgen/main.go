// Command mcpgen generates Go packages from the Model Context Protocol's
// JSON schemas: typed structs, sum types for unions, validators, and a
// lossless JSON round trip. Run 'mcpgen --help' for usage.
package main

import (
	"os"

	"github.com/mcpgen/mcpgen/internal/cli"
	_ "github.com/mcpgen/mcpgen/internal/cli/checkcmd" // mcpgen check
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
