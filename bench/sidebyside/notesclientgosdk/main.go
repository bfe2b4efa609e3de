// Command notesclientgosdk is the go-sdk half of the everyday client
// side-by-side: it starts the server given on its command line, lists its
// tools, calls "add" with typed arguments and reads a resource, printing
// each answer. TestEverydaySideBySide compares it with the mcpgen half.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type AddArgs struct {
	A int64 `json:"a"`
	B int64 `json:"b"`
}

func main() {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "notes-client", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(os.Args[1], os.Args[2:]...)}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(tool.Name)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: AddArgs{A: 40, B: 2}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	r, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://today"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Contents[0].Text)
}
