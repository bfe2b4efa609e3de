package protocol_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// headerLog records the headers of the requests an MCP handler gets.
type headerLog struct {
	h    http.Handler
	mu   sync.Mutex
	seen []http.Header
}

func (l *headerLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	l.seen = append(l.seen, r.Header.Clone())
	l.mu.Unlock()
	l.h.ServeHTTP(w, r)
}

func (l *headerLog) saw(name string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, h := range l.seen {
		out = append(out, h.Values(name)...)
	}
	return out
}

// redirectTo answers every request with a 307 to target.
func redirectTo(target string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusTemporaryRedirect)
	})
}

func credentialHeaders() http.Header {
	return http.Header{
		"Authorization": {"Bearer s3cret"},
		"Cookie":        {"session=s3cret"},
		"Dpop":          {"proof"},
		"X-Api-Key":     {"k3y"},
		"X-Trace":       {"t1"},
	}
}

// TestRedirectKeepsCredentialsWithTheirOrigin: a 307 to the same host on
// another port (another origin) gets no credential, neither the default
// ones nor those the transport was told of; other headers go on.
func TestRedirectKeepsCredentialsWithTheirOrigin(t *testing.T) {
	other := &headerLog{h: mcp20260728.NewHTTPHandler(newServer2026(), mcp20260728.HTTPOptions{})}
	b := httptest.NewServer(other)
	defer b.Close()
	a := httptest.NewServer(redirectTo(b.URL + "/mcp"))
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := mcp20260728.Connect(ctx, &mcp20260728.HTTPTransport{URL: a.URL + "/mcp", Header: credentialHeaders(), CredentialHeaders: []string{"x-api-key"}}, nil, mcp20260728.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.CallTool(ctx, &mcp20260728.CallToolRequestParams{Name: "add", Arguments: []byte(`{"a":1,"b":2}`)}); err != nil {
		t.Fatal(err)
	}
	if len(other.seen) == 0 {
		t.Fatal("the redirect was not followed")
	}
	for _, h := range []string{"Authorization", "Cookie", "DPoP", "X-Api-Key"} {
		if v := other.saw(h); len(v) != 0 {
			t.Errorf("the other origin got %s: %q", h, v)
		}
	}
	if v := other.saw("X-Trace"); len(v) == 0 {
		t.Error("a header that is no credential was dropped too")
	}
}

// TestRedirectWithinTheOriginKeepsCredentials: a redirect to another path
// of the same origin is followed with the credentials.
func TestRedirectWithinTheOriginKeepsCredentials(t *testing.T) {
	mcp := &headerLog{h: mcp20260728.NewHTTPHandler(newServer2026(), mcp20260728.HTTPOptions{})}
	mux := http.NewServeMux()
	mux.Handle("/old", redirectTo("/mcp"))
	mux.Handle("/mcp", mcp)
	s := httptest.NewServer(mux)
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := mcp20260728.Connect(ctx, &mcp20260728.HTTPTransport{URL: s.URL + "/old", Header: credentialHeaders()}, nil, mcp20260728.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if v := mcp.saw("Authorization"); len(v) == 0 || v[0] != "Bearer s3cret" {
		t.Errorf("the same origin got Authorization %q", v)
	}
}

// TestRedirectFromHTTPSToHTTPRefused: a redirect from https to http is not
// followed, and the error says why.
func TestRedirectFromHTTPSToHTTPRefused(t *testing.T) {
	plain := &headerLog{h: mcp20260728.NewHTTPHandler(newServer2026(), mcp20260728.HTTPOptions{})}
	b := httptest.NewServer(plain)
	defer b.Close()
	a := httptest.NewTLSServer(redirectTo(b.URL + "/mcp"))
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := mcp20260728.Connect(ctx, &mcp20260728.HTTPTransport{URL: a.URL + "/mcp", Client: a.Client(), Header: credentialHeaders()}, nil, mcp20260728.ClientOptions{})
	want := "mcp: refused the redirect from " + a.URL + "/mcp to " + b.URL + "/mcp: from https to http (the request's credentials and data would travel in the clear)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want it to contain %q", err, want)
	}
	if len(plain.seen) != 0 {
		t.Errorf("the http server got %d requests", len(plain.seen))
	}
}
