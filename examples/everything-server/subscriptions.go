package main

import (
	"context"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The mcp.Server serves subscriptions/listen (basic/patterns/
// subscriptions.mdx): it acknowledges the notifications it will send, then
// sends the changes of its sets (the list changes of the tool and prompt
// that come and go, the updates of the watched resource), each tagged with
// the subscription's id, until the client closes the stream or close ends
// it with a result. It also tells the clients of older revisions, on their
// sessions. This file adds the check the tasks extension asks for, and the
// hub through which changes reach every replica.

func (s *server) SubscriptionsListen(ctx context.Context, p *mcp.SubscriptionsListenRequestParams) (*mcp.SubscriptionsListenResult, error) {
	// The tasks extension adds taskIds to the filter. This server sends no
	// task notifications (they are optional), but a client that asks for
	// them without declaring the extension gets the error SEP-2663 names.
	for _, m := range p.Notifications.Extra {
		if m.Name == "taskIds" && !mcp.ClientSupportsTasks(ctx) {
			return nil, requireTasks()
		}
	}
	return s.Server.SubscriptionsListen(ctx, p)
}

// event is a change of the server's sets made at run time: the tool or the
// prompt that comes and goes is added (on) or removed (method is its list's
// list_changed notification), or the resource of uri changed
// (notifications/resources/updated). A change says what the set becomes,
// not "add or remove", so that replicas that missed one agree again at the
// next.
type event struct {
	method string
	uri    string
	on     bool
}

// hub hands the changes published to apply. The replicas of one server
// (replicas/cmd/everything-replicas) set forward, before serving, to send
// them on a bus that calls deliver on every replica, so that each applies
// every change and tells its own clients.
type hub struct {
	apply func(event)
	// forward sends e to every replica; an error when it cannot (the
	// change is then not made, and the call that made it fails).
	forward func(event) error
}

// publish applies e here, or forwards it to every replica. An error means
// the change was not made.
func (h *hub) publish(e event) error {
	if h.forward != nil {
		return h.forward(e)
	}
	h.deliver(e)
	return nil
}

// deliver applies e to this process's sets.
func (h *hub) deliver(e event) {
	h.apply(e)
}

// apply makes the change e names; the mcp.Server announces it.
func (s *server) apply(e event) {
	switch e.method {
	case mcp.MethodToolListChangedNotification:
		s.setTool(e.on)
	case mcp.MethodPromptListChangedNotification:
		s.setPrompt(e.on)
	case mcp.MethodResourceUpdatedNotification:
		s.ResourceUpdated(e.uri)
	}
}
