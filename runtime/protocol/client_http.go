package protocol

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/spec"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// This file is the client's side of the Streamable HTTP transport. In the
// modern era (2026-07-28, basic/transports/streamable-http.mdx) every
// request is a POST of its own with the request metadata headers, answered
// with JSON or a stream of events that ends with the response; closing the
// stream cancels the request. In the legacy era (2025-03-26 to 2025-11-25)
// the initialize response opens a session (Mcp-Session-Id) that later
// requests name; the server may send requests of its own on any stream,
// which the client answers with POSTs; a GET opens the session's stream;
// and a response stream that breaks off before its response is resumed
// with a GET carrying Last-Event-ID, after the retry delay the server
// asked for (SSE polling, 2025-11-25).

// HTTPTransport talks to a server over Streamable HTTP.
type HTTPTransport struct {
	// URL is the server's MCP endpoint.
	URL string
	// Client makes the requests; nil means a client of the transport's
	// own, with no overall timeout (response streams stay open as long as
	// their requests run; ClientOptions.RequestTimeout bounds those).
	Client *http.Client
	// Header is added to every request, such as an Authorization header.
	// Its Authorization value is the Client's authorization context for
	// private cache entries unless ClientOptions.AuthContext is set.
	// Its credentials (DefaultCredentialHeaders and CredentialHeaders)
	// are not sent on when a redirect leads to another origin.
	Header http.Header
	// CredentialHeaders names the headers of Header that are credentials
	// besides DefaultCredentialHeaders (Authorization, Cookie,
	// Proxy-Authorization, DPoP), such as "X-Api-Key": a redirect the
	// Client follows to another origin (scheme, host and port) goes
	// without them. A redirect from https to http is refused whatever
	// the headers.
	CredentialHeaders []string
	// MaxMessageBytes bounds one message the server sends (a response
	// body, an event of a stream); 0 means jsonrpc.MaxMessageSize
	// (64 MiB). A longer one is refused having read at most that much,
	// holding at most twice that much.
	MaxMessageBytes int
	// MaxReconnects bounds how many times in a row the client reconnects
	// to a stream that ended early without progress (a response stream
	// before its response, the session's GET stream, a 2026-07-28
	// subscriptions/listen); 0 means 5.
	MaxReconnects int
	// MaxAttempts bounds how many times the client sends a request that is
	// safe to repeat (spec.SafeToRepeat: server/discover, initialize,
	// ping, the lists, resources/read, prompts/get, completion/complete,
	// ...) when it fails in a way that may pass: the connection is refused
	// or breaks, the server answers 429, 502, 503 or 504, or the response
	// stream ends before the response. 0 means 4; 1 turns retries off. A
	// request that is not safe to repeat, tools/call first, is sent once
	// whatever MaxAttempts: its error says it was not sent again, and
	// whether the server may have carried it out.
	MaxAttempts int
	// RetryDelay is the wait before the first retry, doubled for each
	// further one up to MaxRetryDelay, each less up to a fifth at random;
	// 0 means 250 ms. A server's Retry-After (or the retryAfterMs of its
	// error) takes its place; one longer than MaxRetryDelay (0: 10 s) ends
	// the retries with the server's answer.
	RetryDelay, MaxRetryDelay time.Duration
}

// HTTPStatusError is an HTTP response that carries no JSON-RPC message
// the client can use: its status, headers (WWW-Authenticate for a 401)
// and the start of its body.
type HTTPStatusError struct {
	StatusCode int
	Status     string
	Header     http.Header
	Body       string // at most 512 bytes
}

func (e *HTTPStatusError) Error() string {
	msg := "mcp: HTTP " + e.Status
	if b := strings.TrimSpace(e.Body); b != "" {
		msg += ": " + b
	}
	return msg
}

// authContext names the authorization context of the transport's
// Authorization header (a digest: the cache keeps no credentials), or "".
func (t *HTTPTransport) authContext() string {
	a := t.Header.Get("Authorization")
	if a == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(a))
	return "authorization:" + hex.EncodeToString(sum[:16])
}

// defaultReconnects bounds reconnections when MaxReconnects is 0.
const defaultReconnects = 5

// defaultRetry is the delay before reconnecting to a stream when the
// server named none.
const defaultRetry = time.Second

