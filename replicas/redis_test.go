package replicas

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/replicas/internal/testinfra"
	"github.com/mcpgen/mcpgen/runtime/protocol"
	"github.com/redis/go-redis/v9"
)

// The Redis stores against a real redis-server (started on a free port of
// 127.0.0.1 and stopped by the test; the test fails when redis-server is
// not installed).

func startRedis(t testing.TB, aof bool) (*testinfra.Redis, *redis.Client) {
	t.Helper()
	r := testinfra.StartRedis(t, testinfra.RedisOptions{AppendOnly: aof})
	c := redis.NewClient(ClientOptions(r.Addr))
	t.Cleanup(func() { c.Close() })
	return r, c
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func record(id string, now time.Time, ttl time.Duration) *protocol.TaskRecord {
	return &protocol.TaskRecord{ID: id, Method: "tools/call", Owner: "a", Status: "working", Created: now, Updated: now, Expires: now.Add(ttl), Meta: []byte(`{"_meta":{}}`)}
}

func TestTasksStore(t *testing.T) {
	_, c := startRedis(t, false)
	ctx := ctxT(t)
	s := NewTasks(c, Options{Prefix: "t1:", MaxRecordBytes: 4096})
	other := NewTasks(c, Options{Prefix: "t2:"}) // another server on the same Redis
	now := time.Now()

	if err := s.Create(ctx, record("x", now, time.Minute), 2, now); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, record("x", now, time.Minute), 2, now); err == nil {
		t.Error("a second task with the same id was stored")
	}
	got, err := s.Get(ctx, "x")
	if err != nil || got == nil || got.ID != "x" || got.Status != "working" || string(got.Meta) != `{"_meta":{}}` || !got.Expires.Equal(now.Add(time.Minute).Round(0)) && got.Expires.UnixMilli() != now.Add(time.Minute).UnixMilli() {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	if got, err := other.Get(ctx, "x"); got != nil || err != nil {
		t.Errorf("another prefix sees the task: %+v %v", got, err)
	}
	if got, err := s.Get(ctx, "nope"); got != nil || err != nil {
		t.Errorf("unknown id: %+v %v", got, err)
	}
	// The bound counts unexpired tasks.
	if err := s.Create(ctx, record("y", now, 200*time.Millisecond), 2, now); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, record("z", now, time.Minute), 2, now); err != protocol.ErrTasksFull {
		t.Fatalf("a third task with max 2: %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	later := time.Now()
	if got, _ := s.Get(ctx, "y"); got != nil {
		t.Errorf("the expired task is still stored: %+v", got)
	}
	if err := s.Create(ctx, record("z", later, time.Minute), 2, later); err != nil {
		t.Fatalf("once a task expired there is room: %v", err)
	}
	if n, _ := s.count(ctx, later); n != 2 {
		t.Errorf("index holds %d tasks, want 2", n)
	}
	// Too large a record is refused, and the stored one stays.
	if _, err := s.Update(ctx, "x", func(r *protocol.TaskRecord) bool {
		r.Result = []byte(`"` + strings.Repeat("a", 5000) + `"`)
		return true
	}); err == nil || !strings.Contains(err.Error(), "MaxRecordBytes") {
		t.Errorf("an oversized record: %v", err)
	}
	// Update leaves the record when fn says so, and a missing one is nil.
	if r, err := s.Update(ctx, "x", func(*protocol.TaskRecord) bool { return false }); err != nil || r == nil || r.Result != nil {
		t.Errorf("Update without a change: %+v %v", r, err)
	}
	if r, err := s.Update(ctx, "nope", func(*protocol.TaskRecord) bool { t.Error("fn called for no task"); return true }); r != nil || err != nil {
		t.Errorf("Update of no task: %+v %v", r, err)
	}
	// Concurrent updates from two clients (two replicas) lose nothing.
	c2 := redis.NewClient(ClientOptions(c.Options().Addr))
	defer c2.Close()
	s2 := NewTasks(c2, Options{Prefix: "t1:"})
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := s
			if i%2 == 1 {
				st = s2
			}
			if _, err := st.Update(ctx, "x", func(r *protocol.TaskRecord) bool {
				r.Used = append(r.Used, strconv.Itoa(i))
				return true
			}); err != nil {
				t.Errorf("update %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if r, _ := s.Get(ctx, "x"); len(r.Used) != 40 {
		t.Errorf("after 40 concurrent updates the record has %d of them", len(r.Used))
	}
	// The key keeps its expiry through updates.
	if ttl := c.PTTL(ctx, "t1:task:x").Val(); ttl <= 0 || ttl > time.Minute {
		t.Errorf("the task's key has ttl %v after updates", ttl)
	}
	if err := s.Delete(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.Get(ctx, "x"); r != nil {
		t.Error("deleted task still there")
	}
	// Liveness: a beat lasts its lease, while other replicas beat.
	const lease = 300 * time.Millisecond
	if err := s.Beat(ctx, "a", lease); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s2.Alive(ctx, "a"); !ok {
		t.Error("a replica that just beat is not alive")
	}
	// beatC beats as replica c (a live replica) every quarter lease for d.
	beatC := func(d time.Duration) {
		for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(lease / 4) {
			if err := s2.Beat(ctx, "c", lease); err != nil {
				t.Fatal(err)
			}
		}
	}
	beatC(lease + lease/2)
	if ok, _ := s2.Alive(ctx, "a"); ok {
		t.Error("a replica is alive past its lease while others beat")
	}
	if ok, _ := s2.Alive(ctx, "b"); ok {
		t.Error("a replica that never beat is alive")
	}
	if ok, _ := s2.Alive(ctx, "c"); !ok {
		t.Error("a replica that beats is not alive")
	}
	// A gap in the beats of all replicas (as while Redis is out): for a
	// lease after, every replica is taken for alive, so that one that has
	// not beaten again yet keeps its tasks; then the silent ones are dead.
	time.Sleep(lease)
	if ok, _ := s2.Alive(ctx, "a"); !ok {
		t.Error("no replica beat for a lease, yet a is found dead")
	}
	if err := s2.Beat(ctx, "c", lease); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s2.Alive(ctx, "a"); !ok {
		t.Error("just after the gap, a is found dead")
	}
	beatC(lease + lease/4)
	if ok, _ := s2.Alive(ctx, "a"); ok {
		t.Error("a lease after the gap, the silent replica a is still alive")
	}
}

// TestMaxTasksRedis: the bound counts running tasks; 10,000 finished ones
// within their ttl do not block a new one.
func TestMaxTasksRedis(t *testing.T) {
	_, c := startRedis(t, false)
	ctx := ctxT(t)
	s := NewTasks(c, Options{})
	now := time.Now()
	const finished = 10000
	for i := range finished {
		id := "f" + strconv.Itoa(i)
		if err := s.Create(ctx, record(id, now, time.Hour), 10, now); err != nil {
			t.Fatalf("task %d: %v", i, err)
		}
		if _, err := s.Update(ctx, id, func(r *protocol.TaskRecord) bool { r.Status = "completed"; return true }); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.Eval(ctx, "return #redis.call('KEYS', 'mcp:task:*')", nil).Val(); n != int64(finished) {
		t.Fatalf("%v task records kept, want %d", n, finished)
	}
	for i := range 10 {
		if err := s.Create(ctx, record("r"+strconv.Itoa(i), now, time.Hour), 10, now); err != nil {
			t.Fatalf("running task %d after %d finished ones: %v", i, finished, err)
		}
	}
	if err := s.Create(ctx, record("over", now, time.Hour), 10, now); err != protocol.ErrTasksFull {
		t.Errorf("an 11th running task: %v, want ErrTasksFull", err)
	}
}

// TestUnavailable: while Redis is down every call fails at once with a
// protocol.Unavailable, and the first call after it is back works.
func TestUnavailable(t *testing.T) {
	r, c := startRedis(t, true)
	ctx := ctxT(t)
	s := NewTasks(c, Options{})
	now := time.Now()
	if err := s.Create(ctx, record("x", now, time.Hour), 10, now); err != nil {
		t.Fatal(err)
	}
	r.Stop(5 * time.Second)
	calls := map[string]func() error{
		"create": func() error { return s.Create(ctx, record("y", now, time.Hour), 10, now) },
		"get":    func() error { _, err := s.Get(ctx, "x"); return err },
		"update": func() error {
			_, err := s.Update(ctx, "x", func(*protocol.TaskRecord) bool { return true })
			return err
		},
		"beat":  func() error { return s.Beat(ctx, "a", time.Second) },
		"alive": func() error { _, err := s.Alive(ctx, "a"); return err },
	}
	for name, call := range calls {
		start := time.Now()
		err := call()
		took := time.Since(start)
		if !protocol.IsUnavailable(err) {
			t.Errorf("%s while Redis is down: %v, want a protocol.Unavailable", name, err)
		}
		if took > 500*time.Millisecond {
			t.Errorf("%s took %v to fail", name, took)
		}
		t.Logf("%s failed in %v", name, took)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	if err := r.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	for name, call := range calls {
		if err := call(); err != nil {
			t.Errorf("%s once Redis is back: %v", name, err)
		}
	}
	t.Logf("all calls worked %v after Redis answered PING", time.Since(back))
}

func TestBus(t *testing.T) {
	r, c := startRedis(t, true)
	ctx := ctxT(t)
	c2 := redis.NewClient(ClientOptions(r.Addr))
	defer c2.Close()
	a, b := NewBus(c, Options{}), NewBus(c2, Options{})
	defer a.Close()
	defer b.Close()
	// Messages published before Subscribe are not delivered.
	if err := a.Publish(ctx, protocol.BusMessage{Method: "early"}); err != nil {
		t.Fatal(err)
	}
	subA, err := a.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	subB, err := b.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Two publishers on two replicas: every subscriber gets every message
	// at once after Subscribe, in one order, each publisher's in its order.
	var wg sync.WaitGroup
	for _, p := range []*Bus{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				if err := p.Publish(ctx, protocol.BusMessage{Method: fmt.Sprintf("%p", p), Params: []byte(`{"i":` + strconv.Itoa(i) + `}`)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	read := func(ch <-chan protocol.BusMessage, n int) []protocol.BusMessage {
		var out []protocol.BusMessage
		for len(out) < n {
			select {
			case m := <-ch:
				out = append(out, m)
			case <-time.After(5 * time.Second):
				t.Fatalf("got %d of %d messages", len(out), n)
			}
		}
		return out
	}
	gotA, gotB := read(subA, 100), read(subB, 100)
	next := map[string]int{}
	for i := range gotA {
		if gotA[i].Method != gotB[i].Method || string(gotA[i].Params) != string(gotB[i].Params) {
			t.Fatalf("message %d differs between replicas: %+v %+v", i, gotA[i], gotB[i])
		}
		m := gotA[i]
		if m.Gap || m.Method == "early" || string(m.Params) != `{"i":`+strconv.Itoa(next[m.Method])+`}` {
			t.Fatalf("message %d: %+v, want i=%d of %s", i, m, next[m.Method], m.Method)
		}
		next[m.Method]++
	}

	// A Redis restart: the subscribers get the messages published once
	// Redis is back, without a new Subscribe. A short one the client's
	// retries ride over (nothing is lost: the append-only file keeps the
	// stream); a long one, where reads fail, is told by a Gap first.
	for _, tc := range []struct {
		down    time.Duration
		wantGap bool
	}{{200 * time.Millisecond, false}, {4 * time.Second, true}} {
		r.Restart(t, tc.down)
		deadline := time.Now().Add(10 * time.Second)
		for a.Publish(ctx, protocol.BusMessage{Method: "back"}) != nil {
			if time.Now().After(deadline) {
				t.Fatal("cannot publish after the restart")
			}
			time.Sleep(50 * time.Millisecond)
		}
		for _, ch := range []<-chan protocol.BusMessage{subA, subB} {
			sawGap := false
			for {
				m := read(ch, 1)[0]
				if m.Gap {
					sawGap = true
					continue
				}
				if m.Method != "back" {
					t.Fatalf("after the restart: %+v", m)
				}
				break
			}
			if tc.wantGap && !sawGap {
				t.Errorf("no Gap after Redis was down %v", tc.down)
			}
		}
	}
}

// TestBusState: SetState stores a value and publishes its message in one
// step, versioned; State reads what a replica that starts applies; a lead
// is held by one replica at a time and passes on when its holder stops.
func TestBusState(t *testing.T) {
	r, c := startRedis(t, true)
	ctx := ctxT(t)
	a, b := NewBus(c, Options{}), NewBus(c, Options{Prefix: "mcp:"})
	defer a.Close()
	defer b.Close()
	sub, err := b.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if vals, v, err := a.State(ctx); err != nil || v != 0 || len(vals) != 0 {
		t.Fatalf("empty state: %v %d %v", vals, v, err)
	}
	for i, p := range []string{`{"on":true}`, ``, ` { } `} {
		var params []byte
		if p != "" {
			params = []byte(p)
		}
		v, err := a.SetState(ctx, "tool", strconv.Itoa(i), protocol.BusMessage{Method: "changed", Params: params})
		if err != nil || v != int64(i+1) {
			t.Fatalf("SetState %d: %d %v", i, v, err)
		}
		select {
		case m := <-sub:
			if m.Method != "changed" || MessageStateVersion(m) != v {
				t.Fatalf("message %d: %+v", i, m)
			}
			if i == 0 && string(m.Params) != `{"stateVersion":1,"on":true}` {
				t.Errorf("params %s", m.Params)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no message")
		}
	}
	if _, err := a.SetState(ctx, "x", "1", protocol.BusMessage{Method: "m", Params: []byte(`[1]`)}); err == nil {
		t.Error("params that are not an object were taken")
	}
	vals, v, err := b.State(ctx)
	if err != nil || v != 3 || vals["tool"] != "2" || len(vals) != 1 {
		t.Errorf("State = %v %d %v", vals, v, err)
	}

	// Leads.
	term := 300 * time.Millisecond
	if ok, err := a.Lead(ctx, "watch", "r1", term); !ok || err != nil {
		t.Fatalf("r1 takes the free lead: %v %v", ok, err)
	}
	if ok, _ := b.Lead(ctx, "watch", "r2", term); ok {
		t.Error("r2 took the lead r1 holds")
	}
	if ok, _ := a.Lead(ctx, "watch", "r1", term); !ok {
		t.Error("r1 lost its lead")
	}
	time.Sleep(term + 50*time.Millisecond) // r1 stops
	if ok, _ := b.Lead(ctx, "watch", "r2", term); !ok {
		t.Error("r2 did not take the lead r1 let run out")
	}

	// While Redis is down, a change fails (and is not made): Unavailable.
	r.Stop(5 * time.Second)
	if _, err := a.SetState(ctx, "tool", "9", protocol.BusMessage{Method: "changed"}); !protocol.IsUnavailable(err) {
		t.Errorf("SetState while Redis is down: %v", err)
	}
	if err := a.Publish(ctx, protocol.BusMessage{Method: "m"}); !protocol.IsUnavailable(err) {
		t.Errorf("Publish while Redis is down: %v", err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	if err := r.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if vals, v, err := b.State(ctx); err != nil || v != 3 || vals["tool"] != "2" {
		t.Errorf("after the restart: %v %d %v", vals, v, err)
	}
}
