package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/generated/mcp20241105"
	"github.com/mcpgen/mcpgen/generated/mcp20250326"
	"github.com/mcpgen/mcpgen/generated/mcp20250618"
	"github.com/mcpgen/mcpgen/generated/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The servers of the revision tests: tools/list answers one tool, named
// after the verified principal's subject, so the client sees that the
// principal reached the handler.

// raw20241105 is a server of another SDK that answers 2024-11-05 clients
// over Streamable HTTP, in JSON: initialize, notifications and tools/list
// (one tool, named after the principal's subject).
func raw20241105(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.NewDecoder(r.Body).Decode(&msg); err != nil || msg.Method == "" {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	var result any
	switch msg.Method {
	case "initialize":
		result = map[string]any{"protocolVersion": "2024-11-05", "capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "raw", "version": "1"}}
	case "tools/list":
		result = map[string]any{"tools": []any{map[string]any{"name": subject(r.Context()), "inputSchema": map[string]any{"type": "object"}}}}
	default:
		if msg.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		writeJSON(w, 200, map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
		return
	}
	writeJSON(w, 200, map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result})
}

type whoami20250326 struct {
	mcp20250326.UnimplementedServerHandler
}

func (whoami20250326) ListTools(ctx context.Context, _ *mcp20250326.ListToolsRequestParams) (*mcp20250326.ListToolsResult, error) {
	return &mcp20250326.ListToolsResult{Tools: []mcp20250326.Tool{{Name: subject(ctx)}}}, nil
}

type whoami20250618 struct {
	mcp20250618.UnimplementedServerHandler
}

func (whoami20250618) ListTools(ctx context.Context, _ *mcp20250618.ListToolsRequestParams) (*mcp20250618.ListToolsResult, error) {
	return &mcp20250618.ListToolsResult{Tools: []mcp20250618.Tool{{Name: subject(ctx)}}}, nil
}

type whoami20251125 struct {
	mcp20251125.UnimplementedServerHandler
}

func (whoami20251125) ListTools(ctx context.Context, _ *mcp20251125.PaginatedRequestParams) (*mcp20251125.ListToolsResult, error) {
	return &mcp20251125.ListToolsResult{Tools: []mcp20251125.Tool{{Name: subject(ctx)}}}, nil
}

type whoami20260728 struct {
	mcp.UnimplementedServerHandler
	lists atomic.Int32
}

func (w *whoami20260728) ListTools(ctx context.Context, _ *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	w.lists.Add(1)
	return &mcp.ListToolsResult{Tools: []mcp.Tool{{Name: subject(ctx)}}, CacheScope: mcp.CacheScopePrivate, TTLMs: time.Minute.Milliseconds()}, nil
}

// revision is a generated package's server and client, for
// TestEveryRevision.
type revision struct {
	name   string
	server func() http.Handler
	// list connects to url with the package's Client over an
	// HTTPTransport whose *http.Client is hc, and returns the tools'
	// names.
	list func(ctx context.Context, url string, hc *http.Client) ([]string, error)
}

var revisions = []revision{
	// 2024-11-05 predates authorization, and its package's server speaks
	// that revision's HTTP+SSE transport, which HTTPTransport does not: its
	// Client talks to a server of another SDK that answers 2024-11-05 over
	// Streamable HTTP, as raw20241105 does.
	{"2024-11-05",
		func() http.Handler { return http.HandlerFunc(raw20241105) },
		func(ctx context.Context, url string, hc *http.Client) ([]string, error) {
			c, err := mcp20241105.Connect(ctx, &mcp20241105.HTTPTransport{URL: url, Client: hc}, &mcp20241105.UnimplementedClientHandler{}, mcp20241105.ClientOptions{})
			if err != nil {
				return nil, err
			}
			defer c.Close()
			res, err := c.ListTools(ctx, nil)
			if err != nil {
				return nil, err
			}
			var names []string
			for _, t := range res.Tools {
				names = append(names, t.Name)
			}
			return names, nil
		}},
	{"2025-03-26",
		func() http.Handler {
			d := mcp20250326.NewServerDispatcher(whoami20250326{}, mcp20250326.ServerOptions{Capabilities: mcp20250326.ServerCapabilities{Tools: &mcp20250326.ServerCapabilitiesTools{}}})
			return mcp20250326.NewHTTPHandler(d, mcp20250326.HTTPOptions{})
		},
		func(ctx context.Context, url string, hc *http.Client) ([]string, error) {
			c, err := mcp20250326.Connect(ctx, &mcp20250326.HTTPTransport{URL: url, Client: hc}, &mcp20250326.UnimplementedClientHandler{}, mcp20250326.ClientOptions{})
			if err != nil {
				return nil, err
			}
			defer c.Close()
			res, err := c.ListTools(ctx, nil)
			if err != nil {
				return nil, err
			}
			var names []string
			for _, t := range res.Tools {
				names = append(names, t.Name)
			}
			return names, nil
		}},
	{"2025-06-18",
		func() http.Handler {
			d := mcp20250618.NewServerDispatcher(whoami20250618{}, mcp20250618.ServerOptions{Capabilities: mcp20250618.ServerCapabilities{Tools: &mcp20250618.ServerCapabilitiesTools{}}})
			return mcp20250618.NewHTTPHandler(d, mcp20250618.HTTPOptions{})
		},
		func(ctx context.Context, url string, hc *http.Client) ([]string, error) {
			c, err := mcp20250618.Connect(ctx, &mcp20250618.HTTPTransport{URL: url, Client: hc}, &mcp20250618.UnimplementedClientHandler{}, mcp20250618.ClientOptions{})
			if err != nil {
				return nil, err
			}
			defer c.Close()
			res, err := c.ListTools(ctx, nil)
			if err != nil {
				return nil, err
			}
			var names []string
			for _, t := range res.Tools {
				names = append(names, t.Name)
			}
			return names, nil
		}},
	{"2025-11-25",
		func() http.Handler {
			d := mcp20251125.NewServerDispatcher(whoami20251125{}, mcp20251125.ServerOptions{Capabilities: mcp20251125.ServerCapabilities{Tools: &mcp20251125.ServerCapabilitiesTools{}}})
			return mcp20251125.NewHTTPHandler(d, mcp20251125.HTTPOptions{})
		},
		func(ctx context.Context, url string, hc *http.Client) ([]string, error) {
			c, err := mcp20251125.Connect(ctx, &mcp20251125.HTTPTransport{URL: url, Client: hc}, &mcp20251125.UnimplementedClientHandler{}, mcp20251125.ClientOptions{})
			if err != nil {
				return nil, err
			}
			defer c.Close()
			res, err := c.ListTools(ctx, nil)
			if err != nil {
				return nil, err
			}
			var names []string
			for _, t := range res.Tools {
				names = append(names, t.Name)
			}
			return names, nil
		}},
	{"2026-07-28", newServer20260728, list20260728},
	// The 2026-07-28 Client talks 2025-11-25 to a server of that
	// revision (a session, the GET stream) through its conversions.
	{"2026-07-28 client, 2025-11-25 server",
		func() http.Handler {
			d := mcp20251125.NewServerDispatcher(whoami20251125{}, mcp20251125.ServerOptions{Capabilities: mcp20251125.ServerCapabilities{Tools: &mcp20251125.ServerCapabilitiesTools{}}})
			return mcp20251125.NewHTTPHandler(d, mcp20251125.HTTPOptions{})
		},
		list20260728},
}

func newServer20260728() http.Handler {
	d := mcp.NewServerDispatcher(&whoami20260728{}, mcp.ServerOptions{Capabilities: mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{}}, Principal: auth.PrincipalID})
	return mcp.NewHTTPHandler(d, mcp.HTTPOptions{})
}

func list20260728(ctx context.Context, url string, hc *http.Client) ([]string, error) {
	c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: url, Client: hc}, &mcp.UnimplementedClientHandler{}, mcp.ClientOptions{})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	res, err := c.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, t := range res.Tools {
		names = append(names, t.Name)
	}
	return names, nil
}

