// Command everything-server is an MCP server that offers every kind of
// tool, resource and prompt the official MCP conformance suite
// (@modelcontextprotocol/conformance) tests, built on the generated
// 2026-07-28 package the way any server would be: the handlers in this
// directory, one file per feature area, use nothing but that package's
// exported API. It also serves the tasks extension
// (io.modelcontextprotocol/tasks). `make conformance` runs the suite
// against it.
//
// It serves stdio, or with -http Streamable HTTP at /mcp on the given
// address (loopback clients only):
//
//	go run ./examples/everything-server
//	go run ./examples/everything-server -http 127.0.0.1:3001
//
// With -http, it logs "listening on http://ADDR/mcp" once it accepts
// connections (with port 0, ADDR has the port the system chose). On
// SIGINT or SIGTERM it ends open subscriptions with a result, cancels
// running tasks and lets the requests in flight finish.
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://`ADDR`/mcp instead of stdio")
	flag.Parse()
	logger := log.New(os.Stderr, "everything-server: ", log.LstdFlags|log.Lmicroseconds)
	s := newServer(slog.New(slog.NewTextHandler(os.Stderr, nil)))
	opts, flush := s.options(), func(context.Context) error { return nil }
	if instrument != nil {
		var err error
		if opts, flush, err = instrument(opts); err != nil {
			logger.Fatal(err)
		}
	}
	d := mcp.NewServerDispatcher(s, opts)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go s.watch(ctx)
	var err error
	if *addr != "" {
		err = serveHTTP(ctx, s, d, *addr, logger.Printf)
	} else {
		err = d.Serve(ctx, os.Stdin, os.Stdout)
		if errors.Is(err, context.Canceled) {
			err = nil
		}
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if cerr := s.close(shutdown); cerr != nil && err == nil {
		err = cerr
	}
	if ferr := flush(shutdown); ferr != nil && err == nil {
		err = ferr
	}
	if err != nil {
		logger.Fatal(err)
	}
}

// instrument, when set, adds to the server's options what observes the
// server (middleware) and returns a function that sends out what it
// recorded, which main calls before it exits. This build leaves it nil:
// the example imports nothing but the generated package.
// otel/cmd/everything-server, the same files built in the otel module,
// sets it to export traces and metrics over OTLP (docs/telemetry.md).
var instrument func(mcp.ServerOptions) (mcp.ServerOptions, func(context.Context) error, error)

// serveHTTP serves d at /mcp until ctx is done, then shuts down: open
// subscriptions end with a result, and the requests in flight finish.
func serveHTTP(ctx context.Context, s *server, d *mcp.ServerDispatcher, addr string, logf func(string, ...any)) error {
	h := mcp.NewHTTPHandler(d)
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
	logf("shutting down")
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Subscriptions never end by themselves: end them first, so that
	// Shutdown does not wait for them.
	if err := s.close(shutdown); err != nil {
		return err
	}
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
