package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseList(t *testing.T) {
	b, err := os.ReadFile("testdata/list-2026-07-28.txt") // conformance list --server --requirements 2026-07-28, 0.2.0-alpha.12
	if err != nil {
		t.Fatal(err)
	}
	sets, err := parseList(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if n := count(sets, scored); n != 37 {
		t.Errorf("%d scored scenarios, want 37", n)
	}
	if n := count(sets, "extension"); n != 10 {
		t.Errorf("%d extension scenarios, want the 10 tasks ones", n)
	}
	if n := count(sets, "pending"); n != 3 {
		t.Errorf("%d pending scenarios, want 3", n)
	}
	for name, want := range map[string]string{
		"server-stateless":                        scored,
		"input-required-result-basic-elicitation": scored,
		"tasks-lifecycle":                         "extension",
		"http-header-validation":                  "pending",
		"auth/client-credentials-jwt":             "", // a client scenario
		"tools_call":                              "", // a client scenario
	} {
		if sets[name] != want {
			t.Errorf("%s is in %q, want %q", name, sets[name], want)
		}
	}
	if _, err := parseList("Required for 2026-07-28:\n\nClient scenarios (test against a client):\n  - tools_call\n"); err == nil {
		t.Error("a list without server scenarios was accepted")
	}
}

func TestReadResults(t *testing.T) {
	dir := t.TempDir()
	write := func(sub, checks string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, sub, "checks.json"), []byte(checks), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("server-tools-list-2026-11-30T20-10-30-033Z", `[{"id":"tools-list","status":"SUCCESS"},{"id":"wire","status":"FAILURE","errorMessage":"bad"}]`)
	write("server-auth/x-2026-11-30T20-10-30-033Z", `[]`) // not a result directory of the server leg at this level
	write("notes", `[]`)
	got, err := readResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got["tools-list"]) != 2 || got["tools-list"][1].ErrorMessage != "bad" {
		t.Errorf("results %+v", got)
	}
	write("server-tools-list-2026-11-30T20-11-00-000Z", `[]`)
	if _, err := readResults(dir); err == nil || !strings.Contains(err.Error(), "two result directories") {
		t.Errorf("two runs of one scenario: %v", err)
	}
	write("server-caching-2026-11-30T20-10-30-033Z", `{`)
	if _, err := readResults(dir); err == nil {
		t.Error("malformed checks.json accepted")
	}
}

func TestReadExpected(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.txt")
	for _, c := range []struct{ text, err string }{
		{"# comment\n\ntasks-lifecycle   SEP-2663 says otherwise\n", ""},
		{"tasks-lifecycle\n", "has no reason"},
		{"a why\na why again\n", "listed twice"},
	} {
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readExpected(path)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.text, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: error %v, want %q", c.text, err, c.err)
		case c.err == "" && got["tasks-lifecycle"] != "SEP-2663 says otherwise":
			t.Errorf("%q: %v", c.text, got)
		}
	}
	if _, err := readExpected("expected-failures.txt"); err != nil {
		t.Errorf("the committed file: %v", err)
	}
}

func TestJudge(t *testing.T) {
	pass := []check{{ID: "a", Status: "SUCCESS"}}
	fail := []check{{ID: "a", Status: "SUCCESS"}, {ID: "b", Status: "FAILURE", ErrorMessage: "wrong code"}}
	warn := []check{{ID: "a", Status: "SUCCESS"}, {ID: "w", Status: "WARNING", ErrorMessage: "should"}}
	skip := []check{{ID: "s", Status: "SKIPPED", ErrorMessage: "Skipped: later"}}
	cases := []struct {
		name    string
		set     string
		checks  []check // nil: not run
		listed  bool
		verdict string
		ok      bool
		detail  string
	}{
		{"scored passes", scored, pass, false, "pass", true, ""},
		{"scored with a warning", scored, warn, false, "pass", true, "warning w: should"},
		{"scored fails", scored, fail, false, "FAIL", false, "b: wrong code"},
		{"scored listed and failing", scored, fail, true, "FAIL", false, "b: wrong code"},
		{"extension fails", "extension", fail, false, "FAIL", false, "b: wrong code"},
		{"extension fails, listed", "extension", fail, true, "expected failure", true, "SEP-2663 section x"},
		{"pending passes, listed", "pending", pass, true, "UNEXPECTED PASS", false, "remove it"},
		{"skipped by the suite", "extension", skip, false, "skipped", true, "Skipped: later"},
		{"not run", scored, nil, false, "NOT RUN", false, "no results"},
	}
	sets := map[string]string{}
	results := map[string][]check{}
	expected := map[string]string{}
	for _, c := range cases {
		sets[c.name] = c.set
		if c.checks != nil {
			results[c.name] = c.checks
		}
		if c.listed {
			expected[c.name] = "SEP-2663 section x"
		}
	}
	results["surprise"] = pass
	expected["unknown"] = "why"
	outcomes, problems := judge(sets, results, expected)
	byName := map[string]outcome{}
	for _, o := range outcomes {
		byName[o.name] = o
	}
	for _, c := range cases {
		o := byName[c.name]
		if o.verdict != c.verdict || o.ok != c.ok || !strings.Contains(o.detail, c.detail) {
			t.Errorf("%s: %q ok=%v %q; want %q ok=%v containing %q", c.name, o.verdict, o.ok, o.detail, c.verdict, c.ok, c.detail)
		}
	}
	if o := byName["surprise"]; o.set != "unlisted" || o.verdict != "pass" {
		t.Errorf("a scenario the list does not have: %+v", o)
	}
	all := strings.Join(problems, "\n")
	for _, want := range []string{"lists unknown", "lists scored listed and failing, a scored scenario", "scored fails: FAIL", "extension fails: FAIL", "UNEXPECTED PASS", "not run: NOT RUN"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems do not mention %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "extension fails, listed") || strings.Contains(all, "skipped by the suite") || strings.Contains(all, "scored passes") {
		t.Errorf("problems name a scenario that is fine:\n%s", all)
	}
	// Scored scenarios come first.
	if outcomes[0].set != scored {
		t.Errorf("first row %+v", outcomes[0])
	}
	var buf bytes.Buffer
	printTable(&buf, outcomes, "expected-failures.txt")
	if !strings.Contains(buf.String(), "extension: 0 of 3 scenarios pass; 1 skipped by the suite (no checks); 1 expected to fail") {
		t.Errorf("table:\n%s", buf.String())
	}
}

