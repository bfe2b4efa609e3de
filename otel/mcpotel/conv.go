// Package mcpotel instruments MCP clients and servers with OpenTelemetry
// traces and metrics as the MCP semantic conventions say
// (open-telemetry/semantic-conventions, docs/gen-ai/mcp.md and
// docs/registry/attributes/mcp.md at commit
// 7b0c0fe1e6d7b7fc857ba496aad7919e368453e7, status Development).
//
// Telemetry.Middleware is the middleware (runtime/protocol.Middleware,
// the Middleware of every generated package) that instruments a server or
// a client; underneath, an Event describes one operation, Start begins
// its span and End ends it and records its duration, which is what the
// tests drive with the convention's own examples. See docs/telemetry.md.
package mcpotel

import (
	"github.com/mcpgen/mcpgen/runtime/spec"
	"go.opentelemetry.io/otel/attribute"
)

// The facts of the convention, each written once.

// ConventionCommit is the commit of open-telemetry/semantic-conventions
// whose MCP conventions this package follows.
const ConventionCommit = "7b0c0fe1e6d7b7fc857ba496aad7919e368453e7"

// Attribute keys.
const (
	KeyMethodName       = attribute.Key("mcp.method.name")
	KeyProtocolVersion  = attribute.Key("mcp.protocol.version")
	KeyResourceURI      = attribute.Key("mcp.resource.uri")
	KeySessionID        = attribute.Key("mcp.session.id")
	KeyErrorType        = attribute.Key("error.type")
	KeyPromptName       = attribute.Key("gen_ai.prompt.name")
	KeyToolName         = attribute.Key("gen_ai.tool.name")
	KeyOperationName    = attribute.Key("gen_ai.operation.name")
	KeyToolArguments    = attribute.Key("gen_ai.tool.call.arguments")
	KeyToolResult       = attribute.Key("gen_ai.tool.call.result")
	KeyRequestID        = attribute.Key("jsonrpc.request.id")
	KeyJSONRPCVersion   = attribute.Key("jsonrpc.protocol.version")
	KeyRPCStatusCode    = attribute.Key("rpc.response.status_code")
	KeyNetworkProtoName = attribute.Key("network.protocol.name")
	KeyNetworkProtoVer  = attribute.Key("network.protocol.version")
	KeyNetworkTransport = attribute.Key("network.transport")
	KeyServerAddress    = attribute.Key("server.address")
	KeyServerPort       = attribute.Key("server.port")
	KeyClientAddress    = attribute.Key("client.address")
	KeyClientPort       = attribute.Key("client.port")
)

// Values.
const (
	OperationExecuteTool = "execute_tool" // gen_ai.operation.name of tools/call
	ErrorTypeToolError   = "tool_error"   // error.type of a CallToolResult with isError
	ErrorTypeOther       = "_OTHER"       // error.type's fallback
	ErrorTypeTimeout     = "timeout"      // error.type of a request that timed out
	ErrorTypeCancelled   = "cancelled"    // error.type of a request cancelled locally
	TransportPipe        = "pipe"         // network.transport of stdio
	TransportTCP         = "tcp"          // network.transport of HTTP
	ProtocolHTTP         = "http"         // network.protocol.name of HTTP
)

// Metric names; every one is a histogram in seconds with DurationBuckets.
const (
	MetricClientOperationDuration = "mcp.client.operation.duration"
	MetricServerOperationDuration = "mcp.server.operation.duration"
	MetricClientSessionDuration   = "mcp.client.session.duration"
	MetricServerSessionDuration   = "mcp.server.session.duration"
	MetricUnit                    = "s"
)

// DurationBuckets are the explicit bucket boundaries the convention
// advises for all four histograms.
var DurationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// Methods whose params carry the resource URI (mcp.resource.uri).
var resourceMethods = map[string]bool{
	spec.MethodReadResource:    true,
	spec.MethodSubscribe:       true,
	spec.MethodUnsubscribe:     true,
	spec.MethodResourceUpdated: true,
}

// Context propagation keys in params._meta (W3C Trace Context and
// Baggage).
const (
	MetaTraceparent = "traceparent"
	MetaTracestate  = "tracestate"
	MetaBaggage     = "baggage"
)
