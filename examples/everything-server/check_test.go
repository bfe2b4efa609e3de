package main

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/check"
)

// The test binary is also the server: with the first argument
// "mcpgen-everything-stdio" it runs main, serving stdio.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "mcpgen-everything-stdio" {
		os.Args = os.Args[:1]
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestCheck runs mcpgen check against the server in every revision it
// serves, over stdio and Streamable HTTP: no MUST rule fails, none is
// left unjudged, and the revisions are those the dispatcher serves.
func TestCheck(t *testing.T) {
	for _, tr := range []string{"stdio", "http"} {
		t.Run(tr, func(t *testing.T) {
			t.Parallel()
			var target check.Target
			if tr == "stdio" {
				target.Command = []string{os.Args[0], "mcpgen-everything-stdio"}
			} else {
				s := newServer(slog.New(slog.NewTextHandler(t.Output(), nil)))
				d := mcp.NewServerDispatcher(s, s.options())
				srv := httptest.NewServer(mcp.NewHTTPHandler(d))
				t.Cleanup(func() {
					ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
					defer cancel()
					_ = s.close(ctx)
					srv.Close()
				})
				target.URL = srv.URL + "/mcp"
			}
			o := check.DefaultOptions()
			o.Revision = "all"
			o.Quiet = 300 * time.Millisecond
			rep, err := check.Run(context.Background(), target, o)
			if err != nil {
				t.Fatal(err)
			}
			var revs []string
			for _, r := range rep.Runs {
				revs = append(revs, r.Revision)
				if r.Aborted != "" {
					t.Errorf("%s: stopped: %s", r.Revision, r.Aborted)
				}
				for _, f := range r.Findings {
					for _, p := range f.Places {
						if f.Status == check.Warn {
							t.Logf("%s: SHOULD %s: %s: %s", r.Revision, f.Rule, p.Step, p.Message)
						} else {
							t.Errorf("%s: %s %s %s: %s: %s", r.Revision, f.Level, f.Status, f.Rule, p.Step, p.Message)
						}
					}
				}
			}
			if want := []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}; !slices.Equal(revs, want) {
				t.Errorf("checked %q, want %q", revs, want)
			}
			if rep.Summary.ExitCode != 0 {
				t.Errorf("exit code %d", rep.Summary.ExitCode)
			}
			t.Logf("%+v; %s", rep.Summary, rep.Client)
		})
	}
}
