// Package replicas keeps what the replicas of one MCP server share in
// Redis (github.com/redis/go-redis/v9): the tasks of the tasks extension
// (Tasks, a protocol.SharedTasks for TaskStoreOptions.Shared) and the
// notification bus (Bus, a protocol.Bus). docs/replicas.md shows a server
// with three replicas behind nginx. ProxyCache is the result cache that
// several mcpgen proxy instances share (docs/proxy.md), under a prefix of
// its own (ProxyCacheOptions.Prefix) and described there.
//
// Data layout, every key beginning with Options.Prefix (P):
//
//	P task:<id>     string  the task as JSON (protocol.TaskRecord), expiring
//	                        at the task's expiry (PEXPIREAT)
//	P tasks         zset    the ids of the tasks that run (working or
//	                        waiting for input) scored by expiry (Unix ms):
//	                        the count against TaskStoreOptions.MaxTasks; a
//	                        task leaves it when it finishes, expired ids are
//	                        dropped by the next create
//	P replica:<id>  string  "1" while the replica is alive (PX = the lease)
//	P beat          string  "1" while any replica beats (PX = half a lease)
//	P grace         string  "1" for a lease after a gap in the beats of all
//	                        replicas (the store was out): every replica is
//	                        taken for alive meanwhile
//	P bus           stream  bus messages (fields m = method, p = params),
//	                        trimmed to about Options.BusMaxLen
//	P state         hash    the shared state (Bus.SetState): a value by
//	                        name, and its version under "version"
//	P lead:<name>   string  the replica that holds a lead (Bus.Lead), PX the
//	                        lease's term
//
// Creating a task is one Lua script (count, store, index) on the primary;
// changing one is WATCH/GET/MULTI/SET/EXEC, retried when another replica
// changed it meanwhile. With Options.SyncReplicas, a write returns once
// that many Redis replicas have it (WAIT), so that a failover (Sentinel
// promoting a replica) loses no acknowledged write. Every key of one
// server shares Options.Prefix: with Redis Cluster, put a hash tag in the
// prefix ("mcp:{srv}:") so that all of them, and so every script's, are in
// one slot.
//
// An error of Redis (down, failing over, loading, refusing writes) is
// returned as a *protocol.Unavailable: the request that needed the store
// fails at once with a retryable error, and the next one after Redis is
// back works (go-redis reconnects by itself).
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
	// SyncReplicas, if positive, is how many Redis replicas must have a
	// write (task created or changed, state set) before it is
	// acknowledged (WAIT SyncReplicas SyncTimeout); fewer fails the call
	// with a protocol.Unavailable (the write may or may not survive a
	// failover, and the client may try again). Use 1 with Sentinel and
	// one replica, so that a failover loses no acknowledged change.
	SyncReplicas int
	// SyncTimeout bounds the wait for SyncReplicas. Zero means 1s.
	SyncTimeout time.Duration
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
	if o.SyncTimeout <= 0 {
		o.SyncTimeout = time.Second
	}
	return o
}

// retryAfter is what an Unavailable of this package tells clients: Redis
// restarts or fails over in about that long.
const retryAfter = time.Second

// unavailable wraps an error of Redis: the store cannot be reached.
func unavailable(op string, err error) error {
	return &protocol.Unavailable{What: "Redis", RetryAfter: retryAfter, Err: fmt.Errorf("replicas: %s: %w", op, err)}
}

// sync waits until Options.SyncReplicas replicas have the writes made so
// far on the connection of c (a pipeline or transaction), when it asks for
// any.
func (o Options) sync(ctx context.Context, c waiter) *redis.Cmd {
	if o.SyncReplicas <= 0 {
		return nil
	}
	return c.Do(ctx, "WAIT", o.SyncReplicas, o.SyncTimeout.Milliseconds())
}

// waiter is what sends WAIT (a pipeline, a transaction, a client).
type waiter interface {
	Do(ctx context.Context, args ...any) *redis.Cmd
}

// synced checks the result of sync.
func (o Options) synced(w *redis.Cmd) error {
	if w == nil {
		return nil
	}
	n, err := w.Int64()
	if err != nil {
		return err
	}
	if n < int64(o.SyncReplicas) {
		return fmt.Errorf("WAIT: %d of %d replicas have the write", n, o.SyncReplicas)
	}
	return nil
}

// FailoverOptions are ClientOptions for a Redis watched by Sentinel:
// master is the name the sentinels know it by, sentinels their addresses.
// redis.NewFailoverClient asks the sentinels for the primary and follows
// it when they promote a replica. Use with Options.SyncReplicas.
func FailoverOptions(master string, sentinels []string) *redis.FailoverOptions {
	o := ClientOptions("")
	return &redis.FailoverOptions{
		MasterName:      master,
		SentinelAddrs:   sentinels,
		Protocol:        o.Protocol,
		DialTimeout:     o.DialTimeout,
		ReadTimeout:     o.ReadTimeout,
		WriteTimeout:    o.WriteTimeout,
		MaxRetries:      o.MaxRetries,
		MinRetryBackoff: o.MinRetryBackoff,
		MaxRetryBackoff: o.MaxRetryBackoff,
		PoolSize:        o.PoolSize,
		ConnMaxIdleTime: o.ConnMaxIdleTime,

		DialerRetries:      o.DialerRetries,
		DialerRetryTimeout: o.DialerRetryTimeout,
	}
}

