module github.com/mcpgen/mcpgen/auth

go 1.26.0

require (
	github.com/go-jose/go-jose/v4 v4.1.9
	golang.org/x/oauth2 v0.38.0
)
