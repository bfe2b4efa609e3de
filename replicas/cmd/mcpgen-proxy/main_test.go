package main

import (
	"bytes"
	"context"
	"io"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/cli"
	"github.com/mcpgen/mcpgen/internal/cli/proxycmd"
	"github.com/mcpgen/mcpgen/replicas/internal/testinfra"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/schema"
)

func TestMain(m *testing.M) {
	proxycmd.AddPlugin(redisPlugin)
	os.Exit(m.Run())
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// run runs mcpgen-proxy's command line until ctx ends; it returns the
// URL it serves at (or "" and its exit code if it exits first).
func run(t *testing.T, ctx context.Context, args ...string) (string, *syncBuffer, <-chan int) {
	t.Helper()
	stderr := &syncBuffer{}
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: stderr, Locator: &schema.Locator{Offline: true}}
	code := make(chan int, 1)
	go func() { code <- cli.Run(ctx, append([]string{"proxy"}, args...), env) }()
	re := regexp.MustCompile(`serving (http://\S+/mcp)`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], stderr, code
		}
		select {
		case c := <-code:
			ch := make(chan int, 1)
			ch <- c
			return "", stderr, ch
		default:
		}
	}
	t.Fatalf("the proxy did not start: %s", stderr.String())
	return "", nil, nil
}

// TestRedisFlag: two mcpgen-proxy processes' worth of runs with the same
// --redis share the cache (a public list through both reaches the
// upstream once); a Redis that does not answer, or --redis with the cache
// off, is exit 2.
func TestRedisFlag(t *testing.T) {
	r := testinfra.StartRedis(t, testinfra.RedisOptions{})
	s := &mcp.Server{TTL: time.Minute, CacheScope: mcp.CacheScopePublic}
	mcp.AddTool(s, mcp.Tool{Name: "echo"}, func(ctx context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		return mcp.TextResult("echo"), nil
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
	hs := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	defer hs.Close()
	defer s.EndSubscriptions()

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var urls []string
	var codes []<-chan int
	for range 2 {
		u, stderr, code := run(t, ctx, "--listen", "127.0.0.1:0", "--redis", r.Addr, "--redis-prefix", "t:", hs.URL)
		if u == "" {
			t.Fatalf("exit %d: %s", <-code, stderr.String())
		}
		urls, codes = append(urls, u), append(codes, code)
	}
	for _, u := range []string{urls[0], urls[1], urls[0]} {
		c, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: u}, nil, mcp.ClientOptions{NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.ListTools(context.Background(), nil)
		c.Close()
		if err != nil || len(res.Tools) != 1 || res.Tools[0].Name != "echo" {
			t.Fatalf("tools/list: %+v, %v", res, err)
		}
	}
	if n := lists.Load(); n != 1 {
		t.Errorf("the upstream got %d tools/list through two proxies sharing Redis, want 1", n)
	}
	stop()
	for _, c := range codes {
		if n := <-c; n != 0 {
			t.Errorf("exit %d", n)
		}
	}

	if u, stderr, code := run(t, context.Background(), "--listen", "127.0.0.1:0", "--redis", r.Addr, "--cache-bytes", "0", hs.URL); u != "" || <-code != 2 || !strings.Contains(stderr.String(), "no cache to share") {
		t.Errorf("--redis with --cache-bytes 0: %s", stderr.String())
	}

	addr := r.Addr
	r.Stop(5 * time.Second)
	u, stderr, code := run(t, context.Background(), "--listen", "127.0.0.1:0", "--redis", addr, hs.URL)
	if n := <-code; u != "" || n != 2 || !strings.Contains(stderr.String(), "--redis "+addr) {
		t.Errorf("with Redis down: exit %d, %s", n, stderr.String())
	}
}
