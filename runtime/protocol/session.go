package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/spec"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// This file is what the runtime keeps for one peer (a Session) and the
// helpers a handler calls to talk to the peer of the request it serves:
// requests (SendRequest), log messages (Log), progress (SendProgress). The
// runtime does the bookkeeping of the revisions with the initialize
// handshake itself: the negotiated version and the client's capabilities,
// logging/setLevel, resources/subscribe and unsubscribe.

// linkOf returns the link of a handler's context, or nil.
func linkOf(ctx context.Context) jsonrpc.Link { return jsonrpc.LinkFromContext(ctx) }

// sessionOf returns the session of a peer, or nil.
func sessionOf(p *jsonrpc.Peer) *Session {
	if p == nil {
		return nil
	}
	s, _ := p.State.(*Session)
	return s
}

// linkSession returns the session of a link's peer, or nil.
func linkSession(l jsonrpc.Link) *Session {
	if l == nil {
		return nil
	}
	return sessionOf(l.Peer())
}

// linkCore returns the Core serving a link's request, or nil.
func linkCore(l jsonrpc.Link) *Core {
	if l == nil {
		return nil
	}
	return coreOf(l.Dispatcher())
}

// Session is what the runtime keeps about one peer: a connection served by
// Serve (the stdio transport: one per connection), or an HTTP session (one
// per Mcp-Session-Id, in the revisions that have them). A server's session
// records what the client's initialize said (the protocol version it
// negotiated, its capabilities and clientInfo), the log level it set with
// logging/setLevel and the resources it subscribed to with
// resources/subscribe; it sends requests and notifications to the client.
// Its methods are safe for concurrent use.
type Session struct {
	core *Core
	id   string
	// peer is the other end: the requests sent to it that wait for a
	// response, and how to send it a message that belongs to no request (a
	// line on a connection served by Serve; an event of the session's GET
	// stream over HTTP).
	peer *jsonrpc.Peer
	// end ends an HTTP session (nil on a connection served by Serve).
	end func()
	// started is when the session began; done is closed when it ends.
	started  time.Time
	done     chan struct{}
	doneOnce sync.Once

	mu          sync.Mutex
	version     string
	clientInfo  json.RawMessage
	clientCaps  json.RawMessage
	initialized bool
	level       int // an index of logLevels; -1 when not set
	subs        map[string]struct{}
}

// maxSubscriptions bounds the resources one session may subscribe to.
const maxSubscriptions = 1024

// newSession makes the session of peer, served by core.
func newSession(core *Core, id string, peer *jsonrpc.Peer) *Session {
	s := &Session{core: core, id: id, peer: peer, level: -1, started: time.Now(), done: make(chan struct{})}
	peer.State = s
	return s
}

// SessionFromContext returns the session of the peer whose request a
// handler serves: on a connection served by Serve, the connection's; over
// HTTP, the request's HTTP session. It is nil for a request served over
// stateless HTTP (every request of 2026-07-28, or a handler made with
// HTTPOptions.Stateless), and for a context that belongs to no request.
func SessionFromContext(ctx context.Context) *Session {
	return linkSession(linkOf(ctx))
}

// ID returns the session's Mcp-Session-Id, or "" for a connection served by
// Serve.
func (s *Session) ID() string { return s.id }

// ProtocolVersion returns the protocol version the initialize handshake
// negotiated, or "" before it (and in revisions without one).
func (s *Session) ProtocolVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// ClientInfo returns the clientInfo of the client's initialize request as
// JSON (an Implementation), or nil before it.
func (s *Session) ClientInfo() json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clientInfo
}

// ClientCapabilities returns the capabilities of the client's initialize
// request as JSON (a ClientCapabilities), or nil before it.
func (s *Session) ClientCapabilities() json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clientCaps
}

// LogLevel returns the level the client set with logging/setLevel, or ""
// when it has set none (then Log sends messages of every level).
func (s *Session) LogLevel() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.level < 0 {
		return ""
	}
	return logLevels[s.level]
}

