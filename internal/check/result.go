package check

import (
	"net/http"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/internal/check/wire"
)

// Status is the outcome of a rule in one run.
type Status string

// The outcomes. A failed SHOULD rule is Warn; Error means the rule could
// not be judged (a limit, the deadline, a server that exited).
const (
	Pass  Status = "pass"
	Fail  Status = "fail"
	Warn  Status = "warn"
	Skip  Status = "skip"
	Error Status = "error"
)

// Report is the outcome of mcpgen check: one Run per revision checked.
type Report struct {
	Format  string       `json:"format"`
	Mcpgen  string       `json:"mcpgen"`
	Target  Target       `json:"target"`
	Summary Summary      `json:"summary"`
	Runs    []*RunReport `json:"runs"`
	// Client is what mcpgen's own generated client made of the server.
	Client string `json:"client,omitempty"`
	// Schema names the schema the messages were validated against when it
	// is not a pinned revision's (mcpgen check --schema).
	Schema string `json:"schema,omitempty"`
	// Notes say which revisions were tried and not served.
	Notes []string `json:"notes,omitempty"`
}

// Target is the server under check.
type Target struct {
	Kind    string   `json:"kind"` // "http" or "stdio"
	URL     string   `json:"url,omitempty"`
	Command []string `json:"command,omitempty"`
}

// Summary counts the rules that apply (to the revision and transport of
// each run); NotApplicable counts the others.
type Summary struct {
	Rules         int `json:"rules"`
	NotApplicable int `json:"notApplicable"`
	Passed        int `json:"passed"`
	Failed        int `json:"failed"`
	Warned        int `json:"warned"`
	Skipped       int `json:"skipped"`
	Errors        int `json:"errors"`
	ExitCode      int `json:"exitCode"`
}

// RunReport is the check of one revision.
type RunReport struct {
	Revision string `json:"revision"`
	// Via is how the revision was reached: "server/discover" or "initialize".
	Via               string   `json:"via"`
	Server            *Server  `json:"server,omitempty"`
	SupportedVersions []string `json:"supportedVersions,omitempty"`
	// DualEra is set when a 2026-07-28 server also answers initialize.
	DualEra  bool     `json:"dualEra,omitempty"`
	Declared []string `json:"declared"`
	// Aborted says why the run stopped early.
	Aborted  string        `json:"aborted,omitempty"`
	Summary  Summary       `json:"summary"`
	Findings []*Finding    `json:"findings"`
	Notes    []string      `json:"notes,omitempty"`
	Rules    []*RuleStatus `json:"rulesRun"`

	results map[string]*ruleResult
}

// Server is the server's self-description.
type Server struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// RuleStatus is one rule's outcome in a run.
type RuleStatus struct {
	Rule   string `json:"rule"`
	Status Status `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// Finding is a rule that failed, warned or could not be judged, with
// where it happened.
type Finding struct {
	Rule    string   `json:"rule"`
	Level   string   `json:"level"`
	Derived bool     `json:"derived"`
	Status  Status   `json:"status"`
	Spec    SpecRef  `json:"spec"`
	Count   int      `json:"count"`
	Places  []*Place `json:"places"`
	rule    *Rule
}

// SpecRef cites the specification.
type SpecRef struct {
	Page string `json:"page"`
	Line int    `json:"line,omitempty"`
	Text string `json:"text"`
}

// Place is one occurrence: the step, what was wrong, where in the
// message, and the exchange.
type Place struct {
	Step     string    `json:"step"`
	Message  string    `json:"message"`
	Pointer  string    `json:"pointer,omitempty"`
	Exchange *Exchange `json:"exchange,omitempty"`
}

// Exchange is a request and its answer as the report shows them.
type Exchange struct {
	Request   Message `json:"request"`
	Response  Message `json:"response"`
	ElapsedMs int64   `json:"elapsedMs"`
}

// Message is one side of an Exchange. Status and Headers are HTTP's.
type Message struct {
	Method  string            `json:"method,omitempty"`
	Status  int               `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
}

// ruleResult collects one rule's verdicts in a run.
type ruleResult struct {
	rule    *Rule
	passes  int
	fails   int
	errs    int
	places  []*Place
	skipped string
}

const maxPlaces = 3

