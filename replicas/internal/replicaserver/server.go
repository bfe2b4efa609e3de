// Package replicaserver is the MCP server the replica tests run three of
// behind nginx: built on the generated 2026-07-28 package with its tasks
// in a protocol.SharedTasks and its notifications on a protocol.Bus, as a
// server with replicas would be. It serves clients of 2026-07-28 and, with
// sessions named by its prefix, of the older revisions.
package replicaserver

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Config configures a replica.
type Config struct {
	// Name names the replica; its sessions' ids begin with Name + ".".
	Name string
	// Tasks and Bus are what the replicas share.
	Tasks protocol.SharedTasks
	Bus   protocol.Bus
	// Lease is TaskStoreOptions.Lease.
	Lease time.Duration
	// Logger is ServerOptions.Logger.
	Logger *slog.Logger
}

// Replica is one running replica.
type Replica struct {
	Handler http.Handler
	d       *mcp.ServerDispatcher
	tasks   *mcp.TaskStore
	stop    context.CancelFunc
	closing chan struct{}
}

// New returns a replica; Close stops it.
func New(cfg Config) (*Replica, error) {
	if cfg.Bus == nil || cfg.Tasks == nil {
		return nil, errors.New("replicaserver: Config needs Tasks and Bus")
	}
	ts := mcp.NewTaskStore(mcp.TaskStoreOptions{Shared: cfg.Tasks, Replica: cfg.Name, Lease: cfg.Lease, PollInterval: 100 * time.Millisecond})
	s := &server{cfg: cfg}
	r := &Replica{tasks: ts, closing: make(chan struct{})}
	s.closing = r.closing
	r.d = mcp.NewServerDispatcher(s, mcp.ServerOptions{
		ServerInfo: mcp.Implementation{Name: "replica", Version: "1.0.0"},
		Capabilities: mcp.ServerCapabilities{
			Tools:     &mcp.ServerCapabilitiesTools{},
			Resources: &mcp.ServerCapabilitiesResources{Subscribe: new(true)},
		},
		Tasks:  ts,
		Logger: cfg.Logger,
	})
	r.Handler = mcp.NewHTTPHandler(r.d, mcp.HTTPOptions{SessionIDPrefix: cfg.Name + "."})
	// The clients of older revisions on this replica hear of updates
	// published on any replica.
	ctx, stop := context.WithCancel(context.Background())
	r.stop = stop
	ch, err := cfg.Bus.Subscribe(ctx)
	if err != nil {
		stop()
		return nil, err
	}
	go func() {
		for m := range ch {
			if m.Method == mcp.MethodResourceUpdatedNotification {
				var p struct{ URI string }
				if json.Unmarshal(m.Params, &p) == nil {
					r.d.NotifyResourceUpdated(p.URI)
				}
			}
		}
	}()
	return r, nil
}

// Close ends the subscriptions and cancels the tasks running here.
func (r *Replica) Close(ctx context.Context) error {
	close(r.closing)
	r.stop()
	return r.tasks.Shutdown(ctx)
}

type server struct {
	mcp.UnimplementedServerHandler
	cfg     Config
	closing chan struct{}
}

var tools = []string{
	`{"name":"whoami","description":"The replica's name.","inputSchema":{"type":"object","properties":{}}}`,
	`{"name":"ask","description":"A task that asks a question and answers with the answer and the replica that ran it.","inputSchema":{"type":"object","properties":{}}}`,
	`{"name":"spin","description":"A task that runs until cancelled.","inputSchema":{"type":"object","properties":{}}}`,
	`{"name":"touch","description":"Publishes notifications/resources/updated for uri on the bus.","inputSchema":{"type":"object","properties":{"uri":{"type":"string"}},"required":["uri"]}}`,
}

func (s *server) ListTools(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	r := mcp.ListToolsResult{TTLMs: time.Minute.Milliseconds(), CacheScope: mcp.CacheScopePublic}
	for _, def := range tools {
		var t mcp.Tool
		if err := t.UnmarshalJSON([]byte(def)); err != nil {
			return nil, err
		}
		r.Tools = append(r.Tools, t)
	}
	return &r, nil
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: s}}}
}

const question = `{"go":{"method":"elicitation/create","params":{"mode":"form","message":"Go on?","requestedSchema":{"type":"object","properties":{"word":{"type":"string"}},"required":["word"]}}}}`

