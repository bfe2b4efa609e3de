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

// runtimeName is how runtime.go declares a name of the runtime that a
// generated package re-exports (ir.RuntimeNames lists them, with the layer
// each comes with).
type runtimeName struct {
	name string
	pkg  string
	// kind is "type" (an alias), "const", or "func" (a wrapper, whose
	// parameters and results are sig).
	kind string
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

// runtimeNames are the declarations of the names of ir.RuntimeNames
// (TestRuntimeNames keeps the two lists the same). emitRuntime writes
// those of ir.Package.ReExported.
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

	{name: "RPCError", pkg: jsonrpcPkg, kind: "type"},
	{name: "CodeParseError", pkg: jsonrpcPkg, kind: "const"},
	{name: "CodeInvalidRequest", pkg: jsonrpcPkg, kind: "const"},
	{name: "CodeMethodNotFound", pkg: jsonrpcPkg, kind: "const"},
	{name: "CodeInvalidParams", pkg: jsonrpcPkg, kind: "const"},
	{name: "CodeInternalError", pkg: jsonrpcPkg, kind: "const"},
	{name: "MaxMessageSize", pkg: jsonrpcPkg, kind: "const"},
	{name: "RequestInfo", pkg: jsonrpcPkg, kind: "type"},
	{name: "RequestFromContext", pkg: jsonrpcPkg, kind: "func",
		params: []jen.Code{ctxParam()}, results: []jen.Code{jen.Op("*").Qual(jsonrpcPkg, "RequestInfo")}, args: []string{"ctx"}},
	{name: "ExtensionMethod", pkg: jsonrpcPkg, kind: "type"},
	{name: "Stream", pkg: jsonrpcPkg, kind: "type"},
	{name: "Session", pkg: protocolPkg, kind: "type"},
	{name: "SessionFromContext", pkg: protocolPkg, kind: "func",
		params: []jen.Code{ctxParam()}, results: []jen.Code{jen.Op("*").Qual(protocolPkg, "Session")}, args: []string{"ctx"}},
	{name: "SendNotification", pkg: protocolPkg, kind: "func",
		params:  []jen.Code{ctxParam(), jen.Id("method").String(), jen.Id("params").Add(appendJSONer())},
		results: []jen.Code{jen.Error()}, args: []string{"ctx", "method", "params"}},
	{name: "SendRequest", pkg: protocolPkg, kind: "func",
		params:  []jen.Code{ctxParam(), jen.Id("method").String(), jen.Id("params").Add(appendJSONer()), jen.Id("result").Add(unmarshaler())},
		results: []jen.Code{jen.Error()}, args: []string{"ctx", "method", "params", "result"}},
	{name: "Log", pkg: protocolPkg, kind: "func",
		typeParams: []jen.Code{jen.Id("L").Op("~").String()},
		params:     []jen.Code{ctxParam(), jen.Id("level").Id("L"), jen.Id("logger").String(), jen.Id("data").Any()},
		results:    []jen.Code{jen.Error()}, args: []string{"ctx", "level", "logger", "data"}},
	{name: "SendProgress", pkg: protocolPkg, kind: "func",
		params:  []jen.Code{ctxParam(), jen.List(jen.Id("progress"), jen.Id("total")).Float64(), jen.Id("message").String()},
		results: []jen.Code{jen.Error()}, args: []string{"ctx", "progress", "total", "message"}},
	{name: "CloseSSEStream", pkg: protocolPkg, kind: "func",
		params:  []jen.Code{ctxParam(), jen.Id("retry").Qual("time", "Duration")},
		results: []jen.Code{jen.Error()}, args: []string{"ctx", "retry"}},
	{name: "HTTPRequestFromContext", pkg: protocolPkg, kind: "func",
		params: []jen.Code{ctxParam()}, results: []jen.Code{jen.Op("*").Qual("net/http", "Request")}, args: []string{"ctx"}},
	{name: "Cache", pkg: protocolPkg, kind: "type"},
	{name: "NewCache", pkg: protocolPkg, kind: "func",
		params: []jen.Code{jen.Id("maxBytes").Int()}, results: []jen.Code{jen.Op("*").Qual(protocolPkg, "Cache")}, args: []string{"maxBytes"}},
	{name: "Transport", pkg: protocolPkg, kind: "type"},
	{name: "CommandTransport", pkg: protocolPkg, kind: "type"},
	{name: "StreamTransport", pkg: protocolPkg, kind: "type"},
	{name: "InMemoryTransport", pkg: protocolPkg, kind: "type"},
	{name: "HTTPTransport", pkg: protocolPkg, kind: "type"},
	{name: "HTTPStatusError", pkg: protocolPkg, kind: "type"},
	{name: "ToolError", pkg: protocolPkg, kind: "type"},
	{name: "Subscription", pkg: protocolPkg, kind: "type"},
	{name: "Change", pkg: protocolPkg, kind: "type"},
	{name: "HTTPHandler", pkg: protocolPkg, kind: "type"},
	{name: "HTTPOptions", pkg: protocolPkg, kind: "type"},
	{name: "Middleware", pkg: protocolPkg, kind: "type"},
	{name: "RequestLog", pkg: protocolPkg, kind: "func",
		params:  []jen.Code{jen.Id("l").Op("*").Qual("log/slog", "Logger"), jen.Id("principal").Func().Params(jen.Qual("context", "Context")).String()},
		results: []jen.Code{jen.Qual(protocolPkg, "Middleware")}, args: []string{"l", "principal"}},
	{name: "Handler", pkg: protocolPkg, kind: "type"},
	{name: "Call", pkg: protocolPkg, kind: "type"},

	{name: "TaskStore", pkg: protocolPkg, kind: "type"},
	{name: "TaskStoreOptions", pkg: protocolPkg, kind: "type"},
	{name: "NewTaskStore", pkg: protocolPkg, kind: "func",
		params: []jen.Code{jen.Id("opts").Qual(protocolPkg, "TaskStoreOptions")}, results: []jen.Code{jen.Op("*").Qual(protocolPkg, "TaskStore")}, args: []string{"opts"}},
	{name: "TasksExtension", pkg: protocolPkg, kind: "const"},
	{name: "ClientSupportsTasks", pkg: protocolPkg, kind: "func",
		params: []jen.Code{ctxParam()}, results: []jen.Code{jen.Bool()}, args: []string{"ctx"}},

	{name: "Older", pkg: protocolPkg, kind: "type"},
	{name: "ConversionError", pkg: protocolPkg, kind: "type"},
}

// runtimeDecl is the declaration of a runtime name.
func runtimeDecl(name string) (runtimeName, bool) {
	for _, n := range runtimeNames {
		if n.name == name {
			return n, true
		}
	}
	return runtimeName{}, false
}

// emitRuntime writes runtime.go: the runtime's names the package
// re-exports.
func (e *emitter) emitRuntime() *jen.File {
	f := newFile(e.pkg.Name)
	var decls []runtimeName
	for _, name := range e.pkg.ReExported {
		if n, ok := runtimeDecl(name); ok { // Emit refuses a package with another
			decls = append(decls, n)
		}
	}
	var types, consts []jen.Code
	for _, n := range decls {
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
	for _, n := range decls {
		if n.kind != "func" {
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
