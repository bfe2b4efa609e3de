package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// testMCP is an MCP endpoint for the tests, protected by a
// ResourceServer that trusts as: it answers every JSON-RPC request with
// the principal's subject and scopes.
type testMCP struct {
	srv *httptest.Server
	rs  *ResourceServer
	url string

	mu         sync.Mutex
	principals []*Principal
	// prm, when set, replaces the protected resource metadata document.
	prm      func(w http.ResponseWriter, r *http.Request)
	noHeader bool // leave resource_metadata out of the challenge
}

func newTestMCP(t *testing.T, as *testAS, configure func(*ResourceServer)) *testMCP {
	m := &testMCP{}
	mux := http.NewServeMux()
	m.srv = httptest.NewServer(mux)
	t.Cleanup(m.srv.Close)
	m.url = m.srv.URL + "/mcp"
	m.rs = &ResourceServer{
		Resource:             m.url,
		AuthorizationServers: []string{as.issuer()},
		Verifier:             &JWTVerifier{Issuer: as.issuer(), Audience: []string{m.url}, JWKSURL: as.srv.URL + as.prefix + "/jwks"},
		ScopesSupported:      []string{"mcp:basic"},
	}
	if configure != nil {
		configure(m.rs)
	}
	handler := m.rs.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := PrincipalFrom(r.Context())
		m.mu.Lock()
		m.principals = append(m.principals, p)
		m.mu.Unlock()
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		writeJSON(w, 200, map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"sub": p.Subject, "scopes": p.Scopes}})
	}))
	mux.HandleFunc(m.rs.MetadataPath(), func(w http.ResponseWriter, r *http.Request) {
		if m.prm != nil {
			m.prm(w, r)
			return
		}
		m.rs.MetadataHandler().ServeHTTP(w, r)
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if m.noHeader {
			rec := httptest.NewRecorder()
			handler.ServeHTTP(rec, r)
			for k, v := range rec.Header() {
				if k == "Www-Authenticate" {
					v = []string{strings.TrimSuffix(strings.TrimSpace(resourceMetadataParam.ReplaceAllString(v[0], "")), ",")}
				}
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		handler.ServeHTTP(w, r)
	})
	return m
}

var resourceMetadataParam = regexp.MustCompile(`,? *resource_metadata="[^"]*"`)

func rpc(t *testing.T, hc *http.Client, u, method string, params any) (*http.Response, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

func rpcErr(hc *http.Client, u, method string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+method+`"}`))
	resp, err := hc.Do(req)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return errors.New(resp.Status)
		}
	}
	return err
}

