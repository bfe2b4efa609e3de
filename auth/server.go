package auth

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/spec"
)

// ResourceServer protects an MCP endpoint as an OAuth 2.1 resource
// server: its Middleware lets a request through only with an access
// token its Verifier accepts and whose scopes cover what the request
// needs, answering 401 or 403 with the WWW-Authenticate challenge the MCP
// specification asks for; its MetadataHandler serves the protected
// resource metadata (RFC 9728) the challenge points to.
type ResourceServer struct {
	// Resource is the MCP endpoint's canonical URI, e.g.
	// "https://mcp.example.com/mcp": the resource identifier of the
	// metadata, and what a token's audience must name.
	Resource string
	// AuthorizationServers are the issuer identifiers of the servers
	// whose tokens are accepted.
	AuthorizationServers []string
	// Verifier checks the tokens.
	Verifier Verifier
	// Scopes are required for every request.
	Scopes []string
	// MethodScopes are required, in addition, for requests of a
	// JSON-RPC method (e.g. "tools/call").
	MethodScopes map[string][]string
	// ToolScopes are required, in addition, for a tools/call of a tool,
	// by name.
	ToolScopes map[string][]string
	// ScopesSupported is published in the metadata; nil means the union
	// of Scopes. (offline_access does not belong there.)
	ScopesSupported []string
	// ResourceName is published in the metadata.
	ResourceName string
	// MaxBodyBytes bounds the JSON-RPC body an authenticated request's
	// scopes are found in (with MethodScopes or ToolScopes); 0 means
	// 4 MiB. A larger body gets 413.
	MaxBodyBytes int64
	// MaxBatch bounds the messages of a JSON-RPC batch scanned for
	// scopes; 0 means 1000. A longer batch gets 413.
	MaxBatch int
}

// MetadataPath returns the path-based well-known location of the
// metadata: /.well-known/oauth-protected-resource followed by the path
// of Resource.
func (rs *ResourceServer) MetadataPath() string {
	u, err := url.Parse(rs.Resource)
	if err != nil {
		return "/.well-known/oauth-protected-resource"
	}
	return "/.well-known/oauth-protected-resource" + strings.TrimSuffix(u.EscapedPath(), "/")
}

// MetadataURL returns the metadata's URL, the resource_metadata of the
// challenges.
func (rs *ResourceServer) MetadataURL() string {
	u, err := url.Parse(rs.Resource)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host + rs.MetadataPath()
}

// MetadataHandler serves the protected resource metadata document.
func (rs *ResourceServer) MetadataHandler() http.Handler {
	doc := ProtectedResourceMetadata{
		Resource:               rs.Resource,
		AuthorizationServers:   rs.AuthorizationServers,
		ScopesSupported:        rs.ScopesSupported,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           rs.ResourceName,
	}
	if doc.ScopesSupported == nil {
		doc.ScopesSupported = rs.Scopes
	}
	body, _ := json.Marshal(doc)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write(body)
	})
}

// Handle registers on mux the metadata at its well-known path and the
// MCP handler, protected, at the path of Resource.
func (rs *ResourceServer) Handle(mux *http.ServeMux, mcp http.Handler) {
	u, _ := url.Parse(rs.Resource)
	p := "/"
	if u != nil && u.Path != "" {
		p = u.Path
	}
	mux.Handle(rs.MetadataPath(), rs.MetadataHandler())
	mux.Handle(p, rs.Middleware(mcp))
}

