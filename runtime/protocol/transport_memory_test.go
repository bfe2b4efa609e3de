package protocol_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// TestInMemoryTransport: a client connected to a dispatcher in the same
// process lists and calls its tools; Close returns once the server's
// side has ended, and each Connect is a connection of its own.
func TestInMemoryTransport(t *testing.T) {
	s := &mcp.Server{}
	mcp.AddTool(s, mcp.Tool{Name: "add"}, func(_ context.Context, _ *mcp.CallToolRequestParams, in struct {
		A int64 `json:"a"`
		B int64 `json:"b"`
	}) (*mcp.CallToolResult, error) {
		return mcp.TextResult(strconv.FormatInt(in.A+in.B, 10)), nil
	})
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "t", Version: "1"}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr := &mcp.InMemoryTransport{Server: d}
	for i := range 2 {
		c, err := mcp.Connect(ctx, tr, nil, mcp.ClientOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for tool, err := range c.Tools(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, tool.Name)
		}
		if len(names) != 1 || names[0] != "add" {
			t.Errorf("connection %d: tools %q, want [add]", i, names)
		}
		res, err := c.Call(ctx, "add", map[string]int{"a": 40, "b": i})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := res.Text(), strconv.Itoa(40+i); got != want {
			t.Errorf("connection %d: add gave %q, want %q", i, got, want)
		}
		closed := make(chan error, 1)
		go func() { closed <- c.Close() }()
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
			t.Fatal("Close did not return")
		}
	}
	if _, err := (&mcp.InMemoryTransport{}).Connect(ctx); err == nil || err.Error() != "mcp: InMemoryTransport: Server is nil" {
		t.Errorf("without a Server: %v", err)
	}
}
