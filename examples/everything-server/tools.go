package main

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// tool is a tool definition and the function that runs it.
type tool struct {
	def mcp.Tool
	run func(ctx context.Context, s *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error)
}

func (t tool) name() string { return t.def.Name }

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
	var defs []mcp.Tool
	for _, t := range s.tools.list() {
		defs = append(defs, t.def)
	}
	// The list changes (test_trigger_tool_change) and subscribers hear of
	// it, so it is fresh for a short while only.
	return &mcp.ListToolsResult{Tools: defs, TTLMs: (10 * time.Second).Milliseconds(), CacheScope: mcp.CacheScopePublic}, nil
}

func (s *server) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	t, ok := s.tools.get(p.Name)
	if !ok {
		return nil, &mcp.RPCError{Code: mcp.CodeInvalidParams, Message: "unknown tool " + strconv.Quote(p.Name)}
	}
	return t.run(ctx, s, p)
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
