package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// This file emits the typed glue of the tasks extension (extensions/tasks,
// SEP-2663) for the server dispatcher of revisions that have it: the
// ServerOptions.Tasks field, its wiring in NewServerDispatcher, RunAsTask
// and AwaitInput. The machinery is in runtime/protocol (tasks_store.go, tasks.go).

// tasksOption is the ServerOptions field that turns the extension on.
func (e *emitter) tasksOption(p *ir.Protocol, s *ir.Side) []jen.Code {
	if s.Dir != ir.ClientToServer || p.Tasks == nil {
		return nil
	}
	return []jen.Code{
		jen.Comment(commentText("Tasks, if set, serves the tasks extension (io.modelcontextprotocol/tasks) from\nthis store: the dispatcher advertises it in Capabilities.Extensions, answers\ntasks/get, tasks/update and tasks/cancel, and tools/call handlers may answer\nwith a task (RunAsTask). A store serves one dispatcher.")),
		jen.Id("Tasks").Op("*").Add(e.rt(protocolPkg, "TaskStore")),
	}
}

// tasksDefaults are the statements of NewServerDispatcher, before the
// options are stored, that advertise the extension.
func (e *emitter) tasksDefaults(p *ir.Protocol, s *ir.Side) []jen.Code {
	ts := p.Tasks
	if s.Dir != ir.ClientToServer || ts == nil || ts.Extensions == nil {
		return nil
	}
	caps := jen.Id("opts").Dot("Capabilities").Dot(ts.Extensions.Name)
	return []jen.Code{jen.If(jen.Id("opts").Dot("Tasks").Op("!=").Nil()).Block(
		caps.Clone().Op("=").Qual(protocolPkg, "WithExtension").Call(caps.Clone(), e.rt(protocolPkg, "TasksExtension")),
	)}
}

// tasksAttach are the statements of NewServerDispatcher, once the
// dispatcher exists, that hand it the store: the methods the store serves,
// how a task's result is completed (as the dispatcher completes the
// result of a tools/call), and the serverInfo results carry.
// resultComplete is the resultType of a result that completes its request.
const resultComplete = "complete"

func tasksAttach(p *ir.Protocol, s *ir.Side) []jen.Code {
	ts := p.Tasks
	if s.Dir != ir.ClientToServer || ts == nil {
		return nil
	}
	// The result's resultType, where it has one, is "complete" (a
	// draft's tools/call result may have none).
	args := []jen.Code{jen.Id("r").Assert(jen.Op("*").Id(ts.Result.Name))}
	if fillsResultType(p, s, ts.Result) {
		args = append(args, jen.Lit(resultComplete))
	}
	finish := jen.Func().Params(jen.Id("r").Qual(jsonrpcPkg, "Result")).Params(jen.Qual(jsonrpcPkg, "Result"), jen.Error()).Block(
		jen.Return(jen.Id("d").Dot(finishName(ts.Result)).Call(args...)),
	)
	return []jen.Code{jen.If(jen.Id("opts").Dot("Tasks").Op("!=").Nil()).Block(
		jen.Var().Id("info").Index().Byte(),
		jen.If(jen.Op("!").Id("opts").Dot("OmitServerInfo")).Block(
			// encoding/json: the Implementation may be an external type.
			jen.List(jen.Id("info"), jen.Id("_")).Op("=").Qual("encoding/json", "Marshal").Call(jen.Id("opts").Dot("ServerInfo")),
		),
		jen.Id("d").Dot("rpc").Dot("AttachTasks").Call(
			jen.Op("&").Id("opts").Dot("Tasks").Dot("Store"),
			jen.Map(jen.String()).Func().Params(jen.Qual(jsonrpcPkg, "Result")).Params(jen.Qual(jsonrpcPkg, "Result"), jen.Error()).Values(
				jen.Id(ts.Call.Const).Op(":").Add(finish),
			),
			jen.Id("info"),
		),
	)}
}

// emitTasks writes RunAsTask and AwaitInput.
func (e *emitter) emitTasks(f *jen.File, p *ir.Protocol, s *ir.Side) {
	ts := p.Tasks
	if s.Dir != ir.ClientToServer || ts == nil {
		return
	}
	ctx := jen.Id("ctx").Qual("context", "Context")
	res := ts.Result.Name
	f.Comment(commentText("RunAsTask answers the " + ts.Call.Name + " request ctx belongs to with a task: the dispatcher\n" +
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
	f.Func().Add(e.own("RunAsTask")).Params(ctx.Clone(), jen.Id("fn").Func().Params(jen.Qual("context", "Context")).Params(jen.Op("*").Id(res), jen.Error())).Error().Block(
		jen.Var().Id("run").Func().Params(jen.Qual("context", "Context")).Params(jen.Qual(jsonrpcPkg, "Result"), jen.Error()),
		jen.If(jen.Id("fn").Op("!=").Nil()).Block(
			jen.Id("run").Op("=").Func().Params(ctx.Clone()).Params(jen.Qual(jsonrpcPkg, "Result"), jen.Error()).Block(
				jen.List(jen.Id("r"), jen.Id("err")).Op(":=").Id("fn").Call(jen.Id("ctx")),
				jen.If(jen.Id("err").Op("!=").Nil().Op("||").Id("r").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
				jen.Return(jen.Id("r"), jen.Nil()),
			),
		),
		jen.Return(jen.Qual(protocolPkg, "RunAsTask").Call(jen.Id("ctx"), jen.Id(ts.Call.Const), jen.Id("run"))),
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
	f.Func().Add(e.own("AwaitInput")).Params(ctx.Clone(), jen.Id("requests").Id(ts.Requests)).Params(jen.Id(ts.Responses), jen.Error()).Block(
		jen.If(jen.Id("err").Op(":=").Id("requests").Dot("Validate").Call(), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("mcp: AwaitInput: %w"), jen.Id("err"))),
		),
		jen.List(jen.Id("b"), jen.Id("err")).Op(":=").Id("requests").Dot("AppendJSON").Call(jen.Nil()),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		jen.List(jen.Id("got"), jen.Id("err")).Op(":=").Qual(protocolPkg, "AwaitTaskInput").Call(jen.Id("ctx"), jen.Id("b")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		jen.Var().Id("out").Id(ts.Responses),
		jen.If(jen.Id("err").Op(":=").Id("out").Dot("UnmarshalJSON").Call(jen.Id("got")), jen.Id("err").Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Id("err")),
		),
		jen.Return(jen.Id("out"), jen.Nil()),
	)
}
