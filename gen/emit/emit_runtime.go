package emit

import (
	"github.com/dave/jennifer/jen"
)

// The runtime packages generated code imports.
const (
	codecPkg      = "github.com/mcpgen/mcpgen/runtime/codec"
	protocolPkg   = "github.com/mcpgen/mcpgen/runtime/protocol"
	jsonrpcPkg    = "github.com/mcpgen/mcpgen/runtime/jsonrpc"
	typeschemaPkg = "github.com/mcpgen/mcpgen/runtime/typeschema"
)

// runtimeName is a name of the runtime that a generated package
// re-exports, so that its users write mcp.RPCError and mcp.Session as
// they write the package's own types.
type runtimeName struct {
	name string
	pkg  string
	// kind is "type" (an alias), "const", or "func" (a wrapper, whose
	// parameters and results are sig).
	kind string
	// layer says when the package has it: "" always, "rpc" with a
	// dispatcher, "mcp" with the dispatcher of an MCP revision, "tasks"
	// with the tasks extension, "convert" with conversions to older
	// revisions.
	layer string
	// params and results of a func (a wrapper calls the runtime's with
	// the same arguments); typeParams for a generic one.
	typeParams, params, results []jen.Code
	args                        []string
}

func ctxParam() jen.Code { return jen.Id("ctx").Qual("context", "Context") }

// appendJSONer is the parameter type of the runtime's senders.
func appendJSONer() *jen.Statement {
	return jen.Interface(jen.Id("AppendJSON").Params(jen.Index().Byte()).Params(jen.Index().Byte(), jen.Error()))
}

func unmarshaler() *jen.Statement {
	return jen.Interface(jen.Id("UnmarshalJSON").Params(jen.Index().Byte()).Error())
}

