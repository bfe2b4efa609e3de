package interop

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"testing"

	junit "github.com/joshdk/go-junit"
	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/mcpgen/mcpgen/internal/check"
)

// The SARIF 2.1.0 JSON schema internal/check pins (its testdata/README.md
// says where it comes from); the same sha256 is pinned there.
const (
	sarifSchemaPath   = "../internal/check/testdata/sarif-2.1.0-rtm.5.json"
	sarifSchemaSHA256 = "2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8"
)

// sarifSchema compiles the pinned SARIF 2.1.0 schema (draft-04), offline.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile(sarifSchemaPath)
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != sarifSchemaSHA256 {
		t.Fatalf("%s: sha256 %x, pinned %s", sarifSchemaPath, sum, sarifSchemaSHA256)
	}
	var doc struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || doc.ID == "" {
		t.Fatalf("%s: no id (%v)", sarifSchemaPath, err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft4
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("%s: not loaded (the tests are offline)", u)
	}
	if err := c.AddResource(doc.ID, bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(doc.ID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkReportFormats writes rep as check --format sarif and junit do and
// reads them back as CI does: the SARIF validates against the SARIF 2.1.0
// schema, and a JUnit report parser (github.com/joshdk/go-junit) finds a
// suite per revision with a test per rule whose status is the rule's (a
// failed MUST failed, a rule not judged an error, a skipped rule
// skipped, a passed rule or a SHOULD warning passed) and a "(run)" error
// for a run that stopped.
func checkReportFormats(t *testing.T, rep *check.Report, schema *jsonschema.Schema) {
	t.Helper()
	var sb bytes.Buffer
	if err := rep.WriteSARIF(&sb); err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(sb.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Errorf("the SARIF breaks the SARIF 2.1.0 schema: %#v", err)
	}

	var jb bytes.Buffer
	if err := rep.WriteJUnit(&jb); err != nil {
		t.Fatal(err)
	}
	suites, err := junit.Ingest(jb.Bytes())
	if err != nil {
		t.Fatalf("go-junit: %v", err)
	}
	if len(suites) != len(rep.Runs) {
		t.Fatalf("go-junit read %d suites, the report has %d runs", len(suites), len(rep.Runs))
	}
	want := map[check.Status]junit.Status{check.Pass: junit.StatusPassed, check.Warn: junit.StatusPassed, check.Fail: junit.StatusFailed, check.Error: junit.StatusError, check.Skip: junit.StatusSkipped}
	for i, r := range rep.Runs {
		s := suites[i]
		if s.Name != r.Revision {
			t.Errorf("suite %d is %q, run %q", i, s.Name, r.Revision)
			continue
		}
		got := map[string]junit.Test{}
		for _, tc := range s.Tests {
			got[tc.Name] = tc
		}
		n := len(r.Rules)
		if r.Aborted != "" {
			n++
			if tc := got["(run)"]; tc.Status != junit.StatusError || tc.Message != r.Aborted {
				t.Errorf("%s: the stopped run reads %+v", r.Revision, tc)
			}
		}
		if len(s.Tests) != n {
			t.Errorf("%s: %d tests, %d rules", r.Revision, len(s.Tests), n)
		}
		var failed, errored, skipped int
		for _, st := range r.Rules {
			tc, ok := got[st.Rule]
			if !ok || tc.Status != want[st.Status] {
				t.Errorf("%s %s: %s reads as %q", r.Revision, st.Rule, st.Status, tc.Status)
			}
			switch st.Status {
			case check.Fail:
				failed++
			case check.Error:
				errored++
			case check.Skip:
				skipped++
			}
		}
		if r.Aborted != "" {
			errored++
		}
		if s.Totals.Failed != failed || s.Totals.Error != errored || s.Totals.Skipped != skipped || s.Totals.Tests != n {
			t.Errorf("%s: go-junit totals %+v, the run has %d failed, %d not judged, %d skipped of %d", r.Revision, s.Totals, failed, errored, skipped, n)
		}
	}
}
