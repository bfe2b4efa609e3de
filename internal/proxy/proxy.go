// Package proxy is mcpgen proxy's core: a 2026-07-28 server whose handler
// forwards every request to an upstream server through a 2026-07-28
// client. Each side negotiates its own revision (the generated package's
// dispatcher serves the clients of 2025-11-25, 2025-06-18 and 2025-03-26
// through its conversions, and its client talks to servers of those
// revisions), so a client and a server of different revisions meet in the
// proxy's 2026-07-28 values. What one side cannot carry is the conversion
// error of the runtime, answered as a JSON-RPC error.
//
// The proxy checks every message it forwards against its side's revision
// schema (Tap), and serves server/discover, the lists and resources/read
// from a Store while the result's ttlMs says it is fresh, by its
// cacheScope: public results for every client, private ones per principal.
package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// Options configure New.
type Options struct {
	// Upstream is the transport to the server the proxy forwards to (a
	// CommandTransport, an HTTPTransport). An HTTPTransport without a
	// Client is given one that keeps up to 256 connections open, as many
	// as the proxy's concurrent requests need.
	Upstream mcp.Transport
	// Cache, if set, keeps the cacheable results (server/discover is
	// answered by the proxy itself; tools/list, prompts/list,
	// resources/list, resources/templates/list, resources/read) while they
	// are fresh.
	Cache Store
	// Principal names the principal of a downstream request for private
	// cache entries and requestState (the verified subject of its token,
	// say). Nil or "": the downstream session's id, if the request has one;
	// otherwise private results are not cached.
	Principal func(context.Context) string
	// Strict refuses a message that breaks its revision's schema; without
	// it the violation is logged and the message forwarded.
	Strict bool
	// Logger receives the violations and what goes wrong outside a
	// response; nil logs nothing.
	Logger *slog.Logger
	// ProbeTimeout bounds the upstream's server/discover probe (0: the
	// client's default, 10 s).
	ProbeTimeout time.Duration
	// RequestTimeout bounds each forwarded request (0: 5 minutes).
	RequestTimeout time.Duration
	// InitializeVersions, if set, are the initialize-era revisions the
	// proxy offers its clients, preferred first (each one of
	// mcp.OlderRevisions): a client's initialize asking for another is
	// answered for the first, as a server that does not support the
	// requested version answers. Clients of 2026-07-28 are served as
	// before. Empty: every revision of mcp.OlderRevisions, each client at
	// the version it asks for.
	InitializeVersions []string

	// The plug-in seam, for what needs modules of its own (the main
	// module depends on the standard library only): the otel module's
	// mcpotel gives a Middleware for each side and, with
	// ProxyCacheCounter, an OnCache; the replicas module's ProxyCache is
	// a Store for Cache. An OAuth client goes in the Upstream
	// HTTPTransport's Client (its Transport adds the token); a token
	// verifier is a Middleware that refuses and a Principal that names
	// the verified subject. proxycmd.Plugin sets these from flags.

	// Middleware wraps the serving of every downstream request and
	// notification, and the sending of what the proxy's dispatcher sends
	// its clients (Call.Sent), outermost first, outside the proxy's own
	// validation and cache: protocol.RequestLog, tracing, an access
	// check.
	Middleware []mcp.Middleware
	// UpstreamMiddleware wraps the sending of every request and
	// notification to the upstream (ClientOptions.Middleware), outermost
	// first, outside the proxy's validation of the upstream's results: a
	// tracer's CLIENT spans, whose trace context the request's _meta
	// carries upstream.
	UpstreamMiddleware []mcp.Middleware
	// OnCache, if set, is called for each cacheable request the proxy
	// answers from Cache (hit) or forwards (miss), with the request's
	// context and method: a metric's hook.
	OnCache func(ctx context.Context, method string, hit bool)
}

// Proxy forwards a downstream dispatcher's requests to an upstream client.
type Proxy struct {
	mcp.UnimplementedServerHandler
	opts   Options
	up     *mcp.Client
	d      *mcp.ServerDispatcher
	tap    *Tap
	cancel context.CancelFunc
	wg     sync.WaitGroup
	pool   *http.Transport // the upstream connections the proxy made, or nil

	// Upstream counts the requests forwarded upstream, by method.
	upstream sync.Map // method -> *atomic.Int64
	// raw counts the results that went down as JSON (the fast path).
	raw atomic.Int64
	// invalidations counts the changes heard (any tag): a result fetched
	// while it moved is not cached.
	invalidations atomic.Int64
	// changes fans the upstream's list changes out to the downstream
	// subscriptions/listen streams.
	changes protocol.Notifier
}

