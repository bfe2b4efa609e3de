package gen

import (
	"github.com/dave/jennifer/jen"
)

// This file emits the typed glue of the tasks extension (extensions/tasks,
// SEP-2663) for the server dispatcher of revisions that have it: the
// ServerOptions.Tasks field, its wiring in NewServerDispatcher, RunAsTask
// and AwaitInput. The machinery is in gen/rt (rpc_tasks.go, tasks.go).

// taskNames are the exported names the tasks runtime and the glue below
// declare.
var taskNames = []string{"TaskStore", "TaskStoreOptions", "NewTaskStore", "TasksExtension", "ClientSupportsTasks", "RunAsTask", "AwaitInput"}

// taskSupport is what the glue needs of a revision: the tools/call method
// (the one method SEP-2663 lets a server answer with a task) and the map
// types of input requests and their answers.
type taskSupport struct {
	call       *Method
	result     *Struct
	requests   string // InputRequests
	responses  string // InputResponses
	extensions bool   // ServerCapabilities.extensions holds raw JSON objects
}

// tasksOf returns the task support of a revision, or nil when it has none:
// the extension needs per-request _meta (it is not defined for revisions
// with the initialize handshake), tools/call and multi round-trip input.
func tasksOf(p *Protocol) *taskSupport {
	if p == nil || !p.Modern || p.InputRequired == nil || p.Implementation == nil {
		return nil
	}
	var call *Method
	for _, m := range p.Methods {
		if m.Name == "tools/call" && m.Direction == ClientToServer && !m.Notification {
			call = m
		}
	}
	if call == nil || call.Result == nil || !isStruct(call.Result) {
		return nil
	}
	ts := &taskSupport{call: call, result: call.Result.Resolve().Decl.(*Struct)}
	if f := fieldByJSON(p.InputRequired, "inputRequests"); f != nil && namedMap(f.Type) {
		ts.requests = f.Type.Resolve().Decl.GoName()
	}
	if _, ir := stateFields(call); ir != nil && namedMap(ir.Type) {
		ts.responses = ir.Type.Resolve().Decl.GoName()
	}
	if ts.requests == "" || ts.responses == "" {
		return nil
	}
	if p.ServerCapabilities != nil {
		if f := fieldByJSON(p.ServerCapabilities, "extensions"); f != nil && f.Name != "" {
			if t := f.Type.Resolve(); t.Kind == TMap && rawJSON(t.Elem) {
				ts.extensions = true
			}
		}
	}
	return ts
}

// namedMap reports whether t is a named map type (type M map[string]T),
// whose AppendJSON, UnmarshalJSON and Validate the glue calls.
func namedMap(t *Type) bool {
	t = t.Resolve()
	if t.Kind != TDecl {
		return false
	}
	n, ok := t.Decl.(*Named)
	return ok && n.Type.Resolve().Kind == TMap
}

// rawJSON reports whether values of t are JSON bytes (json.RawMessage or a
// named type of it).
func rawJSON(t *Type) bool {
	t = t.Resolve()
	if t.Kind == TRaw {
		return true
	}
	if t.Kind == TDecl {
		_, ok := t.Decl.(*Raw)
		return ok
	}
	return false
}

// tasksOption is the ServerOptions field that turns the extension on.
func tasksOption(p *Protocol, s side) []jen.Code {
	if s.dir != ClientToServer || tasksOf(p) == nil {
		return nil
	}
	return []jen.Code{
		jen.Comment(commentText("Tasks, if set, serves the tasks extension (io.modelcontextprotocol/tasks) from\nthis store: the dispatcher advertises it in Capabilities.Extensions, answers\ntasks/get, tasks/update and tasks/cancel, and tools/call handlers may answer\nwith a task (RunAsTask). A store serves one dispatcher.")),
		jen.Id("Tasks").Op("*").Id("TaskStore"),
	}
}

// tasksDefaults are the statements of NewServerDispatcher, before the
// options are stored, that advertise the extension.
func tasksDefaults(p *Protocol, s side) []jen.Code {
	ts := tasksOf(p)
	if s.dir != ClientToServer || ts == nil || !ts.extensions {
		return nil
	}
	caps := jen.Id("opts").Dot("Capabilities").Dot(fieldByJSON(p.ServerCapabilities, "extensions").Name)
	return []jen.Code{jen.If(jen.Id("opts").Dot("Tasks").Op("!=").Nil()).Block(
		caps.Clone().Op("=").Id("withExtension").Call(caps.Clone(), jen.Id("TasksExtension")),
	)}
}

