package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/spec"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// This file serves a server dispatcher over Streamable HTTP
// (basic/transports/streamable-http.mdx): every JSON-RPC message is a POST
// of its own, answered with one JSON object or, when the handler sends
// notifications before its result, with a stream of Server-Sent Events
// scoped to that request. The handler keeps no state between requests, so
// any number of replicas can serve one client.

// HTTPOptions configure an HTTPHandler. The zero value serves loopback
// clients only, with the default limits below.
type HTTPOptions struct {
	// AllowedHosts lists the Host header values accepted besides the
	// loopback ones (localhost, 127.0.0.0/8 and ::1, with any port). An
	// entry without a port matches the host with any port; "*" accepts
	// every host. Checking Host is what defeats DNS rebinding, where a
	// hostile page reaches a local server under its own domain name: a
	// server reachable under a public name must list that name here.
	// Other hosts get 403 Forbidden.
	AllowedHosts []string
	// AllowedOrigins lists the Origin header values (scheme://host[:port])
	// accepted besides loopback origins; "*" accepts every origin. Requests
	// without an Origin header (clients that are not browsers) are not
	// affected. Other origins get 403 Forbidden.
	AllowedOrigins []string
	// MaxBodyBytes bounds the body of a request; a larger one gets 413
	// Content Too Large. Zero means 4 MiB.
	MaxBodyBytes int64
	// ReadTimeout bounds the time to read a request's body once its
	// headers are in; a client that does not finish in time gets 408 and
	// the connection is closed. Zero means 30 seconds; negative, no limit.
	// (The time to send the headers is the http.Server's
	// ReadHeaderTimeout; see NewServer.)
	ReadTimeout time.Duration
	// WriteTimeout bounds each write of a response, or of one event of a
	// response stream, to a client that does not read it; the request is
	// then cancelled. Zero means 30 seconds; negative, no limit.
	WriteTimeout time.Duration
	// KeepAlive is how often a response stream that has been quiet that
	// long gets an SSE comment line, so that proxies and clients do not
	// close it (streams of subscriptions/listen stay open). Zero means 25
	// seconds; negative, never.
	KeepAlive time.Duration
	// HeaderTimeout is the ReadHeaderTimeout of the servers NewServer
	// returns. Zero means 10 seconds.
	HeaderTimeout time.Duration
	// Fallback, if set, serves what this revision of the transport does
	// not define, instead of the errors the handler answers it with: any
	// method other than POST (405), and a POST that has an Mcp-Session-Id
	// header, or whose MCP-Protocol-Version header is absent or names a
	// version the dispatcher does not support. It runs after the Host and
	// Origin checks; a POST's body has already been read within the size
	// and time limits, and r.Body reads it again. A layer that serves
	// clients of earlier revisions (sessions, the GET stream) goes here.
	// In revisions with sessions the handler serves GET and DELETE itself;
	// Fallback gets other methods, and a POST without Mcp-Session-Id whose
	// MCP-Protocol-Version names a version the dispatcher does not support.
	Fallback http.Handler

	// The options below apply to the revisions with the initialize
	// handshake (2025-11-25 and earlier), whose transport keeps sessions;
	// 2026-07-28's handler is stateless and ignores them.

	// Stateless serves a revision with sessions without them, as
	// 2026-07-28 does: every POST is answered on its own, there is no GET
	// stream, and no requests from server to client. Replicas can then
	// serve one client without sharing state.
	Stateless bool
	// MaxSessions bounds the sessions kept at once. A new session beyond it
	// takes the place of another among those with no request in flight and
	// no open stream: one that made no request after its initialize if
	// there is such a session (the least recently used of them), else the
	// least recently used. The client of the evicted session gets 404
	// "session not found" on its next request and starts a new session
	// with initialize, as the transport page says. When every session is
	// busy, initialize gets 503 Service Unavailable with Retry-After. Zero
	// means 1000.
	//
	// So a flood of initialize requests that never come back displaces
	// only its own sessions while established sessions are idle: a real
	// client's session survives it.
	MaxSessions int
	// MaxSessionsPerClient bounds the sessions of one client: of one
	// principal when ServerOptions.Principal names one for the request,
	// else of one remote address (ClientAddress). A client's new session
	// beyond it takes the place of one of the same client's sessions, by
	// the rule of MaxSessions, never another client's; when all of that
	// client's sessions are busy, its initialize gets 503. Zero means 100
	// (or MaxSessions, if smaller); negative, no bound per client.
	MaxSessionsPerClient int
	// ClientAddress names the client a request without a principal comes
	// from, for MaxSessionsPerClient. Nil means the host of r.RemoteAddr.
	// Behind a reverse proxy every request comes from the proxy's
	// address: return the address the proxy forwards instead (for nginx,
	// the last entry of X-Forwarded-For, which nginx appends; see
	// docs/replicas.md).
	ClientAddress func(r *http.Request) string
	// SessionIDPrefix begins the id of every session the handler opens
	// (the rest is 128 random bits, URL-safe base64): at most 64 bytes of
	// visible ASCII; the handler panics on another. A session lives in the
	// memory of the process that opened it, so the replicas of a server
	// give themselves different prefixes and the proxy in front of them
	// routes a request that names a session by the prefix of its
	// Mcp-Session-Id (docs/replicas.md has an nginx configuration). When a
	// replica is gone, its clients get 404 from another and start a new
	// session, as the transport page says.
	SessionIDPrefix string
	// SessionIdleTimeout ends a session that has had no request and no open
	// stream for that long. Zero means 30 minutes; negative, never (only
	// MaxSessions and DELETE end sessions then).
	SessionIdleTimeout time.Duration
	// SessionHistoryBytes bounds the server-to-client messages a session
	// keeps (each counts its size plus 64 bytes): messages that wait for the
	// client's GET stream, and sent events kept so that a client can resume
	// a stream with Last-Event-ID. Past it, the oldest sent events are
	// forgotten; a message that cannot be kept fails to send (the client is
	// not reading). Zero means 256 KiB.
	SessionHistoryBytes int
	// PollAfter, if positive, ends the connection of an SSE stream of a
	// 2025-11-25 (or later) session that has been open that long, after an
	// event that tells the client to reconnect after PollRetry ("SSE
	// polling"); the client resumes with GET and Last-Event-ID, and the
	// handler is not interrupted. CloseSSEStream does it for one request.
	PollAfter time.Duration
	// PollRetry is the reconnection delay (the SSE retry field) PollAfter
	// sends. Zero means one second.
	PollRetry time.Duration
}

