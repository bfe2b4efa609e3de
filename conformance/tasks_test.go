package conformance

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The tasks extension (extensions/tasks, SEP-2663) through the generated
// 2026-07-28 API: ServerOptions.Tasks, RunAsTask, AwaitInput and
// ClientSupportsTasks, over Handle and over HTTP.

const tasksCaps = `{"extensions":{"io.modelcontextprotocol/tasks":{}},"elicitation":{}}`

// taskResult is what these tests read of a task or a CreateTaskResult.
type taskResult struct {
	ResultType    string                     `json:"resultType"`
	TaskID        string                     `json:"taskId"`
	Status        string                     `json:"status"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	Result        json.RawMessage            `json:"result"`
	Error         *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func taskOf(t *testing.T, got []byte) taskResult {
	t.Helper()
	r := parseResponse(t, got)
	if r.err != nil {
		t.Fatalf("error %d %s", r.err.Code, r.err.Message)
	}
	var v taskResult
	if err := json.Unmarshal(r.result, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// pollTask reads a task with tasks/get until it has status.
func pollTask(t *testing.T, d *mcp.ServerDispatcher, id, status string) taskResult {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		v := taskOf(t, handle(d, request(`9`, "tasks/get", `{`+metaWith(`"2026-07-28"`, tasksCaps)+`,"taskId":`+quote(id)+`}`)))
		if v.Status == status {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s is %s, want %s", id, v.Status, status)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// taskServer answers tools/call with tasks: "echo" completes with its
// arguments, "ask" asks for a confirmation first, "bad" returns a result
// that breaks the schema; "sync" runs at once unless the client supports
// tasks.
func taskServer() *server {
	s := &server{}
	s.callTool = func(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		args := string(p.Arguments)
		switch p.Name {
		case "echo":
			return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: args}}}, nil
			})
		case "ask":
			return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
				var reqs mcp.InputRequests
				if err := reqs.UnmarshalJSON([]byte(`{"ok":{"method":"elicitation/create","params":{"mode":"form","message":"Go on?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}}}`)); err != nil {
					return nil, err
				}
				answers, err := mcp.AwaitInput(ctx, reqs)
				if err != nil {
					return nil, err
				}
				er, ok := answers["ok"].(*mcp.ElicitResult)
				if !ok {
					return nil, &mcp.RPCError{Code: -32000, Message: "not an ElicitResult"}
				}
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "action " + string(er.Action)}}}, nil
			})
		case "bad":
			return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{nil}}, nil // a content block without a value
			})
		case "badinput":
			return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
				_, err := mcp.AwaitInput(ctx, mcp.InputRequests{"x": nil})
				return nil, err
			})
		case "sync":
			if !mcp.ClientSupportsTasks(ctx) {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "at once"}}}, nil
			}
			return nil, mcp.RunAsTask(ctx, func(ctx context.Context) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "later"}}}, nil
			})
		}
		return nil, &mcp.RPCError{Code: mcp.CodeInvalidParams, Message: "no such tool"}
	}
	return s
}

