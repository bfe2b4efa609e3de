// Command gosdk is the go-sdk (v1.8.0) half of the server side-by-side:
// the same server as ../mcpgen, written with the official Go SDK.
package main

import (
	"context"
	"log"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type AddArgs struct {
	A int64 `json:"a" jsonschema:"the first addend"`
	B int64 `json:"b" jsonschema:"the second addend"`
}

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "adder", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "add", Description: "Adds two integers."},
		func(ctx context.Context, req *mcp.CallToolRequest, in AddArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strconv.FormatInt(in.A+in.B, 10)}}}, nil, nil
		})
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