// Defaults of HTTPOptions.
const (
	defaultMaxBodyBytes  = 4 << 20
	defaultReadTimeout   = 30 * time.Second
	defaultWriteTimeout  = 30 * time.Second
	defaultKeepAlive     = 25 * time.Second
	defaultHeaderTimeout = 10 * time.Second
	maxToolPages         = 100
)

// HTTPHandler serves a server dispatcher over Streamable HTTP. It is an
// http.Handler for the MCP endpoint; mount it at the endpoint's path.
type HTTPHandler struct {
	d         *Core
	opts      HTTPOptions
	hosts     []string // lower case
	origins   []string // lower case
	anyHost   bool
	anyOrigin bool
	// tools caches the x-mcp-header bindings of the tools tools/list
	// answered, while the answer is fresh and public.
	tools atomic.Pointer[toolIndex]
	// sessions serves a revision with sessions; nil when stateless.
	sessions *sessionStore
	// older serves the clients of older revisions (the Fallback the
	// handler made for them), if any.
	older *HTTPHandler
}

// toolIndex is the x-mcp-header bindings of a tools/list answer, by tool.
type toolIndex struct {
	expires time.Time
	tools   map[string][]paramHeader
}

// NewHTTPHandler returns the Streamable HTTP handler of d, for a revision
// without HTTP sessions (2026-07-28) or a stateless server; see
// NewSessionHTTPHandler for the others. Zero options take their defaults.
func NewHTTPHandler(d *Core, opts HTTPOptions) *HTTPHandler {
	d.Init()
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = defaultMaxBodyBytes
	}
	if opts.ReadTimeout == 0 {
		opts.ReadTimeout = defaultReadTimeout
	}
	if opts.WriteTimeout == 0 {
		opts.WriteTimeout = defaultWriteTimeout
	}
	if opts.KeepAlive == 0 {
		opts.KeepAlive = defaultKeepAlive
	}
	if opts.HeaderTimeout <= 0 {
		opts.HeaderTimeout = defaultHeaderTimeout
	}
	h := &HTTPHandler{d: d, opts: opts}
	for _, s := range opts.AllowedHosts {
		if s == "*" {
			h.anyHost = true
		}
		h.hosts = append(h.hosts, strings.ToLower(s))
	}
	for _, s := range opts.AllowedOrigins {
		if s == "*" {
			h.anyOrigin = true
		}
		h.origins = append(h.origins, strings.ToLower(strings.TrimSuffix(s, "/")))
	}
	return h
}

// NewServer returns an http.Server for addr that serves h, with limits
// against clients that hold connections open: ReadHeaderTimeout
// (HTTPOptions.HeaderTimeout), IdleTimeout two minutes, MaxHeaderBytes 64
// KiB. It sets no ReadTimeout or WriteTimeout, which would bound whole
// requests and cut response streams short: h bounds reading each body and
// each write itself. Serve with ListenAndServe, stop with Shutdown, which
// lets the requests in flight finish (the server calls CloseStreams, so that
// the sessions' GET streams do not hold it, and ends the subscriptions/listen
// streams of a Server served by h's dispatcher with their results).
func (h *HTTPHandler) NewServer(addr string) *http.Server {
	srv := &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: h.opts.HeaderTimeout,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	srv.RegisterOnShutdown(h.CloseStreams)
	srv.RegisterOnShutdown(h.d.stop)
	return srv
}

// DefaultPath is the endpoint path ListenAndServe serves at.
const DefaultPath = "/mcp"

