package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file is the part of a generated Client that does not depend on the
// revision's types: it negotiates the protocol version (server/discover,
// or the initialize handshake), sends requests through a transport, fills
// what the specification makes the client's job (the per-request _meta of
// 2026-07-28 is filled by the typed layer; the request metadata headers,
// retries after UnsupportedProtocolVersionError and HeaderMismatchError,
// multi round-trip requests and the cache are here), and routes what the
// server sends to the ClientDispatcher's method table. The generated code
// encodes, validates and decodes the typed values around it.

// ClientConfig is what a generated Client tells the core.
type ClientConfig struct {
	// Revision is the package's protocol version; Modern marks a revision
	// with per-request _meta (2026-07-28).
	Revision string
	Modern   bool
	// ClientInfo and Capabilities are the Implementation and the
	// ClientCapabilities the client declares, as JSON (initialize sends
	// them; in the modern era the typed layer puts them in _meta).
	ClientInfo, Capabilities []byte
	// MaxRounds bounds the retries of one multi round-trip request.
	MaxRounds int
	// RequestTimeout bounds a request (zero: jsonrpc.DefaultRequestTimeout;
	// negative: none); ProbeTimeout bounds the server/discover probe.
	RequestTimeout, ProbeTimeout time.Duration
	// Cache, unless NoCache: nil means a cache of the client's own.
	// AuthContext names the authorization context of private entries.
	Cache       *Cache
	NoCache     bool
	AuthContext string
	// SkipRequestValidation and SkipResponseValidation turn off the
	// schema checks of Request and Notification.
	SkipRequestValidation, SkipResponseValidation bool
	// Logger receives what goes wrong outside a response (messages from
	// the server no request could take); nil logs nothing.
	Logger *slog.Logger
	// Middleware wraps the sending of every request and notification the
	// client sends (each one on the wire: the handshake's, each round of a
	// multi round-trip request, each retry; not the answers from the
	// cache). Incoming's own Middleware wraps what the server sends.
	Middleware Middleware
	// AnswerInput answers one input request of an InputRequiredResult
	// (elicitation/create, sampling/createMessage, roots/list) with the
	// handler: params and result as JSON.
	AnswerInput func(ctx context.Context, method string, params []byte) ([]byte, error)
	// Incoming is the ClientDispatcher's table: what the server sends.
	Incoming *Core
	// Older are the older revisions the package converts to (newest
	// first): a modern client falls back to one of them for a server of
	// the initialize era.
	Older []*Older
}

// clientOlder is an older revision a modern client can talk to through the
// package's conversions (mcpgen generate --serve-older), as the core needs
// it.
type clientOlder struct {
	*Older
	// clientInfo and capabilities are ClientOptions' converted to the
	// revision, as JSON, for its initialize.
	clientInfo, capabilities []byte
	// methods are the methods servers of the revision send that the
	// package carries too, each with whether it is a notification.
	methods map[string]bool
}

// clientOlders converts what the client declares to each older revision.
func clientOlders(cfg *ClientConfig) ([]clientOlder, error) {
	var out []clientOlder
	for _, o := range cfg.Older {
		info, err := o.toOlderJSON("Implementation", cfg.ClientInfo)
		if err != nil {
			return nil, fmt.Errorf("mcp: Connect: ClientOptions.ClientInfo: %w", err)
		}
		caps, err := o.toOlderJSON("ClientCapabilities", cfg.Capabilities)
		if err != nil {
			return nil, fmt.Errorf("mcp: Connect: ClientOptions.Capabilities: %w", err)
		}
		co := clientOlder{Older: o, clientInfo: info, capabilities: caps, methods: map[string]bool{}}
		for _, m := range o.t.Methods {
			if m.ToClient {
				co.methods[m.Name] = m.Notification
			}
		}
		out = append(out, co)
	}
	return out, nil
}

// params converts the params of a notification a server of the revision
// sends to the package's JSON (the incoming dispatcher decodes and
// validates them).
func (o *clientOlder) params(method string, raw []byte) ([]byte, error) {
	b, err := o.paramsUp(o.Older.methods[method], raw)
	if err != nil {
		return nil, jsonrpc.InvalidParams(o.fail(err, false))
	}
	return b, nil
}

// answer answers a request a server of the revision sends
// (elicitation/create, ...) with the ClientHandler, through answer (the
// package's params in, its result out).
func (o *clientOlder) answer(ctx context.Context, method string, raw []byte, answer func(context.Context, string, []byte) ([]byte, error)) ([]byte, error) {
	m := o.Older.methods[method]
	up, err := o.paramsUp(m, raw)
	if err != nil {
		return nil, jsonrpc.InvalidParams(o.fail(err, false))
	}
	res, err := answer(ctx, method, up)
	if err != nil {
		return nil, err
	}
	b, err := o.resultDown(m, res)
	if err != nil {
		return nil, jsonrpc.InvalidResult(o.fail(err, true))
	}
	if method == spec.MethodElicit {
		// The defaults are the server's, as its revision writes them: they
		// go in after the conversion (2025-11-25's result has no place for
		// a number default such as 95.5, which its servers send).
		b = ElicitDefaults(raw, b)
	}
	return b, nil
}

// A ClientMethod is what the core knows of a request method.
type ClientMethod struct {
	Name string
	// Cacheable: the result carries ttlMs and cacheScope.
	Cacheable bool
	// InputRequired: the result may be an InputRequiredResult.
	InputRequired bool
	// Defaults are the top-level members of the result that a server may
	// leave out although the schema requires them, because the
	// specification says what they are then (resultType: "complete",
	// cacheScope: "private"); Request lets them be missing and tells its
	// fill function which are.
	Defaults []string
}

// defaultMaxRounds bounds the retries of a multi round-trip request when
// the options leave MaxInputRounds zero.
const defaultMaxRounds = 10

// defaultProbeTimeout bounds the server/discover probe when the options
// leave ProbeTimeout zero: a legacy server may not answer an unknown
// request before initialize at all (stdio.mdx: "or does not respond within
// a reasonable timeout: the server is legacy").
const defaultProbeTimeout = 10 * time.Second

