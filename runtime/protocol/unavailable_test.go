package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// flakyTasks is a MemoryTasks that can be out (every call fails with an
// Unavailable, as the Redis store's do while Redis is down) or slow to
// create (a store reconnecting).
type flakyTasks struct {
	*MemoryTasks
	down        atomic.Bool
	createDelay atomic.Int64 // ns
}

var errDown = &Unavailable{What: "the test store", RetryAfter: 1500 * time.Millisecond, Err: errors.New("connection refused")}

func (f *flakyTasks) err() error {
	if f.down.Load() {
		return errDown
	}
	return nil
}

func (f *flakyTasks) Create(ctx context.Context, t *TaskRecord, max int, now time.Time) error {
	time.Sleep(time.Duration(f.createDelay.Load()))
	if err := f.err(); err != nil {
		return err
	}
	return f.MemoryTasks.Create(ctx, t, max, now)
}

func (f *flakyTasks) Get(ctx context.Context, id string) (*TaskRecord, error) {
	if err := f.err(); err != nil {
		return nil, err
	}
	return f.MemoryTasks.Get(ctx, id)
}

func (f *flakyTasks) Update(ctx context.Context, id string, fn func(*TaskRecord) bool) (*TaskRecord, error) {
	if err := f.err(); err != nil {
		return nil, err
	}
	return f.MemoryTasks.Update(ctx, id, fn)
}

func (f *flakyTasks) Beat(ctx context.Context, replica string, lease time.Duration) error {
	if err := f.err(); err != nil {
		return err
	}
	return f.MemoryTasks.Beat(ctx, replica, lease)
}

func (f *flakyTasks) Alive(ctx context.Context, replica string) (bool, error) {
	if err := f.err(); err != nil {
		return false, err
	}
	return f.MemoryTasks.Alive(ctx, replica)
}

// TestUnavailableStore: while the shared task store is out, the requests
// that need it fail at once with a retryable error (-32603 with
// retryAfterMs; over HTTP 503 with Retry-After), the function of a task
// that ends meanwhile has its outcome recorded once the store is back, and
// everything works again then.
func TestUnavailableStore(t *testing.T) {
	f := &flakyTasks{MemoryTasks: NewMemoryTasks()}
	env := newReplicaEnv(t, f, "a")
	release := make(chan struct{})
	env.run = func(ctx context.Context) (jsonrpc.Result, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return jsonrpc.RawResult(`{"done":true}`), nil
	}
	running := env.create().TaskID
	f.down.Store(true)
	close(release) // the task ends while the store is out

	// JSON-RPC: -32603 with data {"retryAfterMs":1500}.
	for _, r := range []taskReply{
		env.send(context.Background(), "tools/call", `{`+metaCaps(extCaps)+`,"name":"t"}`),
		env.send(context.Background(), "tasks/get", `{`+metaCaps(extCaps)+`,"taskId":`+quoteJSON(running)+`}`),
		env.cancel(running),
	} {
		env.wantErr(r, jsonrpc.CodeInternalError, "unavailable: the task store cannot be reached")
		var data map[string]int64
		if err := json.Unmarshal(r.Error.Data, &data); err != nil || data[spec.DataRetryAfterMs] != 1500 {
			t.Errorf("data %s, want {%q:1500}", r.Error.Data, spec.DataRetryAfterMs)
		}
	}
	// Streamable HTTP: 503 with Retry-After (whole seconds, rounded up).
	srv := httptest.NewServer(NewHTTPHandler(env.d, HTTPOptions{}))
	t.Cleanup(srv.Close)
	body := req("9", "tasks/get", `{`+metaCaps(extCaps)+`,"taskId":`+quoteJSON(running)+`}`)
	r := post(t, srv.URL, body, hdrs("tasks/get", running))
	wantError(t, r, http.StatusServiceUnavailable, jsonrpc.CodeInternalError, "unavailable")
	if ra := r.header.Get("Retry-After"); ra != "2" {
		t.Errorf("Retry-After %q, want 2", ra)
	}

	// Back: the outcome recorded meanwhile, new tasks work.
	time.Sleep(testLease / 2)
	f.down.Store(false)
	if g := env.await(running, "completed"); string(g.Result) != `{"done":true}` {
		t.Errorf("result %s", g.Result)
	}
	env.run = func(ctx context.Context) (jsonrpc.Result, error) { return jsonrpc.RawResult(`{}`), nil }
	env.await(env.create().TaskID, "completed")
}

