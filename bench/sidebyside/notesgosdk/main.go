// Command notesgosdk is the go-sdk half of the everyday side-by-side: a
// server with a typed tool, a resource, a resource template and a prompt,
// on stdio, or on Streamable HTTP at the address given as its argument.
// TestEverydaySideBySide (bench/sidebyside_test.go) compares it with the
// mcpgen half, runs both and checks that docs/server.md shows both.
package main

import (
	"context"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type AddArgs struct {
	A int64 `json:"a" jsonschema:"the first addend"`
	B int64 `json:"b" jsonschema:"the second addend"`
}

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "add", Description: "Adds two integers."},
		func(ctx context.Context, req *mcp.CallToolRequest, in AddArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strconv.FormatInt(in.A+in.B, 10)}}}, nil, nil
		})
	server.AddResource(&mcp.Resource{URI: "notes://today", Name: "today", MIMEType: "text/plain"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "buy milk"}}}, nil
		})
	server.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "notes://days/{day}", Name: "day", MIMEType: "text/plain"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			day := strings.TrimPrefix(req.Params.URI, "notes://days/")
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "nothing on " + day}}}, nil
		})
	server.AddPrompt(&mcp.Prompt{Name: "plan", Description: "Plans a day.", Arguments: []*mcp.PromptArgument{{Name: "day", Description: "the day to plan", Required: true}}},
		func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Plan " + req.Params.Arguments["day"] + "."}}}}, nil
		})
	if len(os.Args) > 1 {
		handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
		log.Fatal(http.ListenAndServe(os.Args[1], handler))
	}
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
