package conformance_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20251125"
	modern "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The typed calls of a revision with the initialize handshake
// (2025-11-25), between its generated server and client: the server asks
// its client with Elicit, ListRoots and CreateMessage and notifies it with
// SendElicitationComplete; the client iterates and calls tools with Go
// values.

type olderPager struct {
	*mcp.Server
}

func (olderPager) ListResources(_ context.Context, p *mcp.PaginatedRequestParams) (*mcp.ListResourcesResult, error) {
	from := 0
	if p != nil && p.Cursor != nil {
		from, _ = strconv.Atoi(*p.Cursor)
	}
	r := &mcp.ListResourcesResult{Resources: []mcp.Resource{{Name: "r" + strconv.Itoa(from), URI: "file:///r" + strconv.Itoa(from)}}}
	if from < 2 {
		r.NextCursor = new(strconv.Itoa(from + 1))
	}
	return r, nil
}

// olderClient answers what the server asks.
type olderClient struct {
	mcp.UnimplementedClientHandler
	completed atomic.Value
}

func (*olderClient) Elicit(_ context.Context, p mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	f, _ := p.(*mcp.ElicitRequestFormParams)
	if f == nil || f.Message != "Your name?" {
		return nil, errors.New("unexpected elicitation")
	}
	return &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept,
		Content: map[string]mcp.ElicitResultContentValue{"name": mcp.ElicitResultContentValueFromString("Ada")}}, nil
}

func (*olderClient) ListRoots(context.Context, *mcp.RequestParams) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///a"}}}, nil
}

func (*olderClient) CreateMessage(_ context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "m", Content: &mcp.TextContent{Text: strconv.Itoa(len(p.Messages)) + " message"}}, nil
}

func (h *olderClient) OnElicitationComplete(_ context.Context, p *mcp.ElicitationCompleteNotificationParams) error {
	h.completed.Store(p.ElicitationID)
	return nil
}

func newOlderTypedServer() *mcp.ServerDispatcher {
	s := olderPager{Server: &mcp.Server{}}
	mcp.AddStructuredTool(s, mcp.Tool{Name: "add"}, func(_ context.Context, _ *mcp.CallToolRequestParams, in addArgs) (sum, error) {
		return sum{in.A + in.B}, nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "survey"}, func(ctx context.Context, _ *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		e, err := mcp.Elicit(ctx, &mcp.ElicitRequestFormParams{Message: "Your name?",
			RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{Properties: map[string]mcp.PrimitiveSchemaDefinition{"name": &mcp.StringSchema{}}}})
		if err != nil {
			return nil, err
		}
		roots, err := mcp.ListRoots(ctx, nil)
		if err != nil {
			return nil, err
		}
		m, err := mcp.CreateMessage(ctx, &mcp.CreateMessageRequestParams{MaxTokens: 5,
			Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: "hi"}}}})
		if err != nil {
			return nil, err
		}
		if err := mcp.SendElicitationComplete(ctx, &mcp.ElicitationCompleteNotificationParams{ElicitationID: "e1"}); err != nil {
			return nil, err
		}
		text, _ := m.Content.(*mcp.TextContent)
		return mcp.TextResult(e.Content["name"].Str + ", " + roots.Roots[0].URI + ", " + text.Text), nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "bad-sampling"}, func(ctx context.Context, _ *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		// A role the schema does not have: refused before it is sent.
		_, err := mcp.CreateMessage(ctx, &mcp.CreateMessageRequestParams{MaxTokens: 5,
			Messages: []mcp.SamplingMessage{{Role: "robot", Content: &mcp.TextContent{Text: "hi"}}}})
		return nil, err
	})
	return mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "typed-older", Version: "1"},
		Capabilities: mcp.ServerCapabilities{Resources: &mcp.ServerCapabilitiesResources{}}})
}

