package ir

// Layer is a part of the runtime a generated package uses: "" (every
// package: the codec), or one that comes with the dispatcher and what it
// carries.
type Layer string

// The layers.
const (
	LayerRPC     Layer = "rpc"     // with a dispatcher
	LayerMCP     Layer = "mcp"     // with the dispatcher of an MCP revision
	LayerTasks   Layer = "tasks"   // with the tasks extension
	LayerConvert Layer = "convert" // with conversions to older revisions
)

// RuntimeName is a name of mcpgen's runtime that a generated package
// re-exports (a type alias, a constant or a wrapper), so that its users
// write mcp.RPCError and mcp.Session as they write the package's own
// types, and the layer it comes with.
type RuntimeName struct {
	Name  string
	Layer Layer
}

// RuntimeNames are every runtime name a generated package may re-export,
// in the order runtime.go declares them. The builder claims them (a
// definition of the same name keeps it; the package then names the
// runtime's directly) and lists those a package re-exports in
// Package.ReExported; the emitter writes those, with the signatures it
// keeps for each name.
var RuntimeNames = []RuntimeName{
	{Name: "Member"},
	{Name: "Members"},
	{Name: "Kind"},
	{Name: "KindNull"},
	{Name: "KindBoolean"},
	{Name: "KindInteger"},
	{Name: "KindNumber"},
	{Name: "KindString"},
	{Name: "KindArray"},
	{Name: "KindObject"},
	{Name: "SyntaxError"},
	{Name: "ValidationError"},
	{Name: "Violation"},
	{Name: "EncodeError"},
	{Name: "UnmarshalAndValidate"},

	{Name: "RPCError", Layer: LayerRPC},
	{Name: "CodeParseError", Layer: LayerRPC},
	{Name: "CodeInvalidRequest", Layer: LayerRPC},
	{Name: "CodeMethodNotFound", Layer: LayerRPC},
	{Name: "CodeInvalidParams", Layer: LayerRPC},
	{Name: "CodeInternalError", Layer: LayerRPC},
	{Name: "MaxMessageSize", Layer: LayerRPC},
	{Name: "RequestInfo", Layer: LayerRPC},
	{Name: "RequestFromContext", Layer: LayerRPC},
	{Name: "ExtensionMethod", Layer: LayerRPC},
	{Name: "Stream", Layer: LayerRPC},

	{Name: "Session", Layer: LayerMCP},
	{Name: "SessionFromContext", Layer: LayerMCP},
	{Name: "SendNotification", Layer: LayerMCP},
	{Name: "SendRequest", Layer: LayerMCP},
	{Name: "Log", Layer: LayerMCP},
	{Name: "SendProgress", Layer: LayerMCP},
	{Name: "CloseSSEStream", Layer: LayerMCP},
	{Name: "HTTPRequestFromContext", Layer: LayerMCP},
	{Name: "Cache", Layer: LayerMCP},
	{Name: "NewCache", Layer: LayerMCP},
	{Name: "Transport", Layer: LayerMCP},
	{Name: "CommandTransport", Layer: LayerMCP},
	{Name: "StreamTransport", Layer: LayerMCP},
	{Name: "InMemoryTransport", Layer: LayerMCP},
	{Name: "HTTPTransport", Layer: LayerMCP},
	{Name: "HTTPStatusError", Layer: LayerMCP},
	{Name: "ToolError", Layer: LayerMCP},
	{Name: "Subscription", Layer: LayerMCP},
	{Name: "Change", Layer: LayerMCP},
	{Name: "HTTPHandler", Layer: LayerMCP},
	{Name: "HTTPOptions", Layer: LayerMCP},
	{Name: "Middleware", Layer: LayerMCP},
	{Name: "RequestLog", Layer: LayerMCP},
	{Name: "Handler", Layer: LayerMCP},
	{Name: "Call", Layer: LayerMCP},

	{Name: "TaskStore", Layer: LayerTasks},
	{Name: "TaskStoreOptions", Layer: LayerTasks},
	{Name: "NewTaskStore", Layer: LayerTasks},
	{Name: "TasksExtension", Layer: LayerTasks},
	{Name: "ClientSupportsTasks", Layer: LayerTasks},

	{Name: "Older", Layer: LayerConvert},
	{Name: "ConversionError", Layer: LayerConvert},
}
