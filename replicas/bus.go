package replicas

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/protocol"
	"github.com/redis/go-redis/v9"
)

// Bus is a protocol.Bus on one Redis stream: Publish is XADD (trimmed to
// about Options.BusMaxLen), and one reader per Bus (XREAD BLOCK from the
// last id it read) hands every message to the subscribers in this process
// through a protocol.MemoryBus. The stream's ids are the order. When the
// reader loses Redis, it reads on from its last id once Redis is back, and
// the subscribers get a Gap first (Redis may have restarted without the
// messages, or trimmed them).
type Bus struct {
	rdb    redis.UniversalClient
	opts   Options
	stream string
	local  *protocol.MemoryBus

	mu      sync.Mutex
	started bool
	stop    context.CancelFunc
	done    chan struct{}
}

var _ protocol.Bus = (*Bus)(nil)

// NewBus returns the bus of the replicas that use rdb with the same
// Options.Prefix. Close stops its reader.
func NewBus(rdb redis.UniversalClient, opts Options) *Bus {
	opts = opts.withDefaults()
	return &Bus{rdb: rdb, opts: opts, stream: opts.Prefix + "bus", local: protocol.NewMemoryBus(opts.BusBuffer)}
}

// Publish implements protocol.Bus.
func (b *Bus) Publish(ctx context.Context, m protocol.BusMessage) error {
	if m.Gap {
		return errors.New("replicas: a Gap is not published")
	}
	err := b.rdb.XAdd(ctx, &redis.XAddArgs{
		Stream: b.stream, MaxLen: b.opts.BusMaxLen, Approx: true,
		Values: []any{"m", m.Method, "p", string(m.Params)},
	}).Err()
	if err != nil {
		return fmt.Errorf("replicas: publish: %w", err)
	}
	return nil
}

// Subscribe implements protocol.Bus. The first one starts the reader at
// the stream's last id, so that every message added after Subscribe
// returns is read and handed to the subscribers registered by then.
func (b *Bus) Subscribe(ctx context.Context) (<-chan protocol.BusMessage, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.started {
		last, err := b.lastID(ctx)
		if err != nil {
			return nil, err
		}
		rctx, stop := context.WithCancel(context.Background())
		b.started, b.stop, b.done = true, stop, make(chan struct{})
		go b.read(rctx, last)
	}
	return b.local.Subscribe(ctx)
}

// Close stops the reader (within a second, when its blocking read ends); the
// subscriptions stay open until their contexts end, and get nothing more.
func (b *Bus) Close() error {
	b.mu.Lock()
	stop, done := b.stop, b.done
	b.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
	return nil
}

// lastID is the id of the stream's last message, or "0-0".
func (b *Bus) lastID(ctx context.Context) (string, error) {
	msgs, err := b.rdb.XRevRangeN(ctx, b.stream, "+", "-", 1).Result()
	if err != nil {
		return "", fmt.Errorf("replicas: bus: %w", err)
	}
	if len(msgs) == 0 {
		return "0-0", nil
	}
	return msgs[0].ID, nil
}

// read hands the stream's messages after id to the local subscribers
// until ctx ends.
func (b *Bus) read(ctx context.Context, id string) {
	defer close(b.done)
	backoff := 50 * time.Millisecond
	lost := false
	for ctx.Err() == nil {
		res, err := b.rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{b.stream, id}, Count: 256, Block: time.Second}).Result()
		if errors.Is(err, redis.Nil) {
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if !lost {
				lost = true
				b.local.Publish(ctx, protocol.BusMessage{Gap: true})
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 2*time.Second)
			continue
		}
		lost, backoff = false, 50*time.Millisecond
		for _, s := range res {
			for _, m := range s.Messages {
				id = m.ID
				method, _ := m.Values["m"].(string)
				params, _ := m.Values["p"].(string)
				msg := protocol.BusMessage{Method: method}
				if params != "" {
					msg.Params = []byte(params)
				}
				b.local.Publish(ctx, msg)
			}
		}
	}
}
