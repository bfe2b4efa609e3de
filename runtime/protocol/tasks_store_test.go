package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// The tasks extension at the level of the runtime: a dispatcher whose
// tools/call handler answers with tasks, driven by JSON-RPC messages.

const (
	extCaps   = `{"extensions":{"io.modelcontextprotocol/tasks":{}},"elicitation":{}}`
	noExtCaps = `{"elicitation":{}}`
)

func metaCaps(caps string) string {
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
}

// taskEnv is a dispatcher with a task store; its tools/call handler runs
// the function run as a task.
type taskEnv struct {
	t     *testing.T
	d     *Core
	s     *taskStore
	clock atomic.Int64 // Unix nanoseconds of the store's clock
	run   func(ctx context.Context) (jsonrpc.Result, error)
	mu    sync.Mutex
	logs  []string
	ids   int
}

// envLog appends each record written to it to env.logs.
type envLog struct{ env *taskEnv }

func (w envLog) Write(p []byte) (int, error) {
	w.env.mu.Lock()
	w.env.logs = append(w.env.logs, string(p))
	w.env.mu.Unlock()
	return len(p), nil
}

func newTaskEnv(t *testing.T, max int, ttl time.Duration) *taskEnv {
	env := &taskEnv{t: t}
	env.clock.Store(time.Now().UnixNano())
	store := newTaskStore(max, ttl, 250*time.Millisecond)
	env.s = &store
	env.s.now = func() time.Time { return time.Unix(0, env.clock.Load()) }
	env.d = &Core{
		Modern:     true,
		Versions:   []string{"2026-07-28"},
		State:      testSealer(key1),
		CheckInput: checkTypes,
		Dispatcher: jsonrpc.Dispatcher{
			Logger: slog.New(slog.NewTextHandler(envLog{env}, nil)),
			Methods: map[string]*jsonrpc.Method{
				"tools/call": {Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
					return nil, RunAsTask(ctx, "tools/call", env.run)
				}},
				"prompts/get": {Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
					return nil, RunAsTask(ctx, "tools/call", env.run)
				}},
			},
		},
	}
	env.d.AttachTasks(env.s, map[string]func(jsonrpc.Result) (jsonrpc.Result, error){
		"tools/call": func(r jsonrpc.Result) (jsonrpc.Result, error) { return r, nil },
	}, []byte(`{"name":"srv","version":"1"}`))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := env.s.shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return env
}

func (env *taskEnv) advance(d time.Duration) { env.clock.Add(int64(d)) }

type taskReply struct {
	Result json.RawMessage
	Error  *struct {
		Code    int64
		Message string
		Data    json.RawMessage
	}
}

func (env *taskEnv) send(ctx context.Context, method, params string) taskReply {
	env.t.Helper()
	env.ids++
	resp := env.d.Handle(ctx, []byte(req(fmt.Sprint(env.ids), method, params)))
	var r taskReply
	if err := json.Unmarshal(resp, &r); err != nil {
		env.t.Fatalf("%s: %v in %s", method, err, resp)
	}
	return r
}

// task is what the tests read of a CreateTaskResult or a tasks/get result.
type taskView struct {
	ResultType     string                     `json:"resultType"`
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage"`
	CreatedAt      string                     `json:"createdAt"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt"`
	TTLMs          *int64                     `json:"ttlMs"`
	PollIntervalMs *int64                     `json:"pollIntervalMs"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests"`
	Result         json.RawMessage            `json:"result"`
	Error          *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
	Meta map[string]json.RawMessage `json:"_meta"`
}

func (env *taskEnv) ok(r taskReply) taskView {
	env.t.Helper()
	if r.Error != nil {
		env.t.Fatalf("error %d %s", r.Error.Code, r.Error.Message)
	}
	var v taskView
	if err := json.Unmarshal(r.Result, &v); err != nil {
		env.t.Fatal(err)
	}
	return v
}

func (env *taskEnv) wantErr(r taskReply, code int64, part string) {
	env.t.Helper()
	if r.Error == nil {
		env.t.Fatalf("result %s, want error %d", r.Result, code)
	}
	if r.Error.Code != code || !strings.Contains(r.Error.Message, part) {
		env.t.Errorf("error %d %q, want %d containing %q", r.Error.Code, r.Error.Message, code, part)
	}
}

