package main

import (
	"context"
	"encoding/json"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// tool is a tool definition and the function that runs it.
type tool struct {
	def mcp.Tool
	run func(ctx context.Context, s *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error)
}

// defineTool makes a tool from its definition as JSON (name, description,
// inputSchema, ...): the inputSchema reaches clients exactly as written.
func defineTool(def string, run func(context.Context, *server, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error)) tool {
	return tool{def: decode[mcp.Tool](def), run: run}
}

// noArgs is the inputSchema of a tool without arguments.
const noArgs = `{"type":"object","properties":{}}`

// allTools lists the tools in the order tools/list reports them.
func allTools() []tool {
	var ts []tool
	for _, group := range [][]tool{contentTools(), diagnosticTools(), inputTools(), schemaTools(), taskTools()} {
		ts = append(ts, group...)
	}
	return ts
}

func (s *server) ListTools(ctx context.Context, p *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	// The tools of the mcp.Server (the one that comes and goes) follow the
	// others, with its cache hints.
	r, err := s.Server.ListTools(ctx, p)
	if err != nil {
		return nil, err
	}
	defs := make([]mcp.Tool, 0, len(s.tools)+len(r.Tools))
	for _, t := range s.tools {
		defs = append(defs, t.def)
	}
	r.Tools = append(defs, r.Tools...)
	return r, nil
}

func (s *server) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	for _, t := range s.tools {
		if t.def.Name == p.Name {
			return t.run(ctx, s, p)
		}
	}
	return s.Server.CallTool(ctx, p)
}

// args decodes a tool call's arguments into v; a tool call whose
// arguments do not fit gets a tool error the model can read.
func args(p *mcp.CallToolRequestParams, v any) *mcp.CallToolResult {
	if len(p.Arguments) == 0 {
		return nil
	}
	if err := json.Unmarshal(p.Arguments, v); err != nil {
		return toolError("invalid arguments: " + err.Error())
	}
	return nil
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
