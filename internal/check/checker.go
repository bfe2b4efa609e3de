// Package check is mcpgen check: it connects to a running MCP server (a
// command over stdio, or a Streamable HTTP URL), negotiates a revision the
// way the generated client does, walks what the server declares, sends
// the probes of the rule catalogue (Rules), validates every message it
// receives with the generated validators of that revision, and reports
// each rule's outcome.
//
// Everything is sent through package wire, which writes bytes as given
// and records the answers raw: the generated client normalizes what a
// checker must see, and cannot send the deliberately wrong requests the
// probes are made of. The generated client is used at the end, to say
// whether mcpgen's own client accepts the server.
package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/internal/check/wire"
)

// Options configure a check.
type Options struct {
	// Revision is "" (the revision the server negotiates, as the generated
	// client does), "all" (every revision the server serves), or one.
	Revision string
	Limits   wire.Limits
	// Deadline bounds the whole check; what has not run by then is an error.
	Deadline time.Duration
	// Header is added to every HTTP request (such as Authorization).
	Header http.Header
	// SecondHeader, if set, names a second principal (another
	// Authorization, say): the public results of server/discover and the
	// lists are asked for with it in place of Header too, and must be the
	// same (cache-public-same-for-principals).
	SecondHeader http.Header
	// Calls are the tools/call requests allowed (--call TOOL=ARGS).
	Calls []Call
	// FailOnShould makes a SHOULD warning exit 1.
	FailOnShould bool
	// MaxPages bounds each list walk; MaxReads and MaxGets the resources
	// read and the prompts got.
	MaxPages, MaxReads, MaxGets int
	// OriginCheck runs the Origin and Host probes on a non-loopback URL.
	OriginCheck bool
	// Quiet is how long a stdio notification waits for an answer it must
	// not get.
	Quiet time.Duration
	// Progress, if set, receives a line per step.
	Progress func(string)
	// Version is mcpgen's version, sent as the client's.
	Version string
	// NoClient skips the step with mcpgen's generated client.
	NoClient bool
	// Verbose keeps bodies of up to 64 KiB in the report (else 200 bytes).
	Verbose bool
	// Schema, when set, is the JSON Schema the server's messages are
	// validated against (by the runtime's codec.Schema) instead of the
	// generated package of Revision, which must then name one pinned
	// revision: its exchanges and rules apply. SchemaOrigin names it in
	// the report. ProtocolVersion is the version spoken on the wire
	// (default: Revision), such as a draft's. mcpgen's generated client
	// is not run (NoClient): it speaks the pinned revisions only.
	Schema          []byte
	SchemaOrigin    string
	ProtocolVersion string
}

// Call is one tools/call the check may make.
type Call struct {
	Tool string
	Args json.RawMessage
}

// DefaultOptions are mcpgen check's defaults.
func DefaultOptions() Options {
	return Options{Limits: wire.DefaultLimits, Deadline: 3 * time.Minute, MaxPages: 50, MaxReads: 25, MaxGets: 25, Quiet: time.Second, Version: "devel"}
}

// SetupError is a check that could not start: the command does not run,
// the URL does not answer, no revision could be negotiated (exit 2).
type SetupError struct{ Msg string }

func (e *SetupError) Error() string { return e.Msg }

type checker struct {
	t   Target
	o   Options
	ctx context.Context
	rep *Report
	// schemaRev is the revision of Options.Schema, nil without one.
	schemaRev *revision
	// facts from one run that another needs
	discovered []string // supportedVersions of the 2026-07-28 run
	// probe is the server/discover probe of the 2026-07-28 run over
	// stdio, nil when none was sent; probeExit says the process exited on
	// it (discover-probe-survived).
	probe     *wire.Exchange
	probeExit string
}

