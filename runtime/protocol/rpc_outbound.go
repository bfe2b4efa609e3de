package protocol

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
// peer (notifications/cancelled) when a caller stops waiting. A server uses
// it for the requests it sends to its client (elicitation/create,
// sampling/createMessage, roots/list, ping), a client for everything it
// sends. It does not know the transport: a call gets the function that
// writes the request, and the transport hands every response it reads to
// deliver.

// defaultRequestTimeout bounds a request sent to the peer when the options
// leave RequestTimeout zero.
const defaultRequestTimeout = 5 * time.Minute

// errOutboundClosed is what a request sent to the peer fails with when the
// connection (or HTTP session) ends before its response arrives.
var errOutboundClosed = errors.New("mcp: the connection closed before the response arrived")

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

// sendFunc writes one message to the peer.
type sendFunc func(msg []byte) error

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
func (o *outbound) call(ctx context.Context, send, sendCancel sendFunc, method string, params []byte, timeout time.Duration) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if params != nil {
		if i := firstByte(params); i < 0 || params[i] != '{' {
			return nil, errors.New("mcp: the params of " + codec.Quote(method) + " must be a JSON object")
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
		timeout = defaultRequestTimeout
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
		err = fmt.Errorf("mcp: no response to %s within %v: %w", codec.Quote(method), timeout, context.DeadlineExceeded)
		reason = "timed out after " + timeout.String()
	}
	if !o.forget(key, c) {
		// The response arrived meanwhile: it is the answer.
		<-c.done
		return c.result, c.err
	}
	cancel := strconv.AppendInt([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`), key, 10)
	cancel = append(cancel, `,"reason":`...)
	cancel = rtAppendQuoted(cancel, reason)
	if sendCancel == nil {
		sendCancel = send
	}
	sendCancel(append(cancel, "}}"...))
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
		c.err = decodeRPCError(errObj)
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

// decodeRPCError reads the error member of a response. A member that is
// not a JSON-RPC error object becomes an internal error that says so.
func decodeRPCError(raw []byte) *RPCError {
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
		return &RPCError{Code: CodeInternalError, Message: "the peer answered with a malformed error code: " + v.Code.String()}
	}
	return &RPCError{Code: code, Message: *v.Message, Data: v.Data}
}

// rtAppendQuoted appends s as a JSON string.
func rtAppendQuoted(b []byte, s string) []byte {
	e := codec.Encoder{Buf: b}
	e.Str(s)
	return e.Buf
}
