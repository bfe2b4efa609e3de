module github.com/mcpgen/mcpgen/examples/everything-client

go 1.26.0

// The client is a module of its own so that the authorization package's
// dependencies (golang.org/x/oauth2, go-jose) stay out of mcpgen's module.
replace (
	github.com/mcpgen/mcpgen => ../..
	github.com/mcpgen/mcpgen/auth => ../../auth
)

require (
	github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000
	github.com/mcpgen/mcpgen/auth v0.0.0-00010101000000-000000000000
)

require (
	github.com/go-jose/go-jose/v4 v4.1.9 // indirect
	golang.org/x/oauth2 v0.38.0 // indirect
)
