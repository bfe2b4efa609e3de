package protocol_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// pipeConn is the client's end of two pipes.
type pipeConn struct {
	io.Reader
	io.Writer
	close func()
}

func (c pipeConn) Close() error { c.close(); return nil }

// TestClientStdioResponseAboveTheLimit: over stdio, a server that answers
// a tools/call with a line longer than the client reads (64 MiB) makes
// that call fail at once, with an error that names the limit, instead of
// waiting for the request timeout (10 minutes here; the test's context
// ends sooner); the connection goes on serving the next call.
func TestClientStdioResponseAboveTheLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 64 MiB")
	}
	s := &mcp.Server{}
	mcp.AddTool(s, mcp.Tool{Name: "add"}, func(_ context.Context, _ *mcp.CallToolRequestParams, in struct {
		A int `json:"a"`
		B int `json:"b"`
	}) (*mcp.CallToolResult, error) {
		return mcp.TextResult(strconv.Itoa(in.A + in.B)), nil
	})
	srv := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "adder", Version: "1"}})

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	stop := func() {
		fromClient.Close()
		toClient.Close()
		toServer.Close()
		fromServer.Close()
	}
	defer stop()
	// The server: the dispatcher answers everything but the tool "huge",
	// which gets a result of 64 MiB of x's, written in pieces.
	go func() {
		sc := bufio.NewScanner(toServer)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Name string `json:"name"`
				} `json:"params"`
			}
			json.Unmarshal(sc.Bytes(), &req)
			if req.Method == "tools/call" && req.Params.Name == "huge" {
				fromServer.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"content":[{"type":"text","text":"`))
				piece := bytes.Repeat([]byte{'x'}, 1<<20)
				for range jsonrpc.MaxMessageSize >> 20 {
					if _, err := fromServer.Write(piece); err != nil {
						return
					}
				}
				fromServer.Write([]byte("\"}],\"resultType\":\"complete\"}}\n"))
				continue
			}
			if resp := srv.Handle(ctx, sc.Bytes()); resp != nil {
				if _, err := fromServer.Write(append(resp, '\n')); err != nil {
					return
				}
			}
		}
	}()

	c, err := mcp.Connect(ctx, &mcp.StreamTransport{Conn: pipeConn{toClient, fromClient, stop}}, nil, mcp.ClientOptions{RequestTimeout: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, err := c.Call(ctx, "huge", nil)
	if err == nil {
		t.Fatalf("the call whose response is above the limit returned %d bytes of text", len(r.Text()))
	}
	if !errors.Is(err, jsonrpc.ErrTooLong) || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "longer than 67108864 bytes") {
		t.Fatalf("the call whose response is above the limit: %v; want an error wrapping jsonrpc.ErrTooLong that names the limit, at once", err)
	}
	t.Logf("the error: %v", err)
	r, err = c.Call(ctx, "add", map[string]int{"a": 40, "b": 2})
	if err != nil || r.Text() != "42" {
		t.Fatalf("the next call: %v, %v; want 42", r, err)
	}
}
