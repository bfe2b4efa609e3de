package auth

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// protected returns a ResourceServer trusting as for resource, in front
// of a handler that writes the principal's subject.
func protected(t *testing.T, as *testAS, resource string, configure func(*ResourceServer)) http.Handler {
	rs := &ResourceServer{
		Resource:             resource,
		AuthorizationServers: []string{as.issuer()},
		Verifier:             &JWTVerifier{Issuer: as.issuer(), Audience: []string{resource}, JWKSURL: as.srv.URL + "/jwks", MinRefreshInterval: time.Millisecond},
		Scopes:               []string{"mcp:basic"},
	}
	if configure != nil {
		configure(rs)
	}
	return rs.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := PrincipalFrom(r.Context())
		if !ok {
			t.Error("no principal")
		}
		w.Write([]byte("sub=" + p.Subject))
	}))
}

func call(h http.Handler, authz, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "https://mcp.example.com/mcp", strings.NewReader(body))
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestMiddlewareRefusesBadTokens(t *testing.T) {
	as := newTestAS(t)
	const resource = "https://mcp.example.com/mcp"
	h := protected(t, as, resource, nil)
	now := time.Now()
	claims := func(edit func(map[string]any)) map[string]any {
		c := map[string]any{"iss": as.issuer(), "sub": "alice", "aud": resource, "scope": "mcp:basic", "client_id": "c1", "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
		if edit != nil {
			edit(c)
		}
		return c
	}
	good := as.mintClaims(claims(nil), as.key, as.kid, jose.ES256)
	if rec := call(h, "Bearer "+good, `{}`); rec.Code != 200 || rec.Body.String() != "sub=alice" {
		t.Fatalf("good token: %d %s", rec.Code, rec.Body)
	}
	otherKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	parts := strings.Split(good, ".")
	tamperedPayload, _ := json.Marshal(claims(func(c map[string]any) { c["sub"] = "mallory" }))
	noneHeader := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT","kid":"k1"}`))
	hsKey, _ := as.key.PublicKey.Bytes() // a "key" an attacker knows: the public key

	for name, token := range map[string]string{
		"expired":              as.mintClaims(claims(func(c map[string]any) { c["exp"] = now.Add(-time.Hour).Unix() }), as.key, as.kid, jose.ES256),
		"not yet valid":        as.mintClaims(claims(func(c map[string]any) { c["nbf"] = now.Add(time.Hour).Unix() }), as.key, as.kid, jose.ES256),
		"no exp":               as.mintClaims(claims(func(c map[string]any) { delete(c, "exp") }), as.key, as.kid, jose.ES256),
		"wrong issuer":         as.mintClaims(claims(func(c map[string]any) { c["iss"] = "https://evil.example" }), as.key, as.kid, jose.ES256),
		"wrong audience":       as.mintClaims(claims(func(c map[string]any) { c["aud"] = "https://other.example.com/mcp" }), as.key, as.kid, jose.ES256),
		"no audience":          as.mintClaims(claims(func(c map[string]any) { delete(c, "aud") }), as.key, as.kid, jose.ES256),
		"tampered":             parts[0] + "." + base64.RawURLEncoding.EncodeToString(tamperedPayload) + "." + parts[2],
		"alg none":             noneHeader + "." + parts[1] + ".",
		"hmac":                 as.mintClaims(claims(nil), hsKey, as.kid, jose.HS256),
		"unknown kid":          as.mintClaims(claims(nil), otherKey, "k2", jose.ES256),
		"known kid, other key": as.mintClaims(claims(nil), otherKey, as.kid, jose.ES256),
		"rsa, no such key":     as.mintClaims(claims(nil), rsaKey, "", jose.RS256),
		"not a JWT":            "opaque-token",
	} {
		t.Run(name, func(t *testing.T) {
			rec := call(h, "Bearer "+token, `{}`)
			if rec.Code != http.StatusUnauthorized {
				t.Fatalf("status %d, want 401 (%s)", rec.Code, rec.Body)
			}
			ch := bearerChallenge(ParseChallenges(rec.Header()))
			if ch.Params["error"] != "invalid_token" || ch.Params["resource_metadata"] != "https://mcp.example.com/.well-known/oauth-protected-resource/mcp" || ch.Params["scope"] != "mcp:basic" {
				t.Errorf("challenge %q", rec.Header().Get("WWW-Authenticate"))
			}
		})
	}

	t.Run("no token", func(t *testing.T) {
		rec := call(h, "", `{}`)
		ch := bearerChallenge(ParseChallenges(rec.Header()))
		if rec.Code != 401 || ch.Params["error"] != "" || ch.Params["resource_metadata"] == "" {
			t.Fatalf("%d %q", rec.Code, rec.Header().Get("WWW-Authenticate"))
		}
	})
	for _, authz := range []string{"Basic dXNlcjpwYXNz", "Bearer", "Bearer a b", "Bearer  "} {
		if rec := call(h, authz, `{}`); rec.Code != http.StatusBadRequest {
			t.Errorf("%q: status %d, want 400", authz, rec.Code)
		}
	}
}

func TestMiddlewareScopes(t *testing.T) {
	as := newTestAS(t)
	const resource = "https://mcp.example.com/mcp"
	h := protected(t, as, resource, func(rs *ResourceServer) {
		rs.MethodScopes = map[string][]string{"tools/call": {"tools:call"}}
		rs.ToolScopes = map[string][]string{"delete": {"files:delete"}}
	})
	token := func(scope string) string {
		return "Bearer " + as.mintClaims(map[string]any{"iss": as.issuer(), "sub": "a", "aud": resource, "scope": scope, "exp": time.Now().Add(time.Hour).Unix()}, as.key, as.kid, jose.ES256)
	}
	hydraStyle := "Bearer " + as.mintClaims(map[string]any{"iss": as.issuer(), "sub": "a", "aud": []string{resource}, "scp": []string{"mcp:basic", "tools:call"}, "exp": time.Now().Add(time.Hour).Unix()}, as.key, as.kid, jose.ES256)
	for _, tc := range []struct {
		authz, body string
		code        int
		scope       string // of the 403 challenge
	}{
		{token("mcp:basic"), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 200, ""},
		{token("mcp:basic"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`, 403, "mcp:basic tools:call"},
		{token("mcp:basic tools:call"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`, 200, ""},
		{hydraStyle, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`, 200, ""},
		{token("mcp:basic tools:call"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete"}}`, 403, "mcp:basic tools:call files:delete"},
		{token("mcp:basic tools:call files:delete"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete"}}`, 200, ""},
		// A batch needs what each of its messages needs.
		{token("mcp:basic tools:call"), `[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"delete"}}]`, 403, "mcp:basic tools:call files:delete"},
		// Repeated members could be read differently by another parser.
		{token("mcp:basic tools:call"), `{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call","params":{"name":"delete"}}`, 400, ""},
		{token("mcp:basic tools:call"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","name":"delete"}}`, 400, ""},
		// Member names are matched exactly, as JSON-RPC does, and one in
		// another case is refused: encoding/json would read it.
		{token("mcp:basic"), `{"jsonrpc":"2.0","id":1,"method":"tools/list","METHOD":"tools/call"}`, 400, ""},
		{token("mcp:basic"), `{"jsonrpc":"2.0","id":1,"Method":"tools/call","params":{"name":"delete"}}`, 400, ""},
		{token("mcp:basic tools:call"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","Name":"delete"}}`, 400, ""},
		{token("mcp:basic tools:call"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","Params":{"name":"delete"},"params":{"name":"echo"}}`, 400, ""},
		// Inside the arguments, names are the tool's: Name and name are two.
		{token("mcp:basic tools:call"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"name":"a","Name":"b","method":"c"}}}`, 200, ""},
		// params and name before method are found too.
		{token("mcp:basic tools:call"), `{"params":{"arguments":[1,{"x":[]}],"name":"delete"},"jsonrpc":"2.0","id":1,"method":"tools/call"}`, 403, "mcp:basic tools:call files:delete"},
		// Not JSON: the MCP handler answers the parse error.
		{token("mcp:basic"), `{"jsonrpc":`, 200, ""},
	} {
		rec := call(h, tc.authz, tc.body)
		if rec.Code != tc.code {
			t.Errorf("%s: status %d, want %d", tc.body, rec.Code, tc.code)
			continue
		}
		if tc.code == 403 {
			ch := bearerChallenge(ParseChallenges(rec.Header()))
			if ch.Params["error"] != "insufficient_scope" || ch.Params["scope"] != tc.scope || ch.Params["resource_metadata"] == "" {
				t.Errorf("%s: challenge %q", tc.body, rec.Header().Get("WWW-Authenticate"))
			}
		}
	}
}

func TestMetadataDocument(t *testing.T) {
	rs := &ResourceServer{Resource: "https://mcp.example.com/api/mcp", AuthorizationServers: []string{"https://as.example.com"}, Scopes: []string{"mcp:basic"}, ResourceName: "Example", Verifier: &JWTVerifier{}}
	if rs.MetadataPath() != "/.well-known/oauth-protected-resource/api/mcp" {
		t.Fatal(rs.MetadataPath())
	}
	mux := http.NewServeMux()
	rs.Handle(mux, http.NotFoundHandler())
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp", nil))
	var m ProtectedResourceMetadata
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatal(err, rec.Header())
	}
	u, _ := url.Parse("https://mcp.example.com/api/mcp")
	if err := m.validate(u); err != nil || m.ScopesSupported[0] != "mcp:basic" || m.ResourceName != "Example" {
		t.Fatalf("%+v %v", m, err)
	}
}

func TestJWKSRotation(t *testing.T) {
	as := newTestAS(t)
	var fetches atomic.Int32
	newKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	var rotated atomic.Bool
	jwks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		keys := []jose.JSONWebKey{{Key: &as.key.PublicKey, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}
		if rotated.Load() {
			keys = append(keys, jose.JSONWebKey{Key: &newKey.PublicKey, KeyID: "k2", Algorithm: "ES256", Use: "sig"})
		}
		writeJSON(w, 200, jose.JSONWebKeySet{Keys: keys})
	}))
	defer jwks.Close()
	v := &JWTVerifier{Issuer: as.issuer(), Audience: []string{"https://r"}, JWKSURL: jwks.URL, MinRefreshInterval: time.Hour}
	mint := func(key *ecdsa.PrivateKey, kid string) string {
		return as.mintClaims(map[string]any{"iss": as.issuer(), "aud": "https://r", "exp": time.Now().Add(time.Hour).Unix()}, key, kid, jose.ES256)
	}
	ctx := t.Context()
	for range 3 {
		if _, err := v.Verify(ctx, mint(as.key, "k1")); err != nil {
			t.Fatal(err)
		}
	}
	if fetches.Load() != 1 {
		t.Fatalf("%d fetches, want 1 (cached by kid)", fetches.Load())
	}
	// An unknown kid before MinRefreshInterval: refused without a fetch.
	rotated.Store(true)
	if _, err := v.Verify(ctx, mint(newKey, "k2")); err == nil || fetches.Load() != 1 {
		t.Fatalf("err %v, %d fetches", err, fetches.Load())
	}
	v.MinRefreshInterval = time.Nanosecond
	if _, err := v.Verify(ctx, mint(newKey, "k2")); err != nil || fetches.Load() != 2 {
		t.Fatalf("after rotation: err %v, %d fetches", err, fetches.Load())
	}
}

func TestIntrospection(t *testing.T) {
	now := time.Now()
	answers := map[string]map[string]any{
		"good":     {"active": true, "sub": "bob", "client_id": "c", "scope": "mcp:basic", "aud": "https://mcp.example.com/mcp", "iss": "https://as.example.com", "exp": now.Add(time.Hour).Unix()},
		"inactive": {"active": false},
		"aud":      {"active": true, "scope": "mcp:basic", "aud": []string{"https://other"}, "exp": now.Add(time.Hour).Unix()},
		"expired":  {"active": true, "scope": "mcp:basic", "aud": "https://mcp.example.com/mcp", "exp": now.Add(-time.Minute).Unix()},
		"nbf":      {"active": true, "scope": "mcp:basic", "aud": "https://mcp.example.com/mcp", "nbf": now.Add(time.Hour).Unix()},
		"iss":      {"active": true, "scope": "mcp:basic", "aud": "https://mcp.example.com/mcp", "iss": "https://evil.example"},
	}
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if id, secret, _ := r.BasicAuth(); id != "rs" || secret != "pw" {
			w.WriteHeader(401)
			return
		}
		r.ParseForm()
		writeJSON(w, 200, answers[r.PostForm.Get("token")])
	}))
	defer srv.Close()
	rs := &ResourceServer{Resource: "https://mcp.example.com/mcp", AuthorizationServers: []string{"https://as.example.com"}, Scopes: []string{"mcp:basic"},
		Verifier: &IntrospectionVerifier{Endpoint: srv.URL, ClientID: "rs", ClientSecret: "pw", Issuer: "https://as.example.com", Audience: []string{"https://mcp.example.com/mcp"}, CacheTTL: time.Minute}}
	h := rs.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := PrincipalFrom(r.Context())
		w.Write([]byte(p.Subject))
	}))
	for range 2 {
		if rec := call(h, "Bearer good", "{}"); rec.Code != 200 || rec.Body.String() != "bob" {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("%d introspections, want 1 (cached)", calls.Load())
	}
	for _, tok := range []string{"inactive", "aud", "expired", "nbf", "iss"} {
		if rec := call(h, "Bearer "+tok, "{}"); rec.Code != 401 {
			t.Errorf("%s: %d, want 401", tok, rec.Code)
		}
	}
	// An introspection endpoint that fails is a server error, not a bad token.
	rs.Verifier.(*IntrospectionVerifier).ClientSecret = "wrong"
	if rec := call(h, "Bearer other", "{}"); rec.Code != 500 {
		t.Errorf("failing introspection: %d, want 500", rec.Code)
	}
}

func TestParseChallenges(t *testing.T) {
	h := http.Header{}
	h.Add("WWW-Authenticate", `Basic realm="x", Bearer error="invalid_token", error_description="Invalid Authorization header format, expected 'Bearer TOKEN', \"quoted\"", scope="a b", resource_metadata="https://h/.well-known/oauth-protected-resource/mcp"`)
	h.Add("WWW-Authenticate", `DPoP algs="ES256", Negotiate abc==`)
	cs := ParseChallenges(h)
	if len(cs) != 4 {
		t.Fatalf("%d challenges: %+v", len(cs), cs)
	}
	b := bearerChallenge(cs)
	if b.Scheme != "Bearer" || b.Params["error"] != "invalid_token" || strings.Join(b.Scope(), ",") != "a,b" || b.Params["resource_metadata"] != "https://h/.well-known/oauth-protected-resource/mcp" || !strings.HasSuffix(b.Params["error_description"], `"quoted"`) {
		t.Errorf("%+v", b)
	}
	if cs[2].Scheme != "DPoP" || cs[2].Params["algs"] != "ES256" || cs[3].Scheme != "Negotiate" {
		t.Errorf("%+v", cs[2:])
	}
	got := ParseChallenges(http.Header{"Www-Authenticate": {formatChallenge("Bearer", "error", `a"b\c`, "scope", "x y")}})
	if got[0].Params["error"] != `a"b\c` || got[0].Params["scope"] != "x y" {
		t.Errorf("round trip: %+v", got)
	}
}

func TestResourceCovers(t *testing.T) {
	for _, tc := range []struct {
		resource, url string
		want          bool
	}{
		{"https://h/mcp", "https://h/mcp", true},
		{"https://h", "https://h/mcp", true},
		{"https://h/", "https://h/mcp", true},
		{"https://H:443/mcp", "https://h/mcp", true},
		{"https://h/a", "https://h/ab", false},
		{"https://h/mcp", "http://h/mcp", false},
		{"https://h:8443/mcp", "https://h/mcp", false},
		{"https://evil.example/mcp", "https://h/mcp", false},
		{"https://h/mcp#x", "https://h/mcp", false},
		{"/mcp", "https://h/mcp", false},
	} {
		u, _ := url.Parse(tc.url)
		if got := resourceCovers(tc.resource, u); got != tc.want {
			t.Errorf("resourceCovers(%q, %q) = %v", tc.resource, tc.url, got)
		}
	}
	for _, tc := range []struct {
		u  string
		ok bool
	}{{"https://as.example.com/t", true}, {"http://127.0.0.1:8080", true}, {"http://localhost/x", true}, {"http://[::1]:9", true}, {"http://as.example.com", false}, {"ftp://as", false}, {"https://as#f", false}} {
		if _, err := checkEndpoint("x", tc.u); (err == nil) != tc.ok {
			t.Errorf("checkEndpoint(%q): %v", tc.u, err)
		}
	}
}

func TestPrincipalID(t *testing.T) {
	ids := map[string]bool{}
	for _, p := range []*Principal{
		{Issuer: "https://as", Subject: "alice", ClientID: "c"},
		{Issuer: "https://as", Subject: "bob", ClientID: "c"},
		{Issuer: "https://as", Subject: "alice", ClientID: "d"},
		{Issuer: "https://other", Subject: "alice", ClientID: "c"},
		{Issuer: "https://as alice", Subject: "c"},
		{Issuer: "https://as", Subject: "alice c"},
	} {
		id := p.ID()
		if ids[id] {
			t.Errorf("%+v: ID %q is another principal's", p, id)
		}
		ids[id] = true
		if got := PrincipalID(WithPrincipal(t.Context(), p)); got != id {
			t.Errorf("PrincipalID %q, ID %q", got, id)
		}
	}
	if got := PrincipalID(t.Context()); got != "" {
		t.Errorf("no principal: %q", got)
	}
}

// FuzzParseChallenges: any WWW-Authenticate value parses without a panic,
// and a challenge formatChallenge writes parses back to its parameters.
func FuzzParseChallenges(f *testing.F) {
	f.Add(`Bearer error="invalid_token", error_description="a \"b\", c", scope="x y", resource_metadata="https://h/.well-known/oauth-protected-resource"`, "x")
	f.Add(`Basic realm="r", DPoP algs="ES256", Negotiate abc==`, `a"b\c`)
	f.Add(`Bearer ,,, =`, "")
	f.Fuzz(func(t *testing.T, header, value string) {
		ParseChallenges(http.Header{"Www-Authenticate": {header}})
		if strings.ContainsFunc(value, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 }) || value == "" {
			return
		}
		got := ParseChallenges(http.Header{"Www-Authenticate": {formatChallenge("Bearer", "error", value, "scope", "a b")}})
		if len(got) != 1 || got[0].Params["error"] != value || got[0].Params["scope"] != "a b" {
			t.Fatalf("%q: parsed back as %+v", value, got)
		}
	})
}

func TestMiddlewareRefusalText(t *testing.T) {
	as := newTestAS(t)
	const resource = "https://mcp.example.com/mcp"
	h := protected(t, as, resource, func(rs *ResourceServer) {
		rs.ToolScopes = map[string][]string{"delete": {"files:delete"}}
		rs.MaxBodyBytes = 1 << 10
		rs.MaxBatch = 3
	})
	authz := "Bearer " + as.mintClaims(map[string]any{"iss": as.issuer(), "sub": "a", "aud": resource, "scope": "mcp:basic", "exp": time.Now().Add(time.Hour).Unix()}, as.key, as.kid, jose.ES256)
	for _, tc := range []struct {
		body string
		code int
		text string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call"}`, 400, `invalid request: duplicate member "method"`},
		{`{"jsonrpc":"2.0","id":1,"Method":"tools/call"}`, 400, `invalid request: member "Method" beside or instead of "method" (member names are case-sensitive)`},
		{`{"method":"tools/call","params":{"name":"a","NAME":"delete"}}`, 400, `invalid request: member "NAME" beside or instead of "params.name" (member names are case-sensitive)`},
		{`{"method":"tools/call","params":{"name":"a","name":"delete"}}`, 400, `invalid request: duplicate member "params.name"`},
		{`{"method":5}`, 400, `method is not a string`},
		{`[{},{},{},{}]`, 413, `a batch of more than 3 messages`},
		{`[` + strings.Repeat(`1,`, 600) + `1]`, 413, `the request body is larger than 1024 bytes`},
	} {
		rec := call(h, authz, tc.body)
		if rec.Code != tc.code || strings.TrimSpace(rec.Body.String()) != tc.text {
			t.Errorf("%.40s: %d %q, want %d %q", tc.body, rec.Code, rec.Body, tc.code, tc.text)
		}
	}
}

// countingBody counts the bytes read from a request body.
type countingBody struct {
	r    io.Reader
	read atomic.Int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read.Add(int64(n))
	return n, err
}

func (c *countingBody) Close() error { return nil }

// numberBatch is 4 MiB of a JSON batch of numbers: the costliest body
// for a scanner that parses before it authenticates.
var numberBatch = func() []byte {
	b := []byte{'['}
	for len(b) < 4<<20-2 {
		b = append(b, "1,"...)
	}
	return append(b, "1]"...)
}()

func TestMiddlewareAuthenticatesBeforeReadingTheBody(t *testing.T) {
	as := newTestAS(t)
	const resource = "https://mcp.example.com/mcp"
	h := protected(t, as, resource, func(rs *ResourceServer) {
		rs.MethodScopes = map[string][]string{"tools/call": {"tools:call"}}
		rs.ToolScopes = map[string][]string{"delete": {"files:delete"}}
	})
	for _, authz := range []string{"", "Bearer not-a-token", "Basic dXNlcjpwYXNz"} {
		body := &countingBody{r: bytes.NewReader(numberBatch)}
		req := httptest.NewRequest(http.MethodPost, resource, nil)
		req.Body = body
		req.ContentLength = int64(len(numberBatch))
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		rec := httptest.NewRecorder()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		h.ServeHTTP(rec, req)
		runtime.ReadMemStats(&after)
		if rec.Code != 401 && rec.Code != 400 {
			t.Errorf("%q: status %d", authz, rec.Code)
		}
		if n := body.read.Load(); n != 0 {
			t.Errorf("%q: %d bytes of the body read before authentication", authz, n)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<10 {
			t.Errorf("%q: %d bytes allocated to refuse", authz, alloc)
		}
	}
}

func TestMiddlewareUnauthenticatedFloodLeavesOthersServed(t *testing.T) {
	as := newTestAS(t)
	const resource = "https://mcp.example.com/mcp"
	h := protected(t, as, resource, func(rs *ResourceServer) {
		rs.ToolScopes = map[string][]string{"delete": {"files:delete"}}
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	authz := "Bearer " + as.mintClaims(map[string]any{"iss": as.issuer(), "sub": "alice", "aud": resource, "scope": "mcp:basic", "exp": time.Now().Add(time.Hour).Unix()}, as.key, as.kid, jose.ES256)
	client := &http.Client{Timeout: 10 * time.Second}
	post := func(authz string, body []byte) (int, error) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(body))
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 10 {
		wg.Go(func() {
			start := time.Now()
			code, err := post("", numberBatch)
			if err == nil && code != 401 {
				err = fmt.Errorf("unauthenticated 4 MiB: status %d", code)
			}
			if err != nil {
				// The server may answer before the client has sent the
				// body and close the connection: the refusal arrived.
				if !strings.Contains(err.Error(), "connection reset") && !strings.Contains(err.Error(), "broken pipe") {
					errs <- err
				}
			}
			if d := time.Since(start); d > 5*time.Second {
				errs <- fmt.Errorf("unauthenticated 4 MiB took %v", d)
			}
		})
	}
	for range 5 {
		code, err := post(authz, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`))
		if err != nil || code != 200 {
			t.Errorf("authenticated call during the flood: %d %v", code, err)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// BenchmarkMiddlewarePreAuth measures what an unauthenticated 4 MiB POST
// costs the middleware, beside a bare handler answering 401 to the same
// request (the baseline): the ratio is reported as x-bare.
func BenchmarkMiddlewarePreAuth(b *testing.B) {
	rs := &ResourceServer{
		Resource:     "https://mcp.example.com/mcp",
		Verifier:     refuseAll{},
		Scopes:       []string{"mcp:basic"},
		ToolScopes:   map[string][]string{"delete": {"files:delete"}},
		MethodScopes: map[string][]string{"tools/call": {"tools:call"}},
	}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(401) })
	run := func(b *testing.B, h http.Handler) float64 {
		b.ReportAllocs()
		start := time.Now()
		for b.Loop() {
			req := httptest.NewRequest(http.MethodPost, rs.Resource, bytes.NewReader(numberBatch))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 401 {
				b.Fatalf("status %d", rec.Code)
			}
		}
		return float64(time.Since(start).Nanoseconds()) / float64(b.N)
	}
	var base float64
	b.Run("bare", func(b *testing.B) { base = run(b, bare) })
	b.Run("middleware", func(b *testing.B) {
		ns := run(b, rs.Middleware(next))
		if base > 0 {
			b.ReportMetric(ns/base, "x-bare")
		}
	})
}

// refuseAll is a Verifier that accepts no token.
type refuseAll struct{}

func (refuseAll) Verify(context.Context, string) (*Principal, error) { return nil, ErrInvalidToken }

func TestMiddlewareScanOfALargeBodyIsBounded(t *testing.T) {
	as := newTestAS(t)
	const resource = "https://mcp.example.com/mcp"
	h := protected(t, as, resource, func(rs *ResourceServer) {
		rs.ToolScopes = map[string][]string{"delete": {"files:delete"}}
	})
	authz := "Bearer " + as.mintClaims(map[string]any{"iss": as.issuer(), "sub": "alice", "aud": resource, "scope": "mcp:basic", "exp": time.Now().Add(time.Hour).Unix()}, as.key, as.kid, jose.ES256)
	// 4 MiB in all: the tool's arguments, then its name.
	body := append([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"xs":`), numberBatch[:len(numberBatch)-200]...)
	body = append(body[:len(body)-1], `]},"name":"delete"}}`...)
	call(h, authz, `{}`) // the JWKS fetched once, outside the measure
	req := httptest.NewRequest(http.MethodPost, resource, bytes.NewReader(body))
	req.Header.Set("Authorization", authz)
	rec := httptest.NewRecorder()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	h.ServeHTTP(rec, req)
	runtime.ReadMemStats(&after)
	if rec.Code != 403 {
		t.Fatalf("status %d %s", rec.Code, rec.Body)
	}
	if raceEnabled {
		t.Skip("the race detector's allocations are not the scan's: the Makefile runs this test without -race too")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 10*uint64(len(body)) {
		t.Errorf("%d bytes allocated to scan %d", alloc, len(body))
	} else {
		t.Logf("%d bytes allocated to scan %d (%.1fx)", alloc, len(body), float64(alloc)/float64(len(body)))
	}
}
