package protocol

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// Replicas sharing one SharedTasks (here a MemoryTasks, as replicas in one
// process would; the replicas module runs the same against Redis): a task
// created through one is read, answered and cancelled through the others,
// and a task whose replica stopped is reported failed.

const testLease = 300 * time.Millisecond

func newReplicaEnv(t *testing.T, m SharedTasks, replica string) *taskEnv {
	env := newTaskEnv(t, 0, time.Minute)
	env.s.shared, env.s.private, env.s.replica, env.s.lease = m, false, replica, testLease
	return env
}

func TestSharedTasksInputAcrossReplicas(t *testing.T) {
	m := NewMemoryTasks()
	a, b, c := newReplicaEnv(t, m, "a"), newReplicaEnv(t, m, "b"), newReplicaEnv(t, m, "c")
	form := `{"method":"elicitation/create","params":{"mode":"form","message":"n?","requestedSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}}`
	roots := `{"method":"roots/list"}`
	ran := make(chan string, 1)
	a.run = func(ctx context.Context) (jsonrpc.Result, error) {
		ran <- "a"
		got, err := AwaitTaskInput(ctx, []byte(`{"a":`+form+`,"b":`+roots+`}`))
		if err != nil {
			return nil, err
		}
		return jsonrpc.RawResult(`{"answers":` + string(got) + `}`), nil
	}
	b.run = func(context.Context) (jsonrpc.Result, error) { return nil, errors.New("b runs nothing") }
	c.run = b.run
	caps := `{"extensions":{"io.modelcontextprotocol/tasks":{}},"elicitation":{},"roots":{}}`
	id := a.ok(a.send(context.Background(), "tools/call", `{`+metaCaps(caps)+`,"name":"t"}`)).TaskID
	// Creation is strongly consistent: another replica finds it at once.
	if g := b.get(id); g.TaskID != id || g.Status == "" {
		t.Fatalf("replica b reads %+v", g)
	}
	if r := <-ran; r != "a" {
		t.Fatalf("the function ran on %s", r)
	}
	g := b.await(id, "input_required")
	if len(g.InputRequests) != 2 || !codec.JSONEqual(g.InputRequests["a"], []byte(form)) {
		t.Fatalf("replica b sees inputRequests %v", g.InputRequests)
	}
	// An answer that does not match its request is refused on b as on a.
	b.wantErr(b.update(id, `{"a":{"action":"accept","content":{"n":"seven"}}}`), jsonrpc.CodeInvalidParams, "requestedSchema")
	// Part of the answers through b, the rest through c.
	wantAck(t, b.update(id, `{"a":{"action":"accept","content":{"n":7}}}`))
	if g := c.get(id); g.Status != "input_required" || len(g.InputRequests) != 1 || g.InputRequests["b"] == nil {
		t.Fatalf("after a partial answer through b, c sees %s %v", g.Status, g.InputRequests)
	}
	wantAck(t, c.update(id, `{"b":{"roots":[]}}`))
	g = c.await(id, "completed")
	if !codec.JSONEqual(g.Result, []byte(`{"answers":{"a":{"action":"accept","content":{"n":7}},"b":{"roots":[]}}}`)) {
		t.Errorf("result %s", g.Result)
	}
	if g := a.get(id); g.Status != "completed" {
		t.Errorf("the creating replica reads %s", g.Status)
	}
}

func TestSharedTasksCancelAcrossReplicas(t *testing.T) {
	m := NewMemoryTasks()
	a, b := newReplicaEnv(t, m, "a"), newReplicaEnv(t, m, "b")
	ended := make(chan error, 1)
	a.run = func(ctx context.Context) (jsonrpc.Result, error) {
		<-ctx.Done()
		ended <- ctx.Err()
		return jsonrpc.RawResult(`{"late":true}`), nil
	}
	id := a.create().TaskID
	start := time.Now()
	wantAck(t, b.cancel(id))
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the task's context ended with %v", err)
		}
		if d := time.Since(start); d > testLease {
			t.Errorf("the cancellation took %v to reach the replica running the task, more than the lease %v", d, testLease)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a cancellation through b does not reach the function on a")
	}
	for _, env := range []*taskEnv{a, b} {
		if g := env.get(id); g.Status != "cancelled" || g.Result != nil {
			t.Errorf("after the cancel: %+v", g)
		}
	}
	// The ack is the same for a finished task, and its status stays.
	wantAck(t, a.cancel(id))
}

// TestSharedTasksOwnerStopped: a task whose replica no longer says it is
// alive is failed by the replica that reads it, once; the task of a live
// replica is not.
func TestSharedTasksOwnerStopped(t *testing.T) {
	m := NewMemoryTasks()
	a, b := newReplicaEnv(t, m, "a"), newReplicaEnv(t, m, "b")
	release := make(chan struct{})
	a.run = func(ctx context.Context) (jsonrpc.Result, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return jsonrpc.RawResult(`{}`), nil
	}
	defer close(release)
	live := a.create().TaskID
	// What a replica that was killed leaves: a working task whose owner
	// beat once and then stopped.
	now := time.Now()
	if err := m.Beat(context.Background(), "ghost", testLease); err != nil {
		t.Fatal(err)
	}
	ghost := &TaskRecord{ID: newTaskID(), Method: "tools/call", Owner: "ghost", Status: taskWorking, Created: now, Updated: now, Expires: now.Add(time.Minute)}
	if err := m.Create(context.Background(), ghost, 10, now); err != nil {
		t.Fatal(err)
	}
	if g := b.get(ghost.ID); g.Status != "working" {
		t.Fatalf("within the lease: %s", g.Status)
	}
	time.Sleep(testLease + 50*time.Millisecond)
	g := b.get(ghost.ID)
	if g.Status != "failed" || g.Error == nil || g.Error.Code != jsonrpc.CodeInternalError || !strings.Contains(g.Error.Message, "replica running the task stopped") {
		t.Fatalf("after the lease: %+v", g)
	}
	if g := a.get(ghost.ID); g.Status != "failed" {
		t.Errorf("replica a reads %s", g.Status)
	}
	// a beats while it runs its task: b does not fail it.
	if g := b.get(live); g.Status != "working" {
		t.Errorf("the task of a live replica: %s %+v", g.Status, g.Error)
	}
}
