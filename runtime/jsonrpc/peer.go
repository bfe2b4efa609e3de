package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// This file is the side of a connection that sends requests: it gives each
// request an id, keeps the requests waiting for their responses, routes a
// response to the caller waiting for it, bounds the wait, and tells the
// peer (the protocol's cancellation notification) when a caller stops
// waiting. A server uses it for the requests it sends to its client, a
// client for everything it sends. It does not know the transport: a call
// gets the function that writes the request, and the transport hands
// every response it reads to Deliver.

// DefaultRequestTimeout bounds a request sent to the peer when the options
// leave RequestTimeout zero.
const DefaultRequestTimeout = 5 * time.Minute

// ErrPeerClosed is what a request sent to the peer fails with when the
// connection (or HTTP session) ends before its response arrives.
var ErrPeerClosed = errors.New("jsonrpc: the connection closed before the response arrived")

// SendFunc writes one message to the peer.
type SendFunc func(msg []byte) error

// Peer is the other end of one connection (or HTTP session): the requests
// sent to it that wait for their responses, and how to send it a message
// that belongs to no request. State is the protocol's own (MCP's
// *Session). A Peer is safe for concurrent use.
type Peer struct {
	out outbound
	// send writes a message that belongs to no request.
	send SendFunc
	// cancel is the notification a request that stops waiting sends, and
	// cancelID the member of its params that names the request.
	cancel, cancelID string
	// timeout bounds a request (zero: DefaultRequestTimeout; negative:
	// only the context).
	timeout time.Duration
	// State is what the protocol keeps about the peer, set when the peer
	// is made (Protocol.Opened).
	State any
}

// NewPeer returns a peer reached through send, whose requests stop waiting
// as d's Limits say and are cancelled with d's Cancel notification.
func NewPeer(d *Dispatcher, send SendFunc) *Peer {
	return &Peer{send: send, cancel: d.Cancel, cancelID: d.CancelID, timeout: d.Limits.RequestTimeout}
}

// Send writes a message that belongs to no request.
func (p *Peer) Send(msg []byte) error { return p.send(msg) }

// Call sends a request for method with params (a JSON object, or nil)
// through send (nil: the peer's own way) and waits for the response: the
// result member as JSON, or an *RPCError for an error response. When ctx
// ends, or the request timeout passes, it stops waiting, tells the peer
// with the cancellation notification (sent the peer's own way) and
// returns ctx's error, or one wrapping context.DeadlineExceeded.
func (p *Peer) Call(ctx context.Context, send SendFunc, method string, params []byte) (json.RawMessage, error) {
	if send == nil {
		send = p.send
	}
	return p.out.call(ctx, send, p.send, p.cancel, p.cancelID, method, params, p.timeout)
}

// CallWithin is Call with its own timeout (zero: DefaultRequestTimeout;
// negative: only ctx) and its own way to send the cancellation (nil: the
// peer's).
func (p *Peer) CallWithin(ctx context.Context, send, sendCancel SendFunc, method string, params []byte, timeout time.Duration) (json.RawMessage, error) {
	if send == nil {
		send = p.send
	}
	if sendCancel == nil {
		sendCancel = p.send
	}
	return p.out.call(ctx, send, sendCancel, p.cancel, p.cancelID, method, params, timeout)
}

// Deliver hands a response to the call waiting for it, and reports whether
// one was.
func (p *Peer) Deliver(msg []byte) bool { return p.out.deliver(msg) }

// Close fails every waiting call, and every later one, with err.
func (p *Peer) Close(err error) { p.out.close(err) }

// Waiting is how many calls wait for a response.
func (p *Peer) Waiting() int { return p.out.waiting() }

// IsWaiting reports whether the call with the integer id key waits.
func (p *Peer) IsWaiting(key int64) bool { return p.out.isWaiting(key) }

// Fail ends the wait of the call with the integer id key with err.
func (p *Peer) Fail(key int64, err error) { p.out.fail(key, err) }

type sentIDKey struct{}

// WithSentID returns ctx for a request about to be sent whose id (JSON)
// the caller wants: Call and CallWithin store it in *id as they pick it.
// (Middleware of a request sent reads the id this way.)
func WithSentID(ctx context.Context, id *json.RawMessage) context.Context {
	return context.WithValue(ctx, sentIDKey{}, id)
}

