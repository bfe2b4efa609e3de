package main

import (
	"context"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Tools whose input schemas matter in themselves: one that uses JSON
// Schema 2020-12 keywords (clients must keep the schema as it is), and one
// whose argument is mirrored into an HTTP header (x-mcp-header), which the
// HTTP transport checks against the body.

func addSchemaTools(s *mcp.Server) {
	mcp.AddTool(s, tool("json_schema_2020_12_tool", "Has an inputSchema that uses JSON Schema 2020-12 keywords ($defs, $anchor, allOf, if/then/else)."),
		func(_ context.Context, _ *mcp.CallToolRequestParams, in contact) (*mcp.CallToolResult, error) {
			return mcp.TextResult("Received: " + jsonText(in)), nil
		})
	mcp.AddTool(s, tool("test_x_mcp_header", "Looks up a region; over HTTP the region also travels in the Mcp-Param-Region header."),
		func(_ context.Context, _ *mcp.CallToolRequestParams, in regionArgs) (*mcp.CallToolResult, error) {
			return mcp.TextResult("Region: " + in.Region), nil
		})
}

// regionArgs's region is mirrored into the Mcp-Param-Region header.
type regionArgs struct {
	Region string `json:"region" mcp:"header=Region" jsonschema:"A region name"`
	Query  string `json:"query,omitempty"`
}

// contact is the arguments of json_schema_2020_12_tool, whose schema
// (MCPSchema) says more than a Go struct can: a phone or an email is
// required, the one contactMethod names. The arguments are checked
// against it before they are decoded.
type contact struct {
	Name    string `json:"name,omitempty"`
	Address *struct {
		Street string `json:"street,omitempty"`
		City   string `json:"city,omitempty"`
	} `json:"address,omitempty"`
	ContactMethod string `json:"contactMethod,omitempty"`
	Phone         string `json:"phone,omitempty"`
	Email         string `json:"email,omitempty"`
}

func (contact) MCPSchema() []byte {
	return []byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
		`"$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},` +
		`"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},` +
		`"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],` +
		`"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},` +
		`"additionalProperties":false}`)
}
