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
package protocol
