package main

import (
	"context"
	"sync"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// server implements every feature area the conformance suite exercises;
// each area is in a file of its own (tools*.go, resources.go, prompts.go,
// completion.go, subscriptions.go). UnimplementedServerHandler answers
// the rest with "method not found".
type server struct {
	mcp.UnimplementedServerHandler

	tools   *registry[tool]
	prompts *registry[prompt]
	hub     *hub
	tasks   *mcp.TaskStore
	logf    func(format string, args ...any)

	// closing is closed when the server shuts down: open subscriptions
	// end with a result.
	closing   chan struct{}
	closeOnce sync.Once
}

func newServer(logf func(format string, args ...any)) *server {
	s := &server{
		hub:     newHub(),
		tasks:   mcp.NewTaskStore(mcp.TaskStoreOptions{TTL: time.Hour, PollInterval: 500 * time.Millisecond}),
		logf:    logf,
		closing: make(chan struct{}),
	}
	s.tools = newRegistry(s.hub, mcp.MethodToolListChangedNotification, allTools()...)
	s.tools.learn(transientTool)
	s.prompts = newRegistry(s.hub, mcp.MethodPromptListChangedNotification, allPrompts()...)
	s.prompts.learn(transientPrompt)
	return s
}

var serverInfo = mcp.Implementation{Name: "mcpgen-everything-server", Version: "1.0.0"}

// options are the dispatcher's options: what server/discover reports, the
// task store (which also makes the dispatcher advertise the tasks
// extension), and the log.
func (s *server) options() mcp.ServerOptions {
	return mcp.ServerOptions{
		ServerInfo:   serverInfo,
		Capabilities: capabilities(),
		Instructions: "A server that offers every kind of tool, resource and prompt the MCP conformance suite tests.",
		DiscoverTTL:  time.Hour,
		Tasks:        s.tasks,
		Logf:         s.logf,
	}
}

// capabilities are what the server offers: tools and prompts whose lists
// change (with notifications on subscriptions/listen), resources with
// update subscriptions, completions and log messages.
func capabilities() mcp.ServerCapabilities {
	return mcp.ServerCapabilities{
		Tools:       &mcp.ServerCapabilitiesTools{ListChanged: new(true)},
		Prompts:     &mcp.ServerCapabilitiesPrompts{ListChanged: new(true)},
		Resources:   &mcp.ServerCapabilitiesResources{Subscribe: new(true), ListChanged: new(false)},
		Completions: &mcp.ServerCapabilitiesCompletions{},
		Logging:     &mcp.ServerCapabilitiesLogging{},
	}
}

// close ends open subscriptions and cancels running tasks, waiting for
// them until ctx is done.
func (s *server) close(ctx context.Context) error {
	s.closeOnce.Do(func() { close(s.closing) })
	return s.tasks.Shutdown(ctx)
}

// registry is a list of named items that can change at run time (tools,
// prompts): lists come out in a stable order, and a change is announced
// on the hub, which applies it (on every replica, when there are several).
type registry[T interface{ name() string }] struct {
	mu      sync.RWMutex
	items   []T
	known   map[string]T // the items toggle may add, by name
	hub     *hub
	changed string // the list_changed notification
}

func newRegistry[T interface{ name() string }](h *hub, changed string, items ...T) *registry[T] {
	r := &registry[T]{items: items, known: map[string]T{}, hub: h, changed: changed}
	h.changes[changed] = r.flip
	return r
}

// learn names items that toggle may add, so that every replica knows them
// by name.
func (r *registry[T]) learn(items ...T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, it := range items {
		r.known[it.name()] = it
	}
}

func (r *registry[T]) list() []T {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]T(nil), r.items...)
}

func (r *registry[T]) get(name string) (T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, it := range r.items {
		if it.name() == name {
			return it, true
		}
	}
	var zero T
	return zero, false
}

// toggle adds item, or removes it if the list has it, and announces the
// change: the hub applies it (flip) as it delivers the announcement.
func (r *registry[T]) toggle(item T) {
	r.learn(item)
	r.hub.publish(event{method: r.changed, item: item.name()})
}

// flip adds the item named, or removes it if the list has it.
func (r *registry[T]) flip(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, it := range r.items {
		if it.name() == name {
			r.items = append(r.items[:i:i], r.items[i+1:]...)
			return
		}
	}
	if it, ok := r.known[name]; ok {
		r.items = append(r.items, it)
	}
}
