package protocol

import (
	"bytes"
	"container/list"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/spec"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// This file serves the revisions with the initialize handshake over HTTP
// with sessions, as their transport pages describe (2025-03-26, 2025-06-18
// and 2025-11-25: basic/transports.mdx, "Streamable HTTP"): initialize
// opens a session whose id the response's Mcp-Session-Id header carries;
// every later POST, GET and DELETE names it; a request's response is JSON,
// or a stream of Server-Sent Events once the handler sends something
// first; GET opens the session's stream of messages that belong to no
// request; every event has an id, and GET with Last-Event-ID resumes the
// stream it names from the session's bounded history. Revisions before
// 2025-03-26 get their HTTP+SSE transport instead (2024-11-05: GET opens
// the session's one stream, whose first event names the URL the client
// POSTs to, and every message of the server goes on that stream).

// Defaults of the session options of HTTPOptions.
const (
	defaultMaxSessions    = 1000
	defaultClientSessions = 100
	defaultSessionIdle    = 30 * time.Minute
	defaultSessionHistory = 256 << 10
	defaultPollRetry      = time.Second
	// eventOverhead is what a kept event counts toward the history beyond
	// its data, and streamOverhead what a stream counts.
	eventOverhead  = 64
	streamOverhead = 128
	// sweepEvery is how often, at most, lookups look for idle sessions.
	sweepEvery = time.Second
)

var (
	errSessionEnded   = errors.New("mcp: the HTTP session has ended")
	errSessionDeleted = errors.New("mcp: the client ended the HTTP session (DELETE)")
	errSessionEvicted = errors.New("mcp: the HTTP session made room for a new one (HTTPOptions.MaxSessions, MaxSessionsPerClient)")
	errSessionExpired = errors.New("mcp: the HTTP session expired (HTTPOptions.SessionIdleTimeout)")
	errClientGone     = errors.New("mcp: the client closed the connection before the response")
	errHistoryFull    = errors.New("mcp: the session keeps no more messages for its client (HTTPOptions.SessionHistoryBytes): the client is not reading its stream")
	errStreamClosed   = errors.New("mcp: the request's response stream has ended")
)

// sessionStore is the sessions of one HTTPHandler.
//
// Eviction (HTTPOptions.MaxSessions, MaxSessionsPerClient) takes, among
// the sessions with no request in flight and no open stream, one that
// never made a request after its initialize (fresh) before one that did
// (established), and the least recently used of either kind: a flood of
// initialize requests that never come back only displaces itself. Every
// session belongs to a client (its principal, or its remote address when
// the server names none); a client past its share replaces one of its own
// sessions, never another client's.
type sessionStore struct {
	h *HTTPHandler
	// oldSSE serves the HTTP+SSE transport (revisions before 2025-03-26).
	oldSSE    bool
	max       int
	perClient int // 0: no bound per client
	prefix    string
	idle      time.Duration
	history   int
	// principal names the principal of a request (ServerOptions.Principal)
	// or is nil; addr names the remote address (HTTPOptions.ClientAddress).
	principal func(context.Context) string
	addr      func(*http.Request) string

	mu        sync.Mutex
	byID      map[string]*httpSession
	fresh     list.List // of *httpSession with no request after initialize, the most recently used first
	lru       list.List // of the other *httpSession, the most recently used first
	clients   map[string]*list.List
	lastSweep time.Time
}

// sessionOwner is who opens a session: the digest of its principal (nil
// when the server names none) and the client it counts against.
type sessionOwner struct {
	principal []byte
	client    string
}

// ownerOf is the owner of a session r opens, or the one r must come from
// to use a session.
func (st *sessionStore) ownerOf(r *http.Request) sessionOwner {
	var o sessionOwner
	if st.principal != nil {
		// The function reads the request's context, or its headers
		// through HTTPRequestFromContext, as in a handler.
		ctx := jsonrpc.WithLink(r.Context(), requestLink{r: r, d: &st.h.d.Dispatcher})
		o.principal = principalDigest(st.principal(ctx))
	}
	if o.principal != nil {
		o.client = "p\x00" + string(o.principal)
		return o
	}
	if st.addr != nil {
		o.client = "a\x00" + st.addr(r)
	} else if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		o.client = "a\x00" + host
	} else {
		o.client = "a\x00" + r.RemoteAddr
	}
	return o
}

// NewSessionHTTPHandler returns the HTTP handler of a revision with the
// initialize handshake: with sessions, unless opts.Stateless.
func NewSessionHTTPHandler(d *Core, opts HTTPOptions, revision string) *HTTPHandler {
	h := NewHTTPHandler(d, opts)
	if opts.Stateless {
		return h
	}
	checkSessionIDPrefix(opts.SessionIDPrefix)
	st := &sessionStore{h: h, oldSSE: spec.Of(revision, true).HTTPWithSSE, max: opts.MaxSessions, perClient: opts.MaxSessionsPerClient, prefix: opts.SessionIDPrefix, idle: opts.SessionIdleTimeout, history: opts.SessionHistoryBytes,
		principal: d.State.principal, addr: opts.ClientAddress, byID: map[string]*httpSession{}, clients: map[string]*list.List{}}
	if st.max <= 0 {
		st.max = defaultMaxSessions
	}
	switch {
	case st.perClient == 0:
		st.perClient = min(defaultClientSessions, st.max)
	case st.perClient < 0:
		st.perClient = 0
	}
	if st.idle == 0 {
		st.idle = defaultSessionIdle
	}
	if st.history <= 0 {
		st.history = defaultSessionHistory
	}
	if h.opts.PollRetry <= 0 {
		h.opts.PollRetry = defaultPollRetry
	}
	h.sessions = st
	return h
}

// httpSession is one session: its Session, its requests in flight, and
// its streams with their history.
type httpSession struct {
	st   *sessionStore
	sess *Session
	ctx  context.Context // ends with the session
	stop context.CancelCauseFunc

	// owner opened the session; only requests of its principal find it.
	owner sessionOwner

	// Under st.mu:
	elem        *list.Element // in st.fresh or st.lru
	clientElem  *list.Element // in st.clients[owner.client]
	established bool          // a request came after initialize
	lastUsed    time.Time
	busy        int // requests in flight and attached connections
	gone        bool

	// Under mu:
	mu         sync.Mutex
	ended      bool
	calls      map[string]*sessionCall // requests in flight, by idKey
	streams    map[int64]*sseStream
	order      []*sseStream // streams in the order they began, for forgetting
	nextStream int64
	standalone *sseStream // the GET stream; nil until used
	histBytes  int
}