func newClient(t *testing.T, server string, cfg Config) *http.Client {
	t.Helper()
	if cfg.Logf == nil {
		cfg.Logf = t.Logf
	}
	tr, err := NewTransport(server, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tr.Client()
}

func TestAuthorizationCodeEndToEnd(t *testing.T) {
	as := newTestAS(t)
	mcp := newTestMCP(t, as, nil)
	hc := newClient(t, mcp.url, Config{Grant: &AuthorizationCode{Interaction: &redirectAgent{}, ClientName: "test"}})

	resp, body := rpc(t, hc, mcp.url, "tools/list", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, `"sub":"user-1"`) {
		t.Fatalf("got %s %s", resp.Status, body)
	}
	if resp, _ := rpc(t, hc, mcp.url, "tools/list", nil); resp.StatusCode != 200 {
		t.Fatalf("second request: %s", resp.Status)
	}
	authz := as.authorizeCalls()
	if len(authz) != 1 {
		t.Fatalf("%d authorizations, want 1", len(authz))
	}
	q := authz[0]
	for k, want := range map[string]string{"response_type": "code", "code_challenge_method": "S256", "resource": mcp.url, "scope": "mcp:basic offline_access"} {
		if q.Get(k) != want {
			t.Errorf("authorization %s = %q, want %q", k, q.Get(k), want)
		}
	}
	if len(q.Get("state")) < 20 || len(q.Get("code_challenge")) != 43 {
		t.Errorf("state %q, code_challenge %q", q.Get("state"), q.Get("code_challenge"))
	}
	tok := as.tokenCalls()[0]
	if tok.Get("resource") != mcp.url || tok.Get("code_verifier") == "" {
		t.Errorf("token request %v", tok)
	}
	if len(as.registers) != 1 || as.registers[0]["application_type"] != "native" || !slices.Contains(toStrings(as.registers[0]["grant_types"]), "refresh_token") {
		t.Errorf("registration %v", as.registers)
	}
	if as.sawBearer {
		t.Error("the authorization server was sent the access token")
	}
	if p := mcp.principals[0]; p.ClientID == "" || !p.HasScope("mcp:basic") || p.Issuer != as.issuer() {
		t.Errorf("principal %+v", p)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestLoopbackInteraction(t *testing.T) {
	as := newTestAS(t)
	mcp := newTestMCP(t, as, nil)
	lb := &Loopback{Timeout: 5 * time.Second, Open: func(u string) error {
		// The "browser": follow the redirects to the loopback listener.
		go func() {
			resp, err := http.Get(u)
			if err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}}
	hc := newClient(t, mcp.url, Config{Grant: &AuthorizationCode{Interaction: lb}})
	if resp, body := rpc(t, hc, mcp.url, "ping", nil); resp.StatusCode != 200 {
		t.Fatalf("%s %s", resp.Status, body)
	}
	if r := as.authorizeCalls()[0].Get("redirect_uri"); !strings.HasPrefix(r, "http://127.0.0.1:") || !strings.HasSuffix(r, "/callback") {
		t.Errorf("redirect_uri %q", r)
	}
}

func TestServerMetadataOrder(t *testing.T) {
	for _, tc := range []struct {
		prefix, serveAt string
		want            []string
	}{
		{"/tenant1", "/tenant1/.well-known/openid-configuration", []string{"/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1", "/tenant1/.well-known/openid-configuration"}},
		{"/tenant1", "/.well-known/openid-configuration/tenant1", []string{"/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1"}},
		{"", "/.well-known/openid-configuration", []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}},
	} {
		as := newTestAS(t)
		as.prefix, as.metaPath = tc.prefix, tc.serveAt
		m, err := DiscoverServer(context.Background(), nil, as.issuer())
		if err != nil {
			t.Fatal(err)
		}
		if m.TokenEndpoint != as.issuer()+"/token" {
			t.Errorf("token endpoint %q", m.TokenEndpoint)
		}
		if !slices.Equal(as.hits, tc.want) {
			t.Errorf("requested %q, want %q", as.hits, tc.want)
		}
	}
}

func TestResourceMetadataFallback(t *testing.T) {
	for _, root := range []bool{false, true} {
		as := newTestAS(t)
		mcp := newTestMCP(t, as, nil)
		mcp.noHeader = true
		var hits []string
		var mu sync.Mutex
		rootHandler := func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			hits = append(hits, r.URL.Path)
			mu.Unlock()
			writeJSON(w, 200, map[string]any{"resource": mcp.srv.URL, "authorization_servers": []string{as.issuer()}})
		}
		mcp.prm = func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			hits = append(hits, r.URL.Path)
			mu.Unlock()
			if root {
				http.NotFound(w, r)
				return
			}
			mcp.rs.MetadataHandler().ServeHTTP(w, r)
		}
		if root {
			mcp.rs.Verifier.(*JWTVerifier).Audience = []string{mcp.srv.URL}
		}
		mux := mcp.srv.Config.Handler.(*http.ServeMux)
		mux.HandleFunc("/.well-known/oauth-protected-resource", rootHandler)
		hc := newClient(t, mcp.url, Config{Grant: &AuthorizationCode{Interaction: &redirectAgent{}}})
		if resp, body := rpc(t, hc, mcp.url, "ping", nil); resp.StatusCode != 200 {
			t.Fatalf("%s %s", resp.Status, body)
		}
		want := []string{"/.well-known/oauth-protected-resource/mcp"}
		if root {
			want = append(want, "/.well-known/oauth-protected-resource")
		}
		if !slices.Equal(hits, want) {
			t.Errorf("metadata requested at %q, want %q", hits, want)
		}
		// The resource parameter is the identifier exactly as published.
		wantResource := mcp.url
		if root {
			wantResource = mcp.srv.URL
		}
		if got := as.authorizeCalls()[0].Get("resource"); got != wantResource {
			t.Errorf("resource %q, want %q", got, wantResource)
		}
	}
}

func TestStepUpUnionAndLimit(t *testing.T) {
	as := newTestAS(t)
	as.deny = []string{"mcp:never"}
	mcp := newTestMCP(t, as, func(rs *ResourceServer) {
		rs.Scopes = []string{"mcp:basic"}
		rs.ToolScopes = map[string][]string{"delete": {"mcp:admin"}}
		rs.MethodScopes = map[string][]string{"admin/never": {"mcp:never"}}
	})
	hc := newClient(t, mcp.url, Config{Grant: &AuthorizationCode{Interaction: &redirectAgent{}, NoOfflineAccess: true}})
	if resp, _ := rpc(t, hc, mcp.url, "tools/list", nil); resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	resp, body := rpc(t, hc, mcp.url, "tools/call", map[string]any{"name": "delete"})
	if resp.StatusCode != 200 || !strings.Contains(body, "mcp:admin") {
		t.Fatalf("step-up: %s %s", resp.Status, body)
	}
	authz := as.authorizeCalls()
	if len(authz) != 2 || authz[1].Get("scope") != "mcp:basic mcp:admin" {
		t.Fatalf("authorizations %v", authz)
	}
	// A scope the authorization server never grants: the client asks
	// once, then hands back the 403.
	resp, _ = rpc(t, hc, mcp.url, "admin/never", nil)
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("got %s, want 403", resp.Status)
	}
	if n := len(as.authorizeCalls()); n != 3 {
		t.Errorf("%d authorizations in all, want 3", n)
	}
}

