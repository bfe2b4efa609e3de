package auth

import (
	"bytes"
	"context"
	"crypto"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// Config configures a Transport. Its zero value authorizes with the
// authorization code grant, a loopback redirect and the user's browser,
// keeping tokens in memory.
type Config struct {
	// Grant obtains tokens; nil means &AuthorizationCode{}.
	Grant Grant
	// Store keeps tokens and client registrations; nil means a
	// MemoryStore of the Transport's own.
	Store TokenStore
	// Base carries the MCP requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// HTTPClient makes the metadata, registration and token requests
	// (never with the MCP server's token); nil means a client on Base
	// that follows no redirects.
	HTTPClient *http.Client
	// DPoPKey, when set, binds tokens to the key with DPoP (RFC 9449)
	// at authorization servers that advertise a signing algorithm the
	// key can use: an *ecdsa.PrivateKey (ES256, ES384, ES512), an
	// *rsa.PrivateKey (PS256, RS256) or an ed25519.PrivateKey (EdDSA).
	DPoPKey crypto.Signer
	// MaxAuthorizations bounds how many times one request may make the
	// Transport obtain a token (on a 401, or a 403 insufficient_scope);
	// 0 means 2.
	MaxAuthorizations int
	// LegacyDiscovery enables the discovery of the 2025-03-26 revision
	// for servers without protected resource metadata: the MCP server's
	// origin is then the authorization server, and without its metadata
	// the endpoints are /authorize, /token and /register there.
	LegacyDiscovery bool
	// Logf, when set, is told each step of the authorization.
	Logf func(format string, args ...any)
	// Now returns the time; nil means time.Now.
	Now func() time.Time
}

// Transport is an http.RoundTripper that authorizes the requests it
// carries to one MCP endpoint: on a 401 it discovers the authorization
// server (protected resource metadata, then authorization server
// metadata), obtains a token through its Grant, and retries; on a 403
// insufficient_scope it asks for the union of the scopes it had and those
// challenged. The token goes only to the MCP endpoint it was obtained
// for: requests elsewhere pass through untouched.
type Transport struct {
	server    *url.URL
	serverKey string
	cfg       Config
	grant     Grant
	store     TokenStore
	hc        *http.Client
	base      http.RoundTripper
	dpop      *dpopSigner

	mu      sync.Mutex // held while obtaining a token
	asCache map[string]*ServerMetadata
	nonces  sync.Map // "as "+issuer or "rs" -> DPoP nonce
	authCtx string   // AuthContext
}

// NewTransport returns a Transport for the MCP endpoint serverURL.
func NewTransport(serverURL string, cfg Config) (*Transport, error) {
	u, err := url.Parse(serverURL)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return nil, fmt.Errorf("auth: server URL %q is not absolute", serverURL)
	}
	u.Fragment, u.RawFragment = "", ""
	t := &Transport{server: u, serverKey: u.String(), cfg: cfg, grant: cfg.Grant, store: cfg.Store, base: cfg.Base, hc: cfg.HTTPClient, asCache: map[string]*ServerMetadata{}, authCtx: "oauth:" + randomString(16)}
	if t.grant == nil {
		t.grant = &AuthorizationCode{}
	}
	if t.store == nil {
		t.store = &MemoryStore{}
	}
	if t.base == nil {
		t.base = http.DefaultTransport
	}
	if t.hc == nil {
		t.hc = defaultHTTPClient(t.base)
	}
	if cfg.DPoPKey != nil {
		if t.dpop, err = newDPoPSigner(cfg.DPoPKey); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Client returns an *http.Client that sends its requests through t, the
// Client of a generated package's HTTPTransport:
//
//	&mcp.HTTPTransport{URL: serverURL, Client: t.Client()}
func (t *Transport) Client() *http.Client { return &http.Client{Transport: t} }

// AuthContext names the authorization context of the requests t
// authorizes, for the generated Client's cache (ClientOptions.AuthContext):
// Clients that share a Cache and a Transport share their private cache
// entries, Clients of different Transports never do. It names no
// credential. (The HTTPTransport cannot see the Authorization header t
// adds, so without it each Client has a context of its own.)
func (t *Transport) AuthContext() string { return t.authCtx }

// Authorize obtains a token now, instead of at the first request the
// server refuses. An interactive program calls it before Connect: the
// generated Client bounds its first request by ClientOptions.ProbeTimeout
// (10 seconds by default), which is too short for a user to sign in. It
// sends the MCP endpoint a JSON-RPC ping (with the token t holds, if any)
// to learn what the server asks for, and authorizes as RoundTrip does. It
// returns nil once the server accepts the ping's credentials, whatever it
// answers the ping itself.
func (t *Transport) Authorize(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.server.String(), strings.NewReader(`{"jsonrpc":"2.0","id":"auth-probe","method":"ping"}`))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := t.RoundTrip(req)
	if err != nil {
		return err
	}
	drain(resp)
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		return fmt.Errorf("auth: %s refused the credentials: %s", t.server.Redacted(), resp.Status)
	}
	return nil
}

