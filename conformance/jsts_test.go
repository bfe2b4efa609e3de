package conformance

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/reference"
	"github.com/mcpgen/mcpgen/schema"
)

// TestJSONSchemaTestSuite runs the official JSON Schema Test Suite's
// top-level files of draft 2020-12 and draft-07 (testdata/json-schema-test-suite,
// pinned by its SHA256SUMS): every group's schema generates a package (its
// root is the type SuiteRoot; a boolean root is written {} or {"not": {}}),
// with the suite's remotes/ as the map of http://localhost:1234/, and
// every test's document gets the same verdict from UnmarshalJSON then
// Validate as from the reference validator (format assertions on, as
// mcpgen's default). Where the two agree with each other and not with the
// suite, the test must be one of the documented differences (suiteDiffers):
// format.json's, where the suite reads "format" as the annotation 2020-12
// makes it by default and mcpgen asserts it (--formats annotate says
// otherwise). A group mcpgen refuses must be in suiteRefused, with the
// reason.
//
// By default it runs the groups whose schemas use references ($ref,
// $dynamicRef, $id, anchors) and those whose root is no type, one package
// build per draft; -suite.all runs every group (several minutes).
var suiteAll = flag.Bool("suite.all", false, "TestJSONSchemaTestSuite: run every group, not only those about references")

var suiteRun = flag.String("suite.run", "", "TestJSONSchemaTestSuite: only the groups whose key (draft7/ref.json#3) matches this regular expression")

func TestJSONSchemaTestSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated package per group")
	}
	dir := filepath.Join("..", "testdata", "json-schema-test-suite")
	remotes, err := filepath.Abs(filepath.Join(dir, "remotes"))
	if err != nil {
		t.Fatal(err)
	}
	for _, draft := range []string{"draft2020-12", "draft7"} {
		t.Run(draft, func(t *testing.T) {
			t.Parallel()
			runSuiteDraft(t, dir, draft, remotes)
		})
	}
}

// suiteRefused are the groups mcpgen does not generate, by file and
// group index, with the reason.
var suiteRefused = map[string]string{
	// None: the groups with a $ref to the dialect's metaschema ("validate
	// definition against metaschema", "remote ref, containing refs
	// itself") generate from mcpgen's embedded metaschemas.
}

// suiteVocabulary are the groups whose "$schema" is a metaschema of the
// suite's own that leaves a vocabulary out: mcpgen reads the schema as the
// draft the metaschema names, with a warning, and applies every keyword
// of that draft ($vocabulary is not read); the suite and the reference
// do not apply the vocabulary left out. Where they differ the test passes.
var suiteVocabulary = map[string]bool{
	"draft2020-12/vocabulary.json#0": true,
}

// suiteAboutRefs reports whether a group's schema is about references:
// it uses one of their keywords (a root that is only a reference among
// them), or it is a boolean schema.
func suiteAboutRefs(doc []byte) bool {
	for _, k := range []string{`"$ref"`, `"$dynamicRef"`, `"$id"`, `"id"`, `"$anchor"`, `"$dynamicAnchor"`} {
		if bytes.Contains(doc, []byte(k)) {
			return true
		}
	}
	var root map[string]json.RawMessage
	return json.Unmarshal(doc, &root) != nil
}

// suiteReferenceWrong are the groups where the reference validator (v5.3.1)
// departs from the suite and mcpgen follows the suite: the test passes
// when mcpgen agrees with the suite there.
var suiteReferenceWrong = map[string]bool{
	// A $dynamicRef that the reference resolves to the anchor of a
	// resource that is not in the dynamic scope ("bar", which the
	// evaluation skips: main's $ref goes to "item" directly).
	"draft2020-12/dynamicRef.json#19": true,
	// An empty enum, which the reference ignores (no value is valid).
	"draft2020-12/enum.json#14": true,
}

// suiteDiffers reports whether a test on which mcpgen and the reference
// agree and the suite does not is a documented difference.
func suiteDiffers(file string) bool { return file == "format.json" }

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

