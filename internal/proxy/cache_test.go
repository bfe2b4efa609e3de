package proxy

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// byHeader names the principal by the X-Who header (a stand-in for a
// verified token's subject).
func byHeader(ctx context.Context) string {
	if r := mcp.HTTPRequestFromContext(ctx); r != nil {
		return r.Header.Get("X-Who")
	}
	return ""
}

// clientAs connects a 2026-07-28 client without a cache of its own, as
// principal who.
func clientAs(t *testing.T, url, who string) *mcp.Client {
	t.Helper()
	c, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: url, Header: http.Header{"X-Who": {who}}}, nil, mcp.ClientOptions{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func toolNames(t *testing.T, c *mcp.Client) string {
	t.Helper()
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

func TestCachePublicSharedBetweenClients(t *testing.T) {
	_, up, url := modernServer(t, time.Minute, mcp.CacheScopePublic)
	p := newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: url}, Cache: NewMemoryStore(0), Principal: byHeader})
	purl := serveProxy(t, p)
	a, b := clientAs(t, purl, "alice"), clientAs(t, purl, "bob")
	for _, c := range []*mcp.Client{a, b, a} {
		if got := toolNames(t, c); got != "add,greet" {
			t.Errorf("tools %q", got)
		}
	}
	if n := up.get(mcp.MethodListTools); n != 1 {
		t.Errorf("the upstream got %d tools/list, want 1", n)
	}
	if h, m := p.Tap().CacheHits(), p.Tap().CacheMisses(); h != 2 || m != 1 {
		t.Errorf("%d hits, %d misses", h, m)
	}
}

func TestCachePrivatePerPrincipal(t *testing.T) {
	_, up, url := modernServer(t, time.Minute, mcp.CacheScopePrivate)
	p := newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: url}, Cache: NewMemoryStore(0), Principal: byHeader})
	purl := serveProxy(t, p)
	a1, a2, b := clientAs(t, purl, "alice"), clientAs(t, purl, "alice"), clientAs(t, purl, "bob")
	for _, c := range []*mcp.Client{a1, a2, b, b} {
		toolNames(t, c)
	}
	if n := up.get(mcp.MethodListTools); n != 2 {
		t.Errorf("the upstream got %d tools/list, want 2 (once per principal)", n)
	}
	// No principal: a private result is not kept.
	anon := clientAs(t, purl, "")
	toolNames(t, anon)
	toolNames(t, anon)
	if n := up.get(mcp.MethodListTools); n != 4 {
		t.Errorf("the upstream got %d tools/list, want 4", n)
	}
}

func TestCacheExpires(t *testing.T) {
	_, up, url := modernServer(t, 50*time.Millisecond, mcp.CacheScopePublic)
	p := newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: url}, Cache: NewMemoryStore(0)})
	c := clientAs(t, serveProxy(t, p), "")
	toolNames(t, c)
	time.Sleep(60 * time.Millisecond)
	toolNames(t, c)
	if n := up.get(mcp.MethodListTools); n != 2 {
		t.Errorf("the upstream got %d tools/list, want 2 (the first expired)", n)
	}
}

func TestCacheListChangedInvalidates(t *testing.T) {
	s, up, url := modernServer(t, time.Hour, mcp.CacheScopePublic)
	p := newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: url}, Cache: NewMemoryStore(0)})
	c := clientAs(t, serveProxy(t, p), "")
	if got := toolNames(t, c); got != "add,greet" {
		t.Fatalf("tools %q", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for up.get(mcp.MethodSubscriptionsListen) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the proxy did not listen for changes upstream")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // the stream is acknowledged
	mcp.AddTool(s, mcp.Tool{Name: "late"}, func(ctx context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		return mcp.TextResult("late"), nil
	})
	for {
		got := toolNames(t, c)
		if got == "add,greet,late" {
			break
		}
		if got != "add,greet" || time.Now().After(deadline) {
			t.Fatalf("tools %q", got)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := up.get(mcp.MethodListTools); n != 2 {
		t.Errorf("the upstream got %d tools/list, want 2", n)
	}
}

// breakTools is a server middleware that breaks a rule on purpose: the
// first tool of tools/list loses its required inputSchema.
func breakTools(next mcp.Handler) mcp.Handler {
	return func(ctx context.Context, req *mcp.Call) (jsonrpc.Result, error) {
		res, err := next(ctx, req)
		if err != nil || req.Method != mcp.MethodListTools {
			return res, err
		}
		b, err := res.(interface{ AppendJSON([]byte) ([]byte, error) }).AppendJSON(nil)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		delete(m["tools"].([]any)[0].(map[string]any), "inputSchema")
		b, _ = json.Marshal(m)
		return jsonrpc.RawResult(b), nil
	}
}

func TestTapReportsBrokenServer(t *testing.T) {
	_, _, url := modernServer(t, 0, "", breakTools)
	for _, strict := range []bool{false, true} {
		p := newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: url}, Strict: strict})
		c := clientAs(t, serveProxy(t, p), "")
		_, err := c.ListTools(context.Background(), nil)
		vs := p.Tap().Violations()
		if len(vs) != 1 {
			t.Fatalf("strict %v: violations %v", strict, vs)
		}
		v := vs[0]
		if v.Side != "upstream" || v.Method != "tools/list" || v.Part != "result" || v.Pointer != "/tools/0" || v.Keyword != "required" || !strings.Contains(v.Message, "inputSchema") {
			t.Errorf("strict %v: violation %+v", strict, v)
		}
		if !strings.Contains(p.Tap().Summary(), "1x upstream 2026-07-28 tools/list result /tools/0 required") {
			t.Errorf("summary:\n%s", p.Tap().Summary())
		}
		// A result the proxy cannot decode into 2026-07-28's types is
		// refused either way; --strict answers with the tap's words.
		want := "/tools/0: missing required member \"inputSchema\""
		if strict {
			want = "breaks the 2026-07-28 schema at /tools/0 (required)"
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("strict %v: %v", strict, err)
		}
	}
}

// TestCacheChangeDuringFetch: a result fetched while a change
// notification arrived may predate the change: it is answered but not
// kept, and the next request goes upstream.
func TestCacheChangeDuringFetch(t *testing.T) {
	var p *Proxy
	var once sync.Once
	changeMidway := func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Call) (jsonrpc.Result, error) {
			res, err := next(ctx, req)
			if req.Method == mcp.MethodListTools {
				// The change is heard while the result is on its way.
				once.Do(func() { upstreamHandler{p: p}.OnToolListChanged(context.Background(), nil) })
			}
			return res, err
		}
	}
	_, up, url := modernServer(t, time.Hour, mcp.CacheScopePublic, changeMidway)
	p = newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: url}, Cache: NewMemoryStore(0)})
	c := clientAs(t, serveProxy(t, p), "")
	for i, want := range []int{1, 2, 2} {
		if got := toolNames(t, c); got != "add,greet" {
			t.Fatalf("tools %q", got)
		}
		if n := up.get(mcp.MethodListTools); n != want {
			t.Errorf("after list %d the upstream got %d tools/list, want %d", i+1, n, want)
		}
	}
}
