package replicas

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/proxy"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/redis/go-redis/v9"
)

func TestProxyCacheStore(t *testing.T) {
	_, rc := startRedis(t, false)
	ctx := ctxT(t)
	c := NewProxyCache(rc, ProxyCacheOptions{Prefix: "pc1:", MaxValueBytes: 64, MaxTagEntries: 3})
	other := NewProxyCache(redis.NewClient(ClientOptions(rc.Options().Addr)), ProxyCacheOptions{Prefix: "pc1:"})
	var _ proxy.Store = c

	c.Set(ctx, "k1", "tools/list", []byte(`{"tools":[]}`), time.Minute)
	if b, ok := other.Get(ctx, "k1"); !ok || string(b) != `{"tools":[]}` {
		t.Fatalf("another client of the same prefix: Get = %q, %v", b, ok)
	}
	if _, ok := NewProxyCache(rc, ProxyCacheOptions{Prefix: "pc2:"}).Get(ctx, "k1"); ok {
		t.Error("another prefix sees the entry")
	}
	// Over the bound: not kept.
	c.Set(ctx, "big", "tools/list", []byte(`"`+strings.Repeat("x", 64)+`"`), time.Minute)
	if _, ok := c.Get(ctx, "big"); ok {
		t.Error("a value over MaxValueBytes was kept")
	}
	// Not JSON (written by someone else under the prefix): not served.
	rc.Set(ctx, c.entryKey("bad"), "{", time.Minute)
	if _, ok := c.Get(ctx, "bad"); ok {
		t.Error("an entry that is not JSON was served")
	}
	// Expiry.
	c.Set(ctx, "short", "tools/list", []byte(`1`), 30*time.Millisecond)
	time.Sleep(60 * time.Millisecond)
	if _, ok := c.Get(ctx, "short"); ok {
		t.Error("an expired entry was served")
	}
	// Invalidate drops the tag's entries, and only those.
	c.Set(ctx, "r", "resources/read\x00a", []byte(`2`), time.Minute)
	other.Invalidate(ctx, "tools/list")
	if _, ok := c.Get(ctx, "k1"); ok {
		t.Error("k1 outlived its tag's invalidation")
	}
	if _, ok := c.Get(ctx, "r"); !ok {
		t.Error("another tag's entry was dropped")
	}
	if n, _ := rc.Exists(ctx, c.tagKey("tools/list")).Result(); n != 0 {
		t.Error("the tag's set outlived its invalidation")
	}
	// A tag's set stays within MaxTagEntries: expired keys are swept...
	for i := range 3 {
		c.Set(ctx, fmt.Sprint("e", i), "t", []byte(`0`), 20*time.Millisecond)
	}
	time.Sleep(40 * time.Millisecond)
	c.Set(ctx, "live", "t", []byte(`1`), time.Minute)
	if n, _ := rc.SCard(ctx, c.tagKey("t")).Result(); n != 1 {
		t.Errorf("the tag's set holds %d keys after the sweep, want 1", n)
	}
	// ... and a set of live entries past it is dropped with them.
	for i := range 3 {
		c.Set(ctx, fmt.Sprint("l", i), "t", []byte(`1`), time.Minute)
	}
	if n, _ := rc.SCard(ctx, c.tagKey("t")).Result(); n != 0 {
		t.Errorf("the tag's set holds %d keys past its bound, want it dropped", n)
	}
	if _, ok := c.Get(ctx, "live"); ok {
		t.Error("an entry of a dropped set was kept")
	}
	if c.Errors() != 0 || other.Errors() != 0 {
		t.Errorf("errors: %d, %d", c.Errors(), other.Errors())
	}
}

// countingServer is a 2026-07-28 server over HTTP on 127.0.0.1 whose
// lists are fresh for ttl in scope; it counts the requests it gets.
func countingServer(t *testing.T, ttl time.Duration, scope mcp.CacheScope) (*mcp.Server, func(string) int, string) {
	t.Helper()
	s := &mcp.Server{TTL: ttl, CacheScope: scope}
	mcp.AddTool(s, mcp.Tool{Name: "echo"}, func(ctx context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		return mcp.TextResult("echo"), nil
	})
	var mu sync.Mutex
	n := map[string]int{}
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{
		ServerInfo: mcp.Implementation{Name: "counted", Version: "1"},
		Middleware: []mcp.Middleware{func(next mcp.Handler) mcp.Handler {
			return func(ctx context.Context, req *mcp.Call) (jsonrpc.Result, error) {
				if !req.Sent {
					mu.Lock()
					n[req.Method]++
					mu.Unlock()
				}
				return next(ctx, req)
			}
		}},
	})
	hs := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	t.Cleanup(hs.Close)
	t.Cleanup(s.EndSubscriptions)
	return s, func(m string) int { mu.Lock(); defer mu.Unlock(); return n[m] }, hs.URL
}

