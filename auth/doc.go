// Package auth implements the authorization of the Model Context
// Protocol (basic/authorization of revisions 2025-11-25 and 2026-07-28):
// OAuth 2.1 for MCP clients and MCP servers over HTTP. It is a module of
// its own, so that mcpgen's generated packages keep importing only the
// standard library and mcpgen's runtime; it works with them through their
// exported API. docs/authorization.md in mcpgen's repository has the
// whole story.
//
// A client authorizes its requests with a Transport, an
// http.RoundTripper for one MCP endpoint, given to a generated package's
// HTTPTransport:
//
//	t, err := auth.NewTransport("https://mcp.example.com/mcp", auth.Config{})
//	// ...
//	c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: u, Client: t.Client()}, h,
//		mcp.ClientOptions{AuthContext: t.AuthContext()})
//
// On a 401 the Transport reads the WWW-Authenticate challenge, fetches
// the protected resource metadata (RFC 9728) and the authorization
// server's metadata (RFC 8414 or OpenID Connect discovery), registers
// (pre-registered client, Client ID Metadata Document, or dynamic
// registration), runs the Grant (by default the authorization code grant
// with PKCE S256 and a loopback redirect), keeps the token in its
// TokenStore and retries; it refreshes tokens, and on a 403
// insufficient_scope asks for more scopes. Machines use ClientCredentials
// or JWTBearer instead.
//
// A server protects its MCP endpoint with a ResourceServer:
//
//	rs := &auth.ResourceServer{
//		Resource:             "https://mcp.example.com/mcp",
//		AuthorizationServers: []string{"https://as.example.com"},
//		Verifier:             &auth.JWTVerifier{Issuer: "https://as.example.com", Audience: []string{"https://mcp.example.com/mcp"}},
//		Scopes:               []string{"mcp:basic"},
//		ToolScopes:           map[string][]string{"delete_file": {"files:write"}},
//	}
//	rs.Handle(mux, mcp.NewHTTPHandler(d, opts)) // the metadata document and the protected endpoint
//
// Handlers find the verified caller with PrincipalFrom; PrincipalID is
// the generated packages' ServerOptions.Principal.
package auth