// sessionCall is a request in flight in a session.
type sessionCall struct {
	key    string
	ctx    context.Context
	cancel context.CancelCauseFunc
}

// sseStream is one stream of a session: a POST's response stream, or the
// session's GET stream (id 0). Its events stay in the history until the
// budget needs the room, so that a client that lost the connection can
// resume with Last-Event-ID. Guarded by the session's mu.
type sseStream struct {
	id     int64
	events []keptEvent // seq ascending
	seq    int64       // the last seq given out
	// written is the last seq written to a connection: events up to it
	// may be forgotten first.
	written int64
	// ended is set once the stream has nothing more to send (a POST
	// stream's response, or its absence for a cancelled request).
	ended bool
	// conn is the connection writing the stream, or nil.
	conn *streamConn
	// closeRetry, when positive, asks the attached connection to end
	// after an event with this retry field (CloseSSEStream).
	closeRetry time.Duration
	// gap is set when events nobody wrote had to be forgotten.
	gap bool
}

// keptEvent is one event of a stream; nil data is an event with an id and
// no data (the priming event).
type keptEvent struct {
	seq  int64
	data []byte
}

// streamConn is the connection writing a stream.
type streamConn struct {
	wake chan struct{}
	// stop is set when another connection takes the stream over.
	stop bool
}