// Run checks the server t. The error is a *SetupError when no check could
// be made; otherwise the report says what was found (Summary.ExitCode).
func Run(ctx context.Context, t Target, o Options) (*Report, error) {
	d := DefaultOptions()
	if o.Limits.Timeout <= 0 {
		o.Limits.Timeout = d.Limits.Timeout
	}
	if o.Limits.MaxBytes <= 0 {
		o.Limits.MaxBytes = d.Limits.MaxBytes
	}
	if o.Limits.MaxMessages <= 0 {
		o.Limits.MaxMessages = d.Limits.MaxMessages
	}
	if o.Limits.Linger <= 0 {
		o.Limits.Linger = d.Limits.Linger
	}
	if o.Limits.ExitWait <= 0 {
		o.Limits.ExitWait = d.Limits.ExitWait
	}
	if o.Deadline <= 0 {
		o.Deadline = d.Deadline
	}
	if o.MaxPages <= 0 {
		o.MaxPages = d.MaxPages
	}
	if o.MaxReads <= 0 {
		o.MaxReads = d.MaxReads
	}
	if o.MaxGets <= 0 {
		o.MaxGets = d.MaxGets
	}
	if o.Quiet <= 0 {
		o.Quiet = d.Quiet
	}
	if o.Version == "" {
		o.Version = d.Version
	}
	switch {
	case t.URL != "" && len(t.Command) > 0:
		return nil, &SetupError{"check a URL or a command, not both"}
	case t.URL != "":
		u, err := url.Parse(t.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, &SetupError{fmt.Sprintf("%q is not an http:// or https:// URL", t.URL)}
		}
		t.Kind = "http"
	case len(t.Command) > 0:
		t.Kind = "stdio"
	default:
		return nil, &SetupError{"nothing to check: give a URL or -- COMMAND"}
	}
	if o.ProtocolVersion != "" && o.Schema == nil {
		return nil, &SetupError{"a protocol version of its own needs the schema that speaks it (--schema)"}
	}
	var schemaRev *revision
	if o.Schema != nil {
		rules := revisionOf(o.Revision)
		if rules == nil {
			var names []string
			for _, r := range revisions {
				names = append(names, r.name)
			}
			return nil, &SetupError{fmt.Sprintf("a check with --schema needs --revision: the revision whose exchanges and rules apply, one of %s", strings.Join(names, ", "))}
		}
		version := o.ProtocolVersion
		if version == "" {
			version = rules.name
		}
		var err error
		if schemaRev, err = schemaRevision(rules, version, o.Schema); err != nil {
			return nil, &SetupError{fmt.Sprintf("the schema %s: %v", o.SchemaOrigin, err)}
		}
		o.NoClient = true
	}
	if o.Revision != "" && o.Revision != "all" && revisionOf(o.Revision) == nil {
		var names []string
		for _, r := range revisions {
			names = append(names, r.name)
		}
		return nil, &SetupError{fmt.Sprintf("mcpgen check knows revisions %s, not %q", strings.Join(names, ", "), o.Revision)}
	}
	ctx, cancel := context.WithTimeoutCause(ctx, o.Deadline, fmt.Errorf("the check's deadline (%s) passed", o.Deadline))
	defer cancel()
	ck := &checker{t: t, o: o, ctx: ctx, schemaRev: schemaRev, rep: &Report{Format: "mcpgen-check/1", Mcpgen: o.Version, Target: t}}
	if schemaRev != nil {
		ck.rep.Schema = o.SchemaOrigin
	}
	if err := ck.check(); err != nil {
		return nil, err
	}
	if !o.NoClient {
		ck.rep.Client = ck.client()
	}
	ck.rep.finish(o.FailOnShould)
	return ck.rep, nil
}

func (ck *checker) progress(format string, args ...any) {
	if ck.o.Progress != nil {
		ck.o.Progress(fmt.Sprintf(format, args...))
	}
}

func (ck *checker) transport() Transport {
	if ck.t.Kind == "http" {
		return HTTP
	}
	return Stdio
}

