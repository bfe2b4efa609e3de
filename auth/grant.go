package auth

import (
	"context"
	"crypto"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// A Grant is how a Transport obtains tokens: *AuthorizationCode (a
// user, through a browser), *ClientCredentials (a machine) or
// *JWTBearer (an assertion, e.g. workload identity).
type Grant interface {
	obtain(ctx context.Context, f *flow) (*tokenRecord, error)
	client(ctx context.Context, f *flow) (*ClientInfo, error)
}

// ClientInfo is an OAuth client's identity at one authorization server.
type ClientInfo struct {
	// Issuer is the authorization server the client is registered with.
	// For a pre-registered client it may be empty (any server); when set,
	// the Transport refuses to present the client to another one.
	Issuer       string `json:"issuer,omitempty"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	// AuthMethod is how the client authenticates at the token endpoint:
	// "none", "client_secret_basic", "client_secret_post" or
	// "private_key_jwt"; empty means chosen from what the client has and
	// the server supports.
	AuthMethod   string   `json:"token_endpoint_auth_method,omitempty"`
	RedirectURIs []string `json:"redirect_uris,omitempty"`
	// Key signs private_key_jwt client assertions; KeyID names it.
	Key   crypto.Signer `json:"-"`
	KeyID string        `json:"-"`
	// AssertionAudience is the aud of the client assertions; empty means
	// the authorization server's issuer identifier, which is what
	// draft-ietf-oauth-rfc7523bis requires (a token endpoint URL as aud
	// opens audience injection). Some servers (Ory Hydra v2.3) accept only
	// their token endpoint URL.
	AssertionAudience string `json:"-"`
}

// Errors of the authorization code flow. Test with errors.Is.
var (
	ErrNoPKCE         = errors.New("auth: the authorization server does not advertise PKCE S256")
	ErrNoRegistration = errors.New("auth: no way to register a client with the authorization server")
	ErrClientIssuer   = errors.New("auth: the pre-registered client belongs to another authorization server")
	ErrState          = errors.New("auth: the authorization response's state does not match")
	ErrIssuer         = errors.New("auth: the authorization response's iss does not match the authorization server")
)

// AuthorizationError is an error response of the authorization endpoint
// (RFC 6749 section 4.1.2.1), after its iss has been checked.
type AuthorizationError struct {
	Code, Description, URI string
}

func (e *AuthorizationError) Error() string {
	s := "auth: authorization refused: " + e.Code
	if e.Description != "" {
		s += ": " + e.Description
	}
	return s
}

// AuthorizationCode is the authorization code grant with PKCE (S256), the
// grant of clients acting for a user.
type AuthorizationCode struct {
	// Client is a pre-registered client, used first when set.
	Client *ClientInfo
	// ClientMetadataURL is the https URL of the client's Client ID
	// Metadata Document, used as client_id at servers that advertise
	// client_id_metadata_document_supported.
	ClientMetadataURL string
	// ClientName is sent in dynamic client registration; empty means
	// "MCP client".
	ClientName string
	// ApplicationType is sent in dynamic client registration; empty
	// means "native".
	ApplicationType string
	// Interaction takes the user to the authorization endpoint and
	// brings back the redirect; nil means &Loopback{}. When it is an
	// io.Closer, it is closed if the authorization fails between
	// RedirectURI and Authorize.
	Interaction Interaction
	// NoOfflineAccess keeps the client from asking for offline_access
	// (a refresh token) at servers that list it in scopes_supported.
	NoOfflineAccess bool
	// Params are added to the authorization request (e.g. prompt).
	Params url.Values
}

func (g *AuthorizationCode) interaction() Interaction {
	if g.Interaction == nil {
		g.Interaction = &Loopback{}
	}
	return g.Interaction
}

func (g *AuthorizationCode) client(ctx context.Context, f *flow) (*ClientInfo, error) {
	return g.register(ctx, f, "")
}

// register finds the client to use at f's server, in the specification's
// order: pre-registered, a stored registration, a Client ID Metadata
// Document, dynamic registration.
func (g *AuthorizationCode) register(ctx context.Context, f *flow, redirectURI string) (*ClientInfo, error) {
	if c := g.Client; c != nil {
		if c.Issuer != "" && c.Issuer != f.issuer {
			return nil, fmt.Errorf("%w: registered with %s, the server uses %s", ErrClientIssuer, c.Issuer, f.issuer)
		}
		cp := *c
		cp.Issuer = f.issuer
		return &cp, nil
	}
	var stored ClientInfo
	if ok, err := loadJSON(ctx, f.t.store, clientKey(f.issuer), &stored); err != nil {
		return nil, err
	} else if ok && stored.Issuer == f.issuer && (redirectURI == "" || slices.Contains(stored.RedirectURIs, redirectURI)) {
		return &stored, nil
	}
	if g.ClientMetadataURL != "" && f.as.ClientIDMetadataDocumentSupported {
		return &ClientInfo{Issuer: f.issuer, ClientID: g.ClientMetadataURL, AuthMethod: "none"}, nil
	}
	if f.as.RegistrationEndpoint == "" {
		return nil, ErrNoRegistration
	}
	if redirectURI == "" {
		return nil, fmt.Errorf("%w: no stored registration to refresh with", ErrNoRegistration)
	}
	c, err := g.registerDynamically(ctx, f, redirectURI)
	if err != nil {
		return nil, err
	}
	return c, saveJSON(ctx, f.t.store, clientKey(f.issuer), c)
}

// registrationRequest is the client metadata of RFC 7591 section 2.
type registrationRequest struct {
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	ApplicationType         string   `json:"application_type"`
	Scope                   string   `json:"scope,omitempty"`
}

func (g *AuthorizationCode) registerDynamically(ctx context.Context, f *flow, redirectURI string) (*ClientInfo, error) {
	methods := f.as.authMethods()
	method := "none"
	if !slices.Contains(methods, "none") {
		method = "client_secret_basic"
		if !slices.Contains(methods, method) && slices.Contains(methods, "client_secret_post") {
			method = "client_secret_post"
		}
	}
	rr := registrationRequest{
		ClientName:              or(g.ClientName, "MCP client"),
		RedirectURIs:            []string{redirectURI},
		GrantTypes:              []string{"authorization_code", "refresh_token"},
		ResponseTypes:           []string{"code"},
		TokenEndpointAuthMethod: method,
		ApplicationType:         or(g.ApplicationType, "native"),
		Scope:                   strings.Join(g.registrationScopes(f), " "),
	}
	body, _ := json.Marshal(rr)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.as.RegistrationEndpoint, strings.NewReader(string(body)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := f.t.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("auth: client registration: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("auth: client registration: %s: %s", resp.Status, truncate(b))
	}
	var out struct {
		ClientID     string   `json:"client_id"`
		ClientSecret string   `json:"client_secret"`
		AuthMethod   string   `json:"token_endpoint_auth_method"`
		RedirectURIs []string `json:"redirect_uris"`
	}
	if err := json.Unmarshal(b, &out); err != nil || out.ClientID == "" {
		return nil, fmt.Errorf("%w: client registration response without client_id", ErrMetadata)
	}
	c := &ClientInfo{Issuer: f.issuer, ClientID: out.ClientID, ClientSecret: out.ClientSecret, AuthMethod: out.AuthMethod, RedirectURIs: []string{redirectURI}}
	if c.AuthMethod == "" && c.ClientSecret == "" {
		c.AuthMethod = "none"
	}
	f.t.logf("auth: registered client %s with %s", c.ClientID, f.issuer)
	return c, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func truncate(b []byte) string {
	if len(b) > 256 {
		b = b[:256]
	}
	return strings.TrimSpace(string(b))
}

// registrationScopes are the scopes a dynamic registration asks for:
// those of this authorization and every one the resource lists, so that a
// server that limits a client to the scopes it registered (such as Ory
// Hydra) allows a later step-up.
func (g *AuthorizationCode) registrationScopes(f *flow) []string {
	s := g.withOffline(f)
	if f.prm != nil {
		s = union(s, f.prm.ScopesSupported)
	}
	return s
}

// withOffline adds offline_access to f's scopes when the server lists it
// and the client wants refresh tokens (and asks for some scope at all).
func (g *AuthorizationCode) withOffline(f *flow) []string {
	s := slices.Clone(f.scopes)
	if !g.NoOfflineAccess && len(s) > 0 && slices.Contains(f.as.ScopesSupported, "offline_access") && !slices.Contains(s, "offline_access") {
		s = append(s, "offline_access")
	}
	return s
}

func randomString(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (g *AuthorizationCode) obtain(ctx context.Context, f *flow) (*tokenRecord, error) {
	if f.as.AuthorizationEndpoint == "" {
		return nil, fmt.Errorf("%w: no authorization_endpoint", ErrMetadata)
	}
	if !f.as.supportsPKCE() {
		return nil, ErrNoPKCE
	}
	ia := g.interaction()
	redirectURI, err := ia.RedirectURI(ctx)
	if err != nil {
		return nil, err
	}
	client, err := g.register(ctx, f, redirectURI)
	if err != nil {
		if c, ok := ia.(io.Closer); ok {
			c.Close() // the user will not be asked: stop waiting for them
		}
		return nil, err
	}
	scopes := g.withOffline(f)
	verifier := oauth2.GenerateVerifier()
	state := randomString(24)
	au, _ := url.Parse(f.as.AuthorizationEndpoint) // validated
	q := au.Query()
	for k, vs := range g.Params {
		q[k] = slices.Clone(vs)
	}
	q.Set("response_type", "code")
	q.Set("client_id", client.ClientID)
	q.Set("redirect_uri", redirectURI)
	q.Set("state", state)
	q.Set("code_challenge", oauth2.S256ChallengeFromVerifier(verifier))
	q.Set("code_challenge_method", "S256")
	q.Set("resource", f.resource)
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, " "))
	} else {
		q.Del("scope")
	}
	au.RawQuery = q.Encode()
	f.t.logf("auth: authorizing at %s (scope %q)", f.as.AuthorizationEndpoint, strings.Join(scopes, " "))
	resp, err := ia.Authorize(ctx, au.String())
	if err != nil {
		return nil, err
	}
	code, err := checkAuthorizationResponse(resp, state, f.as)
	if err != nil {
		return nil, err
	}
	form := url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"redirect_uri":  {redirectURI},
		"code_verifier": {verifier},
		"resource":      {f.resource},
	}
	return f.t.tokenRequest(ctx, f.as, client, form, scopes)
}

// checkAuthorizationResponse validates the redirect's parameters: iss as
// RFC 9207 and the MCP specification require (before anything else of
// the response is used), then state, then error and code.
func checkAuthorizationResponse(q url.Values, state string, as *ServerMetadata) (string, error) {
	iss, hasIss := q["iss"]
	switch {
	case hasIss && (len(iss) != 1 || iss[0] != as.Issuer):
		return "", fmt.Errorf("%w: got %q, expected %q", ErrIssuer, q.Get("iss"), as.Issuer)
	case !hasIss && as.AuthorizationResponseIssParameterSupported:
		return "", fmt.Errorf("%w: the server advertises iss but sent none", ErrIssuer)
	}
	if got := q["state"]; len(got) != 1 || got[0] != state {
		return "", ErrState
	}
	if e := q.Get("error"); e != "" {
		return "", &AuthorizationError{Code: e, Description: q.Get("error_description"), URI: q.Get("error_uri")}
	}
	code := q.Get("code")
	if code == "" {
		return "", fmt.Errorf("auth: the authorization response has no code")
	}
	return code, nil
}

// ClientCredentials is the client credentials grant of a client acting
// on its own behalf (a machine), authenticating with a secret or, when
// Client.Key is set, a private_key_jwt assertion.
type ClientCredentials struct {
	Client ClientInfo
	// Scopes, when set, are asked for instead of those the scope
	// selection strategy picks.
	Scopes []string
	// Params are added to the token request (e.g. an authorization
	// server's non-standard audience parameter).
	Params url.Values
}

func (g *ClientCredentials) client(ctx context.Context, f *flow) (*ClientInfo, error) {
	if g.Client.Issuer != "" && g.Client.Issuer != f.issuer {
		return nil, fmt.Errorf("%w: registered with %s, the server uses %s", ErrClientIssuer, g.Client.Issuer, f.issuer)
	}
	c := g.Client
	c.Issuer = f.issuer
	return &c, nil
}

func (g *ClientCredentials) obtain(ctx context.Context, f *flow) (*tokenRecord, error) {
	client, err := g.client(ctx, f)
	if err != nil {
		return nil, err
	}
	scopes := f.scopes
	if len(g.Scopes) > 0 {
		scopes = g.Scopes
	}
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {f.resource}}
	for k, vs := range g.Params {
		form[k] = slices.Clone(vs)
	}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	return f.t.tokenRequest(ctx, f.as, client, form, scopes)
}

// JWTBearer is the JWT bearer grant (RFC 7523 section 2.1): the client
// presents an assertion it got elsewhere, such as a workload identity
// token or an identity assertion authorization grant.
type JWTBearer struct {
	Client ClientInfo
	// Assertion returns the assertion to present to the authorization
	// server as, for resource.
	Assertion func(ctx context.Context, as *ServerMetadata, resource string) (string, error)
	Scopes    []string
	Params    url.Values
}

func (g *JWTBearer) client(ctx context.Context, f *flow) (*ClientInfo, error) {
	c := g.Client
	c.Issuer = f.issuer
	return &c, nil
}

func (g *JWTBearer) obtain(ctx context.Context, f *flow) (*tokenRecord, error) {
	client, _ := g.client(ctx, f)
	assertion, err := g.Assertion(ctx, f.as, f.resource)
	if err != nil {
		return nil, err
	}
	scopes := f.scopes
	if len(g.Scopes) > 0 {
		scopes = g.Scopes
	}
	form := url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"}, "assertion": {assertion}, "resource": {f.resource}}
	for k, vs := range g.Params {
		form[k] = slices.Clone(vs)
	}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	return f.t.tokenRequest(ctx, f.as, client, form, scopes)
}

// authMethod returns how c authenticates at as's token endpoint.
func (c *ClientInfo) authMethod(as *ServerMetadata) string {
	if c.AuthMethod != "" {
		return c.AuthMethod
	}
	methods := as.authMethods()
	switch {
	case c.Key != nil:
		return "private_key_jwt"
	case c.ClientSecret == "":
		return "none"
	case slices.Contains(methods, "client_secret_basic"):
		return "client_secret_basic"
	case slices.Contains(methods, "client_secret_post"):
		return "client_secret_post"
	}
	return "client_secret_basic"
}

// tokenResponse is a successful token endpoint response (RFC 6749
// section 5.1).
type tokenResponse struct {
	AccessToken  string      `json:"access_token"`
	TokenType    string      `json:"token_type"`
	ExpiresIn    json.Number `json:"expires_in"`
	RefreshToken string      `json:"refresh_token"`
	Scope        string      `json:"scope"`
}

// tokenRequest posts form to as's token endpoint with c's client
// authentication (and a DPoP proof when the Transport has a key the
// server accepts) and returns the token. requested are the scopes asked
// for, taken as granted when the response names none.
func (t *Transport) tokenRequest(ctx context.Context, as *ServerMetadata, c *ClientInfo, form url.Values, requested []string) (*tokenRecord, error) {
	form = cloneValues(form)
	header := http.Header{}
	switch m := c.authMethod(as); m {
	case "none":
		form.Set("client_id", c.ClientID)
	case "client_secret_basic":
		header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(c.ClientID)+":"+url.QueryEscape(c.ClientSecret))))
	case "client_secret_post":
		form.Set("client_id", c.ClientID)
		form.Set("client_secret", c.ClientSecret)
	case "private_key_jwt":
		assertion, err := clientAssertion(c, or(c.AssertionAudience, as.Issuer), t.now())
		if err != nil {
			return nil, err
		}
		form.Set("client_id", c.ClientID)
		form.Set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
		form.Set("client_assertion", assertion)
	default:
		return nil, fmt.Errorf("auth: token endpoint authentication %q is not supported", m)
	}
	dpop := t.dpop != nil && t.dpop.acceptedBy(as.DPoPSigningAlgValuesSupported)
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, as.TokenEndpoint, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, err
		}
		for k, v := range header {
			req.Header[k] = v
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		if dpop {
			nonce, _ := t.nonces.Load("as " + as.Issuer)
			n, _ := nonce.(string)
			proof, err := t.dpop.proof(http.MethodPost, req.URL, n, "", t.now())
			if err != nil {
				return nil, err
			}
			req.Header.Set("DPoP", proof)
		}
		resp, err := t.hc.Do(req)
		if err != nil {
			return nil, fmt.Errorf("auth: token request: %w", err)
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if dpop {
			if n := resp.Header.Get("DPoP-Nonce"); n != "" {
				t.nonces.Store("as "+as.Issuer, n)
			}
		}
		if resp.StatusCode != http.StatusOK {
			re := &oauth2.RetrieveError{Response: resp, Body: body}
			var e struct {
				Error       string `json:"error"`
				Description string `json:"error_description"`
				URI         string `json:"error_uri"`
			}
			if json.Unmarshal(body, &e) == nil {
				re.ErrorCode, re.ErrorDescription, re.ErrorURI = e.Error, e.Description, e.URI
			}
			if dpop && attempt == 0 && re.ErrorCode == "use_dpop_nonce" && resp.Header.Get("DPoP-Nonce") != "" {
				continue
			}
			return nil, re
		}
		var tr tokenResponse
		if err := json.Unmarshal(body, &tr); err != nil {
			return nil, fmt.Errorf("auth: token response: %v", err)
		}
		if tr.AccessToken == "" {
			return nil, errors.New("auth: token response without access_token")
		}
		switch {
		case strings.EqualFold(tr.TokenType, "bearer"):
			tr.TokenType = "Bearer"
		case strings.EqualFold(tr.TokenType, "dpop") && dpop:
			tr.TokenType = "DPoP"
		default:
			return nil, fmt.Errorf("auth: token type %q is not supported", tr.TokenType)
		}
		rec := &tokenRecord{AccessToken: tr.AccessToken, TokenType: tr.TokenType, RefreshToken: tr.RefreshToken, Requested: slices.Clone(requested)}
		if n, err := tr.ExpiresIn.Int64(); err == nil && n > 0 {
			rec.Expiry = t.now().Add(time.Duration(n) * time.Second)
		}
		if tr.Scope != "" {
			rec.Granted = strings.Fields(tr.Scope)
		} else {
			rec.Granted = slices.Clone(requested)
		}
		return rec, nil
	}
}

func cloneValues(v url.Values) url.Values {
	out := make(url.Values, len(v))
	for k, vs := range v {
		out[k] = slices.Clone(vs)
	}
	return out
}