func (c *streamConn) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// newSessionID returns a session id: the prefix (HTTPOptions.SessionIDPrefix)
// and 128 random bits, in the visible ASCII the transport page requires.
func newSessionID(prefix string) string {
	var b [16]byte
	rand.Read(b[:])
	return prefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// maxSessionIDPrefix bounds HTTPOptions.SessionIDPrefix.
const maxSessionIDPrefix = 64

// checkSessionIDPrefix panics unless p can begin a session id: at most 64
// bytes of visible ASCII.
func checkSessionIDPrefix(p string) {
	if len(p) > maxSessionIDPrefix {
		panic("mcp: HTTPOptions.SessionIDPrefix has " + strconv.Itoa(len(p)) + " bytes; at most " + strconv.Itoa(maxSessionIDPrefix))
	}
	for i := 0; i < len(p); i++ {
		if p[i] < 0x21 || p[i] > 0x7E {
			panic("mcp: HTTPOptions.SessionIDPrefix " + codec.Quote(p) + " has a byte outside visible ASCII (0x21-0x7E) at " + strconv.Itoa(i))
		}
	}
}

// serveHTTP serves the session endpoint (the Host and Origin checks are
// done).
func (st *sessionStore) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if st.oldSSE {
		st.serveOldSSE(w, r)
		return
	}
	switch r.Method {
	case http.MethodPost:
		st.servePost(w, r)
	case http.MethodGet:
		st.serveGet(w, r)
	case http.MethodDelete:
		st.serveDelete(w, r)
	default:
		if st.h.opts.Fallback != nil {
			st.h.opts.Fallback.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Allow", "GET, POST, DELETE")
		st.h.refuse(w, http.StatusMethodNotAllowed, "method not allowed: the MCP endpoint takes POST, GET and DELETE")
	}
}

// refuseID answers with an HTTP error status and a JSON-RPC error that
// carries id (nil: none).
func (st *sessionStore) refuseID(w http.ResponseWriter, status int, id []byte, code int64, message string) {
	body := st.h.d.ErrorResponse(id, code, message, nil)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// sessionOf finds the session a request names. On failure it has answered:
// 400 for a missing or repeated header, 404 for a session that does not
// exist (any more).
func (st *sessionStore) sessionOf(w http.ResponseWriter, r *http.Request, id []byte) *httpSession {
	sid, present, ok := headerOne(r.Header, spec.HeaderSessionID)
	switch {
	case !ok:
		st.refuseID(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest, "bad request: the Mcp-Session-Id header appears more than once")
		return nil
	case !present:
		st.refuseID(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest, "bad request: the Mcp-Session-Id header is missing; a session begins with initialize")
		return nil
	}
	hs := st.lookup(sid, st.ownerOf(r).principal)
	if hs == nil {
		// A session of another principal is not found either, so that
		// its id opens nothing to whoever learns it.
		//
		// "The server MAY terminate the session at any time, after which
		// it MUST respond to requests containing that session ID with HTTP
		// 404 Not Found."
		st.refuseID(w, http.StatusNotFound, id, jsonrpc.CodeInvalidRequest, "session not found: it has ended or never existed; start a new one with initialize")
		return nil
	}
	return hs
}

// checkVersion applies the MCP-Protocol-Version rule of 2025-06-18 and
// later within a session: a header that is present must name the version
// the session negotiated (its absence means that version, as the header
// came after 2025-03-26). On failure it has answered 400.
func (st *sessionStore) checkVersion(w http.ResponseWriter, r *http.Request, hs *httpSession, id []byte) bool {
	v, present, ok := headerOne(r.Header, spec.HeaderProtocolVersion)
	if !ok {
		st.refuseID(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest, "bad request: the MCP-Protocol-Version header appears more than once")
		return false
	}
	if !present {
		return true
	}
	if !st.h.supports(v) {
		st.refuseID(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest, "bad request: unsupported MCP-Protocol-Version "+codec.Quote(v)+"; supported: "+codec.QuoteList(st.h.d.Versions))
		return false
	}
	if nv := hs.sess.ProtocolVersion(); nv != "" && v != nv {
		st.refuseID(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest, "bad request: the MCP-Protocol-Version header "+codec.Quote(v)+" is not the version this session negotiated, "+codec.Quote(nv))
		return false
	}
	return true
}

// lookup returns the live session id names, marking it used, or nil; a
// session opened by another principal than the one principal digests is
// not found.
func (st *sessionStore) lookup(id string, principal []byte) *httpSession {
	now := time.Now()
	st.mu.Lock()
	expired := st.sweepLocked(now, false)
	hs := st.byID[id]
	if hs != nil && !bytes.Equal(hs.owner.principal, principal) {
		hs = nil
	}
	if hs != nil {
		if !hs.established {
			hs.established = true
			st.fresh.Remove(hs.elem)
			hs.elem = st.lru.PushFront(hs)
		}
		st.touchLocked(hs, now)
	}
	st.mu.Unlock()
	for _, e := range expired {
		e.close(errSessionExpired)
	}
	return hs
}

// touchLocked marks a session used now.
func (st *sessionStore) touchLocked(hs *httpSession, now time.Time) {
	hs.lastUsed = now
	if hs.gone {
		return
	}
	if hs.established {
		st.lru.MoveToFront(hs.elem)
	} else {
		st.fresh.MoveToFront(hs.elem)
	}
	st.clients[hs.owner.client].MoveToFront(hs.clientElem)
}

// sweepLocked removes sessions idle past the timeout (at most once per
// sweepEvery, unless force) and returns them, to be closed outside the
// lock.
func (st *sessionStore) sweepLocked(now time.Time, force bool) []*httpSession {
	if st.idle < 0 || (!force && now.Sub(st.lastSweep) < sweepEvery) {
		return nil
	}
	st.lastSweep = now
	var out []*httpSession
	for _, l := range []*list.List{&st.fresh, &st.lru} {
		for e := l.Back(); e != nil; {
			hs := e.Value.(*httpSession)
			prev := e.Prev()
			if now.Sub(hs.lastUsed) <= st.idle {
				// The rest were used more recently; busy sessions do not
				// move, so a busy one at the back is stepped over.
				if hs.busy == 0 {
					break
				}
			} else if hs.busy == 0 {
				st.removeLocked(hs)
				out = append(out, hs)
			}
			e = prev
		}
	}
	return out
}

func (st *sessionStore) removeLocked(hs *httpSession) {
	if hs.gone {
		return
	}
	hs.gone = true
	delete(st.byID, hs.sess.id)
	if hs.established {
		st.lru.Remove(hs.elem)
	} else {
		st.fresh.Remove(hs.elem)
	}
	if l := st.clients[hs.owner.client]; l != nil {
		l.Remove(hs.clientElem)
		if l.Len() == 0 {
			delete(st.clients, hs.owner.client)
		}
	}
}

// idleVictim is the session to evict among those of l (most recently
// used first, each element's value an *httpSession): the least recently used idle fresh
// session, else the least recently used idle one; nil when all are busy.
func idleVictim(l *list.List) *httpSession {
	var victim *httpSession
	for e := l.Back(); e != nil; e = e.Prev() {
		hs := e.Value.(*httpSession)
		if hs.busy != 0 {
			continue
		}
		if !hs.established {
			return hs
		}
		if victim == nil {
			victim = hs
		}
	}
	return victim
}

// create opens a session for owner and counts it busy (the initialize
// request). It fails when owner has MaxSessionsPerClient sessions open
// and all of them busy (perClient), or MaxSessions are open and all of
// them busy.
func (st *sessionStore) create(owner sessionOwner) (hs *httpSession, perClient bool) {
	now := time.Now()
	var closed []*httpSession
	defer func() {
		for _, e := range closed {
			e.close(errSessionEvicted)
		}
	}()
	st.mu.Lock()
	defer st.mu.Unlock()
	closed = st.sweepLocked(now, len(st.byID) >= st.max)
	mine := st.clients[owner.client]
	if st.perClient > 0 && mine != nil && mine.Len() >= st.perClient {
		victim := idleVictim(mine)
		if victim == nil {
			return nil, true
		}
		st.removeLocked(victim)
		closed = append(closed, victim)
	}
	if len(st.byID) >= st.max {
		// Fresh sessions go first: scanning st.fresh finds an idle one
		// if there is any, and st.lru only when there is none.
		victim := idleVictim(&st.fresh)
		if victim == nil {
			victim = idleVictim(&st.lru)
		}
		if victim == nil {
			return nil, false
		}
		st.removeLocked(victim)
		closed = append(closed, victim)
	}
	hs = &httpSession{st: st, owner: owner, streams: map[int64]*sseStream{}, calls: map[string]*sessionCall{}, lastUsed: now, busy: 1}
	hs.ctx, hs.stop = context.WithCancelCause(context.Background())
	hs.sess = newSession(st.h.d, newSessionID(st.prefix), jsonrpc.NewPeer(&st.h.d.Dispatcher, hs.sendUnrelated))
	hs.sess.end = func() { st.remove(hs, errSessionEnded) }
	hs.elem = st.fresh.PushFront(hs)
	if mine = st.clients[owner.client]; mine == nil {
		mine = list.New()
		st.clients[owner.client] = mine
	}
	hs.clientElem = mine.PushFront(hs)
	st.byID[hs.sess.id] = hs
	st.h.d.addSession(hs.sess)
	return hs, false
}

// remove ends a session.
func (st *sessionStore) remove(hs *httpSession, cause error) {
	st.mu.Lock()
	st.removeLocked(hs)
	st.mu.Unlock()
	hs.close(cause)
}

// acquire and release count the work that keeps a session busy (never
// evicted or expired): requests in flight and attached connections.
func (st *sessionStore) acquire(hs *httpSession) {
	st.mu.Lock()
	hs.busy++
	st.touchLocked(hs, time.Now())
	st.mu.Unlock()
}

func (st *sessionStore) release(hs *httpSession) {
	st.mu.Lock()
	hs.busy--
	st.touchLocked(hs, time.Now())
	st.mu.Unlock()
}

// closeStreams ends the connections of the sessions' GET streams.
func (st *sessionStore) closeStreams() {
	st.mu.Lock()
	all := make([]*httpSession, 0, len(st.byID))
	for _, hs := range st.byID {
		all = append(all, hs)
	}
	st.mu.Unlock()
	for _, hs := range all {
		hs.mu.Lock()
		if s := hs.standalone; s != nil && s.conn != nil {
			s.conn.stop = true
			s.conn.signal()
		}
		hs.mu.Unlock()
	}
}

// sessions is how many sessions are open (for tests).
func (st *sessionStore) sessions() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.byID)
}