func TestRefresh(t *testing.T) {
	as := newTestAS(t)
	mcp := newTestMCP(t, as, nil)
	var now atomic.Int64
	now.Store(time.Now().Unix())
	clock := func() time.Time { return time.Unix(now.Load(), 0) }
	tr, err := NewTransport(mcp.url, Config{Grant: &AuthorizationCode{Interaction: &redirectAgent{}}, Now: clock, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	hc := tr.Client()
	if resp, _ := rpc(t, hc, mcp.url, "ping", nil); resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	first, _ := tr.Token(context.Background())
	now.Add(2 * 3600) // the client believes the token expired
	if resp, _ := rpc(t, hc, mcp.url, "ping", nil); resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	second, _ := tr.Token(context.Background())
	calls := as.tokenCalls()
	if len(calls) != 2 || calls[1].Get("grant_type") != "refresh_token" || calls[1].Get("resource") != mcp.url {
		t.Fatalf("token requests %v", calls)
	}
	if second.AccessToken == first.AccessToken || second.RefreshToken == first.RefreshToken {
		t.Error("the token was not replaced")
	}
	if len(as.authorizeCalls()) != 1 {
		t.Error("refresh went back to the user")
	}
}

func TestClientCredentials(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	for name, client := range map[string]ClientInfo{
		"basic":           {ClientID: "m2m", ClientSecret: "s3cret/+"},
		"post":            {ClientID: "m2m", ClientSecret: "s3cret/+", AuthMethod: "client_secret_post"},
		"private_key_jwt": {ClientID: "m2m-jwt", Key: key, KeyID: "m2m-key"},
	} {
		t.Run(name, func(t *testing.T) {
			as := newTestAS(t)
			as.secrets["m2m"] = "s3cret/+"
			as.clientKeys["m2m-jwt"] = &key.PublicKey
			mcp := newTestMCP(t, as, nil)
			hc := newClient(t, mcp.url, Config{Grant: &ClientCredentials{Client: client}})
			if resp, body := rpc(t, hc, mcp.url, "ping", nil); resp.StatusCode != 200 {
				t.Fatalf("%s %s", resp.Status, body)
			}
			tok := as.tokenCalls()[0]
			if tok.Get("grant_type") != "client_credentials" || tok.Get("resource") != mcp.url || tok.Get("scope") != "mcp:basic" {
				t.Errorf("token request %v", tok)
			}
			if p := mcp.principals[0]; p.ClientID != client.ClientID {
				t.Errorf("principal client %q", p.ClientID)
			}
		})
	}
}

func TestTokenStaysWithItsServer(t *testing.T) {
	as := newTestAS(t)
	mcp := newTestMCP(t, as, nil)
	var leaked atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := r.Header.Get("Authorization"); h != "" {
			leaked.Store(r.URL.Path + ": " + h)
		}
		if r.URL.Path == "/bounce" {
			w.WriteHeader(401) // must not make the client authorize for this origin
			return
		}
		w.Write([]byte("ok"))
	}))
	defer other.Close()
	tr, _ := NewTransport(mcp.url, Config{Grant: &AuthorizationCode{Interaction: &redirectAgent{}}})
	hc := tr.Client()
	if resp, _ := rpc(t, hc, mcp.url, "ping", nil); resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	// Another origin, the same path.
	u, _ := url.Parse(other.URL)
	u.Path = "/mcp"
	if resp, _ := rpc(t, hc, u.String(), "ping", nil); resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	if resp, _ := rpc(t, hc, other.URL+"/bounce", "ping", nil); resp.StatusCode != 401 {
		t.Fatal(resp.Status)
	}
	// The same origin, another path.
	if resp, _ := rpc(t, hc, mcp.srv.URL+"/other", "ping", nil); resp.StatusCode != 404 {
		t.Fatal(resp.Status)
	}
	// A redirect from the MCP endpoint to another origin.
	redir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/landed", http.StatusTemporaryRedirect)
	}))
	defer redir.Close()
	tr2, _ := NewTransport(redir.URL+"/mcp", Config{Store: &sharedStore{tr, redir.URL + "/mcp"}})
	tr2.Client().Post(redir.URL+"/mcp", "application/json", strings.NewReader("{}"))
	if v := leaked.Load(); v != nil {
		t.Fatalf("token sent to another origin: %v", v)
	}
	if len(as.authorizeCalls()) != 1 {
		t.Errorf("%d authorizations", len(as.authorizeCalls()))
	}
}

