package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file is how the client's Streamable HTTP transport rides out
// transient failures: a connection refused or reset, an answer of 429,
// 502, 503 or 504, a response stream cut before its response. A request
// that is safe to repeat (spec.SafeToRepeat) is sent again after a capped
// exponential backoff with jitter, or after the delay the server asked for
// (Retry-After, or the retryAfterMs of its error), a bounded number of
// times (HTTPTransport.MaxAttempts); any other request, tools/call first,
// is never sent twice: its error says so, and whether the server may have
// carried it out. A 2026-07-28 subscriptions/listen whose stream is cut
// listens again (listenModern).

// The defaults of HTTPTransport's retry fields.
const (
	defaultMaxAttempts   = 4
	defaultRetryDelay    = 250 * time.Millisecond
	defaultMaxRetryDelay = 10 * time.Second
)

// How far a request that failed got.
const (
	notSent  = iota // no connection was made: the server never saw it
	refused         // the server answered 429 or 503: it did not carry it out
	maybeRun        // the connection or the stream broke, or a gateway answered 502 or 504
)

// transientError is a failure the same request may not meet if it is sent
// again.
type transientError struct {
	err error
	// retryAfter is the delay the server asked for (Retry-After, or the
	// retryAfterMs of its error); 0 if none.
	retryAfter time.Duration
	reached    int // notSent, refused or maybeRun
}

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }

// retryPolicy is HTTPTransport's retry fields with their defaults.
type retryPolicy struct {
	attempts        int
	delay, maxDelay time.Duration
}

func (t *httpBase) policy() retryPolicy {
	p := retryPolicy{attempts: t.cfg.MaxAttempts, delay: t.cfg.RetryDelay, maxDelay: t.cfg.MaxRetryDelay}
	if p.attempts <= 0 {
		p.attempts = defaultMaxAttempts
	}
	if p.delay <= 0 {
		p.delay = defaultRetryDelay
	}
	if p.maxDelay <= 0 {
		p.maxDelay = defaultMaxRetryDelay
	}
	return p
}

// backoff is the delay before the retry after the n-th failure in a row
// (n >= 1): delay doubled n-1 times, capped at maxDelay, less up to a
// fifth at random so that clients that failed together do not come back
// together.
func (p retryPolicy) backoff(n int) time.Duration {
	d := p.delay
	for i := 1; i < n && d < p.maxDelay; i++ {
		d *= 2
	}
	d = min(d, p.maxDelay)
	return d - time.Duration(rand.Int64N(int64(d)/5+1))
}

// transportFailure marks an error of http.Client.Do that the same request
// may not meet again as transient; any other comes back as it is.
func transportFailure(err error) error {
	if !transientNet(err) {
		return err
	}
	te := &transientError{err: err, reached: maybeRun}
	var op *net.OpError
	if errors.Is(err, syscall.ECONNREFUSED) || (errors.As(err, &op) && op.Op == "dial") {
		te.reached = notSent
	}
	return te
}

// transientNet reports whether a network error may pass: a connection
// refused, reset or closed by the peer, a timeout, a DNS failure the
// resolver calls temporary.
func transientNet(err error) bool {
	for _, e := range []error{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED, syscall.EPIPE, io.EOF, io.ErrUnexpectedEOF} {
		if errors.Is(err, e) {
			return true
		}
	}
	var de *net.DNSError
	if errors.As(err, &de) {
		return de.IsTemporary || de.IsTimeout
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// statusFailure turns an HTTP error response into an error (statusError),
// marked transient for 429, 502, 503 and 504 with the delay Retry-After
// asks for.
func statusFailure(resp *http.Response, ct string) error {
	err := statusError(resp, ct)
	te := &transientError{err: err, retryAfter: retryAfterValue(resp.Header.Get("Retry-After"))}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		te.reached = refused
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		te.reached = maybeRun
	default:
		return err
	}
	var re *jsonrpc.RPCError
	if errors.As(err, &re) {
		if d, ok := retryAfterOfError(re); ok && d > te.retryAfter {
			te.retryAfter = d
		}
	}
	return te
}

// retryAfterValue reads a Retry-After header: seconds, or an HTTP date
// (RFC 9110, 10.2.3); 0 when absent or unreadable.
func retryAfterValue(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 || n > 1<<20 {
			return 0
		}
		return time.Duration(n) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(time.Until(at), 0)
	}
	return 0
}

// retryAfterOfError reads the spec.DataRetryAfterMs of an error: a
// server's word that it did not carry the request out and when to try
// again.
func retryAfterOfError(re *jsonrpc.RPCError) (time.Duration, bool) {
	raw := codec.Lookup(re.Data, spec.DataRetryAfterMs)
	if raw == nil || !codec.IsNumberStart(raw[0]) {
		return 0, false
	}
	n, isInt, inRange := codec.ParseInt(raw)
	if !isInt || !inRange || n < 0 {
		return 0, false
	}
	return time.Duration(n) * time.Millisecond, true
}

// asTransient returns the transient failure err is, or nil. An error
// response that carries spec.DataRetryAfterMs (the server did not carry
// the request out) is one too.
func asTransient(err error) *transientError {
	var te *transientError
	if errors.As(err, &te) {
		return te
	}
	var re *jsonrpc.RPCError
	if errors.As(err, &re) {
		if d, ok := retryAfterOfError(re); ok {
			return &transientError{err: err, retryAfter: max(d, time.Millisecond), reached: refused}
		}
	}
	return nil
}

