package main

import (
	"context"
	"fmt"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Tools that run as tasks (the tasks extension, io.modelcontextprotocol/tasks):
// the call returns at once with a task the client polls (tasks/get),
// answers questions for (tasks/update) and may cancel (tasks/cancel). The
// server decides per call: a tool that can also run synchronously asks
// ClientSupportsTasks; one that needs a task calls RunAsTask, which refuses
// clients that did not declare the extension (-32021).

func addTaskTools(s *mcp.Server) {
	mcp.AddTool(s, tool("greet", "Greets name at once (never a task)."),
		func(_ context.Context, _ *mcp.CallToolRequestParams, in greetArgs) (*mcp.CallToolResult, error) {
			return mcp.TextResult("Hello, " + in.Name + "!"), nil
		})
	mcp.AddTool(s, tool("slow_compute", "Computes for the given seconds (at most 300), as a task when the client supports tasks; 0 seconds answers at once."),
		callSlowCompute)
	mcp.AddTool(s, tool("failing_job", "A job that runs as a task (tasks required) and ends with a tool error after about a second."),
		func(ctx context.Context, _ *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
			return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
				if err := sleep(ctx, time.Second); err != nil {
					return nil, err
				}
				return mcp.ErrorResult("the job failed: the input data is corrupt"), nil
			})
		})
	mcp.AddTool(s, tool("protocol_error_job", "A job that runs as a task (tasks required) and fails with a protocol error."),
		func(ctx context.Context, _ *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
			return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
				if err := sleep(ctx, 200*time.Millisecond); err != nil {
					return nil, err
				}
				return nil, &mcp.RPCError{Code: mcp.CodeInternalError, Message: "the job's backend is unavailable"}
			})
		})
	mcp.AddTool(s, tool("confirm_delete", "Deletes filename after the user confirms, as a task (tasks required) that waits for the answer."),
		callConfirmDelete)
	mcp.AddTool(s, tool("multi_input", "A task (tasks required) that asks two questions at once and answers when both are answered."),
		callMultiInput)
	mcp.AddTool(s, tool("test_tool_with_task", "Asks for the user's name (an input-required result), then greets them from a task (tasks required)."),
		callGreetFromTask)
}

type greetArgs struct {
	Name string `json:"name"`
}

type computeArgs struct {
	Seconds float64 `json:"seconds" mcp:"minimum=0,maximum=300"`
	Label   string  `json:"label,omitempty"`
}

func callSlowCompute(ctx context.Context, _ *mcp.CallToolRequestParams, in computeArgs) (*mcp.CallToolResult, error) {
	d := time.Duration(in.Seconds * float64(time.Second))
	compute := func(ctx context.Context) (*mcp.CallToolResult, error) {
		if err := sleep(ctx, d); err != nil {
			return nil, err
		}
		return mcp.TextResult(fmt.Sprintf("%s: computed for %gs", in.Label, in.Seconds)), nil
	}
	if d == 0 || !mcp.ClientSupportsTasks(ctx) {
		// Nothing to wait for, or a client that cannot poll: answer
		// synchronously.
		return compute(ctx)
	}
	return nil, mcp.RunAsTask(ctx, compute)
}

type deleteArgs struct {
	Filename string `json:"filename"`
}

func callConfirmDelete(ctx context.Context, _ *mcp.CallToolRequestParams, in deleteArgs) (*mcp.CallToolResult, error) {
	return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
		answers, err := mcp.AwaitInput(ctx, mcp.InputRequests{
			"confirm": elicit(mcp.Form[deleteForm]("Delete " + in.Filename + "?")),
		})
		if err != nil {
			return nil, err
		}
		c, _, err := mcp.FormValue[deleteForm](elicited(answers, "confirm"))
		if err != nil {
			return nil, err
		}
		if c.Confirm {
			return mcp.TextResult("Deleted " + in.Filename + "."), nil
		}
		return mcp.TextResult("Kept " + in.Filename + "."), nil
	})
}

func callMultiInput(ctx context.Context, _ *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
	return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
		answers, err := mcp.AwaitInput(ctx, mcp.InputRequests{
			"name":    elicit(mcp.Form[nameForm]("What is your name?")),
			"confirm": elicit(mcp.Form[confirmForm]("Shall I go on?")),
		})
		if err != nil {
			return nil, err
		}
		n, _, err := mcp.FormValue[nameForm](elicited(answers, "name"))
		if err != nil {
			return nil, err
		}
		c, _, err := mcp.FormValue[confirmForm](elicited(answers, "confirm"))
		if err != nil {
			return nil, err
		}
		return mcp.TextResult(fmt.Sprintf("name: %v; confirmed: %v", n.Name, c.Confirm)), nil
	})
}

// requireTasks is the error for a client that did not declare the tasks
// extension, which a request needs (SEP-2663).
func requireTasks() error {
	return mcp.RequireCapabilities(mcp.ClientCapabilities{Extensions: map[string]mcp.JSONObject{mcp.TasksExtension: mcp.JSONObject(`{}`)}})
}

// callGreetFromTask gathers input with a multi round-trip request first,
// then hands the work to a task, as SEP-2663 suggests ("resolve all MRTR
// exchanges synchronously before responding with a CreateTaskResult").
func callGreetFromTask(ctx context.Context, p *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
	if !mcp.ClientSupportsTasks(ctx) {
		// The tool needs a task; say so before asking anything.
		return nil, requireTasks()
	}
	in := mcp.Ask(p.InputResponses)
	answer := in.Elicit("user_name", mcp.Form[nameForm]("What is your name?"))
	if err := in.Err(); err != nil {
		return nil, err
	}
	n, _, err := mcp.FormValue[nameForm](answer)
	if err != nil {
		return nil, err
	}
	name := n.Name
	return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return nil, err
		}
		return mcp.TextResult("Hello, " + name + "! (from a task)"), nil
	})
}