// shutdownGrace bounds how long ListenAndServe lets the requests in flight
// finish once its context is done.
const shutdownGrace = 10 * time.Second

// ListenAndServe serves h at http://addr/mcp (DefaultPath; other paths are
// 404) with the http.Server NewServer makes, until ctx is done, then shuts
// down, letting the requests in flight finish for up to ten seconds, and
// returns nil. It logs the address it listens on (with port 0, the one
// the system chose) through the dispatcher's Logger. h keeps its checks:
// with zero HTTPOptions, only loopback clients are served. The
// subscriptions/listen streams of a Server served by h's dispatcher end
// first, each answered with its result (Core.OnStop), and the sessions'
// GET streams close (CloseStreams), so that a shutdown takes no longer
// than the requests in flight.
func (h *HTTPHandler) ListenAndServe(ctx context.Context, addr string) error {
	mux := http.NewServeMux()
	mux.Handle(DefaultPath, h)
	srv := h.NewServer(addr)
	srv.Handler = mux
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + DefaultPath
	h.d.LogAttrs(slog.LevelInfo, "mcp: listening on "+url, slog.String("url.full", url))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	h.d.stop()
	shutdown, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err = srv.Shutdown(shutdown)
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// CloseStreams ends the connections of the sessions' GET streams, which
// never end by themselves (http.Server.Shutdown would wait for them until
// its context ends). The sessions stay: a client that reconnects to this
// handler finds its own. Response streams end with their responses. An
// http.Server that NewServer made calls it at Shutdown; with your own, pass
// it to RegisterOnShutdown. It does nothing for a stateless handler.
func (h *HTTPHandler) CloseStreams() {
	if h.sessions != nil {
		h.sessions.closeStreams()
	}
	if h.older != nil {
		h.older.CloseStreams()
	}
}

// HTTPRequestFromContext returns the HTTP request a handler's request came
// in, or nil when it did not come over HTTP: its headers carry, for
// example, the credentials a ServerOptions.Principal function reads. The
// body has been read.
func HTTPRequestFromContext(ctx context.Context) *http.Request {
	if n := linkOf(ctx); n != nil {
		return n.HTTPRequest()
	}
	return nil
}

// ServeHTTP answers one POST (a JSON-RPC request, notification or, where
// the revision has them, batch) as streamable-http.mdx says.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.hostAllowed(r.Host) {
		h.refuse(w, http.StatusForbidden, "forbidden: the Host header "+codec.Quote(r.Host)+" is not one this server answers to")
		return
	}
	if o, ok := r.Header["Origin"]; ok && (len(o) != 1 || !h.originAllowed(o[0])) {
		h.refuse(w, http.StatusForbidden, "forbidden: the Origin "+codec.Quote(strings.Join(o, ", "))+" is not allowed")
		return
	}
	if h.sessions != nil {
		h.sessions.serveHTTP(w, r)
		return
	}
	if r.Method != http.MethodPost {
		if h.opts.Fallback != nil {
			h.opts.Fallback.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Allow", http.MethodPost)
		h.refuse(w, http.StatusMethodNotAllowed, "method not allowed: the MCP endpoint takes POST only")
		return
	}
	if !isJSONContentType(r.Header["Content-Type"]) {
		h.refuse(w, http.StatusUnsupportedMediaType, "unsupported media type: the body must be application/json")
		return
	}
	acceptJSON, acceptSSE := accepts(r.Header["Accept"])
	if !acceptJSON && !acceptSSE {
		h.refuse(w, http.StatusNotAcceptable, "not acceptable: the response is application/json or text/event-stream")
		return
	}
	body, status, err := h.readBody(w, r)
	if err != nil {
		if status == http.StatusRequestTimeout {
			w.Header().Set("Connection", "close")
		}
		h.refuse(w, status, err.Error())
		return
	}
	if h.opts.Fallback != nil && h.wantsFallback(r) && !h.modernForOlder(r, body) {
		r.Body = newPassedBody(body)
		r.ContentLength = int64(len(body))
		h.opts.Fallback.ServeHTTP(w, r)
		return
	}

	x := &httpExchange{h: h, w: w, r: r, acceptJSON: acceptJSON, acceptSSE: acceptSSE}
	ctx := jsonrpc.WithLink(r.Context(), x)
	x.ctx = ctx
	if i := codec.FirstByte(body); i >= 0 && body[i] == '[' {
		// A batch, or an array where the revision has none: the
		// dispatcher answers it as a whole.
		resp := h.d.Handle(ctx, body)
		x.finish(resp, h.statusOf(resp))
		return
	}
	env, errResp := h.d.ReadEnvelope(body)
	if errResp != nil {
		x.finish(errResp, http.StatusBadRequest)
		return
	}
	if env.Response && env.Method == "" {
		if h.d.Modern {
			// 2026-07-28 has no server-to-client requests to answer.
			x.finish(h.d.ErrorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request: a client sends no JSON-RPC responses over HTTP in this revision", nil), http.StatusBadRequest)
			return
		}
		h.d.HandleEnvelope(ctx, env, body)
		x.finish(nil, http.StatusAccepted)
		return
	}
	if env.ID == nil {
		// A notification: accepted, handled, answered with 202.
		h.d.HandleEnvelope(ctx, env, body)
		x.finish(nil, http.StatusAccepted)
		return
	}
	if rerr := h.checkHeaders(ctx, r, &env); rerr != nil {
		resp := h.d.ErrorResponse(env.ID, rerr.Code, rerr.Message, rerr.Data)
		x.finish(resp, h.statusOf(resp))
		return
	}
	resp := h.d.HandleEnvelope(ctx, env, body)
	x.finish(resp, h.statusOf(resp))
}

// refuse answers a request the handler does not take with an HTTP error
// status and, as the body, a JSON-RPC error response without an id.
func (h *HTTPHandler) refuse(w http.ResponseWriter, status int, message string) {
	code := int64(jsonrpc.CodeInvalidRequest)
	if status == http.StatusBadRequest {
		code = jsonrpc.CodeParseError
	}
	body := h.d.ErrorResponse(nil, code, message, nil)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// readBody reads the body of a POST within MaxBodyBytes and ReadTimeout.
// On failure it returns the HTTP status to answer with.
func (h *HTTPHandler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, int, error) {
	max := h.opts.MaxBodyBytes
	if r.ContentLength > max {
		return nil, http.StatusRequestEntityTooLarge, errors.New("content too large: the body has " + strconv.FormatInt(r.ContentLength, 10) + " bytes; this server takes at most " + strconv.FormatInt(max, 10))
	}
	if pb, ok := r.Body.(*passedBody); ok && pb.Len() == len(pb.b) {
		// Read already, by the handler whose Fallback this is: taken as
		// it is, not copied again.
		if codec.FirstByte(pb.b) < 0 {
			return nil, http.StatusBadRequest, errors.New("parse error: the body is empty")
		}
		return pb.b, 0, nil
	}
	rc := http.NewResponseController(w)
	if h.opts.ReadTimeout > 0 {
		if err := rc.SetReadDeadline(time.Now().Add(h.opts.ReadTimeout)); err == nil {
			// Clear the deadline once the body is in: the server's
			// background read (which notices a client going away) must
			// not time out while the handler runs.
			defer rc.SetReadDeadline(time.Time{})
		}
	}
	body, err := readLimited(r.Body, r.ContentLength, max)
	if errors.Is(err, errBodyTooLarge) {
		return nil, http.StatusRequestEntityTooLarge, errors.New("content too large: this server takes bodies of at most " + strconv.FormatInt(max, 10) + " bytes")
	}
	if err != nil {
		var ne net.Error
		if errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
			return nil, http.StatusRequestTimeout, errors.New("request timeout: the body did not arrive in time")
		}
		return nil, http.StatusBadRequest, errors.New("parse error: cannot read the body: " + err.Error())
	}
	if codec.FirstByte(body) < 0 {
		return nil, http.StatusBadRequest, errors.New("parse error: the body is empty")
	}
	return body, 0, nil
}

var errBodyTooLarge = errors.New("body too large")

// passedBody is the body of a POST that an HTTPHandler has read and hands
// on to its Fallback. It reads as any body; a handler of this package
// that is the Fallback takes its bytes as they are (readBody) rather than
// reading them into a second buffer, which for a client of an older
// revision (NewHTTPHandlerOlder) would hold the body twice.
type passedBody struct {
	bytes.Reader
	b []byte
}

func newPassedBody(b []byte) *passedBody {
	pb := &passedBody{b: b}
	pb.Reset(b)
	return pb
}

func (*passedBody) Close() error { return nil }

// readLimited reads a body of at most max bytes. The buffer starts at
// 16 KiB (or Content-Length, size, when that is less; -1 when unknown) and
// grows fourfold each time it fills, or to size+1 (room to see the end)
// when that is less than twice more, up to max+1: a body that matches its
// Content-Length costs at most 1.5 times its size in all, and a client
// cannot make the server allocate more than eight times what it sends,
// whatever Content-Length announces.
func readLimited(r io.Reader, size, max int64) ([]byte, error) {
	limit := max + 1
	if size >= 0 && size < max {
		limit = size + 1
	}
	n := min(int64(16<<10), limit)
	b := make([]byte, 0, n)
	for {
		if int64(len(b)) > max {
			return nil, errBodyTooLarge
		}
		if len(b) == cap(b) {
			// Past the announced size the body is wrong (net/http
			// refuses that); grow as for an unknown size.
			next := 4 * int64(cap(b))
			if 2*next >= limit {
				next = limit // the rest of the announced size at once
			}
			if next <= int64(cap(b)) {
				next = min(4*int64(cap(b)), max+1)
			}
			b = append(make([]byte, 0, next), b...)
		}
		m, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err == io.EOF {
			if int64(len(b)) > max {
				return nil, errBodyTooLarge
			}
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// wantsFallback reports whether a POST belongs to the Fallback handler: it
// names a session, or a protocol version the dispatcher does not support,
// or (as clients of revisions before 2025-06-18 do) none.
func (h *HTTPHandler) wantsFallback(r *http.Request) bool {
	if _, ok := r.Header[spec.HeaderSessionID]; ok {
		return true
	}
	v, present, ok := headerOne(r.Header, spec.HeaderProtocolVersion)
	return !present || !ok || !h.supports(v)
}

// modernForOlder reports whether a POST that wantsFallback would give to
// the handler of the older revisions (h.older) is a request of this
// revision all the same: it names no session and its params carry this
// revision's per-request protocol version. It is answered here (a header
// that disagrees is HeaderMismatchError; an unsupported one,
// UnsupportedProtocolVersionError), not as a request without a session.
func (h *HTTPHandler) modernForOlder(r *http.Request, body []byte) bool {
	if h.older == nil {
		return false
	}
	if _, ok := r.Header[spec.HeaderSessionID]; ok {
		return false
	}
	return codec.Lookup(codec.Lookup(codec.Lookup(body, "params"), spec.MemberMeta), spec.MetaProtocolVersion) != nil
}

func (h *HTTPHandler) supports(version string) bool {
	for _, v := range h.d.Versions {
		if v == version {
			return true
		}
	}
	return false
}

// statusOf is the HTTP status of a response: 202 for none; for an error,
// what the transport page gives for its code.
func (h *HTTPHandler) statusOf(resp []byte) int {
	if resp == nil {
		return http.StatusAccepted
	}
	code, ok := responseErrorCode(resp)
	if !ok {
		return http.StatusOK
	}
	switch code {
	case jsonrpc.CodeParseError, jsonrpc.CodeInvalidRequest:
		return http.StatusBadRequest
	}
	if _, ok := retryAfterOf(resp); ok {
		// Unavailable: not carried out, to be sent again later.
		return http.StatusServiceUnavailable
	}
	if !h.d.Modern {
		return http.StatusOK
	}
	switch code {
	case jsonrpc.CodeMethodNotFound:
		// "If the server does not implement the requested RPC method, it
		// MUST respond with 404 Not Found and ... -32601".
		return http.StatusNotFound
	case jsonrpc.CodeInvalidParams, spec.CodeHeaderMismatch, spec.CodeMissingRequiredClientCapability, spec.CodeUnsupportedProtocolVersion:
		// basic/index.mdx and the transport page: 400 Bad Request.
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// responseErrorCode returns the error code of a response object; ok is
// false for a result (or anything else). The dispatcher writes id before
// result, so a result costs a few bytes of reading.
func responseErrorCode(resp []byte) (code int64, ok bool) {
	var d codec.Decoder
	d.InitShared(resp)
	if d.Peek() != '{' {
		return 0, false
	}
	d.Object()
	for first := true; d.NextMember(&first); {
		switch d.Key {
		case "result":
			return 0, false
		case "error":
			raw := codec.Lookup(d.Raw(), "code")
			if raw == nil || !codec.IsNumberStart(raw[0]) {
				return 0, false
			}
			n, isInt, inRange := codec.ParseInt(raw)
			return n, isInt && inRange
		default:
			d.Skip()
		}
	}
	return 0, false
}

// hostAllowed checks the Host header against loopback names and
// AllowedHosts.
func (h *HTTPHandler) hostAllowed(host string) bool {
	if h.anyHost {
		return true
	}
	name := host
	if hn, _, err := net.SplitHostPort(host); err == nil {
		name = hn
	}
	name = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(name, "["), "]"))
	if isLoopbackName(name) {
		return true
	}
	lower := strings.ToLower(host)
	for _, a := range h.hosts {
		if a == lower || a == name {
			return true
		}
	}
	return false
}

// originAllowed checks an Origin header against loopback origins and
// AllowedOrigins.
func (h *HTTPHandler) originAllowed(origin string) bool {
	if h.anyOrigin {
		return true
	}
	lower := strings.ToLower(strings.Trim(origin, " \t"))
	for _, a := range h.origins {
		if a == lower {
			return true
		}
	}
	scheme, rest, ok := strings.Cut(lower, "://")
	if !ok || (scheme != "http" && scheme != "https") || strings.ContainsAny(rest, "/?#@") {
		return false
	}
	name := rest
	if hn, _, err := net.SplitHostPort(rest); err == nil {
		name = hn
	}
	return isLoopbackName(strings.TrimSuffix(strings.TrimPrefix(name, "["), "]"))
}

// isLoopbackName reports whether a host name (lower case, without port
// and brackets) is localhost or a loopback address.
func isLoopbackName(name string) bool {
	if name == "localhost" {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

// isJSONContentType reports whether a Content-Type header is
// application/json (any parameters, such as charset, are allowed).
func isJSONContentType(vs []string) bool {
	if len(vs) != 1 {
		return false
	}
	v := vs[0]
	if v == "application/json" {
		return true
	}
	mt, _, err := mime.ParseMediaType(v)
	return err == nil && mt == "application/json"
}

// accepts reads an Accept header: whether the client takes application/json
// and text/event-stream. No header means anything.
func accepts(vs []string) (acceptJSON, acceptSSE bool) {
	if len(vs) == 0 {
		return true, true
	}
	for _, v := range vs {
		for rest := v; rest != ""; {
			var part string
			part, rest, _ = strings.Cut(rest, ",")
			mt, params, _ := strings.Cut(part, ";")
			mt = strings.ToLower(strings.Trim(mt, " \t"))
			if q := qValue(params); q == 0 {
				continue
			}
			switch mt {
			case "application/json", "application/*":
				acceptJSON = true
			case "text/event-stream", "text/*":
				acceptSSE = true
			case "*/*":
				acceptJSON, acceptSSE = true, true
			}
		}
	}
	return acceptJSON, acceptSSE
}

// qValue returns the q parameter of an Accept entry's parameters (1 when
// absent).
func qValue(params string) float64 {
	for rest := params; rest != ""; {
		var p string
		p, rest, _ = strings.Cut(rest, ";")
		k, v, ok := strings.Cut(strings.Trim(p, " \t"), "=")
		if ok && strings.EqualFold(strings.Trim(k, " \t"), "q") {
			q, err := strconv.ParseFloat(strings.Trim(v, " \t"), 64)
			if err != nil {
				return 1
			}
			return q
		}
	}
	return 1
}

// checkHeaders applies the header rules of the revision to a request (not
// a notification) before it is dispatched: the MCP-Protocol-Version
// header, and in revisions with per-request _meta the Mcp-Method, Mcp-Name
// and Mcp-Param-* headers, which must match the body ("Server
// Validation"). It returns the error to answer with 400, or nil.
func (h *HTTPHandler) checkHeaders(ctx context.Context, r *http.Request, env *jsonrpc.Envelope) *jsonrpc.RPCError {
	version, present, ok := headerOne(r.Header, spec.HeaderProtocolVersion)
	if !ok {
		return headerMismatch("the MCP-Protocol-Version header appears more than once")
	}
	if !h.d.Modern {
		// 2025-06-18 and later: "If the server receives a request with an
		// invalid or unsupported MCP-Protocol-Version, it MUST respond
		// with 400 Bad Request". Clients of 2025-03-26 send none.
		if present && !h.supports(version) {
			return &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: unsupported MCP-Protocol-Version " + codec.Quote(version) + "; supported: " + codec.QuoteList(h.d.Versions)}
		}
		return nil
	}
	if !present {
		if env.Method == spec.MethodInitialize {
			// A legacy client opens with initialize and no version
			// header: the dispatcher names the versions it supports.
			return nil
		}
		return headerMismatch("the MCP-Protocol-Version header is missing")
	}
	if !h.supports(version) {
		data, _ := json.Marshal(struct {
			Supported []string `json:"supported"`
			Requested string   `json:"requested"`
		}{h.d.Versions, codec.Clip(version, codec.MaxQuoted)})
		return &jsonrpc.RPCError{Code: spec.CodeUnsupportedProtocolVersion, Message: "unsupported protocol version " + codec.Quote(version) + " (MCP-Protocol-Version header); supported: " + codec.QuoteList(h.d.Versions), Data: data}
	}
	if raw := codec.Lookup(codec.Lookup(env.Params, spec.MemberMeta), spec.MetaProtocolVersion); raw != nil {
		if s, ok := HeaderText(raw); ok && raw[0] == '"' && s != version {
			return headerMismatch("the MCP-Protocol-Version header " + codec.Quote(version) + " does not match the body's " + spec.MetaProtocolVersion + " " + codec.Quote(s))
		}
	}
	method, present, ok := headerOne(r.Header, spec.HeaderMethod)
	switch {
	case !ok:
		return headerMismatch("the Mcp-Method header appears more than once")
	case !present:
		return headerMismatch("the Mcp-Method header is missing")
	case method != env.Method:
		return headerMismatch("the Mcp-Method header " + codec.Quote(method) + " does not match the body's method " + codec.Quote(env.Method))
	}
	var member string
	switch env.Method {
	case spec.MethodCallTool, spec.MethodGetPrompt:
		member = "name"
	case spec.MethodReadResource:
		member = "uri"
	default:
		// An extension's method may name its target in Mcp-Name too
		// (the tasks extension: params.taskId).
		if member = h.d.NameParams[env.Method]; member == "" {
			return nil
		}
	}
	raw := codec.Lookup(env.Params, member)
	if raw == nil || raw[0] != '"' {
		// No name to mirror: params validation reports it.
		return nil
	}
	bodyName, _ := HeaderText(raw)
	name, present, ok := headerOne(r.Header, spec.HeaderName)
	switch {
	case !ok:
		return headerMismatch("the Mcp-Name header appears more than once")
	case !present:
		return headerMismatch("the Mcp-Name header is missing; the body's params." + member + " is " + codec.Quote(bodyName))
	}
	decoded, err := decodeHeaderValue(name)
	if err != nil {
		return headerMismatch("the Mcp-Name header is malformed: " + err.Error())
	}
	if decoded != bodyName {
		return headerMismatch("the Mcp-Name header " + codec.Quote(decoded) + " does not match the body's params." + member + " " + codec.Quote(bodyName))
	}
	if env.Method != spec.MethodCallTool {
		return nil
	}
	bindings, rerr := h.toolHeaders(ctx, bodyName, env.Params)
	if rerr != nil {
		return rerr
	}
	args := codec.Lookup(env.Params, "arguments")
	for _, b := range bindings {
		at := "arguments." + strings.Join(b.path, ".")
		v, present, ok := headerOne(r.Header, b.key)
		val := argumentAt(args, b.path)
		hasVal := val != nil && string(val) != "null"
		switch {
		case !ok:
			return headerMismatch("the " + b.key + " header appears more than once")
		case !present && !hasVal:
			continue
		case !present:
			return headerMismatch("the " + b.key + " header is missing; the tool mirrors " + at + " into it")
		case !hasVal:
			return headerMismatch("the " + b.key + " header is set, but the body has no value at " + at)
		}
		decoded, err := decodeHeaderValue(v)
		if err != nil {
			return headerMismatch("the " + b.key + " header is malformed: " + err.Error())
		}
		if !headerMatches(decoded, val) {
			return headerMismatch("the " + b.key + " header " + codec.Quote(decoded) + " does not match the body's " + at + " " + codec.Quote(string(val)))
		}
	}
	return nil
}

// headerMismatch is HeaderMismatchError (-32020).
func headerMismatch(msg string) *jsonrpc.RPCError {
	return &jsonrpc.RPCError{Code: spec.CodeHeaderMismatch, Message: "header mismatch: " + msg}
}

// toolHeaders returns the x-mcp-header bindings of a tool. A tool of the
// Server's own tool set (Core.UseToolSet) has them from the set; others
// come from the server's own tools/list answer (every page of it), asked with the
// _meta of the tools/call request; an answer whose cacheScope is public is
// reused for its ttlMs. A server without tools/list has no bindings. A
// tools/list that fails on the request's _meta leaves the failure to the
// tools/call itself.
func (h *HTTPHandler) toolHeaders(ctx context.Context, tool string, callParams []byte) ([]paramHeader, *jsonrpc.RPCError) {
	if src := h.d.toolSource; src != nil {
		if b, ok := src.toolHeaders(tool); ok {
			return b, nil
		}
	}
	if idx := h.tools.Load(); idx != nil && time.Now().Before(idx.expires) {
		return idx.tools[tool], nil
	}
	m := h.d.Methods[spec.MethodListTools]
	if m == nil || m.Notification {
		return nil, nil
	}
	meta := codec.Lookup(callParams, spec.MemberMeta)
	idx := &toolIndex{tools: map[string][]paramHeader{}}
	cacheable := true
	var ttl int64 = -1
	cursor := []byte(nil)
	for page := 0; ; page++ {
		if page == maxToolPages {
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: tools/list has more than " + strconv.Itoa(maxToolPages) + " pages; cannot find the x-mcp-header annotations of " + codec.Quote(tool)}
		}
		params := []byte(`{`)
		if meta != nil {
			params = append(append(params, `"_meta":`...), meta...)
		}
		if cursor != nil {
			if meta != nil {
				params = append(params, ',')
			}
			params = append(append(params, `"cursor":`...), cursor...)
		}
		params = append(params, '}')
		lctx := jsonrpc.WithRequest(ctx, &jsonrpc.RequestInfo{Method: spec.MethodListTools, Params: params})
		res, err := h.d.CallMethod(lctx, m, jsonrpc.Envelope{Method: spec.MethodListTools, Params: params})
		if err != nil {
			var re *jsonrpc.RPCError
			switch {
			case errors.Is(err, jsonrpc.ErrNotImplemented), errors.As(err, &re) && re.Code == jsonrpc.CodeMethodNotFound:
				return nil, nil
			case errors.As(err, &re) && (re.Code == jsonrpc.CodeInvalidParams || re.Code == spec.CodeUnsupportedProtocolVersion):
				return nil, nil
			}
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: cannot read the x-mcp-header annotations of the tools: tools/list failed: " + err.Error()}
		}
		e := codec.Encoder{}
		res.EncodeJSON(&e)
		if e.Err != nil {
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: tools/list: " + e.Err.Error()}
		}
		var list struct {
			Tools []struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
			NextCursor json.RawMessage `json:"nextCursor"`
			TTLMs      *int64          `json:"ttlMs"`
			CacheScope string          `json:"cacheScope"`
		}
		if err := json.Unmarshal(e.Buf, &list); err != nil {
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: tools/list: " + err.Error()}
		}
		for _, t := range list.Tools {
			b, err := paramHeaders(t.InputSchema)
			if err != nil {
				// A client must leave such a tool out; the server checks
				// the annotations that are valid.
				h.d.LogAttrs(slog.LevelWarn, "mcp: a tool has an invalid x-mcp-header annotation", slog.String("gen_ai.tool.name", t.Name), slog.String("error", err.Error()))
			}
			if len(b) > 0 {
				idx.tools[t.Name] = b
			}
		}
		if list.CacheScope != "public" || list.TTLMs == nil {
			cacheable = false
		} else if ttl < 0 || *list.TTLMs < ttl {
			ttl = *list.TTLMs
		}
		if len(list.NextCursor) == 0 || string(list.NextCursor) == "null" {
			break
		}
		cursor = list.NextCursor
	}
	if cacheable && ttl > 0 {
		idx.expires = time.Now().Add(TTL(ttl))
		h.tools.Store(idx)
	}
	return idx.tools[tool], nil
}

// httpExchange is one POST being answered: a JSON response, or a stream
// of events once the handler sends a notification.
type httpExchange struct {
	h          *HTTPHandler
	w          http.ResponseWriter
	r          *http.Request
	ctx        context.Context
	acceptJSON bool
	acceptSSE  bool

	mu        sync.Mutex
	streaming bool
	done      bool
	err       error // the first write error
	keepAlive *time.Timer
	buf       []byte
	jsonrpc.RequestProgress
}

func (x *httpExchange) Peer() *jsonrpc.Peer             { return nil }
func (x *httpExchange) Dispatcher() *jsonrpc.Dispatcher { return &x.h.d.Dispatcher }
func (x *httpExchange) HTTPRequest() *http.Request      { return x.r }

// contentTypeJSON is the Content-Type value of JSON responses, shared:
// net/http copies header values it keeps.
var contentTypeJSON = []string{"application/json"}

var (
	errAnswered = errors.New("mcp: the request has been answered; its response stream is closed")
	errNoStream = errors.New("mcp: the client does not accept text/event-stream; notifications cannot reach it")
)

// Notify sends a notification as an event of the response stream,
// starting the stream at the first one.
func (x *httpExchange) Notify(msg []byte) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case x.done:
		return errAnswered
	case x.err != nil:
		return x.err
	case x.ctx.Err() != nil:
		// Closing the stream cancels the request: nothing more is sent.
		return x.ctx.Err()
	case !x.acceptSSE:
		return errNoStream
	}
	if !x.streaming {
		x.startStream()
	}
	x.event(msg)
	return x.err
}

// startStream sends the headers of an event stream.
func (x *httpExchange) startStream() {
	hd := x.w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	x.w.WriteHeader(http.StatusOK)
	x.streaming = true
	if x.h.opts.KeepAlive > 0 {
		x.keepAlive = time.AfterFunc(x.h.opts.KeepAlive, x.ping)
	}
}

// event writes one event and flushes it.
func (x *httpExchange) event(msg []byte) {
	x.buf = appendSSEEvent(x.buf[:0], msg)
	x.write(x.buf, true)
	if x.keepAlive != nil && !x.done {
		x.keepAlive.Reset(x.h.opts.KeepAlive)
	}
}

// ping writes a comment line on a quiet stream.
func (x *httpExchange) ping() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.done || x.err != nil || x.ctx.Err() != nil {
		return
	}
	x.write([]byte(":\n\n"), true)
	x.keepAlive.Reset(x.h.opts.KeepAlive)
}

// write writes b within WriteTimeout; a failure is kept in x.err.
func (x *httpExchange) write(b []byte, flush bool) {
	if x.err != nil {
		return
	}
	rc := http.NewResponseController(x.w)
	deadline := x.h.opts.WriteTimeout > 0 && rc.SetWriteDeadline(time.Now().Add(x.h.opts.WriteTimeout)) == nil
	if _, err := x.w.Write(b); err != nil {
		x.err = err
	} else if flush {
		if err := rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
			x.err = err
		}
	}
	if deadline {
		if x.err == nil && !flush {
			// Push the bytes out while the deadline holds, then clear it
			// for the next request on the connection.
			if err := rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
				x.err = err
			}
		}
		rc.SetWriteDeadline(time.Time{})
	}
	if x.err != nil {
		x.h.d.LogAttrs(slog.LevelDebug, "mcp: http: write failed", slog.String("error", x.err.Error()))
	}
}

// finish sends the response: resp as the last event of a stream, or as
// the JSON body with status; nil resp (a notification) sends status alone.
func (x *httpExchange) finish(resp []byte, status int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.done = true
	if x.keepAlive != nil {
		x.keepAlive.Stop()
	}
	if x.err != nil {
		return
	}
	if !x.streaming && resp != nil && !x.acceptJSON {
		// The client takes only event streams.
		x.startStream()
	}
	if x.streaming {
		if resp != nil && x.ctx.Err() == nil {
			x.event(resp)
		}
		return
	}
	hd := x.w.Header()
	if resp == nil {
		x.w.WriteHeader(status)
		return
	}
	hd["Content-Type"] = contentTypeJSON
	hd["Content-Length"] = []string{strconv.Itoa(len(resp))}
	setRetryAfter(hd, resp, status)
	x.w.WriteHeader(status)
	x.write(resp, false)
}
