package main

import (
	"context"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Tools whose input schemas matter in themselves: one that uses JSON
// Schema 2020-12 keywords (clients must keep the schema as it is), and one
// whose argument is mirrored into an HTTP header (x-mcp-header), which the
// HTTP transport checks against the body.

const schema202012 = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
	`"$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},` +
	`"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},` +
	`"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],` +
	`"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},` +
	`"additionalProperties":false}`

func schemaTools() []tool {
	return []tool{
		defineTool(`{"name":"json_schema_2020_12_tool","description":"Has an inputSchema that uses JSON Schema 2020-12 keywords ($defs, $anchor, allOf, if/then/else).","inputSchema":`+schema202012+`}`,
			func(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				return toolResult(text("Received: " + string(p.Arguments))), nil
			}),
		defineTool(`{"name":"test_x_mcp_header","description":"Looks up a region; over HTTP the region also travels in the Mcp-Param-Region header.","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region","description":"A region name"},"query":{"type":"string"}},"required":["region"]}}`,
			func(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				var in struct {
					Region string `json:"region"`
				}
				if r := args(p, &in); r != nil {
					return r, nil
				}
				return toolResult(text("Region: " + in.Region)), nil
			}),
	}
}
