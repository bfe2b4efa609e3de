package conformance

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/randschema"
	"github.com/mcpgen/mcpgen/internal/reference"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

// The keyword differential test: random small schemas over every
// validation keyword of draft-07 and draft 2020-12 (internal/randschema),
// each alone and combined, with random documents, must get the same verdict
// from the generated validators (UnmarshalJSON, then Validate) as from the
// reference validator. A batch of schemas is one schema document (one
// definition per schema), generated into one package and compiled into one
// program that reads documents and prints verdicts, so that thousands of
// cases take a few builds.
//
// The documented differences, where mcpgen must (or may) decide otherwise:
//
//   - mcpgen is stricter where its Go types are: an integer outside int64
//     at a position it types as an int64, a number outside float64's range
//     at one it types as a float64 (the same exception as the MCP
//     differential test, decided the same way: mcpgen may reject what the
//     reference accepts when the reference rejects the document against
//     strictSchema);
//   - a document that matches one branch of a oneOf and has a number
//     beyond the range of another branch's Go type (an int64 or a float64)
//     is rejected: that branch may match too, and mcpgen refuses rather
//     than maybe accepting a document that matches two branches
//     (oneOfUnsure; the reference may accept it);
//   - a position mcpgen types as "number" holds a float64: a document
//     number with more digits than a float64 keeps (0.30000000000000001)
//     is judged as the value the Go field holds (0.3), in the keywords
//     decoding does not check on the text (it checks minimum, maximum and
//     multipleOf there). Where mcpgen and the reference disagree on such
//     a document, mcpgen must agree with the reference on the document
//     with every such number rounded to its float64 (roundedNumbers);
//   - where the reference departs from the specification (it asserts the
//     content keywords in draft-07, it ignores an empty enum), it gets the
//     schema rewritten to say what the specification says
//     (randschema.ForReference).
//
// A schema mcpgen refuses is a failure, except for the refusals listed in
// otherIssues, which are another issue's to fix (the batch goes on
// without the schema; the test counts them).
//
// Besides the verdict, every document mcpgen accepts must survive the round
// trip: encoding the decoded value gives the same JSON value.

// kwStats counts what a batch did.
type kwStats struct {
	schemas, refused, deferred, refRefused, cases, valid, exceptions int
}

func (t *kwStats) add(s kwStats) {
	t.schemas += s.schemas
	t.refused += s.refused
	t.deferred += s.deferred
	t.refRefused += s.refRefused
	t.cases += s.cases
	t.valid += s.valid
	t.exceptions += s.exceptions
}

// otherIssues are refusals that are not about validation: an inline union
// branch with nothing to name its Go type by, two inline branches whose
// names collide (issue 13, naming of inline union branches), and the
// documented naming rules (a member name must give a Go name: ASCII, not
// starting with a digit, with a letter or digit; README, Naming).
var otherIssues = regexp.MustCompile(`inline branch \d+ of \S+ has no "type" to name it by|Go name \S+ is already taken by \S+/(?:anyOf|oneOf)/\d+;|` +
	`has non-ASCII characters; mcpgen only converts ASCII names|starts with a digit, which a Go name cannot|has no letters or digits to make a Go name from`)

// kwBatch generates n schemas from seed in draft d with m documents each,
// runs them through mcpgen and the reference, and reports every
// disagreement with t.Errorf.
func kwBatch(t *testing.T, seed uint64, d randschema.Draft, n, m int) kwStats {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, uint64(d)))
	var cases []*randschema.Case
	for i := range n {
		cases = append(cases, randschema.New(r, d, fmt.Sprintf("S%d", i)))
	}
	return kwCases(t, seed, d, r, cases, m)
}