// ClientCore is one connection of a Client to a server: what every
// generated Client is made of.
type ClientCore struct {
	cfg ClientConfig
	// olders are cfg.Older with what the client declares converted.
	olders []clientOlder
	t      clientTransport
	in     *Core
	cache  *Cache
	// serverKey names the server in a shared cache; authKey the
	// authorization context of private entries.
	serverKey, authKey string
	overHTTP           bool
	// restart, for a server process, starts it again (client_restart.go).
	restart func() (jsonrpc.Stream, error)

	mu      sync.RWMutex
	version string          // the negotiated protocol version
	modern  bool            // the negotiated version has per-request _meta
	older   int             // the index in cfg.older of the negotiated revision; -1: the package's own
	hello   json.RawMessage // the DiscoverResult or InitializeResult
	// headers are the x-mcp-header bindings of the tools the server
	// listed, by tool name (Streamable HTTP in the modern era).
	headers headerBook
	// schemas are the outputSchemas of the tools the server listed.
	schemas schemaBook
	closed  atomic.Bool
	// bad is the latest message from the server that no request could
	// take (malformed, or a response to an id nobody awaits): a request
	// that then gets no response says so.
	bad atomic.Pointer[badNote]
	// live is t, for what the server sends: its reader starts before
	// newClientCore has t.
	live atomic.Pointer[clientTransport]
	// mw is cfg.Middleware, applied.
	mw *chain
	// watchers are the Listens in progress; closing is closed by Close,
	// endCh (made once, by ended) when the connection has ended.
	watchers watchers
	closing  chan struct{}
	endOnce  sync.Once
	endCh    chan struct{}
}

// badNote is a message the server sent that no request could take.
type badNote struct {
	at   time.Time
	what string
}

// noteBad records (and logs) a message from the server that no request
// could take.
func (c *ClientCore) noteBad(what string) {
	c.bad.Store(&badNote{at: time.Now(), what: what})
	if c.cfg.Logger != nil {
		c.cfg.Logger.LogAttrs(context.Background(), slog.LevelWarn, "mcp: dropped a message from the server", slog.String("message", what))
	}
}

// explain adds to the error of a request that got no response (it timed
// out, or its context ended) what the server sent meanwhile that no
// request could take: likely the response, malformed or misaddressed.
func (c *ClientCore) explain(err error, since time.Time) error {
	if err == nil || !(errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)) {
		return err
	}
	if b := c.bad.Load(); b != nil && !b.at.Before(since) {
		return fmt.Errorf("%w (meanwhile the server sent %s)", err, b.what)
	}
	return err
}

// describeBad describes a message the dispatcher could not route.
func describeBad(msg, errResp []byte) string {
	why := ""
	if m := codec.Lookup(errResp, "error", "message"); m != nil {
		why, _ = HeaderText(m)
	}
	if msg == nil {
		return why
	}
	return why + ": " + codec.Quote(string(msg))
}

// clientTransport carries the messages of one client connection.
type clientTransport interface {
	// request sends a request and waits for its response: the result
	// member, or an *jsonrpc.RPCError for an error response.
	request(ctx context.Context, r clientRequest) (json.RawMessage, error)
	// notify sends a notification.
	notify(ctx context.Context, r *clientRequest) error
	// started is called once the connection is ready for use (after the
	// initialize handshake in the legacy era): a legacy HTTP transport
	// opens its GET stream.
	started()
	// close ends the connection and stops its goroutines.
	close() error
	// peerCancelled ends the wait of the request with id (JSON) that the
	// server cancelled with notifications/cancelled, which a 2026-07-28
	// server sends on stdio only to end a subscriptions/listen request.
	peerCancelled(id []byte)
}

// errPeerCancelled is what a request the server cancelled fails with.
var errPeerCancelled = errors.New("mcp: the server ended the request (notifications/cancelled)")

// clientRequest is one message to send.
type clientRequest struct {
	method string
	params []byte // a JSON object, or nil
	// version is the MCP-Protocol-Version header ("" sends none) and
	// modern says whether the request metadata headers of 2026-07-28
	// apply (Mcp-Method, Mcp-Name, Mcp-Param-*).
	version string
	modern  bool
	// name is the Mcp-Name header; params the Mcp-Param-* headers.
	name         string
	paramHeaders []headerField
	// timeout bounds the wait (zero: jsonrpc.DefaultRequestTimeout; negative: only
	// the context).
	timeout time.Duration
	// sent, when the message goes through middleware, is what it sees: the
	// HTTP transports put their POST in it.
	sent *Call
}

// headerField is one header to send.
type headerField struct{ key, value string }

// keyedTransport is a built-in transport that names its server for a
// shared cache.
type keyedTransport interface{ serverKey() string }

// errSessionGone is what a legacy HTTP transport returns when the
// server no longer knows the session (404): the core starts a new one.
var errSessionGone = errors.New("mcp: the server ended the session (HTTP 404)")

// NewClientCore connects to the server through tr and negotiates the
// protocol version.
func NewClientCore(ctx context.Context, tr Transport, cfg ClientConfig) (*ClientCore, error) {
	if tr == nil {
		return nil, errors.New("mcp: Connect: the transport is nil")
	}
	if cfg.MaxRounds <= 0 {
		cfg.MaxRounds = defaultMaxRounds
	}
	if cfg.ProbeTimeout == 0 {
		cfg.ProbeTimeout = defaultProbeTimeout
	}
	olders, err := clientOlders(&cfg)
	if err != nil {
		return nil, err
	}
	c := &ClientCore{cfg: cfg, olders: olders, version: cfg.Revision, modern: cfg.Modern, older: -1, mw: newChain(cfg.Middleware), closing: make(chan struct{})}
	c.in = c.incoming(cfg.Incoming)
	var t clientTransport
	var key string
	if h, ok := tr.(*HTTPTransport); ok {
		// The client's own use of Streamable HTTP: the headers of each
		// request, sessions, resumption.
		if t, key, err = h.open(c); err != nil {
			return nil, err
		}
		c.overHTTP = true
	} else {
		s, err := tr.Connect(ctx)
		if err != nil {
			return nil, err
		}
		if s == nil {
			return nil, fmt.Errorf("mcp: Connect: %T.Connect returned no stream", tr)
		}
		if k, ok := tr.(keyedTransport); ok {
			key = k.serverKey()
		}
		if ct, ok := tr.(*CommandTransport); ok {
			c.restart = ct.restart
		}
		if key == "" {
			// A transport of one's own: its server is its own.
			key = "transport#" + strconv.FormatUint(clientSerial.Add(1), 10)
		}
		t = newStreamClient(c, s)
	}
	c.t, c.serverKey = t, key
	c.live.Store(&t)
	if !cfg.NoCache {
		c.cache = cfg.Cache
		if c.cache == nil {
			c.cache = NewCache(0)
		}
		c.authKey = cfg.AuthContext
		if c.authKey == "" {
			if h, ok := tr.(*HTTPTransport); ok {
				c.authKey = h.authContext()
			}
		}
		if c.authKey == "" {
			// Unknown: private entries stay this client's own.
			c.authKey = "client#" + strconv.FormatUint(clientSerial.Add(1), 10)
		}
	}
	if err := c.negotiate(ctx); err != nil {
		c.t.close()
		return nil, err
	}
	return c, nil
}

