// Package interop tests the authorization package
// (github.com/mcpgen/mcpgen/auth) with mcpgen's generated packages, and
// against a real authorization server, Ory Hydra v2.3.0: a tool of this
// module (go.mod), which the Hydra tests build and run with in-memory
// storage on 127.0.0.1. It is a module of its own so that neither mcpgen's
// module nor the auth module depends on Hydra.
//
//	go test -skip '^TestHydra' ./...   # the generated packages, every revision (make test)
//	go test -run '^TestHydra' ./...    # Hydra (make interop-hydra; needs gcc: Hydra's sqlite is cgo)
//
// The package has tests only.
package interop