// Token returns the token t holds for its server, if any.
func (t *Transport) Token(ctx context.Context) (*oauth2.Token, error) {
	rec, err := t.load(ctx)
	if err != nil || rec == nil {
		return nil, err
	}
	return rec.token(), nil
}

func (t *Transport) now() time.Time {
	if t.cfg.Now != nil {
		return t.cfg.Now()
	}
	return time.Now()
}

func (t *Transport) logf(format string, args ...any) {
	if t.cfg.Logf != nil {
		t.cfg.Logf(format, args...)
	}
}

// isServer reports whether u is the MCP endpoint: same origin, same path.
func (t *Transport) isServer(u *url.URL) bool {
	return sameOrigin(u, t.server) && strings.TrimSuffix(u.EscapedPath(), "/") == strings.TrimSuffix(t.server.EscapedPath(), "/")
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if prev := req.Response; prev != nil && prev.Request != nil {
		// A redirect the client follows: never from https to http, and
		// to another origin without credentials.
		from := prev.Request.URL
		if strings.EqualFold(from.Scheme, "https") && !strings.EqualFold(req.URL.Scheme, "https") {
			return nil, fmt.Errorf("auth: refused the redirect from %s to %s: from https to %s", redactedURL(from), redactedURL(req.URL), req.URL.Scheme)
		}
		if !sameOrigin(from, req.URL) && hasCredentials(req.Header) {
			req = req.Clone(req.Context())
			for _, h := range credentialHeaders {
				req.Header.Del(h)
			}
		}
	}
	if !t.isServer(req.URL) {
		return t.base.RoundTrip(req)
	}
	ctx := req.Context()
	getBody := req.GetBody
	if req.Body != nil && req.Body != http.NoBody {
		if getBody == nil {
			b, err := io.ReadAll(req.Body)
			req.Body.Close()
			if err != nil {
				return nil, err
			}
			getBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		} else {
			req.Body.Close()
		}
	}
	max := t.cfg.MaxAuthorizations
	if max <= 0 {
		max = 2
	}
	authorizations, nonceRetries := 0, 0
	var asked []string // scopes this request already made the client ask for
	for {
		rec, err := t.current(ctx)
		if err != nil {
			return nil, err
		}
		r2 := req.Clone(ctx)
		if getBody != nil {
			if r2.Body, err = getBody(); err != nil {
				return nil, err
			}
		}
		if rec != nil && resourceCovers(rec.Resource, req.URL) {
			if err := t.authorize(r2, rec); err != nil {
				return nil, err
			}
		}
		resp, err := t.base.RoundTrip(r2)
		if err != nil {
			return nil, err
		}
		if n := resp.Header.Get("DPoP-Nonce"); n != "" && t.dpop != nil {
			t.nonces.Store("rs", n)
		}
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
			return resp, nil
		}
		ch := bearerChallenge(ParseChallenges(resp.Header))
		if resp.StatusCode == http.StatusUnauthorized && ch.Params["error"] == "use_dpop_nonce" && t.dpop != nil && nonceRetries == 0 {
			nonceRetries++
			drain(resp)
			continue
		}
		if resp.StatusCode == http.StatusForbidden && ch.Params["error"] != "insufficient_scope" {
			return resp, nil
		}
		if authorizations >= max {
			t.logf("auth: giving up after %d authorizations: %s", authorizations, resp.Status)
			return resp, nil
		}
		stepUp := resp.StatusCode == http.StatusForbidden
		if stepUp && len(ch.Scope()) > 0 && (rec != nil && subset(ch.Scope(), rec.Granted) || authorizations > 0 && subset(ch.Scope(), asked)) {
			// The server refuses scopes the token has, or that were just
			// asked for: asking again would loop.
			t.logf("auth: %s for scope %q, already asked for", resp.Status, strings.Join(ch.Scope(), " "))
			return resp, nil
		}
		drain(resp)
		authorizations++
		got, err := t.obtain(ctx, ch, rec, stepUp)
		if err != nil {
			return nil, err
		}
		asked = union(asked, got.Requested)
	}
}

