package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// The methods the proxy forwards: each one the upstream client's, with the
// downstream request's _meta (its client's capabilities and info; the
// protocol version is the upstream's). A multi round-trip request of a
// 2026-07-28 upstream goes back to the downstream client as it came (its
// InputRequiredResult, which the dispatcher sends an older client as
// requests of its own), and the client's retry goes upstream.

func (p *Proxy) ListTools(ctx context.Context, params *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	if r, err, ok := prefetched[mcp.ListToolsResult](ctx); ok {
		return r, err
	}
	return cachedCall(p, ctx, mcp.MethodListTools, mcp.MethodListTools, pageKey(params), func(ctx context.Context) (*mcp.ListToolsResult, error) {
		return p.up.ListTools(ctx, params)
	}, func(r *mcp.ListToolsResult) (int64, mcp.CacheScope) { return r.TTLMs, r.CacheScope })
}

func (p *Proxy) ListPrompts(ctx context.Context, params *mcp.PaginatedRequestParams) (*mcp.ListPromptsResult, error) {
	if r, err, ok := prefetched[mcp.ListPromptsResult](ctx); ok {
		return r, err
	}
	return cachedCall(p, ctx, mcp.MethodListPrompts, mcp.MethodListPrompts, pageKey(params), func(ctx context.Context) (*mcp.ListPromptsResult, error) {
		return p.up.ListPrompts(ctx, params)
	}, func(r *mcp.ListPromptsResult) (int64, mcp.CacheScope) { return r.TTLMs, r.CacheScope })
}

func (p *Proxy) ListResources(ctx context.Context, params *mcp.PaginatedRequestParams) (*mcp.ListResourcesResult, error) {
	if r, err, ok := prefetched[mcp.ListResourcesResult](ctx); ok {
		return r, err
	}
	return cachedCall(p, ctx, mcp.MethodListResources, mcp.MethodListResources, pageKey(params), func(ctx context.Context) (*mcp.ListResourcesResult, error) {
		return p.up.ListResources(ctx, params)
	}, func(r *mcp.ListResourcesResult) (int64, mcp.CacheScope) { return r.TTLMs, r.CacheScope })
}

func (p *Proxy) ListResourceTemplates(ctx context.Context, params *mcp.PaginatedRequestParams) (*mcp.ListResourceTemplatesResult, error) {
	if r, err, ok := prefetched[mcp.ListResourceTemplatesResult](ctx); ok {
		return r, err
	}
	return cachedCall(p, ctx, mcp.MethodListResourceTemplates, mcp.MethodListResources, pageKey(params), func(ctx context.Context) (*mcp.ListResourceTemplatesResult, error) {
		return p.up.ListResourceTemplates(ctx, params)
	}, func(r *mcp.ListResourceTemplatesResult) (int64, mcp.CacheScope) { return r.TTLMs, r.CacheScope })
}

func (p *Proxy) ReadResource(ctx context.Context, params *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
	if r, err, ok := prefetched[mcp.ReadResourceResult](ctx); ok {
		return r, err
	}
	if params != nil && (params.InputResponses != nil || params.RequestState != nil) {
		// A retry of a multi round-trip request is never cached.
		return forwardInput(ctx, func(ctx context.Context) (*mcp.ReadResourceResult, error) {
			p.count(mcp.MethodReadResource)
			return p.up.ReadResource(ctx, params)
		})
	}
	var key []byte
	uri := ""
	if params != nil {
		cp := *params
		cp.Meta = mcp.RequestMetaObject{}
		key, _ = cp.AppendJSON(nil)
		uri = params.URI
	}
	return cachedCall(p, ctx, mcp.MethodReadResource, readTag(uri), key, func(ctx context.Context) (*mcp.ReadResourceResult, error) {
		return forwardInput(ctx, func(ctx context.Context) (*mcp.ReadResourceResult, error) {
			return p.up.ReadResource(ctx, params)
		})
	}, func(r *mcp.ReadResourceResult) (int64, mcp.CacheScope) { return r.TTLMs, r.CacheScope })
}

func (p *Proxy) CallTool(ctx context.Context, params *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if r, err, ok := prefetched[mcp.CallToolResult](ctx); ok {
		return r, err
	}
	p.count(mcp.MethodCallTool)
	return forwardInput(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
		return p.up.CallTool(ctx, params)
	})
}