// Subscribed reports whether the client has subscribed to the resource uri
// (resources/subscribe) and not unsubscribed since.
func (s *Session) Subscribed(uri string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.subs[uri]
	return ok
}

// Request sends a request to the peer outside any request of its own (over
// HTTP, on the session's GET stream) and decodes the result into result
// (nil discards it); see SendRequest for the rules and the errors.
func (s *Session) Request(ctx context.Context, method string, params interface {
	AppendJSON([]byte) ([]byte, error)
}, result interface{ UnmarshalJSON([]byte) error }) error {
	return s.request(ctx, nil, method, params, result)
}

// Notify sends a notification to the peer outside any request (over HTTP, on
// the session's GET stream). params may be nil.
func (s *Session) Notify(method string, params interface {
	AppendJSON([]byte) ([]byte, error)
}) error {
	msg, err := NotificationJSON(method, params)
	if err != nil {
		return err
	}
	if s.core.mw == nil {
		return s.peer.Send(msg)
	}
	return notifyMessage(context.Background(), s.core.mw, s, nil, msg, s.peer.Send)
}

// Close ends an HTTP session as a DELETE from the client does: the requests
// it serves are cancelled, and later requests naming it get 404. On a
// connection served by Serve it does nothing (the connection ends with its
// input).
func (s *Session) Close() {
	if s.end != nil {
		s.end()
	}
}

func (s *Session) request(ctx context.Context, send jsonrpc.SendFunc, method string, params interface {
	AppendJSON([]byte) ([]byte, error)
}, result interface{ UnmarshalJSON([]byte) error }) error {
	var p []byte
	if params != nil {
		b, err := params.AppendJSON(nil)
		if err != nil {
			return err
		}
		p = b
	}
	if err := s.mayRequest(method, p); err != nil {
		return err
	}
	var raw json.RawMessage
	var err error
	if s.core.mw == nil {
		raw, err = s.peer.Call(ctx, send, method, p)
	} else {
		r := &Call{Method: method, Params: p, Session: s}
		if l := linkOf(ctx); l != nil {
			r.HTTP = l.HTTPRequest()
		}
		raw, err = sendThrough(ctx, s.core.mw, r, func(ctx context.Context, p []byte) (json.RawMessage, error) {
			return s.peer.Call(ctx, send, method, p)
		})
	}
	if err != nil {
		return err
	}
	if result == nil {
		return nil
	}
	if err := result.UnmarshalJSON(raw); err != nil {
		return errors.New("mcp: the result of " + codec.Quote(method) + ": " + err.Error())
	}
	if v, ok := result.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return errors.New("mcp: the result of " + codec.Quote(method) + ": " + err.Error())
		}
	}
	return nil
}

// mayRequest checks a request a server is about to send to its client
// against what the client declared (a server must not ask for what the
// client does not support) and the lifecycle (lifecycle.mdx: before
// notifications/initialized, pings only). A client may send anything.
func (s *Session) mayRequest(method string, params []byte) error {
	if !s.core.server() {
		return nil
	}
	if s.core.Modern && s.ProtocolVersion() == "" {
		return errors.New("mcp: " + codec.Quote(method) + ": this revision has no requests from server to client; a handler asks for input with NeedInput")
	}
	if method == spec.MethodPing {
		return nil
	}
	s.mu.Lock()
	caps, initialized := s.clientCaps, s.initialized
	s.mu.Unlock()
	if !initialized {
		return errors.New("mcp: " + codec.Quote(method) + ": the client has not completed initialization (notifications/initialized); until then a server sends only pings")
	}
	has := func(path ...string) bool {
		v := caps
		for _, p := range path {
			v = codec.Lookup(v, p)
			if v == nil || v[0] != '{' {
				return false
			}
		}
		return true
	}
	var need []string
	switch method {
	case spec.MethodElicit:
		need = []string{"elicitation"}
		if m := codec.Lookup(params, "mode"); string(m) == `"url"` {
			need = append(need, "url")
		}
	case spec.MethodCreateMessage:
		need = []string{"sampling"}
		if codec.Lookup(params, "tools") != nil {
			need = append(need, "tools")
		}
	case spec.MethodListRoots:
		need = []string{"roots"}
	default:
		return nil
	}
	if !has(need...) {
		path := need[0]
		for _, p := range need[1:] {
			path += "." + p
		}
		return errors.New("mcp: " + codec.Quote(method) + ": the client did not declare the capability " + path)
	}
	return nil
}