// open makes the client's connection to the server.
func (t *HTTPTransport) open(c *ClientCore) (clientTransport, string, error) {
	if t.URL == "" {
		return nil, "", errors.New("mcp: HTTPTransport: URL is empty")
	}
	ht := &httpTransport{httpBase: t.base(), core: c, serverReqs: map[string]context.CancelCauseFunc{}}
	ht.gap = c.mayHaveMissed
	// Every request says how it is sent (a POST of its own, its
	// cancellation another).
	ht.out = jsonrpc.NewPeer(&c.in.Dispatcher, func([]byte) error { return errors.New("mcp: HTTP requests are sent one POST each") })
	inFlight := c.in.Limits.WithDefaults().MaxInFlight
	ht.sem = make(chan struct{}, inFlight)
	return ht, "http:" + t.URL, nil
}

// base makes what the transport's connections share.
func (t *HTTPTransport) base() *httpBase {
	b := &httpBase{cfg: t, url: t.URL, hc: t.Client, reconnects: t.MaxReconnects}
	if b.hc == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		b.own = tr
		b.hc = &http.Client{Transport: tr}
	}
	b.hc = redirectClient(b.hc, t.CredentialHeaders)
	if b.reconnects <= 0 {
		b.reconnects = defaultReconnects
	}
	b.ctx, b.stop = context.WithCancel(context.Background())
	return b
}

// httpBase is one connection to a Streamable HTTP endpoint: what the
// client's connection (httpTransport) and a stream of messages
// (httpStream) share.
type httpBase struct {
	cfg        *HTTPTransport
	url        string
	hc         *http.Client
	own        *http.Transport // the connection's own transport, closed with it
	reconnects int
	// gap, when not nil, is called when the session's GET stream opens
	// again without Last-Event-ID: what the server sent meanwhile is lost.
	gap func()
	// ctx ends when the connection closes: it bounds streams,
	// reconnections and the answers to the server's requests.
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup

	mu        sync.Mutex
	session   string // legacy: Mcp-Session-Id
	version   string // legacy: the negotiated version, for the GET stream
	listening bool   // the GET stream's goroutine runs
	closed    bool
}

// httpTransport is the client's connection over Streamable HTTP.
type httpTransport struct {
	*httpBase
	core *ClientCore
	ids  atomic.Int64  // ids of modern requests
	sem  chan struct{} // bounds the server's requests answered at once

	// Under mu:
	legacy bool
	// out is the legacy requests waiting for their responses, which may
	// come on any stream of the session.
	out *jsonrpc.Peer
	// serverReqs are the server's requests being answered, by id, so that
	// notifications/cancelled stops them.
	serverReqs map[string]context.CancelCauseFunc
}

func (t *httpTransport) request(ctx context.Context, r clientRequest) (json.RawMessage, error) {
	if r.modern && r.method == spec.MethodListen {
		return t.listenModern(ctx, &r)
	}
	return t.retrying(ctx, r.method, func() (json.RawMessage, error) {
		if r.modern {
			return t.modernRequest(ctx, &r, nil)
		}
		return t.legacyRequest(ctx, &r)
	})
}

// newRequest makes a POST with the headers every message carries.
func (t *httpBase) newRequest(ctx context.Context, body []byte, r *clientRequest) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("mcp: HTTPTransport: %w", err)
	}
	if r.sent != nil {
		r.sent.HTTP = req
	}
	req.Header = make(http.Header, len(t.cfg.Header)+6+len(r.paramHeaders))
	for k, vs := range t.cfg.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	// One array holds the values of the headers set here.
	vals := make([]string, 0, 6+len(r.paramHeaders))
	set := func(k, v string) {
		vals = append(vals, v)
		req.Header[k] = vals[len(vals)-1 : len(vals) : len(vals)]
	}
	set("Content-Type", "application/json")
	set("Accept", "application/json, text/event-stream")
	if r.version != "" {
		set(spec.HeaderProtocolVersion, r.version)
	}
	if r.modern {
		set(spec.HeaderMethod, r.method)
		if r.name != "" {
			set(spec.HeaderName, r.name)
		}
		for _, h := range r.paramHeaders {
			set(h.key, h.value)
		}
	} else {
		t.mu.Lock()
		if t.session != "" {
			set(spec.HeaderSessionID, t.session)
		}
		t.mu.Unlock()
	}
	return req, nil
}