// create calls the tool and returns the CreateTaskResult.
func (env *taskEnv) create() taskView {
	env.t.Helper()
	v := env.ok(env.send(context.Background(), "tools/call", `{`+metaCaps(extCaps)+`,"name":"t"}`))
	if v.ResultType != "task" || v.TaskID == "" {
		env.t.Fatalf("not a CreateTaskResult: %+v", v)
	}
	return v
}

func (env *taskEnv) get(id string) taskView {
	env.t.Helper()
	return env.ok(env.send(context.Background(), "tasks/get", `{`+metaCaps(extCaps)+`,"taskId":`+quoteJSON(id)+`}`))
}

// await polls tasks/get until the task has status.
func (env *taskEnv) await(id, status string) taskView {
	env.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		v := env.get(id)
		if v.Status == status {
			return v
		}
		if time.Now().After(deadline) {
			env.t.Fatalf("task %s: status %s, want %s", id, v.Status, status)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (env *taskEnv) update(id, responses string) taskReply {
	return env.send(context.Background(), "tasks/update", `{`+metaCaps(extCaps)+`,"taskId":`+quoteJSON(id)+`,"inputResponses":`+responses+`}`)
}

func (env *taskEnv) cancel(id string) taskReply {
	return env.send(context.Background(), "tasks/cancel", `{`+metaCaps(extCaps)+`,"taskId":`+quoteJSON(id)+`}`)
}

func wantAck(t *testing.T, r taskReply) {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("error %d %s, want an acknowledgement", r.Error.Code, r.Error.Message)
	}
	if !codec.JSONEqual(r.Result, []byte(`{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"1"}}}`)) {
		t.Errorf("acknowledgement %s, want an empty complete result", r.Result)
	}
}

func TestTaskLifecycle(t *testing.T) {
	env := newTaskEnv(t, 0, time.Minute)
	release := make(chan struct{})
	env.run = func(ctx context.Context) (jsonrpc.Result, error) {
		<-release
		return jsonrpc.RawResult(`{"content":[{"type":"text","text":"done"}],"resultType":"complete"}`), nil
	}
	c := env.create()
	if c.Status != "working" || len(c.TaskID) != 22 || c.TTLMs == nil || *c.TTLMs != 60000 || c.PollIntervalMs == nil || *c.PollIntervalMs != 250 {
		t.Errorf("CreateTaskResult %+v", c)
	}
	if _, err := time.Parse(time.RFC3339Nano, c.CreatedAt); err != nil || c.CreatedAt != c.LastUpdatedAt {
		t.Errorf("createdAt %q, lastUpdatedAt %q: want equal ISO 8601 times (%v)", c.CreatedAt, c.LastUpdatedAt, err)
	}
	if c.Result != nil || c.Error != nil || c.InputRequests != nil || c.Meta["io.modelcontextprotocol/serverInfo"] == nil {
		t.Errorf("CreateTaskResult carries %+v", c)
	}
	// The task exists before the CreateTaskResult is sent.
	if g := env.get(c.TaskID); g.Status != "working" || g.ResultType != "complete" || g.TaskID != c.TaskID || g.Result != nil {
		t.Errorf("tasks/get right after creation: %+v", g)
	}
	close(release)
	g := env.await(c.TaskID, "completed")
	if !codec.JSONEqual(g.Result, []byte(`{"content":[{"type":"text","text":"done"}],"resultType":"complete"}`)) {
		t.Errorf("result %s", g.Result)
	}
	if g.Error != nil || g.StatusMessage != "" {
		t.Errorf("completed task: %+v", g)
	}
	// A finished task can still be cancelled: the same acknowledgement,
	// and it stays completed.
	wantAck(t, env.cancel(c.TaskID))
	if g := env.get(c.TaskID); g.Status != "completed" {
		t.Errorf("a completed task became %s", g.Status)
	}
	// Two tasks get different ids.
	hold := make(chan struct{})
	env.run = func(ctx context.Context) (jsonrpc.Result, error) { <-hold; return jsonrpc.RawResult(`{}`), nil }
	if a, b := env.create(), env.create(); a.TaskID == b.TaskID {
		t.Errorf("two tasks have the id %s", a.TaskID)
	}
	close(hold)
}

func TestTaskRequestErrors(t *testing.T) {
	env := newTaskEnv(t, 0, time.Minute)
	env.run = func(ctx context.Context) (jsonrpc.Result, error) { return jsonrpc.RawResult(`{}`), nil }
	ctx := context.Background()
	// A client without the extension gets no task, but the error that
	// names it.
	r := env.send(ctx, "tools/call", `{`+metaCaps(noExtCaps)+`,"name":"t"}`)
	env.wantErr(r, spec.CodeMissingRequiredClientCapability, "")
	if !codec.JSONEqual(r.Error.Data, []byte(`{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`)) {
		t.Errorf("data %s", r.Error.Data)
	}
	id := env.create().TaskID
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		env.wantErr(env.send(ctx, m, `{`+metaCaps(noExtCaps)+`,"taskId":`+quoteJSON(id)+`,"inputResponses":{}}`), spec.CodeMissingRequiredClientCapability, "")
		env.wantErr(env.send(ctx, m, `{"taskId":`+quoteJSON(id)+`}`), jsonrpc.CodeInvalidParams, `"_meta"`)
		env.wantErr(env.send(ctx, m, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"taskId":`+quoteJSON(id)+`}`), jsonrpc.CodeInvalidParams, "clientCapabilities")
		env.wantErr(env.send(ctx, m, `{`+metaCaps(extCaps)+`}`), jsonrpc.CodeInvalidParams, `"taskId"`)
		env.wantErr(env.send(ctx, m, `{`+metaCaps(extCaps)+`,"taskId":7}`), jsonrpc.CodeInvalidParams, "string")
		env.wantErr(env.send(ctx, m, `{`+metaCaps(extCaps)+`,"taskId":"nope","inputResponses":{}}`), jsonrpc.CodeInvalidParams, `no task "nope"`)
		env.wantErr(env.send(ctx, m, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01","io.modelcontextprotocol/clientCapabilities":`+extCaps+`},"taskId":"x"}`), spec.CodeUnsupportedProtocolVersion, "")
	}
	env.wantErr(env.update(id, `[]`), jsonrpc.CodeInvalidParams, "object")
	env.wantErr(env.send(ctx, "tasks/update", `{`+metaCaps(extCaps)+`,"taskId":`+quoteJSON(id)+`}`), jsonrpc.CodeInvalidParams, `"inputResponses"`)
	// The methods of the 2025-11-25 tasks are not served.
	for _, m := range []string{"tasks/result", "tasks/list"} {
		env.wantErr(env.send(ctx, m, `{`+metaCaps(extCaps)+`,"taskId":`+quoteJSON(id)+`}`), jsonrpc.CodeMethodNotFound, "")
	}
	// A task needs a function.
	run := env.run
	env.run = nil
	env.wantErr(env.send(ctx, "tools/call", `{`+metaCaps(extCaps)+`,"name":"t"}`), jsonrpc.CodeInternalError, "without a function")
	env.run = run
	// A task answers tools/call only.
	env.wantErr(env.send(ctx, "prompts/get", `{`+metaCaps(extCaps)+`,"name":"p"}`), jsonrpc.CodeInternalError, "RunAsTask answers tools/call requests, not prompts/get")
}