// before checks a message before the dispatcher handles it in a session;
// a non-nil error answers it instead.
func (s *Session) before(env *jsonrpc.Envelope) error {
	if env.Method == spec.MethodSubscribe {
		s.mu.Lock()
		n := len(s.subs)
		s.mu.Unlock()
		if n >= maxSubscriptions {
			return &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: this session has " + strconv.Itoa(n) + " subscriptions, the most this server keeps; unsubscribe first"}
		}
	}
	return nil
}

// observe records what a request (or notification) the dispatcher handled
// successfully tells about the client; resp is the response (nil for a
// notification).
func (s *Session) observe(method string, params, resp []byte) {
	switch method {
	case spec.MethodInitialize:
		v := codec.Lookup(codec.Lookup(resp, "result"), "protocolVersion")
		var version string
		if v != nil && v[0] == '"' {
			version, _ = HeaderText(v)
			version = strings.Clone(version)
		}
		info := append(json.RawMessage(nil), codec.Lookup(params, "clientInfo")...)
		caps := append(json.RawMessage(nil), codec.Lookup(params, "capabilities")...)
		s.mu.Lock()
		s.version, s.clientInfo, s.clientCaps = version, info, caps
		s.mu.Unlock()
	case spec.MethodInitialized:
		s.mu.Lock()
		s.initialized = true
		s.mu.Unlock()
	case spec.MethodSetLevel:
		if l := levelOf(codec.Lookup(params, "level")); l >= 0 {
			s.mu.Lock()
			s.level = l
			s.mu.Unlock()
		}
	case spec.MethodSubscribe, spec.MethodUnsubscribe:
		raw := codec.Lookup(params, "uri")
		if raw == nil || raw[0] != '"' {
			return
		}
		uri, _ := HeaderText(raw)
		uri = strings.Clone(uri)
		s.mu.Lock()
		if method == spec.MethodSubscribe {
			if s.subs == nil {
				s.subs = map[string]struct{}{}
			}
			if len(s.subs) < maxSubscriptions {
				s.subs[uri] = struct{}{}
			}
		} else {
			delete(s.subs, uri)
		}
		s.mu.Unlock()
	}
}

// logLevels are the syslog severities of LoggingLevel, least severe first.
var logLevels = [...]string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

func levelIndex(level string) int {
	for i, l := range logLevels {
		if l == level {
			return i
		}
	}
	return -1
}

// levelOf reads a level given as a JSON string; -1 when it is none.
func levelOf(raw []byte) int {
	if raw == nil || raw[0] != '"' {
		return -1
	}
	s, _ := HeaderText(raw)
	return levelIndex(s)
}

// sessionSet is the sessions a dispatcher serves, for the notifications it
// sends to all of them.
type sessionSet struct {
	mu sync.Mutex
	m  map[*Session]struct{}
}

func (c *Core) addSession(s *Session) {
	c.sessions.mu.Lock()
	if c.sessions.m == nil {
		c.sessions.m = map[*Session]struct{}{}
	}
	c.sessions.m[s] = struct{}{}
	c.sessions.mu.Unlock()
}

func (c *Core) removeSession(s *Session) {
	c.sessions.mu.Lock()
	delete(c.sessions.m, s)
	c.sessions.mu.Unlock()
	s.doneOnce.Do(func() { close(s.done) })
}

// Started returns when the session began: the connection was opened, or
// the HTTP session was created by initialize.
func (s *Session) Started() time.Time { return s.started }

// Done returns a channel that is closed when the session ends: its
// connection closed, or the HTTP session was deleted, expired or ended
// with the server.
func (s *Session) Done() <-chan struct{} { return s.done }