// clientSerial numbers clients, for authorization contexts of their own.
var clientSerial atomic.Uint64

// negotiated returns the negotiated version and whether it is modern.
func (c *ClientCore) negotiated() (string, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.version, c.modern
}

// ProtocolVersion is the negotiated protocol version.
func (c *ClientCore) ProtocolVersion() string {
	v, _ := c.negotiated()
	return v
}

// OlderIndex is the index of the older revision the client talks through
// conversions (in the package's OlderRevisions), or -1.
func (c *ClientCore) OlderIndex() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.older
}

// olderRev is the older revision the client talks through conversions, or
// nil.
func (c *ClientCore) olderRev() *clientOlder {
	if i := c.OlderIndex(); i >= 0 {
		return &c.olders[i]
	}
	return nil
}

// HelloResult is the server's DiscoverResult or InitializeResult.
func (c *ClientCore) HelloResult() json.RawMessage {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.hello
}

// negotiate finds the protocol version both ends speak, as the peers do it
// (basic/versioning.mdx, "Backward Compatibility"): a modern client probes
// with server/discover at its version; a DiscoverResult or a recognized
// modern error identifies a modern server, anything else a legacy one, for
// which it falls back to the initialize handshake. A client of a legacy
// revision opens with initialize.
func (c *ClientCore) negotiate(ctx context.Context) error {
	if !c.cfg.Modern {
		return c.initialize(ctx, c.cfg.Revision)
	}
	err := c.probe(ctx)
	if err != nil && connEnded(err) && ctx.Err() == nil {
		return c.restartOlder(ctx, err)
	}
	return err
}

// probe negotiates as a modern client: server/discover, and the initialize
// handshake when the answer identifies a server of that era.
func (c *ClientCore) probe(ctx context.Context) error {
	pctx, cancel := context.WithTimeout(ctx, c.cfg.ProbeTimeout)
	raw, err := c.discover(pctx)
	cancel()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if connEnded(err) {
		// The server is gone: nothing to fall back to (but see
		// restartOlder).
		return err
	}
	if unreachable(err) {
		// Not a question of eras: the server cannot be reached for now
		// (retried already, as far as HTTPTransport's retries go); the
		// error names server/discover.
		return err
	}
	if err == nil {
		vs, isDiscover := supportedVersions(raw)
		if !isDiscover {
			// Not a DiscoverResult (a legacy server that answers any
			// request): legacy.
			return c.legacyFallback(ctx, errors.New("server/discover was answered with a result that is not a DiscoverResult"))
		}
		if slices.Contains(vs, c.cfg.Revision) {
			c.mu.Lock()
			c.hello = raw
			c.mu.Unlock()
			return nil
		}
		// A server of both eras that does not speak this revision but
		// an older one this package converts to.
		if i := c.commonOlder(vs); i >= 0 {
			return c.initializeOlder(ctx, i)
		}
		return fmt.Errorf("mcp: the server supports protocol versions %s; this client speaks %s", codec.QuoteList(vs), codec.QuoteList(c.speaks()))
	}
	var re *jsonrpc.RPCError
	if errors.As(err, &re) && modernCode(re.Code) {
		// A modern server: surface its error (an unsupported version
		// was retried already when the server named ours), unless it
		// names an older version this package converts to.
		if re.Code == spec.CodeUnsupportedProtocolVersion {
			if i := c.commonOlder(unsupportedData(re)); i >= 0 {
				return c.initializeOlder(ctx, i)
			}
			return fmt.Errorf("mcp: the server does not support protocol version %q (it supports %s): %w", c.cfg.Revision, codec.QuoteList(unsupportedData(re)), err)
		}
		return fmt.Errorf("mcp: server/discover: %w", err)
	}
	var se *HTTPStatusError
	if errors.As(err, &se) && (se.StatusCode == 401 || se.StatusCode == 403) {
		// Not a question of eras: the request needs credentials.
		return fmt.Errorf("mcp: server/discover: %w", err)
	}
	return c.legacyFallback(ctx, err)
}

// modernCode reports whether an error code is one of the errors only a
// modern server sends (versioning.mdx: "a recognized modern JSON-RPC
// error").
func modernCode(code int64) bool {
	switch code {
	case spec.CodeHeaderMismatch, spec.CodeMissingRequiredClientCapability, spec.CodeUnsupportedProtocolVersion:
		return true
	}
	return false
}

// legacyFallback is called when the probe identified a legacy server: the
// client opens with initialize at the newest older revision the package
// converts to (basic/versioning.mdx: "Anything else identifies a legacy
// server").
func (c *ClientCore) legacyFallback(ctx context.Context, probe error) error {
	if len(c.olders) == 0 {
		return fmt.Errorf("mcp: the server does not speak protocol version %q: it answered server/discover with %v (it may be a server of an earlier revision; generate the package with --serve-older to talk to one)", c.cfg.Revision, probe)
	}
	if err := c.initializeOlder(ctx, 0); err != nil {
		return fmt.Errorf("%w (server/discover was answered with %v)", err, probe)
	}
	return nil
}

// speaks lists the versions the client speaks, newest first.
func (c *ClientCore) speaks() []string {
	vs := []string{c.cfg.Revision}
	for _, o := range c.olders {
		vs = append(vs, o.Revision())
	}
	return vs
}

// commonOlder is the index of the newest older revision in vs, or -1.
func (c *ClientCore) commonOlder(vs []string) int {
	for i, o := range c.olders {
		if slices.Contains(vs, o.Revision()) {
			return i
		}
	}
	return -1
}

// initializeOlder performs the initialize handshake at the older revision
// i and accepts the version the server answers with when the package
// converts to it (lifecycle.mdx: the server answers with a version it
// supports; the client goes on if it supports it too).
func (c *ClientCore) initializeOlder(ctx context.Context, i int) error {
	o := c.olders[i]
	return c.handshake(ctx, o.Revision(), o.clientInfo, o.capabilities, func(v string) bool {
		for j, x := range c.olders {
			if x.Revision() == v {
				c.older = j // under c.mu (handshake holds it)
				return true
			}
		}
		return false
	})
}

// discover sends server/discover with the request metadata of the
// client's revision.
func (c *ClientCore) discover(ctx context.Context) (json.RawMessage, error) {
	params := c.modernMeta(nil)
	return c.Call(ctx, ClientMethod{Name: spec.MethodDiscover, Cacheable: true}, params)
}