// close ends a session: its handlers are cancelled, requests sent to the
// client fail, its connections end, and its history is dropped.
func (hs *httpSession) close(cause error) {
	hs.mu.Lock()
	if hs.ended {
		hs.mu.Unlock()
		return
	}
	hs.ended = true
	var conns []*streamConn
	for _, s := range hs.streams {
		if s.conn != nil {
			conns = append(conns, s.conn)
		}
	}
	hs.streams, hs.order, hs.standalone, hs.histBytes = map[int64]*sseStream{}, nil, nil, 0
	hs.mu.Unlock()
	hs.st.h.d.removeSession(hs.sess)
	hs.stop(cause)
	hs.sess.peer.Close(errSessionEnded)
	for _, c := range conns {
		c.signal()
	}
}

// cancelCall cancels the request a notifications/cancelled names.
func (hs *httpSession) cancelCall(params []byte) {
	id := codec.Lookup(params, "requestId")
	if id == nil || !jsonrpc.IsRequestID(id) {
		return
	}
	hs.mu.Lock()
	if c := hs.calls[jsonrpc.IDKey(id)]; c != nil {
		// Under mu: once the cancellation is read, nothing more about
		// the request is sent.
		c.cancel(jsonrpc.ErrCancelledByPeer)
	}
	hs.mu.Unlock()
}

// sendUnrelated sends a message that belongs to no request on the session's
// GET stream (Session.send).
func (hs *httpSession) sendUnrelated(msg []byte) error {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.ended {
		return errSessionEnded
	}
	s := hs.standaloneLocked()
	return hs.appendLocked(s, msg, false)
}

func (hs *httpSession) standaloneLocked() *sseStream {
	if hs.standalone == nil {
		hs.standalone = &sseStream{id: 0}
		hs.streams[0] = hs.standalone
		hs.order = append(hs.order, hs.standalone)
		hs.histBytes += streamOverhead
	}
	return hs.standalone
}

// newStreamLocked begins a response stream; in a session of 2025-11-25 or
// later its first event is the priming event (an id and no data) that
// lets the client resume from the start.
func (hs *httpSession) newStreamLocked() *sseStream {
	hs.nextStream++
	s := &sseStream{id: hs.nextStream}
	hs.streams[s.id] = s
	hs.order = append(hs.order, s)
	hs.histBytes += streamOverhead
	if hs.primes() {
		hs.appendLocked(s, nil, true)
	}
	return s
}

// primes reports whether the session's streams begin with a priming event
// and may be polled: 2025-11-25 and later (the earlier clients do not
// expect events without data, nor streams that end before the response).
func (hs *httpSession) primes() bool {
	return spec.Of(hs.sess.ProtocolVersion(), true).PrimingEvents
}

// appendLocked adds an event to a stream and wakes its connection. It
// fails when the history has no room left once the events already written
// are forgotten, unless must (a response): then the events no connection
// is writing are forgotten too, oldest first, so that a client that
// abandons its streams cannot grow the history.
func (hs *httpSession) appendLocked(s *sseStream, data []byte, must bool) error {
	if hs.ended {
		return errSessionEnded
	}
	cost := len(data) + eventOverhead
	if hs.histBytes+cost > hs.st.history {
		hs.forgetLocked(cost, false)
		if hs.histBytes+cost > hs.st.history {
			if !must {
				return errHistoryFull
			}
			hs.forgetLocked(cost, true)
		}
	}
	s.seq++
	s.events = append(s.events, keptEvent{seq: s.seq, data: data})
	hs.histBytes += cost
	if s.conn != nil {
		s.conn.signal()
	}
	return nil
}

// forgetLocked makes room for need bytes of history: it forgets the oldest
// events that have been written (a client resuming from before them gets
// what is left), or with unwritten also those of streams no connection is
// writing, and streams that have ended and have nothing left.
func (hs *httpSession) forgetLocked(need int, unwritten bool) {
	keep := hs.order[:0]
	lost := 0
	for _, s := range hs.order {
		for len(s.events) > 0 && hs.histBytes+need > hs.st.history && (s.events[0].seq <= s.written || unwritten && s.conn == nil) {
			if s.events[0].seq > s.written {
				lost++
				s.gap = true
			}
			hs.histBytes -= len(s.events[0].data) + eventOverhead
			s.events[0] = keptEvent{}
			s.events = s.events[1:]
		}
		if s.ended && len(s.events) == 0 && s.conn == nil && s != hs.standalone {
			delete(hs.streams, s.id)
			hs.histBytes -= streamOverhead
			continue
		}
		keep = append(keep, s)
	}
	for i := len(keep); i < len(hs.order); i++ {
		hs.order[i] = nil
	}
	hs.order = keep
	if lost > 0 {
		hs.st.h.d.LogAttrs(slog.LevelWarn, "mcp: http: session history full (HTTPOptions.SessionHistoryBytes): forgot messages no client has read", slog.Int("forgotten", lost))
	}
}

// eventID names an event: the stream and the event's place in it, so that
// Last-Event-ID finds both.
func eventID(stream, seq int64) string {
	return strconv.FormatInt(stream, 10) + "-" + strconv.FormatInt(seq, 10)
}

func parseEventID(s string) (stream, seq int64, ok bool) {
	a, b, found := strings.Cut(s, "-")
	if !found {
		return 0, 0, false
	}
	x, err1 := strconv.ParseInt(a, 10, 64)
	y, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || x < 0 || y < 0 {
		return 0, 0, false
	}
	return x, y, true
}