// TestEveryRevision: each generated package's Client, over its
// HTTPTransport with an auth.Transport's *http.Client, is authorized
// (401, protected resource metadata, authorization server metadata,
// dynamic registration, authorization code with PKCE and resource, token)
// by the server of the same revision protected by auth.ResourceServer,
// whose handlers see the verified principal.
func TestEveryRevision(t *testing.T) {
	for _, rev := range revisions {
		t.Run(rev.name, func(t *testing.T) {
			as := newTestAS(t)
			u := protect(t, as.issuer(), as, rev.server(), nil)
			tr, err := auth.NewTransport(u, auth.Config{Grant: &auth.AuthorizationCode{Interaction: redirectAgent{}}, Logf: t.Logf})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			names, err := rev.list(ctx, u, tr.Client())
			if err != nil {
				t.Fatal(err)
			}
			if len(names) != 1 || names[0] != "alice" {
				t.Fatalf("tools %q, want [alice] (the principal's subject)", names)
			}
			// Without the auth.Transport the server refuses the client.
			_, err = rev.list(ctx, u, http.DefaultClient)
			var se *mcp.HTTPStatusError
			if !errors.As(err, &se) || se.StatusCode != http.StatusUnauthorized || !strings.Contains(se.Header.Get("WWW-Authenticate"), "resource_metadata=") {
				t.Fatalf("without a token: %v", err)
			}
		})
	}
}

// confirmServer is a 2026-07-28 server whose tool "confirm" asks the
// client for a confirmation with a multi round-trip request (an
// elicitation and a requestState), then answers with the principal's
// subject.
type confirmServer struct{ mcp.UnimplementedServerHandler }

func (confirmServer) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if p.GetRequestState() == "asked" {
		if _, ok := p.InputResponses["ok"]; ok {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "confirmed by " + subject(ctx)}}}, nil
		}
	}
	var reqs mcp.InputRequests
	if err := reqs.UnmarshalJSON([]byte(`{"ok":{"method":"elicitation/create","params":{"mode":"form","message":"Confirm?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}}`)); err != nil {
		return nil, err
	}
	return nil, mcp.NeedInput(mcp.InputRequiredResult{InputRequests: reqs, RequestState: new("asked")})
}