func TestTypedCallsOlder(t *testing.T) {
	d := newOlderTypedServer()
	hs := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	defer hs.Close()
	for _, tr := range []struct {
		name string
		t    func() mcp.Transport
	}{
		{"http", func() mcp.Transport { return &mcp.HTTPTransport{URL: hs.URL} }},
		{"stdio", func() mcp.Transport { return &mcp.StreamTransport{Conn: serveOverPipes(t, d.Serve)} }},
	} {
		t.Run(tr.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			h := &olderClient{}
			c, err := mcp.Connect(ctx, tr.t(), h, mcp.ClientOptions{Capabilities: mcp.ClientCapabilities{
				Elicitation: &mcp.ClientCapabilitiesElicitation{}, Roots: &mcp.ClientCapabilitiesRoots{}, Sampling: &mcp.ClientCapabilitiesSampling{}}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var uris []string
			for r, err := range c.Resources(ctx) {
				if err != nil {
					t.Fatal(err)
				}
				uris = append(uris, r.URI)
			}
			if got := strings.Join(uris, " "); got != "file:///r0 file:///r1 file:///r2" {
				t.Errorf("Resources: %s", got)
			}
			got, _, err := mcp.CallAs[sum](ctx, c, "add", addArgs{A: 40, B: 2})
			if err != nil || got.Sum != 42 {
				t.Errorf("CallAs: %+v, %v", got, err)
			}
			res, err := c.Call(ctx, "survey", nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc, _ := res.Content[0].(*mcp.TextContent); tc == nil || tc.Text != "Ada, file:///a, 1 message" {
				t.Errorf("survey: %+v", res.Content)
			}
			// The notification is handled on a goroutine of its own.
			for i := 0; i < 100 && h.completed.Load() == nil; i++ {
				time.Sleep(10 * time.Millisecond)
			}
			if h.completed.Load() != "e1" {
				t.Errorf("elicitation/complete: %v", h.completed.Load())
			}
			res, err = c.Call(ctx, "bad-sampling", nil)
			if err != nil || res.IsError == nil || !*res.IsError {
				t.Fatalf("bad-sampling: %v, %v", res, err)
			}
			if tc, _ := res.Content[0].(*mcp.TextContent); tc == nil || !strings.Contains(tc.Text, `the params of "sampling/createMessage"`) {
				t.Errorf("bad-sampling: %+v", res.Content)
			}
		})
	}
	// A client that did not declare sampling: refused before it is sent.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := mcp.Connect(ctx, &mcp.StreamTransport{Conn: serveOverPipes(t, d.Serve)}, &olderClient{}, mcp.ClientOptions{
		Capabilities: mcp.ClientCapabilities{Elicitation: &mcp.ClientCapabilitiesElicitation{}, Roots: &mcp.ClientCapabilitiesRoots{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.Call(ctx, "survey", nil)
	if err != nil || res.IsError == nil || !*res.IsError {
		t.Fatalf("survey without sampling: %v, %v", res, err)
	}
	// Outside a request there is no client to ask.
	if _, err := mcp.ListRoots(context.Background(), nil); err == nil {
		t.Error("ListRoots outside a request: no error")
	}
}

// modernClient answers what the 2025-11-25 server asks, as a 2026-07-28
// client's handler (through the package's conversions).
type modernClient struct {
	modern.UnimplementedClientHandler
}

func (modernClient) Elicit(context.Context, modern.ElicitRequestParams) (*modern.ElicitResult, error) {
	return &modern.ElicitResult{Action: modern.ElicitResultActionAccept,
		Content: map[string]modern.ElicitResultContentValue{"name": modern.ElicitResultContentValueFromString("Bob")}}, nil
}

func (modernClient) ListRoots(context.Context, *modern.ListRootsRequestParams) (*modern.ListRootsResult, error) {
	return &modern.ListRootsResult{Roots: []modern.Root{{URI: "file:///b"}}}, nil
}

func (modernClient) CreateMessage(context.Context, *modern.CreateMessageRequestParams) (*modern.CreateMessageResult, error) {
	return &modern.CreateMessageResult{Role: modern.RoleAssistant, Model: "m", Content: &modern.TextContent{Text: "ok"}}, nil
}

// TestTypedCallsAcrossRevisions: a 2026-07-28 Client's typed calls
// against the 2025-11-25 server: the iterators, CallAs (the outputSchema
// learned from the older revision's tools/list) and the server's typed
// requests answered by the modern handler.
func TestTypedCallsAcrossRevisions(t *testing.T) {
	d := newOlderTypedServer()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := modern.Connect(ctx, &modern.StreamTransport{Conn: serveOverPipes(t, d.Serve)}, modernClient{}, modern.ClientOptions{
		ProbeTimeout: 2 * time.Second,
		Capabilities: modern.ClientCapabilities{Elicitation: &modern.ClientCapabilitiesElicitation{}, Roots: &modern.ClientCapabilitiesRoots{}, Sampling: &modern.ClientCapabilitiesSampling{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.ProtocolVersion() != mcp.ProtocolVersion {
		t.Fatalf("talks %s", c.ProtocolVersion())
	}
	n := 0
	for _, err := range c.Resources(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 3 {
		t.Errorf("%d resources", n)
	}
	got, _, err := modern.CallAs[sum](ctx, c, "add", addArgs{A: 1, B: 2})
	if err != nil || got.Sum != 3 {
		t.Errorf("CallAs: %+v, %v", got, err)
	}
	res, err := c.Call(ctx, "survey", nil)
	if err != nil || res.Text() != "Bob, file:///b, ok" {
		t.Errorf("survey: %v, %v", res.Text(), err)
	}
}

// flipper lists one tool, v, whose outputSchema says n is an integer or,
// after flip, a string; v's structuredContent always has a string.
type flipper struct {
	mcp.UnimplementedServerHandler
	flipped atomic.Bool
}

func (f *flipper) ListTools(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	kind := `{"type":"integer"}`
	if f.flipped.Load() {
		kind = `{"type":"string"}`
	}
	return &mcp.ListToolsResult{Tools: []mcp.Tool{{Name: "v", InputSchema: mcp.ToolInputSchema{},
		OutputSchema: &mcp.ToolOutputSchema{Properties: map[string]json.RawMessage{"n": json.RawMessage(kind)}, Required: []string{"n"}}}}}, nil
}

func (f *flipper) CallTool(context.Context, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: json.RawMessage(`{"n":"x"}`)}, nil
}

// TestTypedCallsSchemaChanges: after notifications/tools/list_changed the
// Client forgets the outputSchemas it learned and CallAs learns them again.
func TestTypedCallsSchemaChanges(t *testing.T) {
	f := &flipper{}
	d := mcp.NewServerDispatcher(f, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "flip", Version: "1"},
		Capabilities: mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{ListChanged: new(true)}}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	changed := make(chan struct{}, 1)
	c, err := mcp.Connect(ctx, &mcp.StreamTransport{Conn: serveOverPipes(t, d.Serve)}, &listChanged{changed: changed}, mcp.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	type out struct {
		N string `json:"n"`
	}
	if _, _, err := mcp.CallAs[out](ctx, c, "v", nil); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("before the change: %v", err)
	}
	f.flipped.Store(true)
	if n, err := d.Broadcast(mcp.MethodToolListChangedNotification, nil); n != 1 || err != nil {
		t.Fatalf("broadcast: %d, %v", n, err)
	}
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no list_changed")
	}
	if got, _, err := mcp.CallAs[out](ctx, c, "v", nil); err != nil || got.N != "x" {
		t.Errorf("after the change: %+v, %v", got, err)
	}
}

// listChanged reports tools list_changed notifications.
type listChanged struct {
	mcp.UnimplementedClientHandler
	changed chan struct{}
}

func (h *listChanged) OnToolListChanged(context.Context, *mcp.NotificationParams) error {
	h.changed <- struct{}{}
	return nil
}