// servePost answers a POST: initialize without a session opens one; any
// other message names its session.
func (st *sessionStore) servePost(w http.ResponseWriter, r *http.Request) {
	h := st.h
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
	batch := false
	var env jsonrpc.Envelope
	if i := codec.FirstByte(body); i >= 0 && body[i] == '[' {
		batch = true
	} else {
		var errResp []byte
		env, errResp = h.d.ReadEnvelope(body)
		if errResp != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write(errResp)
			return
		}
	}
	if _, named := r.Header[spec.HeaderSessionID]; !named {
		if batch || env.Method != spec.MethodInitialize || env.ID == nil {
			if v, present, ok := headerOne(r.Header, spec.HeaderProtocolVersion); h.opts.Fallback != nil && (!ok || present && !h.supports(v)) {
				r.Body = newPassedBody(body)
				r.ContentLength = int64(len(body))
				h.opts.Fallback.ServeHTTP(w, r)
				return
			}
			// "Servers that require a session ID SHOULD respond to
			// requests without an Mcp-Session-Id header (other than
			// initialization) with HTTP 400 Bad Request."
			id := env.ID
			if !env.IDOK {
				id = nil
			}
			st.refuseID(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest, "bad request: the Mcp-Session-Id header is missing; a session begins with initialize (alone, not in a batch)")
			return
		}
		st.initialize(w, r, env, body, acceptJSON, acceptSSE)
		return
	}
	id := env.ID
	if !env.IDOK {
		id = nil
	}
	hs := st.sessionOf(w, r, id)
	if hs == nil || !st.checkVersion(w, r, hs, id) {
		return
	}
	w.Header().Set(spec.HeaderSessionID, hs.sess.id)
	switch {
	case batch:
		st.serveRequest(w, r, hs, env, body, true, acceptJSON, acceptSSE, nil)
	case env.Method == spec.MethodInitialize && env.ID != nil:
		st.refuseID(w, http.StatusBadRequest, env.ID, jsonrpc.CodeInvalidRequest, "bad request: the session is initialized already; to start a new one, send initialize without Mcp-Session-Id")
	case env.ID == nil || env.Response && env.Method == "":
		// A notification, or the client's response to a request of the
		// server: accepted with 202.
		st.acquire(hs)
		if env.Method == spec.MethodCancelled {
			hs.cancelCall(env.Params)
		}
		ctx := jsonrpc.WithLink(r.Context(), &sessionLink{hs: hs, r: r})
		h.d.HandleEnvelope(ctx, env, body)
		st.release(hs)
		w.WriteHeader(http.StatusAccepted)
	default:
		st.serveRequest(w, r, hs, env, body, false, acceptJSON, acceptSSE, nil)
	}
}

// initialize opens a session for an initialize request and answers it; the
// session is kept if the answer is a result.
func (st *sessionStore) initialize(w http.ResponseWriter, r *http.Request, env jsonrpc.Envelope, body []byte, acceptJSON, acceptSSE bool) {
	if v, present, ok := headerOne(r.Header, spec.HeaderProtocolVersion); !ok || present && !st.h.supports(v) {
		st.refuseID(w, http.StatusBadRequest, env.ID, jsonrpc.CodeInvalidRequest, "bad request: unsupported MCP-Protocol-Version "+codec.Quote(v)+"; supported: "+codec.QuoteList(st.h.d.Versions))
		return
	}
	hs, perClient := st.create(st.ownerOf(r))
	if hs == nil {
		w.Header().Set("Retry-After", "5")
		st.refuseID(w, http.StatusServiceUnavailable, env.ID, jsonrpc.CodeInternalError, sessionsBusy(perClient))
		return
	}
	w.Header().Set(spec.HeaderSessionID, hs.sess.id)
	st.serveRequest(w, r, hs, env, body, false, acceptJSON, acceptSSE, func(resp []byte) {
		// The session lives if initialize succeeds, however the answer
		// travels.
		if resp == nil || responseIsError(resp) {
			st.remove(hs, errSessionEnded)
		}
	})
	st.release(hs) // create counted the session busy until now
}

// requestLink is the link of the context ServerOptions.Principal reads
// for a session's owner: the HTTP request, before any message is handled.
type requestLink struct {
	r *http.Request
	d *jsonrpc.Dispatcher
}

func (requestLink) Notify([]byte) error {
	return errors.New("mcp: no message is being handled (the context names a session's owner)")
}
func (requestLink) Peer() *jsonrpc.Peer               { return nil }
func (l requestLink) Dispatcher() *jsonrpc.Dispatcher { return l.d }
func (l requestLink) HTTPRequest() *http.Request      { return l.r }
func (requestLink) Progress(float64) error {
	return errors.New("mcp: no request is being handled (the context names a session's owner)")
}

// sessionsBusy is the message of the 503 answering an initialize that
// finds no session to replace.
func sessionsBusy(perClient bool) string {
	if perClient {
		return "service unavailable: every session this client may keep (HTTPOptions.MaxSessionsPerClient) is busy; try again later"
	}
	return "service unavailable: every session this server keeps (HTTPOptions.MaxSessions) is busy; try again later"
}

// responseIsError reports whether a response object is an error response.
func responseIsError(resp []byte) bool {
	return codec.Lookup(resp, "error") != nil
}

// sessionLink is the link of a notification or response handled in a
// session: what a handler sends goes on the session's GET stream.
type sessionLink struct {
	hs *httpSession
	r  *http.Request
	jsonrpc.RequestProgress
}

func (l *sessionLink) Notify(msg []byte) error         { return l.hs.sendUnrelated(msg) }
func (l *sessionLink) Peer() *jsonrpc.Peer             { return l.hs.sess.peer }
func (l *sessionLink) Dispatcher() *jsonrpc.Dispatcher { return &l.hs.st.h.d.Dispatcher }
func (l *sessionLink) HTTPRequest() *http.Request      { return l.r }

// sessionExchange is one request (or batch) served in a session: its
// handler runs on a goroutine of its own, and the POST's goroutine writes
// what it produces, a JSON response or a stream.
type sessionExchange struct {
	hs         *httpSession
	r          *http.Request
	call       *sessionCall
	acceptJSON bool
	acceptSSE  bool
	// direct sends everything on the session's GET stream and answers the
	// POST with 202 at once (the HTTP+SSE transport).
	direct bool
	wake   chan struct{}
	jsonrpc.RequestProgress

	// Under hs.mu:
	stream   *sseStream // the response stream, once there is one
	answered bool       // the handler is done
	resp     []byte     // the response, when there is no stream
}

func (x *sessionExchange) Peer() *jsonrpc.Peer             { return x.hs.sess.peer }
func (x *sessionExchange) Dispatcher() *jsonrpc.Dispatcher { return &x.hs.st.h.d.Dispatcher }
func (x *sessionExchange) HTTPRequest() *http.Request      { return x.r }