// modernMeta returns params (a JSON object, nil for none) with the _meta
// members of the negotiated version: protocolVersion always, clientInfo
// and clientCapabilities unless params has them. The typed layer fills
// them itself; this serves the requests the core makes.
func (c *ClientCore) modernMeta(params []byte) []byte {
	version, _ := c.negotiated()
	e := codec.Encoder{Buf: make([]byte, 0, 128+len(params)+len(c.cfg.ClientInfo)+len(c.cfg.Capabilities))}
	e.Buf = append(e.Buf, `{"_meta":{"io.modelcontextprotocol/protocolVersion":`...)
	e.Str(version)
	if c.cfg.ClientInfo != nil {
		e.Buf = append(e.Buf, `,"io.modelcontextprotocol/clientInfo":`...)
		e.Buf = append(e.Buf, c.cfg.ClientInfo...)
	}
	e.Buf = append(e.Buf, `,"io.modelcontextprotocol/clientCapabilities":`...)
	if c.cfg.Capabilities != nil {
		e.Buf = append(e.Buf, c.cfg.Capabilities...)
	} else {
		e.Buf = append(e.Buf, "{}"...)
	}
	e.Buf = append(e.Buf, '}')
	if params != nil {
		var d codec.Decoder
		d.InitShared(params)
		if d.Object() {
			for first := true; d.NextMember(&first); {
				k := d.Key
				d.Peek()
				v := d.Raw()
				if k == spec.MemberMeta {
					continue
				}
				e.Buf = append(e.Buf, ',')
				e.Str(k)
				e.Buf = append(e.Buf, ':')
				e.Buf = append(e.Buf, v...)
			}
		}
	}
	e.Buf = append(e.Buf, '}')
	return e.Buf
}

// supportedVersions reads the supportedVersions of a DiscoverResult; ok is
// false when raw is not one (a legacy server that answers every method).
func supportedVersions(raw []byte) (vs []string, ok bool) {
	m := codec.Lookup(raw, "supportedVersions")
	if m == nil || m[0] != '[' {
		return nil, false
	}
	if err := json.Unmarshal(m, &vs); err != nil {
		return nil, false
	}
	return vs, true
}

// unsupportedData reads the supported versions of an
// UnsupportedProtocolVersionError.
func unsupportedData(re *jsonrpc.RPCError) []string {
	var d struct {
		Supported []string `json:"supported"`
	}
	_ = json.Unmarshal(re.Data, &d)
	return d.Supported
}

// initialize performs the initialize handshake at the package's own
// legacy revision: initialize, then notifications/initialized. The
// server's answer must name that version (lifecycle.mdx: otherwise the
// client SHOULD disconnect).
func (c *ClientCore) initialize(ctx context.Context, version string) error {
	if i := c.OlderIndex(); i >= 0 {
		// A new session after the old one ended: the same revision.
		return c.initializeOlder(ctx, i)
	}
	return c.handshake(ctx, version, c.cfg.ClientInfo, c.cfg.Capabilities, func(v string) bool { return v == version })
}

// handshake sends initialize at version with clientInfo and capabilities
// (JSON) and then notifications/initialized; accept says whether the
// version the server answers with will do (and records what it needs,
// under c.mu).
func (c *ClientCore) handshake(ctx context.Context, version string, clientInfo, capabilities []byte, accept func(string) bool) error {
	e := codec.Encoder{Buf: make([]byte, 0, 128+len(clientInfo)+len(capabilities))}
	e.Buf = append(e.Buf, `{"protocolVersion":`...)
	e.Str(version)
	e.Buf = append(e.Buf, `,"capabilities":`...)
	if capabilities != nil {
		e.Buf = append(e.Buf, capabilities...)
	} else {
		e.Buf = append(e.Buf, "{}"...)
	}
	e.Buf = append(e.Buf, `,"clientInfo":`...)
	if clientInfo != nil {
		e.Buf = append(e.Buf, clientInfo...)
	} else {
		e.Buf = append(e.Buf, `{"name":"mcpgen-client","version":"0"}`...)
	}
	e.Buf = append(e.Buf, '}')
	raw, err := c.request(ctx, clientRequest{method: spec.MethodInitialize, params: e.Buf, timeout: c.cfg.RequestTimeout})
	if connEnded(err) {
		return err // says it all, and starts with "mcp:"
	}
	if err != nil {
		return fmt.Errorf("mcp: initialize: %w", err)
	}
	v := codec.Lookup(raw, "protocolVersion")
	if v == nil || v[0] != '"' {
		return fmt.Errorf("mcp: initialize: the server's result has no protocolVersion: %s", codec.Quote(string(raw)))
	}
	got, _ := HeaderText(v)
	c.mu.Lock()
	ok := accept(got)
	if ok {
		c.version, c.modern, c.hello = got, false, raw
	}
	c.mu.Unlock()
	if !ok {
		return fmt.Errorf("mcp: initialize: the server answered with protocol version %s; this client speaks %s", codec.Quote(got), codec.QuoteList(c.speaks()))
	}
	if err := c.notify(ctx, &clientRequest{method: spec.MethodInitialized, version: got}); err != nil {
		return fmt.Errorf("mcp: notifications/initialized: %w", err)
	}
	c.t.started()
	return nil
}

// Call sends a request and returns its final result: from the cache when a
// fresh one is there, after as many rounds of input as the server asks for
// (multi round-trip requests), and into the cache when its hints allow.
func (c *ClientCore) Call(ctx context.Context, m ClientMethod, params []byte) (json.RawMessage, error) {
	if c.closed.Load() {
		return nil, errClientClosed
	}
	var key string
	cacheable := m.Cacheable && c.cache != nil
	if cacheable {
		key, cacheable = CacheKey(m.Name, params)
	}
	if cacheable {
		if raw, ok := c.cache.get(c.serverKey, c.authKey, key); ok {
			if m.Name == spec.MethodListTools {
				c.schemas.learn(c.learnTools(raw))
			}
			return raw, nil
		}
	}
	raw, rounds, err := c.rounds(ctx, &m, params)
	if err != nil {
		c.afterError(&m, params, err)
		return nil, err
	}
	if m.Name == spec.MethodListTools {
		raw = c.learnTools(raw)
		c.schemas.learn(raw)
	}
	if cacheable && rounds == 0 {
		c.cache.put(c.serverKey, c.authKey, key, m.Name, params, raw)
	}
	return raw, nil
}

// errClientClosed is what a request fails with after Close.
var errClientClosed = errors.New("mcp: the client is closed")

