package protocol

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// InMemoryTransport connects a client to a server in the same process,
// for tests: each Connect serves Server (a generated ServerDispatcher)
// over one end of an in-memory connection, in the stdio framing, and
// gives the client the other end. Closing the client's stream ends the
// server's side and waits for it to return. No file, socket or process is
// involved.
type InMemoryTransport struct {
	// Server serves the connection; a generated ServerDispatcher does.
	Server interface {
		ServeStream(ctx context.Context, s jsonrpc.Stream) error
	}
}

// Connect starts serving a new in-memory connection and returns the
// client's end of it.
func (t *InMemoryTransport) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	if t.Server == nil {
		return nil, errors.New("mcp: InMemoryTransport: Server is nil")
	}
	client, server := net.Pipe()
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = t.Server.ServeStream(sctx, jsonrpc.NewLineStream(server, server, nil))
		server.Close()
	}()
	return &memoryStream{Stream: jsonrpc.NewLineStream(client, client, client), cancel: cancel, done: done}, nil
}

func (t *InMemoryTransport) serverKey() string { return fmt.Sprintf("memory:%p", t.Server) }

// memoryStream is the client's end of an InMemoryTransport connection.
type memoryStream struct {
	jsonrpc.Stream
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
	err    error
}

// Close closes the client's end; the server reads the end of its input
// and returns, which Close waits for.
func (s *memoryStream) Close() error {
	s.once.Do(func() {
		s.err = s.Stream.Close()
		<-s.done
		s.cancel()
	})
	return s.err
}
