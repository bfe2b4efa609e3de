package main

import (
	"context"
	"sync"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// This file serves subscriptions/listen (basic/patterns/subscriptions.mdx):
// a stream that starts with an acknowledgement of the notifications the
// server agreed to send, then carries them, each tagged with the
// subscription's id (the JSON-RPC id of the listen request), until the
// client closes it or the server shuts down.

// event is a change a subscription may want: a list_changed notification,
// or notifications/resources/updated for uri.
type event struct {
	method string
	uri    string
	// item names the tool or prompt a list change adds or removes.
	item string
}

// hub fans events out to the open subscriptions (subscriptions/listen,
// 2026-07-28) and to the dispatcher's clients of older revisions, which
// subscribe with resources/subscribe and hear of list changes on their
// sessions.
type hub struct {
	mu   sync.Mutex
	subs map[*subscription]struct{}
	d    *mcp.ServerDispatcher // set once, before serving
	// forward, if set (before serving), takes the events published here
	// instead of deliver: the replicas of one server (replicas/cmd/
	// everything-replicas) send them on a bus that calls deliver on every
	// replica.
	forward func(event)
	// changes apply a list change (an event with an item) by its
	// notification method; set by the registries when they are made.
	changes map[string]func(item string)
}

type subscription struct {
	filter mcp.SubscriptionFilter
	events chan event
}

func newHub() *hub {
	return &hub{subs: map[*subscription]struct{}{}, changes: map[string]func(string){}}
}

func (h *hub) subscribe(f mcp.SubscriptionFilter) *subscription {
	s := &subscription{filter: f, events: make(chan event, 16)}
	h.mu.Lock()
	h.subs[s] = struct{}{}
	h.mu.Unlock()
	return s
}

func (h *hub) unsubscribe(s *subscription) {
	h.mu.Lock()
	delete(h.subs, s)
	h.mu.Unlock()
}

// publish hands e to every subscription whose filter asks for it (through
// forward, when set). A subscription whose buffer is full misses it:
// list_changed notifications coalesce, and a client that does not read its
// stream loses updates, not the server's memory.
func (h *hub) publish(e event) {
	if h.forward != nil {
		h.forward(e)
		return
	}
	h.deliver(e)
}

// deliver applies e's change, if it carries one, and hands e to this
// process's subscriptions and clients.
func (h *hub) deliver(e event) {
	if f := h.changes[e.method]; f != nil && e.item != "" {
		f(e.item)
	}
	if h.d != nil {
		if e.method == mcp.MethodResourceUpdatedNotification {
			h.d.NotifyResourceUpdated(e.uri)
		} else {
			h.d.Broadcast(e.method, nil)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		if !s.wants(e) {
			continue
		}
		select {
		case s.events <- e:
		default:
		}
	}
}

func (s *subscription) wants(e event) bool {
	f := s.filter
	switch e.method {
	case mcp.MethodToolListChangedNotification:
		return f.ToolsListChanged != nil && *f.ToolsListChanged
	case mcp.MethodPromptListChangedNotification:
		return f.PromptsListChanged != nil && *f.PromptsListChanged
	case mcp.MethodResourceListChangedNotification:
		return f.ResourcesListChanged != nil && *f.ResourcesListChanged
	case mcp.MethodResourceUpdatedNotification:
		for _, u := range f.ResourceSubscriptions {
			if u == e.uri {
				return true
			}
		}
	}
	return false
}

// granted is the part of a requested filter this server honours: tool and
// prompt list changes and updates of its resources (the resource list does
// not change). Notification types it does not send are left out, as the
// acknowledgement must.
func granted(req mcp.SubscriptionFilter) mcp.SubscriptionFilter {
	var g mcp.SubscriptionFilter
	if req.ToolsListChanged != nil && *req.ToolsListChanged {
		g.ToolsListChanged = new(true)
	}
	if req.PromptsListChanged != nil && *req.PromptsListChanged {
		g.PromptsListChanged = new(true)
	}
	for _, u := range req.ResourceSubscriptions {
		if _, ok := findResource(u); ok {
			g.ResourceSubscriptions = append(g.ResourceSubscriptions, u)
		}
	}
	return g
}

func (s *server) SubscriptionsListen(ctx context.Context, p *mcp.SubscriptionsListenRequestParams) (*mcp.SubscriptionsListenResult, error) {
	// The tasks extension adds taskIds to the filter. This server sends no
	// task notifications (they are optional), but a client that asks for
	// them without declaring the extension gets the error SEP-2663 names.
	for _, m := range p.Notifications.Extra {
		if m.Name == "taskIds" && !mcp.ClientSupportsTasks(ctx) {
			return nil, requireTasks()
		}
	}
	var id mcp.RequestId
	if err := id.UnmarshalJSON(mcp.RequestFromContext(ctx).ID); err != nil {
		return nil, err
	}
	tag := &mcp.NotificationMetaObject{SubscriptionID: id}
	g := granted(p.Notifications)
	sub := s.hub.subscribe(g)
	defer s.hub.unsubscribe(sub)
	// The acknowledgement comes first; nothing reaches the stream before
	// it, since the hub only delivers to sub's buffer.
	if err := mcp.SendNotification(ctx, mcp.MethodSubscriptionsAcknowledgedNotification,
		&mcp.SubscriptionsAcknowledgedNotificationParams{Meta: tag, Notifications: g}); err != nil {
		return nil, err
	}
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.closing:
			// Graceful closure: the result tells the client the stream
			// ended on purpose.
			return &mcp.SubscriptionsListenResult{Meta: mcp.SubscriptionsListenResultMetaObject{SubscriptionID: id}}, nil
		case e := <-sub.events:
			var err error
			if e.method == mcp.MethodResourceUpdatedNotification {
				err = mcp.SendNotification(ctx, e.method, &mcp.ResourceUpdatedNotificationParams{Meta: tag, URI: e.uri})
			} else {
				err = mcp.SendNotification(ctx, e.method, &mcp.NotificationParams{Meta: tag})
			}
			if err != nil {
				return nil, err
			}
		}
	}
}