// broadcast sends msg, a notification, to every session that keep accepts,
// through c's middleware (a sent notification, on the session), and
// returns how many it reached.
func (c *Core) broadcast(msg []byte, keep func(*Session) bool) int {
	c.sessions.mu.Lock()
	list := make([]*Session, 0, len(c.sessions.m))
	for s := range c.sessions.m {
		if keep == nil || keep(s) {
			list = append(list, s)
		}
	}
	c.sessions.mu.Unlock()
	n := 0
	for _, s := range list {
		var err error
		if c.mw == nil {
			err = s.peer.Send(msg)
		} else {
			err = notifyMessage(context.Background(), c.mw, s, nil, msg, s.peer.Send)
		}
		if err == nil {
			n++
		}
	}
	return n
}

// NotifyResourceUpdated sends notifications/resources/updated for uri to
// every session subscribed to it.
func (c *Core) NotifyResourceUpdated(uri string) int {
	return c.broadcast(ResourceUpdatedJSON(uri), func(s *Session) bool { return s.Subscribed(uri) })
}

// Announce sends ch, a change of a Server's sets, to the sessions c serves
// that hear of changes on their session: a list_changed notification to
// every one, an update of ch.URI to those subscribed to it. In a revision
// with per-request _meta (Modern) those are the clients of the older
// revisions (c.Older); clients of c's own revision hear of changes
// through the subscriptions/listen streams they open.
func (c *Core) Announce(ch Change) {
	var msg []byte
	var keep func(*Session) bool
	if ch.URI != "" {
		msg = ResourceUpdatedJSON(ch.URI)
		keep = func(s *Session) bool { return s.Subscribed(ch.URI) }
	} else {
		b, err := NotificationJSON(ch.Method, nil)
		if err != nil {
			return
		}
		msg = b
	}
	if c.Modern {
		c.BroadcastOlder(msg, keep)
		return
	}
	c.broadcast(msg, keep)
}

