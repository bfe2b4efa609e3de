// Command notesmcpgen is the mcpgen half of the everyday side-by-side: a
// server with a typed tool, a resource, a resource template and a prompt,
// on stdio, or on Streamable HTTP at the address given as its argument.
// TestEverydaySideBySide (bench/sidebyside_test.go) compares it with the
// go-sdk half, runs both and checks that docs/server.md shows both.
package main

import (
	"context"
	"log"
	"os"
	"strconv"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

type AddArgs struct {
	A int64 `json:"a" jsonschema:"the first addend"`
	B int64 `json:"b" jsonschema:"the second addend"`
}

type PlanArgs struct {
	Day string `json:"day" jsonschema:"the day to plan"`
}

func main() {
	s := &mcp.Server{}
	mcp.AddTool(s, mcp.Tool{Name: "add", Description: new("Adds two integers.")},
		func(ctx context.Context, p *mcp.CallToolRequestParams, in AddArgs) (*mcp.CallToolResult, error) {
			return mcp.TextResult(strconv.FormatInt(in.A+in.B, 10)), nil
		})
	mcp.AddResource(s, mcp.Resource{URI: "notes://today", Name: "today", MIMEType: new("text/plain")},
		func(ctx context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
			return mcp.TextResource(p.URI, "text/plain", "buy milk"), nil
		})
	mcp.AddResourceTemplate(s, mcp.ResourceTemplate{URITemplate: "notes://days/{day}", Name: "day", MIMEType: new("text/plain")},
		func(ctx context.Context, p *mcp.ReadResourceRequestParams, vars map[string]string) (*mcp.ReadResourceResult, error) {
			return mcp.TextResource(p.URI, "text/plain", "nothing on "+vars["day"]), nil
		})
	mcp.AddPrompt(s, mcp.Prompt{Name: "plan", Description: new("Plans a day.")},
		func(ctx context.Context, p *mcp.GetPromptRequestParams, in PlanArgs) (*mcp.GetPromptResult, error) {
			return mcp.TextPrompt("Plan " + in.Day + "."), nil
		})
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "notes", Version: "1.0.0"}})
	ctx := context.Background()
	if len(os.Args) > 1 {
		log.Fatal(mcp.NewHTTPHandler(d).ListenAndServe(ctx, os.Args[1]))
	}
	if err := d.ServeStdio(ctx); err != nil {
		log.Fatal(err)
	}
}
