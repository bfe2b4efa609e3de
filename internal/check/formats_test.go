package check

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sampleReport is a report with every outcome: a MUST failed twice, a
// SHOULD warned, a rule not judged, a rule skipped, rules passed, and a
// second revision whose run stopped early.
func sampleReport() *Report {
	spec := func(id string) SpecRef {
		s := rule(id).Sources[0]
		return SpecRef{Page: s.Page, Line: s.Line, Text: s.Text}
	}
	rep := &Report{
		Format: "mcpgen-check/1",
		Mcpgen: "v0.0.0-test",
		Target: Target{Kind: "http", URL: "http://127.0.0.1:8931/mcp"},
		Runs: []*RunReport{{
			Revision: "2026-07-28",
			Via:      "server/discover",
			Server:   &Server{Name: "sample", Version: "1.0"},
			Declared: []string{"tools"},
			Findings: []*Finding{
				{Rule: "unknown-method-32601", Level: "MUST", Status: Fail, Spec: spec("unknown-method-32601"), Count: 2, Places: []*Place{
					{Step: "unknown method", Message: "answered with a result, not error -32601", Exchange: &Exchange{Request: Message{Method: "POST", Body: `{"jsonrpc":"2.0","id":9,"method":"no/such"}`}, Response: Message{Status: 200, Headers: map[string]string{"Content-Type": "application/json"}, Body: `{"jsonrpc":"2.0","id":9,"result":{}}`}}},
				}},
				{Rule: "tool-names-format", Level: "SHOULD", Status: Warn, Spec: spec("tool-names-format"), Count: 1, Places: []*Place{
					{Step: "tools/list", Message: `tool name "a b" has a space`, Pointer: "/tools/0/name"},
				}},
				{Rule: "parse-error-32700", Level: "SHOULD", Derived: true, Status: Error, Spec: spec("parse-error-32700"), Count: 1, Places: []*Place{
					{Step: "malformed message", Message: "no answer within 10s"},
				}},
			},
			Notes: []string{"the server declares no prompts"},
			Rules: []*RuleStatus{
				{Rule: "schema-valid", Status: Pass},
				{Rule: "unknown-method-32601", Status: Fail},
				{Rule: "tool-names-format", Status: Warn},
				{Rule: "parse-error-32700", Status: Error},
				{Rule: "origin-foreign-403", Status: Skip, Reason: "not a loopback URL"},
			},
			Summary: Summary{Rules: 5, Passed: 1, Failed: 1, Warned: 1, Errors: 1, Skipped: 1, ExitCode: 1},
		}, {
			Revision: "2025-11-25",
			Via:      "initialize",
			Aborted:  "the server closed the connection",
			Rules:    []*RuleStatus{{Rule: "schema-valid", Status: Pass}},
			Summary:  Summary{Rules: 1, Passed: 1, ExitCode: 1},
		}},
	}
	rep.Summary = Summary{Rules: 6, Passed: 2, Failed: 1, Warned: 1, Errors: 1, Skipped: 1, ExitCode: 1}
	return rep
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/check -run %s -update writes it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (go test ./internal/check -run %s -update rewrites it):\n%s", name, path, t.Name(), got)
	}
}

