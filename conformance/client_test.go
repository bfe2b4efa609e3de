package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The generated client (client.go, runtime/protocol/rpc_client*.go) against the
// generated server of the same revision, over stdio framing and over
// Streamable HTTP.

// pipeConn is one end of a pair of pipes: what it writes the other end
// reads.
type pipeConn struct {
	io.Reader
	io.WriteCloser
	r io.Closer
}

func (c pipeConn) Close() error {
	c.WriteCloser.Close()
	return c.r.Close()
}

// serveStdio serves d over a pair of pipes and returns the client's end;
// the server stops when the client closes its end or the test ends.
func serveStdio(t *testing.T, d *mcp.ServerDispatcher) io.ReadWriteCloser {
	t.Helper()
	return servePipes(t, d.Serve)
}

// servePipes runs serve over a pair of pipes and returns the client's end.
func servePipes(t *testing.T, serve func(context.Context, io.Reader, io.Writer) error) io.ReadWriteCloser {
	t.Helper()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := serve(context.Background(), c2sR, s2cW)
		s2cW.Close()
		c2sR.Close()
		done <- err
	}()
	t.Cleanup(func() {
		c2sW.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return pipeConn{Reader: s2cR, WriteCloser: c2sW, r: s2cR}
}

func newToolServer() *mcp.ServerDispatcher {
	return mcp.NewServerDispatcher(toolSet(), mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "tools", Version: "1.0.0"}})
}

func checkClient(t *testing.T, c *mcp.Client) {
	t.Helper()
	ctx := context.Background()
	if c.ProtocolVersion() != mcp.ProtocolVersion {
		t.Errorf("ProtocolVersion = %q", c.ProtocolVersion())
	}
	if si := c.ServerInfo(); si == nil || si.Name != "tools" {
		t.Errorf("ServerInfo = %+v", si)
	}
	if caps := c.ServerCapabilities(); caps == nil || caps.Tools == nil {
		t.Errorf("ServerCapabilities = %+v", caps)
	}
	tools, err := c.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 3 {
		t.Errorf("tools: %d", len(tools.Tools))
	}
	res, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "add", Arguments: json.RawMessage(`{"a":2,"b":3}`)})
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != "5" || res.ResultType != mcp.ResultTypeComplete {
		t.Errorf("add: %+v", res)
	}
	_, err = c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "refuse", Arguments: json.RawMessage(`{}`)})
	if re, ok := err.(*mcp.RPCError); !ok || re.Code != -32001 {
		t.Errorf("refuse: %v", err)
	}
	_, err = c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "nope"})
	if re, ok := err.(*mcp.RPCError); !ok || re.Code != mcp.CodeInvalidParams {
		t.Errorf("unknown tool: %v", err)
	}
}

func TestClientStdio(t *testing.T) {
	conn := serveStdio(t, newToolServer())
	c, err := mcp.Connect(context.Background(), &mcp.StreamTransport{Conn: conn}, nil, mcp.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkClient(t, c)
	if err := c.Close(); err != nil {
		t.Error(err)
	}
	if _, err := c.ListTools(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("after Close: %v", err)
	}
}

func TestClientHTTP(t *testing.T) {
	srv := httptest.NewServer(mcp.NewHTTPHandler(newToolServer(), mcp.HTTPOptions{}))
	defer srv.Close()
	c, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: srv.URL}, nil, mcp.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkClient(t, c)
	if err := c.Close(); err != nil {
		t.Error(err)
	}
}

// fakeStdio is a server the test scripts: handle gets each request the
// client sends (notifications too) and writes lines back with write.
func fakeStdio(t *testing.T, handle func(req fakeRequest, line []byte, write func(string))) io.ReadWriteCloser {
	t.Helper()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	var wmu sync.Mutex
	write := func(line string) {
		wmu.Lock()
		defer wmu.Unlock()
		io.WriteString(s2cW, line+"\n")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer s2cW.Close()
		sc := bufio.NewScanner(c2sR)
		for sc.Scan() {
			var req fakeRequest
			if json.Unmarshal(sc.Bytes(), &req) != nil {
				continue
			}
			if req.Method == "server/discover" {
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, discoverResult))
				continue
			}
			handle(req, append([]byte(nil), sc.Bytes()...), write)
		}
	}()
	t.Cleanup(func() {
		c2sW.Close()
		<-done
	})
	return pipeConn{Reader: s2cR, WriteCloser: c2sW, r: s2cR}
}

// TestClientListenEndedByServer: on stdio a 2026-07-28 server ends a
// subscriptions/listen request with notifications/cancelled naming it
// (subscriptions.mdx); the client's SubscriptionsListen returns then.
func TestClientListenEndedByServer(t *testing.T) {
	conn := fakeStdio(t, func(req fakeRequest, _ []byte, write func(string)) {
		if req.Method == "subscriptions/listen" {
			write(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":` + string(req.ID) + `},"notifications":{}}}`)
			write(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + string(req.ID) + `}}`)
		}
	})
	c, err := mcp.Connect(context.Background(), &mcp.StreamTransport{Conn: conn}, nil, mcp.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	done := make(chan error, 1)
	go func() {
		_, err := c.SubscriptionsListen(context.Background(), &mcp.SubscriptionsListenRequestParams{})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "the server ended the request") {
			t.Errorf("SubscriptionsListen: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("SubscriptionsListen did not return when the server ended it")
	}
}

// TestClientTimeouts: RequestTimeout and the caller's context bound a
// request, over stdio (then notifications/cancelled tells the server) and
// over HTTP (the request's stream is closed).
func TestClientTimeouts(t *testing.T) {
	cancelled := make(chan string, 1)
	conn := fakeStdio(t, func(req fakeRequest, line []byte, write func(string)) {
		if req.Method == "notifications/cancelled" {
			cancelled <- string(line)
		}
	})
	c, err := mcp.Connect(context.Background(), &mcp.StreamTransport{Conn: conn}, nil, mcp.ClientOptions{RequestTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "slow"})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), `no response to "tools/call" within 100ms`) {
		t.Errorf("stdio timeout: %v", err)
	}
	select {
	case line := <-cancelled:
		if !strings.Contains(line, `"reason":"timed out after 100ms"`) {
			t.Errorf("notifications/cancelled: %s", line)
		}
	case <-time.After(5 * time.Second):
		t.Error("no notifications/cancelled after the timeout")
	}

	closed := make(chan struct{}, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req fakeRequest
		json.Unmarshal(body, &req)
		w.Header().Set("Content-Type", "application/json")
		if req.Method == "server/discover" {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, discoverResult)
			return
		}
		<-r.Context().Done() // the client closes the request
		closed <- struct{}{}
	}))
	defer hs.Close()
	hc, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: hs.URL}, nil, mcp.ClientOptions{RequestTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer hc.Close()
	_, err = hc.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "slow"})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), `no response to "tools/call" within 100ms`) {
		t.Errorf("HTTP timeout: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := hc.CallTool(ctx, &mcp.CallToolRequestParams{Name: "slow"}); !errors.Is(err, context.Canceled) {
		t.Errorf("HTTP cancel: %v", err)
	}
	for range 2 {
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
			t.Fatal("the server did not see the request's connection close")
		}
	}
}
