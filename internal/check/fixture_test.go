package check

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/check/fixture"
	"github.com/mcpgen/mcpgen/internal/check/wire"
)

// The test binary is also the fixture server: run with the first
// argument "mcpgen-check-fixture", it serves package fixture over stdio.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "mcpgen-check-fixture" {
		os.Exit(fixture.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// testOptions are quick limits for the fixtures.
func testOptions() Options {
	o := DefaultOptions()
	o.Limits = wire.Limits{Timeout: 2 * time.Second, MaxBytes: 1 << 20, MaxMessages: 200, Linger: 300 * time.Millisecond, ExitWait: 3 * time.Second}
	o.Quiet = 200 * time.Millisecond
	o.Deadline = time.Minute
	o.NoClient = true
	o.SecondHeader = http.Header{"Authorization": {fixture.SecondPrincipal}}
	return o
}

// fixtureTarget serves c over transport ("stdio": the test binary run
// again; "http": an httptest server on 127.0.0.1, closed with the test).
func fixtureTarget(t *testing.T, c fixture.Config, transport string) Target {
	t.Helper()
	if transport == "stdio" {
		argv := []string{os.Args[0], "mcpgen-check-fixture"}
		if c.Revision != "" {
			argv = append(argv, "-revision", c.Revision)
		}
		if c.Break != "" {
			argv = append(argv, "-break", c.Break)
		}
		if c.Hostile != "" {
			argv = append(argv, "-hostile", c.Hostile)
		}
		if c.HugeBytes != 0 {
			argv = append(argv, "-huge-bytes", strconvItoa(c.HugeBytes))
		}
		return Target{Command: argv}
	}
	h, err := fixture.Handler(c)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return Target{URL: srv.URL + "/mcp"}
}

func strconvItoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// notPassing lists the rules of the report that failed, warned or could
// not be judged, with what was said, by rule.
func notPassing(rep *Report) map[string][]string {
	out := map[string][]string{}
	for _, r := range rep.Runs {
		for _, f := range r.Findings {
			for _, p := range f.Places {
				out[f.Rule] = append(out[f.Rule], r.Revision+": "+string(f.Status)+": "+p.Step+": "+p.Message)
			}
			if len(f.Places) == 0 {
				out[f.Rule] = append(out[f.Rule], r.Revision+": "+string(f.Status))
			}
		}
		if r.Aborted != "" {
			out["(aborted)"] = append(out["(aborted)"], r.Revision+": "+r.Aborted)
		}
	}
	return out
}

func keys(m map[string][]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func callsOf(t *testing.T, specs []string) []Call {
	var out []Call
	for _, s := range specs {
		name, args, _ := strings.Cut(s, "=")
		if !json.Valid([]byte(args)) {
			t.Fatalf("bad call %q", s)
		}
		out = append(out, Call{Tool: name, Args: json.RawMessage(args)})
	}
	return out
}

// TestFixtureClean checks that the unbroken fixture passes every rule, in
// each revision it serves, over stdio and HTTP (with the --call probes).
func TestFixtureClean(t *testing.T) {
	for _, rev := range []string{"2026-07-28", "2025-11-25", "2025-06-18"} {
		for _, tr := range []string{"stdio", "http"} {
			t.Run(rev+"/"+tr, func(t *testing.T) {
				t.Parallel()
				o := testOptions()
				o.NoClient = false
				o.Calls = callsOf(t, []string{"a={}", `region={"region":"eu"}`, `b={"n":1}`})
				start := time.Now()
				rep, err := Run(context.Background(), fixtureTarget(t, fixture.Config{Revision: rev}, tr), o)
				if err != nil {
					t.Fatal(err)
				}
				if np := notPassing(rep); len(np) > 0 {
					for _, k := range keys(np) {
						t.Errorf("%s: %s", k, strings.Join(np[k], "\n\t"))
					}
				}
				if len(rep.Runs) != 1 || rep.Runs[0].Revision != rev {
					t.Errorf("checked %d runs, want one of %s", len(rep.Runs), rev)
				}
				if !strings.Contains(rep.Client, "connected at "+rev) {
					t.Errorf("client step: %s", rep.Client)
				}
				if rep.Summary.ExitCode != 0 {
					t.Errorf("exit code %d", rep.Summary.ExitCode)
				}
				t.Logf("%s in %s: %+v", rev, time.Since(start).Round(time.Millisecond), rep.Summary)
			})
		}
	}
}

// TestFixtureBreaks checks that each break of the fixture is reported as
// exactly its rule, and nothing else.
func TestFixtureBreaks(t *testing.T) {
	for _, b := range fixture.Breaks {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			o := testOptions()
			o.Calls = callsOf(t, b.Calls)
			rep, err := Run(context.Background(), fixtureTarget(t, fixture.Config{Revision: b.Revision, Break: b.Name}, b.Transport), o)
			if err != nil {
				t.Fatal(err)
			}
			np := notPassing(rep)
			if got := keys(np); !slices.Equal(got, []string{b.Rule}) {
				var lines []string
				for _, k := range got {
					lines = append(lines, k+": "+strings.Join(np[k], "\n\t\t"))
				}
				t.Errorf("break %s (%s): reported %q, want [%s]\n\t%s", b.Name, b.What, got, b.Rule, strings.Join(lines, "\n\t"))
			}
			want := 1
			if rule(b.Rule).Level == Should {
				want = 0
			}
			if rep.Summary.ExitCode != want {
				t.Errorf("exit code %d, want %d", rep.Summary.ExitCode, want)
			}
		})
	}
}

