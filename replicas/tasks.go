// Package replicas keeps what the replicas of one MCP server share in
// Redis (github.com/redis/go-redis/v9): the tasks of the tasks extension
// (Tasks, a protocol.SharedTasks for TaskStoreOptions.Shared) and the
// notification bus (Bus, a protocol.Bus). docs/replicas.md shows a server
// with three replicas behind nginx.
//
// Data layout, every key beginning with Options.Prefix (P):
//
//	P task:<id>     string  the task as JSON (protocol.TaskRecord), expiring
//	                        at the task's expiry (PEXPIREAT)
//	P tasks         zset    task ids scored by expiry (Unix ms): the count
//	                        against Options.MaxTasks; expired ids are dropped
//	                        by the next create
//	P replica:<id>  string  "1" while the replica is alive (PX = the lease)
//	P bus           stream  bus messages (fields m = method, p = params),
//	                        trimmed to about Options.BusMaxLen
//
// Creating a task is one Lua script (count, store, index) on the primary;
// changing one is WATCH/GET/MULTI/SET/EXEC, retried when another replica
// changed it meanwhile. With Redis Cluster, put a hash tag in the prefix
// ("mcp:{srv}:") so that a script's keys share a slot.
package replicas

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/protocol"
	"github.com/redis/go-redis/v9"
)

// Options configure Tasks and Bus. The zero value is usable.
type Options struct {
	// Prefix begins every key; it separates the servers that share one
	// Redis. Zero means "mcp:".
	Prefix string
	// MaxRecordBytes bounds a task as stored (its result included); a
	// larger one is refused (the task fails to record its outcome and the
	// runtime logs it). Zero means 8 MiB.
	MaxRecordBytes int
	// BusMaxLen is about how many messages the bus's stream keeps for
	// readers that reconnect. Zero means 10000.
	BusMaxLen int64
	// BusBuffer is each local subscriber's buffer (protocol.NewMemoryBus).
	// Zero means 256.
	BusBuffer int
}

func (o Options) withDefaults() Options {
	if o.Prefix == "" {
		o.Prefix = "mcp:"
	}
	if o.MaxRecordBytes <= 0 {
		o.MaxRecordBytes = 8 << 20
	}
	if o.BusMaxLen <= 0 {
		o.BusMaxLen = 10000
	}
	return o
}

// ClientOptions are the go-redis options the tests use and docs/replicas.md
// recommends: short timeouts, so that a call fails fast while Redis is down
// instead of holding a request, and retries with backoff to ride over a
// restart. go-redis reconnects by itself: the first call after Redis is back
// works.
func ClientOptions(addr string) *redis.Options {
	return &redis.Options{
		Addr:            addr,
		Protocol:        2,
		DialTimeout:     500 * time.Millisecond,
		ReadTimeout:     2 * time.Second,
		WriteTimeout:    2 * time.Second,
		MaxRetries:      3,
		MinRetryBackoff: 50 * time.Millisecond,
		MaxRetryBackoff: 500 * time.Millisecond,
		PoolSize:        32,
		ConnMaxIdleTime: 30 * time.Second,
	}
}

// Tasks is a protocol.SharedTasks on Redis.
type Tasks struct {
	rdb  redis.UniversalClient
	opts Options
}

var _ protocol.SharedTasks = (*Tasks)(nil)

// NewTasks returns the task store of the replicas that use rdb with the
// same Options.Prefix.
func NewTasks(rdb redis.UniversalClient, opts Options) *Tasks {
	return &Tasks{rdb: rdb, opts: opts.withDefaults()}
}

func (s *Tasks) taskKey(id string) string { return s.opts.Prefix + "task:" + id }
func (s *Tasks) indexKey() string         { return s.opts.Prefix + "tasks" }
func (s *Tasks) replicaKey(r string) string {
	return s.opts.Prefix + "replica:" + r
}

