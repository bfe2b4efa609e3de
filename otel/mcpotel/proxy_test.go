package mcpotel

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/proxy"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/trace"
)

// TestProxyTelemetry: an mcpgen proxy with the Telemetry's Middleware on
// both sides and ProxyCacheCounter as its OnCache. A public tools/list
// asked twice is a miss, then a hit: each a SERVER span marked with the
// cache result; the miss's CLIENT span to the upstream is a child of its
// SERVER span and the hit has none; the counter says one of each.
func TestProxyTelemetry(t *testing.T) {
	r := newRig(t, Options{})
	s := &mcp.Server{TTL: time.Minute, CacheScope: mcp.CacheScopePublic}
	mcp.AddTool(s, mcp.Tool{Name: "echo"}, func(ctx context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		return mcp.TextResult("echo"), nil
	})
	up := httptest.NewServer(mcp.NewHTTPHandler(mcp.NewServerDispatcher(s, mcp.ServerOptions{}), mcp.HTTPOptions{}))
	defer up.Close()
	defer s.EndSubscriptions()
	onCache, err := r.tel.ProxyCacheCounter()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, err := proxy.New(ctx, proxy.Options{
		Upstream:           &mcp.HTTPTransport{URL: up.URL},
		Cache:              proxy.NewMemoryStore(0),
		Middleware:         []mcp.Middleware{r.tel.Middleware()},
		UpstreamMiddleware: []mcp.Middleware{r.tel.Middleware()},
		OnCache:            onCache,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ps := httptest.NewServer(mcp.NewHTTPHandler(p.Dispatcher(), mcp.HTTPOptions{}))
	defer ps.Close()
	c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: ps.URL}, nil, mcp.ClientOptions{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for range 2 {
		if res, err := c.ListTools(ctx, nil); err != nil || len(res.Tools) != 1 {
			t.Fatalf("tools/list: %+v, %v", res, err)
		}
	}

	var servers, clients []string
	var missSpan trace.SpanContext
	var upstream []trace.SpanID
	for _, sp := range r.spans.Ended() {
		if sp.Name() != "tools/list" {
			continue
		}
		switch sp.SpanKind() {
		case trace.SpanKindServer:
			res := attrs(sp.Attributes())[string(KeyProxyCacheResult)]
			servers = append(servers, res)
			if res == "miss" {
				missSpan = sp.SpanContext()
			}
		case trace.SpanKindClient:
			clients = append(clients, "upstream")
			upstream = append(upstream, sp.Parent().SpanID())
		}
	}
	if len(servers) != 2 || servers[0] != "miss" || servers[1] != "hit" {
		t.Errorf("SERVER spans of tools/list marked %q, want [miss hit]", servers)
	}
	if len(upstream) != 1 || upstream[0] != missSpan.SpanID() {
		t.Errorf("CLIENT spans of tools/list to the upstream: %d, parents %v; want 1, the miss's SERVER span %v", len(clients), upstream, missSpan.SpanID())
	}

	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != MetricProxyCacheRequests {
				continue
			}
			if m.Unit != "{request}" {
				t.Errorf("unit %q", m.Unit)
			}
			sum, ok := m.Data.(metricdata.Sum[int64])
			if !ok || !sum.IsMonotonic {
				t.Fatalf("%s is a %T", m.Name, m.Data)
			}
			for _, dp := range sum.DataPoints {
				method, _ := dp.Attributes.Value(KeyMethodName)
				res, _ := dp.Attributes.Value(KeyProxyCacheResult)
				got[method.AsString()+" "+res.AsString()] += dp.Value
			}
		}
	}
	if len(got) != 2 || got["tools/list hit"] != 1 || got["tools/list miss"] != 1 {
		t.Errorf("%s: %v, want one hit and one miss of tools/list", MetricProxyCacheRequests, got)
	}
}
