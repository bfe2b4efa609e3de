package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen/auth"
)

// clientMetadataURL is the client's Client ID Metadata Document: the
// client_id it presents to authorization servers that advertise
// client_id_metadata_document_supported. A real client publishes the
// document at this URL; this one is the URL the conformance suite's
// auth/basic-cimd scenario expects (the suite never fetches it).
const clientMetadataURL = "https://conformance-test.local/client-metadata.json"

// authContext is what the suite's authorization scenarios put in
// MCP_CONFORMANCE_CONTEXT: the credentials of a pre-registered client,
// a workload's identity token, or an enterprise identity provider's.
type authContext struct {
	ClientID         string `json:"client_id"`
	ClientSecret     string `json:"client_secret"`
	PrivateKeyPEM    string `json:"private_key_pem"`
	ValidJWT         string `json:"valid_jwt"`
	IDPClientID      string `json:"idp_client_id"`
	IDPIDToken       string `json:"idp_id_token"`
	IDPTokenEndpoint string `json:"idp_token_endpoint"`
}

// authTransport returns the auth.Transport that authorizes the client's
// requests to serverURL: the authorization code grant (with PKCE, the
// resource parameter, and step-up on insufficient_scope) unless the
// scenario gives machine credentials. Under the suite (a scenario is set)
// the user's part is played by headless, which follows the authorization
// server's redirect itself; without one, the URL is printed for the user
// and the redirect comes back to a loopback listener.
func authTransport(serverURL, scenario, rawContext string, logger *log.Logger) (*auth.Transport, error) {
	var ac authContext
	if strings.HasPrefix(scenario, "auth/") && rawContext != "" {
		if err := json.Unmarshal([]byte(rawContext), &ac); err != nil {
			return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	cfg := auth.Config{
		Logf: logger.Printf,
		// A 2025-03-26 server has no protected resource metadata: its
		// origin is the authorization server.
		LegacyDiscovery: os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION") == "2025-03-26",
	}
	code := &auth.AuthorizationCode{ClientName: "mcpgen everything-client", ClientMetadataURL: clientMetadataURL}
	if scenario != "" {
		code.Interaction = headless{}
	}
	cfg.Grant = code
	switch scenario {
	case "auth/pre-registration":
		code.Client = &auth.ClientInfo{ClientID: ac.ClientID, ClientSecret: ac.ClientSecret}
	case "auth/client-credentials-basic":
		cfg.Grant = &auth.ClientCredentials{Client: auth.ClientInfo{ClientID: ac.ClientID, ClientSecret: ac.ClientSecret}}
	case "auth/client-credentials-jwt":
		key, err := parseECKey(ac.PrivateKeyPEM)
		if err != nil {
			return nil, err
		}
		cfg.Grant = &auth.ClientCredentials{Client: auth.ClientInfo{ClientID: ac.ClientID, Key: key}}
	case "auth/wif-jwt-bearer":
		// Workload identity: the platform's token is the assertion.
		cfg.Grant = &auth.JWTBearer{
			Client:    auth.ClientInfo{ClientID: ac.ClientID, AuthMethod: "none"},
			Assertion: func(context.Context, *auth.ServerMetadata, string) (string, error) { return ac.ValidJWT, nil },
		}
	case "auth/enterprise-managed-authorization":
		// The enterprise identity provider's ID token is exchanged for an
		// identity assertion grant (ID-JAG), the assertion.
		cfg.Grant = &auth.JWTBearer{
			Client: auth.ClientInfo{ClientID: ac.ClientID, ClientSecret: ac.ClientSecret, AuthMethod: "client_secret_basic"},
			Assertion: func(ctx context.Context, as *auth.ServerMetadata, resource string) (string, error) {
				return exchangeIDToken(ctx, ac, as.Issuer, resource)
			},
		}
	case "auth/dpop", "auth/dpop-nonce":
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, err
		}
		cfg.DPoPKey = key
	}
	return auth.NewTransport(serverURL, cfg)
}

func parseECKey(p string) (*ecdsa.PrivateKey, error) {
	b, _ := pem.Decode([]byte(p))
	if b == nil {
		return nil, errors.New("private_key_pem: no PEM block")
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("private_key_pem: %w", err)
	}
	ek, ok := k.(*ecdsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("private_key_pem: a %T, not an ECDSA key", k)
	}
	return ek, nil
}

// exchangeIDToken trades the identity provider's ID token for an identity
// assertion authorization grant (ID-JAG) for the authorization server
// audience and the MCP server resource, at the provider's token endpoint
// (RFC 8693 token exchange).
func exchangeIDToken(ctx context.Context, ac authContext, audience, resource string) (string, error) {
	form := url.Values{
		"grant_type":           {"urn:ietf:params:oauth:grant-type:token-exchange"},
		"subject_token":        {ac.IDPIDToken},
		"subject_token_type":   {"urn:ietf:params:oauth:token-type:id_token"},
		"requested_token_type": {"urn:ietf:params:oauth:token-type:id-jag"},
		"audience":             {audience},
		"resource":             {resource},
		"client_id":            {ac.IDPClientID},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ac.IDPTokenEndpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("token exchange: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("token exchange: %w", err)
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &out) != nil || out.AccessToken == "" {
		return "", fmt.Errorf("token exchange: %s: %.200s", resp.Status, b)
	}
	return out.AccessToken, nil
}

// headless is the user's part of the authorization code grant under the
// conformance suite, whose authorization servers answer the authorization
// request at once with a redirect: it requests the authorization URL and
// reads the redirect's parameters, without following it (nothing listens
// at the redirect URI).
type headless struct{}

func (headless) RedirectURI(context.Context) (string, error) {
	return "http://127.0.0.1:3334/callback", nil
}

func (headless) Authorize(ctx context.Context, authURL string) (url.Values, error) {
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
	if resp.StatusCode/100 != 3 {
		return nil, fmt.Errorf("authorization endpoint: %s, not a redirect", resp.Status)
	}
	loc, err := req.URL.Parse(resp.Header.Get("Location"))
	if err != nil {
		return nil, fmt.Errorf("authorization endpoint: %w", err)
	}
	return loc.Query(), nil
}
