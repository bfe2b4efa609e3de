package check

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// This file writes the report for CI systems: JUnit XML (WriteJUnit) and
// SARIF 2.1.0 (WriteSARIF).

// junitSuites is the document of WriteJUnit: the testsuites element of
// the JUnit XML that CI systems read (Jenkins' and Ant's schema).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
}

// WriteJUnit writes the report as JUnit XML: a testsuite per revision, a
// testcase per rule that applies to it (named by the rule's id). A failed
// MUST is a failure (type MUST), a rule that could not be judged an error
// and a skipped rule skipped; a failed SHOULD is not a failure (it does
// not fail the check either, unless --fail-on should): its testcase
// passes with the warning in its system-out. A run that stopped early
// has an error testcase "(run)" saying why.
func (rep *Report) WriteJUnit(w io.Writer) error {
	doc := junitSuites{Name: "mcpgen check " + rep.targetName()}
	for _, r := range rep.Runs {
		s := junitSuite{Name: r.Revision}
		s.Properties = append(s.Properties, junitProperty{"via", r.Via})
		if r.Server != nil {
			s.Properties = append(s.Properties, junitProperty{"server", strings.TrimSpace(r.Server.Name + " " + r.Server.Version)})
		}
		if len(r.Declared) > 0 {
			s.Properties = append(s.Properties, junitProperty{"declared", strings.Join(r.Declared, ", ")})
		}
		class := "mcpgen.check." + r.Revision
		findings := map[string]*Finding{}
		for _, f := range r.Findings {
			findings[f.Rule] = f
		}
		for _, st := range r.Rules {
			c := junitCase{Name: st.Rule, Classname: class}
			f := findings[st.Rule]
			switch st.Status {
			case Fail:
				c.Failure = &junitProblem{Message: findingMessage(f, st), Type: ruleLevel(st.Rule), Text: findingText(f)}
				s.Failures++
			case Error:
				c.Error = &junitProblem{Message: findingMessage(f, st), Type: "not judged", Text: findingText(f)}
				s.Errors++
			case Skip:
				c.Skipped = &junitSkipped{Message: st.Reason}
				s.Skipped++
			case Warn:
				c.SystemOut = "SHOULD warning: " + findingMessage(f, st) + "\n" + findingText(f)
			}
			s.Cases = append(s.Cases, c)
		}
		if r.Aborted != "" {
			s.Cases = append(s.Cases, junitCase{Name: "(run)", Classname: class, Error: &junitProblem{Message: r.Aborted, Type: "stopped"}})
			s.Errors++
		}
		if len(r.Notes) > 0 {
			s.SystemOut = strings.Join(r.Notes, "\n")
		}
		s.Tests = len(s.Cases)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
		doc.Suites = append(doc.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// targetName names the server under check: its URL, or "-- COMMAND ...".
func (rep *Report) targetName() string {
	if rep.Target.URL != "" {
		return rep.Target.URL
	}
	return "-- " + strings.Join(rep.Target.Command, " ")
}

// ruleLevel is the level of the rule id ("MUST" for an unknown one).
func ruleLevel(id string) string {
	if r := RuleByID(id); r != nil {
		return r.Level.String()
	}
	return Must.String()
}

// findingMessage says in one line what went wrong with a rule: the first
// place's step and message, else the status's reason.
func findingMessage(f *Finding, st *RuleStatus) string {
	if f != nil && len(f.Places) > 0 {
		return f.Places[0].Step + ": " + f.Places[0].Message
	}
	if st.Reason != "" {
		return st.Reason
	}
	return string(st.Status)
}

// findingText is a finding as the text report writes it.
func findingText(f *Finding) string {
	if f == nil {
		return ""
	}
	var b strings.Builder
	writeFinding(&b, f)
	return b.String()
}

// The SARIF 2.1.0 document of WriteSARIF (OASIS, sarif-v2.1.0): only the
// members it uses.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Automation  *sarifAutomation  `json:"automationDetails,omitempty"`
	Results     []sarifResult     `json:"results"`
	Properties  map[string]any    `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      *sarifText     `json:"fullDescription,omitempty"`
	DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties,omitempty"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	ExitCode            *int                `json:"exitCode,omitempty"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Message sarifText `json:"message"`
	Level   string    `json:"level"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifResult struct {
	RuleID     string         `json:"ruleId"`
	RuleIndex  int            `json:"ruleIndex"`
	Kind       string         `json:"kind"`
	Level      string         `json:"level"`
	Message    sarifText      `json:"message"`
	Properties map[string]any `json:"properties,omitempty"`
}

// WriteSARIF writes the report as SARIF 2.1.0: a run per revision, whose
// tool lists the rules that apply to it and whose results are the
// findings. A failed MUST is a result of level error, a failed SHOULD of
// level warning (kind fail), a rule that could not be judged a result of
// kind open (level none); passed and skipped rules give no result. A run
// that stopped early is an unsuccessful invocation saying why.
func (rep *Report) WriteSARIF(w io.Writer) error {
	doc := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{}}
	for _, r := range rep.Runs {
		run := sarifRun{
			Tool:       sarifTool{Driver: sarifDriver{Name: "mcpgen check", Version: rep.Mcpgen, InformationURI: "https://github.com/mcpgen/mcpgen", Rules: []sarifRule{}}},
			Automation: &sarifAutomation{ID: "mcpgen-check/" + r.Revision + "/"},
			Results:    []sarifResult{},
			Properties: map[string]any{"target": rep.targetName(), "revision": r.Revision, "via": r.Via},
		}
		if r.Server != nil {
			run.Properties["server"] = strings.TrimSpace(r.Server.Name + " " + r.Server.Version)
		}
		index := map[string]int{}
		for _, st := range r.Rules {
			index[st.Rule] = len(run.Tool.Driver.Rules)
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(st.Rule))
		}
		for _, f := range r.Findings {
			i, ok := index[f.Rule]
			if !ok {
				i = len(run.Tool.Driver.Rules)
				index[f.Rule] = i
				run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(f.Rule))
			}
			res := sarifResult{RuleID: f.Rule, RuleIndex: i, Kind: "fail", Level: "error", Message: sarifText{Text: findingMessage(f, &RuleStatus{Status: f.Status})}}
			switch f.Status {
			case Warn:
				res.Level = "warning"
			case Error:
				res.Kind, res.Level = "open", "none"
			}
			if f.Count > 1 {
				res.Message.Text += fmt.Sprintf(" (%d times in all)", f.Count)
			}
			props := map[string]any{"spec": f.Spec.Page, "specText": f.Spec.Text}
			if f.Spec.Line > 0 {
				props["specLine"] = f.Spec.Line
			}
			if len(f.Places) > 0 {
				props["step"] = f.Places[0].Step
				if p := f.Places[0].Pointer; p != "" {
					props["pointer"] = p
				}
			}
			res.Properties = props
			run.Results = append(run.Results, res)
		}
		code := r.Summary.ExitCode
		inv := sarifInvocation{ExecutionSuccessful: r.Aborted == "", ExitCode: &code}
		if r.Aborted != "" {
			inv.Notifications = []sarifNotification{{Message: sarifText{Text: r.Aborted}, Level: "error"}}
		}
		run.Invocations = []sarifInvocation{inv}
		doc.Runs = append(doc.Runs, run)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// sarifRuleOf describes the rule id for a SARIF tool.
func sarifRuleOf(id string) sarifRule {
	r := RuleByID(id)
	if r == nil {
		return sarifRule{ID: id, ShortDescription: sarifText{Text: id}, DefaultConfiguration: sarifConfig{Level: "error"}}
	}
	out := sarifRule{ID: id, ShortDescription: sarifText{Text: r.Check}, DefaultConfiguration: sarifConfig{Level: "error"}}
	if r.Level == Should {
		out.DefaultConfiguration.Level = "warning"
	}
	if len(r.Sources) > 0 {
		out.FullDescription = &sarifText{Text: r.Sources[0].Text}
	}
	out.Properties = map[string]any{"level": r.Level.String(), "derived": r.Derived, "revisions": r.Revs.String(), "transport": string(r.Transport)}
	return out
}
