package check

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/check/fixture"
)

// TestHostile runs the check against servers that hang, exit, flood or
// send what no limit allows: each ends within its bound, with a setup
// error (exit 2) or findings (exit 1), never a hang.
func TestHostile(t *testing.T) {
	for _, c := range []struct {
		hostile, transport string
		setup              string // a setup error containing this, or
		rule, note         string // a finding of rule (and a note containing note)
		exit               int
		maxBytes           int64
		bound              time.Duration
	}{
		{hostile: "hang", transport: "stdio", setup: "no answer to server/discover", bound: 15 * time.Second},
		{hostile: "hang", transport: "http", setup: "no answer to server/discover", bound: 15 * time.Second},
		{hostile: "exit-at-start", transport: "stdio", setup: "exit status 3", bound: 10 * time.Second},
		{hostile: "exit-after-discover", transport: "stdio", rule: "request-answered", exit: 1, bound: 20 * time.Second},
		{hostile: "huge", transport: "stdio", rule: "request-answered", exit: 1, bound: 20 * time.Second},
		{hostile: "huge", transport: "http", rule: "request-answered", exit: 1, bound: 20 * time.Second},
		{hostile: "long-line", transport: "stdio", rule: "request-answered", exit: 1, bound: 20 * time.Second},
		{hostile: "garbage", transport: "stdio", rule: "stdio-stdout-only-mcp", exit: 1, bound: 20 * time.Second},
		{hostile: "deep", transport: "stdio", rule: "stdio-stdout-only-mcp", exit: 1, bound: 30 * time.Second},
		{hostile: "deep", transport: "http", rule: "http-response-content-type", exit: 1, bound: 30 * time.Second},
		{hostile: "slow", transport: "stdio", setup: "no answer", bound: 20 * time.Second},
		{hostile: "sse-forever", transport: "http", setup: "more than 200 messages", bound: 15 * time.Second},
		{hostile: "flood", transport: "stdio", setup: "more than 200 messages", bound: 20 * time.Second},
		{hostile: "pages", transport: "stdio", note: "stopped after 5 pages", bound: 20 * time.Second},
		{hostile: "pages", transport: "http", note: "stopped after 5 pages", bound: 20 * time.Second},
		{hostile: "huge-schema", transport: "http", rule: "tool-input-schema-valid", exit: 1, maxBytes: 8 << 20, bound: 20 * time.Second},
		{hostile: "redirect", transport: "http", setup: "HTTP 307", bound: 10 * time.Second},
	} {
		t.Run(c.hostile+"/"+c.transport, func(t *testing.T) {
			t.Parallel()
			o := testOptions()
			o.MaxPages = 5
			if c.maxBytes != 0 {
				o.Limits.MaxBytes = c.maxBytes
			}
			start := time.Now()
			rep, err := Run(context.Background(), fixtureTarget(t, fixture.Config{Hostile: c.hostile, HugeBytes: 4 << 20}, c.transport), o)
			took := time.Since(start)
			if took > c.bound {
				t.Errorf("took %s, more than %s", took.Round(time.Millisecond), c.bound)
			}
			var se *SetupError
			if c.setup != "" {
				if !errors.As(err, &se) || !strings.Contains(se.Msg, c.setup) {
					t.Fatalf("got %v, want a setup error saying %q", err, c.setup)
				}
				t.Logf("%s in %s", se.Msg, took.Round(time.Millisecond))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			np := notPassing(rep)
			if c.rule != "" && np[c.rule] == nil {
				t.Errorf("no finding of %s; found %q", c.rule, keys(np))
			}
			if c.note != "" && !strings.Contains(strings.Join(rep.Runs[0].Notes, "\n"), c.note) {
				t.Errorf("no note %q in %q", c.note, rep.Runs[0].Notes)
			}
			if rep.Summary.ExitCode != c.exit {
				t.Errorf("exit code %d, want %d (%q)", rep.Summary.ExitCode, c.exit, keys(np))
			}
			t.Logf("in %s: %q %s", took.Round(time.Millisecond), keys(np), np[c.rule])
		})
	}
}
