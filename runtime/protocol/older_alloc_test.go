package protocol_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// TestOlderPathMemory: a tools/call whose params carry 100,000 members no
// schema names costs a client of 2025-11-25, served through the
// conversions, no more than the same params cost a client of 2026-07-28:
// in bytes allocated per request and in bytes live while the handler runs
// (measured in the handler, after a collection). Both handlers see every
// member, in Extra. The older path used to hold the body twice (read again
// by the handler of the older revisions) and the converted params twice
// (copied again to be decoded): 1.39 times the direct path's allocation and
// 1.18 times its live bytes, where it now measures 1.00 and 0.82.
func TestOlderPathMemory(t *testing.T) {
	const members = 100_000
	var (
		extra   int
		live    uint64
		measure bool
	)
	s := &mcp.Server{}
	mcp.AddTool(s, mcp.Tool{Name: "add"}, func(_ context.Context, p *mcp.CallToolRequestParams, in struct {
		A int `json:"a"`
		B int `json:"b"`
	}) (*mcp.CallToolResult, error) {
		extra = len(p.Extra)
		if measure {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			live = ms.HeapAlloc
			runtime.KeepAlive(p) // a handler that uses its params after this
		}
		return mcp.TextResult(strconv.Itoa(in.A + in.B)), nil
	})
	h := mcp.NewHTTPHandler(mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "adder", Version: "1"}}), mcp.HTTPOptions{})

	post := func(version, session string, body []byte) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("MCP-Protocol-Version", version)
		if session != "" {
			r.Header.Set("Mcp-Session-Id", session)
		}
		if version == "2026-07-28" {
			r.Header.Set("Mcp-Method", "tools/call")
			r.Header.Set("Mcp-Name", "add")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	w := post("2025-11-25", "", []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	session := w.Header().Get("Mcp-Session-Id")
	if w.Code != http.StatusOK || session == "" {
		t.Fatalf("initialize: %d %s", w.Code, w.Body)
	}
	if w := post("2025-11-25", session, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); w.Code != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d %s", w.Code, w.Body)
	}

	var p strings.Builder
	p.WriteString(`{"name":"add","arguments":{"a":40,"b":2}`)
	for i := range members {
		p.WriteString(`,"x` + strconv.Itoa(i) + `":0`)
	}
	const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	type cost struct{ alloc, live float64 }
	run := func(version, session, params string) cost {
		body := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":` + params + `}}`)
		call := func() {
			extra = 0
			w := post(version, session, body)
			if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"text":"42"`) {
				t.Fatalf("%s: %d %.300s", version, w.Code, w.Body)
			}
			if extra != members {
				t.Fatalf("%s: the handler saw %d members in Extra; want %d", version, extra, members)
			}
		}
		call() // the older schema compiles on first use
		const n = 3
		runtime.GC()
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		for range n {
			call()
		}
		runtime.ReadMemStats(&ms1)
		measure = true
		call()
		measure = false
		return cost{
			alloc: float64(ms1.TotalAlloc-ms0.TotalAlloc) / n / float64(len(body)),
			live:  float64(live-ms0.HeapAlloc) / float64(len(body)),
		}
	}
	direct := run("2026-07-28", "", p.String()+`,"_meta":`+meta)
	older := run("2025-11-25", session, p.String())
	t.Logf("per body byte: allocated %.2f (2026-07-28) and %.2f (2025-11-25), ratio %.3f; live in the handler %.2f and %.2f, ratio %.3f",
		direct.alloc, older.alloc, older.alloc/direct.alloc, direct.live, older.live, older.live/direct.live)
	if older.alloc > 1.05*direct.alloc {
		t.Errorf("the older path allocates %.2f bytes per body byte, %.3f times the direct path's %.2f; want at most 1.05 times", older.alloc, older.alloc/direct.alloc, direct.alloc)
	}
	if older.live > 1.05*direct.live {
		t.Errorf("the older path holds %.2f bytes per body byte while the handler runs, %.3f times the direct path's %.2f; want at most 1.05 times", older.live, older.live/direct.live, direct.live)
	}
}