func (s *server) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	switch p.Name {
	case "whoami":
		return text(s.cfg.Name), nil
	case "ask":
		return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
			var reqs mcp.InputRequests
			if err := json.Unmarshal([]byte(question), &reqs); err != nil {
				return nil, err
			}
			answers, err := mcp.AwaitInput(ctx, reqs)
			if err != nil {
				return nil, err
			}
			b, err := json.Marshal(answers["go"])
			if err != nil {
				return nil, err
			}
			var a struct {
				Content struct{ Word string }
			}
			if err := json.Unmarshal(b, &a); err != nil {
				return nil, err
			}
			return text(a.Content.Word + " (ran on " + s.cfg.Name + ")"), nil
		})
	case "spin":
		return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
	case "touch":
		var in struct{ URI string }
		if err := json.Unmarshal(p.Arguments, &in); err != nil || in.URI == "" {
			return &mcp.CallToolResult{IsError: new(true), Content: []mcp.ContentBlock{&mcp.TextContent{Text: "touch needs a uri"}}}, nil
		}
		params, _ := json.Marshal(map[string]string{"uri": in.URI})
		if err := s.cfg.Bus.Publish(ctx, protocol.BusMessage{Method: mcp.MethodResourceUpdatedNotification, Params: params}); err != nil {
			return nil, &mcp.RPCError{Code: mcp.CodeInternalError, Message: "the bus is unavailable"}
		}
		return text("published by " + s.cfg.Name), nil
	}
	return nil, &mcp.RPCError{Code: mcp.CodeInvalidParams, Message: "unknown tool"}
}

func (s *server) ReadResource(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
	if !strings.HasPrefix(p.URI, "test://") {
		return nil, &mcp.RPCError{Code: mcp.CodeInvalidParams, Message: "resource not found"}
	}
	mime := "text/plain"
	return &mcp.ReadResourceResult{Contents: []mcp.ReadResourceResultContentsItem{&mcp.TextResourceContents{URI: p.URI, MIMEType: &mime, Text: "contents of " + p.URI}}}, nil
}

// SubscriptionsListen forwards the updates of the resources the client
// names, published on any replica: subscribe to the bus, acknowledge,
// forward (basic/patterns/subscriptions.mdx: the acknowledgement first).
func (s *server) SubscriptionsListen(ctx context.Context, p *mcp.SubscriptionsListenRequestParams) (*mcp.SubscriptionsListenResult, error) {
	var id mcp.RequestId
	if err := id.UnmarshalJSON(mcp.RequestFromContext(ctx).ID); err != nil {
		return nil, err
	}
	tag := &mcp.NotificationMetaObject{SubscriptionID: id}
	g := mcp.SubscriptionFilter{ResourceSubscriptions: p.Notifications.ResourceSubscriptions}
	ch, err := s.cfg.Bus.Subscribe(ctx)
	if err != nil {
		return nil, &mcp.RPCError{Code: mcp.CodeInternalError, Message: "the bus is unavailable"}
	}
	if err := mcp.SendNotification(ctx, mcp.MethodSubscriptionsAcknowledgedNotification,
		&mcp.SubscriptionsAcknowledgedNotificationParams{Meta: tag, Notifications: g}); err != nil {
		return nil, err
	}
	send := func(uri string) error {
		return mcp.SendNotification(ctx, mcp.MethodResourceUpdatedNotification, &mcp.ResourceUpdatedNotificationParams{Meta: tag, URI: uri})
	}
	for {
		select {
		case <-s.closing:
			return &mcp.SubscriptionsListenResult{Meta: mcp.SubscriptionsListenResultMetaObject{SubscriptionID: id}}, nil
		case m, ok := <-ch:
			if !ok {
				return nil, ctx.Err()
			}
			var err error
			switch {
			case m.Gap:
				// Updates may have been missed: tell of every resource
				// listened to, so that the client reads them again.
				for _, u := range g.ResourceSubscriptions {
					if err = send(u); err != nil {
						break
					}
				}
			case m.Method == mcp.MethodResourceUpdatedNotification:
				var p struct{ URI string }
				if json.Unmarshal(m.Params, &p) == nil && slices.Contains(g.ResourceSubscriptions, p.URI) {
					err = send(p.URI)
				}
			}
			if err != nil {
				return nil, err
			}
		}
	}
}