// requestBody encodes a request.
func requestBody(id []byte, method string, params []byte) []byte {
	e := codec.Encoder{Buf: make([]byte, 0, 64+len(method)+len(params))}
	e.Buf = append(e.Buf, `{"jsonrpc":"2.0","id":`...)
	e.Buf = append(e.Buf, id...)
	e.Buf = append(e.Buf, `,"method":`...)
	e.Str(method)
	if params != nil {
		e.Buf = append(e.Buf, `,"params":`...)
		e.Buf = append(e.Buf, params...)
	}
	e.Buf = append(e.Buf, '}')
	return e.Buf
}

// modernRequest sends a request as a POST of its own and reads its
// response: one JSON object, or a stream of events (notifications about
// the request, then the response). Closing the stream is how a modern
// client cancels a request (streamable-http.mdx, "Cancellation"), so ctx
// ending closes it. st, when not nil, is what the stream of an earlier
// sending of the request showed (its last event id is sent as
// Last-Event-ID) and gets what this one shows.
func (t *httpTransport) modernRequest(ctx context.Context, r *clientRequest, st *streamState) (json.RawMessage, error) {
	timeout := r.timeout
	if timeout == 0 {
		timeout = jsonrpc.DefaultRequestTimeout
	}
	parent := ctx
	var cancel context.CancelFunc
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	// ended is the error of a request whose context ended: the caller's
	// context's, or the timeout's.
	ended := func() error {
		if parent.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("mcp: no response to %s within %v: %w", codec.Quote(r.method), timeout, context.DeadlineExceeded)
		}
		return context.Cause(parent)
	}
	id := strconv.AppendInt(nil, t.ids.Add(1), 10)
	if p := jsonrpc.SentIDFrom(ctx); p != nil {
		*p = id
	}
	req, err := t.newRequest(ctx, requestBody(id, r.method, r.params), r)
	if err != nil {
		return nil, err
	}
	if st != nil && st.lastID != "" {
		req.Header["Last-Event-Id"] = []string{st.lastID}
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ended()
		}
		return nil, transportFailure(fmt.Errorf("mcp: %s: %w", codec.Quote(r.method), err))
	}
	defer resp.Body.Close()
	raw, err := t.readModern(ctx, resp, id, r.method, st)
	if err != nil && ctx.Err() != nil {
		return nil, ended()
	}
	return raw, err
}

// readModern reads the response to the request id (recording in st,
// when not nil, what its stream shows of itself).
func (t *httpTransport) readModern(ctx context.Context, resp *http.Response, id []byte, method string, st *streamState) (json.RawMessage, error) {
	ct := mediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode/100 != 2 {
		return nil, statusFailure(resp, ct)
	}
	switch ct {
	case "application/json":
		body, err := readBodySized(resp.Body, resp.ContentLength, t.maxMessage())
		if err != nil {
			err = fmt.Errorf("mcp: %s: reading the response: %w", codec.Quote(method), err)
			if transientNet(err) {
				err = &transientError{err: err, reached: maybeRun}
			}
			return nil, err
		}
		return answerFor(body, id, method)
	case "text/event-stream":
		sr := newSSEReader(resp.Body, t.maxMessage())
		if st != nil {
			sr.lastID, sr.retry = st.lastID, st.retry
		}
		for {
			ev, err := sr.next()
			if st != nil {
				st.lastID, st.retry = sr.lastID, sr.retry
			}
			if err != nil {
				if err == io.EOF || transientNet(err) {
					// Cut before the response.
					return nil, &transientError{err: streamEnded(method, err), reached: maybeRun}
				}
				return nil, streamEnded(method, err)
			}
			if st != nil {
				st.events++
			}
			if codec.FirstByte(ev.data) < 0 {
				continue // a priming event
			}
			env, bad := t.core.in.ReadEnvelope(ev.data)
			switch {
			case bad != nil:
				return nil, fmt.Errorf("mcp: %s: the server sent a malformed message on the response stream: %s", codec.Quote(method), codec.Quote(string(ev.data)))
			case env.Response && env.Method == "":
				return answerFor(ev.data, id, method)
			case env.ID == nil:
				t.core.in.Handle(ctx, ev.data)
			default:
				// streamable-http.mdx: "The server MUST NOT send
				// independent JSON-RPC requests on this stream."
				t.log("mcp: the server sent a request on a response stream, which this revision forbids; ignored", slog.String("request", codec.Clip(method, codec.MaxQuoted)), slog.String(jsonrpc.LogKeyMethod, codec.Clip(env.Method, codec.MaxQuoted)))
			}
		}
	case "":
		if resp.StatusCode == http.StatusAccepted {
			return nil, fmt.Errorf("mcp: %s: the server answered 202 Accepted, with no response", codec.Quote(method))
		}
	}
	return nil, fmt.Errorf("mcp: %s: the server answered with Content-Type %s, neither application/json nor text/event-stream", codec.Quote(method), codec.Quote(resp.Header.Get("Content-Type")))
}

