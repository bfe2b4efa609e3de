package conformance

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// Client.Listen, the one way a client receives list changes and resource
// updates: the same code against a 2026-07-28 server (subscriptions/listen)
// and a 2025-11-25 one (resources/subscribe, notifications sent unasked),
// in memory and over Streamable HTTP on 127.0.0.1; and the 2025-11-25
// package's own Client.

// listenServer is a server of one revision whose lists and resources the
// test changes.
type listenServer struct {
	// change announces, in order: a prompt added, the resource
	// "notes://other" updated, a tool added, "notes://today" updated.
	change func()
	// methods are the methods the server received.
	methods func() []string
	// end ends the server's subscriptions/listen streams (nil: none).
	end func()
}

// methodLog records the methods a dispatcher receives.
type methodLog struct {
	mu sync.Mutex
	ms []string
}

func (l *methodLog) add(m string) { l.mu.Lock(); l.ms = append(l.ms, m); l.mu.Unlock() }
func (l *methodLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.ms)
}

func newListenServer2026(t *testing.T, http bool) (mcp.Transport, listenServer) {
	s := &mcp.Server{}
	read := func(uri string) func(context.Context, *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
		return func(context.Context, *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.ReadResourceResultContentsItem{mcp.TextContents(uri, "text/plain", "x")}}, nil
		}
	}
	mcp.AddResource(s, mcp.Resource{URI: "notes://today", Name: "today"}, read("notes://today"))
	mcp.AddResource(s, mcp.Resource{URI: "notes://other", Name: "other"}, read("notes://other"))
	mcp.AddPrompt(s, mcp.Prompt{Name: "p0"}, func(context.Context, *mcp.GetPromptRequestParams, struct{}) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	var log methodLog
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{Middleware: []mcp.Middleware{func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, c *mcp.Call) (jsonrpc.Result, error) {
			log.add(c.Method)
			return next(ctx, c)
		}
	}}})
	n := 0
	ls := listenServer{
		change: func() {
			n++
			mcp.AddPrompt(s, mcp.Prompt{Name: "p" + strconv.Itoa(n)}, func(context.Context, *mcp.GetPromptRequestParams, struct{}) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{}, nil
			})
			s.ResourceUpdated("notes://other")
			mcp.AddTool(s, mcp.Tool{Name: "t" + strconv.Itoa(n)}, func(context.Context, *mcp.CallToolRequestParams, struct{}) (*mcp.CallToolResult, error) {
				return mcp.TextResult("ok"), nil
			})
			s.ResourceUpdated("notes://today")
		},
		methods: log.list,
		end:     s.EndSubscriptions,
	}
	if !http {
		return &mcp.InMemoryTransport{Server: d}, ls
	}
	srv := httptest.NewServer(mcp.NewHTTPHandler(d))
	t.Cleanup(srv.Close)
	return &mcp.HTTPTransport{URL: srv.URL}, ls
}

