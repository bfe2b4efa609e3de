// Command sdkserver serves the server of package sdkservers built with the
// official Go SDK (-sdk go-sdk) or mcp-go (-sdk mcp-go) over stdio, for the
// interoperability tests of the generated client's CommandTransport.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/interop/sdkservers"
)

func main() {
	which := flag.String("sdk", "go-sdk", "go-sdk or mcp-go")
	flag.Parse()
	var err error
	switch *which {
	case "go-sdk":
		err = sdkservers.GoSDK().Run(context.Background(), &sdk.StdioTransport{})
	case "mcp-go":
		err = mcpgoserver.ServeStdio(sdkservers.MCPGo())
	default:
		err = fmt.Errorf("unknown -sdk %q", *which)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkserver:", err)
		os.Exit(1)
	}
}