// TestRulesCovered checks that every rule has a fixture that breaks it
// (or says why there is none), and every break names a rule.
func TestRulesCovered(t *testing.T) {
	broken := map[string]bool{}
	for _, b := range fixture.Breaks {
		if RuleByID(b.Rule) == nil {
			t.Errorf("break %s: no rule %q", b.Name, b.Rule)
		}
		if b.Transport != "stdio" && b.Transport != "http" {
			t.Errorf("break %s: transport %q", b.Name, b.Transport)
		}
		broken[b.Rule] = true
	}
	for _, r := range Rules {
		_, why := fixture.Unbroken[r.ID]
		switch {
		case broken[r.ID] && why:
			t.Errorf("%s has a break and is listed as unbroken", r.ID)
		case !broken[r.ID] && !why:
			t.Errorf("%s: no break of the fixture breaks it", r.ID)
		}
	}
	for id := range fixture.Unbroken {
		if RuleByID(id) == nil {
			t.Errorf("unbroken %q is no rule", id)
		}
	}
}

// cache-public-same-for-principals is judged (and passes) on the clean
// fixture when a second principal is given, and is skipped, saying why,
// without one; its break is reported with both results.
func TestPublicAcrossPrincipals(t *testing.T) {
	status := func(rep *Report) *RuleStatus {
		for _, st := range rep.Runs[0].Rules {
			if st.Rule == "cache-public-same-for-principals" {
				return st
			}
		}
		t.Fatal("no status of cache-public-same-for-principals")
		return nil
	}
	o := testOptions()
	rep, err := Run(context.Background(), fixtureTarget(t, fixture.Config{}, "http"), o)
	if err != nil {
		t.Fatal(err)
	}
	if st := status(rep); st.Status != Pass {
		t.Errorf("clean fixture: %+v", st)
	}
	o.SecondHeader = nil
	rep, err = Run(context.Background(), fixtureTarget(t, fixture.Config{}, "http"), o)
	if err != nil {
		t.Fatal(err)
	}
	if st := status(rep); st.Status != Skip || st.Reason != "no second principal (--second-principal-header)" {
		t.Errorf("without a second principal: %+v", st)
	}
	rep, err = Run(context.Background(), fixtureTarget(t, fixture.Config{Break: "public-per-principal"}, "http"), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	np := notPassing(rep)["cache-public-same-for-principals"]
	if len(np) != 1 || !strings.Contains(np[0], "fail: tools/list (second principal): a public tools/list result differs between the two principals") {
		t.Errorf("the break: %q", np)
	}
}
