package proxy

import (
	"context"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// SubscriptionsListen serves a 2026-07-28 client's subscriptions/listen
// with the upstream's list changes: the proxy hears them once (its own
// subscriptions/listen stream on a 2026-07-28 upstream, the session of an
// older one) and sends each to every stream that asked for it, tagged with
// the stream's subscription id. The acknowledgement names the list changes
// asked for that the upstream declares (listChanged in its capabilities);
// resource subscriptions are not forwarded, so it names none. The stream
// lasts until the client closes it, or ends with its result when the
// proxy closes.
func (p *Proxy) SubscriptionsListen(ctx context.Context, params *mcp.SubscriptionsListenRequestParams) (*mcp.SubscriptionsListenResult, error) {
	var id mcp.RequestId
	if err := id.UnmarshalJSON(mcp.RequestFromContext(ctx).ID); err != nil {
		return nil, err
	}
	var asked mcp.SubscriptionFilter
	if params != nil {
		asked = params.Notifications
	}
	caps := p.up.ServerCapabilities()
	if caps == nil {
		caps = &mcp.ServerCapabilities{}
	}
	var g mcp.SubscriptionFilter
	if asked.GetToolsListChanged() && caps.Tools != nil && caps.Tools.GetListChanged() {
		g.ToolsListChanged = new(true)
	}
	if asked.GetPromptsListChanged() && caps.Prompts != nil && caps.Prompts.GetListChanged() {
		g.PromptsListChanged = new(true)
	}
	if asked.GetResourcesListChanged() && caps.Resources != nil && caps.Resources.GetListChanged() {
		g.ResourcesListChanged = new(true)
	}
	want := func(c protocol.Change) bool {
		switch c.Method {
		case mcp.MethodToolListChangedNotification:
			return g.ToolsListChanged != nil
		case mcp.MethodPromptListChangedNotification:
			return g.PromptsListChanged != nil
		case mcp.MethodResourceListChangedNotification:
			return g.ResourcesListChanged != nil
		}
		return false
	}
	tag := &mcp.NotificationMetaObject{SubscriptionID: id}
	note := func(protocol.Change) protocol.JSONParams { return &mcp.NotificationParams{Meta: tag} }
	ack := &mcp.SubscriptionsAcknowledgedNotificationParams{Meta: tag, Notifications: g}
	if err := protocol.ServeListen(ctx, &p.changes, want, mcp.MethodSubscriptionsAcknowledgedNotification, ack, note); err != nil {
		return nil, err
	}
	return &mcp.SubscriptionsListenResult{Meta: mcp.SubscriptionsListenResultMetaObject{SubscriptionID: id}}, nil
}
