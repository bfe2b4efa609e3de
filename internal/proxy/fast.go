package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/protocol"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// The fast path: a 2026-07-28 client's request to a 2026-07-28 upstream
// needs no conversion, so its result goes down as the JSON the upstream
// sent (or the cache kept), without being decoded into the typed result
// and encoded again. The request is checked (decoded once, by the
// downstream middleware) and forwarded by the same handler methods as
// any other, with a fastCall in its context: the upstream client's
// middleware checks the result and, when it is a complete result that
// breaks no rule, hands it to the fastCall as JSON instead of to the
// typed layer (errRaw), and a cache hit does the same with the kept JSON.
// Any other outcome (an error, an InputRequiredResult, whose requestState
// the dispatcher seals, a result with violations, which the typed layer
// completes) goes through the dispatcher as before: the outcome is kept
// in the fastCall, and the handler method the dispatcher calls returns it
// instead of forwarding the request again.

// fastCall is a fast-path request's outcome.
type fastCall struct {
	// raw is the result as JSON, set with errRaw.
	raw json.RawMessage
	// done marks an outcome for the handler: res and err.
	done bool
	res  any
	err  error
}

type fastKey struct{}

// errRaw says that the result is in the fastCall, as JSON.
var errRaw = errors.New("proxy: the result goes down as JSON")

// fastOf returns the fastCall of ctx, or nil.
func fastOf(ctx context.Context) *fastCall {
	fc, _ := ctx.Value(fastKey{}).(*fastCall)
	return fc
}

// prefetched returns the outcome the fast path got for the handler
// method the dispatcher calls, if there is one.
func prefetched[R any](ctx context.Context) (*R, error, bool) {
	fc := fastOf(ctx)
	if fc == nil || !fc.done {
		return nil, nil, false
	}
	r, _ := fc.res.(*R)
	return r, fc.err, true
}

// fastMethods are the methods the fast path forwards.
var fastMethods = map[string]bool{
	mcp.MethodListTools:             true,
	mcp.MethodListPrompts:           true,
	mcp.MethodListResources:         true,
	mcp.MethodListResourceTemplates: true,
	mcp.MethodReadResource:          true,
	mcp.MethodCallTool:              true,
	mcp.MethodGetPrompt:             true,
	mcp.MethodComplete:              true,
}

// fastOK says whether req, whose params decoded and checked as version's,
// may take the fast path: both sides speak 2026-07-28, its params declare
// that version (what the dispatcher would check), and it is not the retry
// of a multi round-trip request (whose requestState the dispatcher
// opens).
func (p *Proxy) fastOK(req *mcp.Call, version string) bool {
	if req.Notification || version != mcp.ProtocolVersion || !fastMethods[req.Method] || p.up.ProtocolVersion() != mcp.ProtocolVersion {
		return false
	}
	if v, _ := protocol.HeaderText(codec.Lookup(req.Params, "_meta", spec.MetaProtocolVersion)); v != mcp.ProtocolVersion {
		return false
	}
	return codec.Lookup(req.Params, "inputResponses") == nil && codec.Lookup(req.Params, "requestState") == nil
}

// fast forwards req, whose params decoded as params, and answers with the
// JSON result, or hands the outcome to the dispatcher (next).
func (p *Proxy) fast(ctx context.Context, req *mcp.Call, params validatable, next mcp.Handler) (jsonrpc.Result, error) {
	fc := &fastCall{}
	ctx = context.WithValue(ctx, fastKey{}, fc)
	var res any
	var err error
	switch req.Method {
	case mcp.MethodListTools:
		res, err = p.ListTools(ctx, params.(*mcp.PaginatedRequestParams))
	case mcp.MethodListPrompts:
		res, err = p.ListPrompts(ctx, params.(*mcp.PaginatedRequestParams))
	case mcp.MethodListResources:
		res, err = p.ListResources(ctx, params.(*mcp.PaginatedRequestParams))
	case mcp.MethodListResourceTemplates:
		res, err = p.ListResourceTemplates(ctx, params.(*mcp.PaginatedRequestParams))
	case mcp.MethodReadResource:
		res, err = p.ReadResource(ctx, params.(*mcp.ReadResourceRequestParams))
	case mcp.MethodCallTool:
		res, err = p.CallTool(ctx, params.(*mcp.CallToolRequestParams))
	case mcp.MethodGetPrompt:
		res, err = p.GetPrompt(ctx, params.(*mcp.GetPromptRequestParams))
	case mcp.MethodComplete:
		res, err = p.Complete(ctx, params.(*mcp.CompleteRequestParams))
	default:
		return next(ctx, req)
	}
	if errors.Is(err, errRaw) && fc.raw != nil {
		p.raw.Add(1)
		return jsonrpc.RawResult(fc.raw), nil
	}
	fc.done, fc.res, fc.err = true, res, err
	return next(ctx, req)
}

// rawHints reads the caching hints of a result as JSON: its ttlMs, and
// its cacheScope (private when absent, as the client reads it).
func rawHints(raw []byte) (int64, mcp.CacheScope) {
	ttl, err := strconv.ParseInt(string(codec.Lookup(raw, "ttlMs")), 10, 64)
	if err != nil || ttl < 0 {
		ttl = 0
	}
	scope := mcp.CacheScopePrivate
	if s, ok := protocol.HeaderText(codec.Lookup(raw, "cacheScope")); ok {
		scope = mcp.CacheScope(s)
	}
	return ttl, scope
}