// streamEnded describes a response stream that ended before the response.
func streamEnded(method string, err error) error {
	switch {
	case err == io.EOF:
		return fmt.Errorf("mcp: %s: the server closed the response stream before the response", codec.Quote(method))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("mcp: %s: the response stream broke off in the middle of an event", codec.Quote(method))
	}
	return fmt.Errorf("mcp: %s: reading the response stream: %w", codec.Quote(method), err)
}

// answerFor reads msg as the response to the request id: its result, or
// its error as an *jsonrpc.RPCError. Anything else is an error that says what the
// server sent.
func answerFor(msg, id []byte, method string) (json.RawMessage, error) {
	rid, result, rerr, ok := parseResponse(msg)
	switch {
	case !ok:
		if !codec.ValidJSON(msg) {
			return nil, fmt.Errorf("mcp: %s: the server's response is not JSON: %s", codec.Quote(method), jsonrpc.SyntaxText(msg))
		}
		return nil, fmt.Errorf("mcp: %s: the server's answer is not a JSON-RPC response: %s", codec.Quote(method), codec.Quote(string(msg)))
	case rid == nil && rerr != nil:
		// An error about the message as a whole (no id).
		return nil, rerr
	case rid == nil || jsonrpc.IDKey(rid) != jsonrpc.IDKey(id):
		return nil, fmt.Errorf("mcp: %s: the server answered with a response to id %s; the request's id is %s", codec.Quote(method), codec.Quote(string(rid)), id)
	case rerr != nil:
		return nil, rerr
	}
	return result, nil
}

// parseResponse reads a JSON-RPC response; ok is false when msg is not one.
func parseResponse(msg []byte) (id, result []byte, rerr *jsonrpc.RPCError, ok bool) {
	var d codec.Decoder
	d.InitShared(msg)
	if d.Peek() != '{' {
		return nil, nil, nil, false
	}
	d.Object()
	var errObj []byte
	var version string
	for first := true; d.NextMember(&first); {
		d.Peek()
		switch d.Key {
		case "jsonrpc":
			if d.Peek() == '"' {
				version = d.Str()
			} else {
				d.Skip()
			}
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
	if d.Finish() != nil || version != "2.0" || (result == nil) == (errObj == nil) {
		return nil, nil, nil, false
	}
	if id != nil && (string(id) == "null" || !jsonrpc.IsRequestID(id)) {
		id = nil
	}
	if errObj != nil {
		rerr = jsonrpc.DecodeRPCError(errObj)
	}
	return id, result, rerr, true
}

// statusError turns an HTTP error response into an error: the JSON-RPC
// error its body carries (as *jsonrpc.RPCError), or an *HTTPStatusError.
func statusError(resp *http.Response, ct string) error {
	body, _ := readBody(resp.Body, 1<<20)
	if ct == "application/json" || (ct == "" && codec.FirstByte(body) >= 0 && body[codec.FirstByte(body)] == '{') {
		if _, _, rerr, ok := parseResponse(body); ok && rerr != nil {
			return rerr
		}
	}
	if len(body) > 512 {
		body = body[:512]
	}
	return &HTTPStatusError{StatusCode: resp.StatusCode, Status: resp.Status, Header: resp.Header, Body: string(body)}
}

// mediaType is the media type of a Content-Type value, lower case.
func mediaType(ct string) string {
	switch ct {
	case "", "application/json", "text/event-stream":
		return ct
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.SplitN(ct, ";", 2)[0]))
	}
	return mt
}