// createScript: KEYS[1] the index, KEYS[2] the task; ARGV now (ms), max,
// expiry (ms), id, record. Returns 1, 0 when full, -1 when the id exists.
var createScript = redis.NewScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
if redis.call('SET', KEYS[2], ARGV[5], 'PXAT', ARGV[3], 'NX') == false then return -1 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
return 1
`)

func (s *Tasks) encode(t *protocol.TaskRecord) ([]byte, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	if len(b) > s.opts.MaxRecordBytes {
		return nil, fmt.Errorf("replicas: task %s is %d bytes as stored, more than Options.MaxRecordBytes (%d)", t.ID, len(b), s.opts.MaxRecordBytes)
	}
	return b, nil
}

// Create implements protocol.SharedTasks.
func (s *Tasks) Create(ctx context.Context, t *protocol.TaskRecord, max int, now time.Time) error {
	b, err := s.encode(t)
	if err != nil {
		return err
	}
	n, err := createScript.Run(ctx, s.rdb, []string{s.indexKey(), s.taskKey(t.ID)},
		now.UnixMilli(), max, t.Expires.UnixMilli(), t.ID, b).Int()
	switch {
	case err != nil:
		return fmt.Errorf("replicas: create task: %w", err)
	case n == 0:
		return protocol.ErrTasksFull
	case n < 0:
		return fmt.Errorf("replicas: create task: id %s exists", t.ID)
	}
	return nil
}

// Get implements protocol.SharedTasks.
func (s *Tasks) Get(ctx context.Context, id string) (*protocol.TaskRecord, error) {
	b, err := s.rdb.Get(ctx, s.taskKey(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("replicas: get task: %w", err)
	}
	var t protocol.TaskRecord
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("replicas: task %s: %w", id, err)
	}
	return &t, nil
}

// maxUpdateTries bounds the optimistic retries of Update.
const maxUpdateTries = 50

// Update implements protocol.SharedTasks with WATCH: when another replica
// changes the task between the read and the write, the transaction fails
// and fn runs again on the new record.
func (s *Tasks) Update(ctx context.Context, id string, fn func(*protocol.TaskRecord) bool) (*protocol.TaskRecord, error) {
	key := s.taskKey(id)
	var out *protocol.TaskRecord
	for range maxUpdateTries {
		out = nil
		err := s.rdb.Watch(ctx, func(tx *redis.Tx) error {
			b, err := tx.Get(ctx, key).Bytes()
			if errors.Is(err, redis.Nil) {
				return nil
			}
			if err != nil {
				return err
			}
			var t protocol.TaskRecord
			if err := json.Unmarshal(b, &t); err != nil {
				return fmt.Errorf("task %s: %w", id, err)
			}
			out = &t
			if !fn(&t) {
				return nil
			}
			nb, err := s.encode(&t)
			if err != nil {
				return err
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.SetArgs(ctx, key, nb, redis.SetArgs{KeepTTL: true})
				return nil
			})
			return err
		}, key)
		if errors.Is(err, redis.TxFailedErr) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("replicas: update task: %w", err)
		}
		return out, nil
	}
	return nil, fmt.Errorf("replicas: update task %s: changed by others %d times in a row", id, maxUpdateTries)
}

// Delete implements protocol.SharedTasks.
func (s *Tasks) Delete(ctx context.Context, id string) error {
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, s.taskKey(id))
		p.ZRem(ctx, s.indexKey(), id)
		return nil
	})
	if err != nil {
		return fmt.Errorf("replicas: delete task: %w", err)
	}
	return nil
}

// Beat implements protocol.SharedTasks.
func (s *Tasks) Beat(ctx context.Context, replica string, lease time.Duration) error {
	if err := s.rdb.Set(ctx, s.replicaKey(replica), "1", lease).Err(); err != nil {
		return fmt.Errorf("replicas: beat: %w", err)
	}
	return nil
}

// Alive implements protocol.SharedTasks: the replica's key has not expired
// (on Redis's clock, so that the replicas' clocks do not matter).
func (s *Tasks) Alive(ctx context.Context, replica string) (bool, error) {
	n, err := s.rdb.Exists(ctx, s.replicaKey(replica)).Result()
	if err != nil {
		return false, fmt.Errorf("replicas: alive: %w", err)
	}
	return n == 1, nil
}

// count is how many unexpired tasks the index holds (for tests).
func (s *Tasks) count(ctx context.Context, now time.Time) (int64, error) {
	return s.rdb.ZCount(ctx, s.indexKey(), "("+strconv.FormatInt(now.UnixMilli(), 10), "+inf").Result()
}
