package mcpotel

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// The proxy's cache metric. The MCP semantic conventions name no cache,
// so this metric and its attribute are mcpgen's own, outside the
// convention.
const (
	// MetricProxyCacheRequests counts the cacheable requests an mcpgen
	// proxy answered from its cache or forwarded, by KeyMethodName and
	// KeyProxyCacheResult.
	MetricProxyCacheRequests = "mcpgen.proxy.cache.requests"
	// KeyProxyCacheResult is "hit" or "miss", on the metric and on the
	// span of the request (the SERVER span of Middleware).
	KeyProxyCacheResult = attribute.Key("mcpgen.proxy.cache.result")
)

// ProxyCacheCounter returns the hook for an mcpgen proxy's
// Options.OnCache (internal/proxy): it counts each cacheable request as
// a hit or a miss (MetricProxyCacheRequests, on the Telemetry's meter)
// and marks the span of ctx with KeyProxyCacheResult. With Middleware in
// the proxy's Options.Middleware, that span is the request's SERVER
// span; with it in Options.UpstreamMiddleware too, a miss's CLIENT span
// to the upstream is that span's child, and a hit has none.
func (t *Telemetry) ProxyCacheCounter() (func(ctx context.Context, method string, hit bool), error) {
	c, err := t.meter.Int64Counter(MetricProxyCacheRequests, metric.WithUnit("{request}"),
		metric.WithDescription("Cacheable MCP requests an mcpgen proxy answered from its cache (hit) or forwarded (miss)."))
	if err != nil {
		return nil, err
	}
	hitAttr, missAttr := KeyProxyCacheResult.String("hit"), KeyProxyCacheResult.String("miss")
	return func(ctx context.Context, method string, hit bool) {
		r := missAttr
		if hit {
			r = hitAttr
		}
		c.Add(ctx, 1, metric.WithAttributes(KeyMethodName.String(method), r))
		trace.SpanFromContext(ctx).SetAttributes(r)
	}, nil
}