// maxMessage is the largest message the transport reads.
func (t *httpBase) maxMessage() int {
	if n := t.cfg.MaxMessageBytes; n > 0 {
		return n
	}
	return jsonrpc.MaxMessageSize
}

// readBodySized reads a body of at most max bytes whose length the
// response states (n, or -1 when unknown): into a buffer of that size, or
// refused unread when it states more than max.
func readBodySized(r io.Reader, n int64, max int) ([]byte, error) {
	if n > int64(max) {
		return nil, fmt.Errorf("the body is longer than %d bytes (%d)", max, n)
	}
	if n < 0 {
		return readBody(r, max)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

// readBody reads a body of at most max bytes. It reads in pieces and
// joins them once, so a body costs at most twice its size in memory
// (io.ReadAll's growing buffer costs more, and up to twice max on a body
// just above it), and one above max is refused after max+1 bytes.
func readBody(r io.Reader, max int) ([]byte, error) {
	const first = 32 << 10
	var pieces [][]byte
	total := 0
	for size := first; ; size = min(2*size, 4<<20) {
		piece := make([]byte, min(size, max+1-total))
		n, err := io.ReadFull(r, piece)
		total += n
		if n > 0 {
			pieces = append(pieces, piece[:n])
		}
		if total > max {
			return nil, fmt.Errorf("the body is longer than %d bytes", max)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(pieces) == 1 {
		return pieces[0], nil
	}
	out := make([]byte, 0, total)
	for _, p := range pieces {
		out = append(out, p...)
	}
	return out, nil
}

func (t *httpTransport) log(msg string, attrs ...slog.Attr) {
	if l := t.core.cfg.Logger; l != nil {
		l.LogAttrs(context.Background(), slog.LevelWarn, msg, attrs...)
	}
}

// notify sends a notification: a POST answered with 202.
func (t *httpTransport) notify(ctx context.Context, r *clientRequest) error {
	e := codec.Encoder{Buf: make([]byte, 0, 64+len(r.method)+len(r.params))}
	e.Buf = append(e.Buf, `{"jsonrpc":"2.0","method":`...)
	e.Str(r.method)
	if r.params != nil {
		e.Buf = append(e.Buf, `,"params":`...)
		e.Buf = append(e.Buf, r.params...)
	}
	e.Buf = append(e.Buf, '}')
	return t.postMessage(ctx, e.Buf, r)
}

// postMessage POSTs a notification or a response and expects 202.
func (t *httpBase) postMessage(ctx context.Context, msg []byte, r *clientRequest) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := t.newRequest(ctx, msg, r)
	if err != nil {
		return err
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return fmt.Errorf("mcp: %s: %w", codec.Quote(r.method), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		if resp.StatusCode == http.StatusNotFound && !r.modern && t.hasSession() {
			return errSessionGone
		}
		return statusError(resp, mediaType(resp.Header.Get("Content-Type")))
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	return nil
}

func (t *httpBase) hasSession() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.session != ""
}

// legacyRequest sends a request in a session: its response may come in
// the POST's answer, on its stream, or on a stream resumed after it broke
// off; the outbound table pairs it with the request wherever it comes.
// When ctx ends, notifications/cancelled tells the server (2025-11-25:
// disconnecting does not cancel a request).
func (t *httpTransport) legacyRequest(ctx context.Context, r *clientRequest) (json.RawMessage, error) {
	if r.method == spec.MethodInitialize {
		// A new session: the old one, if any, is over.
		t.mu.Lock()
		t.session, t.legacy, t.version = "", true, ""
		t.mu.Unlock()
	}
	pctx, cancel := context.WithCancel(t.ctx)
	defer cancel()
	send := func(msg []byte) error { return t.legacyPost(pctx, msg, r) }
	sendCancel := func(msg []byte) error {
		return t.postMessage(t.ctx, msg, &clientRequest{method: spec.MethodCancelled, version: r.version})
	}
	raw, err := t.out.CallWithin(ctx, send, sendCancel, r.method, r.params, r.timeout)
	if r.method == spec.MethodInitialize && err == nil {
		t.mu.Lock()
		if v, ok := HeaderText(codec.Lookup(raw, "protocolVersion")); ok {
			t.version = v
		}
		t.mu.Unlock()
	}
	if errors.Is(err, jsonrpc.ErrPeerClosed) && t.isClosed() {
		return nil, errClientClosed
	}
	return raw, err
}

func (t *httpBase) isClosed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

// legacyPost POSTs a request of a session and hands its answer to the
// outbound table: at once for JSON, from a goroutine for a stream.
func (t *httpTransport) legacyPost(ctx context.Context, msg []byte, r *clientRequest) error {
	req, err := t.newRequest(ctx, msg, r)
	if err != nil {
		return err
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return transportFailure(fmt.Errorf("mcp: %s: %w", codec.Quote(r.method), err))
	}
	if r.method == spec.MethodInitialize {
		if sid := resp.Header.Get(spec.HeaderSessionID); sid != "" {
			t.mu.Lock()
			t.session = sid
			t.mu.Unlock()
		}
	}
	ct := mediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound && r.method != spec.MethodInitialize && t.hasSession() {
			return errSessionGone
		}
		return statusFailure(resp, ct)
	}
	id := codec.Lookup(msg, "id")
	switch ct {
	case "application/json":
		defer resp.Body.Close()
		body, err := readBody(resp.Body, t.maxMessage())
		if err != nil {
			return fmt.Errorf("mcp: %s: reading the response: %w", codec.Quote(r.method), err)
		}
		if t.out.Deliver(body) {
			return nil
		}
		_, err = answerFor(body, id, r.method)
		if err == nil {
			err = fmt.Errorf("mcp: %s: the server's response does not answer the request", codec.Quote(r.method))
		}
		return err
	case "text/event-stream":
		t.wg.Add(1)
		go func() {
			defer t.wg.Done()
			defer resp.Body.Close()
			t.consumeResponse(ctx, resp.Body, id, r)
		}()
		return nil
	}
	resp.Body.Close()
	return fmt.Errorf("mcp: %s: the server answered %s with Content-Type %s, neither application/json nor text/event-stream", codec.Quote(r.method), codec.Clip(resp.Status, codec.MaxQuoted), codec.Quote(resp.Header.Get("Content-Type")))
}

// consumeResponse reads the stream of a request's response and, if it
// ends before the response, resumes it with GET and Last-Event-ID after
// the retry delay the server asked for, as long as the request waits and
// the reconnections make progress.
func (t *httpTransport) consumeResponse(ctx context.Context, body io.Reader, id []byte, r *clientRequest) {
	key, _, _ := codec.ParseInt(id) // the outbound table's own integer id
	sr := newSSEReader(body, t.maxMessage())
	err := t.readLegacyStream(ctx, sr, t.route)
	lastID, retry := sr.lastID, sr.retry
	failures := 0
	for t.out.IsWaiting(key) && ctx.Err() == nil {
		if lastID == "" {
			t.out.Fail(key, &transientError{err: fmt.Errorf("%w (and named no event id to resume it from)", legacyStreamEnd(r.method, err)), reached: maybeRun})
			return
		}
		if failures >= t.reconnects {
			t.out.Fail(key, fmt.Errorf("%w; reconnecting with Last-Event-ID failed %d times", legacyStreamEnd(r.method, err), failures))
			return
		}
		if !sleepCtx(ctx, retryDelay(retry, failures)) {
			return
		}
		resp, gerr := t.get(ctx, lastID)
		if gerr != nil {
			if errors.Is(gerr, errSessionGone) {
				t.out.Fail(key, errSessionGone)
				return
			}
			err = gerr
			failures++
			continue
		}
		sr = newSSEReader(resp.Body, t.maxMessage())
		sr.retry = retry
		before := sr.lastID
		err = t.readLegacyStream(ctx, sr, t.route)
		resp.Body.Close()
		if sr.lastID != "" && sr.lastID != before {
			lastID, failures = sr.lastID, 0
		} else {
			failures++
		}
		retry = sr.retry
	}
}

// legacyStreamEnd describes a legacy response stream that ended before
// the response.
func legacyStreamEnd(method string, err error) error {
	if err == nil || err == io.EOF {
		return fmt.Errorf("mcp: %s: the server closed the response stream before the response", codec.Quote(method))
	}
	return streamEnded(method, err)
}

// retryDelay is how long to wait before reconnecting: the server's retry
// field (which the client MUST respect), else a second, doubled for each
// failure in a row up to 30 seconds.
func retryDelay(retryMs, failures int) time.Duration {
	d := defaultRetry
	if retryMs > 0 {
		d = time.Duration(retryMs) * time.Millisecond
	}
	for i := 0; i < failures && d < 30*time.Second; i++ {
		d *= 2
	}
	return min(d, 30*time.Second+time.Duration(retryMs)*time.Millisecond)
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// get opens a GET stream of the session (resuming after lastID when it is
// not ""). It returns errSessionGone for 404 and errNoGetStream for 405.
func (t *httpBase) get(ctx context.Context, lastID string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.url, nil)
	if err != nil {
		return nil, err
	}
	for k, vs := range t.cfg.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	req.Header["Accept"] = []string{"text/event-stream"}
	t.mu.Lock()
	if t.session != "" {
		req.Header[spec.HeaderSessionID] = []string{t.session}
	}
	if t.version != "" {
		req.Header[spec.HeaderProtocolVersion] = []string{t.version}
	}
	t.mu.Unlock()
	if lastID != "" {
		req.Header["Last-Event-Id"] = []string{lastID}
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return nil, transportFailure(err)
	}
	if resp.StatusCode == http.StatusOK && mediaType(resp.Header.Get("Content-Type")) == "text/event-stream" {
		return resp, nil
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusNotFound:
		return nil, errSessionGone
	case http.StatusMethodNotAllowed:
		return nil, errNoGetStream
	}
	return nil, statusFailure(resp, mediaType(resp.Header.Get("Content-Type")))
}

// errNoGetStream is a server without a GET stream (405).
var errNoGetStream = errors.New("mcp: the server offers no GET stream (405)")

// readLegacyStream reads a stream of a session and routes its messages
// until it ends; it returns what ended it (io.EOF when the server closed
// it).
func (t *httpBase) readLegacyStream(ctx context.Context, sr *sseReader, route func(context.Context, []byte)) error {
	for {
		ev, err := sr.next()
		if err != nil {
			return err
		}
		if codec.FirstByte(ev.data) < 0 {
			continue // a priming event: it only carries an id
		}
		route(ctx, ev.data)
	}
}

// route hands a message the server sent in a session to its destination:
// a response to the request waiting for it, a notification to the
// client's handler (in order), a request to the handler on a goroutine of
// its own whose response is POSTed back.
func (t *httpTransport) route(ctx context.Context, msg []byte) {
	env, bad := t.core.in.ReadEnvelope(msg)
	switch {
	case bad != nil:
		t.core.noteBad(describeBad(msg, bad))
	case env.Response && env.Method == "":
		if !t.out.Deliver(msg) {
			t.core.noteBad("a response to id " + codec.Clip(string(env.ID), codec.MaxQuoted) + ", which no request awaits: " + codec.Quote(string(msg)))
		}
	case env.ID == nil:
		if env.Method == spec.MethodCancelled {
			if id := codec.Lookup(env.Params, "requestId"); id != nil && jsonrpc.IsRequestID(id) {
				t.mu.Lock()
				cancel := t.serverReqs[jsonrpc.IDKey(id)]
				t.mu.Unlock()
				if cancel != nil {
					cancel(jsonrpc.ErrCancelledByPeer)
				}
			}
		}
		t.core.in.Handle(t.ctx, msg)
	default:
		key := jsonrpc.IDKey(env.ID)
		rctx, cancel := context.WithCancelCause(t.ctx)
		t.mu.Lock()
		if t.closed {
			t.mu.Unlock()
			cancel(nil)
			return
		}
		t.serverReqs[key] = cancel
		t.wg.Add(1)
		t.mu.Unlock()
		select {
		case t.sem <- struct{}{}:
		case <-t.ctx.Done():
			t.wg.Done()
			cancel(nil)
			return
		}
		go func() {
			defer t.wg.Done()
			defer func() { <-t.sem }()
			resp := t.core.in.Handle(rctx, msg)
			t.mu.Lock()
			delete(t.serverReqs, key)
			t.mu.Unlock()
			if errors.Is(context.Cause(rctx), jsonrpc.ErrCancelledByPeer) {
				cancel(nil)
				return // cancelled: no response (cancellation.mdx)
			}
			cancel(nil)
			if resp == nil {
				return
			}
			t.mu.Lock()
			version := t.version
			t.mu.Unlock()
			if err := t.postMessage(t.ctx, resp, &clientRequest{method: env.Method, version: version}); err != nil {
				t.log("mcp: answering the server's request failed", slog.String(jsonrpc.LogKeyMethod, codec.Clip(env.Method, codec.MaxQuoted)), slog.String("error", err.Error()))
			}
		}()
	}
}

// peerCancelled: over HTTP a 2026-07-28 server ends a request by ending
// its response stream, and in the legacy era notifications/cancelled names
// a request of the server's own.
func (t *httpTransport) peerCancelled([]byte) {}

// started opens the session's GET stream, in the legacy era, unless it
// is open.
//
// It returns once the server has answered the stream's GET (or after two
// seconds): a server may send its requests and notifications there as
// soon as the session starts (the TypeScript SDK's server sends a tool's
// elicitation/create there), so the stream is open before the first
// request goes out.
func (t *httpTransport) started() {
	t.mu.Lock()
	if !t.legacy || t.listening || t.closed {
		t.mu.Unlock()
		return
	}
	t.listening = true
	ready := make(chan struct{})
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		t.listen(ready, t.route)
		t.mu.Lock()
		t.listening = false
		t.mu.Unlock()
	}()
	t.mu.Unlock()
	select {
	case <-ready:
	case <-time.After(2 * time.Second):
	case <-t.ctx.Done():
	}
}

// listen keeps the session's GET stream open, reconnecting (with
// Last-Event-ID) when the server ends it, until the transport closes, the
// server says it has no such stream (405) or the session ends. A GET that
// fails is tried again after the delay the server asked for (retry field,
// Retry-After), doubled for each failure in a row, up to MaxReconnects
// times in a row.
func (t *httpBase) listen(ready chan struct{}, route func(context.Context, []byte)) {
	defer func() {
		if ready != nil {
			close(ready)
		}
	}()
	lastID, retry, failures, opened := "", 0, 0, false
	for t.ctx.Err() == nil {
		resp, err := t.get(t.ctx, lastID)
		if ready != nil {
			close(ready) // the server answered the first GET
			ready = nil
		}
		switch {
		case errors.Is(err, errNoGetStream), errors.Is(err, errSessionGone):
			return
		case err != nil:
			failures++
			wait := retryDelay(retry, failures)
			if te := asTransient(err); te != nil && te.retryAfter > wait {
				wait = te.retryAfter
			}
			if failures > t.reconnects || !sleepCtx(t.ctx, wait) {
				return
			}
			continue
		}
		if opened && lastID == "" && t.gap != nil {
			t.gap()
		}
		opened = true
		sr := newSSEReader(resp.Body, t.maxMessage())
		sr.lastID, sr.retry = lastID, retry
		t.readLegacyStream(t.ctx, sr, route)
		resp.Body.Close()
		progress := sr.lastID != lastID
		lastID, retry = sr.lastID, sr.retry
		if progress {
			failures = 0
		} else {
			failures++
		}
		if failures > t.reconnects || !sleepCtx(t.ctx, retryDelay(retry, failures)) {
			return
		}
	}
}

// close ends the transport: the GET stream and response streams close,
// the requests still waiting fail, the session is deleted (legacy), and
// the goroutines the transport started are waited for.
func (t *httpTransport) close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	session, version := t.session, t.version
	t.mu.Unlock()
	t.stop()
	t.out.Close(errClientClosed)
	t.end(session, version)
	return nil
}

// end ends the session, if any, and waits for the connection's
// goroutines; the connection is closed already.
func (t *httpBase) end(session, version string) {
	if session != "" {
		// basic/transports (2025-11-25): a client that no longer needs
		// the session SHOULD send DELETE.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		req, err := http.NewRequestWithContext(ctx, http.MethodDelete, t.url, nil)
		if err == nil {
			for k, vs := range t.cfg.Header {
				req.Header[k] = append([]string(nil), vs...)
			}
			req.Header[spec.HeaderSessionID] = []string{session}
			if version != "" {
				req.Header[spec.HeaderProtocolVersion] = []string{version}
			}
			if resp, err := t.hc.Do(req); err == nil {
				resp.Body.Close()
			}
		}
		cancel()
	}
	t.wg.Wait()
	if t.own != nil {
		t.own.CloseIdleConnections()
	}
}
