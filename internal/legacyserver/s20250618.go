package legacyserver

import (
	"context"
	"encoding/json"
	"net/http"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20250618"
)

// The 2025-06-18 server, the same as s20251125.go.

type server20250618 struct {
	mcp.UnimplementedServerHandler
	api   api
	hooks *Hooks
}

func new20250618(opts Options) *Server {
	s := &server20250618{hooks: opts.Hooks, api: api{
		sendRequest: func(ctx context.Context, method string, params rawJSON, result *rawResult) error {
			if params == nil {
				return mcp.SendRequest(ctx, method, nil, result)
			}
			return mcp.SendRequest(ctx, method, params, result)
		},
		log: func(ctx context.Context, level, logger string, data any) error {
			return mcp.Log(ctx, mcp.LoggingLevel(level), logger, data)
		},
		progress: mcp.SendProgress,
		notify: func(ctx context.Context, method string, params rawJSON) error {
			return mcp.SendNotification(ctx, method, params)
		},
		closeStream: mcp.CloseSSEStream,
	}}
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{
		ServerInfo: mcp.Implementation{Name: "legacyserver", Version: "1.0.0"},
		Capabilities: mcp.ServerCapabilities{
			Tools:     &mcp.ServerCapabilitiesTools{},
			Resources: &mcp.ServerCapabilitiesResources{Subscribe: new(true)},
			Logging:   &mcp.ServerCapabilitiesLogging{},
		},
		RequestTimeout: opts.RequestTimeout,
		Logger:         opts.Logger,
	})
	return &Server{
		Version: mcp.ProtocolVersion,
		Handle:  d.Handle,
		Serve:   d.Serve,
		Broadcast: func(method string, params json.RawMessage) (int, error) {
			if params == nil {
				return d.Broadcast(method, nil)
			}
			return d.Broadcast(method, rawJSON(params))
		},
		NotifyResourceUpdated: d.NotifyResourceUpdated,
		HTTP: func(c HTTPConfig) http.Handler {
			return mcp.NewHTTPHandler(d, mcp.HTTPOptions{
				Stateless:            c.Stateless,
				MaxSessions:          c.MaxSessions,
				MaxSessionsPerClient: c.MaxPerClient,
				SessionIdleTimeout:   c.SessionIdleTimeout,
				SessionHistoryBytes:  c.SessionHistoryBytes,
				PollAfter:            c.PollAfter,
				PollRetry:            c.PollRetry,
				KeepAlive:            c.KeepAlive,
			})
		},
	}
}

func (s *server20250618) ListTools(context.Context, *mcp.ListToolsRequestParams) (*mcp.ListToolsResult, error) {
	var r mcp.ListToolsResult
	return &r, r.UnmarshalJSON([]byte(toolsJSON))
}

func (s *server20250618) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	text, isError, err := callTool(ctx, s.api, s.hooks, p.Name, p.Arguments)
	if err != nil {
		return nil, err
	}
	var r mcp.CallToolResult
	return &r, r.UnmarshalJSON(textResult(text, isError))
}

func (s *server20250618) ListResources(context.Context, *mcp.ListResourcesRequestParams) (*mcp.ListResourcesResult, error) {
	var r mcp.ListResourcesResult
	return &r, r.UnmarshalJSON(resourcesJSON)
}

func (s *server20250618) ReadResource(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
	if p.URI != WatchedURI {
		return nil, &mcp.RPCError{Code: mcp.CodeResourceNotFound, Message: errUnknownResource(p.URI).Error()}
	}
	var r mcp.ReadResourceResult
	return &r, r.UnmarshalJSON(resourceResult())
}
