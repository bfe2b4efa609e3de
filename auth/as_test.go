package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// testAS is an authorization server for the tests: it answers the
// authorization endpoint at once (no user), checks PKCE, and issues ES256
// JWT access tokens whose aud is the resource parameter.
type testAS struct {
	t      *testing.T
	srv    *httptest.Server
	key    *ecdsa.PrivateKey
	kid    string
	prefix string // path of the issuer, e.g. "/tenant1"

	// knobs, set before use
	metaPath   string                 // where the metadata is; default RFC 8414 for the issuer
	mutateMeta func(m map[string]any) // edits the metadata document
	issMode    string                 // "" (correct), "omit", "wrong", "slash"
	stateMode  string                 // "" or "wrong"
	tokenTTL   time.Duration          // default 1h
	noRefresh  bool
	deny       []string                    // scopes never granted
	clientKeys map[string]*ecdsa.PublicKey // private_key_jwt clients
	secrets    map[string]string           // client_secret clients

	issuerOverride string

	mu         sync.Mutex
	codes      map[string]grantData
	refresh    map[string]grantData
	authorizes []url.Values
	tokens     []url.Values
	registers  []map[string]any
	hits       []string // every path requested
	sawBearer  bool
}

type grantData struct {
	challenge, clientID, redirect, scope, resource string
}

func newTestAS(t *testing.T) *testAS {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	a := &testAS{t: t, key: key, kid: "k1", codes: map[string]grantData{}, refresh: map[string]grantData{}, secrets: map[string]string{}, clientKeys: map[string]*ecdsa.PublicKey{}}
	a.srv = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *testAS) issuer() string {
	if a.issuerOverride != "" {
		return a.issuerOverride
	}
	return a.srv.URL + a.prefix
}

// serveAs answers as if the server were at base (the 2025-03-26 layout:
// endpoints at the MCP server's origin).
func (a *testAS) serveAs(base string, w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.issuerOverride = base
	a.mu.Unlock()
	a.serve(w, r)
}

