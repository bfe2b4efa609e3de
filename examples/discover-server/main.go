// Command discover-server is a small MCP server built on the generated
// 2026-07-28 package (which also serves the clients of the older
// revisions through its conversions): it answers server/discover (from its options), and
// tools/list (with cache hints) and tools/call from a tool set with one
// tool, "add", which adds two integers (typed arguments in, a structured
// result out). It serves stdio, or with -http Streamable HTTP at
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
	"flag"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// addArgs are the arguments of "add": the tool set derives the tool's
// inputSchema from them and checks every call's arguments against it
// before add runs.
type addArgs struct {
	A int64 `json:"a" jsonschema:"the first addend"`
	B int64 `json:"b" jsonschema:"the second addend"`
}

// sum is the structured result of "add" (its outputSchema).
type sum struct {
	Sum int64 `json:"sum"`
}

func add(ctx context.Context, p *mcp.CallToolRequestParams, in addArgs) (sum, error) {
	return sum{Sum: in.A + in.B}, nil
}

type sleepArgs struct {
	Ms int64 `json:"ms" jsonschema:"how long to wait, in milliseconds"`
}

// sleeper is the "sleep" tool: it waits, or returns the context's error
// when the request is cancelled (and the dispatcher sends no response).
func sleeper(logf func(string, ...any)) func(context.Context, *mcp.CallToolRequestParams, sleepArgs) (*mcp.CallToolResult, error) {
	return func(ctx context.Context, p *mcp.CallToolRequestParams, in sleepArgs) (*mcp.CallToolResult, error) {
		id := string(mcp.RequestFromContext(ctx).ID)
		logf("sleep %s: started", id)
		select {
		case <-time.After(time.Duration(in.Ms) * time.Millisecond):
			logf("sleep %s: done", id)
			return mcp.TextResult("slept"), nil
		case <-ctx.Done():
			logf("sleep %s: cancelled", id)
			return nil, ctx.Err()
		}
	}
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://`ADDR`/mcp instead of stdio")
	flag.Parse()
	logf := log.New(os.Stderr, "discover-server: ", 0).Printf
	tools := &mcp.Server{TTL: 5 * time.Minute} // tools/list's ttlMs
	mcp.AddStructuredTool(tools, mcp.Tool{Name: "add", Description: new("Adds two integers.")}, add)
	if os.Getenv("DISCOVER_SERVER_SLEEP") == "1" {
		mcp.AddTool(tools, mcp.Tool{Name: "sleep", Description: new("Waits for ms milliseconds, or until the request is cancelled.")}, sleeper(logf))
	}
	// The Server is the handler: it answers tools/list and tools/call
	// (and the dispatcher declares the tools capability), the options
	// answer server/discover, and the rest is method not found.
	d := mcp.NewServerDispatcher(tools, mcp.ServerOptions{
		ServerInfo:   mcp.Implementation{Name: "discover-server", Version: "1.0.0"},
		Instructions: "Call the add tool to add two integers.",
		DiscoverTTL:  time.Hour,
		Logger:       slog.New(slog.NewTextHandler(os.Stderr, nil)),
	})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *addr != "" {
		// At /mcp, loopback clients only, until ctx is done.
		if err := mcp.NewHTTPHandler(d).ListenAndServe(ctx, *addr); err != nil {
			log.Fatal(err)
		}
		return
	}
	if err := d.Serve(ctx, os.Stdin, os.Stdout); err != nil {
		log.Fatal(err)
	}
}
