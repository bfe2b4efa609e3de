package protocol_test

// A client that rides out transient failures: servers that fail on
// purpose (503 with Retry-After, connections dropped before or after the
// handler ran, a listen stream cut in the middle of an event), and a stdio
// server that exits on the server/discover probe.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// The test binary is also the stdio server of TestCommandRestartAfterProbe,
// run again with resilientServerEnv set.
const (
	resilientServerEnv = "MCPGEN_RESILIENT_SERVER"
	resilientLogEnv    = "MCPGEN_RESILIENT_LOG"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(resilientServerEnv); mode != "" {
		os.Exit(exitOnDiscoverServer(mode))
	}
	os.Exit(m.Run())
}

// exitOnDiscoverServer is a 2025-11-25 server over stdio that, like some
// servers of the handshake era, exits when its first message is
// server/discover: at once ("exit"), or after answering it with method
// not found ("answer-then-exit"). Each start appends a line to the file
// resilientLogEnv names.
func exitOnDiscoverServer(mode string) int {
	if name := os.Getenv(resilientLogEnv); name != "" {
		f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			fmt.Fprintln(f, "started")
			f.Close()
		}
	}
	in := bufio.NewReader(os.Stdin)
	first, err := in.ReadBytes('\n')
	if err != nil {
		return 1
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(first, &msg) == nil && msg.Method == spec.MethodDiscover {
		if mode == "answer-then-exit" {
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`+"\n", msg.ID)
		}
		return 0
	}
	if err := newServer2025().Serve(context.Background(), io.MultiReader(bytes.NewReader(first), in), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestCommandRestartAfterProbe: a stdio server that exits on the
// server/discover probe (before answering it, or right after) is started
// once more and opened with the initialize handshake.
func TestCommandRestartAfterProbe(t *testing.T) {
	for _, mode := range []string{"exit", "answer-then-exit"} {
		t.Run(mode, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			starts := filepath.Join(t.TempDir(), "starts")
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), resilientServerEnv+"="+mode, resilientLogEnv+"="+starts)
			c, err := mcp20260728.Connect(ctx, &mcp20260728.CommandTransport{Command: cmd, CloseTimeout: 2 * time.Second}, nil, mcp20260728.ClientOptions{})
			if err != nil {
				t.Fatalf("Connect: %v", err)
			}
			defer c.Close()
			if v := c.ProtocolVersion(); v != "2025-11-25" {
				t.Errorf("negotiated %q, want 2025-11-25", v)
			}
			res, err := c.CallTool(ctx, &mcp20260728.CallToolRequestParams{Name: "add", Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Content[0].(*mcp20260728.TextContent).Text; got != "42" {
				t.Errorf("add = %q, want 42", got)
			}
			b, err := os.ReadFile(starts)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(b), "started"); n != 2 {
				t.Errorf("the server was started %d times, want 2 (the probe, then the handshake)", n)
			}
		})
	}
}

// flaky is an HTTP server in front of an MCP handler that fails on
// purpose: the n-th request of a method (by Mcp-Method) gets the n-th
// action of its plan.
type flaky struct {
	h    http.Handler
	mu   sync.Mutex
	plan map[string][]string
	seen map[string]int
	// lastEventIDs are the Last-Event-ID headers of the listen requests.
	lastEventIDs []string
}

func (f *flaky) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen[method]
}

func (f *flaky) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := r.Header.Get(spec.HeaderMethod)
	f.mu.Lock()
	n := f.seen[method]
	f.seen[method]++
	action := ""
	if n < len(f.plan[method]) {
		action = f.plan[method][n]
	}
	if method == spec.MethodListen {
		f.lastEventIDs = append(f.lastEventIDs, r.Header.Get("Last-Event-Id"))
	}
	f.mu.Unlock()
	switch action {
	case "":
		f.h.ServeHTTP(w, r)
	case "503":
		w.Header().Set("Retry-After", "1")
		http.Error(w, "busy", http.StatusServiceUnavailable)
	case "503-long":
		w.Header().Set("Retry-After", "3600")
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
	case "drop":
		// The connection closes before any answer: the handler did not run.
		panic(http.ErrAbortHandler)
	case "run-drop":
		// The handler runs; its answer is lost with the connection.
		f.h.ServeHTTP(httptest.NewRecorder(), r)
		panic(http.ErrAbortHandler)
	case "listen-cut", "listen-end":
		listenStream(w, r, action)
	default:
		panic("unknown action " + action)
	}
}

// listenStream answers a subscriptions/listen: "listen-cut" sends the
// acknowledgement as event 1 and breaks off in the middle of the next
// event; "listen-end" sends tools/list_changed as event 2, then the result
// that ends the subscription.
func listenStream(w http.ResponseWriter, r *http.Request, action string) {
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	if action == "listen-cut" {
		fmt.Fprintf(w, "id: 1\ndata: %s\n\n", `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true}}}`)
		fmt.Fprint(w, `id: 2`+"\n"+`data: {"jsonrpc":"2.0","meth`)
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}
	fmt.Fprintf(w, "id: 2\ndata: %s\n\n", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}}`)
	fmt.Fprintf(w, "id: 3\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"resultType\":\"complete\",\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":%s}}}\n\n", req.ID, req.ID)
}

// countingServer is a 2026-07-28 server whose tool "act" counts how many
// times it ran.
func countingServer(runs *atomic.Int64) *mcp20260728.ServerDispatcher {
	d := newServer2026()
	mcp20260728.AddTool(d, mcp20260728.Tool{Name: "act"}, func(ctx context.Context, p *mcp20260728.CallToolRequestParams, in struct{}) (*mcp20260728.CallToolResult, error) {
		return mcp20260728.TextResult(strconv.FormatInt(runs.Add(1), 10)), nil
	})
	return d
}

func newFlaky(t *testing.T, runs *atomic.Int64, plan map[string][]string) (*flaky, string) {
	f := &flaky{h: mcp20260728.NewHTTPHandler(countingServer(runs), mcp20260728.HTTPOptions{}), plan: plan, seen: map[string]int{}}
	s := httptest.NewServer(f)
	t.Cleanup(s.Close)
	return f, s.URL + "/mcp"
}

// TestRetrySafeRequests: tools/list and resources/read, refused with 503
// and Retry-After, then dropped, succeed at the third sending, after the
// delay the server asked for; with MaxAttempts 1 they are sent once.
func TestRetrySafeRequests(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var runs atomic.Int64
	f, url := newFlaky(t, &runs, map[string][]string{
		spec.MethodDiscover:  {"drop"},
		spec.MethodListTools: {"503", "drop"},
	})
	c, err := mcp20260728.Connect(ctx, &mcp20260728.HTTPTransport{URL: url, RetryDelay: 10 * time.Millisecond}, nil, mcp20260728.ClientOptions{NoCache: true})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer c.Close()
	if v := c.ProtocolVersion(); v != "2026-07-28" {
		t.Errorf("negotiated %q after a dropped probe, want 2026-07-28 (the probe is retried, not taken for a legacy server)", v)
	}
	if n := f.count(spec.MethodDiscover); n != 2 {
		t.Errorf("server/discover sent %d times, want 2", n)
	}
	start := time.Now()
	res, err := c.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if len(res.Tools) != 2 {
		t.Errorf("tools/list listed %d tools, want 2", len(res.Tools))
	}
	if n := f.count(spec.MethodListTools); n != 3 {
		t.Errorf("tools/list sent %d times, want 3", n)
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("tools/list answered in %v: the Retry-After of 1 s was not honoured", d)
	}

	// Retries off.
	f2, url2 := newFlaky(t, &runs, map[string][]string{spec.MethodListTools: {"503"}})
	c2, err := mcp20260728.Connect(ctx, &mcp20260728.HTTPTransport{URL: url2, MaxAttempts: 1}, nil, mcp20260728.ClientOptions{NoCache: true})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer c2.Close()
	_, err = c2.ListTools(ctx, nil)
	var se *mcp20260728.HTTPStatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("tools/list with MaxAttempts 1: %v, want the 503", err)
	}
	if n := f2.count(spec.MethodListTools); n != 1 {
		t.Errorf("tools/list with MaxAttempts 1 sent %d times", n)
	}

	// A Retry-After beyond MaxRetryDelay ends the retries at once.
	f3, url3 := newFlaky(t, &runs, map[string][]string{spec.MethodListTools: {"503-long"}})
	c3, err := mcp20260728.Connect(ctx, &mcp20260728.HTTPTransport{URL: url3, MaxRetryDelay: time.Second}, nil, mcp20260728.ClientOptions{NoCache: true})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer c3.Close()
	start = time.Now()
	_, err = c3.ListTools(ctx, nil)
	if err == nil || !strings.Contains(err.Error(), "down for maintenance") || !strings.Contains(err.Error(), "MaxRetryDelay") {
		t.Errorf("tools/list refused for an hour: %v, want the server's answer and why it was not retried", err)
	}
	if n := f3.count(spec.MethodListTools); n != 1 || time.Since(start) > 5*time.Second {
		t.Errorf("tools/list refused for an hour: sent %d times in %v", n, time.Since(start))
	}
}

// TestToolCallNeverRepeated: a tools/call whose answer is lost after the
// tool ran, and one refused with 503, are sent once each: the tool runs
// once, and the errors say why they were not sent again and how far they
// got.
func TestToolCallNeverRepeated(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var runs atomic.Int64
	f, url := newFlaky(t, &runs, map[string][]string{spec.MethodCallTool: {"run-drop", "503", "drop"}})
	c, err := mcp20260728.Connect(ctx, &mcp20260728.HTTPTransport{URL: url, RetryDelay: 10 * time.Millisecond}, nil, mcp20260728.ClientOptions{})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer c.Close()
	call := func() error {
		_, err := c.CallTool(ctx, &mcp20260728.CallToolRequestParams{Name: "act", Arguments: []byte(`{}`)})
		return err
	}
	for i, want := range []string{
		"the server may have carried it out",
		"the server refused it without carrying it out",
		"the server may have carried it out",
	} {
		err := call()
		if err == nil || !strings.Contains(err.Error(), `not sent again: "tools/call" is not safe to repeat`) || !strings.Contains(err.Error(), want) {
			t.Errorf("tools/call %d: %v, want it not sent again and %q", i+1, err, want)
		}
		if n := f.count(spec.MethodCallTool); n != i+1 {
			t.Errorf("after tools/call %d the server got %d", i+1, n)
		}
	}
	if n := runs.Load(); n != 1 {
		t.Errorf("the tool ran %d times, want 1 (the first call; the second was refused, the third dropped)", n)
	}
	// The next call goes through, and the tool runs a second time.
	if err := call(); err != nil {
		t.Fatal(err)
	}
	if n := runs.Load(); n != 2 {
		t.Errorf("the tool ran %d times, want 2", n)
	}
}

// listenHandler records the notifications of a listen stream.
type listenHandler struct {
	mcp20260728.UnimplementedClientHandler
	acks, changes atomic.Int64
}

func (h *listenHandler) OnSubscriptionsAcknowledged(context.Context, *mcp20260728.SubscriptionsAcknowledgedNotificationParams) error {
	h.acks.Add(1)
	return nil
}

func (h *listenHandler) OnToolListChanged(context.Context, *mcp20260728.NotificationParams) error {
	h.changes.Add(1)
	return nil
}

// TestListenResumes: a subscriptions/listen whose stream is cut in the
// middle of an event, and whose next POST is refused with 503, listens
// again with the Last-Event-ID of the last whole event, and receives what
// the server sends there until it ends the subscription.
func TestListenResumes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var runs atomic.Int64
	f, url := newFlaky(t, &runs, map[string][]string{spec.MethodListen: {"listen-cut", "503", "listen-end"}})
	h := &listenHandler{}
	c, err := mcp20260728.Connect(ctx, &mcp20260728.HTTPTransport{URL: url, RetryDelay: 10 * time.Millisecond}, h, mcp20260728.ClientOptions{})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer c.Close()
	yes := true
	res, err := c.SubscriptionsListen(ctx, &mcp20260728.SubscriptionsListenRequestParams{Notifications: mcp20260728.SubscriptionFilter{ToolsListChanged: &yes}})
	if err != nil {
		t.Fatalf("subscriptions/listen: %v", err)
	}
	if res.ResultType != mcp20260728.ResultTypeComplete {
		t.Errorf("result %+v", res)
	}
	if n := f.count(spec.MethodListen); n != 3 {
		t.Errorf("subscriptions/listen sent %d times, want 3", n)
	}
	f.mu.Lock()
	ids := f.lastEventIDs
	f.mu.Unlock()
	if want := []string{"", "1", "1"}; strings.Join(ids, ",") != strings.Join(want, ",") {
		t.Errorf("Last-Event-ID of the listens: %q, want %q", ids, want)
	}
	// Notifications are handled in order, on a goroutine of their own.
	deadline := time.Now().Add(5 * time.Second)
	for (h.acks.Load() != 1 || h.changes.Load() != 1) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if h.acks.Load() != 1 || h.changes.Load() != 1 {
		t.Errorf("the handler got %d acknowledgements and %d list changes, want 1 and 1", h.acks.Load(), h.changes.Load())
	}
}

// TestListenGivesUp: a listen whose every POST is dropped fails after
// MaxReconnects reconnections, saying so.
func TestListenGivesUp(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var runs atomic.Int64
	f, url := newFlaky(t, &runs, map[string][]string{spec.MethodListen: {"drop", "drop", "drop", "drop"}})
	c, err := mcp20260728.Connect(ctx, &mcp20260728.HTTPTransport{URL: url, RetryDelay: 10 * time.Millisecond, MaxReconnects: 2}, nil, mcp20260728.ClientOptions{})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer c.Close()
	_, err = c.SubscriptionsListen(ctx, nil)
	if err == nil || !strings.Contains(err.Error(), "MaxReconnects") {
		t.Errorf("subscriptions/listen: %v, want it to give up", err)
	}
	if n := f.count(spec.MethodListen); n != 3 {
		t.Errorf("subscriptions/listen sent %d times, want 3 (MaxReconnects 2)", n)
	}
}
