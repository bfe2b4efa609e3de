package protocol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	old "github.com/mcpgen/mcpgen/generated/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// bigToolServer has the tool "big", whose result is a text of n x's.
func bigToolServer(limit int) *mcp.ServerDispatcher {
	s := &mcp.Server{}
	mcp.AddTool(s, mcp.Tool{Name: "big"}, func(_ context.Context, _ *mcp.CallToolRequestParams, in struct {
		N int `json:"n"`
	}) (*mcp.CallToolResult, error) {
		return mcp.TextResult(strings.Repeat("x", in.N)), nil
	})
	return mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "big", Version: "1"}, MaxResultBytes: limit})
}

// tooLargeText is the text a tool error for a result above the limit has.
var tooLargeText = regexp.MustCompile(`^tool result too large: the result is ([0-9]+) bytes long; this server sends results of at most ([0-9]+)$`)

// TestToolResultAboveTheLimit: a tools/call whose response would be
// longer than MaxResultBytes is answered with a tool error that says so,
// over stdio, HTTP and to a client of 2025-11-25 through the conversion;
// the connection goes on serving (a result under the limit comes back
// whole afterwards).
func TestToolResultAboveTheLimit(t *testing.T) {
	const limit = 64 << 10
	d := bigToolServer(limit)
	hs := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	defer hs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	type caller func(n int) (text string, isError bool, err error)
	modern := func(tr mcp.Transport) caller {
		c, err := mcp.Connect(ctx, tr, nil, mcp.ClientOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return func(n int) (string, bool, error) {
			r, err := c.Call(ctx, "big", map[string]int{"n": n})
			if err != nil {
				return "", false, err
			}
			return r.Text(), r.IsError != nil && *r.IsError, nil
		}
	}
	older := func(tr old.Transport) caller {
		c, err := old.Connect(ctx, tr, nil, old.ClientOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return func(n int) (string, bool, error) {
			r, err := c.CallTool(ctx, &old.CallToolRequestParams{Name: "big", Arguments: json.RawMessage(`{"n":` + strconv.Itoa(n) + `}`)})
			if err != nil {
				return "", false, err
			}
			return r.Text(), r.IsError != nil && *r.IsError, nil
		}
	}
	for _, tc := range []struct {
		name string
		call caller
	}{
		{"stdio", modern(&mcp.InMemoryTransport{Server: d})},
		{"http", modern(&mcp.HTTPTransport{URL: hs.URL})},
		{"2025-11-25/stdio", older(&old.InMemoryTransport{Server: d})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, n := range []int{100_000, limit, 10 << 20} {
				text, isError, err := tc.call(n)
				if err != nil {
					t.Fatalf("n=%d: %v", n, err)
				}
				m := tooLargeText.FindStringSubmatch(text)
				if !isError || m == nil {
					t.Fatalf("n=%d: isError %v, text %.200q; want a tool error matching %s", n, isError, text, tooLargeText)
				}
				size, _ := strconv.Atoi(m[1])
				max, _ := strconv.Atoi(m[2])
				// The result holds the n x's; the envelope takes a few
				// bytes of the limit.
				if size <= n || size > n+1000 || max >= limit || max < limit-100 {
					t.Errorf("n=%d: %q: the result's size or the limit is wrong", n, text)
				}
				// The connection still serves: a result under the limit
				// comes back whole.
				text, isError, err = tc.call(1000)
				if err != nil || isError || text != strings.Repeat("x", 1000) {
					t.Fatalf("after n=%d: %v %v %.100q", n, err, isError, text)
				}
			}
		})
	}
}

// TestResultLimitExact: a response of exactly MaxResultBytes is sent as it
// is; one byte less of limit turns the tools/call into the tool error,
// whose text names the result's size and what the envelope leaves of the
// limit, and which keeps the result's _meta (the serverInfo) and
// resultType. Another request above the limit is an internal error.
func TestResultLimitExact(t *testing.T) {
	ctx := context.Background()
	call := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{` + meta2026 + `,"name":"big","arguments":{"n":5000}}}`)
	whole := bigToolServer(-1).Handle(ctx, call)
	const head = `{"jsonrpc":"2.0","id":7,"result":`
	if !bytes.HasPrefix(whole, []byte(head)) || !bytes.Contains(whole, []byte(strings.Repeat("x", 5000))) {
		t.Fatalf("without a limit: %.300s", whole)
	}
	result := whole[len(head) : len(whole)-1]
	if got := bigToolServer(len(whole)).Handle(ctx, call); !bytes.Equal(got, whole) {
		t.Errorf("at the limit: %.300s, want the whole result", got)
	}
	got := bigToolServer(len(whole)-1).Handle(ctx, call)
	var resp struct {
		ID     int `json:"id"`
		Result struct {
			Meta    map[string]json.RawMessage `json:"_meta"`
			Content []struct {
				Type, Text string
			} `json:"content"`
			IsError    bool   `json:"isError"`
			ResultType string `json:"resultType"`
		} `json:"result"`
	}
	if err := json.Unmarshal(got, &resp); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	want := fmt.Sprintf("tool result too large: the result is %d bytes long; this server sends results of at most %d", len(result), len(whole)-1-len(head)-1)
	r := resp.Result
	if resp.ID != 7 || !r.IsError || r.ResultType != "complete" || len(r.Content) != 1 || r.Content[0].Type != "text" || r.Content[0].Text != want {
		t.Errorf("one byte over: %s\nwant the tool error %q", got, want)
	}
	if info := string(r.Meta["io.modelcontextprotocol/serverInfo"]); info != `{"name":"big","version":"1"}` {
		t.Errorf("serverInfo %s, want the result's", info)
	}
	if len(got) > len(whole)-1 {
		t.Errorf("the tool error is %d bytes, above the limit %d", len(got), len(whole)-1)
	}

	list := []byte(`{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{` + meta2026 + `}}`)
	got = bigToolServer(100).Handle(ctx, list)
	var e struct {
		Error struct {
			Code    int
			Message string
		}
	}
	json.Unmarshal(got, &e)
	if n := len(bigToolServer(-1).Handle(ctx, list)); e.Error.Code != jsonrpc.CodeInternalError || e.Error.Message != "internal error: the response is "+strconv.Itoa(n)+" bytes long; this server sends at most 100" {
		t.Errorf("tools/list above the limit: %s", got)
	}

	if got := (jsonrpc.Limits{}).ResultLimit(); got != jsonrpc.MaxMessageSize {
		t.Errorf("the default limit is %d, want MaxMessageSize", got)
	}
	if got := (jsonrpc.Limits{MaxResult: -1}).ResultLimit(); got != 0 {
		t.Errorf("a negative MaxResult gives %d, want 0 (no limit)", got)
	}
}