func TestTaskFailures(t *testing.T) {
	env := newTaskEnv(t, 0, time.Minute)
	cases := []struct {
		name string
		run  func(context.Context) (jsonrpc.Result, error)
		code int64
		msg  string
		data string
	}{
		{"jsonrpc.RPCError", func(context.Context) (jsonrpc.Result, error) {
			return nil, fmt.Errorf("wrapped: %w", &jsonrpc.RPCError{Code: -32000, Message: "backend down", Data: json.RawMessage(`{"retry":true}`)})
		}, -32000, "backend down", `{"retry":true}`},
		{"plain error", func(context.Context) (jsonrpc.Result, error) { return nil, errors.New("disk full") }, jsonrpc.CodeInternalError, "disk full", ""},
		{"panic", func(context.Context) (jsonrpc.Result, error) { panic("kaboom") }, jsonrpc.CodeInternalError, "the task panicked", ""},
		{"no result", func(context.Context) (jsonrpc.Result, error) { return nil, nil }, jsonrpc.CodeInternalError, "no result and no error", ""},
		{"NeedInput", func(context.Context) (jsonrpc.Result, error) {
			return nil, &InputRequired{Result: jsonrpc.RawResult(`{}`)}
		}, jsonrpc.CodeInternalError, "AwaitInput", ""},
		{"RunAsTask inside", func(ctx context.Context) (jsonrpc.Result, error) {
			return nil, RunAsTask(ctx, "tools/call", func(context.Context) (jsonrpc.Result, error) { return jsonrpc.RawResult(`{}`), nil })
		}, jsonrpc.CodeInternalError, "inside a task", ""},
		{"result that cannot be encoded", func(context.Context) (jsonrpc.Result, error) {
			return badResult{}, nil
		}, jsonrpc.CodeInternalError, "cannot encode", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env.t = t
			env.run = c.run
			g := env.await(env.create().TaskID, "failed")
			if g.Error == nil || g.Error.Code != c.code || !strings.Contains(g.Error.Message, c.msg) || g.Result != nil {
				t.Fatalf("failed task %+v; want error %d %q", g, c.code, c.msg)
			}
			if (c.data == "") != (g.Error.Data == nil) || c.data != "" && !codec.JSONEqual(g.Error.Data, []byte(c.data)) {
				t.Errorf("error data %s, want %s", g.Error.Data, c.data)
			}
			if !strings.Contains(g.StatusMessage, c.msg) {
				t.Errorf("statusMessage %q does not say why", g.StatusMessage)
			}
		})
	}
	env.mu.Lock()
	defer env.mu.Unlock()
	if len(env.logs) != 1 || !strings.Contains(env.logs[0], "panic in task") || !strings.Contains(env.logs[0], "kaboom") {
		t.Errorf("logs %q, want the panic", env.logs)
	}
}