func (x *sessionExchange) signal() {
	select {
	case x.wake <- struct{}{}:
	default:
	}
}

// cancelledLocked reports whether the client cancelled the request.
func (x *sessionExchange) cancelledLocked() bool {
	return errors.Is(context.Cause(x.call.ctx), jsonrpc.ErrCancelledByPeer)
}

func (x *sessionExchange) cancelled() bool {
	x.hs.mu.Lock()
	defer x.hs.mu.Unlock()
	return x.cancelledLocked()
}

// Notify sends a message about the request on its response stream,
// starting the stream if need be. A client that takes JSON only gets it
// on the session's GET stream instead.
func (x *sessionExchange) Notify(msg []byte) error {
	hs := x.hs
	hs.mu.Lock()
	defer hs.mu.Unlock()
	switch {
	case x.answered || x.cancelledLocked():
		return jsonrpc.ErrRequestDone
	case hs.ended:
		return errSessionEnded
	case x.direct || !x.acceptSSE:
		return hs.appendLocked(hs.standaloneLocked(), msg, false)
	}
	if x.stream == nil {
		x.stream = hs.newStreamLocked()
		x.signal()
	} else if x.stream.ended {
		return errStreamClosed
	}
	return hs.appendLocked(x.stream, msg, false)
}

// finish takes the handler's response (nil: none).
func (x *sessionExchange) finish(resp []byte) {
	hs := x.hs
	hs.mu.Lock()
	if x.cancelledLocked() {
		resp = nil
	}
	x.answered = true
	switch {
	case hs.ended:
		x.resp = resp
	case x.direct:
		if resp != nil {
			hs.appendLocked(hs.standaloneLocked(), resp, true)
		}
	case x.stream == nil && resp != nil && !x.acceptJSON:
		// The client takes only event streams.
		x.stream = hs.newStreamLocked()
		fallthrough
	case x.stream != nil:
		if resp != nil && !x.stream.ended {
			hs.appendLocked(x.stream, resp, true)
		}
		x.stream.ended = true
		if x.stream.conn != nil {
			x.stream.conn.signal()
		}
	default:
		x.resp = resp
	}
	hs.mu.Unlock()
	x.signal()
}

// CloseStream is CloseSSEStream.
func (x *sessionExchange) CloseStream(retry time.Duration) error {
	hs := x.hs
	hs.mu.Lock()
	defer hs.mu.Unlock()
	switch {
	case x.answered || x.cancelledLocked():
		return jsonrpc.ErrRequestDone
	case hs.ended:
		return errSessionEnded
	case x.direct || !x.acceptSSE:
		return errors.New("mcp: CloseSSEStream: the request's response is not a stream the client can resume")
	case !hs.primes():
		return errors.New("mcp: CloseSSEStream: the session's protocol version " + codec.Quote(hs.sess.ProtocolVersion()) + " does not let a server end a stream before its response (2025-11-25 does)")
	}
	if x.stream == nil {
		x.stream = hs.newStreamLocked()
	}
	if retry <= 0 {
		retry = time.Millisecond
	}
	x.stream.closeRetry = retry
	if x.stream.conn != nil {
		x.stream.conn.signal()
	}
	x.signal()
	return nil
}

// serveRequest runs a request (or batch) of a session and answers the POST;
// done, if set, gets the response (nil: none) once the handler is done.
func (st *sessionStore) serveRequest(w http.ResponseWriter, r *http.Request, hs *httpSession, env jsonrpc.Envelope, body []byte, batch, acceptJSON, acceptSSE bool, done func([]byte)) {
	call := &sessionCall{}
	call.ctx, call.cancel = context.WithCancelCause(context.WithoutCancel(r.Context()))
	stopWith := context.AfterFunc(hs.ctx, func() { call.cancel(context.Cause(hs.ctx)) })
	if !batch {
		call.key = jsonrpc.IDKey(env.ID)
		hs.mu.Lock()
		_, dup := hs.calls[call.key]
		if !dup && !hs.ended {
			hs.calls[call.key] = call
		}
		hs.mu.Unlock()
		if dup {
			stopWith()
			call.cancel(nil)
			st.refuseID(w, http.StatusBadRequest, env.ID, jsonrpc.CodeInvalidRequest, "invalid request: the id is already used by a request in progress in this session")
			if done != nil {
				done(nil)
			}
			return
		}
	}
	x := &sessionExchange{hs: hs, r: r, call: call, acceptJSON: acceptJSON, acceptSSE: acceptSSE, wake: make(chan struct{}, 1)}
	ctx := jsonrpc.WithLink(call.ctx, x)
	st.acquire(hs)
	go func() {
		defer st.release(hs)
		defer call.cancel(nil)
		defer stopWith()
		var resp []byte
		if batch {
			resp = st.h.d.Handle(ctx, body)
		} else {
			resp = st.h.d.HandleEnvelope(ctx, env, body)
		}
		if call.key != "" {
			hs.mu.Lock()
			if hs.calls[call.key] == call {
				delete(hs.calls, call.key)
			}
			hs.mu.Unlock()
		}
		x.finish(resp)
		if done != nil {
			done(resp)
		}
	}()
	x.answer(w, r)
}

// answer writes the POST's response: JSON once the handler answers, or the
// response stream once there is one. A client that goes away before either
// cancels the handler: nobody could receive its answer. A stream's handler
// runs on; the client can resume the stream.
func (x *sessionExchange) answer(w http.ResponseWriter, r *http.Request) {
	hs := x.hs
	for {
		hs.mu.Lock()
		s, answered, resp := x.stream, x.answered, x.resp
		hs.mu.Unlock()
		switch {
		case s != nil:
			hs.pump(w, r, s, 0, false)
			return
		case answered && resp != nil:
			w.Header()["Content-Type"] = contentTypeJSON
			w.Header()["Content-Length"] = []string{strconv.Itoa(len(resp))}
			status := hs.st.h.statusOf(resp)
			setRetryAfter(w.Header(), resp, status)
			w.WriteHeader(status)
			writeTimed(w, resp, hs.st.h.opts.WriteTimeout)
			return
		case answered && !x.cancelled():
			// A batch of notifications and responses only.
			w.WriteHeader(http.StatusAccepted)
			return
		case answered:
			// Cancelled by the client: no response. A stream that ends
			// without one, or no content.
			if x.acceptSSE {
				w.Header().Set("Content-Type", "text/event-stream")
				w.Header().Set("Cache-Control", "no-cache")
				w.WriteHeader(http.StatusOK)
			} else {
				w.WriteHeader(http.StatusNoContent)
			}
			return
		}
		select {
		case <-x.wake:
		case <-r.Context().Done():
			hs.mu.Lock()
			started := x.stream != nil
			hs.mu.Unlock()
			if !started {
				x.call.cancel(errClientGone)
				return
			}
		}
	}
}