// kwCases is kwBatch on cases made already.
func kwCases(t *testing.T, seed uint64, d randschema.Draft, r *rand.Rand, cases []*randschema.Case, m int) kwStats {
	t.Helper()
	st := kwStats{schemas: len(cases)}
	// Generate; a schema mcpgen refuses is a failure of its own, reported
	// and left out of the batch.
	var files gen.Files
	for attempt := 0; ; attempt++ {
		doc, err := randschema.Document(d, cases)
		if err != nil {
			t.Fatal(err)
		}
		var warns []*schema.Diagnostic
		files, warns, err = gen.Generate("kw.json", doc, gen.Options{Package: "kw", Revision: "kw", NoDispatcher: true})
		_ = warns
		if err == nil {
			break
		}
		var errs schema.Errors
		if !errors.As(err, &errs) || attempt > 20 {
			t.Fatalf("seed %d: generate: %v", seed, err)
		}
		bad := map[string]bool{}
		for _, e := range errs {
			bad[caseOf(e.Pointer)] = true
		}
		var keep []*randschema.Case
		for _, c := range cases {
			if bad[c.Name] {
				msg := errsFor(errs, c.Name)
				if otherIssues.MatchString(msg) {
					st.deferred++
					if os.Getenv("KW_SHOW_DEFERRED") != "" {
						t.Logf("deferred: %s", otherIssues.FindString(msg))
					}
					continue
				}
				sb, _ := randschema.Document(d, []*randschema.Case{c})
				t.Errorf("seed %d: mcpgen refuses a schema: %v\nschema: %s", seed, msg, sb)
				st.refused++
				continue
			}
			keep = append(keep, c)
		}
		if len(keep) == len(cases) {
			t.Fatalf("seed %d: generate: %v", seed, err)
		}
		cases = keep
	}
	if len(cases) == 0 {
		return st
	}
	bin := kwBuild(t, files)

	// The reference, on the schema without content keywords, and on its
	// strict copy (int64 and float64 bounds at typed positions).
	refDoc, err := randschema.Marshal(randschema.ForReference(randschema.DocumentValue(d, cases)))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := reference.New(refDoc)
	if err != nil {
		t.Fatal(err)
	}
	strictDoc, err := strictSchema(refDoc)
	if err != nil {
		t.Fatal(err)
	}
	strict, err := reference.New(strictDoc)
	if err != nil {
		t.Fatal(err)
	}

	type job struct {
		c   *randschema.Case
		doc []byte
	}
	var jobs []job
	var input bytes.Buffer
	for _, c := range cases {
		for _, doc := range randschema.Instances(r, c, m) {
			jobs = append(jobs, job{c, doc})
			fmt.Fprintf(&input, "%s\t%s\n", c.Name, base64.StdEncoding.EncodeToString(doc))
		}
	}
	out := kwRun(t, bin, input.Bytes())
	if len(out) != len(jobs) {
		t.Fatalf("seed %d: %d verdicts for %d documents", seed, len(out), len(jobs))
	}
	refRefused := map[string]bool{}
	for i, j := range jobs {
		got := out[i]
		if refRefused[j.c.Name] {
			continue
		}
		ok, why, err := ref.Validate(j.c.Name, j.doc)
		if err != nil {
			refRefused[j.c.Name] = true
			st.refRefused++
			t.Logf("seed %d: the reference cannot compile %s: %v", seed, j.c.Name, err)
			continue
		}
		st.cases++
		if ok {
			st.valid++
		}
		sb, _ := randschema.Document(d, []*randschema.Case{j.c})
		switch {
		case got.status == "P":
			t.Errorf("seed %d %s: PANIC %s\ndocument: %s\nschema: %s", seed, j.c.Name, got.detail, j.doc, sb)
		case got.accept == ok:
			if ok && strings.HasPrefix(got.detail, "Validate allocates") && allocException(sb, files["validate.go"], j.c.Name) {
				st.exceptions++
				continue
			}
			if ok && got.detail != "" {
				t.Errorf("seed %d %s: valid, but %s\ndocument: %s\nschema: %s", seed, j.c.Name, got.detail, j.doc, sb)
			}
		case float64Exception(ref, j.c.Name, j.doc, got.accept):
			st.exceptions++
		case !got.accept && ok:
			// Stricter: allowed only for numbers beyond the Go types.
			sok, _, err := strict.Validate(j.c.Name, j.doc)
			if err == nil && !sok || oneOfUnsure(got.detail) {
				st.exceptions++
				continue
			}
			t.Errorf("seed %d %s: mcpgen rejects a valid document: %s\ndocument: %s\nschema: %s", seed, j.c.Name, got.detail, j.doc, sb)
		default:
			t.Errorf("seed %d %s: mcpgen accepts an invalid document\nreference: %s\ndocument: %s\nschema: %s", seed, j.c.Name, why, j.doc, sb)
		}
	}
	return st
}