func newListenServer2025(t *testing.T, http bool) (mcp.Transport, listenServer) {
	s := &mcp20251125.Server{}
	read := func(uri string) func(context.Context, *mcp20251125.ReadResourceRequestParams) (*mcp20251125.ReadResourceResult, error) {
		return func(context.Context, *mcp20251125.ReadResourceRequestParams) (*mcp20251125.ReadResourceResult, error) {
			return &mcp20251125.ReadResourceResult{Contents: []mcp20251125.ReadResourceResultContentsItem{mcp20251125.TextContents(uri, "text/plain", "x")}}, nil
		}
	}
	mcp20251125.AddResource(s, mcp20251125.Resource{URI: "notes://today", Name: "today"}, read("notes://today"))
	mcp20251125.AddResource(s, mcp20251125.Resource{URI: "notes://other", Name: "other"}, read("notes://other"))
	mcp20251125.AddPrompt(s, mcp20251125.Prompt{Name: "p0"}, func(context.Context, *mcp20251125.GetPromptRequestParams, struct{}) (*mcp20251125.GetPromptResult, error) {
		return &mcp20251125.GetPromptResult{}, nil
	})
	var log methodLog
	d := mcp20251125.NewServerDispatcher(s, mcp20251125.ServerOptions{Middleware: []mcp20251125.Middleware{func(next mcp20251125.Handler) mcp20251125.Handler {
		return func(ctx context.Context, c *mcp20251125.Call) (jsonrpc.Result, error) {
			log.add(c.Method)
			return next(ctx, c)
		}
	}}})
	n := 0
	ls := listenServer{
		change: func() {
			n++
			mcp20251125.AddPrompt(s, mcp20251125.Prompt{Name: "p" + strconv.Itoa(n)}, func(context.Context, *mcp20251125.GetPromptRequestParams, struct{}) (*mcp20251125.GetPromptResult, error) {
				return &mcp20251125.GetPromptResult{}, nil
			})
			s.ResourceUpdated("notes://other")
			mcp20251125.AddTool(s, mcp20251125.Tool{Name: "t" + strconv.Itoa(n)}, func(context.Context, *mcp20251125.CallToolRequestParams, struct{}) (*mcp20251125.CallToolResult, error) {
				return mcp20251125.TextResult("ok"), nil
			})
			s.ResourceUpdated("notes://today")
		},
		methods: log.list,
	}
	if !http {
		return &mcp20251125.InMemoryTransport{Server: d}, ls
	}
	srv := httptest.NewServer(mcp20251125.NewHTTPHandler(d))
	t.Cleanup(srv.Close)
	return &mcp20251125.HTTPTransport{URL: srv.URL}, ls
}

// toolsSeen counts the tools list_changed notifications the
// ClientHandler receives (Listen's function is called after it).
type toolsSeen struct {
	mcp.UnimplementedClientHandler
	n atomic.Int32
}

func (h *toolsSeen) OnToolListChanged(context.Context, *mcp.NotificationParams) error {
	h.n.Add(1)
	return nil
}

// listenOnce runs Listen for the tools list and "notes://today", makes the
// server change, and returns the changes received (waiting for the two
// asked for), then stops Listen and checks it returned ctx's error.
func listenOnce(t *testing.T, ls listenServer, listen func(context.Context, mcp.Subscription, func(mcp.Change)) error) []mcp.Change {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	lctx, stop := context.WithCancel(ctx)
	ready := make(chan struct{})
	var mu sync.Mutex
	var got []mcp.Change
	two := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- listen(lctx, mcp.Subscription{ToolsListChanged: true, ResourceSubscriptions: []string{"notes://today"}, Ready: func() { close(ready) }}, func(ch mcp.Change) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, ch)
			if len(got) == 2 {
				close(two)
			}
		})
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("Listen returned before it was ready: %v", err)
	case <-ctx.Done():
		t.Fatal("Listen was not ready within 10 s")
	}
	ls.change()
	select {
	case <-two:
	case <-ctx.Done():
		mu.Lock()
		t.Fatalf("changes within 10 s: %+v, want two", got)
	}
	stop()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Listen returned %v, want context.Canceled", err)
		}
	case <-ctx.Done():
		t.Fatal("Listen did not return within 10 s of its context's end")
	}
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(got)
}

var wantChanges = []mcp.Change{
	{Method: mcp.MethodToolListChangedNotification},
	{Method: mcp.MethodResourceUpdatedNotification, URI: "notes://today"},
}