// runtimeNames lists the names of the runtime the generated packages
// re-export. The builder reserves them (RuntimeNames); emitRuntime writes
// them.
var runtimeNames = []runtimeName{
	{name: "Member", pkg: codecPkg, kind: "type"},
	{name: "Members", pkg: codecPkg, kind: "type"},
	{name: "Kind", pkg: codecPkg, kind: "type"},
	{name: "KindNull", pkg: codecPkg, kind: "const"},
	{name: "KindBoolean", pkg: codecPkg, kind: "const"},
	{name: "KindInteger", pkg: codecPkg, kind: "const"},
	{name: "KindNumber", pkg: codecPkg, kind: "const"},
	{name: "KindString", pkg: codecPkg, kind: "const"},
	{name: "KindArray", pkg: codecPkg, kind: "const"},
	{name: "KindObject", pkg: codecPkg, kind: "const"},
	{name: "SyntaxError", pkg: codecPkg, kind: "type"},
	{name: "ValidationError", pkg: codecPkg, kind: "type"},
	{name: "Violation", pkg: codecPkg, kind: "type"},
	{name: "EncodeError", pkg: codecPkg, kind: "type"},
	{name: "UnmarshalAndValidate", pkg: codecPkg, kind: "func",
		params:  []jen.Code{jen.Id("data").Index().Byte(), jen.Id("v").Interface(jen.Id("UnmarshalJSON").Params(jen.Index().Byte()).Error(), jen.Id("Validate").Params().Error())},
		results: []jen.Code{jen.Error()}, args: []string{"data", "v"}},

	{name: "RPCError", pkg: jsonrpcPkg, kind: "type", layer: "rpc"},
	{name: "CodeParseError", pkg: jsonrpcPkg, kind: "const", layer: "rpc"},
	{name: "CodeInvalidRequest", pkg: jsonrpcPkg, kind: "const", layer: "rpc"},
	{name: "CodeMethodNotFound", pkg: jsonrpcPkg, kind: "const", layer: "rpc"},
	{name: "CodeInvalidParams", pkg: jsonrpcPkg, kind: "const", layer: "rpc"},
	{name: "CodeInternalError", pkg: jsonrpcPkg, kind: "const", layer: "rpc"},
	{name: "MaxMessageSize", pkg: jsonrpcPkg, kind: "const", layer: "rpc"},
	{name: "RequestInfo", pkg: jsonrpcPkg, kind: "type", layer: "rpc"},
	{name: "RequestFromContext", pkg: jsonrpcPkg, kind: "func", layer: "rpc",
		params: []jen.Code{ctxParam()}, results: []jen.Code{jen.Op("*").Qual(jsonrpcPkg, "RequestInfo")}, args: []string{"ctx"}},
	{name: "ExtensionMethod", pkg: jsonrpcPkg, kind: "type", layer: "rpc"},
	{name: "Stream", pkg: jsonrpcPkg, kind: "type", layer: "rpc"},
	{name: "Session", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "SessionFromContext", pkg: protocolPkg, kind: "func", layer: "mcp",
		params: []jen.Code{ctxParam()}, results: []jen.Code{jen.Op("*").Qual(protocolPkg, "Session")}, args: []string{"ctx"}},
	{name: "SendNotification", pkg: protocolPkg, kind: "func", layer: "mcp",
		params:  []jen.Code{ctxParam(), jen.Id("method").String(), jen.Id("params").Add(appendJSONer())},
		results: []jen.Code{jen.Error()}, args: []string{"ctx", "method", "params"}},
	{name: "SendRequest", pkg: protocolPkg, kind: "func", layer: "mcp",
		params:  []jen.Code{ctxParam(), jen.Id("method").String(), jen.Id("params").Add(appendJSONer()), jen.Id("result").Add(unmarshaler())},
		results: []jen.Code{jen.Error()}, args: []string{"ctx", "method", "params", "result"}},
	{name: "Log", pkg: protocolPkg, kind: "func", layer: "mcp",
		typeParams: []jen.Code{jen.Id("L").Op("~").String()},
		params:     []jen.Code{ctxParam(), jen.Id("level").Id("L"), jen.Id("logger").String(), jen.Id("data").Any()},
		results:    []jen.Code{jen.Error()}, args: []string{"ctx", "level", "logger", "data"}},
	{name: "SendProgress", pkg: protocolPkg, kind: "func", layer: "mcp",
		params:  []jen.Code{ctxParam(), jen.List(jen.Id("progress"), jen.Id("total")).Float64(), jen.Id("message").String()},
		results: []jen.Code{jen.Error()}, args: []string{"ctx", "progress", "total", "message"}},
	{name: "CloseSSEStream", pkg: protocolPkg, kind: "func", layer: "mcp",
		params:  []jen.Code{ctxParam(), jen.Id("retry").Qual("time", "Duration")},
		results: []jen.Code{jen.Error()}, args: []string{"ctx", "retry"}},
	{name: "HTTPRequestFromContext", pkg: protocolPkg, kind: "func", layer: "mcp",
		params: []jen.Code{ctxParam()}, results: []jen.Code{jen.Op("*").Qual("net/http", "Request")}, args: []string{"ctx"}},
	{name: "Cache", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "NewCache", pkg: protocolPkg, kind: "func", layer: "mcp",
		params: []jen.Code{jen.Id("maxBytes").Int()}, results: []jen.Code{jen.Op("*").Qual(protocolPkg, "Cache")}, args: []string{"maxBytes"}},
	{name: "Transport", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "CommandTransport", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "StreamTransport", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "InMemoryTransport", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "HTTPTransport", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "HTTPStatusError", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "ToolError", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "HTTPHandler", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "HTTPOptions", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "Middleware", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "RequestLog", pkg: protocolPkg, kind: "func", layer: "mcp",
		params:  []jen.Code{jen.Id("l").Op("*").Qual("log/slog", "Logger"), jen.Id("principal").Func().Params(jen.Qual("context", "Context")).String()},
		results: []jen.Code{jen.Qual(protocolPkg, "Middleware")}, args: []string{"l", "principal"}},
	{name: "Handler", pkg: protocolPkg, kind: "type", layer: "mcp"},
	{name: "Call", pkg: protocolPkg, kind: "type", layer: "mcp"},

	{name: "TaskStore", pkg: protocolPkg, kind: "type", layer: "tasks"},
	{name: "TaskStoreOptions", pkg: protocolPkg, kind: "type", layer: "tasks"},
	{name: "NewTaskStore", pkg: protocolPkg, kind: "func", layer: "tasks",
		params: []jen.Code{jen.Id("opts").Qual(protocolPkg, "TaskStoreOptions")}, results: []jen.Code{jen.Op("*").Qual(protocolPkg, "TaskStore")}, args: []string{"opts"}},
	{name: "TasksExtension", pkg: protocolPkg, kind: "const", layer: "tasks"},
	{name: "ClientSupportsTasks", pkg: protocolPkg, kind: "func", layer: "tasks",
		params: []jen.Code{ctxParam()}, results: []jen.Code{jen.Bool()}, args: []string{"ctx"}},

	{name: "Older", pkg: protocolPkg, kind: "type", layer: "convert"},
	{name: "ConversionError", pkg: protocolPkg, kind: "type", layer: "convert"},
}