// check negotiates and runs each revision to check.
func (ck *checker) check() error {
	want := ck.o.Revision
	var why []string // why revisions were not served, for the setup error
	if want == "" || want == "all" || want == "2026-07-28" {
		r, err := ck.newRun(ck.revisionOf("2026-07-28"))
		if err != nil {
			return err
		}
		served, reason := r.negotiateModern()
		if served || r.partial {
			r.runModern()
			ck.rep.Runs = append(ck.rep.Runs, r.out)
		} else {
			r.close(false)
		}
		if !served {
			why = append(why, "2026-07-28: "+reason)
			if want == "all" && !r.partial {
				ck.rep.Notes = append(ck.rep.Notes, "2026-07-28 is not served: "+reason)
			}
			if want == "2026-07-28" {
				return &SetupError{"the server does not serve 2026-07-28: " + reason}
			}
		}
		if served && want == "" {
			return nil
		}
		if want == "2026-07-28" {
			return nil
		}
	}
	var olders []string
	switch want {
	case "", "2026-07-28":
		olders = []string{"2025-11-25"}
	case "all":
		olders = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}
	default:
		olders = []string{want}
	}
	for _, rev := range olders {
		r, err := ck.newRun(ck.revisionOf(rev))
		if err != nil {
			return err
		}
		got, reason := r.initialize(r.rev.name)
		if want == "" && got != "" && got != rev {
			// Negotiated: whatever the server answers, if mcpgen knows it.
			if rv := revisionOf(got); rv != nil {
				r.retarget(rv)
			} else {
				reason = fmt.Sprintf("initialize at %s was answered with %q, a revision mcpgen check does not know", rev, got)
				got = ""
			}
		}
		if got != r.rev.name {
			r.close(false)
			if reason == "" {
				reason = fmt.Sprintf("initialize at %s was answered with %s", rev, got)
			}
			why = append(why, reason)
			if want == "all" {
				ck.rep.Notes = append(ck.rep.Notes, rev+" is not served: "+reason)
			}
			continue
		}
		r.runLegacy()
		ck.rep.Runs = append(ck.rep.Runs, r.out)
	}
	if len(ck.rep.Runs) == 0 {
		what := ck.t.URL
		if what == "" {
			what = strings.Join(ck.t.Command, " ")
		}
		return &SetupError{fmt.Sprintf("cannot check %s: %s", what, strings.Join(why, "; "))}
	}
	return nil
}

// revisionOf is the revision a run of the pinned revision name uses: the
// schema's (Options.Schema) when it is the one checked, else name's
// generated package.
func (ck *checker) revisionOf(name string) *revision {
	if ck.schemaRev != nil && ck.schemaRev.rules == name {
		return ck.schemaRev
	}
	return revisionOf(name)
}

// newRun starts a run of rev: over stdio, a fresh process.
func (ck *checker) newRun(rev *revision) (*run, error) {
	r := &run{ck: ck, rev: rev, tr: ck.transport(), out: &RunReport{Revision: rev.name, results: map[string]*ruleResult{}}}
	if err := r.connect(); err != nil {
		return nil, err
	}
	return r, nil
}

// connect opens the run's connection (a new process over stdio).
func (r *run) connect() error {
	if r.ck.t.Kind == "http" {
		r.http = wire.NewHTTP(r.ck.t.URL, r.ck.o.Limits)
		return nil
	}
	p, err := wire.StartStdio(r.ck.t.Command, r.ck.o.Limits)
	if err != nil {
		return &SetupError{fmt.Sprintf("cannot start %s: %v", strings.Join(r.ck.t.Command, " "), err)}
	}
	r.proc = p
	return nil
}

// fresh returns a run of rev on a connection of its own (a second
// process over stdio), for probes that change how a server reads what
// follows (initialize).
func (r *run) fresh() (*run, error) {
	n := &run{ck: r.ck, rev: r.rev, tr: r.tr, out: r.out, ids: r.ids + 1000, modern: r.modern, vehicle: r.vehicle}
	if err := n.connect(); err != nil {
		return nil, err
	}
	return n, nil
}

// retarget makes the run one of rev (initialize answered another version).
func (r *run) retarget(rev *revision) {
	r.rev = rev
	r.out.Revision = rev.name
}

// isLoopback reports whether the URL's host is a loopback name or address.
func isLoopback(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// errText is an error for a report line.
func errText(err error) string {
	var te *wire.TimeoutError
	if errors.As(err, &te) {
		return te.Error()
	}
	return err.Error()
}
