// Command mcpgen is the mcpgen half of the server side-by-side: a stdio
// server with one tool, "add", whose arguments are a Go struct. The test
// TestSideBySide (bench/sidebyside_test.go) compares it with the go-sdk
// half, runs both, and checks that docs/serving.md (and the README) show
// them as they are.
package main

import (
	"context"
	"log"
	"strconv"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

type AddArgs struct {
	A int64 `json:"a" jsonschema:"the first addend"`
	B int64 `json:"b" jsonschema:"the second addend"`
}

func main() {
	d := mcp.NewServerDispatcher(&mcp.Server{}, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "adder", Version: "1.0.0"}})
	mcp.AddTool(d, mcp.Tool{Name: "add", Description: new("Adds two integers.")},
		func(ctx context.Context, p *mcp.CallToolRequestParams, in AddArgs) (*mcp.CallToolResult, error) {
			return mcp.TextResult(strconv.FormatInt(in.A+in.B, 10)), nil
		})
	if err := d.ServeStdio(context.Background()); err != nil {
		log.Fatal(err)
	}
}