// sharedStore hands tr's token to another Transport, as if stored for it.
type sharedStore struct {
	tr     *Transport
	server string
}

func (s *sharedStore) Load(ctx context.Context, key string) ([]byte, error) {
	if key != tokenKey(s.server) {
		return nil, nil
	}
	rec, _ := s.tr.load(ctx)
	rec.Resource = s.server
	return json.Marshal(rec)
}
func (s *sharedStore) Save(context.Context, string, []byte) error { return nil }

func TestClientRefusesBadInput(t *testing.T) {
	type setup struct {
		as  *testAS
		mcp *testMCP
		ag  *redirectAgent
	}
	cases := []struct {
		name    string
		arrange func(s *setup)
		want    error
	}{
		{"metadata issuer mismatch", func(s *setup) { s.as.mutateMeta = func(m map[string]any) { m["issuer"] = "https://attacker.example" } }, ErrIssuerMismatch},
		{"malformed metadata", func(s *setup) {
			s.as.mutateMeta = func(m map[string]any) { m["token_endpoint"] = 42 }
		}, ErrMetadata},
		{"plain http endpoint off loopback", func(s *setup) {
			s.as.mutateMeta = func(m map[string]any) { m["token_endpoint"] = "http://as.example.com/token" }
		}, ErrInsecureURL},
		{"no PKCE", func(s *setup) {
			s.as.mutateMeta = func(m map[string]any) { delete(m, "code_challenge_methods_supported") }
		}, ErrNoPKCE},
		{"resource mismatch", func(s *setup) {
			s.mcp.prm = func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, map[string]any{"resource": "https://evil.example/mcp", "authorization_servers": []string{s.as.issuer()}})
			}
		}, ErrResourceMismatch},
		{"malformed resource metadata", func(s *setup) {
			s.mcp.prm = func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(`{"resource": [`))
			}
		}, ErrMetadata},
		{"state mismatch", func(s *setup) { s.as.stateMode = "wrong" }, ErrState},
		{"wrong iss", func(s *setup) { s.as.issMode = "wrong" }, ErrIssuer},
		{"iss with a trailing slash", func(s *setup) { s.as.issMode = "slash" }, ErrIssuer},
		{"iss advertised, absent", func(s *setup) { s.as.issMode = "omit" }, ErrIssuer},
		{"authorization error", func(s *setup) {
			s.ag.tamper = func(q url.Values) { q.Del("code"); q.Set("error", "access_denied") }
		}, &AuthorizationError{}},
		{"PKCE mismatch (an injected code)", func(s *setup) {
			s.ag.tamper = func(q url.Values) {
				// A code issued to the attacker's own request, with its
				// own code_challenge.
				s.as.mu.Lock()
				s.as.codes["injected"] = grantData{challenge: "attacker-challenge", clientID: s.as.authorizes[0].Get("client_id"), redirect: s.as.authorizes[0].Get("redirect_uri"), resource: s.mcp.url}
				s.as.mu.Unlock()
				q.Set("code", "injected")
			}
		}, &oauth2.RetrieveError{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &setup{as: newTestAS(t), ag: &redirectAgent{}}
			s.mcp = newTestMCP(t, s.as, nil)
			tc.arrange(s)
			tr, _ := NewTransport(s.mcp.url, Config{Grant: &AuthorizationCode{Interaction: s.ag}, Logf: t.Logf})
			err := rpcErr(tr.Client(), s.mcp.url, "ping")
			switch want := tc.want.(type) {
			case *AuthorizationError:
				var ae *AuthorizationError
				if !errors.As(err, &ae) || ae.Code != "access_denied" {
					t.Fatalf("got %v, want an access_denied AuthorizationError", err)
				}
			case *oauth2.RetrieveError:
				var re *oauth2.RetrieveError
				if !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
					t.Fatalf("got %v, want invalid_grant", err)
				}
			default:
				if !errors.Is(err, want) {
					t.Fatalf("got %v, want %v", err, want)
				}
			}
			if tok, _ := tr.Token(context.Background()); tok != nil {
				t.Error("a token was stored")
			}
			switch tc.want {
			case ErrState, ErrIssuer:
				if n := len(s.as.tokenCalls()); n != 0 {
					t.Errorf("the code went to the token endpoint (%d requests)", n)
				}
			case ErrIssuerMismatch, ErrMetadata, ErrInsecureURL, ErrNoPKCE, ErrResourceMismatch:
				if n := len(s.as.authorizeCalls()) + len(s.as.registers); n != 0 {
					t.Errorf("unusable metadata was used (%d requests)", n)
				}
			}
		})
	}
}

