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
	// Liveness: a beat lasts its lease.
	if err := s.Beat(ctx, "a", 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s2.Alive(ctx, "a"); !ok {
		t.Error("a replica that just beat is not alive")
	}
	if ok, _ := s2.Alive(ctx, "b"); ok {
		t.Error("a replica that never beat is alive")
	}
	time.Sleep(300 * time.Millisecond)
	if ok, _ := s2.Alive(ctx, "a"); ok {
		t.Error("a replica is alive past its lease")
	}
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
