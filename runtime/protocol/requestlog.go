package protocol

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// The attributes of RequestLog's records.
const (
	LogKeyMethod    = "mcp.method.name"  // the method
	LogKeyName      = "mcp.name"         // tools/call's tool, prompts/get's prompt
	LogKeyURI       = "mcp.resource.uri" // the resource of resources/read, subscribe, unsubscribe
	LogKeyDuration  = "duration"         // how long the handler (or the peer) took
	LogKeyOutcome   = "outcome"          // "ok", "tool_error" (a result with isError) or "error"
	LogKeyErrorCode = "rpc.jsonrpc.error_code"
	LogKeyPrincipal = "principal" // who asked, when principal names one
)

// RequestLog returns a middleware that writes one record to l for each
// request and notification it sees (ServerOptions.Middleware or
// ClientOptions.Middleware; none is logged without it): the method, the
// tool or prompt name or the resource URI the params name, the duration,
// the outcome and, when principal is not nil and returns one, the
// principal (what ServerOptions.Principal names, say). A request that
// ends well or with a tool error is logged at Info, one that fails at
// Warn with the error's code and message; notifications at Debug. It
// changes nothing in what it passes on.
func RequestLog(l *slog.Logger, principal func(ctx context.Context) string) Middleware {
	return func(next Handler) Handler {
		return func(ctx context.Context, req *Call) (jsonrpc.Result, error) {
			start := time.Now()
			res, err := next(ctx, req)
			attrs := make([]slog.Attr, 0, 7)
			attrs = append(attrs, slog.String(LogKeyMethod, req.Method))
			switch req.Method {
			case spec.MethodCallTool, spec.MethodGetPrompt:
				if s, ok := HeaderText(codec.Lookup(req.Params, "name")); ok {
					attrs = append(attrs, slog.String(LogKeyName, s))
				}
			case spec.MethodReadResource, spec.MethodSubscribe, spec.MethodUnsubscribe:
				if s, ok := HeaderText(codec.Lookup(req.Params, "uri")); ok {
					attrs = append(attrs, slog.String(LogKeyURI, s))
				}
			}
			attrs = append(attrs, slog.Duration(LogKeyDuration, time.Since(start)))
			level, outcome := slog.LevelInfo, "ok"
			switch {
			case err != nil:
				level, outcome = slog.LevelWarn, "error"
				var rpcErr *jsonrpc.RPCError
				if errors.As(err, &rpcErr) {
					attrs = append(attrs, slog.Int64(LogKeyErrorCode, rpcErr.Code))
				}
				attrs = append(attrs, slog.String("error", err.Error()))
			case req.Method == spec.MethodCallTool && res != nil && toolError(res):
				outcome = "tool_error"
			}
			if req.Notification {
				level = slog.LevelDebug
			}
			attrs = append(attrs, slog.String(LogKeyOutcome, outcome))
			if principal != nil {
				if p := principal(ctx); p != "" {
					attrs = append(attrs, slog.String(LogKeyPrincipal, p))
				}
			}
			msg := "mcp: served " + req.Method
			if req.Sent {
				msg = "mcp: sent " + req.Method
			}
			l.LogAttrs(ctx, level, msg, attrs...)
			return res, err
		}
	}
}

// toolError reports whether a tools/call result has isError true.
func toolError(res jsonrpc.Result) bool {
	var e codec.Encoder
	res.EncodeJSON(&e)
	return string(codec.Lookup(e.Buf, "isError")) == "true"
}