type badResult struct{}

func (badResult) EncodeJSON(e *codec.Encoder) { e.Fail("no JSON form") }

func TestTaskCancel(t *testing.T) {
	env := newTaskEnv(t, 0, time.Minute)
	ended := make(chan error, 1)
	env.run = func(ctx context.Context) (jsonrpc.Result, error) {
		<-ctx.Done()
		ended <- ctx.Err()
		return jsonrpc.RawResult(`{"late":true}`), nil
	}
	id := env.create().TaskID
	wantAck(t, env.cancel(id))
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the task's context ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling did not cancel the task's context")
	}
	g := env.get(id)
	if g.Status != "cancelled" || g.Result != nil || g.StatusMessage == "" {
		t.Errorf("cancelled task %+v", g)
	}
	// The function's late result does not change a cancelled task.
	time.Sleep(20 * time.Millisecond)
	if g := env.get(id); g.Status != "cancelled" || g.Result != nil {
		t.Errorf("after the function returned: %+v", g)
	}
	wantAck(t, env.cancel(id))
}

func TestTaskInput(t *testing.T) {
	env := newTaskEnv(t, 0, time.Minute)
	form := `{"method":"elicitation/create","params":{"mode":"form","message":"n?","requestedSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}}`
	roots := `{"method":"roots/list"}`
	env.run = func(ctx context.Context) (jsonrpc.Result, error) {
		got, err := AwaitTaskInput(ctx, []byte(`{"b":`+roots+`,"a":`+form+`}`))
		if err != nil {
			return nil, err
		}
		// A key names one request over the task's life.
		if _, err := AwaitTaskInput(ctx, []byte(`{"a":`+form+`}`)); err == nil || !strings.Contains(err.Error(), "used before") {
			return nil, fmt.Errorf("reusing a key: %v", err)
		}
		return jsonrpc.RawResult(`{"answers":` + string(got) + `}`), nil
	}
	// Only the creating request's capabilities count: roots were not
	// declared.
	r := env.send(context.Background(), "tools/call", `{`+metaCaps(extCaps)+`,"name":"t"}`)
	id := env.ok(r).TaskID
	g := env.await(id, "failed")
	if g.Error.Code != spec.CodeMissingRequiredClientCapability || !codec.JSONEqual(g.Error.Data, []byte(`{"requiredCapabilities":{"roots":{}}}`)) {
		t.Errorf("input the client cannot give: %+v %s", g.Error, g.Error.Data)
	}

	caps := `{"extensions":{"io.modelcontextprotocol/tasks":{}},"elicitation":{},"roots":{}}`
	id = env.ok(env.send(context.Background(), "tools/call", `{`+metaCaps(caps)+`,"name":"t"}`)).TaskID
	g = env.await(id, "input_required")
	if len(g.InputRequests) != 2 || !codec.JSONEqual(g.InputRequests["a"], []byte(form)) || !codec.JSONEqual(g.InputRequests["b"], []byte(roots)) {
		t.Fatalf("inputRequests %v", g.InputRequests)
	}
	// Answers to keys the task does not wait for are ignored.
	wantAck(t, env.update(id, `{"zzz":{"ignored":true}}`))
	if g := env.get(id); len(g.InputRequests) != 2 {
		t.Errorf("after an unknown key: %v", g.InputRequests)
	}
	// An answer that does not match its request is refused, and nothing
	// of the update is taken.
	env.wantErr(env.update(id, `{"a":{"action":"accept","content":{"n":"seven"}},"b":{"roots":[]}}`), jsonrpc.CodeInvalidParams, "requestedSchema")
	env.wantErr(env.update(id, `{"b":{"nope":1}}`), jsonrpc.CodeInvalidParams, "")
	if g := env.get(id); len(g.InputRequests) != 2 || g.Status != "input_required" {
		t.Errorf("after refused answers: %s %v", g.Status, g.InputRequests)
	}
	// A partial answer leaves the other request waiting.
	wantAck(t, env.update(id, `{"a":{"action":"accept","content":{"n":7}}}`))
	g = env.get(id)
	if g.Status != "input_required" || len(g.InputRequests) != 1 || g.InputRequests["b"] == nil || !strings.Contains(g.StatusMessage, "b") {
		t.Errorf("after a partial answer: %+v", g)
	}
	// The answered key is no longer waited for: answering it again is
	// ignored.
	wantAck(t, env.update(id, `{"a":{"action":"decline"},"b":{"roots":[{"uri":"file:///r"}]}}`))
	g = env.await(id, "completed")
	want := `{"answers":{"a":{"action":"accept","content":{"n":7}},"b":{"roots":[{"uri":"file:///r"}]}}}`
	if !codec.JSONEqual(g.Result, []byte(want)) {
		t.Errorf("result %s, want %s", g.Result, want)
	}
	// An update of a task that waits for nothing is acknowledged.
	wantAck(t, env.update(id, `{"a":{"action":"accept","content":{"n":1}}}`))

	// Outside a task there is nothing to wait on.
	if _, err := AwaitTaskInput(context.Background(), []byte(`{"a":`+form+`}`)); err == nil {
		t.Error("awaitTaskInput outside a task succeeded")
	}
}

