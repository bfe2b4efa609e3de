package main

import (
	"context"
	"sync"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// server implements every feature area the conformance suite exercises;
// each area is in a file of its own (tools*.go, resources.go, prompts.go,
// completion.go, subscriptions.go). The embedded mcp.Server holds the
// resources, the template and the prompts, and the tool that comes and
// goes, and serves subscriptions/listen; the tools with schemas of their
// own are in tools. UnimplementedServerHandler (which mcp.Server embeds)
// answers the rest with "method not found".
type server struct {
	*mcp.Server

	tools []tool // the tools whose inputSchema is written out as JSON
	tasks *mcp.TaskStore
	logf  func(format string, args ...any)

	mu                             sync.Mutex // transientTool, transientPrompt
	transientTool, transientPrompt bool
}

func newServer(logf func(format string, args ...any)) *server {
	s := &server{
		// The lists change (test_trigger_tool_change) and subscribers hear
		// of it, so they are fresh for a short while only.
		Server: &mcp.Server{TTL: 10 * time.Second},
		tools:  allTools(),
		tasks:  mcp.NewTaskStore(mcp.TaskStoreOptions{TTL: time.Hour, PollInterval: 500 * time.Millisecond}),
		logf:   logf,
	}
	addResources(s.Server)
	addPrompts(s.Server)
	return s
}

var serverInfo = mcp.Implementation{Name: "mcpgen-everything-server", Version: "1.0.0"}

// options are the dispatcher's options: what server/discover reports, the
// task store (which also makes the dispatcher advertise the tasks
// extension), and the log. The dispatcher declares the tools, resources
// and prompts capabilities from the mcp.Server.
func (s *server) options() mcp.ServerOptions {
	return mcp.ServerOptions{
		ServerInfo: serverInfo,
		Capabilities: mcp.ServerCapabilities{
			Completions: &mcp.ServerCapabilitiesCompletions{},
			Logging:     &mcp.ServerCapabilitiesLogging{},
		},
		Instructions: "A server that offers every kind of tool, resource and prompt the MCP conformance suite tests.",
		DiscoverTTL:  time.Hour,
		Tasks:        s.tasks,
		Logf:         s.logf,
	}
}

// close ends open subscriptions and cancels running tasks, waiting for
// them until ctx is done.
func (s *server) close(ctx context.Context) error {
	s.EndSubscriptions()
	return s.tasks.Shutdown(ctx)
}
