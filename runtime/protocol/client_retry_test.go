package protocol

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// TestBackoff: each delay is the base doubled per failure, capped, less at
// most a fifth.
func TestBackoff(t *testing.T) {
	p := retryPolicy{attempts: 10, delay: 100 * time.Millisecond, maxDelay: time.Second}
	for n, want := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		want *= time.Millisecond
		for range 50 {
			d := p.backoff(n + 1)
			if d > want || d < want-want/5 {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", n+1, d, want-want/5, want)
			}
		}
	}
}

func TestRetryAfterValue(t *testing.T) {
	for _, c := range []struct {
		v        string
		min, max time.Duration
	}{
		{"", 0, 0},
		{"3", 3 * time.Second, 3 * time.Second},
		{" 0 ", 0, 0},
		{"-1", 0, 0},
		{"soon", 0, 0},
		{time.Now().Add(10 * time.Second).UTC().Format(http.TimeFormat), 8 * time.Second, 10 * time.Second},
		{time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat), 0, 0},
	} {
		if d := retryAfterValue(c.v); d < c.min || d > c.max {
			t.Errorf("retryAfterValue(%q) = %v, want within [%v, %v]", c.v, d, c.min, c.max)
		}
	}
}

// TestTransportFailure: refused connections were not sent; resets and
// early ends may have been; anything else is not transient.
func TestTransportFailure(t *testing.T) {
	for _, c := range []struct {
		err     error
		reached int // -1: not transient
	}{
		{fmt.Errorf("dial: %w", syscall.ECONNREFUSED), notSent},
		{fmt.Errorf("read: %w", syscall.ECONNRESET), maybeRun},
		{fmt.Errorf("post: %w", io.EOF), maybeRun},
		{errors.New("x509: certificate signed by unknown authority"), -1},
	} {
		err := transportFailure(c.err)
		te := asTransient(err)
		switch {
		case c.reached < 0 && te != nil:
			t.Errorf("%v: marked transient", c.err)
		case c.reached >= 0 && (te == nil || te.reached != c.reached):
			t.Errorf("%v: %+v, want reached %d", c.err, te, c.reached)
		}
	}
}
