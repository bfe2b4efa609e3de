package conformance

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The generated client (client.go, gen/rt/rpc_client*.go) against the
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
