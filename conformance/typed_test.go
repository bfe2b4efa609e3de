package conformance_test

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The typed calls of calls.go, from outside the packages, between a
// generated 2026-07-28 server and client (typed_older_test.go: 2025-11-25):
// the iterators over paginated lists, Call and CallAs with Go values and
// the outputSchema check, and the Asker of multi round-trip requests.

type addArgs struct {
	A int64 `json:"a"`
	B int64 `json:"b"`
}

type sum struct {
	Sum int64 `json:"sum"`
}

// pager is a server whose lists have pages: resources/list five
// resources, two a page; prompts/list a cursor that comes round again;
// resources/templates/list a new cursor on every page, without end.
type pager struct {
	*mcp.Server
	pages, lists atomic.Int32
}

// ListTools counts the tools/list requests.
func (s *pager) ListTools(ctx context.Context, p *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	s.lists.Add(1)
	return s.Server.ListTools(ctx, p)
}

// CallTool also serves hidden, a tool it does not list.
func (s *pager) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if p.Name == "hidden" {
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: []byte(`{"sum":1}`)}, nil
	}
	return s.Server.CallTool(ctx, p)
}

func (s *pager) ListResources(_ context.Context, p *mcp.PaginatedRequestParams) (*mcp.ListResourcesResult, error) {
	s.pages.Add(1)
	from := 0
	if p.Cursor != nil {
		from, _ = strconv.Atoi(*p.Cursor)
	}
	r := &mcp.ListResourcesResult{CacheScope: mcp.CacheScopePublic, Resources: []mcp.Resource{}}
	for i := from; i < from+2 && i < 5; i++ {
		r.Resources = append(r.Resources, mcp.Resource{Name: "r" + strconv.Itoa(i), URI: "file:///r" + strconv.Itoa(i)})
	}
	if from+2 < 5 {
		r.NextCursor = new(strconv.Itoa(from + 2))
	}
	return r, nil
}

func (s *pager) ListPrompts(_ context.Context, p *mcp.PaginatedRequestParams) (*mcp.ListPromptsResult, error) {
	s.pages.Add(1)
	next := "a"
	if p.Cursor != nil && *p.Cursor == "a" {
		next = "b"
	} else if p.Cursor != nil {
		next = "a" // b -> a: round again
	}
	return &mcp.ListPromptsResult{CacheScope: mcp.CacheScopePublic, Prompts: []mcp.Prompt{{Name: "p"}}, NextCursor: &next}, nil
}

func (s *pager) ListResourceTemplates(_ context.Context, p *mcp.PaginatedRequestParams) (*mcp.ListResourceTemplatesResult, error) {
	n := s.pages.Add(1)
	return &mcp.ListResourceTemplatesResult{CacheScope: mcp.CacheScopePublic, ResourceTemplates: []mcp.ResourceTemplate{},
		NextCursor: new("page" + strconv.Itoa(int(n)))}, nil
}

func (s *pager) ReadResource(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
	return &mcp.ReadResourceResult{CacheScope: mcp.CacheScopePublic, Contents: []mcp.ReadResourceResultContentsItem{
		&mcp.TextResourceContents{URI: p.URI, Text: "first"},
		&mcp.BlobResourceContents{URI: p.URI, Blob: "AA=="},
		&mcp.TextResourceContents{URI: p.URI, Text: "second"},
	}}, nil
}

// newTypedServer serves add (structured), fail (a tool error), liar (a
// structuredContent its outputSchema refuses), plain (no outputSchema)
// and greet (asks for input with an Asker).
func newTypedServer(t *testing.T) (*pager, *mcp.ServerDispatcher) {
	t.Helper()
	s := &pager{Server: &mcp.Server{}}
	mcp.AddStructuredTool(s, mcp.Tool{Name: "add"}, func(_ context.Context, _ *mcp.CallToolRequestParams, in addArgs) (sum, error) {
		return sum{in.A + in.B}, nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "fail"}, func(context.Context, *mcp.CallToolRequestParams, struct{}) (*mcp.CallToolResult, error) {
		return nil, errors.New("out of order")
	})
	liar := mcp.Tool{Name: "liar", OutputSchema: &mcp.ToolOutputSchema{}}
	if err := liar.OutputSchema.UnmarshalJSON([]byte(`{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}`)); err != nil {
		t.Fatal(err)
	}
	mcp.AddTool(s, liar, func(context.Context, *mcp.CallToolRequestParams, struct{}) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: []byte(`{"sum":"forty-two","extra":1}`)}, nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "plain"}, func(context.Context, *mcp.CallToolRequestParams, struct{}) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: []byte(`{"sum":7}`)}, nil
	})
	mcp.AddTool(s, mcp.Tool{Name: "greet"}, func(_ context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		in := mcp.Ask(p.InputResponses)
		in.State = new("asked")
		name := in.Elicit("name", &mcp.ElicitRequestFormParams{Message: "Your name?",
			RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{Properties: map[string]mcp.PrimitiveSchemaDefinition{"name": &mcp.StringSchema{}}}})
		roots := in.ListRoots("roots")
		if err := in.Err(); err != nil {
			return nil, err
		}
		if p.GetRequestState() != "asked" {
			return mcp.TextResult("lost the state"), nil
		}
		return mcp.TextResult(name.Content["name"].Str + " has " + strconv.Itoa(len(roots.Roots)) + " roots"), nil
	})
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "typed", Version: "1"},
		Capabilities: mcp.ServerCapabilities{Resources: &mcp.ServerCapabilitiesResources{}, Prompts: &mcp.ServerCapabilitiesPrompts{}}})
	return s, d
}