func (a *testAS) metadata() map[string]any {
	base := a.srv.URL + a.prefix
	m := map[string]any{
		"issuer":                                         a.issuer(),
		"authorization_endpoint":                         base + "/authorize",
		"token_endpoint":                                 base + "/token",
		"registration_endpoint":                          base + "/register",
		"jwks_uri":                                       base + "/jwks",
		"response_types_supported":                       []string{"code"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token", "client_credentials"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          []string{"none", "client_secret_basic", "client_secret_post", "private_key_jwt"},
		"scopes_supported":                               []string{"mcp:basic", "mcp:admin", "offline_access"},
		"authorization_response_iss_parameter_supported": true,
	}
	if a.mutateMeta != nil {
		a.mutateMeta(m)
	}
	return m
}

func (a *testAS) record(f func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	f()
}

func (a *testAS) serve(w http.ResponseWriter, r *http.Request) {
	a.record(func() {
		a.hits = append(a.hits, r.URL.Path)
		if strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") || strings.HasPrefix(r.Header.Get("Authorization"), "DPoP ") {
			a.sawBearer = true
		}
	})
	metaPath := a.metaPath
	if metaPath == "" {
		metaPath = "/.well-known/oauth-authorization-server" + a.prefix
	}
	switch strings.TrimPrefix(r.URL.Path, a.prefix) {
	case "/authorize":
		a.authorize(w, r)
		return
	case "/token":
		a.token(w, r)
		return
	case "/register":
		a.register(w, r)
		return
	case "/jwks":
		writeJSON(w, 200, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &a.key.PublicKey, KeyID: a.kid, Algorithm: "ES256", Use: "sig"}}})
		return
	}
	if r.URL.Path == metaPath {
		writeJSON(w, 200, a.metadata())
		return
	}
	http.NotFound(w, r)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (a *testAS) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a.record(func() { a.authorizes = append(a.authorizes, q) })
	code := randomString(12)
	a.record(func() {
		scope := slices.DeleteFunc(strings.Fields(q.Get("scope")), func(s string) bool { return slices.Contains(a.deny, s) })
		a.codes[code] = grantData{challenge: q.Get("code_challenge"), clientID: q.Get("client_id"), redirect: q.Get("redirect_uri"), scope: strings.Join(scope, " "), resource: q.Get("resource")}
	})
	back, err := url.Parse(q.Get("redirect_uri"))
	if err != nil {
		http.Error(w, "bad redirect_uri", 400)
		return
	}
	bq := back.Query()
	bq.Set("code", code)
	bq.Set("state", q.Get("state"))
	if a.stateMode == "wrong" {
		bq.Set("state", "forged")
	}
	switch a.issMode {
	case "":
		bq.Set("iss", a.issuer())
	case "wrong":
		bq.Set("iss", "https://evil.example")
	case "slash":
		bq.Set("iss", a.issuer()+"/")
	}
	back.RawQuery = bq.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (a *testAS) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	f := r.PostForm
	a.record(func() { a.tokens = append(a.tokens, f) })
	clientID, ok := a.authenticate(r)
	if !ok {
		writeJSON(w, 401, map[string]string{"error": "invalid_client"})
		return
	}
	var g grantData
	switch f.Get("grant_type") {
	case "authorization_code":
		a.mu.Lock()
		g, ok = a.codes[f.Get("code")]
		delete(a.codes, f.Get("code"))
		a.mu.Unlock()
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		if !ok || g.clientID != clientID || g.redirect != f.Get("redirect_uri") || base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge || g.resource != f.Get("resource") {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
	case "refresh_token":
		a.mu.Lock()
		g, ok = a.refresh[f.Get("refresh_token")]
		delete(a.refresh, f.Get("refresh_token")) // rotated
		a.mu.Unlock()
		if !ok || g.clientID != clientID {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
	case "client_credentials":
		g = grantData{clientID: clientID, scope: f.Get("scope"), resource: f.Get("resource")}
	default:
		writeJSON(w, 400, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	ttl := a.tokenTTL
	if ttl == 0 {
		ttl = time.Hour
	}
	resp := map[string]any{"access_token": a.mint(g, ttl), "token_type": "Bearer", "expires_in": int(ttl / time.Second), "scope": g.scope}
	if !a.noRefresh && f.Get("grant_type") != "client_credentials" {
		rt := randomString(12)
		a.record(func() { a.refresh[rt] = g })
		resp["refresh_token"] = rt
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, 200, resp)
}

// authenticate checks the client authentication of a token request.
func (a *testAS) authenticate(r *http.Request) (string, bool) {
	f := r.PostForm
	if id, secret, ok := r.BasicAuth(); ok {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
		a.mu.Lock()
		defer a.mu.Unlock()
		return id, a.secrets[id] == secret && secret != ""
	}
	if as := f.Get("client_assertion"); as != "" {
		tok, err := jwt.ParseSigned(as, []jose.SignatureAlgorithm{jose.ES256})
		if err != nil {
			return "", false
		}
		pub := a.clientKeys[f.Get("client_id")]
		var c jwt.Claims
		if pub == nil || tok.Claims(pub, &c) != nil || c.Issuer != f.Get("client_id") || c.Subject != c.Issuer {
			return "", false
		}
		if c.Validate(jwt.Expected{AnyAudience: jwt.Audience{a.issuer()}, Time: time.Now()}) != nil {
			return "", false
		}
		return c.Issuer, true
	}
	id := f.Get("client_id")
	a.mu.Lock()
	defer a.mu.Unlock()
	if s, ok := a.secrets[id]; ok && s != "" {
		return id, f.Get("client_secret") == s
	}
	return id, id != ""
}

func (a *testAS) register(w http.ResponseWriter, r *http.Request) {
	var m map[string]any
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
		writeJSON(w, 400, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	id := "client-" + randomString(6)
	a.record(func() {
		a.registers = append(a.registers, m)
		if m["token_endpoint_auth_method"] != "none" {
			a.secrets[id] = "secret-" + id
		}
	})
	out := map[string]any{"client_id": id, "redirect_uris": m["redirect_uris"], "token_endpoint_auth_method": m["token_endpoint_auth_method"]}
	if s := a.secrets[id]; s != "" {
		out["client_secret"] = s
	}
	writeJSON(w, 201, out)
}

func (a *testAS) mint(g grantData, ttl time.Duration) string {
	return a.mintClaims(map[string]any{
		"iss": a.issuer(), "sub": "user-1", "aud": g.resource, "client_id": g.clientID, "scope": g.scope,
		"iat": time.Now().Unix(), "exp": time.Now().Add(ttl).Unix(), "jti": randomString(8),
	}, a.key, a.kid, jose.ES256)
}

func (a *testAS) mintClaims(claims map[string]any, key any, kid string, alg jose.SignatureAlgorithm) string {
	opts := (&jose.SignerOptions{}).WithType("at+jwt")
	if kid != "" {
		opts = opts.WithHeader("kid", kid)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		a.t.Fatal(err)
	}
	tok, err := jwt.Signed(s).Claims(claims).Serialize()
	if err != nil {
		a.t.Fatal(err)
	}
	return tok
}

func (a *testAS) authorizeCalls() []url.Values {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.authorizes)
}

func (a *testAS) tokenCalls() []url.Values {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.tokens)
}

// redirectAgent is the Interaction of tests and headless clients: it
// requests the authorization URL itself and reads the redirect.
type redirectAgent struct {
	uri string
	// tamper, when set, edits the redirect's parameters.
	tamper func(url.Values)
}

func (r *redirectAgent) RedirectURI(ctx context.Context) (string, error) {
	if r.uri == "" {
		return "http://127.0.0.1:9/callback", nil
	}
	return r.uri, nil
}

func (r *redirectAgent) Authorize(ctx context.Context, authURL string) (url.Values, error) {
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode/100 != 3 {
		return nil, fmt.Errorf("authorization endpoint answered %s", resp.Status)
	}
	q := loc.Query()
	if r.tamper != nil {
		r.tamper(q)
	}
	return q, nil
}
