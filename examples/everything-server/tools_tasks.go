package main

import (
	"context"
	"encoding/json"
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

// maxComputeSeconds bounds slow_compute.
const maxComputeSeconds = 300

func taskTools() []tool {
	return []tool{
		defineTool(`{"name":"greet","description":"Greets name at once (never a task).","inputSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}`,
			callGreet),
		defineTool(`{"name":"slow_compute","description":"Computes for the given seconds (at most 300), as a task when the client supports tasks; 0 seconds answers at once.","inputSchema":{"type":"object","properties":{"seconds":{"type":"number","minimum":0},"label":{"type":"string"}},"required":["seconds"]}}`,
			callSlowCompute),
		defineTool(`{"name":"failing_job","description":"A job that runs as a task (tasks required) and ends with a tool error after about a second.","inputSchema":`+noArgs+`}`,
			func(ctx context.Context, _ *server, _ *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
					if err := sleep(ctx, time.Second); err != nil {
						return nil, err
					}
					return toolError("the job failed: the input data is corrupt"), nil
				})
			}),
		defineTool(`{"name":"protocol_error_job","description":"A job that runs as a task (tasks required) and fails with a protocol error.","inputSchema":`+noArgs+`}`,
			func(ctx context.Context, _ *server, _ *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
					if err := sleep(ctx, 200*time.Millisecond); err != nil {
						return nil, err
					}
					return nil, &mcp.RPCError{Code: mcp.CodeInternalError, Message: "the job's backend is unavailable"}
				})
			}),
		defineTool(`{"name":"confirm_delete","description":"Deletes filename after the user confirms, as a task (tasks required) that waits for the answer.","inputSchema":{"type":"object","properties":{"filename":{"type":"string"}},"required":["filename"]}}`,
			callConfirmDelete),
		defineTool(`{"name":"multi_input","description":"A task (tasks required) that asks two questions at once and answers when both are answered.","inputSchema":`+noArgs+`}`,
			callMultiInput),
		defineTool(`{"name":"test_tool_with_task","description":"Asks for the user's name (an input-required result), then greets them from a task (tasks required).","inputSchema":`+noArgs+`}`,
			callGreetFromTask),
	}
}

func callGreet(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	var in struct {
		Name string `json:"name"`
	}
	if r := args(p, &in); r != nil {
		return r, nil
	}
	return toolResult(text("Hello, " + in.Name + "!")), nil
}

func callSlowCompute(ctx context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	var in struct {
		Seconds float64 `json:"seconds"`
		Label   string  `json:"label"`
	}
	if r := args(p, &in); r != nil {
		return r, nil
	}
	if in.Seconds < 0 || in.Seconds > maxComputeSeconds {
		return toolError(fmt.Sprintf("seconds must be between 0 and %d", maxComputeSeconds)), nil
	}
	d := time.Duration(in.Seconds * float64(time.Second))
	compute := func(ctx context.Context) (*mcp.CallToolResult, error) {
		if err := sleep(ctx, d); err != nil {
			return nil, err
		}
		return toolResult(text(fmt.Sprintf("%s: computed for %gs", in.Label, in.Seconds))), nil
	}
	if d == 0 || !mcp.ClientSupportsTasks(ctx) {
		// Nothing to wait for, or a client that cannot poll: answer
		// synchronously.
		return compute(ctx)
	}
	return nil, mcp.RunAsTask(ctx, compute)
}

func callConfirmDelete(ctx context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	var in struct {
		Filename string `json:"filename"`
	}
	if r := args(p, &in); r != nil {
		return r, nil
	}
	return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
		answers, err := mcp.AwaitInput(ctx, decode[mcp.InputRequests](`{"confirm":`+
			elicitation("Delete "+in.Filename+"?", `{"type":"object","properties":{"confirm":{"type":"boolean","description":"Delete the file"}},"required":["confirm"]}`)+`}`))
		if err != nil {
			return nil, err
		}
		a, _ := answerTo(answers, "confirm")
		if c, ok := a.accepted(); ok && c["confirm"] == true {
			return toolResult(text("Deleted " + in.Filename + ".")), nil
		}
		return toolResult(text("Kept " + in.Filename + ".")), nil
	})
}

func callMultiInput(ctx context.Context, _ *server, _ *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
		answers, err := mcp.AwaitInput(ctx, decode[mcp.InputRequests](`{`+
			`"name":`+elicitation("What is your name?", nameSchema)+`,`+
			`"confirm":`+elicitation("Shall I go on?", `{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}`)+`}`))
		if err != nil {
			return nil, err
		}
		name, _ := answerTo(answers, "name")
		confirm, _ := answerTo(answers, "confirm")
		n, _ := name.accepted()
		c, _ := confirm.accepted()
		return toolResult(text(fmt.Sprintf("name: %v; confirmed: %v", n["name"], c["confirm"]))), nil
	})
}

// requireTasks is the error for a client that did not declare the tasks
// extension, which a request needs (SEP-2663).
func requireTasks() error {
	return mcp.RequireClientCapabilities(json.RawMessage(`{"extensions":{"` + mcp.TasksExtension + `":{}}}`))
}

// callGreetFromTask gathers input with a multi round-trip request first,
// then hands the work to a task, as SEP-2663 suggests ("resolve all MRTR
// exchanges synchronously before responding with a CreateTaskResult").
func callGreetFromTask(ctx context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if !mcp.ClientSupportsTasks(ctx) {
		// The tool needs a task; say so before asking anything.
		return nil, requireTasks()
	}
	a, ok := answerTo(p.InputResponses, "user_name")
	if !ok {
		return nil, ask("", map[string]string{"user_name": elicitation("What is your name?", nameSchema)})
	}
	c, _ := a.accepted()
	name, _ := c["name"].(string)
	return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return nil, err
		}
		return toolResult(text("Hello, " + name + "! (from a task)")), nil
	})
}