// New connects to the upstream and returns the proxy, whose Dispatcher
// serves downstream clients.
func New(ctx context.Context, opts Options) (*Proxy, error) {
	if opts.Upstream == nil {
		return nil, errors.New("proxy: no upstream transport")
	}
	offer, err := initializeVersions(opts.InitializeVersions)
	if err != nil {
		return nil, err
	}
	p := &Proxy{opts: opts, tap: newTap(opts.Logger, opts.Strict)}
	upstream := opts.Upstream
	if ht, ok := upstream.(*mcp.HTTPTransport); ok && ht.Client == nil {
		// Every downstream request is a request upstream, many at once:
		// keep as many connections open as the upstream client sends
		// requests at once (net/http's default keeps 2 per host, and
		// opens and closes one per request beyond them).
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = upstreamConns
		cp := *ht
		cp.Client = &http.Client{Transport: tr}
		upstream = &cp
		p.pool = tr
	}
	up, err := mcp.Connect(ctx, upstream, upstreamHandler{p: p}, mcp.ClientOptions{
		ClientInfo:             mcp.Implementation{Name: "mcpgen-proxy", Version: "1"},
		Capabilities:           mcp.ClientCapabilities{Elicitation: &mcp.ClientCapabilitiesElicitation{}, Sampling: &mcp.ClientCapabilitiesSampling{}, Roots: &mcp.ClientCapabilitiesRoots{}},
		NoCache:                true,
		SkipRequestValidation:  !opts.Strict,
		SkipResponseValidation: !opts.Strict,
		Middleware:             append(append([]mcp.Middleware(nil), opts.UpstreamMiddleware...), p.tap.upstream),
		Logger:                 opts.Logger,
		ProbeTimeout:           opts.ProbeTimeout,
		RequestTimeout:         opts.RequestTimeout,
	})
	if err != nil {
		if p.pool != nil {
			p.pool.CloseIdleConnections()
		}
		return nil, fmt.Errorf("proxy: connecting to the upstream: %w", err)
	}
	p.up = up
	p.tap.fast = p
	so := mcp.ServerOptions{
		Capabilities:         capabilities(up.ServerCapabilities()),
		Instructions:         up.Instructions(),
		Principal:            opts.Principal,
		SkipResultValidation: !opts.Strict,
		Middleware:           append(append([]mcp.Middleware(nil), opts.Middleware...), p.tap.downstream, offer, finishAtEOF),
		Logger:               opts.Logger,
		RequestTimeout:       opts.RequestTimeout,
	}
	if info := up.ServerInfo(); info != nil {
		so.ServerInfo = *info
	}
	p.d = mcp.NewServerDispatcher(p, so)
	lctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	if up.ProtocolVersion() == mcp.ProtocolVersion {
		p.listen(lctx)
	}
	return p, nil
}

// capabilities are the upstream's, less what the proxy does not forward.
func capabilities(c *mcp.ServerCapabilities) mcp.ServerCapabilities {
	if c == nil {
		return mcp.ServerCapabilities{}
	}
	out := *c
	out.Extensions = nil // the tasks extension and others are not forwarded
	return out
}

