// Command legacyserver serves internal/legacyserver (a server written
// against the generated 2025-11-25 or 2025-06-18 package) over stdio, or
// with -http over Streamable HTTP with sessions, for the interop tests.
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
	"time"

	"github.com/mcpgen/mcpgen/internal/legacyserver"
)

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://`ADDR`/mcp instead of stdio")
	version := flag.String("version", "2025-11-25", "the protocol `revision` to serve: 2025-11-25 or 2025-06-18")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("legacyserver: ")
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil)).With("server", "legacyserver")
	s, err := legacyserver.New(*version, legacyserver.Options{Logger: logger})
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *addr == "" {
		if err := s.Serve(ctx, os.Stdin, os.Stdout); err != nil {
			log.Fatal(err)
		}
		return
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.HTTP(legacyserver.HTTPConfig{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("listening on http://%s/mcp", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		log.Fatal(err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(shutdown)
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}