func TestPanics(t *testing.T) {
	log := "x: listening\njsonrpc: panic in handler for \"tools/call\": boom\n\tgoroutine 1\nx: shutting down\n"
	if p := panics(log); len(p) != 1 || !strings.Contains(p[0], "boom") {
		t.Errorf("panics %q", p)
	}
	if p := panics("x: listening\n"); p != nil {
		t.Errorf("panics in a clean log: %q", p)
	}
}

func TestParseListClient(t *testing.T) {
	b, err := os.ReadFile("testdata/list-client-2026-07-28.txt") // conformance list --client --requirements 2026-07-28, 0.2.0-alpha.12
	if err != nil {
		t.Fatal(err)
	}
	sets, err := parseListOf(string(b), "client")
	if err != nil {
		t.Fatal(err)
	}
	if n := count(sets, scored); n != 32 {
		t.Errorf("%d scored client scenarios, want 32", n)
	}
	for name, want := range map[string]string{
		"tools_call":                       scored,
		"auth/metadata-default":            scored,
		"auth/dpop":                        "extension",
		"json-schema-2020-12-preservation": "added-after-release",
		"server-stateless":                 "", // a server scenario
	} {
		if sets[name] != want {
			t.Errorf("%s is in %q, want %q", name, sets[name], want)
		}
	}
}

func TestReadClientResults(t *testing.T) {
	dir := t.TempDir()
	write := func(sub, checks string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, sub, "checks.json"), []byte(checks), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("tools_call-2026-11-30T20-10-30-033Z", `[{"id":"tool-add-numbers","status":"SUCCESS"}]`)
	write("auth/basic-cimd-2026-11-30T20-10-30-033Z", `[{"id":"x","status":"FAILURE"}]`)
	got, err := readClientResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got["tools_call"]) != 1 || len(got["auth/basic-cimd"]) != 1 {
		t.Errorf("results %+v", got)
	}
}

func TestJudgeClient(t *testing.T) {
	sets := map[string]string{"tools_call": scored, "initialize": scored, "auth/basic-cimd": scored, "auth/dpop": "extension"}
	results := map[string][]check{
		"tools_call":      {{ID: "a", Status: "SUCCESS"}},
		"initialize":      {}, // the client stopped before anything was checked
		"auth/basic-cimd": {{ID: "b", Status: "SUCCESS"}},
		"auth/dpop":       {{ID: "c", Status: "FAILURE"}},
	}
	rules := judgeRules{needChecks: true}
	expected := map[string]string{"auth/dpop": "DPoP"}
	outcomes, problems := judgeWith(sets, results, expected, rules)
	if len(problems) != 1 || !strings.Contains(problems[0], "initialize: FAIL") {
		t.Errorf("problems %q, want only initialize (no checks)", problems)
	}
	for _, o := range outcomes {
		if o.name == "auth/dpop" && o.verdict != "expected failure" {
			t.Errorf("a listed extension scenario: %+v", o)
		}
	}
	// No scored scenario may be listed, an authorization one included.
	for _, name := range []string{"tools_call", "auth/basic-cimd"} {
		_, problems = judgeWith(sets, results, map[string]string{name: "no"}, rules)
		if len(problems) == 0 || !strings.Contains(strings.Join(problems, "\n"), "a scored scenario: it must pass") {
			t.Errorf("listing %s: %q", name, problems)
		}
	}
	// A listed scenario that passes must leave the list.
	results["auth/dpop"] = []check{{ID: "c", Status: "SUCCESS"}}
	_, problems = judgeWith(sets, results, expected, rules)
	if !strings.Contains(strings.Join(problems, "\n"), "auth/dpop: UNEXPECTED PASS") {
		t.Errorf("a passing listed scenario: %q", problems)
	}
}

// TestParseListOlder: the legs of the older revisions. 2025-11-25 has a
// requirement set; --spec-version 2025-06-18 lists every scenario that
// applies, with its versions, and scores them all.
func TestParseListOlder(t *testing.T) {
	for _, c := range []struct {
		file         string
		scored       int
		unscoredName string
	}{
		{"testdata/list-2025-11-25.txt", 30, "server-sse-polling"}, // conformance list --server --requirements 2025-11-25, 0.2.0-alpha.12
		{"testdata/list-spec-2025-06-18.txt", 27, ""},              // conformance list --server --spec-version 2025-06-18
	} {
		b, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		sets, err := parseList(string(b))
		if err != nil {
			t.Fatal(err)
		}
		if n := count(sets, scored); n != c.scored {
			t.Errorf("%s: %d scored scenarios, want %d", c.file, n, c.scored)
		}
		for _, name := range []string{"server-initialize", "tools-call-elicitation", "resources-subscribe"} {
			if sets[name] != scored {
				t.Errorf("%s: %s is in %q, want scored", c.file, name, sets[name])
			}
		}
		if c.unscoredName != "" && sets[c.unscoredName] != "pending" {
			t.Errorf("%s: %s is in %q, want pending", c.file, c.unscoredName, sets[c.unscoredName])
		}
	}
}
