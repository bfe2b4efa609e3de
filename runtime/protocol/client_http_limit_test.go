package protocol_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// hugeAnswer answers every POST with size bytes: JSON with or without a
// Content-Length, or one event of an event stream.
func hugeAnswer(size int, mode string, posts *atomic.Int64) http.Handler {
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		switch mode {
		case "json":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(size))
		case "json-chunked":
			w.Header().Set("Content-Type", "application/json")
		case "sse":
			w.Header().Set("Content-Type", "text/event-stream")
		}
		w.WriteHeader(200)
		if mode == "sse" {
			w.Write([]byte("data: "))
		}
		for sent := 0; sent < size; sent += len(chunk) {
			if _, err := w.Write(chunk[:min(len(chunk), size-sent)]); err != nil {
				return
			}
		}
		if mode == "sse" {
			w.Write([]byte("\n\n"))
		}
	})
}

// TestClientAnswerAboveTheLimit: a 100 MB answer is refused, having cost
// the client at most twice its limit in allocations per answer (plus a
// constant), whether its length is stated, unknown, or one event of a
// stream. (Connect may try more than one request: each gets the answer.)
func TestClientAnswerAboveTheLimit(t *testing.T) {
	const size = 100 << 20
	// What a first Connect allocates once (schemas compiled) is not
	// counted.
	warm := httptest.NewServer(http.NotFoundHandler())
	mcp20260728.Connect(context.Background(), &mcp20260728.HTTPTransport{URL: warm.URL}, nil, mcp20260728.ClientOptions{})
	warm.Close()
	for _, tc := range []struct {
		mode  string
		limit int // 0: the default, 64 MiB
		want  string
	}{
		{"json", 8 << 20, "the body is longer than 8388608 bytes (104857600)"},
		{"json", 1 << 20, "the body is longer than 1048576 bytes (104857600)"},
		{"json-chunked", 8 << 20, "the body is longer than 8388608 bytes"},
		{"sse", 8 << 20, "server-sent event too long (the limit is 8388608 bytes)"},
		{"json-chunked", 0, "the body is longer than 67108864 bytes"},
	} {
		t.Run(tc.mode+"/"+strconv.Itoa(tc.limit), func(t *testing.T) {
			var posts atomic.Int64
			s := httptest.NewServer(hugeAnswer(size, tc.mode, &posts))
			defer s.Close()
			limit := tc.limit
			if limit == 0 {
				limit = 64 << 20
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := mcp20260728.Connect(ctx, &mcp20260728.HTTPTransport{URL: s.URL, MaxMessageBytes: tc.limit}, nil, mcp20260728.ClientOptions{})
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			n := uint64(posts.Load())
			t.Logf("%.1f MiB allocated for %d answers of 100 MiB, limit %d MiB", float64(alloc)/(1<<20), n, limit>>20)
			if n == 0 || alloc > n*(2*uint64(limit)+1<<20) {
				t.Errorf("%d bytes allocated for %d answers, limit %d", alloc, n, limit)
			}
		})
	}
}