func (p *Proxy) GetPrompt(ctx context.Context, params *mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error) {
	if r, err, ok := prefetched[mcp.GetPromptResult](ctx); ok {
		return r, err
	}
	p.count(mcp.MethodGetPrompt)
	return forwardInput(ctx, func(ctx context.Context) (*mcp.GetPromptResult, error) {
		return p.up.GetPrompt(ctx, params)
	})
}

func (p *Proxy) Complete(ctx context.Context, params *mcp.CompleteRequestParams) (*mcp.CompleteResult, error) {
	if r, err, ok := prefetched[mcp.CompleteResult](ctx); ok {
		return r, err
	}
	p.count(mcp.MethodComplete)
	return p.up.Complete(ctx, params)
}

// pageKey is the cache key of a page: its params without _meta.
func pageKey(params *mcp.PaginatedRequestParams) []byte {
	if params == nil {
		return nil
	}
	cp := *params
	cp.Meta = mcp.RequestMetaObject{}
	b, _ := cp.AppendJSON(nil)
	return b
}

// readTag is the tag of a resource's cached reads.
func readTag(uri string) string { return mcp.MethodReadResource + "\x00" + uri }

// cacheable is what the cache needs of a result type.
type cacheable[R any] interface {
	*R
	AppendJSON([]byte) ([]byte, error)
	UnmarshalJSON([]byte) error
}

// cachedCall answers from the cache while a fresh entry is there (public
// first, then the principal's private one), else fetches and keeps the
// result for its ttlMs under its cacheScope.
func cachedCall[R any, P cacheable[R]](p *Proxy, ctx context.Context, method, tag string, key []byte, fetch func(context.Context) (P, error), hints func(P) (int64, mcp.CacheScope)) (P, error) {
	s := p.opts.Cache
	if s == nil {
		p.count(method)
		return fetch(ctx)
	}
	pub := "public\x00" + method + "\x00" + string(key)
	var priv string
	if who := p.principal(ctx); who != "" {
		priv = "private\x00" + who + "\x00" + method + "\x00" + string(key)
	}
	fc := fastOf(ctx)
	for _, k := range []string{pub, priv} {
		if k == "" {
			continue
		}
		if b, ok := s.Get(ctx, k); ok {
			if fc != nil {
				// The JSON goes down as it is.
				p.cacheEvent(ctx, method, true)
				fc.raw = b
				return nil, errRaw
			}
			r := P(new(R))
			if err := r.UnmarshalJSON(b); err == nil {
				p.cacheEvent(ctx, method, true)
				return r, nil
			}
		}
	}
	p.cacheEvent(ctx, method, false)
	p.count(method)
	gen := p.invalidations.Load()
	r, err := fetch(ctx)
	// A result fetched while a change was heard may be older than the
	// change: it goes down but is not kept.
	changed := p.invalidations.Load() != gen
	if errors.Is(err, errRaw) && fc != nil && fc.raw != nil {
		if !changed {
			ttl, scope := rawHints(fc.raw)
			keep(ctx, s, pub, priv, tag, ttl, scope, fc.raw)
		}
		return r, err
	}
	if err != nil || r == nil || changed {
		return r, err
	}
	ttl, scope := hints(r)
	if ttl <= 0 {
		return r, nil
	}
	if b, err := r.AppendJSON(nil); err == nil {
		keep(ctx, s, pub, priv, tag, ttl, scope, b)
	}
	return r, nil
}

// cacheEvent counts a hit or a miss and tells Options.OnCache.
func (p *Proxy) cacheEvent(ctx context.Context, method string, hit bool) {
	if hit {
		p.tap.hit()
	} else {
		p.tap.miss()
	}
	if p.opts.OnCache != nil {
		p.opts.OnCache(ctx, method, hit)
	}
}

// keep keeps a result's JSON for ttl milliseconds under the public key or
// the principal's private one, as its scope says (a private result with
// no principal is not kept).
func keep(ctx context.Context, s Store, pub, priv, tag string, ttl int64, scope mcp.CacheScope, b []byte) {
	if ttl <= 0 {
		return
	}
	k := pub
	if scope != mcp.CacheScopePublic {
		k = priv
	}
	if k == "" {
		return
	}
	s.Set(ctx, k, tag, b, time.Duration(ttl)*time.Millisecond)
}

// principal names the downstream principal of ctx: Options.Principal's,
// else the session's id.
func (p *Proxy) principal(ctx context.Context) string {
	if p.opts.Principal != nil {
		if who := p.opts.Principal(ctx); who != "" {
			return "p:" + who
		}
	}
	if s := mcp.SessionFromContext(ctx); s != nil && s.ID() != "" {
		return "s:" + s.ID()
	}
	return ""
}

