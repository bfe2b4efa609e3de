package jsonrpc

import (
	"context"
	"log/slog"
)

// The keys of the runtime's log records that name what the OpenTelemetry
// semantic conventions for MCP have attributes for (docs/telemetry.md).
const (
	LogKeyMethod    = "mcp.method.name"
	LogKeyRequestID = "jsonrpc.request.id"
	LogKeyErrorType = "error.type"
)

// LogAttrs logs through Logger, if set.
func (d *Dispatcher) LogAttrs(level slog.Level, msg string, attrs ...slog.Attr) {
	if d.Logger != nil {
		d.Logger.LogAttrs(context.Background(), level, msg, attrs...)
	}
}