func TestClientListen(t *testing.T) {
	for _, tc := range []struct {
		name string
		srv  func(*testing.T, bool) (mcp.Transport, listenServer)
		// version the client speaks; subscribe: the methods Listen
		// sends the server (besides subscriptions/listen).
		version   string
		subscribe []string
	}{
		{"2026-07-28", newListenServer2026, "2026-07-28", nil},
		{"2025-11-25", newListenServer2025, "2025-11-25", []string{"resources/subscribe", "resources/unsubscribe"}},
	} {
		for _, http := range []bool{false, true} {
			name := tc.name + "/memory"
			if http {
				name = tc.name + "/http"
			}
			t.Run(name, func(t *testing.T) {
				tr, ls := tc.srv(t, http)
				h := &toolsSeen{}
				c, err := mcp.Connect(context.Background(), tr, h)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				if v := c.ProtocolVersion(); v != tc.version {
					t.Fatalf("the client speaks %s, want %s", v, tc.version)
				}
				got := listenOnce(t, ls, c.Listen)
				// Neither the prompt nor the other resource, though they
				// changed first.
				if !slices.Equal(got, wantChanges) {
					t.Errorf("changes %+v, want %+v", got, wantChanges)
				}
				var sent []string
				for _, m := range ls.methods() {
					if m == "resources/subscribe" || m == "resources/unsubscribe" || m == "subscriptions/listen" {
						sent = append(sent, m)
					}
				}
				want := tc.subscribe
				if tc.version == "2026-07-28" {
					want = []string{"subscriptions/listen"}
				}
				if !slices.Equal(sent, want) {
					t.Errorf("the server received %v, want %v", sent, want)
				}
				if tc.version != "2026-07-28" {
					// Once Listen has returned its function is not called:
					// a list change the server sends unasked reaches the
					// ClientHandler only.
					before := h.n.Load()
					ls.change()
					deadline := time.Now().Add(10 * time.Second)
					for h.n.Load() == before && time.Now().Before(deadline) {
						time.Sleep(5 * time.Millisecond)
					}
					if h.n.Load() == before {
						t.Error("the ClientHandler did not receive the tools list_changed within 10 s")
					}
				}
			})
		}
	}
}

// TestClientListenOlderPackage: the 2025-11-25 package's own Client has the
// same Listen.
func TestClientListenOlderPackage(t *testing.T) {
	tr, ls := newListenServer2025(t, false)
	c, err := mcp20251125.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got := listenOnce(t, ls, c.Listen)
	if !slices.Equal(got, wantChanges) {
		t.Errorf("changes %+v, want %+v", got, wantChanges)
	}
}

// TestClientListenEnds: a 2026-07-28 server that ends its streams ends
// Listen with nil; a nil function and a closed client are errors.
func TestClientListenEnds(t *testing.T) {
	tr, ls := newListenServer2026(t, false)
	c, err := mcp.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- c.Listen(context.Background(), mcp.Subscription{ToolsListChanged: true, Ready: func() { close(ready) }}, func(mcp.Change) {})
	}()
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("Listen was not ready within 10 s")
	}
	ls.end()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Listen ended by the server: %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Listen did not return within 10 s of the server ending the stream")
	}
	if err := c.Listen(context.Background(), mcp.Subscription{}, nil); err == nil || err.Error() != "mcp: Listen: the function that receives the changes is nil" {
		t.Errorf("nil function: %v", err)
	}
	c.Close()
	if err := c.Listen(context.Background(), mcp.Subscription{}, func(mcp.Change) {}); err == nil || err.Error() != "mcp: the client is closed" {
		t.Errorf("closed client: %v", err)
	}
}

// TestClientListenConnectionEnds: against a 2025-11-25 server, Listen
// returns when the client is closed.
func TestClientListenConnectionEnds(t *testing.T) {
	tr, _ := newListenServer2025(t, false)
	c, err := mcp.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- c.Listen(context.Background(), mcp.Subscription{ToolsListChanged: true, Ready: func() { close(ready) }}, func(mcp.Change) {})
	}()
	<-ready
	c.Close()
	select {
	case err := <-done:
		if err == nil || err.Error() != "mcp: the client is closed" {
			t.Errorf("Listen after Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Listen did not return within 10 s of Close")
	}
}
