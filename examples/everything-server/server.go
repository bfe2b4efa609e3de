package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// server implements every feature area the conformance suite exercises.
// The embedded mcp.Server holds its tools, resources, resource template and
// prompts, each area added from a file of its own (tools*.go, resources.go,
// prompts.go), and serves subscriptions/listen; this type adds completion
// (completion.go), the tasks extension's check on subscriptions
// (subscriptions.go) and the changes that come and go at run time.
// UnimplementedServerHandler (which mcp.Server embeds) answers the rest with
// "method not found".
type server struct {
	*mcp.Server

	hub   *hub
	tasks *mcp.TaskStore
	log   *slog.Logger

	mu sync.Mutex // transientTool, transientPrompt
	// Whether the tool and the prompt that come and go are in the set.
	transientTool, transientPrompt bool
}

func newServer(log *slog.Logger) *server {
	s := &server{
		// The tool and prompt lists change (test_trigger_tool_change) and
		// subscribers hear of it, so the lists are fresh for a short while
		// only.
		Server: &mcp.Server{TTL: 10 * time.Second},
		tasks:  mcp.NewTaskStore(mcp.TaskStoreOptions{TTL: time.Hour, PollInterval: 500 * time.Millisecond}),
		log:    log,
	}
	s.hub = &hub{apply: s.apply}
	s.addTools()
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
		Logger:       s.log,
	}
}

// close ends open subscriptions and cancels running tasks, waiting for
// them until ctx is done.
func (s *server) close(ctx context.Context) error {
	s.EndSubscriptions()
	return s.tasks.Shutdown(ctx)
}
