// Package interop holds the interoperability tests of mcpgen's generated
// 2026-07-28 server (examples/discover-server, built on
// generated/mcp20260728) against the official Go SDK client
// (github.com/modelcontextprotocol/go-sdk) and against raw JSON-RPC over
// stdio; and of internal/legacyserver (a server on generated/mcp20251125 and
// generated/mcp20250618, served by ./legacyserver) against the same client,
// default and pinned to each revision, over stdio and over Streamable HTTP
// with sessions (legacy_test.go). client_test.go runs the other way: the
// generated client (generated/mcp20260728's Client, and for servers with
// sessions generated/mcp20251125's) against servers written with the
// official Go SDK v1.8.0 and with mcp-go v1.2.1 (package sdkservers; over
// stdio, the client starting the process, and over Streamable HTTP) and
// against examples/everything-server.
//
// matrix*_test.go is the interop matrix of issue 10: the everything-server
// binary, written once against generated/mcp20260728, against the go-sdk
// v1.8.0 client (default, and pinned to 2025-11-25 and 2025-06-18), the
// mcp-go v1.2.1 client and the official TypeScript client
// @modelcontextprotocol/client 2.4.0 in its default and auto modes
// (ts/client.mjs, run on the Node binary that ts/package-lock.json pins;
// make interop-deps installs both), over stdio and over Streamable HTTP
// (one server process for every HTTP leg).
//
// It is a separate module so that the main module does not depend on the
// SDK. The server is built from this module's tool directive, which the
// replace directive points at the parent directory:
//
//	cd interop && go test ./...
//
// Disagreements the tests find are written up in FINDINGS.md.
package interop
