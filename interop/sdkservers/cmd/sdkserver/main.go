// Command sdkserver serves the server of package sdkservers built with the
// official Go SDK (-sdk go-sdk) or mcp-go (-sdk mcp-go) over stdio, for the
// interoperability tests of the generated client's CommandTransport, or
// over Streamable HTTP with -http ADDR (a loopback address; with sessions,
// or without them with -stateless), for running mcpgen check against a
// process by hand (docs/check.md). Over HTTP it logs "listening on
// http://ADDR/mcp" and stops after -lifetime.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/interop/sdkservers"
)

func main() {
	which := flag.String("sdk", "go-sdk", "go-sdk or mcp-go")
	addr := flag.String("http", "", "serve Streamable HTTP at http://`ADDR`/mcp (a loopback address) instead of stdio")
	stateless := flag.Bool("stateless", false, "over HTTP, serve without sessions")
	lifetime := flag.Duration("lifetime", 10*time.Minute, "over HTTP, stop after this long")
	flag.Parse()
	var err error
	switch {
	case *which != "go-sdk" && *which != "mcp-go":
		err = fmt.Errorf("unknown -sdk %q", *which)
	case *addr != "":
		err = serveHTTP(*which, *addr, *stateless, *lifetime)
	case *which == "go-sdk":
		err = sdkservers.GoSDK().Run(context.Background(), &sdk.StdioTransport{})
	default:
		err = mcpgoserver.ServeStdio(sdkservers.MCPGo())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkserver:", err)
		os.Exit(1)
	}
}

func serveHTTP(which, addr string, stateless bool, lifetime time.Duration) error {
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || (host != "localhost" && (ip == nil || !ip.IsLoopback())) {
		return fmt.Errorf("-http %s: want a loopback address", addr)
	}
	var h http.Handler
	if which == "go-sdk" {
		s := sdkservers.GoSDK()
		h = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: stateless})
	} else {
		h = mcpgoserver.NewStreamableHTTPServer(sdkservers.MCPGo(), mcpgoserver.WithStateLess(stateless))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Printf("listening on http://%s/mcp", ln.Addr())
	time.AfterFunc(lifetime, func() { _ = srv.Close() })
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
