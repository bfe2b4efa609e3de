package protocol

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// Unavailable is the error of a request that needs a service the server
// depends on (the shared task store or the bus of its replicas: Redis)
// while that service cannot be reached. The request was not carried out,
// and the client may send it again after RetryAfter. A handler returns it
// as it is (or wrapped); the client gets a JSON-RPC internal error (-32603)
// whose data carries spec.DataRetryAfterMs, and over Streamable HTTP the
// status 503 Service Unavailable with a Retry-After header. A tool that
// returns it fails with that error, not with a tool execution error.
type Unavailable struct {
	// What cannot be reached, for the message: "the task store".
	What string
	// RetryAfter is when to try again; zero means DefaultRetryAfter.
	RetryAfter time.Duration
	// Err is the cause, for logs; the client does not see it.
	Err error
}

// DefaultRetryAfter is Unavailable.RetryAfter's default.
const DefaultRetryAfter = time.Second

func (e *Unavailable) Error() string {
	msg := e.message()
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Unavailable) Unwrap() error { return e.Err }

func (e *Unavailable) message() string {
	what := e.What
	if what == "" {
		what = "a service the server needs"
	}
	return "unavailable: " + what + " cannot be reached; try again in " + e.retryAfter().String()
}

func (e *Unavailable) retryAfter() time.Duration {
	if e.RetryAfter <= 0 {
		return DefaultRetryAfter
	}
	return e.RetryAfter
}

// As makes an Unavailable an *jsonrpc.RPCError (errors.As): -32603 with
// {"retryAfterMs":N} as data, which the dispatcher answers with and the
// HTTP handler turns into 503 with Retry-After.
func (e *Unavailable) As(target any) bool {
	re, ok := target.(**jsonrpc.RPCError)
	if !ok {
		return false
	}
	data := []byte(`{"` + spec.DataRetryAfterMs + `":` + strconv.FormatInt(max(e.retryAfter().Milliseconds(), 1), 10) + `}`)
	*re = &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: " + e.message(), Data: data}
	return true
}

// IsUnavailable reports whether err is (or wraps) an Unavailable.
func IsUnavailable(err error) bool {
	var u *Unavailable
	return errors.As(err, &u)
}

// retryAfterOf returns the spec.DataRetryAfterMs of an error response, if
// it has one (ok false for a result, or an error without it).
func retryAfterOf(resp []byte) (time.Duration, bool) {
	raw := codec.Lookup(codec.Lookup(codec.Lookup(resp, "error"), "data"), spec.DataRetryAfterMs)
	if raw == nil || !codec.IsNumberStart(raw[0]) {
		return 0, false
	}
	n, isInt, inRange := codec.ParseInt(raw)
	if !isInt || !inRange || n < 0 {
		return 0, false
	}
	return time.Duration(n) * time.Millisecond, true
}

// setRetryAfter sets Retry-After on a 503 answer whose error says when to
// try again.
func setRetryAfter(h http.Header, resp []byte, status int) {
	if status != http.StatusServiceUnavailable {
		return
	}
	if d, ok := retryAfterOf(resp); ok {
		h.Set("Retry-After", retryAfterHeader(d))
	}
}

// retryAfterHeader is the Retry-After value (whole seconds, at least one)
// for a delay.
func retryAfterHeader(d time.Duration) string {
	return strconv.FormatInt(max(int64((d+time.Second-1)/time.Second), 1), 10)
}