// rounds sends a request and, while the server answers with an
// InputRequiredResult, answers its input requests and retries
// (basic/patterns/mrtr.mdx): each retry is a new request (a new id) with
// the original params, the answers as inputResponses and the requestState
// exactly as the server sent it (none when it sent none). It returns how
// many retries it made.
func (c *ClientCore) rounds(ctx context.Context, m *ClientMethod, params []byte) (json.RawMessage, int, error) {
	p := params
	for round := 0; ; round++ {
		raw, err := c.send(ctx, m, p)
		if err != nil {
			return nil, round, err
		}
		_, modern := c.negotiated()
		if !m.InputRequired || !modern {
			return raw, round, nil
		}
		if ir, _ := ResultKind(raw, true); !ir {
			return raw, round, nil
		}
		if round >= c.cfg.MaxRounds {
			return nil, round, fmt.Errorf("mcp: %s: the server still asks for input after %d rounds (ClientOptions.MaxInputRounds)", codec.Quote(m.Name), round)
		}
		if p, err = c.answerRound(ctx, m, params, raw); err != nil {
			return nil, round, err
		}
	}
}

// answerRound answers the input requests of an InputRequiredResult with
// the client's handler and returns the params of the retry.
func (c *ClientCore) answerRound(ctx context.Context, m *ClientMethod, params, result []byte) ([]byte, error) {
	reqs := codec.Lookup(result, "inputRequests")
	state := codec.Lookup(result, "requestState")
	e := codec.Encoder{Buf: make([]byte, 0, len(params)+len(state)+256)}
	e.Buf = append(e.Buf, '{')
	n := 0
	if params != nil {
		var d codec.Decoder
		d.InitShared(params)
		if d.Object() {
			for first := true; d.NextMember(&first); {
				k := d.Key
				d.Peek()
				v := d.Raw()
				if k == "inputResponses" || k == "requestState" {
					continue
				}
				if n > 0 {
					e.Buf = append(e.Buf, ',')
				}
				e.Str(k)
				e.Buf = append(e.Buf, ':')
				e.Buf = append(e.Buf, v...)
				n++
			}
		}
	}
	if reqs != nil && reqs[0] == '{' {
		if n > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.Buf = append(e.Buf, `"inputResponses":{`...)
		var d codec.Decoder
		d.InitShared(reqs)
		d.Object()
		i := 0
		for first := true; d.NextMember(&first); {
			k := d.Key
			d.Peek()
			req := d.Raw()
			method := ""
			if mv := codec.Lookup(req, "method"); mv != nil && mv[0] == '"' {
				method, _ = HeaderText(mv)
			}
			if c.cfg.AnswerInput == nil {
				return nil, fmt.Errorf("mcp: %s: the server asks for input (%s), and this client cannot answer it", codec.Quote(m.Name), codec.Quote(method))
			}
			params := codec.Lookup(req, "params")
			resp, err := c.cfg.AnswerInput(ctx, method, params)
			if err != nil {
				return nil, fmt.Errorf("mcp: %s: answering the server's input request %s (%s): %w", codec.Quote(m.Name), codec.Quote(k), method, err)
			}
			if method == spec.MethodElicit {
				resp = ElicitDefaults(params, resp)
			}
			if i > 0 {
				e.Buf = append(e.Buf, ',')
			}
			e.Str(k)
			e.Buf = append(e.Buf, ':')
			e.Buf = append(e.Buf, resp...)
			i++
		}
		e.Buf = append(e.Buf, '}')
		n++
	}
	if state != nil {
		if n > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.Buf = append(e.Buf, `"requestState":`...)
		e.Buf = append(e.Buf, state...)
	}
	e.Buf = append(e.Buf, '}')
	return e.Buf, nil
}

// send sends one request with the metadata of the negotiated version. A
// modern server that names the client's version among the supported ones
// in an UnsupportedProtocolVersionError gets the request once more
// (versioning.mdx: the client retries with a mutually supported version);
// a tools/call that a server refuses with HeaderMismatchError is sent once
// more after tools/list has refreshed the tool's x-mcp-header bindings
// (streamable-http.mdx, "Client Behavior"); a legacy session the server
// has ended is started again.
func (c *ClientCore) send(ctx context.Context, m *ClientMethod, params []byte) (json.RawMessage, error) {
	for attempt := 0; ; attempt++ {
		version, modern := c.negotiated()
		r := clientRequest{method: m.Name, params: params, version: version, modern: modern, timeout: c.cfg.RequestTimeout}
		if m.Name == spec.MethodListen {
			r.timeout = -1 // open until cancelled
		}
		if modern && c.overHTTP {
			c.requestHeaders(&r)
		}
		start := time.Now()
		raw, err := c.request(ctx, r)
		err = c.explain(err, start)
		if err == nil || attempt > 0 || ctx.Err() != nil {
			return raw, err
		}
		if errors.Is(err, errSessionGone) && !modern {
			if ierr := c.initialize(ctx, version); ierr != nil {
				return nil, fmt.Errorf("%w; starting a new session failed: %w", err, ierr)
			}
			continue
		}
		var re *jsonrpc.RPCError
		if !errors.As(err, &re) || !modern {
			return nil, err
		}
		switch {
		case re.Code == spec.CodeUnsupportedProtocolVersion && slices.Contains(unsupportedData(re), version):
			continue
		case re.Code == spec.CodeHeaderMismatch && m.Name == spec.MethodCallTool && c.overHTTP:
			if c.refreshTools(ctx) {
				continue
			}
		}
		return nil, err
	}
}

// requestHeaders fills the request metadata headers of a modern request
// over HTTP beyond MCP-Protocol-Version and Mcp-Method: Mcp-Name from
// params.name (tools/call, prompts/get), params.uri (resources/read) or
// params.taskId (the tasks extension's methods), and for tools/call the
// Mcp-Param-* headers of the tool's x-mcp-header bindings.
func (c *ClientCore) requestHeaders(r *clientRequest) { c.headers.fill(r) }

// headerBook is what a modern client over Streamable HTTP knows of the
// request metadata headers: the x-mcp-header bindings of the tools the
// server listed, by tool name. Its methods are safe for concurrent use.
type headerBook struct {
	mu    sync.RWMutex
	tools map[string][]paramHeader
}