// ClientOptions are the go-redis options the tests use and docs/replicas.md
// recommends: short timeouts and one quick retry, so that a call fails
// fast (a retryable error for the client) while Redis is down instead of
// holding a request. go-redis reconnects by itself: the first call after
// Redis is back works.
func ClientOptions(addr string) *redis.Options {
	return &redis.Options{
		Addr:            addr,
		Protocol:        2,
		DialTimeout:     500 * time.Millisecond,
		ReadTimeout:     2 * time.Second,
		WriteTimeout:    2 * time.Second,
		MaxRetries:      1,
		MinRetryBackoff: 50 * time.Millisecond,
		MaxRetryBackoff: 100 * time.Millisecond,
		// A refused connection is not dialled again five times.
		DialerRetries:      1,
		DialerRetryTimeout: 50 * time.Millisecond,
		PoolSize:           32,
		ConnMaxIdleTime:    30 * time.Second,
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
func (s *Tasks) beatKey() string          { return s.opts.Prefix + "beat" }
func (s *Tasks) graceKey() string         { return s.opts.Prefix + "grace" }
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
	var run *redis.Cmd
	var w *redis.Cmd
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		run = createScript.Eval(ctx, p, []string{s.indexKey(), s.taskKey(t.ID)},
			now.UnixMilli(), max, t.Expires.UnixMilli(), t.ID, b)
		w = s.opts.sync(ctx, p)
		return nil
	})
	n, rerr := run.Int()
	if err == nil {
		err = rerr
	}
	if err == nil && n > 0 {
		err = s.opts.synced(w)
	}
	switch {
	case err != nil:
		return unavailable("create task", err)
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
		return nil, unavailable("get task", err)
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
				return encodeError{err}
			}
			var w *redis.Cmd
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.SetArgs(ctx, key, nb, redis.SetArgs{KeepTTL: true})
				if t.Terminal() {
					// Finished: it no longer counts against MaxTasks.
					p.ZRem(ctx, s.indexKey(), id)
				}
				return nil
			})
			if err == nil {
				if w = s.opts.sync(ctx, tx); w != nil {
					err = s.opts.synced(w)
				}
			}
			return err
		}, key)
		if errors.Is(err, redis.TxFailedErr) {
			continue
		}
		var ee encodeError
		if errors.As(err, &ee) {
			return nil, ee.error
		}
		if err != nil {
			return nil, unavailable("update task", err)
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
		return unavailable("delete task", err)
	}
	return nil
}

// encodeError is a record too large to store: not Redis's fault.
type encodeError struct{ error }

// beatScript: KEYS[1] the replica's key, KEYS[2] P beat, KEYS[3] P grace;
// ARGV[1] the lease (ms). A beat when no replica beat for half a lease
// (P beat expired: Redis was out, or restarted, or all were idle) starts
// a grace of a lease, in which Alive takes every replica for alive: the
// replicas beat again within a third of a lease of Redis coming back.
var beatScript = redis.NewScript(`
local lease = tonumber(ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('SET', KEYS[3], '1', 'PX', lease)
end
redis.call('SET', KEYS[2], '1', 'PX', math.max(1, math.floor(lease / 2)))
redis.call('SET', KEYS[1], '1', 'PX', lease)
return 1
`)

// aliveScript: KEYS as beatScript's. 1 when the replica beat within its
// lease, or the beats of all replicas had a gap lately (grace, or no beat
// at all for half a lease).
var aliveScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
if redis.call('EXISTS', KEYS[3]) == 1 then return 1 end
if redis.call('EXISTS', KEYS[2]) == 0 then return 1 end
return 0
`)

// Beat implements protocol.SharedTasks.
func (s *Tasks) Beat(ctx context.Context, replica string, lease time.Duration) error {
	err := beatScript.Run(ctx, s.rdb, []string{s.replicaKey(replica), s.beatKey(), s.graceKey()}, max(lease.Milliseconds(), 1)).Err()
	if err != nil {
		return unavailable("beat", err)
	}
	return nil
}

// Alive implements protocol.SharedTasks: the replica's key has not expired
// (on Redis's clock, so that the replicas' clocks do not matter), or the
// beats of all replicas had a gap in the last lease (Redis was out: the
// replica may not have said it is alive again yet). So an outage of Redis
// fails no task of a live replica; a replica that died is found dead a
// lease after the other replicas beat again (the replica that asks beats
// first).
func (s *Tasks) Alive(ctx context.Context, replica string) (bool, error) {
	n, err := aliveScript.Run(ctx, s.rdb, []string{s.replicaKey(replica), s.beatKey(), s.graceKey()}).Int()
	if err != nil {
		return false, unavailable("alive", err)
	}
	return n == 1, nil
}

// count is how many unexpired tasks the index holds (for tests).
func (s *Tasks) count(ctx context.Context, now time.Time) (int64, error) {
	return s.rdb.ZCount(ctx, s.indexKey(), "("+strconv.FormatInt(now.UnixMilli(), 10), "+inf").Result()
}
