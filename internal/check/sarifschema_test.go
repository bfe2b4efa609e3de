package check

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The SARIF 2.1.0 JSON schema as Microsoft's SARIF SDK publishes it (the
// file lib/schemas/sarif-2.1.0-rtm.5.json of the npm package
// @microsoft/jest-sarif 1.0.0-beta.0, MIT), copied byte for byte into
// testdata/ and pinned by its sha256 (testdata/README.md). Nothing is
// downloaded when the tests run; interop/reports_test.go pins the same file.
const (
	sarifSchemaFile   = "sarif-2.1.0-rtm.5.json"
	sarifSchemaSHA256 = "2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8"
)

// compileSARIFSchema compiles the pinned SARIF schema after checking its
// sha256; a $ref outside it is refused, never fetched.
func compileSARIFSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", sarifSchemaFile))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != sarifSchemaSHA256 {
		t.Fatalf("%s: sha256 %x, pinned %s", sarifSchemaFile, sum, sarifSchemaSHA256)
	}
	var doc struct {
		Schema string `json:"$schema"`
		ID     string `json:"id"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || doc.ID == "" || doc.Schema != "http://json-schema.org/draft-04/schema#" {
		t.Fatalf("%s: $schema %q, id %q (%v)", sarifSchemaFile, doc.Schema, doc.ID, err)
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

// TestSARIFSchema validates the SARIF of the sample report (every outcome:
// a failed MUST, a SHOULD warning, a rule not judged, a skipped rule, a run
// that stopped) against the SARIF 2.1.0 schema, and checks that the schema
// does refuse a log that breaks it (so the pass means something).
func TestSARIFSchema(t *testing.T) {
	s := compileSARIFSchema(t)
	var b bytes.Buffer
	if err := sampleReport().WriteSARIF(&b); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("the sample report's SARIF breaks the SARIF 2.1.0 schema: %#v", err)
	}
	broken := []struct {
		name   string
		mutate func(map[string]any)
	}{
		{"version 2.0.0", func(d map[string]any) { d["version"] = "2.0.0" }},
		{"a result's level", func(d map[string]any) {
			res := d["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
			res["level"] = "fatal"
		}},
		{"a member SARIF does not define", func(d map[string]any) {
			d["runs"].([]any)[0].(map[string]any)["rules"] = []any{}
		}},
		{"a driver without a name", func(d map[string]any) {
			delete(d["runs"].([]any)[0].(map[string]any)["tool"].(map[string]any)["driver"].(map[string]any), "name")
		}},
	}
	for _, c := range broken {
		var d map[string]any
		if err := json.Unmarshal(b.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		c.mutate(d)
		if err := s.Validate(d); err == nil {
			t.Errorf("%s: the schema accepts it", c.name)
		}
	}
}
