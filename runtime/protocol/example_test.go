package protocol_test

import (
	"context"
	"fmt"
	"strconv"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

type AddArgs struct {
	A int64 `json:"a" jsonschema:"the first addend"`
	B int64 `json:"b" jsonschema:"the second addend"`
}

// A server with one tool answering a call, and refusing arguments its
// schema does not allow, through the generated package that wraps this
// runtime: the tool set, argument checking and the answer are this
// package's work. Serve runs the same dispatcher over stdio, and
// NewHTTPHandler over Streamable HTTP.
func Example() {
	d := mcp.NewServerDispatcher(&mcp.Server{}, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "adder", Version: "1.0.0"}})
	mcp.AddTool(d, mcp.Tool{Name: "add", Description: new("Adds two integers.")},
		func(ctx context.Context, p *mcp.CallToolRequestParams, in AddArgs) (*mcp.CallToolResult, error) {
			return mcp.TextResult(strconv.FormatInt(in.A+in.B, 10)), nil
		})
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3},` + meta + `}}`
	fmt.Printf("%s\n", d.Handle(context.Background(), []byte(call)))
	bad := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":"two","b":3},` + meta + `}}`
	fmt.Printf("%s\n", d.Handle(context.Background(), []byte(bad)))
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"adder","version":"1.0.0"}},"content":[{"text":"5","type":"text"}],"resultType":"complete"}}
	// {"jsonrpc":"2.0","id":2,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"adder","version":"1.0.0"}},"content":[{"text":"invalid arguments for tool \"add\": /a: expected integer, got string","type":"text"}],"isError":true,"resultType":"complete"}}
}