// fill sets r's Mcp-Name and Mcp-Param-* headers from its params.
func (b *headerBook) fill(r *clientRequest) {
	var member string
	switch r.method {
	case spec.MethodCallTool, spec.MethodGetPrompt:
		member = "name"
	case spec.MethodReadResource:
		member = "uri"
	case spec.MethodTasksGet, spec.MethodTasksUpdate, spec.MethodTasksCancel:
		member = "taskId"
	default:
		return
	}
	v := codec.Lookup(r.params, member)
	if v == nil || v[0] != '"' {
		return
	}
	name, _ := HeaderText(v)
	r.name = encodeHeaderValue(name)
	if r.method != spec.MethodCallTool {
		return
	}
	b.mu.RLock()
	bindings := b.tools[name]
	b.mu.RUnlock()
	if len(bindings) == 0 {
		return
	}
	args := codec.Lookup(r.params, "arguments")
	for _, h := range bindings {
		raw := argumentAt(args, h.path)
		if raw == nil || string(raw) == "null" {
			continue // absent or null: no header (streamable-http.mdx)
		}
		text, ok := HeaderText(raw)
		if !ok {
			continue
		}
		r.paramHeaders = append(r.paramHeaders, headerField{h.key, encodeHeaderValue(text)})
	}
}

// refreshTools lists the server's tools again (every page, past the
// cache) to learn their x-mcp-header bindings, and reports whether that
// worked.
func (c *ClientCore) refreshTools(ctx context.Context) bool {
	var cursor []byte
	for page := 0; page < 100; page++ {
		params := []byte(`{}`)
		if cursor != nil {
			params = append(append([]byte(`{"cursor":`), cursor...), '}')
		}
		raw, err := c.send(ctx, &ClientMethod{Name: spec.MethodListTools}, c.modernMeta(params))
		if err != nil {
			return false
		}
		c.schemas.learn(c.learnTools(raw))
		cursor = codec.Lookup(raw, spec.MemberNextCursor)
		if cursor == nil || cursor[0] != '"' {
			return true
		}
	}
	return true
}

// learnTools records the x-mcp-header bindings of the tools in a tools/list
// result and, over Streamable HTTP in the modern era, drops the tools whose
// annotations break the rules (tools.mdx, "x-mcp-header": the client MUST
// exclude an invalid tool from the result of tools/list), logging why. It
// returns the result to use.
func (c *ClientCore) learnTools(raw []byte) []byte {
	_, modern := c.negotiated()
	if !modern || !c.overHTTP {
		return raw
	}
	return c.headers.learn(raw, c.cfg.Logger)
}

// learn records the bindings of the tools in a tools/list result and
// returns the result without the tools whose annotations break the rules,
// logging why with logger (nil: not at all).
func (b *headerBook) learn(raw []byte, logger *slog.Logger) []byte {
	tools := codec.Lookup(raw, "tools")
	if tools == nil || tools[0] != '[' {
		return raw
	}
	var d codec.Decoder
	d.InitShared(tools)
	d.Array()
	var kept [][]byte
	dropped := 0
	learned := map[string][]paramHeader{}
	for first := true; d.NextElem(&first); {
		d.Peek()
		tool := d.Raw()
		name, _ := HeaderText(codec.Lookup(tool, "name"))
		bindings, err := toolHeaderBindings(codec.Lookup(tool, "inputSchema"))
		if err != nil {
			dropped++
			if logger != nil {
				logger.LogAttrs(context.Background(), slog.LevelWarn, "mcp: tools/list: dropping a tool", slog.String("gen_ai.tool.name", name), slog.String("error", err.Error()))
			}
			continue
		}
		kept = append(kept, tool)
		if len(bindings) > 0 {
			learned[name] = bindings
		}
	}
	if d.Finish() != nil {
		return raw
	}
	b.mu.Lock()
	if b.tools == nil {
		b.tools = map[string][]paramHeader{}
	}
	for _, t := range kept {
		name, _ := HeaderText(codec.Lookup(t, "name"))
		if h, ok := learned[name]; ok {
			b.tools[name] = h
		} else {
			delete(b.tools, name)
		}
	}
	b.mu.Unlock()
	if dropped == 0 {
		return raw
	}
	// Rebuild the result with the kept tools in place of the list.
	e := codec.Encoder{Buf: make([]byte, 0, len(raw))}
	e.Buf = append(e.Buf, '{')
	var rd codec.Decoder
	rd.InitShared(raw)
	rd.Object()
	n := 0
	for first := true; rd.NextMember(&first); {
		k := rd.Key
		rd.Peek()
		v := rd.Raw()
		if n > 0 {
			e.Buf = append(e.Buf, ',')
		}
		n++
		e.Str(k)
		e.Buf = append(e.Buf, ':')
		if k != "tools" {
			e.Buf = append(e.Buf, v...)
			continue
		}
		e.Buf = append(e.Buf, '[')
		for i, t := range kept {
			if i > 0 {
				e.Buf = append(e.Buf, ',')
			}
			e.Buf = append(e.Buf, t...)
		}
		e.Buf = append(e.Buf, ']')
	}
	e.Buf = append(e.Buf, '}')
	return e.Buf
}

// toolHeaderBindings reads the x-mcp-header bindings of a tool's
// inputSchema and checks the rules of tools.mdx: valid header names,
// unique ignoring case, on string, integer or boolean properties reached
// through properties keywords only (an annotation anywhere else, under
// items, a composition keyword or $ref, makes the tool invalid).
func toolHeaderBindings(schema []byte) ([]paramHeader, error) {
	if schema == nil {
		return nil, nil
	}
	bindings, err := paramHeaders(schema)
	if err != nil {
		return nil, err
	}
	// Every annotation must be one paramHeaders found on a properties
	// chain.
	var count int
	var walk func(v any, onChain bool) error
	walk = func(v any, onChain bool) error {
		switch v := v.(type) {
		case map[string]any:
			for k, sub := range v {
				switch {
				case k == "x-mcp-header":
					count++
					if !onChain {
						return errors.New("an x-mcp-header annotation outside a chain of properties keywords")
					}
				case k == "properties":
					if props, ok := sub.(map[string]any); ok {
						for _, p := range props {
							if err := walk(p, onChain); err != nil {
								return err
							}
						}
						continue
					}
					if err := walk(sub, false); err != nil {
						return err
					}
				default:
					if err := walk(sub, false); err != nil {
						return err
					}
				}
			}
		case []any:
			for _, x := range v {
				if err := walk(x, false); err != nil {
					return err
				}
			}
		}
		return nil
	}
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, err
	}
	if err := walk(root, true); err != nil {
		return nil, err
	}
	// The root itself is no property: an annotation there is misplaced.
	if m, ok := root.(map[string]any); ok {
		if _, ok := m["x-mcp-header"]; ok {
			return nil, errors.New("an x-mcp-header annotation on the inputSchema itself")
		}
	}
	if count != len(bindings) {
		return nil, errors.New("an x-mcp-header annotation outside a chain of properties keywords")
	}
	return bindings, nil
}

