package protocol

import (
	"container/list"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/spec"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// Cache keeps the results a Client may reuse, by the rules of
// server/utilities/caching.mdx:
//
//   - Only the results of server/discover, tools/list, prompts/list,
//     resources/list, resources/templates/list and resources/read are
//     kept, and only complete ones: an InputRequiredResult, and the result
//     of a retry that carried inputResponses or requestState, are not.
//   - An entry is found by CacheKey: the method and the params that affect
//     the result (not _meta). A request that differs in either is not
//     answered from it.
//   - An entry is fresh while now < received + ttlMs; a ttlMs of 0, an
//     absent one (a server of an earlier revision) and a negative one
//     count as 0: the result is stale at once and not kept. A stale entry
//     is never served: the request goes to the server.
//   - cacheScope "public" entries may serve any Client that shares the
//     Cache and talks to the same server; "private" ones (and results
//     without a cacheScope) only Clients of the same authorization context
//     (ClientOptions.AuthContext, else the HTTPTransport's Authorization
//     header, else none: the Client's own).
//   - notifications/tools/list_changed, prompts/list_changed and
//     resources/list_changed make the cached lists of their kind stale at
//     once, and notifications/resources/updated the cached reads of its
//     URI. A list page whose cursor the server refuses discards every
//     cached page of that list, and a tools/call refused as invalid params
//     or method not found discards the cached tools/list.
//   - Nothing is fetched in the background: freshness is checked when a
//     result is needed.
//
// A Cache is safe for concurrent use; Clients of one package may share one
// (ClientOptions.Cache). Its size is bounded: the least recently used
// entries go first.
type Cache struct {
	mu      sync.Mutex
	max     int
	size    int
	lru     *list.List // of *cacheEntry, most recently used first
	entries map[cacheID]*list.Element
	// now is the clock; tests replace it.
	now func() time.Time
}

// cacheID locates an entry: the server, the authorization context ("" for
// public entries) and the cache key.
type cacheID struct {
	server, auth, key string
}

type cacheEntry struct {
	id       cacheID
	method   string
	uri      string // resources/read: the resource
	result   []byte
	received time.Time
	ttl      time.Duration
}

// cacheEntryOverhead is what an entry counts beyond its key and result.
const cacheEntryOverhead = 128

// defaultCacheBytes bounds a Cache made with NewCache(0).
const defaultCacheBytes = 16 << 20

// NewCache returns an empty cache that holds at most maxBytes of results
// (each entry counts its result, its key and 128 bytes); 0 means 16 MiB.
func NewCache(maxBytes int) *Cache {
	if maxBytes <= 0 {
		maxBytes = defaultCacheBytes
	}
	return &Cache{max: maxBytes, lru: list.New(), entries: map[cacheID]*list.Element{}, now: time.Now}
}

// Clear empties the cache.
func (c *Cache) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Init()
	c.entries = map[cacheID]*list.Element{}
	c.size = 0
}

// Len returns how many results the cache holds, fresh or stale.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// get returns a fresh result for key: the authorization context's private
// entry first, then a public one.
func (c *Cache) get(server, auth, key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	for _, a := range []string{auth, ""} {
		el, ok := c.entries[cacheID{server, a, key}]
		if !ok {
			continue
		}
		e := el.Value.(*cacheEntry)
		if !now.Before(e.received.Add(e.ttl)) {
			// Stale: never served; it goes.
			c.remove(el)
			continue
		}
		c.lru.MoveToFront(el)
		return e.result, true
	}
	return nil, false
}

// put records a result under key from its caching hints.
func (c *Cache) put(server, auth, key, method string, params, result []byte) {
	ttl := time.Duration(0)
	if raw := codec.Lookup(result, spec.MemberTTL); raw != nil {
		if n, isInt, inRange := codec.ParseInt(raw); isInt && inRange {
			ttl = TTL(n)
		}
	}
	scope, _ := HeaderText(codec.Lookup(result, spec.MemberCacheScope))
	c.mu.Lock()
	defer c.mu.Unlock()
	private := cacheID{server, auth, key}
	public := cacheID{server, "", key}
	// A newer answer replaces what was kept for the key in this context.
	for _, id := range []cacheID{private, public} {
		if el, ok := c.entries[id]; ok && (id == private || scope == "public" || ttl <= 0) {
			c.remove(el)
		}
	}
	if ttl <= 0 {
		return // stale at once: nothing to keep
	}
	id := private
	if scope == "public" {
		id = public
	}
	e := &cacheEntry{id: id, method: method, result: result, received: c.now(), ttl: ttl}
	if method == spec.MethodReadResource {
		e.uri, _ = HeaderText(codec.Lookup(params, "uri"))
	}
	cost := e.cost()
	if cost > c.max {
		return
	}
	c.entries[id] = c.lru.PushFront(e)
	c.size += cost
	for c.size > c.max {
		c.remove(c.lru.Back())
	}
}

func (e *cacheEntry) cost() int {
	return len(e.result) + len(e.id.key) + len(e.id.server) + len(e.id.auth) + len(e.uri) + cacheEntryOverhead
}

func (c *Cache) remove(el *list.Element) {
	e := el.Value.(*cacheEntry)
	c.lru.Remove(el)
	delete(c.entries, e.id)
	c.size -= e.cost()
}

// invalidate drops the entries of a server for method, in every
// authorization context; a uri other than "" drops only the entries of
// that resource.
func (c *Cache) invalidate(server, method, uri string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for el := c.lru.Front(); el != nil; {
		next := el.Next()
		e := el.Value.(*cacheEntry)
		if e.id.server == server && e.method == method && (uri == "" || e.uri == uri) {
			c.remove(el)
		}
		el = next
	}
}
