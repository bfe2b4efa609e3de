package protocol

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// This file keeps the client's credentials with their origin across the
// redirects its HTTP client follows. net/http drops Authorization and
// Cookie only on a redirect to another host name (another port of the
// same host gets them, and so does any other header), and follows https
// to http; the transport's redirect check is stricter.

// DefaultCredentialHeaders are the request headers HTTPTransport treats
// as credentials whatever HTTPTransport.CredentialHeaders says.
var DefaultCredentialHeaders = []string{"Authorization", "Cookie", "Proxy-Authorization", "DPoP"}

// RedirectError is a redirect the client refuses to follow.
type RedirectError struct {
	From, To string // the URLs, without their query
	Reason   string
}

func (e *RedirectError) Error() string {
	return "mcp: refused the redirect from " + e.From + " to " + e.To + ": " + e.Reason
}

// checkRedirect returns the redirect policy of a client: next (the
// client's own, or net/http's default of at most 10 redirects) after
// credentials is applied: a redirect from https to http is refused, and
// one to another origin (scheme, host and port) goes without the
// credential headers.
func checkRedirect(next func(*http.Request, []*http.Request) error, credentials []string) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first, prev := via[0].URL, via[len(via)-1].URL
		if strings.EqualFold(prev.Scheme, "https") && !strings.EqualFold(req.URL.Scheme, "https") {
			return &RedirectError{From: redacted(prev), To: redacted(req.URL), Reason: "from https to " + req.URL.Scheme + " (the request's credentials and data would travel in the clear)"}
		}
		if !sameOrigin(first, req.URL) {
			for _, h := range DefaultCredentialHeaders {
				req.Header.Del(h)
			}
			for _, h := range credentials {
				req.Header.Del(h)
			}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return fmt.Errorf("mcp: stopped after 10 redirects (at %s)", redacted(req.URL))
		}
		return nil
	}
}

// redirectClient returns hc with the credential-keeping redirect policy
// around its own; hc is not changed.
func redirectClient(hc *http.Client, credentials []string) *http.Client {
	c := *hc
	c.CheckRedirect = checkRedirect(hc.CheckRedirect, credentials)
	return &c
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (the default port of the scheme when none is written).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(originHostPort(a), originHostPort(b))
}

func originHostPort(u *url.URL) string {
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

// redacted is u without its user information, query and fragment, for
// an error message.
func redacted(u *url.URL) string {
	v := *u
	v.User, v.RawQuery, v.Fragment, v.RawFragment = nil, "", "", ""
	return v.String()
}