// afterError drops cached results an error shows to be out of date
// (caching.mdx): a list page whose cursor the server refused discards
// every cached page of that list, and a tools/call that the server
// refuses as an unknown tool or invalid params drops the cached tools/list.
func (c *ClientCore) afterError(m *ClientMethod, params []byte, err error) {
	if c.cache == nil {
		return
	}
	var re *jsonrpc.RPCError
	if !errors.As(err, &re) || (re.Code != jsonrpc.CodeInvalidParams && re.Code != jsonrpc.CodeMethodNotFound) {
		return
	}
	switch {
	case m.Cacheable && codec.Lookup(params, spec.MemberCursor) != nil:
		c.cache.invalidate(c.serverKey, m.Name, "")
	case m.Name == spec.MethodCallTool:
		c.cache.invalidate(c.serverKey, spec.MethodListTools, "")
	}
}

// Notify sends a notification (with the negotiated version's _meta, in
// the modern era, when params has none).
func (c *ClientCore) Notify(ctx context.Context, method string, params []byte) error {
	if c.closed.Load() {
		return errClientClosed
	}
	version, modern := c.negotiated()
	return c.notify(ctx, &clientRequest{method: method, params: params, version: version, modern: modern})
}

// request sends r through the middleware.
func (c *ClientCore) request(ctx context.Context, r clientRequest) (json.RawMessage, error) {
	if c.mw == nil {
		return c.t.request(ctx, r)
	}
	mr := &Call{Method: r.method, Params: r.params, version: r.version}
	r.sent = mr
	return sendThrough(ctx, c.mw, mr, func(ctx context.Context, params []byte) (json.RawMessage, error) {
		r.params = params
		return c.t.request(ctx, r)
	})
}

// notify sends r, a notification, through the middleware.
func (c *ClientCore) notify(ctx context.Context, r *clientRequest) error {
	if c.mw == nil {
		return c.t.notify(ctx, r)
	}
	mr := &Call{Method: r.method, Params: r.params, version: r.version}
	r.sent = mr
	return notifyThrough(ctx, c.mw, mr, func(ctx context.Context, params []byte) error {
		r.params = params
		return c.t.notify(ctx, r)
	})
}

// Close ends the connection.
func (c *ClientCore) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	close(c.closing)
	return c.t.close()
}

// incoming returns the dispatcher for what the server sends: the
// ClientDispatcher's methods, behind hooks that keep the cache true to
// the notifications (caching.mdx: a list_changed notification, or
// resources/updated for a URI, makes the cached results stale at once),
// and that fill the defaults of an accepted elicitation form.
func (c *ClientCore) incoming(d *Core) *Core {
	in := &Core{Dispatcher: jsonrpc.Dispatcher{Methods: map[string]*jsonrpc.Method{}, OmitUnknownID: true}}
	if d == nil {
		in.Init()
		return in
	}
	in.Middleware = d.Middleware
	in.Init()
	in.Batches, in.OmitUnknownID, in.Logger, in.Limits = d.Batches, d.OmitUnknownID, d.Logger, d.Limits
	for name, m := range d.Methods {
		in.Methods[name] = m
	}
	in.OnResponse = func(msg []byte) {
		c.noteBad("a response to id " + codec.Clip(string(codec.Lookup(msg, "id")), codec.MaxQuoted) + ", which no request awaits: " + codec.Quote(string(msg)))
	}
	in.OnBadMessage = func(msg, errResp []byte) { c.noteBad(describeBad(msg, errResp)) }
	if m := in.Methods[spec.MethodCancelled]; m != nil {
		in.Methods[spec.MethodCancelled] = &jsonrpc.Method{Notification: true, Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
			// In the modern era the server sends no requests: the id is
			// one of the client's (its subscriptions/listen). In the
			// legacy era it names a request of the server's own.
			if t := c.live.Load(); t != nil {
				if _, modern := c.negotiated(); modern {
					if id := codec.Lookup(params, "requestId"); id != nil && jsonrpc.IsRequestID(id) {
						(*t).peerCancelled(id)
					}
				}
			}
			return m.Call(ctx, params)
		}}
	}
	invalidates := map[string][]string{
		spec.MethodToolsListChanged:     {spec.MethodListTools},
		spec.MethodPromptsListChanged:   {spec.MethodListPrompts},
		spec.MethodResourcesListChanged: {spec.MethodListResources, spec.MethodListResourceTemplates},
	}
	for name, methods := range invalidates {
		m := in.Methods[name]
		if m == nil {
			continue
		}
		in.Methods[name] = &jsonrpc.Method{Notification: true, Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
			if slices.Contains(methods, spec.MethodListTools) {
				c.schemas.forget()
			}
			if c.cache != nil {
				for _, lm := range methods {
					c.cache.invalidate(c.serverKey, lm, "")
				}
			}
			res, err := m.Call(ctx, params)
			c.watchers.announce(Change{Method: name})
			return res, err
		}}
	}
	if m := in.Methods[spec.MethodResourceUpdated]; m != nil {
		in.Methods[spec.MethodResourceUpdated] = &jsonrpc.Method{Notification: true, Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
			uri, ok := HeaderText(codec.Lookup(params, "uri"))
			if c.cache != nil && ok {
				c.cache.invalidate(c.serverKey, spec.MethodReadResource, uri)
			}
			res, err := m.Call(ctx, params)
			if ok {
				c.watchers.announce(Change{Method: spec.MethodResourceUpdated, URI: uri})
			}
			return res, err
		}}
	}
	if m := in.Methods[spec.MethodListenAcknowledged]; m != nil {
		in.Methods[spec.MethodListenAcknowledged] = &jsonrpc.Method{Notification: true, Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
			res, err := m.Call(ctx, params)
			c.watchers.acknowledged()
			return res, err
		}}
	}
	c.olderMethods(in)
	if m := in.Methods[spec.MethodElicit]; m != nil && !m.Notification {
		in.Methods[spec.MethodElicit] = &jsonrpc.Method{Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
			res, err := m.Call(ctx, params)
			if err != nil || res == nil {
				return res, err
			}
			e := codec.Encoder{}
			res.EncodeJSON(&e)
			if e.Err != nil {
				return res, nil
			}
			return jsonrpc.RawResult(ElicitDefaults(params, e.Buf)), nil
		}}
	}
	return in
}

