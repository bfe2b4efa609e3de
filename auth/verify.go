package auth

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Principal is who a verified access token speaks for. The raw token is
// not kept: an MCP server must not pass it on.
type Principal struct {
	Issuer   string
	Subject  string
	ClientID string
	Audience []string
	Scopes   []string
	Expiry   time.Time
	// Claims has every claim of the token (a JWT's payload, or the
	// introspection response).
	Claims map[string]any
}

// HasScope reports whether p was granted scope.
func (p *Principal) HasScope(scope string) bool { return slices.Contains(p.Scopes, scope) }

// ID names the principal for comparisons: its issuer, subject and client,
// each quoted, joined by spaces. Two tokens of the same user through the
// same client have the same ID; the ID names no credential.
func (p *Principal) ID() string {
	if p == nil {
		return ""
	}
	return strconv.Quote(p.Issuer) + " " + strconv.Quote(p.Subject) + " " + strconv.Quote(p.ClientID)
}

// PrincipalID returns the ID of the principal the middleware verified for
// the request whose context is ctx, or "" when there is none. It has the
// type of the generated packages' ServerOptions.Principal, which binds
// the requestState of multi round-trip requests and the tasks of the
// tasks extension to the principal they were issued to:
//
//	mcp.NewServerDispatcher(h, mcp.ServerOptions{Principal: auth.PrincipalID})
func PrincipalID(ctx context.Context) string {
	p, _ := PrincipalFrom(ctx)
	return p.ID()
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal the middleware verified for the
// request whose context is ctx.
func PrincipalFrom(ctx context.Context) (*Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(*Principal)
	return p, ok
}

// A Verifier checks an access token and says whom it speaks for. An
// error wrapping ErrInvalidToken makes the middleware answer 401
// invalid_token; any other error answers 500 (e.g. the authorization
// server could not be reached).
type Verifier interface {
	Verify(ctx context.Context, token string) (*Principal, error)
}

// ErrInvalidToken is the error (wrapped) of a token that is not valid.
var ErrInvalidToken = errors.New("invalid token")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidToken, fmt.Sprintf(format, args...))
}

// audienceMatches reports whether one of the token's audiences is one of
// the accepted resource identifiers, a trailing slash aside.
func audienceMatches(aud, accepted []string) bool {
	for _, a := range aud {
		for _, b := range accepted {
			if strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/") {
				return true
			}
		}
	}
	return false
}