// TestTaskCreatedWhileWatching: a task whose creation in the shared store
// takes long (the store reconnecting) is not cancelled by the loop that
// watches the replica's other tasks, which does not find it there yet.
func TestTaskCreatedWhileWatching(t *testing.T) {
	f := &flakyTasks{MemoryTasks: NewMemoryTasks()}
	env := newReplicaEnv(t, f, "a")
	env.run = func(ctx context.Context) (jsonrpc.Result, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	env.create()                          // the watch loop runs while this one does
	f.createDelay.Store(int64(testLease)) // three ticks of the loop
	ended := make(chan error, 1)
	env.run = func(ctx context.Context) (jsonrpc.Result, error) {
		select {
		case <-ctx.Done():
			ended <- ctx.Err()
			return nil, ctx.Err()
		case <-time.After(testLease):
			ended <- nil
			return jsonrpc.RawResult(`{"ok":true}`), nil
		}
	}
	id := env.create().TaskID
	if err := <-ended; err != nil {
		t.Fatalf("the new task's context ended: %v", err)
	}
	if g := env.await(id, "completed"); string(g.Result) != `{"ok":true}` {
		t.Errorf("%+v", g)
	}
}

// TestMaxTasksCountsRunning: MaxTasks bounds the tasks that run, not the
// finished ones kept until their ttl.
func TestMaxTasksCountsRunning(t *testing.T) {
	env := newTaskEnv(t, 1, time.Hour)
	env.run = func(ctx context.Context) (jsonrpc.Result, error) { return jsonrpc.RawResult(`{}`), nil }
	for range 3 {
		env.await(env.create().TaskID, "completed")
	}
	block := make(chan struct{})
	defer close(block)
	env.run = func(ctx context.Context) (jsonrpc.Result, error) { <-block; return jsonrpc.RawResult(`{}`), nil }
	env.create()
	env.wantErr(env.send(context.Background(), "tools/call", `{`+metaCaps(extCaps)+`,"name":"t"}`), jsonrpc.CodeInternalError, "as many tasks")

	// 10,000 finished tasks within their ttl do not block a new one.
	m := NewMemoryTasks()
	ctx := context.Background()
	now := time.Now()
	for i := range 10000 {
		r := &TaskRecord{ID: "t" + strconv.Itoa(i), Status: taskWorking, Created: now, Expires: now.Add(time.Hour)}
		if err := m.Create(ctx, r, 100, now); err != nil {
			t.Fatalf("task %d: %v", i, err)
		}
		if _, err := m.Update(ctx, r.ID, func(r *TaskRecord) bool { r.Status = taskCompleted; return true }); err != nil {
			t.Fatal(err)
		}
	}
	if n := m.len(); n != 10000 {
		t.Fatalf("%d tasks kept, want 10000", n)
	}
	if err := m.Create(ctx, &TaskRecord{ID: "new", Status: taskWorking, Created: now, Expires: now.Add(time.Hour)}, 100, now); err != nil {
		t.Errorf("a new task after 10,000 finished ones: %v", err)
	}
	// Running ones count.
	for i := range 99 {
		if err := m.Create(ctx, &TaskRecord{ID: "run" + strconv.Itoa(i), Status: taskWorking, Created: now, Expires: now.Add(time.Hour)}, 100, now); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Create(ctx, &TaskRecord{ID: "over", Status: taskWorking, Created: now, Expires: now.Add(time.Hour)}, 100, now); !errors.Is(err, ErrTasksFull) {
		t.Errorf("the 101st running task: %v, want ErrTasksFull", err)
	}
}
