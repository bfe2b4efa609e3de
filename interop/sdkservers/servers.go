// Package sdkservers builds the same small MCP server with the official Go
// SDK (github.com/modelcontextprotocol/go-sdk v1.8.0) and with mcp-go
// (github.com/mark3labs/mcp-go v1.2.1), for the interoperability tests of
// mcpgen's generated client (../client_test.go). Each server has:
//
//   - tool "add" (integers a and b): their sum as text;
//   - tool "greet": asks for a name with a multi round-trip elicitation
//     (2026-07-28; servers of both SDKs turn it into a server request for
//     clients of earlier revisions), then answers "Hello, NAME!";
//   - tool "region": its argument region is mirrored into the header
//     Mcp-Param-Region (x-mcp-header), which both SDKs check;
//   - resource test://hello (text "hello world");
//   - prompt "greeting" (argument name): "Hello, NAME".
//
// cmd/sdkserver serves either over stdio or Streamable HTTP.
package sdkservers

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// RegionSchema is the input schema of the region tool.
const RegionSchema = `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}},"required":["region"]}`

type addArgs struct {
	A int64 `json:"a"`
	B int64 `json:"b"`
}

// GoSDK returns the server built with the official Go SDK.
func GoSDK() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "go-sdk-server", Version: "1.8.0"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "Adds two integers."},
		func(ctx context.Context, req *sdk.CallToolRequest, in addArgs) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "greet", Description: "Asks for a name, then greets."},
		func(ctx context.Context, req *sdk.CallToolRequest, _ any) (*sdk.CallToolResult, any, error) {
			if r, ok := req.Params.InputResponses["name"].(*sdk.ElicitResult); ok && r != nil && r.Action == "accept" {
				name, _ := r.Content["name"].(string)
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Hello, " + name + "!"}}}, nil, nil
			}
			return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{
				"name": &sdk.ElicitParams{Message: "What is your name?", RequestedSchema: &jsonschema.Schema{
					Type: "object", Properties: map[string]*jsonschema.Schema{"name": {Type: "string"}}, Required: []string{"name"},
				}},
			}}, nil, nil
		})
	s.AddTool(&sdk.Tool{Name: "region", Description: "Echoes its region.", InputSchema: json.RawMessage(RegionSchema)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var in struct{ Region string }
			json.Unmarshal(req.Params.Arguments, &in)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "region " + in.Region}}}, nil
		})
	s.AddResource(&sdk.Resource{URI: "test://hello", Name: "hello", MIMEType: "text/plain"},
		func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "test://hello", MIMEType: "text/plain", Text: "hello world"}}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "greeting", Arguments: []*sdk.PromptArgument{{Name: "name", Required: true}}},
		func(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "Hello, " + req.Params.Arguments["name"]}}}}, nil
		})
	return s
}

// MCPGo returns the server built with mcp-go.
func MCPGo() *mcpgoserver.MCPServer {
	s := mcpgoserver.NewMCPServer("mcp-go-server", "1.2.1",
		mcpgoserver.WithToolCapabilities(true), mcpgoserver.WithResourceCapabilities(false, true), mcpgoserver.WithPromptCapabilities(true))
	s.AddTool(mcpgo.NewTool("add", mcpgo.WithDescription("Adds two integers."),
		mcpgo.WithNumber("a", mcpgo.Required()), mcpgo.WithNumber("b", mcpgo.Required())),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(fmt.Sprint(int64(req.GetFloat("a", 0) + req.GetFloat("b", 0)))), nil
		})
	s.AddTool(mcpgo.NewTool("greet", mcpgo.WithDescription("Asks for a name, then greets.")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			if r := mcpgoserver.ElicitationResponse(req.Params.InputResponses, "name"); r != nil && r.Action == mcpgo.ElicitationResponseActionAccept {
				content, _ := r.Content.(map[string]any)
				name, _ := content["name"].(string)
				return mcpgo.NewToolResultText("Hello, " + name + "!"), nil
			}
			return mcpgoserver.NewInputRequestBuilder("").Elicit("name", mcpgo.ElicitationParams{
				Message:         "What is your name?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []string{"name"}},
			}).ToolResult(), nil
		})
	s.AddTool(mcpgo.NewToolWithRawSchema("region", "Echoes its region.", json.RawMessage(RegionSchema)),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("region " + req.GetString("region", "")), nil
		})
	s.AddResource(mcpgo.NewResource("test://hello", "hello", mcpgo.WithMIMEType("text/plain")),
		func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: "test://hello", MIMEType: "text/plain", Text: "hello world"}}, nil
		})
	s.AddPrompt(mcpgo.NewPrompt("greeting", mcpgo.WithArgument("name", mcpgo.RequiredArgument())),
		func(ctx context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
			return mcpgo.NewGetPromptResult("greeting", []mcpgo.PromptMessage{
				mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent("Hello, "+req.Params.Arguments["name"])),
			}), nil
		})
	return s
}