// The JUnit XML of the sample report, as a JUnit report parser reads it:
// the elements and attributes of the JUnit schema (Jenkins' junit.xsd),
// counts that agree with the testcases, one outcome per testcase.
func TestWriteJUnit(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport().WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.junit.xml", b.Bytes())

	type outcome struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string    `xml:"name,attr"`
		Classname string    `xml:"classname,attr"`
		Failure   []outcome `xml:"failure"`
		Error     []outcome `xml:"error"`
		Skipped   []outcome `xml:"skipped"`
		SystemOut string    `xml:"system-out"`
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    string   `xml:"tests,attr"`
		Failures string   `xml:"failures,attr"`
		Errors   string   `xml:"errors,attr"`
		Skipped  string   `xml:"skipped,attr"`
		Suites   []struct {
			Name     string     `xml:"name,attr"`
			Tests    int        `xml:"tests,attr"`
			Failures int        `xml:"failures,attr"`
			Errors   int        `xml:"errors,attr"`
			Skipped  int        `xml:"skipped,attr"`
			Cases    []testcase `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Suites) != 2 || doc.Suites[0].Name != "2026-07-28" || doc.Suites[1].Name != "2025-11-25" {
		t.Fatalf("testsuites %+v", doc.Suites)
	}
	var tests, failures, errs, skipped int
	for _, s := range doc.Suites {
		var f, e, sk int
		for _, c := range s.Cases {
			if c.Name == "" || c.Classname != "mcpgen.check."+s.Name {
				t.Errorf("testcase %q of class %q", c.Name, c.Classname)
			}
			if n := len(c.Failure) + len(c.Error) + len(c.Skipped); n > 1 {
				t.Errorf("testcase %s has %d outcomes", c.Name, n)
			}
			f += len(c.Failure)
			e += len(c.Error)
			sk += len(c.Skipped)
		}
		if s.Tests != len(s.Cases) || s.Failures != f || s.Errors != e || s.Skipped != sk {
			t.Errorf("testsuite %s says %d/%d/%d/%d, has %d/%d/%d/%d", s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, len(s.Cases), f, e, sk)
		}
		tests, failures, errs, skipped = tests+len(s.Cases), failures+f, errs+e, skipped+sk
	}
	if doc.Tests != itoa(tests) || doc.Failures != itoa(failures) || doc.Errors != itoa(errs) || doc.Skipped != itoa(skipped) {
		t.Errorf("testsuites says %s/%s/%s/%s, has %d/%d/%d/%d", doc.Tests, doc.Failures, doc.Errors, doc.Skipped, tests, failures, errs, skipped)
	}
	cases := doc.Suites[0].Cases
	byName := map[string]testcase{}
	for _, c := range cases {
		byName[c.Name] = c
	}
	if c := byName["unknown-method-32601"]; len(c.Failure) != 1 || c.Failure[0].Type != "MUST" || !strings.Contains(c.Failure[0].Message, "answered with a result") || !strings.Contains(c.Failure[0].Text, "(2 times in all)") {
		t.Errorf("the failed MUST: %+v", c)
	}
	if c := byName["tool-names-format"]; len(c.Failure)+len(c.Error) != 0 || !strings.Contains(c.SystemOut, "SHOULD warning") {
		t.Errorf("the SHOULD warning: %+v", c)
	}
	if c := byName["parse-error-32700"]; len(c.Error) != 1 {
		t.Errorf("the rule not judged: %+v", c)
	}
	if c := byName["origin-foreign-403"]; len(c.Skipped) != 1 || c.Skipped[0].Message != "not a loopback URL" {
		t.Errorf("the skipped rule: %+v", c)
	}
	if c := doc.Suites[1].Cases; len(c) != 2 || c[1].Name != "(run)" || len(c[1].Error) != 1 || c[1].Error[0].Message != "the server closed the connection" {
		t.Errorf("the run that stopped: %+v", c)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// The SARIF of the sample report keeps what the SARIF 2.1.0 schema
// requires of the members it writes (version, each run's tool.driver.name,
// each result's message.text, ruleIndex into the driver's rules, the
// level and kind enumerations, level none for a kind other than fail,
// each invocation's executionSuccessful) and adds no member the schema
// does not define at the levels it checks.
func TestWriteSARIF(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport().WriteSARIF(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.sarif.json", b.Bytes())

	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	only := func(what string, m map[string]any, allowed ...string) {
		t.Helper()
		for k := range m {
			if !slices.Contains(allowed, k) {
				t.Errorf("%s has %q, which SARIF 2.1.0 does not define there", what, k)
			}
		}
	}
	only("sarifLog", doc, "$schema", "version", "runs", "inlineExternalProperties", "properties")
	if doc["version"] != "2.1.0" {
		t.Errorf("version %v", doc["version"])
	}
	runs, _ := doc["runs"].([]any)
	if len(runs) != 2 {
		t.Fatalf("%d runs", len(runs))
	}
	levels := []string{"none", "note", "warning", "error"}
	kinds := []string{"notApplicable", "pass", "fail", "review", "open", "informational"}
	var results []map[string]any
	for _, r := range runs {
		run := r.(map[string]any)
		only("run", run, "tool", "invocations", "automationDetails", "results", "properties")
		driver, _ := run["tool"].(map[string]any)["driver"].(map[string]any)
		if name, _ := driver["name"].(string); name == "" {
			t.Errorf("driver %v has no name", driver)
		}
		only("driver", driver, "name", "version", "informationUri", "rules")
		rules, _ := driver["rules"].([]any)
		for _, x := range rules {
			rl := x.(map[string]any)
			only("rule", rl, "id", "shortDescription", "fullDescription", "defaultConfiguration", "properties")
			if lv := rl["defaultConfiguration"].(map[string]any)["level"].(string); !slices.Contains(levels, lv) {
				t.Errorf("rule %v: level %q", rl["id"], lv)
			}
		}
		for _, x := range run["invocations"].([]any) {
			if _, ok := x.(map[string]any)["executionSuccessful"].(bool); !ok {
				t.Errorf("invocation %v without executionSuccessful", x)
			}
		}
		for _, x := range run["results"].([]any) {
			res := x.(map[string]any)
			only("result", res, "ruleId", "ruleIndex", "kind", "level", "message", "properties")
			results = append(results, res)
			if text, _ := res["message"].(map[string]any)["text"].(string); text == "" {
				t.Errorf("result %v has no message text", res)
			}
			i := int(res["ruleIndex"].(float64))
			if i < 0 || i >= len(rules) || rules[i].(map[string]any)["id"] != res["ruleId"] {
				t.Errorf("result %v: ruleIndex %d names another rule", res["ruleId"], i)
			}
			level, kind := res["level"].(string), res["kind"].(string)
			if !slices.Contains(levels, level) || !slices.Contains(kinds, kind) || (kind != "fail" && level != "none") {
				t.Errorf("result %v: kind %q level %q", res["ruleId"], kind, level)
			}
		}
	}
	got := map[string]string{}
	for _, r := range results {
		got[r["ruleId"].(string)] = r["kind"].(string) + "/" + r["level"].(string)
	}
	want := map[string]string{"unknown-method-32601": "fail/error", "tool-names-format": "fail/warning", "parse-error-32700": "open/none"}
	if len(got) != len(want) {
		t.Errorf("results %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s, want %s", k, got[k], v)
		}
	}
	if inv := runs[1].(map[string]any)["invocations"].([]any)[0].(map[string]any); inv["executionSuccessful"] != false {
		t.Errorf("the run that stopped: %v", inv)
	}
}
