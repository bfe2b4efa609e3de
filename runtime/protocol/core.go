package protocol

import (
	"context"
	"io"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/spec"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// This file is the MCP part of a generated dispatcher (Core): the
// JSON-RPC engine (jsonrpc.Dispatcher, embedded) and what MCP adds to it,
// through the jsonrpc.Protocol hooks: sessions, the eras of the revisions a
// package serves, tasks, the request metadata of 2026-07-28.

// Core is the runtime's part of a generated MCP dispatcher. Set its fields
// (and those of the embedded Dispatcher), then call Init once; then it is
// safe for concurrent use.
type Core struct {
	jsonrpc.Dispatcher

	// The server side sets these.
	//
	// Modern marks a revision with per-request _meta (2026-07-28): the
	// header rules of its HTTP transport apply, and extension methods
	// check the protocol version.
	Modern bool
	// Versions are the protocol versions the server supports.
	Versions []string
	// State seals and opens the requestState of multi round-trip requests.
	State stateSealer
	// CheckInput checks an input response against the result type of the
	// method of the input request it answers; nil checks nothing.
	CheckInput func(method string, raw []byte) error
	// NameParams maps extension methods whose HTTP requests carry an
	// Mcp-Name header to the params member the header mirrors (the tasks
	// extension's taskId).
	NameParams map[string]string
	// tasks serves the tasks extension, if the server has a task store.
	tasks *taskStore
	// sessions are the sessions being served (connections served by
	// Serve, HTTP sessions), for notifications to all of them.
	sessions sessionSet
	// Older, if set, serves the clients of the older revisions the package
	// converts to (the initialize era) with this dispatcher's handlers;
	// Route picks it for their messages on a connection served by Serve,
	// and the HTTP handler sends it their requests.
	Older *Core
	// batchesBySession, set on such an older dispatcher, answers batches
	// in the sessions of a revision with batches (2025-03-26).
	batchesBySession bool
	// Middleware, if set, wraps the serving of every request and
	// notification the dispatcher's method table serves, and the sending
	// of the requests a server sends its client (docs/middleware.md).
	Middleware Middleware
	mw         *chain
	// toolSource, if set, gives the x-mcp-header bindings of the tools it
	// has (a Server's tool set), so that the HTTP handler need not ask
	// tools/list for them.
	toolSource interface {
		toolHeaders(name string) ([]paramHeader, bool)
	}

	// stopping are the functions a graceful stop runs first (OnStop).
	stopMu   sync.Mutex
	stopping []func()

	once sync.Once
}

// OnStop registers f to run when a transport serving c stops gracefully
// (the context of Serve or ListenAndServe is done), before the handlers
// still running are cancelled: a Server's set registers the end of its
// subscriptions/listen streams, which then end with their result, as
// basic/patterns/subscriptions.mdx has a server end them.
func (c *Core) OnStop(f func()) {
	c.stopMu.Lock()
	defer c.stopMu.Unlock()
	c.stopping = append(c.stopping, f)
}

// stop runs the functions OnStop registered.
func (c *Core) stop() {
	c.stopMu.Lock()
	fs := c.stopping
	c.stopMu.Unlock()
	for _, f := range fs {
		f()
	}
}

// UseToolSet makes c read the x-mcp-header bindings of the tools in s
// from s itself; tools s does not have are looked up in tools/list as
// before. Call it before serving.
func (c *Core) UseToolSet(s interface {
	toolHeaders(name string) ([]paramHeader, bool)
}) {
	c.toolSource = s
}

// Init makes c ready to serve: it takes part in handling messages, and
// MCP's notifications/cancelled cancels requests. Handle, Serve,
// ServeStream, NewConn and the HTTP handlers call it; call it yourself
// before using the embedded Dispatcher directly.
func (c *Core) Init() {
	c.once.Do(func() {
		c.Dispatcher.Protocol = c
		c.Dispatcher.Cancel, c.Dispatcher.CancelID = spec.MethodCancelled, "requestId"
		if c.Dispatcher.Stopping == nil {
			c.Dispatcher.Stopping = c.stop
		}
		if c.Dispatcher.TooLarge == nil {
			c.Dispatcher.TooLarge = c.tooLarge
		}
		if c.mw = newChain(c.Middleware); c.mw != nil {
			c.Dispatcher.Around = c.around
		}
	})
}

// Handle answers one message (or batch); see jsonrpc.Dispatcher.Handle.
func (c *Core) Handle(ctx context.Context, msg []byte) []byte {
	c.Init()
	return c.Dispatcher.Handle(ctx, msg)
}

// Serve serves a stream of newline-delimited messages; see
// jsonrpc.Dispatcher.Serve.
func (c *Core) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	c.Init()
	return c.Dispatcher.Serve(ctx, in, out)
}

// ServeStream serves a stream of messages; see
// jsonrpc.Dispatcher.ServeStream.
func (c *Core) ServeStream(ctx context.Context, s jsonrpc.Stream) error {
	c.Init()
	return c.Dispatcher.ServeStream(ctx, s)
}

// NewConn returns a connection over s; see jsonrpc.Dispatcher.NewConn.
func (c *Core) NewConn(s jsonrpc.Stream) *jsonrpc.Conn {
	c.Init()
	return c.Dispatcher.NewConn(s)
}

