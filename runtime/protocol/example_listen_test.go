package protocol_test

import (
	"context"
	"fmt"
	"log"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// A client that follows a server's changes with Listen: the tools list
// changing and one resource being updated. The server here is a
// 2026-07-28 one, reached in the same process; the same Listen, without a
// change, follows a server of 2025-11-25 or earlier (through
// resources/subscribe and the notifications those revisions send unasked).
func Example_listen() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	notes := &mcp.Server{}
	mcp.AddResource(notes, mcp.Resource{URI: "notes://today", Name: "today"},
		func(context.Context, *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.ReadResourceResultContentsItem{mcp.TextContents("notes://today", "text/plain", "buy milk")}}, nil
		})
	d := mcp.NewServerDispatcher(notes, mcp.ServerOptions{})

	c, err := mcp.Connect(ctx, &mcp.InMemoryTransport{Server: d}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	ready := make(chan struct{})
	changes := make(chan mcp.Change, 8)
	done := make(chan error, 1)
	go func() {
		done <- c.Listen(ctx, mcp.Subscription{
			ToolsListChanged:      true,
			ResourceSubscriptions: []string{"notes://today"},
			Ready:                 func() { close(ready) },
		}, func(ch mcp.Change) { changes <- ch })
	}()
	<-ready

	// The server changes: a tool is added, the resource is updated.
	mcp.AddTool(notes, mcp.Tool{Name: "clear"}, func(context.Context, *mcp.CallToolRequestParams, struct{}) (*mcp.CallToolResult, error) {
		return mcp.TextResult("cleared"), nil
	})
	notes.ResourceUpdated("notes://today")

	for range 2 {
		ch := <-changes
		switch ch.Method {
		case mcp.MethodToolListChangedNotification:
			fmt.Println("the tools changed")
		case mcp.MethodResourceUpdatedNotification:
			fmt.Println("updated:", ch.URI)
		}
	}
	cancel()
	fmt.Println(<-done)
	// Output:
	// the tools changed
	// updated: notes://today
	// context canceled
}