func TestMigrationReregisters(t *testing.T) {
	as1, as2 := newTestAS(t), newTestAS(t)
	mcp := newTestMCP(t, as1, nil)
	tr, _ := NewTransport(mcp.url, Config{Grant: &AuthorizationCode{Interaction: &redirectAgent{}}, Logf: t.Logf})
	hc := tr.Client()
	if resp, _ := rpc(t, hc, mcp.url, "ping", nil); resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	// The server moves to another authorization server.
	mcp.rs.AuthorizationServers = []string{as2.issuer()}
	mcp.rs.Verifier = &JWTVerifier{Issuer: as2.issuer(), Audience: []string{mcp.url}, JWKSURL: as2.srv.URL + "/jwks"}
	if resp, _ := rpc(t, hc, mcp.url, "ping", nil); resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	if len(as2.registers) != 1 {
		t.Fatalf("%d registrations at the new server", len(as2.registers))
	}
	old := as1.authorizeCalls()[0].Get("client_id")
	for _, q := range append(as2.authorizeCalls(), as2.tokenCalls()...) {
		if q.Get("client_id") == old {
			t.Fatal("the old server's client_id went to the new one")
		}
	}
	for _, q := range as2.tokenCalls() {
		if q.Get("grant_type") == "refresh_token" {
			t.Fatal("the old server's refresh token went to the new one")
		}
	}
}