// TestTaskInputCancelled: a task waiting for input ends when cancelled.
func TestTaskInputCancelled(t *testing.T) {
	env := newTaskEnv(t, 0, time.Minute)
	ended := make(chan error, 1)
	env.run = func(ctx context.Context) (jsonrpc.Result, error) {
		_, err := AwaitTaskInput(ctx, []byte(`{"a":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}}`))
		ended <- err
		return nil, err
	}
	id := env.create().TaskID
	env.await(id, "input_required")
	wantAck(t, env.cancel(id))
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("AwaitInput returned %v", err)
	}
	if g := env.get(id); g.Status != "cancelled" || g.InputRequests != nil {
		t.Errorf("%+v", g)
	}
}

func TestTaskExpiryAndCap(t *testing.T) {
	env := newTaskEnv(t, 2, time.Minute)
	ended := make(chan error, 3)
	env.run = func(ctx context.Context) (jsonrpc.Result, error) {
		<-ctx.Done()
		ended <- ctx.Err()
		return nil, ctx.Err()
	}
	a := env.create().TaskID
	env.advance(30 * time.Second)
	b := env.create().TaskID
	// The store is full.
	env.wantErr(env.send(context.Background(), "tools/call", `{`+metaCaps(extCaps)+`,"name":"t"}`), jsonrpc.CodeInternalError, "as many tasks")
	// Within its ttl a task stays; after it, it is gone and its function
	// cancelled.
	env.advance(31 * time.Second)
	env.wantErr(env.send(context.Background(), "tasks/get", `{`+metaCaps(extCaps)+`,"taskId":`+quoteJSON(a)+`}`), jsonrpc.CodeInvalidParams, "has expired")
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the expired task's context ended with %v", err)
	}
	env.wantErr(env.send(context.Background(), "tasks/get", `{`+metaCaps(extCaps)+`,"taskId":`+quoteJSON(a)+`}`), jsonrpc.CodeInvalidParams, "no task")
	if g := env.get(b); g.Status != "working" {
		t.Errorf("task b: %+v", g)
	}
	// Creating a task drops the expired ones first.
	env.advance(time.Minute)
	env.create()
	env.create()
	n := env.s.shared.(*MemoryTasks).len()
	if n != 2 {
		t.Errorf("%d tasks held, want 2", n)
	}
}