// coreOf returns the Core a jsonrpc.Dispatcher is part of, or nil.
func coreOf(d *jsonrpc.Dispatcher) *Core {
	if d == nil {
		return nil
	}
	c, _ := d.Protocol.(*Core)
	return c
}

// server reports whether the dispatcher serves clients (the server side
// sets the versions it supports).
func (c *Core) server() bool { return len(c.Versions) > 0 }

// AddExtensions adds extension methods to the method table. In revisions
// with per-request _meta the dispatcher first checks the protocol version
// the params declare, as it does for every request.
func (c *Core) AddExtensions(ext map[string]jsonrpc.ExtensionMethod) {
	var check func([]byte) error
	if c.Modern {
		check = func(params []byte) error { return CheckProtocolVersion(params, c.Versions) }
	}
	c.Dispatcher.AddExtensions(ext, check)
}

// Route is the jsonrpc.Protocol hook that picks the dispatcher for a
// message read on a connection served by Serve (peer), when c also serves
// clients of older revisions: c.Older for a message without the
// per-request protocol version of c's revision that opens the initialize
// handshake, belongs to a session that made it, or is a ping, and for a
// batch of a 2025-03-26 session; c otherwise. Over HTTP the handler routes
// by headers instead.
func (c *Core) Route(ctx context.Context, d *jsonrpc.Dispatcher, peer *jsonrpc.Peer, env *jsonrpc.Envelope) (*jsonrpc.Dispatcher, context.Context) {
	sess := sessionOf(peer)
	if c.Older == nil || sess == nil || sess.core != c {
		return d, ctx
	}
	reroute := func() (*jsonrpc.Dispatcher, context.Context) {
		o := &c.Older.Dispatcher
		return o, jsonrpc.WithLink(ctx, jsonrpc.Rerouted{Link: jsonrpc.LinkFromContext(ctx), To: o})
	}
	if env == nil {
		if batches(sess) {
			return reroute()
		}
		return d, ctx
	}
	if codec.Lookup(codec.Lookup(env.Params, spec.MemberMeta), spec.MetaProtocolVersion) != nil {
		return d, ctx
	}
	if env.Method == spec.MethodInitialize || env.Method == spec.MethodPing || sess.ProtocolVersion() != "" {
		return reroute()
	}
	return d, ctx
}

// AllowsBatch is the jsonrpc.Protocol hook that answers batches in the
// sessions that negotiated 2025-03-26, for the dispatcher of the older
// revisions.
func (c *Core) AllowsBatch(d *jsonrpc.Dispatcher, peer *jsonrpc.Peer) bool {
	if !c.batchesBySession {
		return false
	}
	sess := sessionOf(peer)
	return batches(sess)
}

// Before is the jsonrpc.Protocol hook that checks a request in a session
// before its method runs, and gives the request the task store.
func (c *Core) Before(ctx context.Context, d *jsonrpc.Dispatcher, peer *jsonrpc.Peer, env *jsonrpc.Envelope) (context.Context, error) {
	if sess := sessionOf(peer); sess != nil && c.server() {
		// (notifications/cancelled is acted on by the transport, in the
		// order it reads messages, not here: handled later, it could hit
		// a newer request that reuses the id.)
		if err := sess.before(env); err != nil {
			return ctx, err
		}
	}
	if c.tasks != nil {
		ctx = context.WithValue(ctx, taskStoreKey{}, c.tasks)
	}
	return ctx, nil
}

// After is the jsonrpc.Protocol hook that records in the session what a
// request or notification that succeeded tells about the client.
func (c *Core) After(ctx context.Context, d *jsonrpc.Dispatcher, peer *jsonrpc.Peer, env *jsonrpc.Envelope, resp []byte) {
	if sess := sessionOf(peer); sess != nil && c.server() {
		sess.observe(env.Method, env.Params, resp)
	}
}

// Read is the jsonrpc.Protocol hook told of notifications as a connection
// reads them: notifications/initialized counts at once, not when its turn
// comes (the requests the client sends next may run first, and may send
// requests of their own, which wait for it).
func (c *Core) Read(d *jsonrpc.Dispatcher, peer *jsonrpc.Peer, env *jsonrpc.Envelope) {
	if env.Method == spec.MethodInitialized && c.server() {
		if sess := sessionOf(peer); sess != nil {
			sess.observe(env.Method, env.Params, nil)
		}
	}
}

// Opened is the jsonrpc.Protocol hook that gives a connection's peer its
// session, which the dispatcher's broadcasts reach.
func (c *Core) Opened(d *jsonrpc.Dispatcher, peer *jsonrpc.Peer) {
	c.addSession(newSession(c, "", peer))
}

// Closed is the jsonrpc.Protocol hook that forgets a connection's session.
func (c *Core) Closed(d *jsonrpc.Dispatcher, peer *jsonrpc.Peer) {
	if s := sessionOf(peer); s != nil {
		c.removeSession(s)
	}
}

// batches reports whether sess negotiated a revision with JSON-RPC batches
// (spec.Revision.Batches). A dispatcher that serves several revisions
// (Core.Older) answers batches in those sessions only.
func batches(sess *Session) bool {
	return sess != nil && spec.Of(sess.ProtocolVersion(), true).Batches
}