// Middleware returns next protected. A request without a token, or with
// one the Verifier refuses, gets 401; a token whose scopes do not cover
// the request gets 403 insufficient_scope naming the scopes needed. The
// verified Principal is in the context next sees (PrincipalFrom).
//
// The token is checked before any byte of the body is read, so a request
// without a valid token costs no more than its headers; its 401 names
// Scopes only. With MethodScopes or ToolScopes, the body of an
// authenticated POST is then scanned for its methods and tool names (at
// most MaxBodyBytes, MaxBatch messages in a batch) and handed to next
// whole.
func (rs *ResourceServer) Middleware(next http.Handler) http.Handler {
	if rs.Verifier == nil {
		panic("auth: ResourceServer.Middleware without a Verifier")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, errCode := bearerToken(r)
		if errCode != "" {
			rs.deny(w, http.StatusBadRequest, errCode, "the Authorization header is not one bearer token", rs.Scopes)
			return
		}
		if token == "" {
			rs.deny(w, http.StatusUnauthorized, "", "", rs.Scopes)
			return
		}
		p, err := rs.Verifier.Verify(r.Context(), token)
		if err != nil {
			if errors.Is(err, ErrInvalidToken) {
				rs.deny(w, http.StatusUnauthorized, "invalid_token", "the access token is not valid", rs.Scopes)
			} else {
				http.Error(w, "token verification failed", http.StatusInternalServerError)
			}
			return
		}
		needed, status, why := rs.requiredScopes(r)
		if status != 0 {
			http.Error(w, why, status)
			return
		}
		if !subset(needed, p.Scopes) {
			rs.deny(w, http.StatusForbidden, "insufficient_scope", "the access token lacks a scope this request needs", needed)
			return
		}
		next.ServeHTTP(w, r.WithContext(WithPrincipal(r.Context(), p)))
	})
}

// deny writes a 400, 401 or 403 with its challenge (RFC 6750 section 3,
// RFC 9728 section 5.1). A request with no credentials gets no error
// code, as RFC 6750 asks.
func (rs *ResourceServer) deny(w http.ResponseWriter, status int, code, desc string, scopes []string) {
	w.Header().Set("WWW-Authenticate", formatChallenge("Bearer",
		"error", code,
		"error_description", desc,
		"scope", strings.Join(scopes, " "),
		"resource_metadata", rs.MetadataURL()))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if code != "" {
		json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc})
	}
}

// bearerToken returns the request's bearer token; errCode is
// "invalid_request" when the header is there but malformed or repeated.
// A token in the query string is not looked at.
func bearerToken(r *http.Request) (token, errCode string) {
	hs := r.Header.Values("Authorization")
	if len(hs) == 0 {
		return "", ""
	}
	if len(hs) > 1 {
		return "", "invalid_request"
	}
	scheme, tok, ok := strings.Cut(strings.TrimSpace(hs[0]), " ")
	tok = strings.TrimSpace(tok)
	if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" || strings.ContainsAny(tok, " \t,") {
		return "", "invalid_request"
	}
	return tok, ""
}

// The defaults of MaxBodyBytes and MaxBatch.
const (
	defaultMaxBodyBytes = 4 << 20
	defaultMaxBatch     = 1000
)

// requiredScopes scans the JSON-RPC message of a POST (a request or a
// batch) for its methods and tools, and returns the scopes they need.
// The body is read once, at most MaxBodyBytes of it, and put back for
// next. status is non-zero, with why, when the body cannot be read or
// is refused.
func (rs *ResourceServer) requiredScopes(r *http.Request) (scopes []string, status int, why string) {
	scopes = slices.Clone(rs.Scopes)
	if r.Method != http.MethodPost || r.Body == nil || len(rs.MethodScopes) == 0 && len(rs.ToolScopes) == 0 {
		return scopes, 0, ""
	}
	limit := rs.MaxBodyBytes
	if limit <= 0 {
		limit = defaultMaxBodyBytes
	}
	maxBatch := rs.MaxBatch
	if maxBatch <= 0 {
		maxBatch = defaultMaxBatch
	}
	var body bytes.Buffer
	if r.ContentLength > 0 && r.ContentLength <= limit {
		body.Grow(int(r.ContentLength))
	}
	lr := &io.LimitedReader{R: r.Body, N: limit + 1}
	_, err := body.ReadFrom(lr)
	r.Body.Close()
	if err != nil {
		return nil, http.StatusBadRequest, "cannot read the request body"
	}
	if int64(body.Len()) > limit {
		return nil, http.StatusRequestEntityTooLarge, "the request body is larger than " + strconv.FormatInt(limit, 10) + " bytes"
	}
	data := body.Bytes()
	r.Body = io.NopCloser(bytes.NewReader(data))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	var need scopeScan
	need.rs = rs
	need.scopes = scopes
	if err := need.message(data, maxBatch); err != nil {
		var se *scanError
		if errors.As(err, &se) {
			return nil, se.status, se.msg
		}
		return scopes, 0, "" // not JSON: the MCP handler answers the parse error
	}
	return need.scopes, 0, ""
}

