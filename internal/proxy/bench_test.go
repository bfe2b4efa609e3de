package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// BenchmarkProxy measures tools/call through the proxy against direct
// calls, with 1, 16 and 256 clients over HTTP on 127.0.0.1, and tools/list
// answered from the proxy's cache (hit) against forwarded (miss).
//
// The two sides of each comparison run interleaved, in alternating rounds
// within one benchmark, so that both see the same load on the machine: an
// op is one call on each side. The metrics are each side's mean latency
// per call (direct-ns/call and proxy-ns/call: every client times its own
// calls; hit-ns/call and miss-ns/call) and their ratio (proxy/direct,
// miss/hit), which is what the proxy's targets are stated in. The
// upstream=1ms runs answer each request a millisecond late, as a server
// that does some work or sits across a network does; the others answer
// at once, so that the ratio is the proxy's whole cost over a bare round
// trip on one machine.
func BenchmarkProxy(b *testing.B) {
	for _, delay := range []time.Duration{0, time.Millisecond} {
		name := ""
		if delay > 0 {
			name = "upstream=" + delay.String() + "/"
		}
		_, _, url := modernServer(b, time.Hour, mcp.CacheScopePublic, delayed(delay))
		p, err := New(context.Background(), Options{Upstream: &mcp.HTTPTransport{URL: url}, Cache: NewMemoryStore(0)})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		purl := serveProxy(b, p)
		noCache, err := New(context.Background(), Options{Upstream: &mcp.HTTPTransport{URL: url}})
		if err != nil {
			b.Fatal(err)
		}
		defer noCache.Close()
		nurl := serveProxy(b, noCache)
		args := json.RawMessage(`{"a":40,"b":2}`)
		call := func(c *mcp.Client) error {
			_, err := c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "add", Arguments: args})
			return err
		}
		list := func(c *mcp.Client) error {
			_, err := c.ListTools(context.Background(), nil)
			return err
		}
		for _, n := range []int{1, 16, 256} {
			if delay > 0 && n != 16 {
				continue
			}
			b.Run(fmt.Sprintf("%scall/clients=%d", name, n), func(b *testing.B) {
				side(b, "direct", "proxy", connectN(b, url, n), connectN(b, purl, n), call)
			})
		}
		b.Run(name+"list", func(b *testing.B) {
			side(b, "hit", "miss", connectN(b, purl, 1), connectN(b, nurl, 1), list)
		})
	}
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
// mean latency per call and other's over base's.
func side(b *testing.B, baseName, otherName string, base, other []*mcp.Client, call func(*mcp.Client) error) {
	const perRound = 8 // calls per client per round
	n := len(base)
	// A warm-up round on each side: connections open, pools fill.
	run(b, base, perRound, call)
	run(b, other, perRound, call)
	b.ResetTimer()
	var baseSum, otherSum time.Duration
	var calls int
	for calls < b.N {
		baseSum += run(b, base, perRound, call)
		otherSum += run(b, other, perRound, call)
		calls += n * perRound
	}
	b.StopTimer()
	bn := float64(baseSum.Nanoseconds()) / float64(calls)
	on := float64(otherSum.Nanoseconds()) / float64(calls)
	b.ReportMetric(bn, baseName+"-ns/call")
	b.ReportMetric(on, otherName+"-ns/call")
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
