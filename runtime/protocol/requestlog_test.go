package protocol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// TestRequestLog: one record per request, with the method, the tool or
// resource, the outcome and the principal; a tool error and a failed
// request are told apart.
func TestRequestLog(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s := newSetServer()
	mcp.AddTool(s, mcp.Tool{Name: "fails"}, func(context.Context, *mcp.CallToolRequestParams, struct{}) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("no")}, IsError: new(true)}, nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "ok"}, func(context.Context, *mcp.CallToolRequestParams, struct{}) (*mcp.CallToolResult, error) {
		return mcp.TextResult("yes"), nil
	})
	who := func(context.Context) string { return "alice" }
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "t", Version: "1"},
		Middleware: []mcp.Middleware{mcp.RequestLog(l, who)}})
	call2026(t, d, "tools/call", `"name":"ok"`)
	call2026(t, d, "tools/call", `"name":"fails"`)
	call2026(t, d, "tools/call", `"name":"missing"`)
	call2026(t, d, "resources/read", `"uri":"file:///readme"`)

	var recs []map[string]any
	for line := range strings.Lines(buf.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		delete(m, "time")
		if _, ok := m["duration"].(float64); !ok {
			t.Errorf("no duration in %s", line)
		}
		delete(m, "duration")
		recs = append(recs, m)
	}
	want := []string{
		`{"level":"INFO","mcp.method.name":"tools/call","mcp.name":"ok","msg":"mcp: served tools/call","outcome":"ok","principal":"alice"}`,
		`{"level":"INFO","mcp.method.name":"tools/call","mcp.name":"fails","msg":"mcp: served tools/call","outcome":"tool_error","principal":"alice"}`,
		`{"error":"jsonrpc error -32602: unknown tool \"missing\"","level":"WARN","mcp.method.name":"tools/call","mcp.name":"missing","msg":"mcp: served tools/call","outcome":"error","principal":"alice","rpc.jsonrpc.error_code":-32602}`,
		`{"level":"INFO","mcp.method.name":"resources/read","mcp.resource.uri":"file:///readme","msg":"mcp: served resources/read","outcome":"ok","principal":"alice"}`,
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d:\n%s", len(recs), len(want), buf.String())
	}
	for i, r := range recs {
		got, _ := json.Marshal(r)
		if string(got) != want[i] {
			t.Errorf("record %d:\n got %s\nwant %s", i, got, want[i])
		}
	}
}