// scopesOf reads the scope claim (RFC 9068 and RFC 7662: a string of
// space-separated scopes) or, failing that, scp (an array or a string, as
// some servers such as Ory Hydra write it).
func scopesOf(claims map[string]any) []string {
	if s, ok := claims["scope"].(string); ok {
		return strings.Fields(s)
	}
	switch v := claims["scp"].(type) {
	case string:
		return strings.Fields(v)
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// JWTVerifier verifies JWT access tokens (RFC 9068) with the keys of the
// authorization server's JWKS, fetched when first needed and again when
// a token names a key id it does not have (at most once per
// MinRefreshInterval) or when the cached set is older than MaxAge.
type JWTVerifier struct {
	// Issuer is the authorization server's issuer identifier; the
	// token's iss must be identical.
	Issuer string
	// Audience lists the resource identifiers the server accepts; the
	// token's aud must contain one of them.
	Audience []string
	// JWKSURL is where the keys are; empty means the jwks_uri of the
	// issuer's metadata.
	JWKSURL string
	// Algorithms are the accepted signature algorithms; nil means the
	// asymmetric ones (RS*, PS*, ES*, EdDSA). "none" and HMAC are never
	// accepted.
	Algorithms []jose.SignatureAlgorithm
	// Leeway is the clock skew allowed on exp, nbf and iat; 0 means 30s.
	Leeway time.Duration
	// MinRefreshInterval limits refetching the JWKS for an unknown key
	// id; 0 means 30s.
	MinRefreshInterval time.Duration
	// MaxAge is how long a fetched JWKS is used; 0 means an hour.
	MaxAge time.Duration
	// HTTPClient fetches the metadata and the JWKS; nil means
	// http.DefaultClient.
	HTTPClient *http.Client
	// Now returns the time; nil means time.Now.
	Now func() time.Time

	mu      sync.Mutex
	keys    *jose.JSONWebKeySet
	fetched time.Time
	jwksURL string // JWKSURL, or the one discovery found
}

var asymmetric = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512, jose.ES256, jose.ES384, jose.ES512, jose.EdDSA}

func (v *JWTVerifier) now() time.Time {
	if v.Now != nil {
		return v.Now()
	}
	return time.Now()
}

// Verify implements Verifier.
func (v *JWTVerifier) Verify(ctx context.Context, token string) (*Principal, error) {
	algs := v.Algorithms
	if algs == nil {
		algs = asymmetric
	}
	algs = slices.DeleteFunc(slices.Clone(algs), func(a jose.SignatureAlgorithm) bool {
		return !slices.Contains(asymmetric, a)
	})
	tok, err := jwt.ParseSigned(token, algs)
	if err != nil {
		return nil, invalid("%v", err)
	}
	if len(tok.Headers) != 1 {
		return nil, invalid("not one signature")
	}
	h := tok.Headers[0]
	if typ, _ := h.ExtraHeaders[jose.HeaderType].(string); typ != "" && !strings.EqualFold(typ, "JWT") && !strings.EqualFold(typ, "at+jwt") && !strings.EqualFold(typ, "application/at+jwt") {
		return nil, invalid("token type %q", typ)
	}
	key, err := v.key(ctx, h.KeyID, h.Algorithm)
	if err != nil {
		return nil, err
	}
	var std jwt.Claims
	var all map[string]any
	if err := tok.Claims(key.Key, &std, &all); err != nil {
		return nil, invalid("%v", err)
	}
	if std.Expiry == nil {
		return nil, invalid("no exp")
	}
	leeway := v.Leeway
	if leeway == 0 {
		leeway = 30 * time.Second
	}
	if err := std.ValidateWithLeeway(jwt.Expected{Issuer: v.Issuer, Time: v.now()}, leeway); err != nil {
		return nil, invalid("%v", err)
	}
	if std.Issuer != v.Issuer {
		return nil, invalid("issuer %q", std.Issuer)
	}
	if !audienceMatches(std.Audience, v.Audience) {
		return nil, invalid("audience %q is not this resource", []string(std.Audience))
	}
	p := &Principal{Issuer: std.Issuer, Subject: std.Subject, Audience: std.Audience, Scopes: scopesOf(all), Expiry: std.Expiry.Time(), Claims: all}
	p.ClientID, _ = all["client_id"].(string)
	if p.ClientID == "" {
		p.ClientID, _ = all["azp"].(string)
	}
	return p, nil
}

// key returns the key with the id kid usable with alg, fetching the JWKS
// when needed.
func (v *JWTVerifier) key(ctx context.Context, kid, alg string) (*jose.JSONWebKey, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	maxAge, minRefresh := v.MaxAge, v.MinRefreshInterval
	if maxAge == 0 {
		maxAge = time.Hour
	}
	if minRefresh == 0 {
		minRefresh = 30 * time.Second
	}
	now := v.now()
	if v.keys == nil || now.Sub(v.fetched) > maxAge {
		if err := v.fetch(ctx); err != nil {
			return nil, err
		}
	}
	k := findKey(v.keys, kid, alg)
	if k == nil && now.Sub(v.fetched) >= minRefresh {
		if err := v.fetch(ctx); err != nil {
			return nil, err
		}
		k = findKey(v.keys, kid, alg)
	}
	if k == nil {
		return nil, invalid("no key %q for %s", kid, alg)
	}
	return k, nil
}

func findKey(set *jose.JSONWebKeySet, kid, alg string) *jose.JSONWebKey {
	var candidates []jose.JSONWebKey
	if kid != "" {
		candidates = set.Key(kid)
	} else {
		candidates = set.Keys
	}
	for i := range candidates {
		k := &candidates[i]
		if k.Use != "" && k.Use != "sig" || k.Algorithm != "" && k.Algorithm != alg || !k.IsPublic() {
			continue
		}
		return k
	}
	return nil
}

func (v *JWTVerifier) fetch(ctx context.Context) error {
	hc := v.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	u := v.JWKSURL
	if u == "" {
		u = v.jwksURL
	}
	if u == "" {
		m, err := DiscoverServer(ctx, hc, v.Issuer)
		if err != nil {
			return err
		}
		if m.JWKSURI == "" {
			return fmt.Errorf("%w: %s has no jwks_uri", ErrMetadata, v.Issuer)
		}
		u = m.JWKSURI
		v.jwksURL = u
	}
	var set jose.JSONWebKeySet
	found, err := getJSON(ctx, hc, u, &set)
	if err == nil && !found {
		err = fmt.Errorf("%w: no JWKS at %s", ErrMetadata, u)
	}
	if err != nil {
		return err
	}
	v.keys, v.fetched = &set, v.now()
	return nil
}

// IntrospectionVerifier verifies tokens with the authorization server's
// token introspection endpoint (RFC 7662), authenticating as a client
// with ClientID and ClientSecret (HTTP Basic) when they are set.
// Answers are cached for CacheTTL (never past the token's exp).
type IntrospectionVerifier struct {
	Endpoint     string
	ClientID     string
	ClientSecret string
	// Issuer, when set, must be the response's iss if it has one.
	Issuer string
	// Audience lists the resource identifiers the server accepts; the
	// response's aud must contain one of them.
	Audience []string
	// CacheTTL is how long an active answer is reused; 0 means none.
	CacheTTL   time.Duration
	HTTPClient *http.Client
	Now        func() time.Time

	mu    sync.Mutex
	cache map[[32]byte]cached
}

type cached struct {
	p     *Principal
	until time.Time
}

func (v *IntrospectionVerifier) now() time.Time {
	if v.Now != nil {
		return v.Now()
	}
	return time.Now()
}

// Verify implements Verifier.
func (v *IntrospectionVerifier) Verify(ctx context.Context, token string) (*Principal, error) {
	key := sha256.Sum256([]byte(token))
	now := v.now()
	if v.CacheTTL > 0 {
		v.mu.Lock()
		c, ok := v.cache[key]
		v.mu.Unlock()
		if ok && now.Before(c.until) {
			return c.p, nil
		}
	}
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.Endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if v.ClientID != "" {
		req.SetBasicAuth(url.QueryEscape(v.ClientID), url.QueryEscape(v.ClientSecret))
	}
	hc := v.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("auth: introspection: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("auth: introspection: %s: %s", resp.Status, truncate(body))
	}
	var all map[string]any
	if err := json.Unmarshal(body, &all); err != nil {
		return nil, fmt.Errorf("auth: introspection response: %v", err)
	}
	if active, _ := all["active"].(bool); !active {
		return nil, invalid("not active")
	}
	p := &Principal{Claims: all, Scopes: scopesOf(all), Audience: stringsOf(all["aud"])}
	p.Issuer, _ = all["iss"].(string)
	p.Subject, _ = all["sub"].(string)
	p.ClientID, _ = all["client_id"].(string)
	if exp, ok := all["exp"].(float64); ok {
		p.Expiry = time.Unix(int64(exp), 0)
		if !now.Before(p.Expiry) {
			return nil, invalid("expired")
		}
	}
	if nbf, ok := all["nbf"].(float64); ok && now.Before(time.Unix(int64(nbf), 0)) {
		return nil, invalid("not yet valid")
	}
	if v.Issuer != "" && p.Issuer != "" && p.Issuer != v.Issuer {
		return nil, invalid("issuer %q", p.Issuer)
	}
	if !audienceMatches(p.Audience, v.Audience) {
		return nil, invalid("audience %q is not this resource", p.Audience)
	}
	if v.CacheTTL > 0 {
		until := now.Add(v.CacheTTL)
		if !p.Expiry.IsZero() && p.Expiry.Before(until) {
			until = p.Expiry
		}
		v.mu.Lock()
		if v.cache == nil {
			v.cache = map[[32]byte]cached{}
		}
		for k, c := range v.cache { // drop what expired
			if !now.Before(c.until) {
				delete(v.cache, k)
			}
		}
		v.cache[key] = cached{p, until}
		v.mu.Unlock()
	}
	return p, nil
}
