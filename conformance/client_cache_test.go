package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Every rule of server/utilities/caching.mdx (2026-07-28), through a
// Client and a server whose answers the test writes. The rules that need a
// clock of their own (fresh while now < received + ttlMs, exactly) are
// also tested in runtime/protocol/client_cache_test.go.

// cacheServer is a Streamable HTTP server of 2026-07-28 whose results the
// test decides; it counts the requests it gets.
type cacheServer struct {
	mu     sync.Mutex
	counts map[string]int // method, or "method uri" for resources/read
	// answer returns the result (JSON) of a request, or an error object
	// (JSON, starting with `{"code"`).
	answer func(method string, params json.RawMessage) string
	// notes carries the notifications to send on subscriptions/listen.
	notes chan string
	srv   *httptest.Server
}

func newCacheServer(t *testing.T, answer func(method string, params json.RawMessage) string) *cacheServer {
	s := &cacheServer{counts: map[string]int{}, answer: answer, notes: make(chan string, 8)}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *cacheServer) count(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[key]
}

func (s *cacheServer) serveHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	body, _ := io.ReadAll(r.Body)
	if json.Unmarshal(body, &req) != nil {
		w.WriteHeader(400)
		return
	}
	key := req.Method
	if req.Method == "resources/read" {
		var p struct{ URI string }
		json.Unmarshal(req.Params, &p)
		key += " " + p.URI
	}
	s.mu.Lock()
	s.counts[key]++
	s.mu.Unlock()
	if req.Method == "subscriptions/listen" {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":%s},\"notifications\":{}}}\n\n", req.ID)
		w.(http.Flusher).Flush()
		for {
			select {
			case n := <-s.notes:
				fmt.Fprintf(w, "data: %s\n\n", n)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	var res string
	if req.Method == "server/discover" {
		res = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"resources":{}},"ttlMs":0,"cacheScope":"public"}`
	} else {
		res = s.answer(req.Method, req.Params)
	}
	if strings.HasPrefix(res, `{"code"`) {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":%s}`, req.ID, res)
		return
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, res)
}

func (s *cacheServer) client(t *testing.T, opts mcp.ClientOptions, h mcp.ClientHandler, header http.Header) *mcp.Client {
	t.Helper()
	c, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: s.srv.URL, Header: header}, h, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// listTools answers tools/list with ttl and scope.
func toolsAnswer(ttl, scope string) string {
	hints := ""
	if ttl != "" {
		hints += `,"ttlMs":` + ttl
	}
	if scope != "" {
		hints += `,"cacheScope":"` + scope + `"`
	}
	return `{"resultType":"complete","tools":[{"name":"t","inputSchema":{"type":"object"}}]` + hints + `}`
}