// writeTimed writes b within timeout (non-positive: no limit) and flushes.
func writeTimed(w http.ResponseWriter, b []byte, timeout time.Duration) error {
	rc := http.NewResponseController(w)
	deadline := timeout > 0 && rc.SetWriteDeadline(time.Now().Add(timeout)) == nil
	_, err := w.Write(b)
	if err == nil {
		if ferr := rc.Flush(); ferr != nil && !errors.Is(ferr, http.ErrNotSupported) {
			err = ferr
		}
	}
	if deadline {
		rc.SetWriteDeadline(time.Time{})
	}
	return err
}

// pump attaches the connection of w to stream s and writes its events after
// seq after until the stream ends, the session ends, the client goes away,
// another connection takes the stream over, or the stream is polled
// (CloseSSEStream, PollAfter). headersSent is set when the caller wrote
// the response headers already.
func (hs *httpSession) pump(w http.ResponseWriter, r *http.Request, s *sseStream, after int64, headersSent bool) {
	st := hs.st
	opts := &st.h.opts
	c := &streamConn{wake: make(chan struct{}, 1)}
	hs.mu.Lock()
	if old := s.conn; old != nil {
		old.stop = true
		old.signal()
	}
	s.conn = c
	hs.mu.Unlock()
	st.acquire(hs)
	defer st.release(hs)
	defer func() {
		hs.mu.Lock()
		if s.conn == c {
			s.conn = nil
		}
		hs.mu.Unlock()
	}()
	if !headersSent {
		hd := w.Header()
		hd.Set("Content-Type", "text/event-stream")
		hd.Set("Cache-Control", "no-cache")
		hd.Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		if err := writeTimed(w, nil, opts.WriteTimeout); err != nil {
			return
		}
	}
	var keepAlive, poll <-chan time.Time
	if opts.KeepAlive > 0 {
		t := time.NewTicker(opts.KeepAlive)
		defer t.Stop()
		keepAlive = t.C
	}
	if opts.PollAfter > 0 && hs.primes() && !st.oldSSE {
		t := time.NewTimer(opts.PollAfter)
		defer t.Stop()
		poll = t.C
	}
	cursor := after
	var buf []byte
	for {
		hs.mu.Lock()
		if hs.ended || c.stop {
			hs.mu.Unlock()
			return
		}
		var batch []keptEvent
		for _, ev := range s.events {
			if ev.seq > cursor {
				batch = append(batch, ev)
			}
		}
		ended, last := s.ended, s.seq
		retry := s.closeRetry
		s.closeRetry = 0
		hs.mu.Unlock()
		buf = buf[:0]
		for _, ev := range batch {
			buf = appendKeptEvent(buf, s.id, ev)
			cursor = ev.seq
		}
		if cursor < last && len(batch) == 0 {
			// Forgotten before anyone wrote them: go on after the gap.
			cursor = last
		}
		if retry > 0 {
			// SSE polling: an event with an id and the retry field, then
			// the connection ends; the stream does not.
			buf = append(buf, "id: "...)
			buf = append(buf, eventID(s.id, cursor)...)
			buf = append(buf, "\nretry: "...)
			buf = strconv.AppendInt(buf, max(retry.Milliseconds(), 1), 10)
			buf = append(buf, "\ndata: \n\n"...)
		}
		if len(buf) > 0 {
			if err := writeTimed(w, buf, opts.WriteTimeout); err != nil {
				st.h.d.LogAttrs(slog.LevelDebug, "mcp: http: write failed", slog.String("error", err.Error()))
				return
			}
			hs.mu.Lock()
			if cursor > s.written {
				s.written = cursor
			}
			hs.mu.Unlock()
		}
		if retry > 0 || ended && cursor >= last {
			return
		}
		select {
		case <-c.wake:
		case <-keepAlive:
			if err := writeTimed(w, []byte(":\n\n"), opts.WriteTimeout); err != nil {
				return
			}
		case <-poll:
			hs.mu.Lock()
			if s.closeRetry <= 0 {
				s.closeRetry = opts.PollRetry
			}
			hs.mu.Unlock()
			poll = nil
		case <-r.Context().Done():
			return
		}
	}
}

// appendKeptEvent appends one event of stream with its id.
func appendKeptEvent(b []byte, stream int64, ev keptEvent) []byte {
	b = append(b, "id: "...)
	b = append(b, eventID(stream, ev.seq)...)
	b = append(b, '\n')
	if ev.data == nil {
		return append(b, "data: \n\n"...)
	}
	return appendSSEEvent(b, ev.data)
}