// confirmer accepts every elicitation.
type confirmer struct{ mcp.UnimplementedClientHandler }

func (confirmer) Elicit(context.Context, mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	return &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept, Content: map[string]mcp.ElicitResultContentValue{"ok": mcp.ElicitResultContentValueFromBoolean(true)}}, nil
}

// bearer adds a bearer token to each request: retry's for the retries of
// multi round-trip requests (those that carry a requestState), first's
// for the others.
type bearer struct{ first, retry string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(body))
	tok := b.first
	if bytes.Contains(body, []byte(`"requestState"`)) {
		tok = b.retry
	}
	r2.Header.Set("Authorization", "Bearer "+tok)
	return http.DefaultTransport.RoundTrip(r2)
}

// TestRequestStateBoundToPrincipal: with ServerOptions.Principal set to
// auth.PrincipalID, the requestState a server hands out to one principal
// is refused when another principal's request brings it back.
func TestRequestStateBoundToPrincipal(t *testing.T) {
	const issuer = "https://as.example.com"
	v := staticVerifier{
		"alice-token": {Issuer: issuer, Subject: "alice", ClientID: "c", Scopes: []string{"mcp"}},
		"bob-token":   {Issuer: issuer, Subject: "bob", ClientID: "c", Scopes: []string{"mcp"}},
	}
	server := func(principal func(context.Context) string) string {
		d := mcp.NewServerDispatcher(confirmServer{}, mcp.ServerOptions{Capabilities: mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{}}, Principal: principal})
		return protect(t, issuer, v, mcp.NewHTTPHandler(d, mcp.HTTPOptions{}), nil)
	}
	bound, unbound := server(auth.PrincipalID), server(nil)
	call := func(u string, b bearer) (*mcp.CallToolResult, error) {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: u, Client: &http.Client{Transport: b}}, confirmer{}, mcp.ClientOptions{
			Capabilities: mcp.ClientCapabilities{Elicitation: &mcp.ClientCapabilitiesElicitation{Form: &mcp.ClientCapabilitiesElicitationForm{}}},
		})
		if err != nil {
			return nil, err
		}
		defer c.Close()
		return c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "confirm"})
	}
	for _, tc := range []struct {
		url  string
		b    bearer
		want string // the tool's text, or "" for invalid params
	}{
		{bound, bearer{"alice-token", "alice-token"}, "confirmed by alice"},
		{bound, bearer{"alice-token", "bob-token"}, ""},
		// Without ServerOptions.Principal the state is bound to no one.
		{unbound, bearer{"alice-token", "bob-token"}, "confirmed by bob"},
	} {
		res, err := call(tc.url, tc.b)
		if tc.want == "" {
			var re *mcp.RPCError
			if !errors.As(err, &re) || re.Code != mcp.CodeInvalidParams {
				t.Errorf("%+v: %v, want invalid params", tc.b, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", tc.b, err)
			continue
		}
		if txt, ok := res.Content[0].(*mcp.TextContent); !ok || txt.Text != tc.want {
			t.Errorf("%+v: result %+v, want %q", tc.b, res.Content, tc.want)
		}
	}
}

// TestCacheAuthContext: Clients that share a Cache keep the private
// results of one auth.Transport (ClientOptions.AuthContext) from the
// Clients of another, and share them with the Clients of the same one.
func TestCacheAuthContext(t *testing.T) {
	as := newTestAS(t)
	h := &whoami20260728{}
	d := mcp.NewServerDispatcher(h, mcp.ServerOptions{Capabilities: mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{}}})
	u := protect(t, as.issuer(), as, mcp.NewHTTPHandler(d, mcp.HTTPOptions{}), nil)
	cache := mcp.NewCache(1 << 20)
	transport := func(user string) *auth.Transport {
		tr, err := auth.NewTransport(u, auth.Config{Grant: &auth.AuthorizationCode{Interaction: redirectAgent{}, Params: map[string][]string{"login_hint": {user}}}})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	alice, bob := transport("alice"), transport("bob")
	list := func(tr *auth.Transport) string {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: u, Client: tr.Client()}, &mcp.UnimplementedClientHandler{}, mcp.ClientOptions{Cache: cache, AuthContext: tr.AuthContext()})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		res, err := c.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.Tools[0].Name
	}
	for _, step := range []struct {
		tr    *auth.Transport
		want  string
		lists int32 // tools/list requests the server answered so far
	}{
		{alice, "alice", 1},
		{alice, "alice", 1}, // from the cache: same Transport
		{bob, "bob", 2},     // not alice's private result
		{bob, "bob", 2},
	} {
		if got := list(step.tr); got != step.want || h.lists.Load() != step.lists {
			t.Fatalf("got %q after %d tools/list, want %q after %d", got, h.lists.Load(), step.want, step.lists)
		}
	}
}