func TestTaskPrincipal(t *testing.T) {
	env := newTaskEnv(t, 0, time.Minute)
	env.run = func(ctx context.Context) (jsonrpc.Result, error) { return jsonrpc.RawResult(`{}`), nil }
	alice := context.WithValue(context.Background(), principalKey{}, "alice")
	bob := context.WithValue(context.Background(), principalKey{}, "bob")
	id := env.ok(env.send(alice, "tools/call", `{`+metaCaps(extCaps)+`,"name":"t"}`)).TaskID
	get := `{` + metaCaps(extCaps) + `,"taskId":` + quoteJSON(id) + `}`
	env.ok(env.send(alice, "tasks/get", get))
	for _, m := range []string{"tasks/get", "tasks/cancel"} {
		env.wantErr(env.send(bob, m, get), jsonrpc.CodeInvalidParams, "no task")
	}
}

func TestTaskShutdown(t *testing.T) {
	env := newTaskEnv(t, 0, time.Minute)
	env.run = func(ctx context.Context) (jsonrpc.Result, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	id := env.create().TaskID
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := env.s.shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if g := env.get(id); g.Status != "cancelled" {
		t.Errorf("after shutdown: %+v", g)
	}
	env.wantErr(env.send(context.Background(), "tools/call", `{`+metaCaps(extCaps)+`,"name":"t"}`), jsonrpc.CodeInternalError, "shutting down")
	// A function that ignores its context holds Shutdown until its
	// context ends.
	env2 := newTaskEnv(t, 0, time.Minute)
	release := make(chan struct{})
	env2.run = func(context.Context) (jsonrpc.Result, error) { <-release; return jsonrpc.RawResult(`{}`), nil }
	env2.create()
	short, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	if err := env2.s.shutdown(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("shutdown with a stuck task: %v", err)
	}
	close(release)
}

// TestTaskContext: a task's function keeps the request's values, not its
// cancellation, and sends no notifications.
func TestTaskContext(t *testing.T) {
	env := newTaskEnv(t, 0, time.Minute)
	type key struct{}
	got := make(chan string, 1)
	env.run = func(ctx context.Context) (jsonrpc.Result, error) {
		v, _ := ctx.Value(key{}).(string)
		err := SendNotification(ctx, "notifications/message", nil)
		got <- fmt.Sprintf("%s %v %v", v, jsonrpc.RequestFromContext(ctx).Method, err != nil && strings.Contains(err.Error(), "no response stream"))
		return jsonrpc.RawResult(`{}`), nil
	}
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "value"))
	env.ok(env.send(ctx, "tools/call", `{`+metaCaps(extCaps)+`,"name":"t"}`))
	cancel()
	if s := <-got; s != "value tools/call true" {
		t.Errorf("in the task: %s", s)
	}
}

