// Command discover-server is a small MCP server built on the generated
// 2026-07-28 package: it answers server/discover (from its options),
// tools/list (with cache hints) and tools/call for one tool, "add", which
// adds two integers. It serves stdio, or with -http Streamable HTTP at
// /mcp on the given address (loopback clients only):
//
//	go run ./examples/discover-server
//	go run ./examples/discover-server -http 127.0.0.1:3001
//
// With DISCOVER_SERVER_SLEEP=1 it also offers "sleep", which waits for ms
// milliseconds or until the request is cancelled (notifications/cancelled);
// the interop tests use it to cancel an in-flight request.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

var addTool = mcp.Tool{
	Name:        "add",
	Description: new("Adds two integers."),
	InputSchema: mcp.ToolInputSchema{Extra: mcp.Members{
		{Name: "properties", Value: json.RawMessage(`{"a":{"type":"integer"},"b":{"type":"integer"}}`)},
		{Name: "required", Value: json.RawMessage(`["a","b"]`)},
	}},
}

var sleepTool = mcp.Tool{
	Name:        "sleep",
	Description: new("Waits for ms milliseconds, or until the request is cancelled."),
	InputSchema: mcp.ToolInputSchema{Extra: mcp.Members{
		{Name: "properties", Value: json.RawMessage(`{"ms":{"type":"integer"}}`)},
		{Name: "required", Value: json.RawMessage(`["ms"]`)},
	}},
}

// server implements the methods it serves; UnimplementedServerHandler
// answers the rest with "method not found".
type server struct {
	mcp.UnimplementedServerHandler
	sleep bool // offer the "sleep" tool
	logf  func(format string, args ...any)
}

func (s server) ListTools(ctx context.Context, p *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	tools := []mcp.Tool{addTool}
	if s.sleep {
		tools = append(tools, sleepTool)
	}
	return &mcp.ListToolsResult{
		Tools:      tools,
		TTLMs:      (5 * time.Minute).Milliseconds(),
		CacheScope: mcp.CacheScopePublic,
	}, nil
}

func (s server) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if p.Name == "sleep" && s.sleep {
		return s.callSleep(ctx, p)
	}
	if p.Name != "add" {
		return nil, &mcp.RPCError{Code: mcp.CodeInvalidParams, Message: "unknown tool " + strconv.Quote(p.Name)}
	}
	var args struct{ A, B int64 }
	if err := json.Unmarshal(p.Arguments, &args); err != nil {
		return &mcp.CallToolResult{IsError: new(true), Content: []mcp.ContentBlock{&mcp.TextContent{Text: "bad arguments: " + err.Error()}}}, nil
	}
	sum := args.A + args.B
	return &mcp.CallToolResult{
		Content:           []mcp.ContentBlock{&mcp.TextContent{Text: strconv.FormatInt(sum, 10)}},
		StructuredContent: json.RawMessage(fmt.Sprintf(`{"sum":%d}`, sum)),
	}, nil
}

func (s server) callSleep(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	var args struct{ Ms int64 }
	if err := json.Unmarshal(p.Arguments, &args); err != nil {
		return &mcp.CallToolResult{IsError: new(true), Content: []mcp.ContentBlock{&mcp.TextContent{Text: "bad arguments: " + err.Error()}}}, nil
	}
	id := string(mcp.RequestFromContext(ctx).ID)
	s.logf("sleep %s: started", id)
	select {
	case <-time.After(time.Duration(args.Ms) * time.Millisecond):
		s.logf("sleep %s: done", id)
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "slept"}}}, nil
	case <-ctx.Done():
		s.logf("sleep %s: cancelled", id)
		return nil, ctx.Err()
	}
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://`ADDR`/mcp instead of stdio")
	flag.Parse()
	logf := log.New(os.Stderr, "discover-server: ", 0).Printf
	s := server{sleep: os.Getenv("DISCOVER_SERVER_SLEEP") == "1", logf: logf}
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{
		ServerInfo:   mcp.Implementation{Name: "discover-server", Version: "1.0.0"},
		Capabilities: mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{}},
		Instructions: "Call the add tool to add two integers.",
		DiscoverTTL:  time.Hour,
		Logf:         logf,
	})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *addr != "" {
		if err := serveHTTP(ctx, d, *addr, logf); err != nil {
			log.Fatal(err)
		}
		return
	}
	if err := d.Serve(ctx, os.Stdin, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// serveHTTP serves d at /mcp until ctx is done, then shuts down, letting
// the requests in flight finish.
func serveHTTP(ctx context.Context, d *mcp.ServerDispatcher, addr string, logf func(string, ...any)) error {
	h := mcp.NewHTTPHandler(d, mcp.HTTPOptions{})
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := h.NewServer(addr) // timeouts against slow clients
	srv.Handler = mux
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	logf("listening on http://%s/mcp", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