// tasksAttach are the statements of NewServerDispatcher, once the
// dispatcher exists, that hand it the store: the methods the store serves,
// how a task's result is completed (as the dispatcher completes the
// result of a tools/call), and the serverInfo results carry.
func tasksAttach(p *Protocol, s side) []jen.Code {
	ts := tasksOf(p)
	if s.dir != ClientToServer || ts == nil {
		return nil
	}
	finish := jen.Func().Params(jen.Id("r").Id("rpcResult")).Params(jen.Id("rpcResult"), jen.Error()).Block(
		jen.Return(jen.Id("d").Dot(finishName(ts.result)).Call(jen.Id("r").Assert(jen.Op("*").Id(ts.result.Name)), jen.Lit("complete"))),
	)
	return []jen.Code{jen.If(jen.Id("opts").Dot("Tasks").Op("!=").Nil()).Block(
		jen.Var().Id("info").Index().Byte(),
		jen.If(jen.Op("!").Id("opts").Dot("OmitServerInfo")).Block(
			// encoding/json: the Implementation may be an external type.
			jen.List(jen.Id("info"), jen.Id("_")).Op("=").Qual("encoding/json", "Marshal").Call(jen.Id("opts").Dot("ServerInfo")),
		),
		jen.Id("d").Dot("rpc").Dot("attachTasks").Call(
			jen.Op("&").Id("opts").Dot("Tasks").Dot("store"),
			jen.Map(jen.String()).Func().Params(jen.Id("rpcResult")).Params(jen.Id("rpcResult"), jen.Error()).Values(
				jen.Id(ts.call.Const).Op(":").Add(finish),
			),
			jen.Id("info"),
		),
	)}
}

// emitTasks writes RunAsTask and AwaitInput.
func (e *emitter) emitTasks(f *jen.File, p *Protocol, s side) {
	ts := tasksOf(p)
	if s.dir != ClientToServer || ts == nil {
		return
	}
	ctx := jen.Id("ctx").Qual("context", "Context")
	res := ts.result.Name
	f.Comment(commentText("RunAsTask answers the " + ts.call.Name + " request ctx belongs to with a task: the dispatcher\n" +
		"sends a CreateTaskResult (resultType \"task\") once the task exists, and fn runs in a\n" +
		"goroutine of its own. Return its error from the handler:\n\n" +
		"\treturn nil, RunAsTask(ctx, func(ctx context.Context) (*" + res + ", error) { ... })\n\n" +
		"The client follows the task with tasks/get until it ends: completed with fn's result\n" +
		"(as the dispatcher would have sent it), or failed with fn's error as a JSON-RPC error\n" +
		"(an *RPCError keeps its code). fn's context keeps the values of ctx (RequestFromContext\n" +
		"among them, but not HTTPRequestFromContext) and not its cancellation; it ends when the\n" +
		"client cancels the task (tasks/cancel), when the task's ttl ends, or at\n" +
		"TaskStore.Shutdown. fn asks the client for input with AwaitInput, not NeedInput, and\n" +
		"sends no notifications.\n\n" +
		"RunAsTask fails with MissingRequiredClientCapabilityError (-32021) when the client did\n" +
		"not declare the tasks extension (ClientSupportsTasks tells beforehand), and with an\n" +
		"internal error when the dispatcher has no ServerOptions.Tasks or the store is full."))
	f.Func().Id("RunAsTask").Params(ctx.Clone(), jen.Id("fn").Func().Params(jen.Qual("context", "Context")).Params(jen.Op("*").Id(res), jen.Error())).Error().Block(
		jen.Var().Id("run").Func().Params(jen.Qual("context", "Context")).Params(jen.Id("rpcResult"), jen.Error()),
		jen.If(jen.Id("fn").Op("!=").Nil()).Block(
			jen.Id("run").Op("=").Func().Params(ctx.Clone()).Params(jen.Id("rpcResult"), jen.Error()).Block(
				jen.List(jen.Id("r"), jen.Id("err")).Op(":=").Id("fn").Call(jen.Id("ctx")),
				jen.If(jen.Id("err").Op("!=").Nil().Op("||").Id("r").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
				jen.Return(jen.Id("r"), jen.Nil()),
			),
		),
		jen.Return(jen.Id("runAsTask").Call(jen.Id("ctx"), jen.Id(ts.call.Const), jen.Id("run"))),
	)

	f.Comment(commentText("AwaitInput asks the client for input on behalf of the task ctx belongs to (the context\n" +
		"RunAsTask gives fn) and waits for the answers. Until the client has answered every\n" +
		"request with tasks/update, tasks/get shows the task as input_required with the\n" +
		"requests that are still unanswered; the answers are checked as those of NeedInput are\n" +
		"(an accepted form elicitation against its requestedSchema) and come back by key. A key\n" +
		"names one request over the task's life: using it again is an error. The requests must\n" +
		"be covered by the capabilities the client declared when it created the task\n" +
		"(MissingRequiredClientCapabilityError, -32021, otherwise). AwaitInput returns ctx's\n" +
		"error when the task is cancelled or expires while it waits."))
	f.Func().Id("AwaitInput").Params(ctx.Clone(), jen.Id("requests").Id(ts.requests)).Params(jen.Id(ts.responses), jen.Error()).Block(
		jen.If(jen.Id("err").Op(":=").Id("requests").Dot("Validate").Call(), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("mcp: AwaitInput: %w"), jen.Id("err"))),
		),
		jen.List(jen.Id("b"), jen.Id("err")).Op(":=").Id("requests").Dot("AppendJSON").Call(jen.Nil()),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		jen.List(jen.Id("got"), jen.Id("err")).Op(":=").Id("awaitTaskInput").Call(jen.Id("ctx"), jen.Id("b")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		jen.Var().Id("out").Id(ts.responses),
		jen.If(jen.Id("err").Op(":=").Id("out").Dot("UnmarshalJSON").Call(jen.Id("got")), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Id("err")),
		),
		jen.Return(jen.Id("out"), jen.Nil()),
	)
}