// TestTaskHTTP: over HTTP, the tasks methods carry the taskId in Mcp-Name.
func TestTaskHTTP(t *testing.T) {
	env := newTaskEnv(t, 0, time.Minute)
	env.run = func(ctx context.Context) (jsonrpc.Result, error) { return jsonrpc.RawResult(`{}`), nil }
	srv := httptest.NewServer(NewHTTPHandler(env.d, HTTPOptions{}))
	t.Cleanup(srv.Close)
	id := env.create().TaskID
	body := req("1", "tasks/get", `{`+metaCaps(extCaps)+`,"taskId":`+quoteJSON(id)+`}`)
	wantOK(t, post(t, srv.URL, body, hdrs("tasks/get", id)), "")
	wantError(t, post(t, srv.URL, body, hdrs("tasks/get", "other")), http.StatusBadRequest, spec.CodeHeaderMismatch, "Mcp-Name")
	wantError(t, post(t, srv.URL, body, hdrs("tasks/get", "")), http.StatusBadRequest, spec.CodeHeaderMismatch, "missing")
	wantError(t, post(t, srv.URL, body, hdrs("tasks/cancel", id)), http.StatusBadRequest, spec.CodeHeaderMismatch, "Mcp-Method")
	wantError(t, post(t, srv.URL, req("2", "tasks/get", `{`+metaCaps(extCaps)+`,"taskId":"nope"}`), hdrs("tasks/get", "nope")), http.StatusBadRequest, jsonrpc.CodeInvalidParams, "no task")
	wantError(t, post(t, srv.URL, req("3", "tasks/get", `{`+metaCaps(noExtCaps)+`,"taskId":"x"}`), hdrs("tasks/get", "x")), http.StatusBadRequest, spec.CodeMissingRequiredClientCapability, "")
}

// TestAttachTasksConflicts: a store serves one dispatcher, and the tasks
// methods are its own.
func TestAttachTasksConflicts(t *testing.T) {
	panics := func(f func()) (msg string) {
		defer func() { msg = fmt.Sprint(recover()) }()
		f()
		return ""
	}
	s := newTaskStore(0, 0, 0)
	d1 := &Core{Dispatcher: jsonrpc.Dispatcher{Methods: map[string]*jsonrpc.Method{}}}
	d1.AttachTasks(&s, nil, nil)
	d2 := &Core{Dispatcher: jsonrpc.Dispatcher{Methods: map[string]*jsonrpc.Method{}}}
	if m := panics(func() { d2.AttachTasks(&s, nil, nil) }); !strings.Contains(m, "another dispatcher") {
		t.Errorf("a store on two dispatchers: %q", m)
	}
	s2 := newTaskStore(0, 0, 0)
	d3 := &Core{Dispatcher: jsonrpc.Dispatcher{Methods: map[string]*jsonrpc.Method{"tasks/get": {}}}}
	if m := panics(func() { d3.AttachTasks(&s2, nil, nil) }); !strings.Contains(m, "served by ServerOptions.Tasks") {
		t.Errorf("tasks/get as an extension method too: %q", m)
	}
	if s.max != defaultMaxTasks || s.ttl != defaultTaskTTL || s.poll != defaultPollInterval {
		t.Errorf("defaults %d %v %v", s.max, s.ttl, s.poll)
	}
}

func TestWithExtension(t *testing.T) {
	type raw []byte
	m := map[string]raw{"a": raw(`{"x":1}`)}
	got := WithExtension(m, "b")
	if len(m) != 1 || len(got) != 2 || string(got["b"]) != "{}" || string(got["a"]) != `{"x":1}` {
		t.Errorf("withExtension: %v -> %v", m, got)
	}
	if got2 := WithExtension(got, "b"); len(got2) != 2 {
		t.Errorf("adding twice: %v", got2)
	}
	if got := WithExtension(map[string]raw(nil), "b"); string(got["b"]) != "{}" {
		t.Errorf("nil map: %v", got)
	}
}
