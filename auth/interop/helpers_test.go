package interop

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/auth"
)

// staticVerifier accepts the tokens it lists, as the principals it maps
// them to.
type staticVerifier map[string]*auth.Principal

func (v staticVerifier) Verify(_ context.Context, token string) (*auth.Principal, error) {
	if p, ok := v[token]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
}

// testAS is an authorization server in the test process: RFC 8414
// metadata, dynamic client registration, an authorization endpoint that
// redirects at once (the user is the login_hint parameter, else "alice"),
// and a token endpoint that checks PKCE and the resource parameter and
// issues opaque tokens, which Verifier accepts.
type testAS struct {
	srv *httptest.Server

	mu     sync.Mutex
	codes  map[string]codeGrant
	tokens staticVerifier
}

type codeGrant struct {
	challenge, clientID, redirect, resource, subject, scope string
}

func newTestAS(t *testing.T) *testAS {
	a := &testAS{codes: map[string]codeGrant{}, tokens: staticVerifier{}}
	a.srv = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *testAS) issuer() string { return a.srv.URL }

// Verifier verifies the tokens a issued.
func (a *testAS) Verify(ctx context.Context, token string) (*auth.Principal, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.tokens.Verify(ctx, token)
}

func random() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (a *testAS) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		writeJSON(w, 200, map[string]any{
			"issuer":                                a.issuer(),
			"authorization_endpoint":                a.issuer() + "/authorize",
			"token_endpoint":                        a.issuer() + "/token",
			"registration_endpoint":                 a.issuer() + "/register",
			"response_types_supported":              []string{"code"},
			"grant_types_supported":                 []string{"authorization_code"},
			"code_challenge_methods_supported":      []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"},
		})
	case "/register":
		var m map[string]any
		if json.NewDecoder(r.Body).Decode(&m) != nil {
			writeJSON(w, 400, map[string]string{"error": "invalid_client_metadata"})
			return
		}
		writeJSON(w, 201, map[string]any{"client_id": "client-" + random(), "token_endpoint_auth_method": "none", "redirect_uris": m["redirect_uris"]})
	case "/authorize":
		q := r.URL.Query()
		sub := q.Get("login_hint")
		if sub == "" {
			sub = "alice"
		}
		code := random()
		a.mu.Lock()
		a.codes[code] = codeGrant{challenge: q.Get("code_challenge"), clientID: q.Get("client_id"), redirect: q.Get("redirect_uri"), resource: q.Get("resource"), subject: sub, scope: q.Get("scope")}
		a.mu.Unlock()
		back, err := url.Parse(q.Get("redirect_uri"))
		if err != nil {
			http.Error(w, "bad redirect_uri", 400)
			return
		}
		bq := back.Query()
		bq.Set("code", code)
		bq.Set("state", q.Get("state"))
		back.RawQuery = bq.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	case "/token":
		r.ParseForm()
		f := r.PostForm
		a.mu.Lock()
		g, ok := a.codes[f.Get("code")]
		delete(a.codes, f.Get("code"))
		a.mu.Unlock()
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		if f.Get("grant_type") != "authorization_code" || !ok || g.clientID != f.Get("client_id") || g.redirect != f.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge || g.resource != f.Get("resource") {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		tok := random()
		a.mu.Lock()
		a.tokens[tok] = &auth.Principal{Issuer: a.issuer(), Subject: g.subject, ClientID: g.clientID, Audience: []string{g.resource}, Scopes: strings.Fields(g.scope)}
		a.mu.Unlock()
		writeJSON(w, 200, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "scope": g.scope})
	default:
		http.NotFound(w, r)
	}
}

// redirectAgent is the user's part of the authorization code grant in
// the tests: it requests the authorization URL and reads the redirect,
// without following it.
type redirectAgent struct{}

func (redirectAgent) RedirectURI(context.Context) (string, error) {
	return "http://127.0.0.1:9/callback", nil
}

func (redirectAgent) Authorize(ctx context.Context, authURL string) (url.Values, error) {
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode/100 != 3 {
		return nil, fmt.Errorf("authorization endpoint: %s", resp.Status)
	}
	return loc.Query(), nil
}

// protect serves h at /mcp of a new test server, protected by a
// ResourceServer whose Verifier is v, with the metadata document at its
// well-known path; it returns the MCP endpoint's URL.
func protect(t *testing.T, issuer string, v auth.Verifier, h http.Handler, configure func(*auth.ResourceServer)) string {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	rs := &auth.ResourceServer{Resource: srv.URL + "/mcp", AuthorizationServers: []string{issuer}, Verifier: v, Scopes: []string{"mcp"}}
	if configure != nil {
		configure(rs)
	}
	rs.Handle(mux, h)
	return rs.Resource
}

// subject is the subject of the verified principal of ctx.
func subject(ctx context.Context) string {
	if p, ok := auth.PrincipalFrom(ctx); ok {
		return p.Subject
	}
	return "nobody"
}