// proxyInstance is one proxy with its own Redis client (as another
// process would have), served over HTTP on 127.0.0.1.
func proxyInstance(t *testing.T, addr, upstream string) (*proxy.Proxy, *ProxyCache, string) {
	t.Helper()
	rc := redis.NewClient(ClientOptions(addr))
	t.Cleanup(func() { rc.Close() })
	cache := NewProxyCache(rc, ProxyCacheOptions{Prefix: "shared:"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, err := proxy.New(ctx, proxy.Options{
		Upstream: &mcp.HTTPTransport{URL: upstream},
		Cache:    cache,
		Principal: func(ctx context.Context) string {
			if r := mcp.HTTPRequestFromContext(ctx); r != nil {
				return r.Header.Get("X-Who")
			}
			return ""
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	hs := httptest.NewServer(mcp.NewHTTPHandler(p.Dispatcher(), mcp.HTTPOptions{}))
	t.Cleanup(hs.Close)
	return p, cache, hs.URL
}

func listAs(t *testing.T, url, who string) string {
	t.Helper()
	c, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: url, Header: http.Header{"X-Who": {who}}}, nil, mcp.ClientOptions{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return strings.Join(names, ",")
}

// TestProxyCacheSharedBetweenProxies: two proxy instances share the cache
// through Redis. A public list fetched through both within its TTL
// reaches the upstream once; a change notification makes the next list
// through either go upstream; with Redis gone the proxies forward.
func TestProxyCacheSharedBetweenProxies(t *testing.T) {
	r, _ := startRedis(t, false)
	s, count, url := countingServer(t, time.Minute, mcp.CacheScopePublic)
	pa, ca, a := proxyInstance(t, r.Addr, url)
	pb, cb, b := proxyInstance(t, r.Addr, url)
	for i, u := range []string{a, b, a, b} {
		if got := listAs(t, u, fmt.Sprint("user", i)); got != "echo" {
			t.Fatalf("tools %q", got)
		}
	}
	if n := count(mcp.MethodListTools); n != 1 {
		t.Errorf("the upstream got %d tools/list through two proxies, want 1", n)
	}
	if h, m := pa.Tap().CacheHits()+pb.Tap().CacheHits(), pa.Tap().CacheMisses()+pb.Tap().CacheMisses(); h != 3 || m != 1 {
		t.Errorf("%d hits, %d misses; want 3, 1", h, m)
	}

	// A change: the proxies hear it upstream and drop the shared entry.
	deadline := time.Now().Add(10 * time.Second)
	for count(mcp.MethodSubscriptionsListen) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the proxies did not listen for changes upstream")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // the streams are acknowledged
	mcp.AddTool(s, mcp.Tool{Name: "late"}, func(ctx context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		return mcp.TextResult("late"), nil
	})
	for {
		got := listAs(t, b, "x")
		if got == "echo,late" {
			break
		}
		if got != "echo" || time.Now().After(deadline) {
			t.Fatalf("tools %q after the change", got)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := listAs(t, a, "y"); got != "echo,late" {
		t.Errorf("tools through the other proxy %q", got)
	}
	if n := count(mcp.MethodListTools); n != 2 {
		t.Errorf("the upstream got %d tools/list, want 2 (once more after the change)", n)
	}
	if ca.Errors() != 0 || cb.Errors() != 0 {
		t.Errorf("Redis errors: %d, %d", ca.Errors(), cb.Errors())
	}

	// Redis gone: every list goes upstream, none fails.
	r.Stop(5 * time.Second)
	before := count(mcp.MethodListTools)
	for _, u := range []string{a, b} {
		if got := listAs(t, u, "z"); got != "echo,late" {
			t.Errorf("tools %q with Redis down", got)
		}
	}
	if n := count(mcp.MethodListTools) - before; n != 2 {
		t.Errorf("with Redis down the upstream got %d tools/list, want 2", n)
	}
	if ca.Errors() == 0 || cb.Errors() == 0 {
		t.Errorf("Redis errors not counted: %d, %d", ca.Errors(), cb.Errors())
	}
}

// TestProxyCachePrivatePerPrincipal: a private list reaches the upstream
// once per principal, whichever proxy serves it.
func TestProxyCachePrivatePerPrincipal(t *testing.T) {
	r, _ := startRedis(t, false)
	_, count, url := countingServer(t, time.Minute, mcp.CacheScopePrivate)
	_, _, a := proxyInstance(t, r.Addr, url)
	_, _, b := proxyInstance(t, r.Addr, url)
	for _, c := range []struct{ url, who string }{{a, "alice"}, {b, "alice"}, {b, "bob"}, {a, "bob"}} {
		listAs(t, c.url, c.who)
	}
	if n := count(mcp.MethodListTools); n != 2 {
		t.Errorf("the upstream got %d tools/list, want 2 (once per principal)", n)
	}
}
