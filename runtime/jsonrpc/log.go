package jsonrpc

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
)

// The keys of the runtime's log records that name what the OpenTelemetry
// semantic conventions for MCP have attributes for (docs/telemetry.md).
const (
	LogKeyMethod    = "mcp.method.name"
	LogKeyRequestID = "jsonrpc.request.id"
	LogKeyErrorType = "error.type"
)

// LoggerOf returns l; when l is nil and logf is set, a logger whose
// records of level Info and above logf receives, one line of text each
// ("message key=value ..."); otherwise nil, which logs nothing. It keeps
// the Logf options of generated packages working.
func LoggerOf(l *slog.Logger, logf func(format string, args ...any)) *slog.Logger {
	if l != nil || logf == nil {
		return l
	}
	return slog.New(&logfHandler{logf: logf})
}

// logfHandler is a slog.Handler that writes through a Printf-like
// function.
type logfHandler struct {
	logf   func(format string, args ...any)
	attrs  []slog.Attr
	prefix string // the open groups, "a.b."
}

func (h *logfHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

func (h *logfHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	for _, a := range h.attrs {
		writeAttr(&b, "", a)
	}
	r.Attrs(func(a slog.Attr) bool {
		writeAttr(&b, h.prefix, a)
		return true
	})
	h.logf("%s", b.String())
	return nil
}

func writeAttr(b *strings.Builder, prefix string, a slog.Attr) {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return
	}
	if a.Value.Kind() == slog.KindGroup {
		for _, g := range a.Value.Group() {
			writeAttr(b, prefix+a.Key+".", g)
		}
		return
	}
	b.WriteByte(' ')
	b.WriteString(prefix + a.Key)
	b.WriteByte('=')
	s := a.Value.String()
	if s == "" || strings.ContainsAny(s, " =\"\n\t") {
		s = strconv.Quote(s)
	}
	b.WriteString(s)
}

func (h *logfHandler) WithAttrs(as []slog.Attr) slog.Handler {
	n := *h
	n.attrs = append(append([]slog.Attr(nil), h.attrs...), as...)
	if h.prefix != "" {
		for i := len(h.attrs); i < len(n.attrs); i++ {
			n.attrs[i].Key = h.prefix + n.attrs[i].Key
		}
	}
	return &n
}

func (h *logfHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	n := *h
	n.prefix = h.prefix + name + "."
	return &n
}

// LogAttrs logs through Logger, if set.
func (d *Dispatcher) LogAttrs(level slog.Level, msg string, attrs ...slog.Attr) {
	if d.Logger != nil {
		d.Logger.LogAttrs(context.Background(), level, msg, attrs...)
	}
}
