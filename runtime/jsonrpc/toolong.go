package jsonrpc

import (
	"errors"
	"log/slog"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// A message longer than a connection reads is skipped, and the line
// stream keeps its first bytes (tooLongHead of them) so that the
// connection can tell what it was: a response fails the request it
// answers at once (every waiting request, when its id comes too late to
// be read) instead of leaving it to wait for its timeout; a request is
// answered with an invalid-request error without an id. The connection
// reads on.

// tooLongHead is how many bytes of a skipped message are kept.
const tooLongHead = 4 << 10

// tooLongError is the error wrapping ErrTooLong that NewLineStream's Read
// (and readStream, for a Stream's message above MaxMessageSize) returns:
// the limit and the first bytes of the message.
type tooLongError struct {
	limit int
	head  []byte
}

func (e *tooLongError) Error() string { return ErrTooLong.Error() }
func (e *tooLongError) Unwrap() error { return ErrTooLong }

// newTooLong keeps the first bytes of a message skipped for its size.
func newTooLong(limit int, first []byte) *tooLongError {
	return &tooLongError{limit: limit, head: append([]byte(nil), first[:min(len(first), tooLongHead)]...)}
}

// skippedKind is what the first bytes of a skipped message show.
type skippedKind int

const (
	skippedUnknown  skippedKind = iota
	skippedRequest              // a request or notification: it has a method
	skippedResponse             // it has a result or an error, and no method before them
)

// peekSkipped reads the members of the object that head begins, as far
// as head goes: whether it is a request or a response, and its id as JSON
// (nil when it is not among the members head holds whole).
func peekSkipped(head []byte) (kind skippedKind, id []byte) {
	d := codec.Decoder{Data: head, AllowDup: true}
	if d.Peek() != '{' || !d.Object() {
		return skippedUnknown, nil
	}
	for first := true; d.NextMember(&first); {
		d.Peek()
		switch d.Key {
		case "method":
			kind = skippedRequest
			d.Skip()
		case "id":
			// Whole only if something follows: head may end in a number.
			if v := d.Raw(); v != nil && d.Pos < len(head) {
				id = v
			}
		case "result", "error":
			if kind == skippedUnknown {
				kind = skippedResponse
			}
			d.Skip()
		default:
			d.Skip()
		}
		if d.Failed() {
			break
		}
	}
	return kind, id
}

// tooLong handles a message skipped for its size; err wraps ErrTooLong.
func (c *Conn) tooLong(err error) {
	d := c.d
	var tl *tooLongError
	var kind skippedKind
	var id []byte
	limit := MaxMessageSize
	if errors.As(err, &tl) {
		kind, id = peekSkipped(tl.head)
		limit = tl.limit
	}
	switch kind {
	case skippedResponse:
		c.failSkipped(id, limit)
		return
	case skippedUnknown:
		// Perhaps a response: the requests waiting fail rather than wait
		// for their timeout. Perhaps a request: it is answered too.
		c.failSkipped(nil, limit)
	}
	resp := d.ErrorResponse(nil, CodeInvalidRequest, "invalid request: "+err.Error(), nil)
	if d.OnBadMessage != nil {
		d.OnBadMessage(nil, resp)
	} else {
		c.write(resp)
	}
}

// failSkipped fails the requests sent to the peer that a skipped message
// may answer: the one with the id id, or, when id is nil, every one
// waiting. A response to no waiting request (or with an id that is not
// one of this side's integers) is dropped, as responses are.
func (c *Conn) failSkipped(id []byte, limit int) {
	size := strconv.Itoa(limit)
	if id == nil {
		if c.peer.Waiting() > 0 {
			c.peer.out.failAll(skippedError("mcp: a message longer than " + size + " bytes, the most this connection reads (jsonrpc.MaxMessageSize), was skipped; it may have been the response to this request, and which request it answered could not be read, so every request waiting for a response fails"))
		}
		return
	}
	key, isInt, inRange := codec.ParseInt(id)
	if !isInt || !inRange || !c.peer.IsWaiting(key) {
		c.d.LogAttrs(slog.LevelWarn, "mcp: dropped a response longer than "+size+" bytes to a request that is not waiting for one", slog.String(LogKeyRequestID, codec.Clip(string(id), codec.MaxQuoted)))
		return
	}
	c.peer.Fail(key, skippedError("mcp: the response to this request was skipped: it is longer than "+size+" bytes, the most this connection reads (jsonrpc.MaxMessageSize)"))
}

// skippedError is what a request fails with when its response was
// skipped for its size; it wraps ErrTooLong.
type skippedError string

func (e skippedError) Error() string { return string(e) }
func (e skippedError) Unwrap() error { return ErrTooLong }

// failAll ends the wait of every request waiting with err; later requests
// are sent as before.
func (o *outbound) failAll(err error) {
	o.mu.Lock()
	pending := o.pending
	o.pending = nil
	o.mu.Unlock()
	for _, c := range pending {
		c.err = err
		close(c.done)
	}
}
