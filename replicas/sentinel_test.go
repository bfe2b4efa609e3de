package replicas

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/replicas/internal/testinfra"
	"github.com/mcpgen/mcpgen/runtime/protocol"
	"github.com/redis/go-redis/v9"
)

// TestSentinelFailover: a Redis primary with two replicas watched by
// redis-sentinel (all on free ports of 127.0.0.1). A writer creates tasks
// and changes the shared state through a failover client
// (FailoverOptions) with SyncReplicas 1, while the primary is killed with
// SIGKILL and Sentinel promotes a replica: every write that was
// acknowledged is there afterwards, the writes that failed failed with a
// protocol.Unavailable, and only between the kill and the promotion.
func TestSentinelFailover(t *testing.T) {
	primary := testinfra.StartRedis(t, testinfra.RedisOptions{AppendOnly: true})
	for range 2 {
		testinfra.StartRedis(t, testinfra.RedisOptions{AppendOnly: true, ReplicaOf: primary.Addr})
	}
	sentinel := testinfra.StartSentinel(t, "mcp", primary, time.Second)
	sc := redis.NewSentinelClient(&redis.Options{Addr: sentinel.Addr})
	defer sc.Close()
	ctx := ctxT(t)
	deadline := time.Now().Add(20 * time.Second)
	for {
		reps, err := sc.Replicas(ctx, "mcp").Result()
		if err == nil && len(reps) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sentinel does not see two replicas: %v %v", reps, err)
		}
		time.Sleep(100 * time.Millisecond)
	}

	c := redis.NewFailoverClient(FailoverOptions("mcp", []string{sentinel.Addr}))
	defer c.Close()
	opts := Options{SyncReplicas: 1}
	tasks, bus := NewTasks(c, opts), NewBus(c, opts)
	defer bus.Close()

	type outcome struct {
		at      time.Time
		task    string
		version int64
		err     error
	}
	var mu sync.Mutex
	var outcomes []outcome
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			now := time.Now()
			o := outcome{task: "t" + strconv.Itoa(i)}
			o.err = tasks.Create(ctx, record(o.task, now, time.Hour), 100000, now)
			if o.err == nil {
				o.version, o.err = bus.SetState(ctx, "n", strconv.Itoa(i), protocol.BusMessage{Method: "changed"})
			}
			o.at = time.Now()
			mu.Lock()
			outcomes = append(outcomes, o)
			mu.Unlock()
			if o.err != nil {
				time.Sleep(20 * time.Millisecond)
			}
		}
	}()
	time.Sleep(time.Second)
	killed := time.Now() // before the signal: a write can fail while Kill9 waits for the exit
	primary.Kill9()
	// Writes work again once a replica is promoted.
	var back time.Time
	for back.IsZero() {
		if time.Since(killed) > 30*time.Second {
			t.Fatal("no write succeeded within 30s of the primary's death")
		}
		time.Sleep(50 * time.Millisecond)
		mu.Lock()
		for _, o := range outcomes {
			if o.err == nil && o.at.After(killed) {
				back = o.at
				break
			}
		}
		mu.Unlock()
	}
	time.Sleep(time.Second)
	close(stop)
	<-done

	addr, err := sc.GetMasterAddrByName(ctx, "mcp").Result()
	if err != nil || addr[1] == strconv.Itoa(primary.Port) {
		t.Fatalf("sentinel names %v (%v) as the primary, the dead one was %d", addr, err, primary.Port)
	}
	acked, failed := 0, 0
	var maxVersion int64
	var firstFail, lastFail time.Time
	for _, o := range outcomes {
		if o.err != nil {
			failed++
			if !protocol.IsUnavailable(o.err) {
				t.Errorf("write %s failed with %v, want a protocol.Unavailable", o.task, o.err)
			}
			if firstFail.IsZero() {
				firstFail = o.at
			}
			lastFail = o.at
			continue
		}
		acked++
		maxVersion = max(maxVersion, o.version)
		if got, err := tasks.Get(ctx, o.task); err != nil || got == nil {
			t.Errorf("acknowledged task %s is lost after the failover: %v", o.task, err)
		}
	}
	if _, v, err := bus.State(ctx); err != nil || v < maxVersion {
		t.Errorf("state version %d after the failover, an acknowledged change had %d (%v)", v, maxVersion, err)
	}
	if failed > 0 && (firstFail.Before(killed) || lastFail.After(back)) {
		t.Errorf("writes failed from %v to %v after the kill, outside the outage (writes back %v after it)", firstFail.Sub(killed), lastFail.Sub(killed), back.Sub(killed))
	}
	if acked == 0 {
		t.Fatal("no write was acknowledged")
	}
	t.Logf("%d writes acknowledged (none lost), %d failed retryably; writes back %v after kill -9 of the primary (down-after 1s)", acked, failed, back.Sub(killed).Round(time.Millisecond))
}
