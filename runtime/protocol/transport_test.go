package protocol_test

// A transport of one's own, outside the runtime: an in-process pipe of
// whole messages drives servers and clients of two revisions, whose
// runtime types are the same.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// pipeEnd is one end of an in-process pipe of messages.
type pipeEnd struct {
	in     <-chan []byte
	out    chan<- []byte
	closed chan struct{} // closed by either end's Close
	once   *sync.Once
	// sent counts the messages written, so that the test can tell the
	// transport carried the conversation.
	sent *int
	mu   *sync.Mutex
}

func pipe() (a, b *pipeEnd) {
	ab, ba := make(chan []byte, 16), make(chan []byte, 16)
	closed, once, mu := make(chan struct{}), new(sync.Once), new(sync.Mutex)
	return &pipeEnd{in: ba, out: ab, closed: closed, once: once, sent: new(int), mu: mu},
		&pipeEnd{in: ab, out: ba, closed: closed, once: once, sent: new(int), mu: mu}
}

func (p *pipeEnd) Read(ctx context.Context) ([]byte, error) {
	select {
	case m := <-p.in:
		return m, nil
	case <-p.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pipeEnd) Write(ctx context.Context, msg []byte) error {
	m := append([]byte(nil), msg...) // the connection does not keep msg
	select {
	case p.out <- m:
		p.mu.Lock()
		*p.sent++
		p.mu.Unlock()
		return nil
	case <-p.closed:
		return errors.New("pipe closed")
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *pipeEnd) Close() error {
	p.once.Do(func() { close(p.closed) })
	return nil
}

func (p *pipeEnd) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return *p.sent
}

// pipeTransport connects a client to a server served on the other end of
// a pipe.
type pipeTransport struct {
	serve  func(ctx context.Context, s jsonrpc.Stream) error
	client *pipeEnd
	done   chan error
}

func (t *pipeTransport) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	c, s := pipe()
	t.client, t.done = c, make(chan error, 1)
	go func() { t.done <- t.serve(context.Background(), s) }()
	return c, nil
}

// wait waits for the server to return once the client has closed.
func (t *pipeTransport) wait(tb testing.TB) {
	tb.Helper()
	select {
	case err := <-t.done:
		if err != nil {
			tb.Errorf("the server's ServeStream = %v, want nil at the end of the stream", err)
		}
	case <-time.After(5 * time.Second):
		tb.Fatal("the server did not return after the client closed")
	}
}

type addArgs struct {
	A int64 `json:"a"`
	B int64 `json:"b"`
}

func newServer2026() *mcp20260728.ServerDispatcher {
	d := mcp20260728.NewServerDispatcher(&mcp20260728.Server{}, mcp20260728.ServerOptions{ServerInfo: mcp20260728.Implementation{Name: "adder-2026", Version: "1"}})
	mcp20260728.AddTool(d, mcp20260728.Tool{Name: "add"}, func(ctx context.Context, p *mcp20260728.CallToolRequestParams, in addArgs) (*mcp20260728.CallToolResult, error) {
		return mcp20260728.TextResult(strconv.FormatInt(in.A+in.B, 10)), nil
	})
	return d
}

func newServer2025() *mcp20251125.ServerDispatcher {
	d := mcp20251125.NewServerDispatcher(&mcp20251125.Server{}, mcp20251125.ServerOptions{ServerInfo: mcp20251125.Implementation{Name: "adder-2025", Version: "1"}})
	mcp20251125.AddTool(d, mcp20251125.Tool{Name: "add"}, func(ctx context.Context, p *mcp20251125.CallToolRequestParams, in addArgs) (*mcp20251125.CallToolResult, error) {
		return mcp20251125.TextResult(strconv.FormatInt(in.A+in.B, 10)), nil
	})
	return d
}

var args = json.RawMessage(`{"a":40,"b":2}`)

