package auth

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
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
	// MaxBodyBytes bounds the JSON-RPC body read to find the method and
	// tool; 0 means 4 MiB. A larger body gets 413.
	MaxBodyBytes int64
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
func (rs *ResourceServer) Middleware(next http.Handler) http.Handler {
	if rs.Verifier == nil {
		panic("auth: ResourceServer.Middleware without a Verifier")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		needed, status := rs.requiredScopes(r)
		if status != 0 {
			http.Error(w, http.StatusText(status), status)
			return
		}
		token, errCode := bearerToken(r)
		if errCode != "" {
			rs.deny(w, http.StatusBadRequest, errCode, "the Authorization header is not one bearer token", needed)
			return
		}
		if token == "" {
			rs.deny(w, http.StatusUnauthorized, "", "", needed)
			return
		}
		p, err := rs.Verifier.Verify(r.Context(), token)
		if err != nil {
			if errors.Is(err, ErrInvalidToken) {
				rs.deny(w, http.StatusUnauthorized, "invalid_token", "the access token is not valid", needed)
			} else {
				http.Error(w, "token verification failed", http.StatusInternalServerError)
			}
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

// requiredScopes reads the JSON-RPC message of a POST (a request or a
// batch) to find its methods and tools, and returns the scopes they
// need. The body is put back for next. status is non-zero when the body
// cannot be read.
func (rs *ResourceServer) requiredScopes(r *http.Request) (scopes []string, status int) {
	scopes = slices.Clone(rs.Scopes)
	if r.Method != http.MethodPost || r.Body == nil || len(rs.MethodScopes) == 0 && len(rs.ToolScopes) == 0 {
		return scopes, 0
	}
	limit := rs.MaxBodyBytes
	if limit <= 0 {
		limit = 4 << 20
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	r.Body.Close()
	if err != nil {
		return nil, http.StatusBadRequest
	}
	if int64(len(body)) > limit {
		return nil, http.StatusRequestEntityTooLarge
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	var msgs []json.RawMessage
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if json.Unmarshal(body, &msgs) != nil {
			return scopes, 0 // not JSON: the MCP handler answers the parse error
		}
	} else {
		msgs = []json.RawMessage{body}
	}
	for _, raw := range msgs {
		method, tool, err := methodAndTool(raw)
		if err != nil {
			return nil, http.StatusBadRequest
		}
		scopes = union(scopes, rs.MethodScopes[method])
		if method == "tools/call" {
			scopes = union(scopes, rs.ToolScopes[tool])
		}
	}
	return scopes, 0
}

// methodAndTool reads a JSON-RPC message's method and, for tools/call,
// params.name, matching member names exactly. A message that repeats
// either member is refused: another parser could read the other copy and
// run a method the scopes were not checked for.
func methodAndTool(raw json.RawMessage) (method, tool string, err error) {
	top, err := members(raw)
	if err != nil || top == nil {
		return "", "", err // not an object: nothing to authorize beyond the base scopes
	}
	if m, ok := top["method"]; ok {
		if err := json.Unmarshal(m, &method); err != nil {
			return "", "", err
		}
	}
	if method != "tools/call" {
		return method, "", nil
	}
	params, err := members(top["params"])
	if err != nil {
		return "", "", err
	}
	if n, ok := params["name"]; ok {
		if err := json.Unmarshal(n, &tool); err != nil {
			return "", "", err
		}
	}
	return method, tool, nil
}

var errDuplicate = errors.New("duplicate member")

// members decodes a JSON object's members; it returns nil for a value
// that is not an object, and an error for a repeated member name.
func members(raw json.RawMessage) (map[string]json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		if _, dup := out[name]; dup {
			return nil, errDuplicate
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}
