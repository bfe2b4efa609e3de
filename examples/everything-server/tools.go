package main

import (
	"context"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// addTools adds the tools in the order tools/list reports them, by area.
func (s *server) addTools() {
	addContentTools(s.Server)
	s.addDiagnosticTools()
	addInputTools(s.Server)
	addSchemaTools(s.Server)
	addTaskTools(s.Server)
}

// tool is a tool's definition: its name and description (AddTool derives
// the inputSchema from the type of its arguments).
func tool(name, description string) mcp.Tool {
	return mcp.Tool{Name: name, Description: &description}
}

// none is the arguments of a tool that takes none.
type none = struct{}

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