func TestConcurrentRequestsAuthorizeOnce(t *testing.T) {
	as := newTestAS(t)
	mcp := newTestMCP(t, as, nil)
	hc := newClient(t, mcp.url, Config{Grant: &AuthorizationCode{Interaction: &redirectAgent{}}})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if err := rpcErr(hc, mcp.url, "ping"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := len(as.authorizeCalls()); n != 1 {
		t.Errorf("%d authorizations for 8 concurrent requests, want 1", n)
	}
}

func TestLegacyDiscovery(t *testing.T) {
	// A 2025-03-26 server: no protected resource metadata, the
	// authorization server's endpoints at the MCP server's origin.
	as := newTestAS(t)
	var mcpURL string
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mcpURL = srv.URL + "/mcp"
	verifier := &JWTVerifier{Issuer: srv.URL, Audience: []string{mcpURL}, JWKSURL: as.srv.URL + "/jwks"}
	for _, p := range []string{"/authorize", "/token", "/register"} {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			as.prefix = "" // the test AS mints with its own issuer: make it the MCP origin's
			as.serveAs(srv.URL, w, r)
		})
	}
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		tok, _ := bearerToken(r)
		if _, err := verifier.Verify(r.Context(), tok); err != nil {
			w.Header().Set("WWW-Authenticate", "Bearer")
			w.WriteHeader(401)
			return
		}
		w.Write([]byte("{}"))
	})
	for _, legacy := range []bool{false, true} {
		hc := newClient(t, mcpURL, Config{LegacyDiscovery: legacy, Grant: &AuthorizationCode{Interaction: &redirectAgent{}}})
		err := rpcErr(hc, mcpURL, "ping")
		if legacy && err != nil || !legacy && !errors.Is(err, ErrNotFound) {
			t.Errorf("LegacyDiscovery %v: %v", legacy, err)
		}
	}
}

func TestAuthorizeBeforeRequests(t *testing.T) {
	as := newTestAS(t)
	mcp := newTestMCP(t, as, nil)
	tr, err := NewTransport(mcp.url, Config{Grant: &AuthorizationCode{Interaction: &redirectAgent{}}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Authorize(t.Context()); err != nil {
		t.Fatal(err)
	}
	if tok, _ := tr.Token(t.Context()); tok == nil || len(as.authorizeCalls()) != 1 {
		t.Fatalf("token %v after %d authorizations", tok, len(as.authorizeCalls()))
	}
	// The MCP requests that follow find the token.
	if resp, _ := rpc(t, tr.Client(), mcp.url, "tools/list", nil); resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	if err := tr.Authorize(t.Context()); err != nil || len(as.authorizeCalls()) != 1 {
		t.Fatalf("Authorize with a valid token: %v, %d authorizations", err, len(as.authorizeCalls()))
	}

	// A server that needs no authorization.
	open := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, map[string]any{}) }))
	defer open.Close()
	tr2, _ := NewTransport(open.URL+"/mcp", Config{Grant: &AuthorizationCode{Interaction: &redirectAgent{}}})
	if err := tr2.Authorize(t.Context()); err != nil {
		t.Fatal(err)
	}
	if tok, _ := tr2.Token(t.Context()); tok != nil {
		t.Error("a token for a server that asked for none")
	}

	// An authorization the user refuses.
	as3 := newTestAS(t)
	mcp3 := newTestMCP(t, as3, nil)
	tr3, _ := NewTransport(mcp3.url, Config{Grant: &AuthorizationCode{Interaction: &redirectAgent{tamper: func(q url.Values) { q.Del("code"); q.Set("error", "access_denied") }}}})
	var ae *AuthorizationError
	if err := tr3.Authorize(t.Context()); !errors.As(err, &ae) {
		t.Fatalf("got %v, want an AuthorizationError", err)
	}
}