// oneOfUnsure reports whether mcpgen rejected a document because it
// matched one branch of a oneOf and had a number beyond the range of
// another branch's Go type (the rejection the runtime's trial.finish
// makes).
func oneOfUnsure(detail string) bool {
	return strings.Contains(detail, "a number beyond the range of another branch's Go type")
}

// float64Exception reports whether the document has a number a float64
// does not keep exactly and the reference, on the document with those
// numbers rounded, gives mcpgen's verdict.
func float64Exception(ref *reference.Validator, def string, doc []byte, accept bool) bool {
	rounded, changed := roundedNumbers(doc)
	if !changed {
		return false
	}
	ok, _, err := ref.Validate(def, rounded)
	return err == nil && ok == accept
}

// roundedNumbers returns doc with every number whose value changes when
// it is read into a float64 and written back (more digits than a float64
// keeps) replaced by the float64's shortest text.
func roundedNumbers(doc []byte) ([]byte, bool) {
	v, err := schema.Parse(doc)
	if err != nil {
		return nil, false
	}
	changed := false
	walkValues(v, func(n *schema.Value) {
		if n.Kind != schema.Number {
			return
		}
		f, err := strconv.ParseFloat(n.Num, 64)
		if err != nil || math.IsInf(f, 0) {
			return // beyond float64: the strict schema's exception
		}
		short := strconv.FormatFloat(f, 'g', -1, 64)
		if schema.NumberCmp(short, n.Num) != 0 {
			n.Num, changed = short, true
		}
	})
	return encode(v, compact), changed
}

// caseOf returns the case a JSON pointer of the batch document is in:
// /$defs/S3/... and /$defs/S3_h0/... are in S3.
var caseName = regexp.MustCompile(`^/(?:\$defs|definitions)/(S\d+)`)

func caseOf(ptr string) string {
	if m := caseName.FindStringSubmatch(ptr); m != nil {
		return m[1]
	}
	return ""
}

func errsFor(errs schema.Errors, name string) string {
	var out []string
	for _, e := range errs {
		if caseOf(e.Pointer) == name {
			out = append(out, e.Error())
		}
	}
	return strings.Join(out, "; ")
}

// allocException reports whether the schema of case name uses something
// whose check allocates (README, Validation): the format "regex" compiles
// the pattern it checks, and a oneOf union (a Go interface) decodes its
// encoding again to count the branches it matches.
func allocException(schema, validateGo []byte, name string) bool {
	if bytes.Contains(schema, []byte(`"format":"regex"`)) {
		return true
	}
	holder := regexp.MustCompile(`^\(v ` + name + `(_h\d+)?([A-Z]\w*)?Holder\) ValidateWith\(`)
	for _, fn := range bytes.Split(validateGo, []byte("\nfunc ")) {
		if holder.Match(fn) && bytes.Contains(fn, []byte("OneOfConflict")) {
			return true
		}
	}
	return false
}

