package conformance

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Multi round-trip requests (basic/patterns/mrtr.mdx) from the client's
// side, against the generated server: the Client answers each round's
// input requests with its ClientHandler and retries with the answers and
// the requestState, as many rounds as the server asks for, up to
// ClientOptions.MaxInputRounds.

// mrtrServer asks for a name (elicitation), then for a model's answer
// (sampling), keeping what it learned in its requestState, then answers.
type mrtrServer struct {
	mcp.UnimplementedServerHandler
	calls atomic.Int32
}

func (s *mrtrServer) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	s.calls.Add(1)
	switch st := p.GetRequestState(); {
	case p.Name == "forever":
		return nil, mcp.NeedInput(mcp.InputRequiredResult{RequestState: new("again")})
	case st == "":
		return nil, mcp.NeedInput(mcp.InputRequiredResult{
			InputRequests: mcp.InputRequests{"name": &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
				Message: "Your name?",
				RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{Properties: map[string]mcp.PrimitiveSchemaDefinition{
					"name": &mcp.StringSchema{}, "greeting": &mcp.StringSchema{Default: new("Hello")},
				}},
			}}},
			RequestState: new("asked-name"),
		})
	case st == "asked-name":
		er, _ := p.InputResponses["name"].(*mcp.ElicitResult)
		if er == nil {
			return mcp.TextResult("no name"), nil
		}
		name := er.Content["name"].Str + "|" + er.Content["greeting"].Str
		return nil, mcp.NeedInput(mcp.InputRequiredResult{
			InputRequests: mcp.InputRequests{"q": &mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{
				MaxTokens: 10,
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: "2+2?"}}},
			}}},
			RequestState: new("name=" + name),
		})
	case strings.HasPrefix(st, "name="):
		cm, _ := p.InputResponses["q"].(*mcp.CreateMessageResult)
		if cm == nil {
			return mcp.TextResult("no answer"), nil
		}
		text, _ := cm.Content.(*mcp.TextContent)
		return mcp.TextResult(strings.TrimPrefix(st, "name=") + " says " + text.Text), nil
	}
	return mcp.TextResult("lost"), nil
}

// mrtrClient answers elicitations with a name and sampling with "4".
type mrtrClient struct {
	mcp.UnimplementedClientHandler
	elicited, sampled atomic.Int32
}

func (h *mrtrClient) Elicit(ctx context.Context, p mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	h.elicited.Add(1)
	return &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept,
		Content: map[string]mcp.ElicitResultContentValue{"name": mcp.ElicitResultContentValueFromString("Ada")}}, nil
}

func (h *mrtrClient) CreateMessage(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	h.sampled.Add(1)
	return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "m", Content: &mcp.TextContent{Text: "4"}}, nil
}

func TestClientMultiRoundTrip(t *testing.T) {
	s := &mrtrServer{}
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "mrtr", Version: "1"},
		Capabilities: mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{}}})
	hs := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	defer hs.Close()
	for _, tr := range []struct {
		name string
		t    mcp.Transport
	}{
		{"http", &mcp.HTTPTransport{URL: hs.URL}},
		{"stdio", &mcp.StreamTransport{Conn: serveStdio(t, d)}},
	} {
		t.Run(tr.name, func(t *testing.T) {
			h := &mrtrClient{}
			c, err := mcp.Connect(context.Background(), tr.t, h, mcp.ClientOptions{
				Capabilities:   mcp.ClientCapabilities{Elicitation: &mcp.ClientCapabilitiesElicitation{}, Sampling: &mcp.ClientCapabilitiesSampling{}},
				MaxInputRounds: 3,
			})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			s.calls.Store(0)
			res, err := c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "ask", Arguments: json.RawMessage(`{}`)})
			if err != nil {
				t.Fatal(err)
			}
			// The greeting was filled from the form's default.
			if tc, _ := res.Content[0].(*mcp.TextContent); tc == nil || tc.Text != "Ada|Hello says 4" {
				t.Errorf("result %+v", res.Content)
			}
			if s.calls.Load() != 3 || h.elicited.Load() != 1 || h.sampled.Load() != 1 {
				t.Errorf("%d requests, %d elicitations, %d samplings; want 3, 1, 1", s.calls.Load(), h.elicited.Load(), h.sampled.Load())
			}
			// A server that never stops asking: the Client gives up after
			// MaxInputRounds retries.
			s.calls.Store(0)
			_, err = c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "forever"})
			if err == nil || !strings.Contains(err.Error(), "still asks for input after 3 rounds") {
				t.Errorf("forever: %v", err)
			}
			if s.calls.Load() != 4 {
				t.Errorf("forever: %d requests, want 4", s.calls.Load())
			}
			// A client that does not handle what the server asks fails
			// the call, saying so.
			c2, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: hs.URL}, nil, mcp.ClientOptions{
				Capabilities: mcp.ClientCapabilities{Elicitation: &mcp.ClientCapabilitiesElicitation{}},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer c2.Close()
			_, err = c2.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "ask"})
			if err == nil || !strings.Contains(err.Error(), "does not implement Elicit") {
				t.Errorf("unhandled elicitation: %v", err)
			}
			// Without the capability, the server refuses to ask (-32021).
			c3, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: hs.URL}, h, mcp.ClientOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer c3.Close()
			_, err = c3.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "ask"})
			if re, ok := err.(*mcp.RPCError); !ok || re.Code != mcp.CodeMissingRequiredClientCapability {
				t.Errorf("undeclared capability: %v", err)
			}
		})
	}
}