// scanError is a message the middleware refuses before next sees it.
type scanError struct {
	status int
	msg    string
}

func (e *scanError) Error() string { return e.msg }

// scopeScan collects the scopes the messages of one body need.
type scopeScan struct {
	rs     *ResourceServer
	scopes []string
}

// message scans a body: one JSON-RPC message or a batch of at most
// maxBatch. It decodes nothing but the tokens it reads: member names,
// and the method and tool name strings; other values are skipped by the
// decoder's scanner without being kept.
func (s *scopeScan) message(data []byte, maxBatch int) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil // a scalar: nothing to authorize beyond the base scopes
	}
	switch d {
	case '{':
		return s.object(dec)
	case '[':
		for n := 0; dec.More(); n++ {
			if n == maxBatch {
				return &scanError{http.StatusRequestEntityTooLarge, "a batch of more than " + strconv.Itoa(maxBatch) + " messages"}
			}
			var item scanItem
			item.s = s
			if err := dec.Decode(&item); err != nil {
				return err
			}
		}
	}
	return nil
}

// scanItem scans one message of a batch, as the decoder hands it over.
type scanItem struct{ s *scopeScan }

func (it *scanItem) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.Token() // the '{' seen above
	return it.s.object(dec)
}

// skipValue skips one JSON value: the decoder checks its syntax and
// keeps nothing.
type skipValue struct{}

func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// object scans a JSON-RPC message's members after its '{' for method
// and, for tools/call, params.name, and adds the scopes they need.
// method, params and name are matched exactly, as JSON-RPC does; a
// message that repeats one of them, exactly or in another case, is
// refused: another parser could read the other copy (encoding/json
// matches names case-insensitively) and run a method the scopes were not
// checked for.
func (s *scopeScan) object(dec *json.Decoder) error {
	var method, tool string
	var sawMethod, sawParams, sawName bool
	for dec.More() {
		name, err := memberName(dec)
		if err != nil {
			return err
		}
		switch {
		case strings.EqualFold(name, "method"):
			if sawMethod || name != "method" {
				return duplicate("method", name)
			}
			sawMethod = true
			if err := dec.Decode(&method); err != nil {
				return &scanError{http.StatusBadRequest, "method is not a string"}
			}
		case strings.EqualFold(name, "params"):
			if sawParams || name != "params" {
				return duplicate("params", name)
			}
			sawParams = true
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			if d, ok := tok.(json.Delim); ok {
				if d == '[' {
					if err := skipRest(dec); err != nil {
						return err
					}
					continue
				}
				for dec.More() {
					pname, err := memberName(dec)
					if err != nil {
						return err
					}
					if strings.EqualFold(pname, "name") {
						if sawName || pname != "name" {
							return duplicate("params.name", pname)
						}
						sawName = true
						if err := dec.Decode(&tool); err != nil {
							// not a string: the MCP handler refuses it
							tool = ""
							continue
						}
						continue
					}
					if err := dec.Decode(&skipValue{}); err != nil {
						return err
					}
				}
				if _, err := dec.Token(); err != nil { // '}'
					return err
				}
			}
		default:
			if err := dec.Decode(&skipValue{}); err != nil {
				return err
			}
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return err
	}
	s.scopes = union(s.scopes, s.rs.MethodScopes[method])
	if method == spec.MethodCallTool {
		s.scopes = union(s.scopes, s.rs.ToolScopes[tool])
	}
	return nil
}

// skipRest skips what is left of an array whose '[' was read.
func skipRest(dec *json.Decoder) error {
	for dec.More() {
		if err := dec.Decode(&skipValue{}); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

// memberName reads the name of an object's next member.
func memberName(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	name, _ := tok.(string)
	return name, nil
}

// duplicate refuses a repeated member.
func duplicate(want, got string) error {
	if got == want || strings.HasSuffix(want, "."+got) {
		return &scanError{http.StatusBadRequest, "invalid request: duplicate member " + strconv.Quote(want)}
	}
	return &scanError{http.StatusBadRequest, "invalid request: member " + strconv.Quote(got) + " beside or instead of " + strconv.Quote(want) + " (member names are case-sensitive)"}
}