// kwDriver is the program that decodes and validates the documents it
// reads (name TAB base64 per line) and prints a verdict per line: "1" and
// what the round trip changed or that Validate allocated (nothing when
// neither happened), "0" and
// the error, or "P" and a panic.
const kwDriver = `package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"kwtest/kw"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for sc.Scan() {
		name, b64, _ := strings.Cut(sc.Text(), "\t")
		doc, _ := base64.StdEncoding.DecodeString(b64)
		fmt.Fprintln(w, verdict(name, doc))
	}
}

func verdict(name string, doc []byte) (out string) {
	defer func() {
		if p := recover(); p != nil {
			out = "P\t" + oneLine(fmt.Sprint(p))
		}
	}()
	v, ok := kw.NewValue(name)
	if !ok {
		return "P\tno definition " + name
	}
	if err := v.UnmarshalJSON(doc); err != nil {
		return "0\t" + oneLine(err.Error())
	}
	if err := v.Validate(); err != nil {
		return "0\t" + oneLine(err.Error())
	}
	// The pools' buffers grow in the first runs; then nothing allocates.
	for range 5 {
		_ = v.Validate()
	}
	// AllocsPerRun counts the process's allocations, other goroutines'
	// included: an allocation of Validate's shows in every measurement,
	// another goroutine's (on a loaded machine) not in three in a row.
	a := testing.AllocsPerRun(5, func() { _ = v.Validate() })
	for i := 0; i < 2 && a != 0; i++ {
		a = min(a, testing.AllocsPerRun(5, func() { _ = v.Validate() }))
	}
	if a != 0 {
		return "1\tValidate allocates " + strconv.FormatFloat(a, 'g', -1, 64) + " times on this valid value"
	}
	b, err := v.MarshalJSON()
	if err != nil {
		return "1\tencoding fails: " + oneLine(err.Error())
	}
	if !sameJSON(doc, b) {
		return "1\tre-encoded as " + oneLine(string(b))
	}
	return "1\t"
}

// sameJSON compares two documents as JSON values. Numbers are equal when
// their values are, or when they round to the same float64 (a position
// typed "number" holds a float64).
func sameJSON(a, b []byte) bool {
	x, err1 := decode(a)
	y, err2 := decode(b)
	return err1 == nil && err2 == nil && same(x, y)
}

func decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

func same(x, y any) bool {
	switch x := x.(type) {
	case json.Number:
		n, ok := y.(json.Number)
		if !ok {
			return false
		}
		r1, ok1 := new(big.Rat).SetString(string(x))
		r2, ok2 := new(big.Rat).SetString(string(n))
		if ok1 && ok2 && r1.Cmp(r2) == 0 {
			return true
		}
		f1, e1 := strconv.ParseFloat(string(x), 64)
		f2, e2 := strconv.ParseFloat(string(n), 64)
		return e1 == nil && e2 == nil && f1 == f2
	case []any:
		l, ok := y.([]any)
		if !ok || len(l) != len(x) {
			return false
		}
		for i := range x {
			if !same(x[i], l[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		m, ok := y.(map[string]any)
		if !ok || len(m) != len(x) {
			return false
		}
		for k, v := range x {
			w, ok := m[k]
			if !ok || !same(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(x, y)
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " | ") }
`

// kwBuild writes the generated package and the driver into a module of
// their own and builds it.
func kwBuild(t *testing.T, files gen.Files) string {
	t.Helper()
	dir := t.TempDir()
	pkgDir := filepath.Join(dir, "kw")
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if strings.HasSuffix(name, ".go") {
			if err := os.WriteFile(filepath.Join(pkgDir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, text := range map[string]string{"go.mod": testenv.GoMod(t, "kwtest"), "main.go": kwDriver} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "kwdriver")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = testenv.GoEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		// Keep the package for a look.
		keep, _ := os.MkdirTemp("", "kwfail")
		exec.Command("cp", "-r", dir, keep).Run()
		t.Fatalf("the generated package does not build (kept in %s): %v\n%s", keep, err, out)
	}
	return bin
}

type kwVerdict struct {
	status string // "1", "0" or "P"
	accept bool
	detail string
}

func kwRun(t *testing.T, bin string, input []byte) []kwVerdict {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("driver: %v\n%s", err, stderr.Bytes())
	}
	var out []kwVerdict
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		status, detail, _ := strings.Cut(sc.Text(), "\t")
		out = append(out, kwVerdict{status: status, accept: status == "1", detail: detail})
	}
	return out
}

