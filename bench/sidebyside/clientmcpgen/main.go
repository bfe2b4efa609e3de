// Command clientmcpgen is the mcpgen half of the client
// side-by-side: it starts the server given on its command line, calls its
// tool "add" with 40 and 2 and prints the answer. TestClientSideBySide
// (bench/sidebyside_test.go) compares it with the go-sdk half, runs both,
// and checks that docs/client.md (and the README) show them as they are.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/exec"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

func main() {
	ctx := context.Background()
	c, err := mcp.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(os.Args[1], os.Args[2:]...)}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	res, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "add", Arguments: json.RawMessage(`{"a":40,"b":2}`)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
}