func TestTasksGenerated(t *testing.T) {
	store := mcp.NewTaskStore(mcp.TaskStoreOptions{TTL: time.Minute})
	t.Cleanup(func() {
		if err := store.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	d := newServer(taskServer(), mcp.ServerOptions{
		Tasks:        store,
		Capabilities: mcp.ServerCapabilities{Extensions: map[string]mcp.JSONObject{"com.example/other": mcp.JSONObject(`{"x":1}`)}},
	})
	call := func(name, caps string) []byte {
		return handle(d, request(`1`, "tools/call", `{`+metaWith(`"2026-07-28"`, caps)+`,"name":`+quote(name)+`,"arguments":{"a":1}}`))
	}

	// server/discover advertises the extension next to the others.
	r := parseResponse(t, handle(d, request(`0`, "server/discover", `{`+meta+`}`)))
	var disc struct {
		Capabilities struct {
			Extensions map[string]json.RawMessage `json:"extensions"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(r.result, &disc); err != nil || string(disc.Capabilities.Extensions["io.modelcontextprotocol/tasks"]) != `{}` ||
		string(disc.Capabilities.Extensions["com.example/other"]) != `{"x":1}` {
		t.Errorf("discover: %s", r.result)
	}

	// A task's result is the tools/call result the dispatcher would have
	// sent: with resultType and serverInfo.
	c := taskOf(t, call("echo", tasksCaps))
	if c.ResultType != "task" || c.Status != "working" && c.Status != "completed" {
		t.Fatalf("CreateTaskResult %+v", c)
	}
	g := pollTask(t, d, c.TaskID, "completed")
	wantResult := `{"content":[{"type":"text","text":"{\"a\":1}"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"1.2.3"}}}`
	if !jsonEqual(g.Result, []byte(wantResult)) {
		t.Errorf("result %s, want %s", g.Result, wantResult)
	}

	// A result that breaks the schema fails the task, as it would fail the
	// request.
	g = pollTask(t, d, taskOf(t, call("bad", tasksCaps)).TaskID, "failed")
	if g.Error == nil || g.Error.Code != -32603 || !strings.Contains(g.Error.Message, "breaks the schema") {
		t.Errorf("invalid result: %+v", g)
	}
	// So does an input request that breaks the schema.
	g = pollTask(t, d, taskOf(t, call("badinput", tasksCaps)).TaskID, "failed")
	if g.Error == nil || !strings.Contains(g.Error.Message, "AwaitInput") {
		t.Errorf("invalid input request: %+v", g)
	}

	// AwaitInput: the request shows in tasks/get, the typed answer comes
	// back.
	id := taskOf(t, call("ask", tasksCaps)).TaskID
	g = pollTask(t, d, id, "input_required")
	if len(g.InputRequests) != 1 || g.InputRequests["ok"] == nil {
		t.Fatalf("input_required task: %+v", g)
	}
	checkResult(t, handle(d, request(`2`, "tasks/update", `{`+metaWith(`"2026-07-28"`, tasksCaps)+`,"taskId":`+quote(id)+`,"inputResponses":{"ok":{"action":"accept","content":{"ok":true}}}}`)),
		"2", `{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"1.2.3"}}}`)
	g = pollTask(t, d, id, "completed")
	if !strings.Contains(string(g.Result), "action accept") {
		t.Errorf("result %s", g.Result)
	}

	// Without the extension: no task, -32021 for a tool that needs one,
	// a synchronous answer from one that can do without.
	checkError(t, call("echo", `{}`), want{"1", -32021, "", `{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`})
	checkResult(t, call("sync", `{}`), "1", `{"content":[{"type":"text","text":"at once"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"1.2.3"}}}`)
	if c := taskOf(t, call("sync", tasksCaps)); c.ResultType != "task" {
		t.Errorf("sync with the extension: %+v", c)
	}
}

// TestTasksWithoutStore: RunAsTask needs ServerOptions.Tasks, and without
// it the tasks methods do not exist.
func TestTasksWithoutStore(t *testing.T) {
	d := newServer(taskServer(), mcp.ServerOptions{})
	checkError(t, handle(d, request(`1`, "tools/call", `{`+metaWith(`"2026-07-28"`, tasksCaps)+`,"name":"echo"}`)),
		want{"1", -32603, "internal error: RunAsTask needs a task store", ""})
	checkError(t, handle(d, request(`2`, "tasks/get", `{`+metaWith(`"2026-07-28"`, tasksCaps)+`,"taskId":"x"}`)),
		want{"2", -32601, "method not found", ""})
	r := parseResponse(t, handle(d, request(`0`, "server/discover", `{`+meta+`}`)))
	if strings.Contains(string(r.result), "io.modelcontextprotocol/tasks") {
		t.Errorf("discover advertises tasks without a store: %s", r.result)
	}
}

// TestTasksHTTP: the generated HTTP handler checks Mcp-Name against the
// taskId of the tasks methods.
func TestTasksHTTP(t *testing.T) {
	store := mcp.NewTaskStore(mcp.TaskStoreOptions{})
	t.Cleanup(func() { _ = store.Shutdown(context.Background()) })
	d := newServer(taskServer(), mcp.ServerOptions{Tasks: store})
	srv := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	t.Cleanup(srv.Close)
	post := func(method, name, params string) (int, response) {
		t.Helper()
		r, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(request(`1`, method, params)))
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("MCP-Protocol-Version", "2026-07-28")
		r.Header.Set("Mcp-Method", method)
		r.Header.Set("Mcp-Name", name)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, parseResponse(t, b)
	}
	status, r := post("tools/call", "echo", `{`+metaWith(`"2026-07-28"`, tasksCaps)+`,"name":"echo"}`)
	var c taskResult
	if err := json.Unmarshal(r.result, &c); status != 200 || err != nil || c.TaskID == "" {
		t.Fatalf("tools/call over HTTP: %d %s", status, r.result)
	}
	get := `{` + metaWith(`"2026-07-28"`, tasksCaps) + `,"taskId":` + quote(c.TaskID) + `}`
	if status, r := post("tasks/get", c.TaskID, get); status != 200 || r.err != nil {
		t.Errorf("tasks/get: %d %+v", status, r.err)
	}
	if status, r := post("tasks/get", "someone-else", get); status != 400 || r.err == nil || r.err.Code != -32020 {
		t.Errorf("tasks/get with another Mcp-Name: %d %+v", status, r.err)
	}
	if status, r := post("tasks/get", "nope", `{`+metaWith(`"2026-07-28"`, tasksCaps)+`,"taskId":"nope"}`); status != 400 || r.err == nil || r.err.Code != -32602 {
		t.Errorf("tasks/get of an unknown task: %d %+v", status, r.err)
	}
}
