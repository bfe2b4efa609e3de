// Package protocol is the MCP runtime of the generated packages: the
// server core and its sessions (Core, Session), the Streamable HTTP
// server (NewHTTPHandler, NewSessionHTTPHandler), the client (ClientCore
// over stdio or HTTP), the tool, prompt and resource sets a generated
// Server registers its handlers in, the tasks extension and its store,
// middleware and request logs, and the conversions that serve clients of
// older revisions.
//
// A user works through a generated package (generated/mcp20260728 or one
// of their own), whose Server, Client and options wrap what this package
// does; most of the names here are called by that generated code. The
// example serves one tool that way (docs/server.md says more).
//
// # The boundary with generated code
//
// The names a program works with are the ones a generated package
// re-exports under its own name in its runtime.go: Session and
// SessionFromContext, Cache, the transports (Transport, CommandTransport,
// StreamTransport, InMemoryTransport, HTTPTransport), HTTPHandler and
// HTTPOptions, Middleware, Handler and Call, ToolError and
// HTTPStatusError; and where the revision has them, TaskStore and
// TaskStoreOptions (the tasks extension), Older and ConversionError (the
// older revisions it serves). Reach them through the generated package.
//
// Every other exported name (Core, ClientCore and ClientConfig, ToolSet,
// Request, Chain, NewStateSealer, OlderServe and NewOlderFront, and the
// rest) is there for the code mcpgen generates: it is the generated
// code's side of the runtime, not an API of its own, and it changes with
// the generator. A program should not call it directly.
package protocol