// serveGet opens the session's GET stream, or resumes the stream a
// Last-Event-ID names.
func (st *sessionStore) serveGet(w http.ResponseWriter, r *http.Request) {
	if _, acceptSSE := accepts(r.Header["Accept"]); !acceptSSE || len(r.Header["Accept"]) == 0 {
		st.h.refuse(w, http.StatusNotAcceptable, "not acceptable: a GET opens a stream of text/event-stream; the Accept header must list it")
		return
	}
	hs := st.sessionOf(w, r, nil)
	if hs == nil || !st.checkVersion(w, r, hs, nil) {
		return
	}
	w.Header().Set(spec.HeaderSessionID, hs.sess.id)
	if last, present, _ := headerOne(r.Header, "Last-Event-Id"); present {
		sid, seq, ok := parseEventID(last)
		hs.mu.Lock()
		s := hs.streams[sid]
		known := ok && s != nil && seq <= s.seq
		hs.mu.Unlock()
		if !known {
			st.refuseID(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, "bad request: the Last-Event-ID "+codec.Quote(last)+" names no stream this session keeps (its history may have been forgotten)")
			return
		}
		hs.pump(w, r, s, seq, false)
		return
	}
	hs.mu.Lock()
	if hs.ended {
		hs.mu.Unlock()
		st.refuseID(w, http.StatusNotFound, nil, jsonrpc.CodeInvalidRequest, "session not found: it has ended")
		return
	}
	s := hs.standaloneLocked()
	if s.conn != nil {
		hs.mu.Unlock()
		// One GET stream at a time: the server must not send a message
		// on two streams, and a second listener would split them.
		st.refuseID(w, http.StatusConflict, nil, jsonrpc.CodeInvalidRequest, "conflict: the session's GET stream is open already; resume a stream with Last-Event-ID")
		return
	}
	from := s.written
	if hs.primes() {
		// An id to resume from, before any message.
		hs.appendLocked(s, nil, true)
	}
	hs.mu.Unlock()
	hs.pump(w, r, s, from, false)
}

// serveDelete ends the session the request names.
func (st *sessionStore) serveDelete(w http.ResponseWriter, r *http.Request) {
	hs := st.sessionOf(w, r, nil)
	if hs == nil {
		return
	}
	st.remove(hs, errSessionDeleted)
	w.WriteHeader(http.StatusNoContent)
}

// serveOldSSE serves the HTTP+SSE transport of revisions before
// 2025-03-26: a GET opens a session and its stream, whose first event
// (endpoint) names the URL to POST messages to; the POSTs are accepted
// with 202, and every message of the server, responses included, goes on
// the stream. The session ends with the stream.
func (st *sessionStore) serveOldSSE(w http.ResponseWriter, r *http.Request) {
	h := st.h
	switch r.Method {
	case http.MethodGet:
		if _, acceptSSE := accepts(r.Header["Accept"]); !acceptSSE {
			h.refuse(w, http.StatusNotAcceptable, "not acceptable: the stream is text/event-stream")
			return
		}
		hs, perClient := st.create(st.ownerOf(r))
		if hs == nil {
			w.Header().Set("Retry-After", "5")
			h.refuse(w, http.StatusServiceUnavailable, sessionsBusy(perClient))
			return
		}
		defer st.remove(hs, errClientGone)
		hd := w.Header()
		hd.Set("Content-Type", "text/event-stream")
		hd.Set("Cache-Control", "no-cache")
		hd.Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		endpoint := r.URL.EscapedPath() + "?sessionId=" + hs.sess.id
		// The session stays busy (create counted it) until the stream
		// ends, and the session with it.
		if writeTimed(w, []byte("event: endpoint\ndata: "+endpoint+"\n\n"), h.opts.WriteTimeout) != nil {
			return
		}
		hs.mu.Lock()
		s := hs.standaloneLocked()
		hs.mu.Unlock()
		hs.pump(w, r, s, 0, true)
	case http.MethodPost:
		if !isJSONContentType(r.Header["Content-Type"]) {
			h.refuse(w, http.StatusUnsupportedMediaType, "unsupported media type: the body must be application/json")
			return
		}
		hs := st.lookup(r.URL.Query().Get("sessionId"), st.ownerOf(r).principal)
		if hs == nil {
			h.refuse(w, http.StatusNotFound, "session not found: open a stream with GET first and POST to the endpoint it names")
			return
		}
		body, status, err := h.readBody(w, r)
		if err != nil {
			h.refuse(w, status, err.Error())
			return
		}
		env, errResp := h.d.ReadEnvelope(body)
		if errResp != nil {
			// The error response goes on the stream, as every response.
			hs.sendUnrelated(errResp)
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if env.ID == nil || env.Response && env.Method == "" {
			st.acquire(hs)
			if env.Method == spec.MethodCancelled {
				hs.cancelCall(env.Params)
			}
			ctx := jsonrpc.WithLink(r.Context(), &sessionLink{hs: hs, r: r})
			h.d.HandleEnvelope(ctx, env, body)
			st.release(hs)
			w.WriteHeader(http.StatusAccepted)
			return
		}
		st.serveDirect(hs, r, env, body)
		w.WriteHeader(http.StatusAccepted)
	default:
		if h.opts.Fallback != nil {
			h.opts.Fallback.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Allow", "GET, POST")
		h.refuse(w, http.StatusMethodNotAllowed, "method not allowed: the SSE endpoint takes GET, and POST to the endpoint it names")
	}
}

// serveDirect runs a request of the HTTP+SSE transport; its messages and
// response go on the session's stream.
func (st *sessionStore) serveDirect(hs *httpSession, r *http.Request, env jsonrpc.Envelope, body []byte) {
	call := &sessionCall{key: jsonrpc.IDKey(env.ID)}
	call.ctx, call.cancel = context.WithCancelCause(context.WithoutCancel(r.Context()))
	stopWith := context.AfterFunc(hs.ctx, func() { call.cancel(context.Cause(hs.ctx)) })
	hs.mu.Lock()
	_, dup := hs.calls[call.key]
	if !dup && !hs.ended {
		hs.calls[call.key] = call
	}
	hs.mu.Unlock()
	if dup {
		stopWith()
		call.cancel(nil)
		hs.sendUnrelated(st.h.d.ErrorResponse(env.ID, jsonrpc.CodeInvalidRequest, "invalid request: the id is already used by a request in progress in this session", nil))
		return
	}
	x := &sessionExchange{hs: hs, r: r, call: call, direct: true, acceptSSE: true, wake: make(chan struct{}, 1)}
	ctx := jsonrpc.WithLink(call.ctx, x)
	st.acquire(hs)
	go func() {
		defer st.release(hs)
		defer call.cancel(nil)
		defer stopWith()
		resp := st.h.d.HandleEnvelope(ctx, env, body)
		hs.mu.Lock()
		if hs.calls[call.key] == call {
			delete(hs.calls, call.key)
		}
		hs.mu.Unlock()
		x.finish(resp)
	}()
}
