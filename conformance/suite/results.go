package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// This file reads what the suite reports (its scenario list, the checks
// of each scenario it ran) and the expected-failures file, and decides the
// outcome of the run.

// Sets a scenario can be in: scored ones count for conformance; the others
// the suite runs and reports under a category (extension, pending, ...).
const scored = "scored"

// parseList reads the output of `conformance list --server --requirements
// R`: the server scenarios the revision requires (scored), then the ones
// it runs but never scores, by category, marked [server] or [client].
func parseList(out string) (map[string]string, error) {
	return parseListOf(out, "server")
}

// parseListOf reads the scenarios of one leg ("server" or "client") from
// the output of `conformance list --requirements R`.
func parseListOf(out, leg string) (map[string]string, error) {
	sets := map[string]string{}
	section, category := "", ""
	header := regexp.MustCompile(`^  ([a-z-]+) \(\d+\):$`)
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Server scenarios"):
			section = "server"
			continue
		case strings.HasPrefix(line, "Client scenarios"):
			section = "client"
			continue
		case strings.HasPrefix(line, "Run and reported, but never scored"):
			section = "unscored"
			continue
		}
		if m := header.FindStringSubmatch(line); m != nil && section == "unscored" {
			category = m[1]
			continue
		}
		item, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !ok {
			continue
		}
		// --spec-version lists the versions each scenario applies to.
		item = versionsSuffix.ReplaceAllString(item, "")
		switch section {
		case leg:
			sets[item] = scored
		case "unscored":
			if name, ok := strings.CutSuffix(item, " ["+leg+"]"); ok && category != "" {
				sets[name] = category
			}
		}
	}
	if n := count(sets, scored); n == 0 {
		return nil, errors.New("the suite listed no scored " + leg + " scenarios")
	}
	return sets, nil
}

// versionsSuffix is the list of versions after a scenario in the output of
// `conformance list --spec-version V`.
var versionsSuffix = regexp.MustCompile(` \[[0-9, -]+\]$`)

func count(sets map[string]string, set string) int {
	n := 0
	for _, s := range sets {
		if s == set {
			n++
		}
	}
	return n
}

// check is one check of a scenario, as checks.json has it.
type check struct {
	ID           string `json:"id"`
	Status       string `json:"status"` // SUCCESS, FAILURE, WARNING, SKIPPED, INFO
	ErrorMessage string `json:"errorMessage"`
}

