package protocol

import (
	"strings"
	"testing"
	"time"
)

// The cache's rules on a clock of the test's own (server/utilities/caching.mdx);
// conformance/client_cache_test.go checks them through a Client.

func newTestCache(now *time.Time) *Cache {
	c := NewCache(0)
	c.now = func() time.Time { return *now }
	return c
}

func TestCacheFreshness(t *testing.T) {
	now := time.Unix(1000, 0)
	c := newTestCache(&now)
	c.put("s", "a", "k", "tools/list", nil, []byte(`{"tools":[],"ttlMs":1000,"cacheScope":"public"}`))
	// Fresh while now < t_received + ttlMs.
	now = now.Add(999 * time.Millisecond)
	if _, ok := c.get("s", "a", "k"); !ok {
		t.Error("stale before its ttl")
	}
	now = now.Add(time.Millisecond) // now == t_received + ttlMs
	if _, ok := c.get("s", "a", "k"); ok {
		t.Error("fresh at received + ttl")
	}
	if c.Len() != 0 {
		t.Error("a stale entry was kept")
	}
}

func TestCacheTTLRules(t *testing.T) {
	now := time.Unix(1000, 0)
	c := newTestCache(&now)
	for _, tc := range []struct {
		result string
		kept   bool
	}{
		{`{"ttlMs":0,"cacheScope":"public"}`, false},                  // immediately stale
		{`{"cacheScope":"public"}`, false},                            // absent: 0
		{`{"ttlMs":-5,"cacheScope":"public"}`, false},                 // negative: 0
		{`{"ttlMs":1.5,"cacheScope":"public"}`, false},                // not an integer: ignored, 0
		{`{"ttlMs":1,"cacheScope":"public"}`, true},                   // 1 ms
		{`{"ttlMs":1e20,"cacheScope":"public"}`, false},               // beyond int64: ignored
		{`{"ttlMs":1000000000,"cacheScope":"x"}`, true},               // an unknown scope counts as private
		{`{"ttlMs":9223372036854775807,"cacheScope":"public"}`, true}, // capped, not overflowed
	} {
		c.Clear()
		c.put("s", "a", "k", "tools/list", nil, []byte(tc.result))
		if _, ok := c.get("s", "a", "k"); ok != tc.kept {
			t.Errorf("%s: kept %v, want %v", tc.result, ok, tc.kept)
		}
	}
	// A newer answer that says ttl 0 drops the entry kept for the key.
	c.Clear()
	c.put("s", "a", "k", "tools/list", nil, []byte(`{"ttlMs":60000,"cacheScope":"public"}`))
	c.put("s", "a", "k", "tools/list", nil, []byte(`{"ttlMs":0,"cacheScope":"public"}`))
	if _, ok := c.get("s", "a", "k"); ok {
		t.Error("a ttl-0 answer left the older entry in place")
	}
}

func TestCacheScopes(t *testing.T) {
	now := time.Unix(1000, 0)
	c := newTestCache(&now)
	c.put("s", "alice", "pub", "tools/list", nil, []byte(`{"ttlMs":60000,"cacheScope":"public"}`))
	c.put("s", "alice", "priv", "resources/read", []byte(`{"uri":"file:///a"}`), []byte(`{"ttlMs":60000,"cacheScope":"private"}`))
	c.put("s", "alice", "none", "resources/read", []byte(`{"uri":"file:///b"}`), []byte(`{"ttlMs":60000}`))
	if _, ok := c.get("s", "bob", "pub"); !ok {
		t.Error("a public entry is not shared with another authorization context")
	}
	if _, ok := c.get("s", "bob", "priv"); ok {
		t.Error("a private entry is shared across authorization contexts")
	}
	if _, ok := c.get("s", "bob", "none"); ok {
		t.Error("an entry without cacheScope is shared across authorization contexts")
	}
	if _, ok := c.get("s", "alice", "priv"); !ok {
		t.Error("a private entry does not serve its own authorization context")
	}
	if _, ok := c.get("other", "alice", "pub"); ok {
		t.Error("an entry serves another server")
	}
	// A private answer for alice is hers; bob still gets the public one.
	c.put("s", "alice", "pub", "tools/list", nil, []byte(`{"ttlMs":60000,"cacheScope":"private","mine":1}`))
	if r, _ := c.get("s", "alice", "pub"); !strings.Contains(string(r), "mine") {
		t.Errorf("alice got %s", r)
	}
	if r, _ := c.get("s", "bob", "pub"); strings.Contains(string(r), "mine") || r == nil {
		t.Errorf("bob got %s", r)
	}
}

func TestCacheInvalidate(t *testing.T) {
	now := time.Unix(1000, 0)
	c := newTestCache(&now)
	long := []byte(`{"ttlMs":60000,"cacheScope":"public"}`)
	c.put("s", "a", "tools/list {}", "tools/list", nil, long)
	c.put("s", "a", `tools/list {"cursor":"2"}`, "tools/list", nil, long)
	c.put("s", "a", "prompts/list {}", "prompts/list", nil, long)
	c.put("s", "a", `read a`, "resources/read", []byte(`{"uri":"file:///a"}`), long)
	c.put("s", "a", `read b`, "resources/read", []byte(`{"uri":"file:///b"}`), long)
	c.put("t", "a", "tools/list {}", "tools/list", nil, long)
	c.invalidate("s", "tools/list", "")
	if c.Len() != 4 {
		t.Errorf("%d entries after dropping the tools/list pages of s, want 4", c.Len())
	}
	c.invalidate("s", "resources/read", "file:///a")
	if _, ok := c.get("s", "a", "read a"); ok {
		t.Error("the read of the updated resource survived")
	}
	if _, ok := c.get("s", "a", "read b"); !ok {
		t.Error("the read of another resource was dropped")
	}
}

func TestCacheBound(t *testing.T) {
	now := time.Unix(1000, 0)
	c := NewCache(2000)
	c.now = func() time.Time { return now }
	big := []byte(`{"ttlMs":60000,"cacheScope":"public","pad":"` + strings.Repeat("x", 600) + `"}`)
	for _, k := range []string{"a", "b", "c", "d"} {
		c.put("s", "", k, "tools/list", nil, big)
		c.get("s", "", "a") // a stays the most recently used
	}
	if c.Len() != 2 || c.size > 2000 {
		t.Errorf("%d entries, %d bytes, over the bound", c.Len(), c.size)
	}
	if _, ok := c.get("s", "", "a"); !ok {
		t.Error("the most recently used entry was evicted")
	}
	huge := []byte(`{"ttlMs":60000,"cacheScope":"public","pad":"` + strings.Repeat("x", 3000) + `"}`)
	c.put("s", "", "huge", "tools/list", nil, huge)
	if _, ok := c.get("s", "", "huge"); ok {
		t.Error("an entry larger than the cache was kept")
	}
}
