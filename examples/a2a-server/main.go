// Command a2a-server is an A2A agent (protocol 0.3.0) served with the
// dispatcher mcpgen generates from A2A's JSON schema (package a2a, see
// generate_test.go for how it is made): JSON-RPC 2.0 over HTTP POST, and
// the agent card at /.well-known/agent-card.json.
//
// The agent echoes: message/send answers with a completed task whose
// artifact repeats the message's text, tasks/get returns it, and the
// methods of capabilities it does not declare (streaming, push
// notifications, the extended card) answer with A2A's error for that.
//
//	go run ./examples/a2a-server -addr 127.0.0.1:9999
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9999", "address to listen on")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{
		Handler:           newHandler(newAgent("http://"+ln.Addr().String()+"/", time.Now)),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	log.Printf("a2a-server: serving A2A on http://%s/", ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}
