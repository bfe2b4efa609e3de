package replicas

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
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
		return unavailable("publish", err)
	}
	return nil
}

// StateVersion is the member that SetState adds to the params of the
// message it publishes: the state's version after the change.
const StateVersion = "stateVersion"

// setStateScript: KEYS[1] P state, KEYS[2] P bus; ARGV name, value,
// method, params (a JSON object), maxlen. Sets the value, counts the
// version up and publishes the message with the version in its params, in
// one step: no change is stored without its message, nor published
// without being stored.
var setStateScript = redis.NewScript(`
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local v = redis.call('HINCRBY', KEYS[1], 'version', 1)
local p = ARGV[4]
if p == '' or string.match(p, '^%s*{%s*}%s*$') then
  p = '{"stateVersion":' .. v .. '}'
else
  p = '{"stateVersion":' .. v .. ',' .. string.sub(p, string.find(p, '{') + 1)
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'm', ARGV[3], 'p', p)
return v
`)

// SetState sets name to value in the state the replicas share and
// publishes m, whose params (a JSON object, or nil) get StateVersion: the
// state's version after the change. Both happen in one step, or neither:
// a change that cannot be published fails (an error that is a
// *protocol.Unavailable while Redis cannot be reached), and the caller
// fails the request that made it. With Options.SyncReplicas, SetState
// returns once that many Redis replicas have the change.
//
// A replica that starts reads State before it serves, and after a Gap
// reads it again: it then agrees with the others at once. A message whose
// StateVersion is not above the version a replica applied last is one it
// has (or a newer state made it moot).
func (b *Bus) SetState(ctx context.Context, name, value string, m protocol.BusMessage) (int64, error) {
	if name == "version" {
		return 0, errors.New(`replicas: SetState: "version" names the state's version`)
	}
	if m.Params != nil {
		if i := codec.FirstByte(m.Params); i < 0 || m.Params[i] != '{' || !codec.ValidJSON(m.Params) {
			return 0, errors.New("replicas: SetState: the message's params are not a JSON object")
		}
	}
	var run *redis.Cmd
	var w *redis.Cmd
	_, err := b.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		run = setStateScript.Eval(ctx, p, []string{b.stateKey(), b.stream}, name, value, m.Method, string(m.Params), b.opts.BusMaxLen)
		w = b.opts.sync(ctx, p)
		return nil
	})
	v, rerr := run.Int64()
	if err == nil {
		err = rerr
	}
	if err == nil {
		err = b.opts.synced(w)
	}
	if err != nil {
		return 0, unavailable("set state", err)
	}
	return v, nil
}

// State returns the state the replicas share (SetState's values by name)
// and its version (0 for none yet).
func (b *Bus) State(ctx context.Context) (map[string]string, int64, error) {
	all, err := b.rdb.HGetAll(ctx, b.stateKey()).Result()
	if err != nil {
		return nil, 0, unavailable("read state", err)
	}
	v, _ := strconv.ParseInt(all["version"], 10, 64)
	delete(all, "version")
	return all, v, nil
}

// MessageStateVersion is the StateVersion of a message SetState
// published, or 0 for another message.
func MessageStateVersion(m protocol.BusMessage) int64 {
	raw := codec.Lookup(m.Params, StateVersion)
	if raw == nil {
		return 0
	}
	v, isInt, inRange := codec.ParseInt(raw)
	if !isInt || !inRange {
		return 0
	}
	return v
}

func (b *Bus) stateKey() string { return b.opts.Prefix + "state" }

// leadScript: KEYS[1] the lead's key; ARGV the replica, the term (ms).
var leadScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if cur == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`)

// Lead reports whether replica holds the lead called name (a job that one
// replica at a time does, such as publishing a resource's updates),
// taking it if nobody holds it and extending it by term if replica does.
// Call it every third of term or so: when the replica that holds it stops
// (killed, or cut off from Redis), another takes it within term and a
// call. False with an error when Redis cannot be reached (a replica that
// cannot reach Redis cannot publish either).
func (b *Bus) Lead(ctx context.Context, name, replica string, term time.Duration) (bool, error) {
	n, err := leadScript.Run(ctx, b.rdb, []string{b.opts.Prefix + "lead:" + name}, replica, max(term.Milliseconds(), 1)).Int()
	if err != nil {
		return false, unavailable("lead", err)
	}
	return n == 1, nil
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
		return "", unavailable("bus", err)
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
			backoff = min(2*backoff, 200*time.Millisecond) // back within 1s of Redis
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