// listen keeps a subscriptions/listen stream open on a 2026-07-28
// upstream for its list changes, which drop the cached lists.
func (p *Proxy) listen(ctx context.Context) {
	caps := p.up.ServerCapabilities()
	if caps == nil {
		return
	}
	t := true
	var f mcp.SubscriptionFilter
	if caps.Tools != nil && caps.Tools.GetListChanged() {
		f.ToolsListChanged = &t
	}
	if caps.Prompts != nil && caps.Prompts.GetListChanged() {
		f.PromptsListChanged = &t
	}
	if caps.Resources != nil && caps.Resources.GetListChanged() {
		f.ResourcesListChanged = &t
	}
	if f.ToolsListChanged == nil && f.PromptsListChanged == nil && f.ResourcesListChanged == nil {
		return
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for ctx.Err() == nil {
			_, err := p.up.SubscriptionsListen(ctx, &mcp.SubscriptionsListenRequestParams{Notifications: f})
			if ctx.Err() != nil {
				return
			}
			if err != nil && p.opts.Logger != nil {
				p.opts.Logger.Warn("proxy: subscriptions/listen upstream ended", "error", err)
			}
			// Anything cached may have changed while no stream was open.
			p.invalidateAll()
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}()
}

// initializeVersions returns the middleware that answers an initialize
// asking for a revision not in versions as one asking for versions[0]
// (the dispatcher answers the version it is given); nil versions: a
// middleware that passes every request on.
func initializeVersions(versions []string) (mcp.Middleware, error) {
	var served []string
	for _, o := range mcp.OlderRevisions {
		served = append(served, o.Revision())
	}
	for _, v := range versions {
		if !slices.Contains(served, v) {
			return nil, fmt.Errorf("proxy: initialize version %q is not one the proxy serves (%s)", v, strings.Join(served, ", "))
		}
	}
	return func(next mcp.Handler) mcp.Handler {
		if len(versions) == 0 {
			return next
		}
		return func(ctx context.Context, req *mcp.Call) (jsonrpc.Result, error) {
			if req.Method != "initialize" || req.Sent || req.Notification {
				return next(ctx, req)
			}
			var params map[string]json.RawMessage
			if json.Unmarshal(req.Params, &params) != nil {
				return next(ctx, req) // the dispatcher refuses it
			}
			var asked string
			if json.Unmarshal(params["protocolVersion"], &asked) != nil || slices.Contains(versions, asked) {
				return next(ctx, req)
			}
			params["protocolVersion"], _ = json.Marshal(versions[0])
			b, err := json.Marshal(params)
			if err != nil {
				return nil, err
			}
			r := *req
			r.Params = b
			return next(ctx, &r)
		}
	}, nil
}

// finishAtEOF lets the requests in flight when the downstream input ends
// finish (within the dispatcher's ShutdownGrace): their contexts end with
// the client's cancellation, a deadline or the proxy's shutdown, not with
// the end of the input.
func finishAtEOF(next mcp.Handler) mcp.Handler {
	return func(ctx context.Context, req *mcp.Call) (jsonrpc.Result, error) {
		if req.Sent || req.HTTP != nil {
			// Over HTTP a request ends with its own HTTP request.
			return next(ctx, req)
		}
		detached, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
		defer cancel(nil)
		stop := context.AfterFunc(ctx, func() {
			if cause := context.Cause(ctx); !errors.Is(cause, io.EOF) {
				cancel(cause)
			}
		})
		defer stop()
		return next(detached, req)
	}
}

// Dispatcher returns the dispatcher that serves downstream clients: Serve
// it on stdio or give it to mcp.NewHTTPHandler.
func (p *Proxy) Dispatcher() *mcp.ServerDispatcher { return p.d }

// UpstreamVersion is the protocol version the upstream negotiated.
func (p *Proxy) UpstreamVersion() string { return p.up.ProtocolVersion() }

// Tap returns the proxy's wire validation record.
func (p *Proxy) Tap() *Tap { return p.tap }

// UpstreamRequests returns how many requests of method were forwarded
// upstream (the handshake's not counted).
func (p *Proxy) UpstreamRequests(method string) int64 {
	if n, ok := p.upstream.Load(method); ok {
		return n.(*atomic.Int64).Load()
	}
	return 0
}

func (p *Proxy) count(method string) {
	n, ok := p.upstream.Load(method)
	if !ok {
		n, _ = p.upstream.LoadOrStore(method, new(atomic.Int64))
	}
	n.(*atomic.Int64).Add(1)
}

// upstreamConns is how many idle connections to an HTTP upstream the
// proxy keeps open.
const upstreamConns = 256

// Close ends the upstream connection.
func (p *Proxy) Close() error {
	p.changes.End()
	p.cancel()
	err := p.up.Close()
	p.wg.Wait()
	if p.pool != nil {
		p.pool.CloseIdleConnections()
	}
	return err
}
