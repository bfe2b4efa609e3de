package protocol

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file is the middleware of servers and clients: functions that wrap
// the serving of every request and notification a side receives, and the
// sending of every one it sends (docs/middleware.md).

// Call is a request or notification as a Middleware sees it: one this
// side received and serves, or one it sends to its peer (Sent).
type Call struct {
	// ID is the request id as JSON; nil for a notification. For a request
	// this side sends, the transport picks the id as it sends it: ID is set
	// once next has returned (nil if the request was never sent).
	ID json.RawMessage
	// Method is the method name.
	Method string
	// Params is the params member as JSON; nil when absent. A middleware
	// may give next other params (such as params with more _meta): the
	// handler decodes, or the peer receives, what next is given. They are
	// checked again after the middleware: a received request's params
	// against the schema, by the method; a sent request's by the peer.
	Params json.RawMessage
	// Notification marks a notification (no response; next returns a nil
	// result).
	Notification bool
	// Sent marks a message this side sends: a client's requests and
	// notifications, a server's requests to its client (Session.Request,
	// SendRequest, the input requests of older clients). next sends it and,
	// for a request, waits for the response; the result is its result
	// member (jsonrpc.RawResult), the error an *jsonrpc.RPCError for an
	// error response or why no response came.
	Sent bool
	// Session is the server's session the message belongs to (a
	// connection served by Serve, or an HTTP session); nil on the client
	// side and over stateless HTTP.
	Session *Session
	// HTTP is the HTTP request that carried the message: on the server,
	// the request that brought it; on a client, the POST that sent it (set
	// once next has returned; nil over stdio).
	HTTP *http.Request

	// version is the protocol version the sending client negotiated.
	version string
	// serving is the serving of a received message; send sends a Sent
	// one: what the innermost handler runs.
	serving *jsonrpc.Serving
	send    func(ctx context.Context, params []byte) (jsonrpc.Result, error)
}

// ProtocolVersion returns the protocol version the message is sent in: the
// version its session negotiated (or a client's connection), else the one
// its _meta declares (2026-07-28), else the MCP-Protocol-Version header of
// its HTTP request; "" when none says.
func (r *Call) ProtocolVersion() string {
	if r.version != "" {
		return r.version
	}
	if r.Session != nil {
		if v := r.Session.ProtocolVersion(); v != "" {
			return v
		}
	}
	if v, ok := HeaderText(codec.Lookup(r.Params, spec.MemberMeta, spec.MetaProtocolVersion)); ok {
		return v
	}
	if r.HTTP != nil {
		return r.HTTP.Header.Get(spec.HeaderProtocolVersion)
	}
	return ""
}

// Handler serves (or, for a Sent message, sends) a request or
// notification: a result and nil, or the error the response reports (an
// *jsonrpc.RPCError keeps its code).
type Handler func(ctx context.Context, req *Call) (jsonrpc.Result, error)

// Middleware wraps a Handler: it may look at or change the request, the
// context, the result and the error, answer without calling next, or
// call it once. See docs/middleware.md for where it runs among the
// runtime's own checks.
type Middleware func(next Handler) Handler

// Chain returns the middleware that runs mw in order: the first is the
// outermost (it sees the request first and the result last). Nil entries
// are skipped; no entries give nil.
func Chain(mw ...Middleware) Middleware {
	var list []Middleware
	for _, m := range mw {
		if m != nil {
			list = append(list, m)
		}
	}
	switch len(list) {
	case 0:
		return nil
	case 1:
		return list[0]
	}
	return func(next Handler) Handler {
		for i := len(list) - 1; i >= 0; i-- {
			next = list[i](next)
		}
		return next
	}
}

// innermost is the handler at the bottom of every chain: it runs what the
// request carries (serving it, or sending it).
func innermost(ctx context.Context, r *Call) (jsonrpc.Result, error) {
	if r.serving != nil {
		return r.serving.Serve(ctx, r.Params)
	}
	return r.send(ctx, r.Params)
}

// chain is a middleware applied once to innermost.
type chain struct{ h Handler }

func newChain(mw Middleware) *chain {
	if mw == nil {
		return nil
	}
	return &chain{h: mw(innermost)}
}

// around is the jsonrpc.Dispatcher.Around hook of a Core with middleware.
func (c *Core) around(ctx context.Context, s *jsonrpc.Serving) (jsonrpc.Result, error) {
	l := linkOf(ctx)
	env := s.Envelope()
	r := &Call{ID: env.ID, Method: env.Method, Params: env.Params, Notification: env.ID == nil, Session: linkSession(l), serving: s}
	if l != nil {
		r.HTTP = l.HTTPRequest()
	}
	return c.mw.h(ctx, r)
}

// sendThrough sends a request through the middleware of ch (nil: none)
// with call, which sends params and waits: the request's id, noted by the
// transport, is in the Call once call returns.
func sendThrough(ctx context.Context, ch *chain, r *Call, call func(ctx context.Context, params []byte) (json.RawMessage, error)) (json.RawMessage, error) {
	if ch == nil {
		return call(ctx, r.Params)
	}
	r.Sent = true
	r.send = func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
		raw, err := call(jsonrpc.WithSentID(ctx, &r.ID), params)
		if err != nil {
			return nil, err
		}
		return jsonrpc.RawResult(raw), nil
	}
	res, err := ch.h(ctx, r)
	if err != nil {
		return nil, err
	}
	return resultJSON(res)
}

// notifyThrough sends a notification through the middleware of ch (nil:
// none) with send.
func notifyThrough(ctx context.Context, ch *chain, r *Call, send func(ctx context.Context, params []byte) error) error {
	if ch == nil {
		return send(ctx, r.Params)
	}
	r.Sent, r.Notification = true, true
	r.send = func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
		return nil, send(ctx, params)
	}
	_, err := ch.h(ctx, r)
	return err
}

// resultJSON is a sent request's result as a middleware returned it, as
// JSON.
func resultJSON(res jsonrpc.Result) (json.RawMessage, error) {
	if raw, ok := res.(jsonrpc.RawResult); ok {
		return json.RawMessage(raw), nil
	}
	if res == nil {
		return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: a middleware returned no result for a request sent"}
	}
	e := codec.Encoder{}
	res.EncodeJSON(&e)
	if e.Err != nil {
		return nil, e.Err
	}
	return e.Buf, nil
}
