package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/proxy"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// BenchmarkProxy measures mcpgen proxy (internal/proxy) against direct
// calls: latency and throughput of tools/call with 1, 16 and 256 clients
// over HTTP on 127.0.0.1, directly to the server and through a proxy in
// front of it; and tools/list, public for an hour, answered from the
// proxy's cache (hit) against forwarded by a proxy without one (miss),
// with as many clients.
//
// The two sides of each comparison run interleaved, in alternating rounds
// within one benchmark, so that both see the same load on the machine: an
// op is one call on each side. The metrics are each side's mean latency
// per call (every client times its own calls: direct-ns/call and
// proxy-ns/call, hit-ns/call and miss-ns/call), each side's throughput
// (calls answered per second of its rounds: direct-calls/s and so on),
// and the latency ratio (proxy/direct, miss/hit), which is what the
// proxy's targets are stated in (proxy/direct at most 1.3 at 16 clients,
// miss/hit at least 5). The upstream=1ms runs answer each request a
// millisecond late, as a server that does some work or sits across a
// network does; the others answer at once, so that the ratio is the
// proxy's whole cost over a bare round trip on one machine.
func BenchmarkProxy(b *testing.B) {
	for _, delay := range []time.Duration{0, time.Millisecond} {
		name := "upstream=0"
		if delay > 0 {
			name = "upstream=" + delay.String()
		}
		url := proxyUpstream(b, delay)
		p, err := proxy.New(context.Background(), proxy.Options{Upstream: &mcp.HTTPTransport{URL: url}, Cache: proxy.NewMemoryStore(0)})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		purl := serveProxy(b, p)
		noCache, err := proxy.New(context.Background(), proxy.Options{Upstream: &mcp.HTTPTransport{URL: url}})
		if err != nil {
			b.Fatal(err)
		}
		defer noCache.Close()
		nurl := serveProxy(b, noCache)
		args := json.RawMessage(`{"a":40,"b":2}`)
		call := func(c *mcp.Client) error {
			res, err := c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "add", Arguments: args})
			if err == nil && (len(res.Content) != 1 || res.IsError != nil && *res.IsError) {
				err = fmt.Errorf("tools/call: %+v", res)
			}
			return err
		}
		list := func(c *mcp.Client) error {
			res, err := c.ListTools(context.Background(), nil)
			if err == nil && len(res.Tools) != 1 {
				err = fmt.Errorf("tools/list: %+v", res)
			}
			return err
		}
		listed := false
		for _, n := range []int{1, 16, 256} {
			b.Run(fmt.Sprintf("%s/call/clients=%d", name, n), func(b *testing.B) {
				side(b, "direct", "proxy", connectN(b, url, n), connectN(b, purl, n), call)
			})
			b.Run(fmt.Sprintf("%s/list/clients=%d", name, n), func(b *testing.B) {
				listed = true
				side(b, "hit", "miss", connectN(b, purl, n), connectN(b, nurl, n), list)
			})
		}
		if h := p.Tap().CacheHits(); listed && h == 0 {
			b.Errorf("%s: no cache hit", name)
		}
	}
}

// proxyUpstream is a 2026-07-28 server over HTTP on 127.0.0.1 with the
// tool "add", whose lists are public for an hour, answering every
// request delay late.
func proxyUpstream(b *testing.B, delay time.Duration) string {
	b.Helper()
	s := &mcp.Server{TTL: time.Hour, CacheScope: mcp.CacheScopePublic}
	mcp.AddTool(s, mcp.Tool{Name: "add"}, func(ctx context.Context, p *mcp.CallToolRequestParams, in struct {
		A int64 `json:"a"`
		B int64 `json:"b"`
	}) (*mcp.CallToolResult, error) {
		return mcp.TextResult(strconv.FormatInt(in.A+in.B, 10)), nil
	})
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{OnlyThisRevision: true, Middleware: []mcp.Middleware{delayed(delay)}})
	hs := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	b.Cleanup(hs.Close)
	b.Cleanup(s.EndSubscriptions)
	return hs.URL
}

func serveProxy(b *testing.B, p *proxy.Proxy) string {
	b.Helper()
	hs := httptest.NewServer(mcp.NewHTTPHandler(p.Dispatcher(), mcp.HTTPOptions{}))
	b.Cleanup(hs.Close)
	return hs.URL
}

// delayed is a server middleware that answers each request d later: a
// stand-in for the time a real server takes (its work, the network),
// which the proxy's overhead is to be seen against.
func delayed(d time.Duration) mcp.Middleware {
	return func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Call) (jsonrpc.Result, error) {
			if d > 0 && !req.Sent && !req.Notification && req.Method != mcp.MethodSubscriptionsListen {
				time.Sleep(d)
			}
			return next(ctx, req)
		}
	}
}

// connectN connects n clients (without the client's own cache) to url.
func connectN(b *testing.B, url string, n int) []*mcp.Client {
	b.Helper()
	clients := make([]*mcp.Client, n)
	for i := range clients {
		c, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: url}, nil, mcp.ClientOptions{NoCache: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.Close() })
		clients[i] = c
	}
	return clients
}

// side runs b.N calls on each of two sets of clients (base, then other, in
// alternating rounds of a few calls per client) and reports each side's
// mean latency per call and throughput, and other's latency over base's.
func side(b *testing.B, baseName, otherName string, base, other []*mcp.Client, call func(*mcp.Client) error) {
	const perRound = 8 // calls per client per round
	n := len(base)
	// A warm-up round on each side: connections open, pools fill.
	run(b, base, perRound, call)
	run(b, other, perRound, call)
	b.ResetTimer()
	var baseSum, otherSum, baseWall, otherWall time.Duration
	var calls int
	for calls < b.N {
		start := time.Now()
		baseSum += run(b, base, perRound, call)
		mid := time.Now()
		otherSum += run(b, other, perRound, call)
		baseWall += mid.Sub(start)
		otherWall += time.Since(mid)
		calls += n * perRound
	}
	b.StopTimer()
	bn := float64(baseSum.Nanoseconds()) / float64(calls)
	on := float64(otherSum.Nanoseconds()) / float64(calls)
	b.ReportMetric(bn, baseName+"-ns/call")
	b.ReportMetric(on, otherName+"-ns/call")
	b.ReportMetric(float64(calls)/baseWall.Seconds(), baseName+"-calls/s")
	b.ReportMetric(float64(calls)/otherWall.Seconds(), otherName+"-calls/s")
	b.ReportMetric(on/bn, otherName+"/"+baseName)
}

// run makes per calls on every client at once (each client's in turn) and
// returns the sum of the calls' latencies.
func run(b *testing.B, clients []*mcp.Client, per int, call func(*mcp.Client) error) time.Duration {
	var wg sync.WaitGroup
	sums := make([]time.Duration, len(clients))
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range per {
				start := time.Now()
				if err := call(c); err != nil {
					b.Error(err)
					return
				}
				sums[i] += time.Since(start)
			}
		}()
	}
	wg.Wait()
	var total time.Duration
	for _, s := range sums {
		total += s
	}
	return total
}
