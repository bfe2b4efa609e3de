// Package wire is the raw JSON-RPC layer of mcpgen check: it sends bytes
// exactly as the checker wrote them (deliberately wrong requests
// included) over stdio or Streamable HTTP, and records everything that
// comes back (HTTP status and headers, every message, SSE framing),
// bounded in time and size, without interpreting it. The checker judges.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Limits bound one exchange.
type Limits struct {
	// Timeout bounds an exchange from the first byte sent to the answer.
	Timeout time.Duration
	// MaxBytes bounds one message: a stdout line, an HTTP body, an SSE event.
	MaxBytes int64
	// MaxMessages bounds how many messages one exchange records before its
	// answer (notifications on a stream, or on stdout while it waits).
	MaxMessages int
	// Linger is how long an SSE stream is watched after the response, to
	// see whether the server ends it.
	Linger time.Duration
	// ExitWait is how long a stdio server has to exit once its standard
	// input is closed, before SIGTERM (and as long again before SIGKILL).
	ExitWait time.Duration
}

// DefaultLimits are mcpgen check's defaults.
var DefaultLimits = Limits{Timeout: 10 * time.Second, MaxBytes: 8 << 20, MaxMessages: 1000, Linger: 2 * time.Second, ExitWait: 5 * time.Second}

// An Exchange is one request (or notification) and what came back for it.
type Exchange struct {
	// What to send. Method is the HTTP method ("" is POST); Header is
	// sent as it is (keys as written, so a test of case-insensitive
	// header names can send lower case); Host, if set, replaces the
	// request's Host. Body is the message, sent byte for byte.
	Method string
	Header http.Header
	Host   string
	Body   []byte
	// ID is the JSON text of the id the response must carry (as sent);
	// "" for a notification, and "null" for a message whose id the
	// server cannot read (a response with id null or none answers it).
	ID string
	// Until, if set, ends the exchange at the first message (before the
	// response) for which it returns true; that message is Stopped.
	Until func(msg []byte) bool
	// HeadersOnly ends an HTTP exchange once the status and headers are
	// in (for a GET that may open a stream).
	HeadersOnly bool
	// Quiet is how long a stdio notification waits for anything the
	// server might answer (which it must not).
	Quiet time.Duration

	// What came back. Messages are every JSON-RPC message received for
	// the exchange in order, the response included; Response is the
	// response, nil if none came.
	Status      int
	RespHeader  http.Header
	Messages    [][]byte
	Response    []byte
	Stopped     []byte
	Raw         []byte // HTTP: a body (or SSE data) that is not a JSON-RPC message, at most 2 KiB
	SSE         bool   // HTTP: the answer was an event stream
	Priming     bool   // SSE: the first event had an id and no data
	StreamEnded bool   // SSE: the stream ended within Linger of the response
	Dropped     int    // messages past MaxMessages (counted, not kept)
	Err         error  // why the exchange has no answer: timeout, limit, exit, connection
	Elapsed     time.Duration
}

// TimeoutError is an exchange that got no answer in time.
type TimeoutError struct{ After time.Duration }

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("no answer within %s", e.After)
}

// LimitError is an answer that broke a limit.
type LimitError struct{ What string }

func (e *LimitError) Error() string { return e.What }

// ExitError is a stdio server that exited while an answer was due.
type ExitError struct {
	Status string // as os/exec says it ("exit status 3")
	Stderr string // the end of what it wrote on standard error
}

func (e *ExitError) Error() string {
	s := "the server process exited (" + e.Status + ")"
	if e.Stderr != "" {
		s += "; its standard error ends with: " + e.Stderr
	}
	return s
}

// ErrClosed is an exchange on a connection that was closed.
var ErrClosed = errors.New("the connection is closed")

// envelope is what the layer reads of a message to route it.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// parseEnvelope reads what routes msg, and the kind of message it is:
// 'q' request, 'n' notification, 'r' response, 0 none.
func parseEnvelope(msg []byte) (envelope, byte) {
	var e envelope
	if len(msg) == 0 || msg[0] != '{' || json.Unmarshal(msg, &e) != nil {
		return e, 0
	}
	switch {
	case e.Method != nil && e.ID != nil:
		return e, 'q'
	case e.Method != nil:
		return e, 'n'
	case e.Result != nil || e.Error != nil:
		return e, 'r'
	}
	return e, 0
}

// IDKey is the routing key of an id's JSON text: strings and numbers are
// different ids ("7" is not 7); null and an absent id are "null".
func IDKey(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "null"
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return "s:" + s
		}
		return "x:" + string(raw)
	}
	if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return "n:" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	return "x:" + string(raw)
}

// Kind returns 'q' (request), 'n' (notification), 'r' (response) or 0
// (not a JSON-RPC message) for msg.
func Kind(msg []byte) byte {
	_, k := parseEnvelope(msg)
	return k
}

// Snip returns at most n bytes of b, marking a cut.
func Snip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + fmt.Sprintf("... (%d bytes)", len(b))
}