func TestClientCache(t *testing.T) {
	ctx := context.Background()
	list := func(t *testing.T, c *mcp.Client, params *mcp.PaginatedRequestParams) {
		t.Helper()
		if _, err := c.ListTools(ctx, params); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("cacheable results only", func(t *testing.T) {
		// "Servers MUST include caching hints on results ... of
		// server/discover, tools/list, prompts/list, resources/list,
		// resources/templates/list, resources/read": those are the
		// results a client may keep; tools/call is never answered from
		// the cache, whatever its result carries.
		s := newCacheServer(t, func(method string, _ json.RawMessage) string {
			switch method {
			case "tools/list":
				return toolsAnswer("60000", "public")
			case "prompts/list":
				return `{"resultType":"complete","prompts":[],"ttlMs":60000,"cacheScope":"public"}`
			case "resources/list":
				return `{"resultType":"complete","resources":[],"ttlMs":60000,"cacheScope":"public"}`
			case "resources/templates/list":
				return `{"resultType":"complete","resourceTemplates":[],"ttlMs":60000,"cacheScope":"public"}`
			case "resources/read":
				return `{"resultType":"complete","contents":[],"ttlMs":60000,"cacheScope":"public"}`
			}
			return `{"resultType":"complete","content":[],"ttlMs":60000,"cacheScope":"public"}`
		})
		c := s.client(t, mcp.ClientOptions{}, nil, nil)
		for range 3 {
			list(t, c, nil)
			c.ListPrompts(ctx, nil)
			c.ListResources(ctx, nil)
			c.ListResourceTemplates(ctx, nil)
			c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "file:///a"})
			c.Discover(ctx, nil)
			if _, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "t"}); err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range []string{"tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read file:///a"} {
			if n := s.count(m); n != 1 {
				t.Errorf("%s reached the server %d times, want 1", m, n)
			}
		}
		if n := s.count("tools/call"); n != 3 {
			t.Errorf("tools/call reached the server %d times, want 3", n)
		}
		// server/discover: Connect's probe said ttl 0; each Discover asks.
		if n := s.count("server/discover"); n != 4 {
			t.Errorf("server/discover reached the server %d times, want 4 (ttlMs 0)", n)
		}
	})

	t.Run("input required results and retries are not cached", func(t *testing.T) {
		// "Interim results with resultType: input_required ... are not
		// cacheable", and results of retries carrying inputResponses or
		// requestState "MUST NOT be cached".
		s := newCacheServer(t, func(method string, params json.RawMessage) string {
			if !strings.Contains(string(params), "inputResponses") {
				return `{"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create","params":{"mode":"form","message":"ok?","requestedSchema":{"type":"object","properties":{}}}}},"requestState":"s1"}`
			}
			return `{"resultType":"complete","contents":[],"ttlMs":60000,"cacheScope":"public"}`
		})
		c := s.client(t, mcp.ClientOptions{Capabilities: mcp.ClientCapabilities{Elicitation: &mcp.ClientCapabilitiesElicitation{}}}, acceptAll{}, nil)
		for range 2 {
			if _, err := c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "file:///a"}); err != nil {
				t.Fatal(err)
			}
		}
		if n := s.count("resources/read file:///a"); n != 4 {
			t.Errorf("resources/read reached the server %d times, want 4 (two rounds, twice)", n)
		}
	})

	t.Run("cache key", func(t *testing.T) {
		// "Clients MUST NOT serve a cached response for a request whose
		// method or parameters differ"; _meta is not part of the key.
		s := newCacheServer(t, func(method string, params json.RawMessage) string {
			if method == "resources/read" {
				return `{"resultType":"complete","contents":[],"ttlMs":60000,"cacheScope":"public"}`
			}
			return toolsAnswer("60000", "public")
		})
		c := s.client(t, mcp.ClientOptions{}, nil, nil)
		c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "file:///a"})
		c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "file:///b"})
		c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "file:///a", Meta: mcp.RequestMetaObject{LogLevel: new(mcp.LoggingLevelDebug)}})
		if a, b := s.count("resources/read file:///a"), s.count("resources/read file:///b"); a != 1 || b != 1 {
			t.Errorf("reads of a and b reached the server %d and %d times, want 1 and 1", a, b)
		}
		list(t, c, nil)
		list(t, c, &mcp.PaginatedRequestParams{Cursor: new("page2")})
		list(t, c, &mcp.PaginatedRequestParams{Cursor: new("page2")})
		if n := s.count("tools/list"); n != 2 {
			t.Errorf("tools/list reached the server %d times, want 2 (two cursors)", n)
		}
	})

	t.Run("ttl", func(t *testing.T) {
		// ttlMs 0: "immediately stale"; absent: "assume a default of 0";
		// negative: "treat it as 0"; positive: fresh for that long, then
		// "the client SHOULD re-fetch on next access".
		for _, tc := range []struct {
			name, ttl string
			want      int
		}{
			{"zero", "0", 3},
			{"absent", "", 3},
			{"negative", "-1000", 3},
			{"positive", "60000", 1},
		} {
			s := newCacheServer(t, func(string, json.RawMessage) string { return toolsAnswer(tc.ttl, "public") })
			c := s.client(t, mcp.ClientOptions{}, nil, nil)
			for range 3 {
				list(t, c, nil)
			}
			if n := s.count("tools/list"); n != tc.want {
				t.Errorf("%s ttl: tools/list reached the server %d times, want %d", tc.name, n, tc.want)
			}
		}
		s := newCacheServer(t, func(string, json.RawMessage) string { return toolsAnswer("100", "public") })
		c := s.client(t, mcp.ClientOptions{}, nil, nil)
		list(t, c, nil)
		time.Sleep(150 * time.Millisecond)
		// "Clients SHOULD NOT treat TTL as a polling interval that
		// triggers automatic background refetches."
		if n := s.count("tools/list"); n != 1 {
			t.Errorf("tools/list reached the server %d times while nobody asked, want 1", n)
		}
		list(t, c, nil)
		if n := s.count("tools/list"); n != 2 {
			t.Errorf("a stale result was served: tools/list reached the server %d times, want 2", n)
		}
	})

	t.Run("no stale result on errors", func(t *testing.T) {
		// "Clients MAY serve stale responses if errors occur during
		// re-fetching": this client does not; the error comes back.
		fail := false
		var mu sync.Mutex
		s := newCacheServer(t, func(string, json.RawMessage) string {
			mu.Lock()
			defer mu.Unlock()
			if fail {
				return `{"code":-32603,"message":"down"}`
			}
			return toolsAnswer("50", "public")
		})
		c := s.client(t, mcp.ClientOptions{}, nil, nil)
		list(t, c, nil)
		time.Sleep(80 * time.Millisecond)
		mu.Lock()
		fail = true
		mu.Unlock()
		if _, err := c.ListTools(ctx, nil); err == nil || !strings.Contains(err.Error(), "down") {
			t.Errorf("re-fetch error: %v", err)
		}
	})

	t.Run("refetch after a tool call error", func(t *testing.T) {
		// "Clients MAY re-fetch before the TTL expires if they have reason
		// to believe the data has changed (e.g., receiving an unexpected
		// error on a tool call indicating the method was not found or the
		// parameters were invalid)."
		s := newCacheServer(t, func(method string, _ json.RawMessage) string {
			if method == "tools/call" {
				return `{"code":-32602,"message":"unknown tool"}`
			}
			return toolsAnswer("60000", "public")
		})
		c := s.client(t, mcp.ClientOptions{}, nil, nil)
		list(t, c, nil)
		var re *mcp.RPCError
		if _, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "gone"}); !errors.As(err, &re) {
			t.Fatalf("tools/call: %v", err)
		}
		list(t, c, nil)
		if n := s.count("tools/list"); n != 2 {
			t.Errorf("tools/list reached the server %d times, want 2", n)
		}
	})

	t.Run("cache scope", func(t *testing.T) {
		// "public": any client may store and serve it to any user;
		// "private": "Caches MUST NOT be shared across authorization
		// contexts (e.g. a different access token requires a different
		// cache)". A result without cacheScope is treated as private.
		scope := "public"
		s := newCacheServer(t, func(method string, params json.RawMessage) string {
			if method == "resources/read" {
				return `{"resultType":"complete","contents":[],"ttlMs":60000,"cacheScope":"` + scope + `"}`
			}
			return toolsAnswer("60000", "")
		})
		shared := mcp.NewCache(0)
		alice := http.Header{"Authorization": {"Bearer alice"}}
		bob := http.Header{"Authorization": {"Bearer bob"}}
		a1 := s.client(t, mcp.ClientOptions{Cache: shared}, nil, alice)
		a2 := s.client(t, mcp.ClientOptions{Cache: shared}, nil, alice)
		b := s.client(t, mcp.ClientOptions{Cache: shared}, nil, bob)
		read := func(c *mcp.Client, uri string) {
			if _, err := c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: uri}); err != nil {
				t.Fatal(err)
			}
		}
		read(a1, "file:///public")
		read(b, "file:///public")
		if n := s.count("resources/read file:///public"); n != 1 {
			t.Errorf("a public result reached the server %d times for two users, want 1", n)
		}
		scope = "private"
		read(a1, "file:///private")
		read(a2, "file:///private")
		if n := s.count("resources/read file:///private"); n != 1 {
			t.Errorf("a private result reached the server %d times for one user, want 1", n)
		}
		read(b, "file:///private")
		if n := s.count("resources/read file:///private"); n != 2 {
			t.Errorf("a private result was shared with another user: %d requests, want 2", n)
		}
		// Without cacheScope: private. Without an authorization context
		// of their own, two Clients share nothing private.
		list(t, a1, nil)
		list(t, b, nil)
		c1 := s.client(t, mcp.ClientOptions{Cache: shared}, nil, nil)
		c2 := s.client(t, mcp.ClientOptions{Cache: shared}, nil, nil)
		list(t, c1, nil)
		list(t, c2, nil)
		list(t, c2, nil)
		if n := s.count("tools/list"); n != 4 {
			t.Errorf("tools/list without cacheScope reached the server %d times for four contexts, want 4", n)
		}
		// AuthContext names one explicitly.
		d1 := s.client(t, mcp.ClientOptions{Cache: shared, AuthContext: "carol"}, nil, nil)
		d2 := s.client(t, mcp.ClientOptions{Cache: shared, AuthContext: "carol"}, nil, nil)
		read(d1, "file:///carol")
		read(d2, "file:///carol")
		if n := s.count("resources/read file:///carol"); n != 1 {
			t.Errorf("one AuthContext: %d requests, want 1", n)
		}
		// NoCache: every request goes to the server.
		e := s.client(t, mcp.ClientOptions{Cache: shared, NoCache: true}, nil, alice)
		read(e, "file:///public")
		if n := s.count("resources/read file:///public"); n != 2 {
			t.Errorf("NoCache was served from the cache: %d requests, want 2", n)
		}
	})

	t.Run("notifications invalidate", func(t *testing.T) {
		// "When a relevant notification is received while a cached
		// response is still fresh, the notification invalidates the
		// cached response."
		s := newCacheServer(t, func(method string, params json.RawMessage) string {
			switch method {
			case "resources/read":
				return `{"resultType":"complete","contents":[],"ttlMs":60000,"cacheScope":"public"}`
			case "prompts/list":
				return `{"resultType":"complete","prompts":[],"ttlMs":60000,"cacheScope":"public"}`
			case "subscriptions/listen":
				return `{"resultType":"complete"}`
			}
			return toolsAnswer("60000", "public")
		})
		h := &noteCounter{got: make(chan string, 8)}
		c := s.client(t, mcp.ClientOptions{}, h, nil)
		lctx, stop := context.WithCancel(ctx)
		listening := make(chan error, 1)
		go func() {
			_, err := c.SubscriptionsListen(lctx, &mcp.SubscriptionsListenRequestParams{Notifications: mcp.SubscriptionFilter{ToolsListChanged: new(true)}})
			listening <- err
		}()
		<-h.got // acknowledged
		list(t, c, nil)
		c.ListPrompts(ctx, nil)
		c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "file:///a"})
		c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "file:///b"})
		s.notes <- `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":1}}}`
		<-h.got
		s.notes <- `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a","_meta":{"io.modelcontextprotocol/subscriptionId":1}}}`
		<-h.got
		list(t, c, nil)
		c.ListPrompts(ctx, nil)
		c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "file:///a"})
		c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "file:///b"})
		if n := s.count("tools/list"); n != 2 {
			t.Errorf("tools/list after list_changed: %d requests, want 2", n)
		}
		if n := s.count("prompts/list"); n != 1 {
			t.Errorf("prompts/list after tools' list_changed: %d requests, want 1", n)
		}
		if a, b := s.count("resources/read file:///a"), s.count("resources/read file:///b"); a != 2 || b != 1 {
			t.Errorf("reads after resources/updated of a: %d and %d, want 2 and 1", a, b)
		}
		stop()
		if err := <-listening; !errors.Is(err, context.Canceled) {
			t.Errorf("SubscriptionsListen ended with %v, want the context's error", err)
		}
	})

	t.Run("pagination", func(t *testing.T) {
		// "each page is an independently cacheable response" with its own
		// ttlMs; a cursor the server refuses: "discard all cached pages
		// and re-fetch from the beginning".
		s := newCacheServer(t, func(method string, params json.RawMessage) string {
			if strings.Contains(string(params), `"cursor":"stale"`) {
				return `{"code":-32602,"message":"invalid cursor"}`
			}
			if strings.Contains(string(params), `"cursor":"2"`) {
				return toolsAnswer("50", "public") // a shorter ttl for the last page
			}
			return `{"resultType":"complete","tools":[],"nextCursor":"2","ttlMs":60000,"cacheScope":"public"}`
		})
		c := s.client(t, mcp.ClientOptions{}, nil, nil)
		list(t, c, nil)
		list(t, c, &mcp.PaginatedRequestParams{Cursor: new("2")})
		time.Sleep(80 * time.Millisecond)
		list(t, c, nil)                                           // fresh
		list(t, c, &mcp.PaginatedRequestParams{Cursor: new("2")}) // stale: re-fetched
		if n := s.count("tools/list"); n != 3 {
			t.Errorf("tools/list: %d requests, want 3", n)
		}
		if _, err := c.ListTools(ctx, &mcp.PaginatedRequestParams{Cursor: new("stale")}); err == nil {
			t.Fatal("an invalid cursor succeeded")
		}
		list(t, c, nil) // every page was discarded
		if n := s.count("tools/list"); n != 5 {
			t.Errorf("tools/list after an invalid cursor: %d requests, want 5", n)
		}
	})
}

// acceptAll accepts every elicitation with nothing.
type acceptAll struct{ mcp.UnimplementedClientHandler }

func (acceptAll) Elicit(context.Context, mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	return &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept}, nil
}

// noteCounter passes on the notifications it gets.
type noteCounter struct {
	mcp.UnimplementedClientHandler
	got chan string
}

func (n *noteCounter) OnSubscriptionsAcknowledged(context.Context, *mcp.SubscriptionsAcknowledgedNotificationParams) error {
	n.got <- "ack"
	return nil
}

func (n *noteCounter) OnToolListChanged(context.Context, *mcp.NotificationParams) error {
	n.got <- "tools"
	return nil
}

func (n *noteCounter) OnResourceUpdated(context.Context, *mcp.ResourceUpdatedNotificationParams) error {
	n.got <- "updated"
	return nil
}
