package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// ProtectedResourceMetadata is the document of RFC 9728 that an MCP
// server publishes to name its authorization servers.
type ProtectedResourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers,omitempty"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported,omitempty"`
	ResourceName           string   `json:"resource_name,omitempty"`
	ResourceDocumentation  string   `json:"resource_documentation,omitempty"`
	JWKSURI                string   `json:"jwks_uri,omitempty"`
	// DPoP-bound tokens (RFC 9449 section 5.2).
	DPoPSigningAlgValuesSupported []string `json:"dpop_signing_alg_values_supported,omitempty"`
	DPoPBoundAccessTokensRequired bool     `json:"dpop_bound_access_tokens_required,omitempty"`
}

// ServerMetadata is an authorization server's metadata (RFC 8414, or
// OpenID Connect Discovery 1.0): the fields MCP uses.
type ServerMetadata struct {
	Issuer                                     string   `json:"issuer"`
	AuthorizationEndpoint                      string   `json:"authorization_endpoint,omitempty"`
	TokenEndpoint                              string   `json:"token_endpoint,omitempty"`
	RegistrationEndpoint                       string   `json:"registration_endpoint,omitempty"`
	JWKSURI                                    string   `json:"jwks_uri,omitempty"`
	IntrospectionEndpoint                      string   `json:"introspection_endpoint,omitempty"`
	ScopesSupported                            []string `json:"scopes_supported,omitempty"`
	ResponseTypesSupported                     []string `json:"response_types_supported,omitempty"`
	GrantTypesSupported                        []string `json:"grant_types_supported,omitempty"`
	TokenEndpointAuthMethodsSupported          []string `json:"token_endpoint_auth_methods_supported,omitempty"`
	TokenEndpointAuthSigningAlgValuesSupported []string `json:"token_endpoint_auth_signing_alg_values_supported,omitempty"`
	CodeChallengeMethodsSupported              []string `json:"code_challenge_methods_supported,omitempty"`
	ClientIDMetadataDocumentSupported          bool     `json:"client_id_metadata_document_supported,omitempty"`
	AuthorizationResponseIssParameterSupported bool     `json:"authorization_response_iss_parameter_supported,omitempty"`
	DPoPSigningAlgValuesSupported              []string `json:"dpop_signing_alg_values_supported,omitempty"`
}

// Errors the client returns (wrapped) when what a server published
// cannot be trusted. Test with errors.Is.
var (
	ErrMetadata         = errors.New("auth: unusable metadata")
	ErrIssuerMismatch   = errors.New("auth: authorization server metadata names another issuer")
	ErrResourceMismatch = errors.New("auth: protected resource metadata names another resource")
	ErrInsecureURL      = errors.New("auth: endpoint is neither https nor loopback")
	// ErrNotFound is wrapped (with ErrMetadata) when no location had
	// the document.
	ErrNotFound = errors.New("auth: metadata not found")
)

// maxMetadata bounds a metadata, registration or token response.
const maxMetadata = 1 << 20

// checkEndpoint reports whether raw is an absolute https URL, or an http
// one whose host is a loopback name or address (localhost, 127.0.0.0/8,
// ::1), without a fragment.
func checkEndpoint(what, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return nil, fmt.Errorf("%w: %s %q is not an absolute URL", ErrMetadata, what, raw)
	}
	if u.Fragment != "" {
		return nil, fmt.Errorf("%w: %s %q has a fragment", ErrMetadata, what, raw)
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return u, nil
	case "http":
		if isLoopback(u.Hostname()) {
			return u, nil
		}
	}
	return nil, fmt.Errorf("%w: %s %q", ErrInsecureURL, what, raw)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// getJSON fetches a JSON document. found is false for a 404 or 410 (a
// well-known location that is not there) and for other 4xx answers,
// which discovery treats as "try the next location".
func getJSON(ctx context.Context, hc *http.Client, u string, v any) (found bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata+1))
	if err != nil {
		return false, err
	}
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return false, nil
	}
	if resp.StatusCode != http.StatusOK {
		return false, fmt.Errorf("%w: GET %s: %s", ErrMetadata, u, resp.Status)
	}
	if len(body) > maxMetadata {
		return true, fmt.Errorf("%w: GET %s: document too large", ErrMetadata, u)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		if mt, _, _ := mime.ParseMediaType(ct); mt != "application/json" && !strings.HasSuffix(mt, "+json") {
			return true, fmt.Errorf("%w: GET %s: content type %q", ErrMetadata, u, ct)
		}
	}
	if err := json.Unmarshal(body, v); err != nil {
		return true, fmt.Errorf("%w: GET %s: %v", ErrMetadata, u, err)
	}
	return true, nil
}

// protectedResourceURLs lists where to look for the protected resource
// metadata of the MCP endpoint server: the URL from the challenge if any,
// then (when that is not there) the path-based well-known URL, then the
// root one.
func protectedResourceURLs(server *url.URL, fromChallenge string) []string {
	var out []string
	if fromChallenge != "" {
		out = append(out, fromChallenge)
	}
	origin := server.Scheme + "://" + server.Host
	if p := strings.TrimSuffix(server.EscapedPath(), "/"); p != "" {
		out = append(out, origin+"/.well-known/oauth-protected-resource"+p)
	}
	return append(out, origin+"/.well-known/oauth-protected-resource")
}

// discoverResource fetches and validates the protected resource
// metadata of server.
func discoverResource(ctx context.Context, hc *http.Client, server *url.URL, fromChallenge string) (*ProtectedResourceMetadata, error) {
	if fromChallenge != "" {
		if _, err := checkEndpoint("resource_metadata", fromChallenge); err != nil {
			return nil, err
		}
	}
	var errs []error
	for _, u := range protectedResourceURLs(server, fromChallenge) {
		var m ProtectedResourceMetadata
		found, err := getJSON(ctx, hc, u, &m)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !found {
			continue
		}
		if err := m.validate(server); err != nil {
			return nil, fmt.Errorf("%s: %w", u, err)
		}
		return &m, nil
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return nil, fmt.Errorf("%w: %w: no protected resource metadata for %s", ErrMetadata, ErrNotFound, server.Redacted())
}

func (m *ProtectedResourceMetadata) validate(server *url.URL) error {
	if m.Resource == "" {
		return fmt.Errorf("%w: no resource", ErrMetadata)
	}
	if !resourceCovers(m.Resource, server) {
		return fmt.Errorf("%w: %q does not identify %s", ErrResourceMismatch, m.Resource, server.Redacted())
	}
	if len(m.AuthorizationServers) == 0 {
		return fmt.Errorf("%w: no authorization_servers", ErrMetadata)
	}
	for _, as := range m.AuthorizationServers {
		if _, err := checkEndpoint("authorization server", as); err != nil {
			return err
		}
	}
	return nil
}

// resourceCovers reports whether the resource identifier names the MCP
// endpoint u: same scheme, host and port (compared case-insensitively),
// and a path that is u's path or a segment prefix of it. A token for
// https://h/ serves https://h/mcp; a token for https://h/a does not
// serve https://h/ab.
func resourceCovers(resource string, u *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil || !r.IsAbs() || r.Fragment != "" {
		return false
	}
	if !strings.EqualFold(r.Scheme, u.Scheme) || !strings.EqualFold(hostPort(r), hostPort(u)) {
		return false
	}
	rp := strings.TrimSuffix(r.EscapedPath(), "/")
	up := strings.TrimSuffix(u.EscapedPath(), "/")
	return rp == "" || up == rp || strings.HasPrefix(up, rp+"/")
}

// sameOrigin reports whether a and b have the same scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(hostPort(a), hostPort(b))
}

func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// serverMetadataURLs lists, in the order the MCP specification gives,
// where the metadata of the authorization server whose issuer
// identifier is issuer may be.
func serverMetadataURLs(issuer *url.URL) []string {
	origin := issuer.Scheme + "://" + issuer.Host
	p := strings.TrimSuffix(issuer.EscapedPath(), "/")
	if p == "" {
		return []string{
			origin + "/.well-known/oauth-authorization-server",
			origin + "/.well-known/openid-configuration",
		}
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
		origin + p + "/.well-known/openid-configuration",
	}
}

// DiscoverServer fetches the metadata of the authorization server whose
// issuer identifier is issuer, trying RFC 8414 and OpenID Connect
// discovery locations in the specification's order, and validates it:
// the document's issuer must be identical to issuer, and its endpoints
// https (or http on loopback). A document that fails validation is not
// used; the next location is tried.
func DiscoverServer(ctx context.Context, hc *http.Client, issuer string) (*ServerMetadata, error) {
	iu, err := checkEndpoint("issuer", issuer)
	if err != nil {
		return nil, err
	}
	if iu.RawQuery != "" {
		return nil, fmt.Errorf("%w: issuer %q has a query", ErrMetadata, issuer)
	}
	if hc == nil {
		hc = defaultHTTPClient(nil)
	}
	var errs []error
	for _, u := range serverMetadataURLs(iu) {
		var m ServerMetadata
		found, err := getJSON(ctx, hc, u, &m)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !found {
			continue
		}
		if m.Issuer != issuer {
			errs = append(errs, fmt.Errorf("%w: %s says %q, expected %q", ErrIssuerMismatch, u, m.Issuer, issuer))
			continue
		}
		if err := m.validate(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", u, err))
			continue
		}
		return &m, nil
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return nil, fmt.Errorf("%w: %w: no authorization server metadata for %s", ErrMetadata, ErrNotFound, issuer)
}

func (m *ServerMetadata) validate() error {
	if m.TokenEndpoint == "" {
		return fmt.Errorf("%w: no token_endpoint", ErrMetadata)
	}
	for _, e := range []struct{ what, u string }{
		{"authorization_endpoint", m.AuthorizationEndpoint},
		{"token_endpoint", m.TokenEndpoint},
		{"registration_endpoint", m.RegistrationEndpoint},
		{"jwks_uri", m.JWKSURI},
		{"introspection_endpoint", m.IntrospectionEndpoint},
	} {
		if e.u == "" {
			continue
		}
		if _, err := checkEndpoint(e.what, e.u); err != nil {
			return err
		}
	}
	return nil
}

// supportsPKCE reports whether the metadata lists S256: without
// code_challenge_methods_supported a client must not use the server for
// the authorization code grant.
func (m *ServerMetadata) supportsPKCE() bool {
	return slices.Contains(m.CodeChallengeMethodsSupported, "S256")
}

// authMethods returns token_endpoint_auth_methods_supported, or RFC
// 8414's default when it is absent.
func (m *ServerMetadata) authMethods() []string {
	if len(m.TokenEndpointAuthMethodsSupported) == 0 {
		return []string{"client_secret_basic"}
	}
	return m.TokenEndpointAuthMethodsSupported
}

func defaultHTTPClient(base http.RoundTripper) *http.Client {
	return &http.Client{
		Transport: base,
		// Metadata, registration and token requests are not redirected:
		// a redirect could move them to an endpoint that was not validated.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