// Layers says which layers of the runtime a package re-exports names of.
type Layers struct{ RPC, MCP, Tasks, Convert bool }

func (l Layers) has(layer string) bool {
	switch layer {
	case "rpc":
		return l.RPC
	case "mcp":
		return l.MCP
	case "tasks":
		return l.Tasks
	case "convert":
		return l.Convert
	}
	return true
}

// RuntimeNames returns the names a package with these layers re-exports
// from the runtime; the builder reserves them.
func RuntimeNames(l Layers) []string {
	var out []string
	for _, n := range runtimeNames {
		if l.has(n.layer) {
			out = append(out, n.name)
		}
	}
	return out
}

// emitRuntime writes runtime.go: the runtime's names the package
// re-exports.
func (e *emitter) emitRuntime() *jen.File {
	f := newFile(e.pkg.Name)
	p := e.pkg.Protocol
	l := Layers{RPC: p != nil, MCP: p != nil && e.pkg.MCP, Tasks: p != nil && p.Tasks != nil, Convert: len(e.pkg.Older) > 0}
	var types, consts []jen.Code
	for _, n := range runtimeNames {
		if !l.has(n.layer) || !e.pkg.ReExports(n.name) {
			continue
		}
		switch n.kind {
		case "type":
			if doc := aliasDocs[n.name]; doc != "" {
				types = append(types, jen.Comment(commentText(n.name+" is "+doc+" (see ["+pkgName(n.pkg)+"."+n.name+"]).")))
			}
			types = append(types, jen.Id(n.name).Op("=").Qual(n.pkg, n.name))
		case "const":
			consts = append(consts, jen.Id(n.name).Op("=").Qual(n.pkg, n.name))
		}
	}
	f.Comment("The names of mcpgen's runtime that this package's API uses, under this package's name.")
	f.Type().Defs(types...)
	f.Line()
	f.Const().Defs(consts...)
	for _, n := range runtimeNames {
		if !l.has(n.layer) || n.kind != "func" || !e.pkg.ReExports(n.name) {
			continue
		}
		args := make([]jen.Code, len(n.args))
		for i, a := range n.args {
			args[i] = jen.Id(a)
		}
		call := jen.Qual(n.pkg, n.name).Call(args...)
		f.Line()
		f.Comment(n.name + " is [" + pkgName(n.pkg) + "." + n.name + "].")
		fn := f.Func().Id(n.name)
		if n.typeParams != nil {
			fn.Types(n.typeParams...)
		}
		fn.Params(n.params...).Params(n.results...).Block(jen.Return(call))
	}
	return f
}

// rt is the runtime's name in pkg as the package's code writes it: the
// package's re-export, or the runtime's own when a definition has the
// name (ir.Package.ReExports).
func (e *emitter) rt(pkg, name string) *jen.Statement {
	if e.pkg.ReExports(name) {
		return jen.Id(name)
	}
	return jen.Qual(pkg, name)
}

// own is a name of the package's own API as the package declares it
// (ir.Package.Own).
func (e *emitter) own(name string) *jen.Statement { return jen.Id(e.pkg.Own(name)) }

// pkgName is the last element of an import path.
func pkgName(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			return path[i+1:]
		}
	}
	return path
}
