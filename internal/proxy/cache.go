package proxy

import (
	"context"
	"sync"
	"time"
)

// A Store keeps cached results for the proxy: the JSON of a result under
// a key, until its expiry. Tags group entries that one notification drops
// (tools/list's pages, a resource's reads). A Store is safe for
// concurrent use; several proxies may share one: the replicas module's
// ProxyCache keeps the entries in Redis, so that a public result one
// proxy instance fetched is a hit in every other.
//
// A Store has no errors to return: one that cannot reach its backing
// (Redis down) answers Get with a miss and drops Set, and the proxy
// forwards the request upstream as without a cache. ctx is the
// downstream request's (for Get and Set) or the proxy's (Invalidate),
// for the store's deadlines and traces.
type Store interface {
	// Get returns the value of key if it is there and not expired.
	Get(ctx context.Context, key string) ([]byte, bool)
	// Set keeps value under key for ttl, tagged with tag.
	Set(ctx context.Context, key, tag string, value []byte, ttl time.Duration)
	// Invalidate drops every entry of tag.
	Invalidate(ctx context.Context, tag string)
}

// MemoryStore is a Store in this process's memory, bounded in bytes: when
// a new entry would pass the bound, expired entries go first, then the
// entries that expire soonest.
type MemoryStore struct {
	mu       sync.Mutex
	maxBytes int
	bytes    int
	entries  map[string]memEntry
	now      func() time.Time
}

type memEntry struct {
	tag     string
	value   []byte
	expires time.Time
}

// NewMemoryStore returns a MemoryStore holding at most maxBytes of keys
// and values (0: 64 MiB).
func NewMemoryStore(maxBytes int) *MemoryStore {
	if maxBytes <= 0 {
		maxBytes = 64 << 20
	}
	return &MemoryStore{maxBytes: maxBytes, entries: map[string]memEntry{}, now: time.Now}
}

// Get implements Store.
func (s *MemoryStore) Get(_ context.Context, key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[key]
	if !ok {
		return nil, false
	}
	if !s.now().Before(e.expires) {
		s.drop(key, e)
		return nil, false
	}
	return e.value, true
}

// Set implements Store. A value larger than the whole bound is not kept.
func (s *MemoryStore) Set(_ context.Context, key, tag string, value []byte, ttl time.Duration) {
	size := len(key) + len(value)
	if ttl <= 0 || size > s.maxBytes {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.entries[key]; ok {
		s.drop(key, old)
	}
	now := s.now()
	if s.bytes+size > s.maxBytes {
		for k, e := range s.entries {
			if !now.Before(e.expires) {
				s.drop(k, e)
			}
		}
	}
	for s.bytes+size > s.maxBytes {
		var soonest string
		var at time.Time
		for k, e := range s.entries {
			if soonest == "" || e.expires.Before(at) {
				soonest, at = k, e.expires
			}
		}
		s.drop(soonest, s.entries[soonest])
	}
	s.entries[key] = memEntry{tag: tag, value: value, expires: now.Add(ttl)}
	s.bytes += size
}

// Invalidate implements Store.
func (s *MemoryStore) Invalidate(_ context.Context, tag string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, e := range s.entries {
		if e.tag == tag {
			s.drop(k, e)
		}
	}
}

// Len returns how many entries the store holds.
func (s *MemoryStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

func (s *MemoryStore) drop(key string, e memEntry) {
	delete(s.entries, key)
	s.bytes -= len(key) + len(e.value)
}