// invalidateAll drops every tag the proxy caches under (a lost
// subscription may have missed changes). Reads are dropped by URI only:
// they expire by their ttlMs.
func (p *Proxy) invalidateAll() {
	if p.opts.Cache == nil {
		return
	}
	p.invalidations.Add(1)
	for _, t := range []string{mcp.MethodListTools, mcp.MethodListPrompts, mcp.MethodListResources} {
		p.opts.Cache.Invalidate(context.Background(), t)
	}
}

// inputSlot carries a 2026-07-28 upstream's InputRequiredResult from the
// upstream client's middleware to the handler that forwards it down.
type inputSlot struct{ raw json.RawMessage }

type inputSlotKey struct{}

// errForwardInput stops the upstream client from answering an input
// request itself: the downstream client answers it.
var errForwardInput = errors.New("proxy: the input request goes to the downstream client")

// forwardInput runs call with an input slot; when the upstream asked for
// input, the handler answers with it (NeedInput), and the downstream
// client's retry brings the answers and the requestState back.
func forwardInput[R any](ctx context.Context, call func(context.Context) (*R, error)) (*R, error) {
	slot := &inputSlot{}
	r, err := call(context.WithValue(ctx, inputSlotKey{}, slot))
	if err != nil && slot.raw != nil {
		var ir mcp.InputRequiredResult
		if uerr := ir.UnmarshalJSON(slot.raw); uerr != nil {
			return nil, uerr
		}
		return nil, mcp.NeedInput(ir)
	}
	return r, err
}

// upstreamHandler is the upstream client's handler: the upstream's
// notifications drop cached results and reach the downstream clients of
// older revisions; its input requests go down (see forwardInput).
type upstreamHandler struct {
	mcp.UnimplementedClientHandler
	p *Proxy
}

func (h upstreamHandler) OnToolListChanged(ctx context.Context, params *mcp.NotificationParams) error {
	h.invalidate(ctx, mcp.MethodListTools, mcp.MethodToolListChangedNotification, params)
	return nil
}

func (h upstreamHandler) OnPromptListChanged(ctx context.Context, params *mcp.NotificationParams) error {
	h.invalidate(ctx, mcp.MethodListPrompts, mcp.MethodPromptListChangedNotification, params)
	return nil
}

func (h upstreamHandler) OnResourceListChanged(ctx context.Context, params *mcp.NotificationParams) error {
	h.invalidate(ctx, mcp.MethodListResources, mcp.MethodResourceListChangedNotification, params)
	return nil
}

func (h upstreamHandler) OnResourceUpdated(ctx context.Context, params *mcp.ResourceUpdatedNotificationParams) error {
	if h.p.opts.Cache != nil && params != nil {
		h.p.invalidations.Add(1)
		h.p.opts.Cache.Invalidate(ctx, readTag(params.URI))
	}
	if params != nil && h.p.d != nil {
		h.p.d.NotifyResourceUpdated(params.URI)
	}
	return nil
}

func (h upstreamHandler) invalidate(ctx context.Context, tag, method string, params *mcp.NotificationParams) {
	if h.p.opts.Cache != nil {
		h.p.invalidations.Add(1)
		h.p.opts.Cache.Invalidate(ctx, tag)
	}
	h.p.changes.Notify(protocol.Change{Method: method})
	if h.p.d != nil {
		if params == nil {
			params = &mcp.NotificationParams{}
		}
		if _, err := h.p.d.Broadcast(method, params); err != nil && h.p.opts.Logger != nil {
			h.p.opts.Logger.Warn("proxy: forwarding a notification", "method", method, "error", err)
		}
	}
}

func (h upstreamHandler) Elicit(ctx context.Context, _ mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	return nil, h.input(ctx)
}

func (h upstreamHandler) CreateMessage(ctx context.Context, _ *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	return nil, h.input(ctx)
}

func (h upstreamHandler) ListRoots(ctx context.Context, _ *mcp.ListRootsRequestParams) (*mcp.ListRootsResult, error) {
	return nil, h.input(ctx)
}

// input refuses what the proxy cannot forward: a request an upstream of an
// older revision sends on its own (it names no downstream client).
func (h upstreamHandler) input(ctx context.Context) error {
	if s, _ := ctx.Value(inputSlotKey{}).(*inputSlot); s != nil && s.raw != nil {
		return errForwardInput
	}
	return errors.New("proxy: requests from an upstream of the initialize era to its client are not forwarded")
}