// ResourceUpdatedJSON is notifications/resources/updated for uri.
func ResourceUpdatedJSON(uri string) []byte {
	msg := append([]byte(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":`), nil...)
	msg = jsonrpc.AppendQuoted(msg, uri)
	return append(msg, "}}"...)
}

// BroadcastJSON sends a notification to every session.
func (c *Core) BroadcastJSON(method string, params interface {
	AppendJSON([]byte) ([]byte, error)
}) (int, error) {
	msg, err := NotificationJSON(method, params)
	if err != nil {
		return 0, err
	}
	return c.broadcast(msg, nil), nil
}

// NotificationJSON encodes a notification; params may be nil.
func NotificationJSON(method string, params interface {
	AppendJSON([]byte) ([]byte, error)
}) ([]byte, error) {
	e := codec.Encoder{Buf: make([]byte, 0, 128)}
	e.Buf = append(e.Buf, `{"jsonrpc":"2.0","method":`...)
	e.Str(method)
	if params != nil {
		b, err := params.AppendJSON(append(e.Buf, `,"params":`...))
		if err != nil {
			return nil, err
		}
		e.Buf = b
	}
	e.Buf = append(e.Buf, '}')
	return e.Buf, nil
}

// SendNotification sends a notification to the peer the handler's context
// belongs to: on a connection served by Serve, a line on it; on a request
// served over HTTP, an event of the request's response stream (the
// response becomes a stream of Server-Sent Events at the first
// notification). params may be nil. It fails once the request has been
// answered or the peer has cancelled it (notifications/cancelled: nothing
// about a cancelled request goes out), and over HTTP when the client does
// not accept text/event-stream and there is no session stream to fall back
// to.
func SendNotification(ctx context.Context, method string, params interface {
	AppendJSON([]byte) ([]byte, error)
}) error {
	n := linkOf(ctx)
	if n == nil {
		return errors.New("mcp: SendNotification: the context does not belong to a request served by Serve or over HTTP")
	}
	msg, err := NotificationJSON(method, params)
	if err != nil {
		return err
	}
	return notifyLink(ctx, n, msg)
}

// notifyLink sends msg, a notification about the request of n, through
// the middleware of the dispatcher serving it.
func notifyLink(ctx context.Context, n jsonrpc.Link, msg []byte) error {
	c := linkCore(n)
	if c == nil || c.mw == nil {
		return n.Notify(msg)
	}
	return notifyMessage(ctx, c.mw, linkSession(n), n.HTTPRequest(), msg, n.Notify)
}

// notifyMessage sends msg, a notification this side encoded, through the
// middleware of ch with send; the middleware may change its params.
func notifyMessage(ctx context.Context, ch *chain, s *Session, hr *http.Request, msg []byte, send func([]byte) error) error {
	method, _ := HeaderText(codec.Lookup(msg, "method"))
	params := codec.Lookup(msg, "params")
	r := &Call{Method: method, Params: params, Session: s, HTTP: hr}
	return notifyThrough(ctx, ch, r, func(_ context.Context, p []byte) error {
		if bytes.Equal(p, params) {
			return send(msg)
		}
		e := codec.Encoder{Buf: make([]byte, 0, 64+len(method)+len(p))}
		e.Buf = append(e.Buf, `{"jsonrpc":"2.0","method":`...)
		e.Str(method)
		if p != nil {
			e.Buf = append(e.Buf, `,"params":`...)
			e.Buf = append(e.Buf, p...)
		}
		return send(append(e.Buf, '}'))
	})
}

// SendRequest sends a request to the peer of the request the handler's
// context belongs to, waits for the response and decodes its result into
// result (nil discards it; a result with a Validate method is validated).
// A server uses it for what it asks of its client: elicitation/create,
// sampling/createMessage, roots/list, ping. The request goes where
// SendNotification's notifications go (over HTTP, the request's response
// stream). An error response comes back as *jsonrpc.RPCError.
//
// A server's request is refused before it is sent when the client did not
// declare the capability it needs (elicitation, elicitation.url for a URL
// elicitation, sampling, sampling.tools for sampling with tools, roots),
// and, ping aside, before the client has sent notifications/initialized.
// Revisions without the initialize handshake (2026-07-28) have no requests
// from server to client: a handler asks for input with NeedInput.
//
// When ctx ends, or the options' RequestTimeout passes, SendRequest stops
// waiting, tells the peer with notifications/cancelled and returns ctx's
// error (or one wrapping context.DeadlineExceeded). It fails at once over
// stateless HTTP, where no session carries requests to the client.
func SendRequest(ctx context.Context, method string, params interface {
	AppendJSON([]byte) ([]byte, error)
}, result interface{ UnmarshalJSON([]byte) error }) error {
	n := linkOf(ctx)
	if n == nil {
		return errors.New("mcp: SendRequest: the context does not belong to a request served by Serve or over HTTP")
	}
	s := linkSession(n)
	if s == nil {
		return errors.New("mcp: SendRequest: " + codec.Quote(method) + ": a request served over stateless HTTP has no session to send requests on")
	}
	return s.request(ctx, n.Notify, method, params, result)
}

// Log sends a log message (notifications/message) about the request the
// handler's context belongs to, if the client asked for messages of its
// level; level is one of the package's LoggingLevel values, ordered by
// severity from debug to emergency, and data any value encoding/json
// encodes. In revisions with the initialize handshake the client sets the
// least severe level it wants with logging/setLevel, kept per session;
// until it does, every message is sent. In 2026-07-28 the request's
// _meta["io.modelcontextprotocol/logLevel"] sets it, and a request without
// one gets no log messages (server/utilities/logging.mdx). A message the
// level filters out is not an error. The message goes where
// SendNotification's notifications go, and fails as they do.
func Log[L ~string](ctx context.Context, level L, logger string, data any) error {
	n := linkOf(ctx)
	if n == nil {
		return errors.New("mcp: Log: the context does not belong to a request served by Serve or over HTTP")
	}
	lv := levelIndex(string(level))
	if lv < 0 {
		return errors.New("mcp: Log: " + codec.Quote(string(level)) + " is not a logging level")
	}
	if c := linkCore(n); c != nil && c.Modern {
		var params []byte
		if ri := jsonrpc.RequestFromContext(ctx); ri != nil {
			params = ri.Params
		}
		min := levelOf(codec.Lookup(codec.Lookup(params, spec.MemberMeta), spec.MetaLogLevel))
		if min < 0 || lv < min {
			return nil
		}
	} else if s := linkSession(n); s != nil {
		s.mu.Lock()
		min := s.level
		s.mu.Unlock()
		if lv < min {
			return nil
		}
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return errors.New("mcp: Log: cannot encode the data: " + err.Error())
	}
	e := codec.Encoder{Buf: make([]byte, 0, 96+len(raw)+len(logger))}
	e.Buf = append(e.Buf, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"`...)
	e.Buf = append(e.Buf, logLevels[lv]...)
	e.Buf = append(e.Buf, '"')
	if logger != "" {
		e.Buf = append(e.Buf, `,"logger":`...)
		e.Str(logger)
	}
	e.Buf = append(e.Buf, `,"data":`...)
	e.Buf = append(e.Buf, raw...)
	e.Buf = append(e.Buf, "}}"...)
	return notifyLink(ctx, n, e.Buf)
}

// SendProgress sends a progress notification (notifications/progress) for
// the request the handler's context belongs to, if the request asked for
// progress with _meta.progressToken; without one it does nothing and
// returns nil. progress must increase with each call; total (zero: unknown)
// and message (empty: none) are optional. 2024-11-05 has no message, so
// its clients do not get it. It goes where SendNotification's
// notifications go, and fails as they do.
func SendProgress(ctx context.Context, progress, total float64, message string) error {
	n := linkOf(ctx)
	if n == nil {
		return errors.New("mcp: SendProgress: the context does not belong to a request served by Serve or over HTTP")
	}
	var params []byte
	if ri := jsonrpc.RequestFromContext(ctx); ri != nil {
		params = ri.Params
	}
	token := codec.Lookup(codec.Lookup(params, spec.MemberMeta), "progressToken")
	if token == nil || !jsonrpc.IsRequestID(token) {
		return nil
	}
	for _, f := range []float64{progress, total} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return errors.New("mcp: SendProgress: " + strconv.FormatFloat(f, 'g', -1, 64) + " is not a number JSON can carry")
		}
	}
	if err := n.Progress(progress); err != nil {
		return err
	}
	e := codec.Encoder{Buf: make([]byte, 0, 128+len(message))}
	e.Buf = append(e.Buf, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":`...)
	e.Buf = append(e.Buf, token...)
	e.Buf = append(e.Buf, `,"progress":`...)
	e.Float(progress)
	if total != 0 {
		e.Buf = append(e.Buf, `,"total":`...)
		e.Float(total)
	}
	if message != "" {
		if s := linkSession(n); s == nil || s.ProtocolVersion() == "" || spec.Of(s.ProtocolVersion(), true).ProgressMessage {
			e.Buf = append(e.Buf, `,"message":`...)
			e.Str(message)
		}
	}
	e.Buf = append(e.Buf, "}}"...)
	return notifyLink(ctx, n, e.Buf)
}

// CloseSSEStream ends the connection that carries the response stream of
// the request the handler's context belongs to, without ending the stream,
// as 2025-11-25's Streamable HTTP transport lets a server do to avoid
// holding connections open ("SSE polling"): the stream starts if it has
// not (with an event that has an id and no data), a last event tells the
// client to reconnect after retry, and the connection closes. The handler
// runs on; what it sends later, and its response, wait in the session's
// history for the client's GET with Last-Event-ID. It works in HTTP
// sessions whose protocol version is 2025-11-25 or later, and fails
// elsewhere (the earlier revisions' clients do not resume).
func CloseSSEStream(ctx context.Context, retry time.Duration) error {
	n := linkOf(ctx)
	if r, ok := n.(jsonrpc.Rerouted); ok {
		n = r.Link
	}
	c, ok := n.(interface{ CloseStream(time.Duration) error })
	if !ok {
		return errors.New("mcp: CloseSSEStream: the request is not served in an HTTP session")
	}
	return c.CloseStream(retry)
}