// authorize sets the request's Authorization header (and DPoP proof).
func (t *Transport) authorize(r *http.Request, rec *tokenRecord) error {
	if strings.EqualFold(rec.TokenType, "DPoP") {
		if t.dpop == nil {
			return errors.New("auth: a DPoP-bound token without a DPoP key")
		}
		nonce, _ := t.nonces.Load("rs")
		n, _ := nonce.(string)
		proof, err := t.dpop.proof(r.Method, r.URL, n, rec.AccessToken, t.now())
		if err != nil {
			return err
		}
		r.Header.Set("Authorization", "DPoP "+rec.AccessToken)
		r.Header.Set("DPoP", proof)
		return nil
	}
	r.Header.Set("Authorization", "Bearer "+rec.AccessToken)
	return nil
}

func drain(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

func (t *Transport) load(ctx context.Context) (*tokenRecord, error) {
	var rec tokenRecord
	ok, err := loadJSON(ctx, t.store, tokenKey(t.serverKey), &rec)
	if err != nil || !ok {
		return nil, err
	}
	return &rec, nil
}

// current returns the token to send: the stored one if it is still
// valid, else a refreshed one, else nil.
func (t *Transport) current(ctx context.Context) (*tokenRecord, error) {
	rec, err := t.load(ctx)
	if err != nil || rec == nil {
		return nil, err
	}
	if rec.valid(t.now()) {
		return rec, nil
	}
	if rec.RefreshToken == "" {
		return nil, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if cur, err := t.load(ctx); err != nil {
		return nil, err
	} else if cur != nil && cur.valid(t.now()) {
		return cur, nil
	}
	as, err := t.serverMetadata(ctx, rec.Issuer)
	if err != nil {
		return nil, err
	}
	fresh, err := t.refresh(ctx, as, rec)
	if err != nil {
		t.logf("auth: refresh failed: %v", err)
		return nil, nil // a 401 will start over
	}
	return fresh, nil
}

func (t *Transport) serverMetadata(ctx context.Context, issuer string) (*ServerMetadata, error) {
	if m := t.asCache[issuer]; m != nil {
		return m, nil
	}
	m, err := DiscoverServer(ctx, t.hc, issuer)
	if err != nil {
		return nil, err
	}
	t.asCache[issuer] = m
	return m, nil
}

// obtain gets a new token after a 401 or 403 answered the token failed
// (nil when none was sent).
func (t *Transport) obtain(ctx context.Context, ch Challenge, failed *tokenRecord, stepUp bool) (*tokenRecord, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cur, err := t.load(ctx)
	if err != nil {
		return nil, err
	}
	if cur != nil && cur.valid(t.now()) && (failed == nil || cur.AccessToken != failed.AccessToken) {
		if !stepUp || subset(ch.Scope(), cur.Granted) {
			return cur, nil // another request already obtained a new token
		}
	}
	prm, err := discoverResource(ctx, t.hc, t.server, ch.Params["resource_metadata"])
	legacy := err != nil && t.cfg.LegacyDiscovery && errors.Is(err, ErrNotFound)
	if legacy {
		origin := t.server.Scheme + "://" + t.server.Host
		u := *t.server
		u.RawQuery = ""
		prm, err = &ProtectedResourceMetadata{Resource: u.String(), AuthorizationServers: []string{origin}}, nil
	}
	if err != nil {
		return nil, err
	}
	issuer := prm.AuthorizationServers[0]
	t.logf("auth: %s is protected by %s (resource %s)", t.serverKey, issuer, prm.Resource)
	delete(t.asCache, issuer) // metadata is fetched anew for each authorization
	as, err := t.serverMetadata(ctx, issuer)
	if err != nil && legacy && errors.Is(err, ErrNotFound) {
		as, err = &ServerMetadata{
			Issuer:                        issuer,
			AuthorizationEndpoint:         issuer + "/authorize",
			TokenEndpoint:                 issuer + "/token",
			RegistrationEndpoint:          issuer + "/register",
			CodeChallengeMethodsSupported: []string{"S256"}, // 2025-03-26 requires PKCE of every server
		}, nil
		t.asCache[issuer] = as
	}
	if err != nil {
		return nil, err
	}
	if failed != nil && failed.Issuer != issuer {
		t.logf("auth: the authorization server changed from %s to %s", failed.Issuer, issuer)
		failed = nil
	}
	if failed != nil && !stepUp && failed.RefreshToken != "" {
		if fresh, err := t.refresh(ctx, as, failed); err == nil {
			return fresh, nil
		}
	}
	scopes := selectScopes(ch, prm)
	if stepUp && failed != nil {
		scopes = union(failed.Requested, scopes)
	}
	f := &flow{t: t, prm: prm, as: as, issuer: issuer, resource: prm.Resource, scopes: scopes}
	rec, err := t.grant.obtain(ctx, f)
	if err != nil {
		return nil, err
	}
	rec.Issuer, rec.Resource = issuer, prm.Resource
	return rec, saveJSON(ctx, t.store, tokenKey(t.serverKey), rec)
}

// selectScopes applies the specification's scope selection strategy: the
// challenge's scope, else the resource's scopes_supported, else none.
func selectScopes(ch Challenge, prm *ProtectedResourceMetadata) []string {
	if s := ch.Scope(); len(s) > 0 {
		return s
	}
	return slices.Clone(prm.ScopesSupported)
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func subset(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	return true
}

// flow is what a Grant is given to obtain a token.
type flow struct {
	t        *Transport
	prm      *ProtectedResourceMetadata
	as       *ServerMetadata
	issuer   string
	resource string
	scopes   []string
}

func (t *Transport) refresh(ctx context.Context, as *ServerMetadata, rec *tokenRecord) (*tokenRecord, error) {
	client, err := t.grant.client(ctx, &flow{t: t, as: as, issuer: rec.Issuer, resource: rec.Resource})
	if err != nil {
		return nil, err
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rec.RefreshToken}, "resource": {rec.Resource}}
	fresh, err := t.tokenRequest(ctx, as, client, form, rec.Requested)
	if err != nil {
		return nil, err
	}
	if fresh.RefreshToken == "" {
		fresh.RefreshToken = rec.RefreshToken
	}
	fresh.Issuer, fresh.Resource = rec.Issuer, rec.Resource
	if len(fresh.Granted) == 0 {
		fresh.Granted = rec.Granted
	}
	t.logf("auth: refreshed the token")
	return fresh, saveJSON(ctx, t.store, tokenKey(t.serverKey), fresh)
}

// credentialHeaders are the request headers that carry credentials: a
// redirect to another origin goes without them.
var credentialHeaders = []string{"Authorization", "Cookie", "Proxy-Authorization", "DPoP"}

func hasCredentials(h http.Header) bool {
	for _, name := range credentialHeaders {
		if _, ok := h[http.CanonicalHeaderKey(name)]; ok {
			return true
		}
	}
	return false
}

// redactedURL is u without user information, query and fragment.
func redactedURL(u *url.URL) string {
	v := *u
	v.User, v.RawQuery, v.Fragment, v.RawFragment = nil, "", "", ""
	return v.String()
}
