package main

import (
	"context"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// This file serves subscriptions/listen (basic/patterns/subscriptions.mdx):
// a stream that starts with an acknowledgement of the notifications the
// server agreed to send, then carries them, each tagged with the
// subscription's id (the JSON-RPC id of the listen request), until the
// client closes it or the server shuts down.

// The mcp.Server serves the stream: it acknowledges what it will send and
// sends the changes of its sets (resources/updated from watch, the list
// changes of the tools and prompts that come and go). This server only adds
// the check the tasks extension asks for.

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