// TestKeywordsDifferential runs a few batches of each draft (a few
// thousand documents in all). Under -short it runs one batch of a tenth
// of the schemas, its seed taken from the slice testenv.Sample picks
// (MCPGEN_SAMPLE=k/n: seed 101+k, draft 2020-12 for even k and draft-07
// for odd), so that going through the slices tries other schemas.
func TestKeywordsDifferential(t *testing.T) {
	type batch struct {
		seed  uint64
		draft randschema.Draft
	}
	batches := []batch{{1, randschema.Draft202012}, {2, randschema.Draft07}, {3, randschema.Draft202012}}
	schemas, minCases := 80, 1000
	if sample := testenv.Sample(t); !sample.All() {
		k := sample.Index()
		d := randschema.Draft202012
		if k%2 == 1 {
			d = randschema.Draft07
		}
		batches = []batch{{uint64(101 + k), d}}
		schemas, minCases = 8, 40
	}
	var total kwStats
	for _, b := range batches {
		total.add(kwBatch(t, b.seed, b.draft, schemas, 15))
	}
	t.Logf("%d schemas (%d refused by mcpgen, %d left to another issue, %d refused by the reference), %d documents (%d valid), %d documented exceptions",
		total.schemas, total.refused, total.deferred, total.refRefused, total.cases, total.valid, total.exceptions)
	if total.cases < minCases {
		t.Errorf("only %d documents compared", total.cases)
	}
}

// kwAlone are the keywords TestKeywordsAlone tries one at a time (with
// the keywords that complete them), per draft.
var kwAlone = map[randschema.Draft][][]string{
	randschema.Draft202012: {{"not"}, {"if", "then", "else"}, {"contains", "minContains", "maxContains"}, {"uniqueItems"},
		{"multipleOf"}, {"patternProperties"}, {"patternProperties", "additionalProperties"}, {"propertyNames"},
		{"dependentRequired"}, {"dependentSchemas"}, {"minProperties", "maxProperties"}, {"prefixItems", "items"},
		{"unevaluatedProperties"}, {"unevaluatedProperties", "properties", "allOf"}, {"unevaluatedItems"},
		{"unevaluatedItems", "prefixItems", "anyOf"}},
	randschema.Draft07: {{"dependencies"}, {"items", "additionalItems"}, {"not"}, {"if", "then", "else"}, {"contains"}},
}

// TestKeywordsAlone runs the differential test on schemas that use one
// keyword each (the random schemas of TestKeywordsDifferential filtered
// down to it, its subschemas too): a few schemas per keyword, in one
// package per draft.
func TestKeywordsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated packages")
	}
	var total kwStats
	for _, d := range []randschema.Draft{randschema.Draft202012, randschema.Draft07} {
		r := rand.New(rand.NewPCG(7, uint64(d)))
		var cases []*randschema.Case
		for _, kw := range kwAlone[d] {
			found := 0
			for try := 0; try < 400 && found < 4; try++ {
				c, used := randschema.Only(randschema.New(r, d, fmt.Sprintf("S%d", len(cases))), kw...)
				if used {
					cases = append(cases, c)
					found++
				}
			}
			if found == 0 {
				t.Errorf("no random schema uses %v", kw)
			}
		}
		total.add(kwCases(t, 7, d, r, cases, 15))
	}
	t.Logf("%d schemas (%d refused by mcpgen, %d left to another issue), %d documents (%d valid), %d documented exceptions",
		total.schemas, total.refused, total.deferred, total.cases, total.valid, total.exceptions)
	if total.cases < 500 {
		t.Errorf("only %d documents compared", total.cases)
	}
}

// FuzzKeywords runs one batch per input: the input seeds the random
// schemas and documents (the second argument picks the draft). Each input
// builds a package, so an input takes seconds; run it with -parallel 1
// for minutes (README, Validation). A batch is small (10 schemas, without
// the dispatcher) because the fuzzing engine stops a worker whose input
// runs for 10 seconds. Its findings are kept under testdata/fuzz/FuzzKeywords.
// Under -short (without -fuzz) the first seed runs, and each other input
// only in its slice of testenv.Sample.
func FuzzKeywords(f *testing.F) {
	f.Add(uint64(1), false)
	f.Add(uint64(2), true)
	sample := testenv.Sample(f)
	f.Fuzz(func(t *testing.T, seed uint64, draft07 bool) {
		if (seed != 1 || draft07) && !sample.Keep(fmt.Sprint(seed, draft07)) {
			t.Skip("-short: another slice's input")
		}
		d := randschema.Draft202012
		if draft07 {
			d = randschema.Draft07
		}
		kwBatch(t, seed, d, 10, 12)
	})
}