// view makes the report's Exchange of x, bodies cut at n bytes.
func view(x *wire.Exchange, n int) *Exchange {
	if x == nil {
		return nil
	}
	v := &Exchange{ElapsedMs: x.Elapsed.Milliseconds()}
	v.Request.Method = x.Method
	if v.Request.Method == "" && x.Header != nil {
		v.Request.Method = http.MethodPost
	}
	v.Request.Body = wire.Snip(x.Body, n)
	v.Request.Headers = headerMap(x.Header)
	v.Response.Status = x.Status
	v.Response.Headers = headerMap(x.RespHeader)
	switch {
	case x.Response != nil:
		v.Response.Body = wire.Snip(x.Response, n)
	case x.Stopped != nil:
		v.Response.Body = wire.Snip(x.Stopped, n)
	case len(x.Raw) > 0:
		v.Response.Body = wire.Snip(x.Raw, n)
	case len(x.Messages) > 0:
		v.Response.Body = wire.Snip(x.Messages[len(x.Messages)-1], n)
	}
	return v
}

// headerMap keeps the headers that matter to MCP.
func headerMap(h http.Header) map[string]string {
	if len(h) == 0 {
		return nil
	}
	m := map[string]string{}
	for k, v := range h {
		lk := strings.ToLower(k)
		if strings.HasPrefix(lk, "mcp-") || lk == "content-type" || lk == "origin" || lk == "x-accel-buffering" || lk == "host" {
			m[k] = strings.Join(v, ", ")
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// finish turns the collected verdicts into the run's findings, rule
// statuses and summary.
func (r *RunReport) finish(tr Transport, skipNotRun string) {
	for _, rl := range Rules {
		res := r.results[rl.ID]
		st := &RuleStatus{Rule: rl.ID}
		switch {
		case !rl.applies(r.Revision, tr):
			st.Status, st.Reason = Skip, notApplicable(rl, r.Revision, tr)
		case res == nil && skipNotRun != "":
			st.Status, st.Reason = Skip, skipNotRun
		case res == nil:
			st.Status, st.Reason = Skip, "nothing to judge"
		case res.fails > 0:
			st.Status = Fail
			if rl.Level == Should {
				st.Status = Warn
			}
		case res.errs > 0:
			st.Status = Error
		case res.passes > 0:
			st.Status = Pass
		default:
			st.Status, st.Reason = Skip, res.skipped
		}
		r.Rules = append(r.Rules, st)
		if !rl.applies(r.Revision, tr) {
			r.Summary.NotApplicable++
			continue
		}
		r.Summary.Rules++
		switch st.Status {
		case Pass:
			r.Summary.Passed++
		case Fail:
			r.Summary.Failed++
		case Warn:
			r.Summary.Warned++
		case Skip:
			r.Summary.Skipped++
		case Error:
			r.Summary.Errors++
		}
		if st.Status == Fail || st.Status == Warn || st.Status == Error {
			src := rl.source(r.Revision)
			r.Findings = append(r.Findings, &Finding{Rule: rl.ID, Level: rl.Level.String(), Derived: rl.Derived, Status: st.Status,
				Spec: SpecRef{Page: src.Page, Line: src.Line, Text: src.Text}, Count: res.fails + res.errs, Places: res.places, rule: rl})
		}
	}
	// Failed MUSTs first, then SHOULDs, then errors; catalogue order within.
	rank := func(f *Finding) int {
		switch {
		case f.Status == Fail:
			return 0
		case f.Status == Warn:
			return 1
		}
		return 2
	}
	sort.SliceStable(r.Findings, func(i, j int) bool { return rank(r.Findings[i]) < rank(r.Findings[j]) })
}

func notApplicable(rl *Rule, rev string, tr Transport) string {
	if rl.Revs&bitOf(rev) == 0 {
		return "not a rule of " + rev
	}
	return string(rl.Transport) + " only"
}

// finish adds up the runs' summaries into the report's and sets each exit
// code: 1 when a MUST failed or a rule errored (or, with failOnShould, a
// SHOULD warned), else 0.
func (rep *Report) finish(failOnShould bool) {
	rep.Summary = Summary{}
	for _, r := range rep.Runs {
		s := &rep.Summary
		s.Rules += r.Summary.Rules
		s.NotApplicable += r.Summary.NotApplicable
		s.Passed += r.Summary.Passed
		s.Failed += r.Summary.Failed
		s.Warned += r.Summary.Warned
		s.Skipped += r.Summary.Skipped
		s.Errors += r.Summary.Errors
		code := 0
		if r.Summary.Failed > 0 || r.Summary.Errors > 0 || r.Aborted != "" || (failOnShould && r.Summary.Warned > 0) {
			code = 1
		}
		r.Summary.ExitCode = code
		s.ExitCode = max(s.ExitCode, code)
	}
}