// SentIDFrom returns where WithSentID asked for the id of the request
// sent with ctx, or nil: a transport that picks ids of its own stores the
// id there.
func SentIDFrom(ctx context.Context) *json.RawMessage {
	id, _ := ctx.Value(sentIDKey{}).(*json.RawMessage)
	return id
}

// outbound is the requests one side has sent and awaits responses to. The
// zero value is ready to use.
type outbound struct {
	mu   sync.Mutex
	next int64
	// pending is keyed by the id: this side sends integer ids only, so a
	// response's id matches when it is the same integer (a string id never
	// does).
	pending map[int64]*outCall
	// closed, once set, is what pending and later calls fail with.
	closed error
}

// outCall is one request waiting for its response.
type outCall struct {
	done   chan struct{} // closed when answered (or failed by close)
	result []byte        // the result member, when answered with one
	err    error         // *RPCError for an error response, or why it failed
}

// call sends a request for method with params (a JSON object, or nil for
// none) through send and waits for the response: it returns the result
// member as JSON, or an *RPCError for an error response. When ctx ends, or
// timeout passes (zero: defaultRequestTimeout; negative: no limit but
// ctx), it stops waiting, sends notifications/cancelled for the request
// through sendCancel (best effort; nil means send) and returns ctx's error,
// or an error wrapping context.DeadlineExceeded for the timeout. (A server
// request sent about a client request that the client then cancels is
// cancelled on the session, not on the cancelled request's stream, where
// nothing more may go.)
func (o *outbound) call(ctx context.Context, send, sendCancel SendFunc, cancel, cancelID, method string, params []byte, timeout time.Duration) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if params != nil {
		if i := codec.FirstByte(params); i < 0 || params[i] != '{' {
			return nil, errors.New("jsonrpc: the params of " + codec.Quote(method) + " must be a JSON object")
		}
	}
	o.mu.Lock()
	if o.closed != nil {
		err := o.closed
		o.mu.Unlock()
		return nil, err
	}
	o.next++
	key := o.next
	c := &outCall{done: make(chan struct{})}
	if o.pending == nil {
		o.pending = map[int64]*outCall{}
	}
	o.pending[key] = c
	o.mu.Unlock()

	if id, _ := ctx.Value(sentIDKey{}).(*json.RawMessage); id != nil {
		*id = strconv.AppendInt(nil, key, 10)
	}
	e := codec.Encoder{Buf: make([]byte, 0, 64+len(method)+len(params))}
	e.Buf = append(e.Buf, `{"jsonrpc":"2.0","id":`...)
	e.Buf = strconv.AppendInt(e.Buf, key, 10)
	e.Buf = append(e.Buf, `,"method":`...)
	e.Str(method)
	if params != nil {
		e.Buf = append(e.Buf, `,"params":`...)
		e.Buf = append(e.Buf, params...)
	}
	e.Buf = append(e.Buf, '}')
	if err := send(e.Buf); err != nil {
		o.forget(key, c)
		return nil, err
	}

	if timeout == 0 {
		timeout = DefaultRequestTimeout
	}
	var timer <-chan time.Time
	if timeout > 0 {
		t := getTimer(timeout)
		defer putTimer(t)
		timer = t.C
	}
	var err error
	var reason string
	select {
	case <-c.done:
		return c.result, c.err
	case <-ctx.Done():
		err, reason = context.Cause(ctx), "the request was cancelled: "+ctx.Err().Error()
	case <-timer:
		err = fmt.Errorf("jsonrpc: no response to %s within %v: %w", codec.Quote(method), timeout, context.DeadlineExceeded)
		reason = "timed out after " + timeout.String()
	}
	if !o.forget(key, c) {
		// The response arrived meanwhile: it is the answer.
		<-c.done
		return c.result, c.err
	}
	if cancel == "" || cancelID == "" {
		return nil, err
	}
	msg := AppendQuoted([]byte(`{"jsonrpc":"2.0","method":`), cancel)
	msg = AppendQuoted(append(msg, `,"params":{`...), cancelID)
	msg = strconv.AppendInt(append(msg, ':'), key, 10)
	msg = AppendQuoted(append(msg, `,"reason":`...), reason)
	if sendCancel == nil {
		sendCancel = send
	}
	sendCancel(append(msg, "}}"...))
	return nil, err
}