func runSuiteDraft(t *testing.T, dir, draft, remotes string) {
	files, err := filepath.Glob(filepath.Join(dir, "tests", draft, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no suite files for %s: %v", draft, err)
	}
	sort.Strings(files)
	refMap := map[string]string{"http://localhost:1234/": remotes}
	type job struct {
		key, file, pkg string
		group          *suiteGroup
		ref            *jsonschema.Schema
	}
	var jobs []*job
	pkgs := map[string]gen.Files{}
	refused, groups := 0, 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var gs []*suiteGroup
		if err := json.Unmarshal(data, &gs); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		base := filepath.Base(path)
		for i, g := range gs {
			groups++
			key := fmt.Sprintf("%s/%s#%d", draft, base, i)
			doc := []byte(g.Schema)
			switch strings.TrimSpace(string(doc)) {
			case "true":
				doc = []byte(`{}`)
			case "false":
				doc = []byte(`{"not": {}}`)
			}
			if !*suiteAll && !suiteAboutRefs(doc) || *suiteRun != "" && !regexp.MustCompile(*suiteRun).MatchString(key) {
				continue
			}
			doc = withDialect(doc, draft)
			pkg := fmt.Sprintf("g%s%d", strings.NewReplacer(".json", "", "-", "", "_", "").Replace(base), i)
			opts := gen.Options{Package: pkg, Revision: "suite", RootName: "SuiteRoot", NoDispatcher: true,
				Refs: schema.RefOptions{Map: refMap}}
			out, _, err := gen.Generate(base, doc, opts)
			if why, listed := suiteRefused[key]; listed {
				if err == nil {
					t.Errorf("%s (%s): generates now; take it out of suiteRefused (%s)", key, g.Description, why)
				}
				refused++
				continue
			}
			if err != nil {
				t.Errorf("%s (%s): mcpgen refuses the schema: %v\nschema: %s", key, g.Description, err, g.Schema)
				continue
			}
			ref, err := suiteReference(doc, draft, remotes)
			if err != nil {
				t.Errorf("%s (%s): the reference cannot compile the schema: %v", key, g.Description, err)
				continue
			}
			pkgs[pkg] = out
			jobs = append(jobs, &job{key: key, file: base, pkg: pkg, group: g, ref: ref})
		}
	}
	if len(jobs) == 0 {
		if *suiteRun != "" {
			return
		}
		t.Fatal("no group generates")
	}
	bin := grammarBuild(t, pkgs)
	var input bytes.Buffer
	for _, j := range jobs {
		for _, tc := range j.group.Tests {
			fmt.Fprintf(&input, "%s.SuiteRoot\t%s\n", j.pkg, base64.StdEncoding.EncodeToString(tc.Data))
		}
	}
	out := kwRun(t, bin, input.Bytes())
	n, agree, differ, refWrong, vocab := 0, 0, 0, 0, 0
	for _, j := range jobs {
		for _, tc := range j.group.Tests {
			got := out[n]
			n++
			refOK := suiteValidate(j.ref, tc.Data)
			what := fmt.Sprintf("%s (%s) / %s\ndocument: %s\nschema: %s", j.key, j.group.Description, tc.Description, tc.Data, j.group.Schema)
			switch {
			case got.status == "P":
				t.Errorf("%s: PANIC %s", what, got.detail)
			case got.accept != refOK && got.accept == tc.Valid && suiteReferenceWrong[j.key]:
				refWrong++
			case got.accept != refOK && refOK == tc.Valid && suiteVocabulary[j.key]:
				vocab++
			case got.accept != refOK:
				t.Errorf("%s: mcpgen says valid=%v (%s), the reference %v, the suite %v", what, got.accept, got.detail, refOK, tc.Valid)
			case got.accept && got.detail != "" && !strings.HasPrefix(got.detail, "Validate allocates"):
				t.Errorf("%s: valid, but %s", what, got.detail)
			case got.accept != tc.Valid && !suiteDiffers(j.file):
				t.Errorf("%s: mcpgen and the reference say valid=%v, the suite %v", what, got.accept, tc.Valid)
			case got.accept != tc.Valid:
				differ++
			default:
				agree++
			}
		}
	}
	if n != len(out) {
		t.Fatalf("%d verdicts for %d documents", len(out), n)
	}
	t.Logf("%s: %d groups (%d refused as listed), %d tests: %d agree with the suite and the reference, %d with the suite where the reference is wrong, %d are the documented format differences, %d the vocabulary mcpgen does not read",
		draft, groups, refused, n, agree, refWrong, differ, vocab)
}

// withDialect gives a group's schema the "$schema" of its draft when it
// has none at its root (the suite's files mean their draft).
func withDialect(doc []byte, draft string) []byte {
	var root map[string]json.RawMessage
	if json.Unmarshal(doc, &root) != nil {
		return doc
	}
	if _, ok := root["$schema"]; ok {
		return doc
	}
	uri := "https://json-schema.org/draft/2020-12/schema"
	if draft == "draft7" {
		uri = "http://json-schema.org/draft-07/schema#"
	}
	rest := bytes.TrimPrefix(bytes.TrimSpace(doc), []byte("{"))
	sep := ", "
	if bytes.HasPrefix(bytes.TrimSpace(rest), []byte("}")) {
		sep = ""
	}
	return append([]byte(`{"$schema": "`+uri+`"`+sep), rest...)
}

// suiteReference compiles a group's schema with the reference validator,
// format assertions on, remotes read from the suite's folder.
func suiteReference(doc []byte, draft, remotes string) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	if draft == "draft7" {
		c.Draft = jsonschema.Draft7 // for the remotes, which have no "$schema"
	}
	c.AssertFormat = true
	c.Formats["uri-template"] = reference.IsURITemplate // as internal/reference's, RFC 6570
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		if rest, ok := strings.CutPrefix(s, "http://localhost:1234/"); ok {
			return os.Open(filepath.Join(remotes, filepath.FromSlash(rest)))
		}
		return nil, fmt.Errorf("no remote loading (%s)", s)
	}
	const uri = "file:///suite/schema.json"
	if err := c.AddResource(uri, bytes.NewReader(doc)); err != nil {
		return nil, err
	}
	return c.Compile(uri)
}

func suiteValidate(s *jsonschema.Schema, data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return false
	}
	return s.Validate(v) == nil
}

// TestJSONSchemaTestSuiteIsPinned checks the vendored suite files against
// their SHA256SUMS: every listed file has its bytes, every file is listed.
func TestJSONSchemaTestSuiteIsPinned(t *testing.T) {
	dir := filepath.Join("..", "testdata", "json-schema-test-suite")
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: malformed line %q", sc.Text())
		}
		listed[name] = true
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Error(err)
			continue
		}
		if got := schema.SHA256(data); got != sum {
			t.Errorf("%s: sha256 %s, pinned %s", name, got, sum)
		}
	}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel != "SHA256SUMS" && rel != "README.md" && !listed[rel] {
			t.Errorf("%s is not in SHA256SUMS", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