// TestOwnTransportAcrossRevisions: a 2025-11-25 client talks to a
// 2026-07-28 server (which serves the older revision through its
// conversions), and a 2026-07-28 client to a 2025-11-25 server (the client
// falls back to the initialize handshake), each over the pipe.
func TestOwnTransportAcrossRevisions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	// A 2025-11-25 client, a 2026-07-28 server.
	tr := &pipeTransport{serve: newServer2026().ServeStream}
	old, err := mcp20251125.Connect(ctx, tr, nil, mcp20251125.ClientOptions{})
	if err != nil {
		t.Fatalf("2025-11-25 client: %v", err)
	}
	if v := old.ProtocolVersion(); v != "2025-11-25" {
		t.Errorf("the 2025-11-25 client negotiated %q", v)
	}
	if name := old.ServerInfo().Name; name != "adder-2026" {
		t.Errorf("the 2025-11-25 client sees the server %q", name)
	}
	res, err := old.CallTool(ctx, &mcp20251125.CallToolRequestParams{Name: "add", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp20251125.TextContent).Text; got != "42" {
		t.Errorf("the 2025-11-25 client's add = %q, want 42", got)
	}
	_, errOld := old.CallTool(ctx, &mcp20251125.CallToolRequestParams{Name: "no-such-tool", Arguments: args})
	if n := tr.client.count(); n < 3 {
		t.Errorf("the client wrote %d messages on the pipe; it should have carried the handshake and the calls", n)
	}
	if err := old.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	tr.wait(t)

	// A 2026-07-28 client, a 2025-11-25 server.
	tr = &pipeTransport{serve: newServer2025().ServeStream}
	modern, err := mcp20260728.Connect(ctx, tr, nil, mcp20260728.ClientOptions{})
	if err != nil {
		t.Fatalf("2026-07-28 client: %v", err)
	}
	if v := modern.ProtocolVersion(); v != "2025-11-25" {
		t.Errorf("the 2026-07-28 client negotiated %q with a 2025-11-25 server", v)
	}
	res2, err := modern.CallTool(ctx, &mcp20260728.CallToolRequestParams{Name: "add", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if got := res2.Content[0].(*mcp20260728.TextContent).Text; got != "42" {
		t.Errorf("the 2026-07-28 client's add = %q, want 42", got)
	}
	_, errModern := modern.CallTool(ctx, &mcp20260728.CallToolRequestParams{Name: "no-such-tool", Arguments: args})
	if err := modern.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	tr.wait(t)

	// One error type across revisions: either client's error is the
	// runtime's *jsonrpc.RPCError, whichever package's name is used.
	for _, err := range []error{errOld, errModern} {
		var re2025 *mcp20251125.RPCError
		var re2026 *mcp20260728.RPCError
		if !errors.As(err, &re2025) || !errors.As(err, &re2026) || re2025 != re2026 {
			t.Fatalf("calling an unknown tool: %v (%T), want an *RPCError of both packages", err, err)
		}
		if re2025.Code != jsonrpc.CodeInvalidParams || !strings.Contains(re2025.Message, "no-such-tool") {
			t.Errorf("calling an unknown tool: code %d %q", re2025.Code, re2025.Message)
		}
	}
}

// failingTransport's Connect fails, or returns no stream.
type failingTransport struct{ err error }

func (t failingTransport) Connect(context.Context) (jsonrpc.Stream, error) { return nil, t.err }

func TestOwnTransportFails(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("boom")
	if _, err := mcp20260728.Connect(ctx, failingTransport{boom}, nil, mcp20260728.ClientOptions{}); !errors.Is(err, boom) {
		t.Errorf("Connect with a failing transport = %v, want its error", err)
	}
	_, err := mcp20260728.Connect(ctx, failingTransport{}, nil, mcp20260728.ClientOptions{})
	if err == nil || !strings.Contains(err.Error(), "protocol_test.failingTransport.Connect returned no stream") {
		t.Errorf("Connect with a transport that returns no stream = %v", err)
	}
	var _ protocol.Transport = failingTransport{}
	var _ mcp20251125.Transport = failingTransport{}
}

// TestOwnTransportServerGone: when the server's end closes, the client's
// requests fail with an error that says so, and do not hang.
func TestOwnTransportServerGone(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srvCtx, stop := context.WithCancel(context.Background())
	tr := &pipeTransport{serve: func(_ context.Context, s jsonrpc.Stream) error {
		err := newServer2026().ServeStream(srvCtx, s)
		s.Close()
		return err
	}}
	c, err := mcp20260728.Connect(ctx, tr, nil, mcp20260728.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	stop()
	tr.wait(t)
	_, err = c.CallTool(ctx, &mcp20260728.CallToolRequestParams{Name: "add", Arguments: args})
	if err == nil || !strings.Contains(err.Error(), "the server closed the connection") {
		t.Errorf("a call after the server closed = %v", err)
	}
}

// streamIO reads and writes whole messages on a stream, for the tests of
// HTTPTransport.Connect.
type streamIO struct {
	t *testing.T
	s jsonrpc.Stream
}

func (sio streamIO) write(msg string) {
	sio.t.Helper()
	if err := sio.s.Write(context.Background(), []byte(msg)); err != nil {
		sio.t.Fatalf("Write(%s): %v", msg, err)
	}
}

// read returns the next message, which must contain every want.
func (sio streamIO) read(want ...string) string {
	sio.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := sio.s.Read(ctx)
	if err != nil {
		sio.t.Fatalf("Read: %v (waiting for a message with %q)", err, want)
	}
	for _, w := range want {
		if !strings.Contains(string(msg), w) {
			sio.t.Fatalf("read %s, want it to contain %s", msg, w)
		}
	}
	return string(msg)
}

// methodLog records the methods and headers of the HTTP requests a
// handler gets.
type methodLog struct {
	mu   sync.Mutex
	seen []string // "METHOD Mcp-Method Mcp-Name MCP-Protocol-Version Mcp-Session-Id?"
	h    http.Handler
}

func (l *methodLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	session := ""
	if r.Header.Get("Mcp-Session-Id") != "" {
		session = "session"
	}
	l.mu.Lock()
	l.seen = append(l.seen, strings.Join([]string{r.Method, r.Header.Get("Mcp-Method"), r.Header.Get("Mcp-Name"), r.Header.Get("MCP-Protocol-Version"), session}, " "))
	l.mu.Unlock()
	l.h.ServeHTTP(w, r)
}

func (l *methodLog) has(line string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Contains(l.seen, line)
}

// TestHTTPStreamModern: Streamable HTTP as a stream of messages, against a
// 2026-07-28 server: each request is POSTed with the headers of its
// revision, and cancelling one closes its response stream.
func TestHTTPStreamModern(t *testing.T) {
	d := newServer2026()
	cancelled := make(chan error, 1)
	mcp20260728.AddTool(d, mcp20260728.Tool{Name: "slow"}, func(ctx context.Context, p *mcp20260728.CallToolRequestParams, in struct{}) (*mcp20260728.CallToolResult, error) {
		<-ctx.Done()
		cancelled <- ctx.Err()
		return nil, ctx.Err()
	})
	log := &methodLog{h: mcp20260728.NewHTTPHandler(d, mcp20260728.HTTPOptions{})}
	hs := httptest.NewServer(log)
	defer hs.Close()
	s, err := (&protocol.HTTPTransport{URL: hs.URL}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sio := streamIO{t, s}
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	sio.write(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`)
	sio.read(`"id":1`, `"supportedVersions"`, `"2026-07-28"`)
	sio.write(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":40,"b":2},` + meta + `}}`)
	sio.read(`"id":2`, `"text":"42"`)
	if !log.has("POST tools/call add 2026-07-28 ") {
		t.Errorf("the tools/call POST lacked its headers; the server saw %q", log.seen)
	}
	sio.write(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{},` + meta + `}}`)
	time.Sleep(50 * time.Millisecond) // the POST is on its way
	sio.write(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,` + meta + `}}`)
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the cancelled handler's context ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("closing the response stream did not cancel the request")
	}
	sio.write(`{"jsonrpc":"2.0","id":4,"method":"no/such","params":{` + meta + `}}`)
	sio.read(`"id":4`, `"code":-32601`) // and nothing for id 3
}

// TestHTTPStreamSessions: against a 2025-11-25 server the stream learns
// the session and the negotiated version from initialize, sends them
// with the later messages, opens the session's GET stream once
// notifications/initialized is accepted, and deletes the session when it
// closes.
func TestHTTPStreamSessions(t *testing.T) {
	d := newServer2025()
	mcp20251125.AddTool(d, mcp20251125.Tool{Name: "log"}, func(ctx context.Context, p *mcp20251125.CallToolRequestParams, in struct{}) (*mcp20251125.CallToolResult, error) {
		if err := mcp20251125.Log(ctx, "info", "", "working"); err != nil {
			return nil, err
		}
		return mcp20251125.TextResult("done"), nil
	})
	log := &methodLog{h: mcp20251125.NewHTTPHandler(d, mcp20251125.HTTPOptions{})}
	hs := httptest.NewServer(log)
	defer hs.Close()
	s, err := (&protocol.HTTPTransport{URL: hs.URL}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sio := streamIO{t, s}
	sio.write(`{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	sio.read(`"id":"i"`, `"protocolVersion":"2025-11-25"`)
	sio.write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if !log.has("POST   2025-11-25 session") {
		t.Errorf("notifications/initialized went without the session or the version; the server saw %q", log.seen)
	}
	sio.write(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"log","arguments":{}}}`)
	sio.read(`"notifications/message"`, `"working"`)
	sio.read(`"id":2`, `"text":"done"`)
	// The GET stream carries what the server sends outside requests.
	deadline := time.Now().Add(10 * time.Second)
	for !log.has("GET   2025-11-25 session") {
		if time.Now().After(deadline) {
			t.Fatalf("no GET stream was opened; the server saw %q", log.seen)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n, err := d.Broadcast("notifications/tools/list_changed", nil); n != 1 || err != nil {
		t.Fatalf("Broadcast reached %d sessions: %v", n, err)
	}
	sio.read(`"notifications/tools/list_changed"`)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !log.has("DELETE   2025-11-25 session") {
		t.Errorf("Close did not delete the session; the server saw %q", log.seen)
	}
	if _, err := s.Read(context.Background()); err != io.EOF {
		t.Errorf("Read after Close = %v, want io.EOF", err)
	}
	if err := s.Write(context.Background(), []byte(`{}`)); err == nil {
		t.Error("Write after Close succeeded")
	}
}

// TestHTTPStreamFailures: a request whose POST fails is answered with an
// error response that says why.
func TestHTTPStreamFailures(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
		http.Error(w, "no token", http.StatusUnauthorized)
	}))
	defer hs.Close()
	s, err := (&protocol.HTTPTransport{URL: hs.URL}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sio := streamIO{t, s}
	sio.write(`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}`)
	sio.read(`"id":7`, `"code":-32603`, `401 Unauthorized: no token`, `"data":{"httpStatus":401}`)
	if err := s.Write(context.Background(), []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a notification the server refuses: Write = %v, want the HTTP error", err)
	}
	if _, err := (&protocol.HTTPTransport{}).Connect(context.Background()); err == nil {
		t.Error("Connect without a URL succeeded")
	}
}