func TestAuthContext(t *testing.T) {
	as := newTestAS(t)
	mcp := newTestMCP(t, as, nil)
	a, _ := NewTransport(mcp.url, Config{Grant: &AuthorizationCode{Interaction: &redirectAgent{}}})
	b, _ := NewTransport(mcp.url, Config{Grant: &AuthorizationCode{Interaction: &redirectAgent{}}})
	before := a.AuthContext()
	if resp, _ := rpc(t, a.Client(), mcp.url, "ping", nil); resp.StatusCode != 200 {
		t.Fatal(resp.Status)
	}
	tok, _ := a.Token(t.Context())
	if a.AuthContext() == "" || a.AuthContext() != before || a.AuthContext() == b.AuthContext() || strings.Contains(a.AuthContext(), tok.AccessToken) {
		t.Errorf("AuthContext %q (was %q), other Transport %q", a.AuthContext(), before, b.AuthContext())
	}
}

func TestLoopbackClose(t *testing.T) {
	ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	lb := &Loopback{Addr: addr}
	uri, err := lb.RedirectURI(t.Context())
	if err != nil || uri != "http://"+addr+"/callback" {
		t.Fatalf("%q %v", uri, err)
	}
	if _, err := (&Loopback{Addr: addr}).RedirectURI(t.Context()); err == nil {
		t.Fatal("two listeners on one address")
	}
	if err := lb.Close(); err != nil {
		t.Fatal(err)
	}
	again := &Loopback{Addr: addr}
	if _, err := again.RedirectURI(t.Context()); err != nil {
		t.Fatalf("the address is still taken after Close: %v", err)
	}
	again.Close()
	if _, err := (&Loopback{Addr: "192.0.2.1:0"}).RedirectURI(t.Context()); err == nil {
		t.Error("a loopback listener on a non-loopback address")
	}
}

// TestRedirectDropsCredentialsOfTheRequest: credentials a request carries
// itself are not sent on to another origin (another port of the same
// host, which net/http would send them to), and https to http is refused.
func TestRedirectDropsCredentialsOfTheRequest(t *testing.T) {
	var seen atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.Header.Clone())
	}))
	defer other.Close()
	redir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/landed", http.StatusTemporaryRedirect)
	}))
	defer redir.Close()
	tr, _ := NewTransport(redir.URL+"/mcp", Config{})
	req, _ := http.NewRequest(http.MethodPost, redir.URL+"/elsewhere", strings.NewReader("{}"))
	for _, h := range []string{"Authorization", "Cookie", "Proxy-Authorization", "DPoP", "X-Trace"} {
		req.Header.Set(h, "s3cret")
	}
	resp, err := tr.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	h, _ := seen.Load().(http.Header)
	if h == nil {
		t.Fatal("the redirect was not followed")
	}
	for _, name := range credentialHeaders {
		if v := h.Get(name); v != "" {
			t.Errorf("%s sent to another origin: %q", name, v)
		}
	}
	if h.Get("X-Trace") == "" {
		t.Error("a header that is no credential was dropped")
	}

	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/plain", http.StatusTemporaryRedirect)
	}))
	defer secure.Close()
	tr2, _ := NewTransport(secure.URL+"/mcp", Config{Base: secure.Client().Transport})
	seen.Store(http.Header(nil))
	_, err = tr2.Client().Post(secure.URL+"/elsewhere", "application/json", strings.NewReader("{}"))
	want := "auth: refused the redirect from " + secure.URL + "/elsewhere to " + other.URL + "/plain: from https to http"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
	if h, _ := seen.Load().(http.Header); h != nil {
		t.Error("the http server was reached")
	}
}