// olderMethods adds to the incoming table what a server of an older
// revision sends, for when the client talks to one through the package's
// conversions: its notifications, converted to this revision's params
// for the table's own entry; its requests, answered by the ClientHandler
// through the conversions; and ping. While the client talks the package's
// own revision, each entry is the table's own (or method not found).
func (c *ClientCore) olderMethods(in *Core) {
	kinds := map[string]bool{}
	for _, o := range c.olders {
		for name, notification := range o.methods {
			kinds[name] = notification
		}
	}
	if len(c.olders) > 0 {
		kinds[spec.MethodPing] = false
	}
	for name, notification := range kinds {
		orig := in.Methods[name]
		in.Methods[name] = &jsonrpc.Method{Notification: notification, Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
			o := c.olderRev()
			switch {
			case o == nil && orig != nil:
				return orig.Call(ctx, params)
			case o == nil:
				return nil, jsonrpc.ErrNotImplemented
			case name == spec.MethodPing:
				return jsonrpc.RawResult("{}"), nil
			case notification:
				b, err := o.params(name, params)
				if err != nil {
					return nil, err
				}
				if orig == nil {
					return nil, nil
				}
				return orig.Call(ctx, b)
			}
			b, err := o.answer(ctx, name, params, c.cfg.AnswerInput)
			if err != nil {
				return nil, err
			}
			return jsonrpc.RawResult(b), nil
		}}
	}
}

// ElicitDefaults fills the content of an accepted form elicitation with
// the defaults of requestedSchema for the members it lacks
// (client/elicitation.mdx: clients that support defaults SHOULD
// pre-populate the form with them; SEP-1034). Any other result comes back
// as it is.
func ElicitDefaults(params, result []byte) []byte {
	if !elicitAccepted(result) {
		return result
	}
	props := codec.Lookup(params, "requestedSchema", "properties")
	if props == nil || props[0] != '{' {
		return result
	}
	content := codec.Lookup(result, "content")
	if content != nil && content[0] != '{' {
		return result
	}
	var add []byte
	var d codec.Decoder
	d.InitShared(props)
	d.Object()
	for first := true; d.NextMember(&first); {
		k := d.Key
		d.Peek()
		p := d.Raw()
		def := codec.Lookup(p, "default")
		if def == nil || codec.Lookup(content, k) != nil {
			continue
		}
		if len(add) > 0 {
			add = append(add, ',')
		}
		add = jsonrpc.AppendQuoted(add, k)
		add = append(add, ':')
		add = append(add, def...)
	}
	if len(add) == 0 {
		return result
	}
	// Rebuild the result with the content extended.
	e := codec.Encoder{Buf: make([]byte, 0, len(result)+len(add)+16)}
	e.Buf = append(e.Buf, '{')
	var rd codec.Decoder
	rd.InitShared(result)
	rd.Object()
	n := 0
	for first := true; rd.NextMember(&first); {
		k := rd.Key
		rd.Peek()
		v := rd.Raw()
		if k == "content" {
			continue
		}
		if n > 0 {
			e.Buf = append(e.Buf, ',')
		}
		n++
		e.Str(k)
		e.Buf = append(e.Buf, ':')
		e.Buf = append(e.Buf, v...)
	}
	if n > 0 {
		e.Buf = append(e.Buf, ',')
	}
	e.Buf = append(e.Buf, `"content":{`...)
	if content != nil {
		inner := content[1 : len(content)-1]
		if i := codec.FirstByte(inner); i >= 0 {
			e.Buf = append(e.Buf, inner...)
			e.Buf = append(e.Buf, ',')
		}
	}
	e.Buf = append(e.Buf, add...)
	e.Buf = append(e.Buf, "}}"...)
	return e.Buf
}

// ResultInvalid describes a result that breaks the schema.
func ResultInvalid(method string, err error) error {
	return fmt.Errorf("mcp: the result of %s: %w", codec.Quote(method), err)
}

// HelloMember reads a member of the result the connection started with:
// capabilities, instructions, serverInfo (in a DiscoverResult, the
// serverInfo of its _meta).
func HelloMember(hello []byte, name string) []byte {
	if v := codec.Lookup(hello, name); v != nil {
		return v
	}
	if name == "serverInfo" {
		return codec.Lookup(hello, spec.MemberMeta, spec.MetaServerInfo)
	}
	return nil
}

// InputError describes why the handler gave no answer to an input
// request.
func InputError(handler string, err error) error {
	switch {
	case err == nil:
		return errors.New("mcp: the ClientHandler's " + handler + " returned no result and no error")
	case errors.Is(err, jsonrpc.ErrNotImplemented):
		return fmt.Errorf("mcp: the ClientHandler does not implement %s: %w", handler, jsonrpc.ErrNotImplemented)
	}
	return err
}

// ResultError checks a decoded result: err is what decoding it gave.
// optional names the members a server of an earlier revision leaves out
// and the specification gives a default to (resultType: "complete";
// ttlMs: 0; cacheScope): a result that lacks only some of them is
// accepted, and missing has bit i set for each optional[i] absent, for
// the typed layer to fill. (The typed layer decodes the result itself,
// with a decoder that shares the result's bytes, which the core owns.)
func ResultError(method string, raw []byte, err error, optional ...string) (missing uint, _ error) {
	if err != nil && len(optional) > 0 {
		if m, ok := onlyMissingOf(err, optional); ok {
			missing, err = m, nil
		}
	}
	if err != nil {
		return 0, fmt.Errorf("mcp: the result of %s: %w", codec.Quote(method), err)
	}
	if len(optional) > 0 && optional[0] == spec.MemberResultType {
		if _, kerr := ResultKind(raw, false); kerr != nil {
			return 0, fmt.Errorf("mcp: the result of %s: %w", codec.Quote(method), kerr)
		}
	}
	return missing, nil
}

// onlyMissingOf reports whether every violation of err is a top-level
// member of names that is missing, and which.
func onlyMissingOf(err error, names []string) (missing uint, ok bool) {
	var ve *codec.ValidationError
	if !errors.As(err, &ve) || len(ve.Violations) == 0 {
		return 0, false
	}
	for _, v := range ve.Violations {
		if v.Pointer != "" || v.Keyword != "required" {
			return 0, false
		}
		found := false
		for i, n := range names {
			if v.Message == "missing required member "+strconv.Quote(n) {
				missing |= 1 << i
				found = true
			}
		}
		if !found {
			return 0, false
		}
	}
	return missing, true
}

// ParamsError describes params that cannot be sent.
func ParamsError(method string, err error) error {
	return fmt.Errorf("mcp: the params of %s: %w", codec.Quote(method), err)
}
