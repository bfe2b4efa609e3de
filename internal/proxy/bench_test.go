package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// BenchmarkProxy measures tools/call through the proxy and directly, with
// 1, 16 and 256 clients over HTTP on 127.0.0.1 (ns/op is per call), and
// tools/list answered from the proxy's cache (hit) and forwarded (miss).
// With several clients ns/op is the wall time over all calls: the
// inverse of throughput.
func BenchmarkProxy(b *testing.B) {
	_, _, url := modernServer(b, time.Hour, mcp.CacheScopePublic)
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
	for _, n := range []int{1, 16, 256} {
		for _, target := range []struct{ name, url string }{{"direct", url}, {"proxy", purl}} {
			b.Run(fmt.Sprintf("call/%s/clients=%d", target.name, n), func(b *testing.B) {
				clients := make([]*mcp.Client, n)
				for i := range clients {
					c, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: target.url}, nil, mcp.ClientOptions{NoCache: true})
					if err != nil {
						b.Fatal(err)
					}
					defer c.Close()
					clients[i] = c
				}
				b.ResetTimer()
				var wg sync.WaitGroup
				per := (b.N + n - 1) / n
				for _, c := range clients {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for range per {
							if _, err := c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "add", Arguments: args}); err != nil {
								b.Error(err)
								return
							}
						}
					}()
				}
				wg.Wait()
			})
		}
	}
	for _, target := range []struct{ name, url string }{{"hit", purl}, {"miss", nurl}} {
		b.Run("list/"+target.name, func(b *testing.B) {
			c, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: target.url}, nil, mcp.ClientOptions{NoCache: true})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			for b.Loop() {
				if _, err := c.ListTools(context.Background(), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
