package replicas

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// ProxyCache is the result cache of mcpgen proxy (internal/proxy's Store)
// in Redis, so that several proxy instances share it: a public result
// that one instance fetched is served by every other while its ttlMs says
// it is fresh, a private one by any instance for the same principal, and
// a change notification any instance hears drops the entries for all.
//
// Data layout, every key beginning with ProxyCacheOptions.Prefix (P):
//
//	P c:<sha256 of the entry's key>  string  the result's JSON, PX its TTL
//	P t:<sha256 of the tag>          set     the Redis keys of the tag's
//	                                         entries, PX the longest TTL
//
// Set is one script (SET, SADD, PEXPIRE), Invalidate another (SMEMBERS,
// DEL): an entry is never left out of its tag. A tag that holds more
// than MaxTagEntries keys has the expired ones removed on the next Set,
// and is dropped whole (its entries with it) if that is not enough, so
// that no set grows without bound. Give the cache a Redis (or a logical
// database) whose maxmemory-policy is noeviction: a full Redis then
// refuses new entries (the proxy forwards, as on a miss) instead of
// evicting a tag's set while its entries stay.
//
// A ProxyCache returns no errors: when Redis cannot be reached (or
// answers within Timeout with an error), Get misses, Set keeps nothing and
// Invalidate drops nothing (the entries of a change missed that way live
// until their TTL ends); each such error is counted (Errors) and logged.
// The entries are trusted as the proxy's own: whoever may write under
// Prefix in that Redis can answer the proxy's clients. Get serves only
// well-formed JSON.
type ProxyCache struct {
	rdb    redis.UniversalClient
	opts   ProxyCacheOptions
	errors atomic.Int64
}

// ProxyCacheOptions configure NewProxyCache. The zero value is usable.
type ProxyCacheOptions struct {
	// Prefix begins every key; the proxies that share a cache share it.
	// Zero means "mcp:proxy:". With Redis Cluster put a hash tag in it
	// ("mcp:{proxy}:") so that each script's keys are in one slot.
	Prefix string
	// MaxValueBytes bounds an entry; a larger result is not kept. Zero
	// means 1 MiB.
	MaxValueBytes int
	// MaxTagEntries bounds the keys a tag's set holds (see ProxyCache).
	// Zero means 10000.
	MaxTagEntries int
	// Timeout bounds each call to Redis. Zero means 500ms.
	Timeout time.Duration
	// Logger, if set, receives the errors of Redis (at Warn).
	Logger *slog.Logger
}

// NewProxyCache returns the cache of the proxies that use rdb with the
// same Prefix. Use it as proxy.Options.Cache.
func NewProxyCache(rdb redis.UniversalClient, opts ProxyCacheOptions) *ProxyCache {
	if opts.Prefix == "" {
		opts.Prefix = "mcp:proxy:"
	}
	if opts.MaxValueBytes <= 0 {
		opts.MaxValueBytes = 1 << 20
	}
	if opts.MaxTagEntries <= 0 {
		opts.MaxTagEntries = 10000
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 500 * time.Millisecond
	}
	return &ProxyCache{rdb: rdb, opts: opts}
}

func (c *ProxyCache) entryKey(key string) string { return c.opts.Prefix + "c:" + digest(key) }
func (c *ProxyCache) tagKey(tag string) string   { return c.opts.Prefix + "t:" + digest(tag) }

func digest(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// Errors returns how many calls to Redis failed.
func (c *ProxyCache) Errors() int64 { return c.errors.Load() }

func (c *ProxyCache) failed(op string, err error) {
	c.errors.Add(1)
	if c.opts.Logger != nil {
		c.opts.Logger.Warn("replicas: proxy cache: "+op, "error", err)
	}
}

// Get returns the entry of key while it lives.
func (c *ProxyCache) Get(ctx context.Context, key string) ([]byte, bool) {
	gctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	b, err := c.rdb.Get(gctx, c.entryKey(key)).Bytes()
	switch {
	case err == redis.Nil:
		return nil, false
	case err != nil:
		if ctx.Err() == nil { // not the request's own end
			c.failed("get", err)
		}
		return nil, false
	case len(b) > c.opts.MaxValueBytes || !json.Valid(b):
		return nil, false
	}
	return b, true
}

// setScript keeps an entry and adds it to its tag's set, whose life is
// the longest of its entries'. A set past its bound is swept of the
// entries that have expired, and dropped with its entries if still past.
var setScript = redis.NewScript(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], KEYS[1])
local ttl = tonumber(ARGV[2])
if redis.call('PTTL', KEYS[2]) < ttl then
  redis.call('PEXPIRE', KEYS[2], ttl)
end
local max = tonumber(ARGV[3])
if redis.call('SCARD', KEYS[2]) > max then
  for _, k in ipairs(redis.call('SMEMBERS', KEYS[2])) do
    if redis.call('EXISTS', k) == 0 then
      redis.call('SREM', KEYS[2], k)
    end
  end
  if redis.call('SCARD', KEYS[2]) > max then
    local ks = redis.call('SMEMBERS', KEYS[2])
    for i = 1, #ks, 1000 do
      redis.call('DEL', unpack(ks, i, math.min(i + 999, #ks)))
    end
    redis.call('DEL', KEYS[2])
  end
end
return 1
`)

// invalidateScript drops a tag's entries and its set.
var invalidateScript = redis.NewScript(`
local ks = redis.call('SMEMBERS', KEYS[1])
for i = 1, #ks, 1000 do
  redis.call('DEL', unpack(ks, i, math.min(i + 999, #ks)))
end
redis.call('DEL', KEYS[1])
return #ks
`)

// Set keeps value under key for ttl (at least a millisecond), in tag.
func (c *ProxyCache) Set(ctx context.Context, key, tag string, value []byte, ttl time.Duration) {
	ms := ttl.Milliseconds()
	if ms <= 0 || len(value) > c.opts.MaxValueBytes {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.opts.Timeout)
	defer cancel()
	if err := setScript.Run(ctx, c.rdb, []string{c.entryKey(key), c.tagKey(tag)}, value, ms, c.opts.MaxTagEntries).Err(); err != nil {
		c.failed("set", err)
	}
}

// Invalidate drops every entry of tag.
func (c *ProxyCache) Invalidate(ctx context.Context, tag string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.opts.Timeout)
	defer cancel()
	if err := invalidateScript.Run(ctx, c.rdb, []string{c.tagKey(tag)}).Err(); err != nil {
		c.failed("invalidate", err)
	}
}