// scenarioDir is a result directory of the server leg:
// server-<scenario>-<timestamp>; clientDir one of the client leg:
// <scenario>-<timestamp>, the auth/ ones in a directory auth.
var (
	scenarioDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$`)
	clientDir   = regexp.MustCompile(`^(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$`)
)

// readResults reads the checks of every scenario the suite's server leg
// wrote to dir.
func readResults(dir string) (map[string][]check, error) {
	out := map[string][]check{}
	return out, readResultsInto(out, dir, scenarioDir, "")
}

// readClientResults reads the checks of every scenario the suite's client
// leg wrote to dir (auth/ scenarios in dir/auth).
func readClientResults(dir string) (map[string][]check, error) {
	out := map[string][]check{}
	if err := readResultsInto(out, dir, clientDir, ""); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "auth")); err == nil {
		if err := readResultsInto(out, filepath.Join(dir, "auth"), clientDir, "auth/"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func readResultsInto(out map[string][]check, dir string, pattern *regexp.Regexp, prefix string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		m := pattern.FindStringSubmatch(e.Name())
		if !e.IsDir() || m == nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name(), "checks.json"))
		if err != nil {
			return err
		}
		var cs []check
		if err := json.Unmarshal(b, &cs); err != nil {
			return fmt.Errorf("%s: %w", e.Name(), err)
		}
		name := prefix + m[1]
		if _, dup := out[name]; dup {
			return fmt.Errorf("%s: two result directories for scenario %s", dir, name)
		}
		out[name] = cs
	}
	return nil
}

// readExpected reads the expected-failures file: one scenario per line,
// its name and then the reason it fails, which must point at the
// specification; # starts a comment.
func readExpected(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, _ := strings.Cut(line, " ")
		reason = strings.TrimSpace(reason)
		switch {
		case reason == "":
			return nil, fmt.Errorf("%s:%d: %s has no reason; say why it fails, pointing at the specification", path, i+1, name)
		case out[name] != "":
			return nil, fmt.Errorf("%s:%d: %s is listed twice", path, i+1, name)
		}
		out[name] = reason
	}
	return out, nil
}

// outcome is the verdict on one scenario.
type outcome struct {
	name, set string
	passed    int
	failed    int
	warnings  int
	skipped   int
	verdict   string // pass, skipped, FAIL, expected failure, UNEXPECTED PASS, NOT RUN
	ok        bool   // the verdict does not fail the run
	detail    string // the first failing check, a warning, or the expected failure's reason
}

// judgeRules are what a leg's expected failures may be.
type judgeRules struct {
	// mayFailScored reports whether a scored scenario may be listed as an
	// expected failure (the client leg's authorization scenarios: OAuth is
	// out of scope); nil: none may.
	mayFailScored func(name string) bool
	// needChecks makes a scenario that ran without a single check fail
	// (a client that stopped before the scenario could check anything).
	needChecks bool
}

// judge decides each scenario's verdict. A failing scored scenario fails
// the run; so does a failing unscored one unless the expected-failures
// file lists it, and a listed one that passes (the list must stay true).
func judge(sets map[string]string, results map[string][]check, expected map[string]string) ([]outcome, []string) {
	return judgeWith(sets, results, expected, judgeRules{})
}

func judgeWith(sets map[string]string, results map[string][]check, expected map[string]string, rules judgeRules) ([]outcome, []string) {
	var problems []string
	mayFail := func(name string) bool {
		return sets[name] != scored || (rules.mayFailScored != nil && rules.mayFailScored(name))
	}
	for name := range expected {
		switch _, ok := sets[name]; {
		case !ok:
			problems = append(problems, "the expected-failures file lists "+name+", which the suite does not run")
		case !mayFail(name):
			problems = append(problems, "the expected-failures file lists "+name+", a scored scenario: it must pass")
		}
	}
	names := make([]string, 0, len(sets))
	for n := range sets {
		names = append(names, n)
	}
	for n := range results {
		if _, ok := sets[n]; !ok {
			names = append(names, n) // run, but not in the list: judged as unscored
		}
	}
	sort.Slice(names, func(i, j int) bool {
		si, sj := setOrder(sets[names[i]]), setOrder(sets[names[j]])
		if si != sj {
			return si < sj
		}
		return names[i] < names[j]
	})
	var out []outcome
	for _, n := range names {
		o := outcome{name: n, set: sets[n]}
		if o.set == "" {
			o.set = "unlisted"
		}
		cs, ran := results[n]
		for _, c := range cs {
			switch c.Status {
			case "SUCCESS":
				o.passed++
			case "FAILURE":
				o.failed++
				if o.detail == "" {
					o.detail = c.ID + ": " + c.ErrorMessage
				}
			case "WARNING":
				o.warnings++
			case "SKIPPED":
				o.skipped++
			}
		}
		if o.failed == 0 && o.warnings > 0 {
			for _, c := range cs {
				if c.Status == "WARNING" {
					o.detail = "warning " + c.ID + ": " + c.ErrorMessage
					break
				}
			}
		}
		reason, listed := expected[n]
		listed = listed && mayFail(n)
		if ran && rules.needChecks && o.failed == 0 && o.passed == 0 && o.skipped == 0 {
			o.failed, o.detail = 1, "the scenario ran without a single check (the client stopped before it could be checked; see its stderr.txt)"
		}
		switch {
		case !ran:
			o.verdict, o.ok, o.detail = "NOT RUN", false, "the suite wrote no results for it"
		case o.failed == 0 && listed:
			o.verdict, o.ok, o.detail = "UNEXPECTED PASS", false, "listed in the expected-failures file but passes: remove it"
		case o.failed == 0:
			o.verdict, o.ok = "pass", true
			if o.passed == 0 && o.skipped > 0 {
				// The suite ran the scenario but checked nothing.
				o.verdict = "skipped"
				for _, c := range cs {
					if c.Status == "SKIPPED" {
						o.detail = c.ErrorMessage
						break
					}
				}
			}
		case listed:
			o.verdict, o.ok, o.detail = "expected failure", true, reason+" (first failing check: "+o.detail+")"
		default:
			o.verdict, o.ok = "FAIL", false
		}
		if !o.ok {
			problems = append(problems, n+": "+o.verdict)
		}
		out = append(out, o)
	}
	return out, problems
}

func setOrder(s string) int {
	switch s {
	case scored:
		return 0
	case "extension":
		return 1
	case "pending":
		return 2
	}
	return 3
}

// panics returns the lines of a server log that report a panic.
func panics(log string) []string {
	var out []string
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "panic") {
			out = append(out, line)
		}
	}
	return out
}