// timers are the timers of calls, reused: a call's timer is stopped and
// its channel drained (for the timer semantics before Go 1.23, which a
// module that says go 1.22 gets) before it goes back.
var timers sync.Pool

func getTimer(d time.Duration) *time.Timer {
	if t, ok := timers.Get().(*time.Timer); ok {
		t.Reset(d)
		return t
	}
	return time.NewTimer(d)
}

func putTimer(t *time.Timer) {
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
	timers.Put(t)
}

// forget removes a waiting call; false when it is gone already (answered).
func (o *outbound) forget(key int64, c *outCall) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.pending[key] != c {
		return false
	}
	delete(o.pending, key)
	return true
}

// deliver hands a response (a message with a result or an error, which
// readEnvelope has found to be JSON-RPC) to the call waiting for it. It
// reports whether one was: a response to an id this side is not waiting
// for (never sent, timed out, or answered already) is not.
func (o *outbound) deliver(msg []byte) bool {
	var id, result, errObj []byte
	var d codec.Decoder
	d.InitShared(msg)
	if d.Peek() != '{' {
		return false
	}
	d.Object()
	for first := true; d.NextMember(&first); {
		d.Peek()
		switch d.Key {
		case "id":
			id = d.Raw()
		case "result":
			result = d.Raw()
		case "error":
			errObj = d.Raw()
		default:
			d.Skip()
		}
	}
	if d.Finish() != nil || len(id) == 0 || id[0] == '"' {
		return false
	}
	key, isInt, inRange := codec.ParseInt(id)
	if !isInt || !inRange {
		return false
	}
	o.mu.Lock()
	c := o.pending[key]
	delete(o.pending, key)
	o.mu.Unlock()
	if c == nil {
		return false
	}
	switch {
	case errObj != nil:
		c.err = DecodeRPCError(errObj)
	case result != nil:
		// msg is the reader's own buffer for this message (a line, an
		// event, a body), not reused: the result may share it.
		c.result = result
	default:
		c.err = &RPCError{Code: CodeInternalError, Message: "the peer's response has neither result nor error"}
	}
	close(c.done)
	return true
}

// close fails every waiting call, and every later one, with err.
func (o *outbound) close(err error) {
	o.mu.Lock()
	if o.closed == nil {
		o.closed = err
	}
	pending := o.pending
	o.pending = nil
	o.mu.Unlock()
	for _, c := range pending {
		c.err = err
		close(c.done)
	}
}

// waiting is how many calls wait for a response.
func (o *outbound) waiting() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.pending)
}

// DecodeRPCError reads the error member of a response. A member that is
// not a JSON-RPC error object becomes an internal error that says so.
func DecodeRPCError(raw []byte) *RPCError {
	var v struct {
		Code    *json.Number    `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &v); err != nil || v.Code == nil || v.Message == nil {
		return &RPCError{Code: CodeInternalError, Message: "the peer answered with a malformed error: " + codec.Quote(string(raw))}
	}
	code, err := v.Code.Int64()
	if err != nil {
		return &RPCError{Code: CodeInternalError, Message: "the peer answered with a malformed error code: " + codec.QuoteNum([]byte(v.Code.String()))}
	}
	return &RPCError{Code: code, Message: *v.Message, Data: v.Data}
}

// AppendQuoted appends s as a JSON string.
func AppendQuoted(b []byte, s string) []byte {
	e := codec.Encoder{Buf: b}
	e.Str(s)
	return e.Buf
}

// isWaiting reports whether the request with the id key waits for its
// response.
func (o *outbound) isWaiting(key int64) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, ok := o.pending[key]
	return ok
}

// fail ends the wait of the request with the id key with err.
func (o *outbound) fail(key int64, err error) {
	o.mu.Lock()
	c := o.pending[key]
	delete(o.pending, key)
	o.mu.Unlock()
	if c != nil {
		c.err = err
		close(c.done)
	}
}
