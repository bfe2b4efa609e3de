package mcpotel

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/protocol"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// Middleware returns the middleware that records a span and an operation
// duration for every request and notification the side it is given to
// serves or sends (ServerOptions.Middleware, ClientOptions.Middleware of
// any generated package):
//
//   - a message served is a SERVER span (mcp.server.operation.duration),
//     a child of the trace context the sender put in params._meta, with
//     the ambient span of the context (the HTTP server span, where HTTP
//     is instrumented) as a link; without such a context, a child of the
//     ambient span;
//   - a message sent is a CLIENT span (mcp.client.operation.duration),
//     whose trace context goes into the params' _meta (traceparent,
//     tracestate, baggage) before the message is sent;
//   - on the server, each session (a connection served by Serve, an HTTP
//     session) is timed from its start to its end as
//     mcp.server.session.duration.
//
// The handler's context carries the span: spans the handler starts are
// its children.
func (t *Telemetry) Middleware() protocol.Middleware {
	return func(next protocol.Handler) protocol.Handler {
		return func(ctx context.Context, m *protocol.Call) (jsonrpc.Result, error) {
			ev := Event{Method: strings.Clone(m.Method), ID: m.ID, Params: m.Params, Direction: Received}
			if m.Sent {
				ev.Direction = Sent
			} else {
				t.describeReceived(&ev, m)
			}
			ctx, op := t.Start(ctx, &ev)
			if m.Sent {
				m.Params = ev.Params
			}
			res, err := next(ctx, m)
			if m.Sent {
				t.describeSent(&ev, m)
			}
			t.outcome(&ev, m, res, err)
			op.End(&ev)
			return res, err
		}
	}
}

// describeReceived fills what a served message tells of its session and
// transport, and starts timing its session.
func (t *Telemetry) describeReceived(ev *Event, m *protocol.Call) {
	ev.ProtocolVersion = m.ProtocolVersion()
	if s := m.Session; s != nil {
		ev.SessionID = s.ID()
		t.watchSession(s, m.HTTP != nil, ev.ProtocolVersion)
	}
	switch {
	case m.HTTP != nil:
		ev.Transport = HTTP
		ev.HTTPVersion = httpVersion(m.HTTP.ProtoMajor, m.HTTP.ProtoMinor)
		ev.PeerAddress, ev.PeerPort = hostPort(m.HTTP.RemoteAddr)
	case m.Session != nil:
		ev.Transport = Stdio
	}
	// A client serving what its server sends knows neither: its
	// transport is not recorded.
}

// describeSent fills, once the message is sent, its id, its transport
// and its server.
func (t *Telemetry) describeSent(ev *Event, m *protocol.Call) {
	ev.ID = m.ID
	ev.ProtocolVersion = m.ProtocolVersion()
	switch {
	case m.HTTP != nil:
		ev.Transport = HTTP
		ev.SessionID = m.HTTP.Header.Get(spec.HeaderSessionID)
		if u := m.HTTP.URL; u != nil {
			ev.PeerAddress = u.Hostname()
			if p, err := strconv.Atoi(u.Port()); err == nil {
				ev.PeerPort = p
			} else if u.Scheme == "https" {
				ev.PeerPort = 443
			} else if u.Scheme == "http" {
				ev.PeerPort = 80
			}
		}
	case m.Session != nil:
		ev.Transport = Stdio
		ev.SessionID = m.Session.ID()
	default:
		// A client over stdio (or a stream of its own).
		ev.Transport = Stdio
	}
}

// outcome fills the result, the error response or the local failure.
func (t *Telemetry) outcome(ev *Event, m *protocol.Call, res jsonrpc.Result, err error) {
	var re *jsonrpc.RPCError
	switch {
	case err == nil:
	case errors.As(err, &re):
		ev.Error = &RPCError{Code: re.Code, Message: re.Message}
	case !m.Sent && errors.Is(err, jsonrpc.ErrNotImplemented):
		// What the dispatcher answers (ErrorResponseFor).
		ev.Error = &RPCError{Code: jsonrpc.CodeMethodNotFound, Message: "method not found"}
	case !m.Sent && !m.Notification:
		ev.Error = &RPCError{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	default:
		ev.Err = err
	}
	if res == nil || err != nil {
		return
	}
	switch {
	case m.Method == spec.MethodCallTool:
		ev.Result = resultJSON(res, !t.opts.RecordToolPayloads)
	case m.Method == spec.MethodInitialize:
		// The version the handshake agreed on: the session records it
		// only after the response.
		if v := jsonString(codec.Lookup(resultJSON(res, false), "protocolVersion")); v != "" {
			ev.ProtocolVersion = v
		}
	}
}

// resultJSON is a result as JSON; isErrorOnly settles for a result that
// only says whether it is a tool error, when the typed value can say so
// without being encoded.
func resultJSON(res jsonrpc.Result, isErrorOnly bool) []byte {
	if raw, ok := res.(jsonrpc.RawResult); ok {
		return raw
	}
	if isErrorOnly {
		if r, ok := res.(interface{ GetIsError() bool }); ok {
			if r.GetIsError() {
				return []byte(`{"isError":true}`)
			}
			return nil
		}
	}
	var e codec.Encoder
	res.EncodeJSON(&e)
	if e.Err != nil {
		return nil
	}
	return e.Buf
}

// watchSession starts timing s the first time it is seen, and notes the
// protocol version its messages use (2026-07-28 negotiates none: each
// request declares its own).
func (t *Telemetry) watchSession(s *protocol.Session, overHTTP bool, version string) {
	v, seen := t.sessions.LoadOrStore(s, new(atomic.Pointer[string]))
	last := v.(*atomic.Pointer[string])
	if version != "" {
		last.Store(&version)
	}
	if seen {
		return
	}
	go func() {
		<-s.Done()
		t.sessions.Delete(s)
		ev := Event{Transport: Stdio, ProtocolVersion: s.ProtocolVersion(), Start: s.Started()}
		if p := last.Load(); ev.ProtocolVersion == "" && p != nil {
			ev.ProtocolVersion = *p
		}
		if overHTTP {
			ev.Transport = HTTP
		}
		t.StartSession(Received, ev).End(time.Now(), nil)
	}()
}

// httpVersion is network.protocol.version: "1.1", "2".
func httpVersion(major, minor int) string {
	if major >= 2 {
		return strconv.Itoa(major)
	}
	return strconv.Itoa(major) + "." + strconv.Itoa(minor)
}

// hostPort splits an address; the port is 0 when there is none.
func hostPort(addr string) (string, int) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr, 0
	}
	p, _ := strconv.Atoi(port)
	return host, p
}