// typedClient answers elicitations with a name and roots/list with two.
type typedClient struct {
	mcp.UnimplementedClientHandler
	asked atomic.Int32
}

func (h *typedClient) Elicit(context.Context, mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	h.asked.Add(1)
	return &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept,
		Content: map[string]mcp.ElicitResultContentValue{"name": mcp.ElicitResultContentValueFromString("Ada")}}, nil
}

func (h *typedClient) ListRoots(context.Context, *mcp.ListRootsRequestParams) (*mcp.ListRootsResult, error) {
	h.asked.Add(1)
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///a"}, {URI: "file:///b"}}}, nil
}

// pipeEnd is the client's end of a server served over a pair of pipes.
type pipeEnd struct {
	io.Reader
	io.WriteCloser
}

// serveOverPipes serves d over a pair of pipes (stdio framing) until the
// client closes its end, and returns that end.
func serveOverPipes(t *testing.T, serve func(context.Context, io.Reader, io.Writer) error) io.ReadWriteCloser {
	t.Helper()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve(context.Background(), c2sR, s2cW)
		s2cW.Close()
		c2sR.Close()
	}()
	t.Cleanup(func() {
		c2sW.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return pipeEnd{Reader: s2cR, WriteCloser: c2sW}
}

func TestTypedCalls(t *testing.T) {
	s, d := newTypedServer(t)
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
			h := &typedClient{}
			c, err := mcp.Connect(ctx, tr.t(), h, mcp.ClientOptions{MaxPages: 7,
				Capabilities: mcp.ClientCapabilities{Elicitation: &mcp.ClientCapabilitiesElicitation{}, Roots: &mcp.ClientCapabilitiesRoots{}}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()

			var names []string
			for tool, err := range c.Tools(ctx) {
				if err != nil {
					t.Fatal(err)
				}
				names = append(names, tool.Name)
			}
			if got := strings.Join(names, ","); got != "add,fail,liar,plain,greet" {
				t.Errorf("Tools: %s", got)
			}

			// Every page, in order; breaking out stops at once.
			s.pages.Store(0)
			var uris []string
			for r, err := range c.Resources(ctx) {
				if err != nil {
					t.Fatal(err)
				}
				uris = append(uris, r.URI)
			}
			if got := strings.Join(uris, " "); got != "file:///r0 file:///r1 file:///r2 file:///r3 file:///r4" || s.pages.Load() != 3 {
				t.Errorf("Resources: %s in %d pages", got, s.pages.Load())
			}
			s.pages.Store(0)
			for r, err := range c.Resources(ctx) {
				if err != nil || r.Name != "r0" {
					t.Errorf("first resource %v, %v", r, err)
				}
				break
			}
			if s.pages.Load() != 1 {
				t.Errorf("break: %d pages read", s.pages.Load())
			}

			// A cursor that comes round again, and a list without end.
			s.pages.Store(0)
			n, last := 0, error(nil)
			for p, err := range c.Prompts(ctx) {
				if err != nil {
					last = err
					if p != nil {
						t.Errorf("an error with an item")
					}
					continue
				}
				n++
			}
			if last == nil || !strings.Contains(last.Error(), `nextCursor "a" twice`) || n != 3 || s.pages.Load() != 3 {
				t.Errorf("Prompts: %d items in %d pages, %v", n, s.pages.Load(), last)
			}
			s.pages.Store(0)
			last = nil
			for _, err := range c.ResourceTemplates(ctx) {
				last = err
			}
			if last == nil || !strings.Contains(last.Error(), "more than 7 pages") || s.pages.Load() != 7 {
				t.Errorf("ResourceTemplates: %d pages, %v", s.pages.Load(), last)
			}

			// Tool calls with Go values.
			res, err := c.Call(ctx, "add", addArgs{A: 40, B: 2})
			if err != nil {
				t.Fatal(err)
			}
			if string(res.StructuredContent) != `{"sum":42}` {
				t.Errorf("Call: %s", res.StructuredContent)
			}
			got, res, err := mcp.CallAs[sum](ctx, c, "add", map[string]int{"a": 40, "b": 2})
			if err != nil || got.Sum != 42 || res == nil {
				t.Errorf("CallAs: %+v, %v", got, err)
			}
			if _, err := c.Call(ctx, "add", []int{1}); err == nil || !strings.Contains(err.Error(), "not an object") {
				t.Errorf("array arguments: %v", err)
			}
			res, err = c.Call(ctx, "add", map[string]int{"a": 1})
			if err != nil || res.IsError == nil || !*res.IsError {
				t.Errorf("Call with a missing b: %v, %v", res, err)
			}
			_, res, err = mcp.CallAs[sum](ctx, c, "fail", nil)
			var te *mcp.ToolError
			if !errors.As(err, &te) || te.Text != "out of order" || res == nil {
				t.Errorf("CallAs of a failing tool: %v", err)
			}
			_, res, err = mcp.CallAs[sum](ctx, c, "liar", nil)
			var ve *mcp.ValidationError
			if !errors.As(err, &ve) || len(ve.Violations) != 1 || ve.Violations[0].Pointer != "/sum" || res == nil {
				t.Errorf("CallAs of a tool whose output breaks its outputSchema: %v", err)
			}
			if got, _, err := mcp.CallAs[sum](ctx, c, "plain", nil); err != nil || got.Sum != 7 {
				t.Errorf("CallAs of a tool without outputSchema: %+v, %v", got, err)
			}
			if _, _, err := mcp.CallAs[struct{ Sum string }](ctx, c, "plain", nil); err == nil {
				t.Error("CallAs into a type that does not fit: no error")
			}

			// The Asker: both questions in one round, the state back.
			res, err = c.Call(ctx, "greet", nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Text() != "Ada has 2 roots" || h.asked.Load() != 2 {
				t.Errorf("greet: %q after %d questions", res.Text(), h.asked.Load())
			}

			rr, err := c.Read(ctx, "file:///notes.txt")
			if err != nil {
				t.Fatal(err)
			}
			if rr.Text() != "first\nsecond" || len(rr.Contents) != 3 {
				t.Errorf("Read: %q of %d contents", rr.Text(), len(rr.Contents))
			}
		})
	}
}

// TestTypedCallsLearnSchema: CallAs on a Client that has not listed the
// tools lists them to learn the outputSchema (typed_older_test.go: a
// tools list_changed notification makes it learn again).
func TestTypedCallsLearnSchema(t *testing.T) {
	s, d := newTypedServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := mcp.Connect(ctx, &mcp.StreamTransport{Conn: serveOverPipes(t, d.Serve)}, nil, mcp.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, _, err := mcp.CallAs[sum](ctx, c, "liar", nil); err == nil || !strings.Contains(err.Error(), "does not match the tool's outputSchema") {
		t.Errorf("liar, first call: %v", err)
	}
	// One listing taught every tool's schema; a tool the list does not
	// name has none, and is not listed for again.
	for range 3 {
		if got, _, err := mcp.CallAs[sum](ctx, c, "hidden", nil); err != nil || got.Sum != 1 {
			t.Errorf("hidden: %+v, %v", got, err)
		}
	}
	if _, _, err := mcp.CallAs[sum](ctx, c, "add", addArgs{A: 1, B: 1}); err != nil {
		t.Error(err)
	}
	if n := s.lists.Load(); n != 2 {
		t.Errorf("%d tools/list requests, want 2 (liar's, hidden's)", n)
	}
	// SkipResponseValidation: no check, the value as it decodes.
	c2, err := mcp.Connect(ctx, &mcp.StreamTransport{Conn: serveOverPipes(t, d.Serve)}, nil, mcp.ClientOptions{SkipResponseValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if got, _, err := mcp.CallAs[map[string]any](ctx, c2, "liar", nil); err != nil || got["sum"] != "forty-two" {
		t.Errorf("liar without validation: %v, %v", got, err)
	}
}
