package interop

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/auth"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/proxy"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// TestProxyOAuth: mcpgen proxy as an OAuth resource server for its
// clients and an OAuth client of its upstream, wired with the auth
// module: the proxy's handler behind an auth.ResourceServer, its
// Principal auth.PrincipalID (so that private results are cached per
// verified subject), and its upstream transport's Client an
// auth.Transport that obtains the proxy's own token (the authorization
// code grant at the test server, as "alice"). A request without a token
// gets 401; the upstream sees the proxy's principal; a private list
// reaches the upstream once per downstream subject.
func TestProxyOAuth(t *testing.T) {
	as := newTestAS(t)
	s := &mcp.Server{TTL: time.Minute, CacheScope: mcp.CacheScopePrivate}
	mcp.AddTool(s, mcp.Tool{Name: "echo"}, func(ctx context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		return mcp.TextResult("upstream principal " + subject(ctx)), nil
	})
	var lists atomic.Int64
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{Middleware: []mcp.Middleware{func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Call) (jsonrpc.Result, error) {
			if !req.Sent && req.Method == mcp.MethodListTools {
				lists.Add(1)
			}
			return next(ctx, req)
		}
	}}})
	upURL := protect(t, as.issuer(), as, mcp.NewHTTPHandler(d, mcp.HTTPOptions{}), nil)
	defer s.EndSubscriptions()

	tr, err := auth.NewTransport(upURL, auth.Config{Grant: &auth.AuthorizationCode{Interaction: redirectAgent{}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := proxy.New(ctx, proxy.Options{
		Upstream:  &mcp.HTTPTransport{URL: upURL, Client: tr.Client()},
		Cache:     proxy.NewMemoryStore(0),
		Principal: auth.PrincipalID,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// The proxy's clients present tokens of the proxy's own audience.
	down := staticVerifier{}
	purl := protect(t, as.issuer(), down, mcp.NewHTTPHandler(p.Dispatcher(), mcp.HTTPOptions{}), nil)
	for _, who := range []string{"alice", "bob"} {
		down["tok-"+who] = &auth.Principal{Issuer: as.issuer(), Subject: who, Audience: []string{purl}, Scopes: []string{"mcp"}}
	}

	resp, err := http.Post(purl, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata=") {
		t.Errorf("without a token: %s, WWW-Authenticate %q", resp.Status, resp.Header.Get("WWW-Authenticate"))
	}

	client := func(who string) *mcp.Client {
		c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: purl, Client: &http.Client{Transport: bearer{"tok-" + who, "tok-" + who}}}, nil, mcp.ClientOptions{NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	alice1, alice2, bob := client("alice"), client("alice"), client("bob")
	for _, c := range []*mcp.Client{alice1, alice2, bob, bob} {
		if res, err := c.ListTools(ctx, nil); err != nil || len(res.Tools) != 1 {
			t.Fatalf("tools/list: %+v, %v", res, err)
		}
	}
	if n := lists.Load(); n != 2 {
		t.Errorf("the upstream got %d tools/list for two subjects, want 2", n)
	}
	res, err := bob.CallTool(ctx, &mcp.CallToolRequestParams{Name: "echo"})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := res.Content[0].AppendJSON(nil); !strings.Contains(string(b), "upstream principal alice") {
		t.Errorf("the upstream saw %s, want the proxy's own principal (alice)", b)
	}
}