// unmark returns err without its transient mark, as the caller knows it.
func unmark(err error) error {
	if te, ok := err.(*transientError); ok {
		return te.err
	}
	return err
}

// retrying sends a request with send and, while it fails in a way that
// may pass, sends it again when the method is safe to repeat: after the
// backoff, or after the delay the server asked for, up to MaxAttempts in
// all. A request that is not safe to repeat is sent once; its transient
// failure says that it was not retried and whether the server may have
// carried it out.
func (t *httpTransport) retrying(ctx context.Context, method string, send func() (json.RawMessage, error)) (json.RawMessage, error) {
	p := t.policy()
	safe := spec.SafeToRepeat(method)
	for attempt := 1; ; attempt++ {
		raw, err := send()
		if err == nil {
			return raw, nil
		}
		te := asTransient(err)
		if te == nil || ctx.Err() != nil || t.ctx.Err() != nil {
			return nil, unmark(err)
		}
		if !safe {
			return nil, notRepeated(method, te)
		}
		// The errors below keep the mark: the caller (negotiate) tells a
		// server it cannot reach from one of another era.
		if attempt >= p.attempts {
			if attempt == 1 {
				return nil, te
			}
			return nil, fmt.Errorf("%w (sent %d times; HTTPTransport.MaxAttempts)", te, attempt)
		}
		wait := p.backoff(attempt)
		if te.retryAfter > 0 {
			if te.retryAfter > p.maxDelay {
				return nil, fmt.Errorf("%w (the server asks to be retried in %v, more than HTTPTransport.MaxRetryDelay, %v)", te, te.retryAfter, p.maxDelay)
			}
			wait = te.retryAfter
		}
		t.logRetry(method, attempt, wait, te.err)
		if !sleepCtx(ctx, wait) {
			return nil, fmt.Errorf("%w (waiting to send %s again after: %w)", context.Cause(ctx), codec.Quote(method), te)
		}
		if t.ctx.Err() != nil {
			return nil, errClientClosed
		}
	}
}

// notRepeated is the error of a request that failed in a way that may
// pass but is not safe to repeat: it says so, and how far it got.
func notRepeated(method string, te *transientError) error {
	var how string
	switch te.reached {
	case notSent:
		how = "it did not reach the server"
	case refused:
		how = "the server refused it without carrying it out"
	default:
		how = "the server may have carried it out"
	}
	return fmt.Errorf("%w (not sent again: %s is not safe to repeat, and %s)", te, codec.Quote(method), how)
}

func (t *httpTransport) logRetry(method string, attempt int, wait time.Duration, err error) {
	if l := t.core.cfg.Logger; l != nil {
		l.LogAttrs(context.Background(), slog.LevelInfo, "mcp: retrying a request after a transient failure",
			slog.String(jsonrpc.LogKeyMethod, codec.Clip(method, codec.MaxQuoted)), slog.Int("attempt", attempt+1),
			slog.Duration("wait", wait), slog.String("error", err.Error()))
	}
}

// streamState is what a response stream has shown of itself, for a
// request that goes on after it is cut: the last event id and retry
// field, and how many events came.
type streamState struct {
	lastID string
	retry  int
	events int
}

// listenModern keeps a 2026-07-28 subscriptions/listen open across cuts:
// when its POST fails in a way that may pass, or its stream ends before
// the response (the result with which the server ends the subscription),
// it listens again after a backoff (or the delay the server asked for,
// with Retry-After or the stream's retry field), with Last-Event-ID when
// the server numbered the events, up to MaxReconnects times in a row
// without an event. The notifications sent while it was not listening may
// be lost: the cached lists and resources are dropped at each
// reconnection, and the server acknowledges the new subscription
// (notifications/subscriptions/acknowledged), which is when a handler
// lists again what it follows.
func (t *httpTransport) listenModern(ctx context.Context, r *clientRequest) (json.RawMessage, error) {
	p := t.policy()
	st := &streamState{}
	failures := 0
	for {
		before := st.events
		raw, err := t.modernRequest(ctx, r, st)
		if err == nil {
			return raw, nil
		}
		te := asTransient(err)
		if te == nil || ctx.Err() != nil || t.ctx.Err() != nil {
			return nil, unmark(err)
		}
		if st.events > before {
			failures = 0
		}
		failures++
		if failures > t.reconnects {
			return nil, fmt.Errorf("%w (listened again %d times in a row without an event; HTTPTransport.MaxReconnects)", te.err, failures-1)
		}
		wait := p.backoff(failures)
		switch {
		case te.retryAfter > 0:
			wait = te.retryAfter
		case st.retry > 0:
			wait = time.Duration(st.retry) * time.Millisecond
		}
		t.logRetry(r.method, failures, wait, te.err)
		if !sleepCtx(ctx, wait) {
			return nil, context.Cause(ctx)
		}
		if t.ctx.Err() != nil {
			return nil, errClientClosed
		}
		t.core.mayHaveMissed()
	}
}

// mayHaveMissed drops what the notifications the client may have missed
// would have made stale: the cached lists and resources, and the tools'
// output schemas.
func (c *ClientCore) mayHaveMissed() {
	c.schemas.forget()
	if c.cache == nil {
		return
	}
	for _, m := range []string{spec.MethodListTools, spec.MethodListPrompts, spec.MethodListResources, spec.MethodListResourceTemplates, spec.MethodReadResource} {
		c.cache.invalidate(c.serverKey, m, "")
	}
}
