package proxy

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/codec"
)

// Bounded memory on every path: what the proxy holds per message and in
// total has a bound, and a message over one is refused with an error,
// the proxy serving on.

// TestRequestOverTheLimit: a downstream HTTP request larger than the
// handler's MaxBodyBytes gets 413, and the proxy serves the next one.
func TestRequestOverTheLimit(t *testing.T) {
	_, up, url := modernServer(t, 0, "")
	p := newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: url}})
	purl := serveProxy(t, p) // MaxBodyBytes: the default, 4 MiB
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"pad":"` + strings.Repeat("x", 5<<20) + `"}}}`
	req, _ := http.NewRequest("POST", purl, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a 5 MiB request: status %d, want 413", resp.StatusCode)
	}
	if n := up.get(mcp.MethodCallTool); n != 0 {
		t.Errorf("the upstream got %d tools/call", n)
	}
	if got := toolNames(t, clientAs(t, purl, "")); got != "add,greet" {
		t.Errorf("after the refusal, tools %q", got)
	}
}

// TestResultOverTheLimit: a result from the upstream larger than the
// upstream transport's MaxMessageBytes is refused (the client gets an
// error, the proxy does not hold it), and the proxy serves the next
// request.
func TestResultOverTheLimit(t *testing.T) {
	s, _, url := modernServer(t, 0, "")
	mcp.AddTool(s, mcp.Tool{Name: "big"}, func(ctx context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		return mcp.TextResult(strings.Repeat("x", 2<<20)), nil
	})
	p := newProxy(t, Options{Upstream: &mcp.HTTPTransport{URL: url, MaxMessageBytes: 1 << 20}})
	c := clientAs(t, serveProxy(t, p), "")
	_, err := c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "big"})
	if err == nil || !strings.Contains(err.Error(), "1048576") {
		t.Errorf("a 2 MiB result through a 1 MiB bound: %v", err)
	}
	if got := toolNames(t, c); got != "add,greet,big" {
		t.Errorf("after the refusal, tools %q", got)
	}
}

// TestMemoryStoreBound: the memory store never holds more than its bound
// (keys and values), drops the entries that expire soonest first, and
// does not keep a value larger than the bound.
func TestMemoryStoreBound(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(1000)
	now := time.Unix(0, 0)
	s.now = func() time.Time { return now }
	for i := range 50 {
		// 2+98 bytes each; entry i lives i+1 minutes.
		s.Set(ctx, fmt.Sprintf("%02d", i), "t", []byte(strings.Repeat("v", 98)), time.Duration(i+1)*time.Minute)
		if s.bytes > 1000 {
			t.Fatalf("after %d entries the store holds %d bytes", i+1, s.bytes)
		}
	}
	if s.Len() != 10 {
		t.Errorf("%d entries, want 10", s.Len())
	}
	if _, ok := s.Get(ctx, "39"); ok {
		t.Error("an entry that expires sooner than those kept was kept")
	}
	if _, ok := s.Get(ctx, "49"); !ok {
		t.Error("the entry that lives longest was dropped")
	}
	s.Set(ctx, "big", "t", make([]byte, 1001), time.Hour)
	if _, ok := s.Get(ctx, "big"); ok || s.Len() != 10 {
		t.Errorf("a value over the bound was kept (or cost entries): %d entries", s.Len())
	}
}

// TestTapCountsBounded: a peer that breaks rules at ever new pointers
// makes the tap count past its first kinds together.
func TestTapCountsBounded(t *testing.T) {
	tap := newTap(nil, false)
	for i := range maxCounted + 500 {
		tap.record("upstream", mcp.ProtocolVersion, "tools/list", "result", &codec.ValidationError{Violations: []codec.Violation{{Pointer: fmt.Sprintf("/tools/%d", i), Keyword: "required", Message: "m"}}})
	}
	if len(tap.counts) != maxCounted+1 || tap.counts[otherKinds] != 500 {
		t.Errorf("%d kinds counted, %d as others", len(tap.counts), tap.counts[otherKinds])
	}
	if len(tap.Violations()) != maxKept {
		t.Errorf("%d violations kept", len(tap.Violations()))
	}
	if !strings.Contains(tap.Summary(), "500x "+otherKinds) {
		t.Error("the summary does not count the others")
	}
}
