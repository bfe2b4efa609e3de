package replicas

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/protocol"
	"github.com/redis/go-redis/v9"
)

// Benchmarks of the shared stores, Redis beside the in-memory ones (run by
// hand: go test -run '^$' -bench . .; bench/RESULTS.md has a table).

func benchRedis(b *testing.B) *redis.Client {
	_, c := startRedis(b, true)
	return c
}

// BenchmarkTaskCreateGet: store a task, then read it from another
// client (what tasks/get on another replica does).
func BenchmarkTaskCreateGet(b *testing.B) {
	run := func(b *testing.B, create, get protocol.SharedTasks) {
		ctx := context.Background()
		now := time.Now()
		b.ResetTimer()
		for i := range b.N {
			id := "t" + strconv.Itoa(i)
			if err := create.Create(ctx, record(id, now, time.Minute), b.N+1, now); err != nil {
				b.Fatal(err)
			}
			if t, err := get.Get(ctx, id); err != nil || t == nil {
				b.Fatal(t, err)
			}
		}
		b.StopTimer()
	}
	b.Run("store=memory", func(b *testing.B) {
		m := protocol.NewMemoryTasks()
		run(b, m, m)
	})
	b.Run("store=redis", func(b *testing.B) {
		c := benchRedis(b)
		c2 := redis.NewClient(ClientOptions(c.Options().Addr))
		defer c2.Close()
		run(b, NewTasks(c, Options{}), NewTasks(c2, Options{}))
	})
}

// BenchmarkBusDelivery: publish on one replica's bus, receive on another's
// subscriber; one op is one message's publish-to-delivery time.
func BenchmarkBusDelivery(b *testing.B) {
	run := func(b *testing.B, pub, sub protocol.Bus) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ch, err := sub.Subscribe(ctx)
		if err != nil {
			b.Fatal(err)
		}
		m := protocol.BusMessage{Method: "notifications/resources/updated", Params: []byte(`{"uri":"file:///a"}`)}
		b.ResetTimer()
		for range b.N {
			if err := pub.Publish(ctx, m); err != nil {
				b.Fatal(err)
			}
			if got := <-ch; got.Method != m.Method {
				b.Fatalf("%+v", got)
			}
		}
		b.StopTimer() // Close waits for the reader's blocking read
	}
	b.Run("bus=memory", func(b *testing.B) {
		m := protocol.NewMemoryBus(0)
		run(b, m, m)
	})
	b.Run("bus=redis", func(b *testing.B) {
		c := benchRedis(b)
		c2 := redis.NewClient(ClientOptions(c.Options().Addr))
		defer c2.Close()
		pub, sub := NewBus(c, Options{}), NewBus(c2, Options{})
		defer pub.Close()
		defer sub.Close()
		run(b, pub, sub)
	})
}
