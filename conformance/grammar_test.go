package conformance

import (
	"bytes"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/randschema"
	"github.com/mcpgen/mcpgen/internal/reference"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

// The grammar fuzz target (issue 13): a fuzzer's bytes choose a small
// schema document (internal/randschema's GrammarDocument: the validation
// keywords, plus the shapes a Go generator has to name and type: unions
// of constants, branches of one JSON type, untyped branches, free-form
// values, deep nesting, names that clash with Go keywords or with the
// generated types' own methods, text Go source cannot carry, bounds
// beyond Go's types, requests and results to pair). FuzzGrammar checks
// what is fast enough for a fuzzer: mcpgen either refuses the schema with
// an error that says where and why (never blaming itself, never
// panicking), or gives Go that parses and type-checks (go/types).
// TestGrammarDifferential checks the rest for a set of inputs at once:
// their packages build into one program, and their validators agree with
// the reference validator on random documents, with the documented
// exceptions of the keyword differential test (keywords_test.go).
//
//	go test ./conformance -run '^$' -fuzz '^FuzzGrammar$' -fuzztime 5m -fuzzminimizetime 5x
//	go test ./conformance -run '^TestGrammarDifferential$' -grammar.corpus "$(go env GOCACHE)/fuzz/github.com/mcpgen/mcpgen/conformance/FuzzGrammar"
//
// The second runs the differential over every input the fuzzer kept (the
// ones that reached new code). Findings are kept under
// testdata/fuzz/FuzzGrammar, which both tests run; since an input means a
// schema only through the grammar, which grows, each finding also gets a
// golden case of its own (golden/value_cycle, recursive_named,
// dispatch_other_ping, dispatch_tuple_params, const_outside_type,
// oneof_beyond_range).

var (
	grammarN      = flag.Int("grammar.n", 30, "TestGrammarDifferential: random inputs besides the kept ones")
	grammarSeed   = flag.Uint64("grammar.seed", 1, "TestGrammarDifferential: seed of the random inputs")
	grammarDocs   = flag.Int("grammar.docs", 12, "TestGrammarDifferential: documents per definition")
	grammarCorpus = flag.String("grammar.corpus", "", "TestGrammarDifferential: also run the inputs of this fuzz corpus directory (the fuzz cache's)")
)

// grammarDoc is the schema document an input makes.
func grammarDoc(data []byte) (randschema.Draft, []*randschema.Case, []byte, error) {
	d, cases := randschema.GrammarDocument(randschema.FromBytes(data))
	doc, err := randschema.Document(d, cases)
	return d, cases, doc, err
}

// selfBlame is an error of mcpgen's own making: output that does not
// parse, or an error that points at mcpgen.
var selfBlame = regexp.MustCompile(`a bug in mcpgen|does not parse|gen/[a-z_]+\.go`)

// grammarImporter type-checks against the standard library's export data,
// shared by the fuzz workers of a process.
var grammarImporter = sync.OnceValue(func() types.Importer {
	imp, err := testenv.Importer()
	if err != nil {
		panic(err)
	}
	return imp
})

func FuzzGrammar(f *testing.F) {
	for i := range uint64(8) {
		var b [32]byte
		r := rand.New(rand.NewPCG(i, 7))
		for j := range b {
			b[j] = byte(r.IntN(256))
		}
		f.Add(b[:])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, doc, err := grammarDoc(data)
		if err != nil {
			t.Fatal(err)
		}
		files, _, err := gen.Generate("grammar.json", doc, gen.Options{Package: "grammar", Revision: "grammar"})
		if err != nil {
			checkRefusal(t, err, doc)
			return
		}
		if err := typeCheck("grammar", files); err != nil {
			t.Fatalf("%v\nschema: %s", err, doc)
		}
	})
}

// checkRefusal checks an error of mcpgen: every diagnostic says where
// (a pointer into the document, or the document) and why, and none
// blames mcpgen.
func checkRefusal(t *testing.T, err error, doc []byte) {
	t.Helper()
	if problem := refusalProblem(err); problem != "" {
		t.Fatalf("%s\nschema: %s", problem, doc)
	}
}

// refusalProblem says what is wrong with an error of mcpgen, or "".
func refusalProblem(err error) string {
	var errs schema.Errors
	if !errors.As(err, &errs) || len(errs) == 0 {
		return fmt.Sprintf("the error is no list of diagnostics: %v", err)
	}
	for _, e := range errs {
		if e.Message == "" || selfBlame.MatchString(e.Error()) {
			return fmt.Sprintf("mcpgen blames itself or says nothing: %v", e)
		}
	}
	return ""
}

// typeCheck parses and type-checks a generated package.
func typeCheck(pkg string, files gen.Files) error {
	return typeCheckWith(grammarImporter(), pkg, files)
}

// typeCheckWith type-checks with an importer of its own (an importer is
// not safe for concurrent use).
func typeCheckWith(imp types.Importer, pkg string, files gen.Files) error {
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, name := range files.Names() {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		af, err := parser.ParseFile(fset, name, files[name], parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("%s does not parse: %v", name, err)
		}
		parsed = append(parsed, af)
	}
	conf := types.Config{Importer: imp}
	if _, err := conf.Check(pkg, fset, parsed, nil); err != nil {
		return fmt.Errorf("the generated package does not type-check: %v", err)
	}
	return nil
}

// grammarInputs are the kept inputs (testdata/fuzz/FuzzGrammar, and the
// directory of -grammar.corpus) in the go test fuzz v1 format.
func grammarInputs(t *testing.T, dirs ...string) map[string][]byte {
	out := map[string][]byte{}
	for _, dir := range dirs {
		paths, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, p := range paths {
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
			if len(lines) != 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "[]byte(") {
				t.Fatalf("%s: not a go test fuzz v1 file of one []byte", p)
			}
			s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			out[p] = []byte(s)
		}
	}
	return out
}

// TestGrammarDifferential generates the kept inputs and -grammar.n random
// ones, builds every package that generates into one program, and
// compares its verdicts on random documents with the reference's.
func TestGrammarDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated packages")
	}
	dirs := []string{filepath.Join("testdata", "fuzz", "FuzzGrammar")}
	if *grammarCorpus != "" {
		dirs = append(dirs, *grammarCorpus)
	}
	inputs := grammarInputs(t, dirs...)
	var names []string
	for name := range inputs {
		names = append(names, name)
	}
	sort.Strings(names)
	r := rand.New(rand.NewPCG(*grammarSeed, 13))
	for i := range *grammarN {
		b := make([]byte, 8+r.IntN(120))
		for j := range b {
			b[j] = byte(r.IntN(256))
		}
		name := fmt.Sprintf("random/%d", i)
		inputs[name] = b
		names = append(names, name)
	}

	type pkgCase struct {
		input string
		pkg   string
		draft randschema.Draft
		cases []*randschema.Case
		doc   []byte
	}
	var (
		pkgs    []*pkgCase
		refused = map[string]int{}
		files   = map[string]gen.Files{}
	)
	for _, name := range names {
		d, cases, doc, err := grammarDoc(inputs[name])
		if err != nil {
			t.Fatal(err)
		}
		pkg := "g" + strconv.Itoa(len(pkgs))
		fs, _, err := gen.Generate("grammar.json", doc, gen.Options{Package: pkg, Revision: "grammar"})
		if err != nil {
			checkRefusal(t, err, doc)
			var errs schema.Errors
			errors.As(err, &errs)
			refused[refusalKind(errs[0].Message)]++
			continue
		}
		if err := typeCheck(pkg, fs); err != nil {
			t.Fatalf("%s: %v\nschema: %s", name, err, doc)
		}
		files[pkg] = fs
		pkgs = append(pkgs, &pkgCase{name, pkg, d, cases, doc})
	}
	if len(pkgs) == 0 {
		t.Fatalf("mcpgen refused all %d inputs: %v", len(names), refused)
	}
	bin := grammarBuild(t, files)

	type job struct {
		p   *pkgCase
		c   *randschema.Case
		doc []byte
	}
	var jobs []job
	var input bytes.Buffer
	dr := rand.New(rand.NewPCG(*grammarSeed, 17))
	for _, p := range pkgs {
		for _, c := range p.cases {
			for _, doc := range randschema.Instances(dr, c, *grammarDocs) {
				jobs = append(jobs, job{p, c, doc})
				fmt.Fprintf(&input, "%s.%s\t%s\n", p.pkg, c.Name, base64.StdEncoding.EncodeToString(doc))
			}
		}
	}
	out := kwRun(t, bin, input.Bytes())
	if len(out) != len(jobs) {
		t.Fatalf("%d verdicts for %d documents", len(out), len(jobs))
	}
	type refs struct{ ref, strict *reference.Validator }
	refOf := map[*pkgCase]*refs{}
	var st kwStats
	st.schemas = len(names)
	failures := 0
	fail := func(format string, args ...any) {
		failures++
		if failures <= 12 {
			t.Errorf(format, args...)
		}
	}
	for i, j := range jobs {
		rs := refOf[j.p]
		if rs == nil {
			refDoc, err := randschema.Marshal(randschema.ForReference(randschema.DocumentValue(j.p.draft, j.p.cases)))
			if err != nil {
				t.Fatal(err)
			}
			rs = &refs{}
			if rs.ref, err = reference.New(refDoc); err != nil {
				t.Fatalf("%s: the reference cannot load the schema: %v", j.p.input, err)
			}
			strictDoc, err := strictSchema(refDoc)
			if err != nil {
				t.Fatal(err)
			}
			if rs.strict, err = reference.New(strictDoc); err != nil {
				t.Fatal(err)
			}
			refOf[j.p] = rs
		}
		got := out[i]
		ok, why, err := rs.ref.Validate(j.c.Name, j.doc)
		if err != nil {
			st.refRefused++
			continue
		}
		st.cases++
		if ok {
			st.valid++
		}
		switch {
		case got.status == "P":
			fail("%s %s: PANIC %s\ndocument: %s\nschema: %s", j.p.input, j.c.Name, got.detail, j.doc, j.p.doc)
		case got.accept == ok:
			// (Validate's allocations are the keyword test's to judge.)
			if ok && got.detail != "" && !strings.HasPrefix(got.detail, "Validate allocates") {
				fail("%s %s: the round trip changes the document: %s\ndocument: %s\nschema: %s", j.p.input, j.c.Name, got.detail, j.doc, j.p.doc)
			}
		case float64Exception(rs.ref, j.c.Name, j.doc, got.accept):
			st.exceptions++
		case !got.accept && ok:
			if sok, _, err := rs.strict.Validate(j.c.Name, j.doc); err == nil && !sok || oneOfUnsure(got.detail) {
				st.exceptions++
				continue
			}
			fail("%s %s: mcpgen rejects a valid document: %s\ndocument: %s\nschema: %s", j.p.input, j.c.Name, got.detail, j.doc, j.p.doc)
		default:
			fail("%s %s: mcpgen accepts an invalid document\nreference: %s\ndocument: %s\nschema: %s", j.p.input, j.c.Name, why, j.doc, j.p.doc)
		}
	}
	if failures > 12 {
		t.Errorf("... %d disagreements in all", failures)
	}
	var kinds []string
	for k, n := range refused {
		kinds = append(kinds, fmt.Sprintf("%d× %s", n, k))
	}
	sort.Strings(kinds)
	t.Logf("%d inputs: %d generated (and type-checked), %d refused [%s]; %d documents (%d valid), %d documented exceptions, %d refused by the reference",
		len(names), len(pkgs), len(names)-len(pkgs), strings.Join(kinds, "; "), st.cases, st.valid, st.exceptions, st.refRefused)
	if st.valid == 0 || st.valid == st.cases {
		t.Errorf("the documents are all valid or all invalid (%d of %d valid): the comparison tells nothing", st.valid, st.cases)
	}
}

// refusalKind is a refusal's message without its particulars, to count
// refusals by kind.
var particulars = regexp.MustCompile(`"[^"]*"|/[^\s,;:)]*|\b[A-Z][A-Za-z0-9_]*\b|\d+(\.\d+)?(e\d+)?`)

func refusalKind(msg string) string {
	msg = particulars.ReplaceAllString(msg, "_")
	if len(msg) > 90 {
		msg = msg[:90] + "..."
	}
	return msg
}

// grammarBuild writes the packages and a driver (keywords_test.go's, for
// names "package.Definition") into a module and builds it.
func grammarBuild(t *testing.T, files map[string]gen.Files) string {
	t.Helper()
	dir := t.TempDir()
	var pkgs []string
	for pkg, fs := range files {
		pkgs = append(pkgs, pkg)
		if err := os.MkdirAll(filepath.Join(dir, pkg), 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range fs {
			if strings.HasSuffix(name, ".go") {
				if err := os.WriteFile(filepath.Join(dir, pkg, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	sort.Strings(pkgs)
	var imports, cases strings.Builder
	for _, p := range pkgs {
		fmt.Fprintf(&imports, "\t%q\n", "kwtest/"+p)
		fmt.Fprintf(&cases, "\tcase %q:\n\t\tv, ok := %s.NewValue(def)\n\t\treturn v, ok\n", p, p)
	}
	const imp, call = "\t\"kwtest/kw\"\n", "kw.NewValue(name)"
	if !strings.Contains(kwDriver, imp) || !strings.Contains(kwDriver, call) {
		t.Fatal("kwDriver changed: grammarBuild cannot make its driver from it")
	}
	driver := strings.Replace(kwDriver, imp, imports.String(), 1)
	driver = strings.Replace(driver, call, "newValue(name)", 1)
	driver += `
type value interface {
	UnmarshalJSON([]byte) error
	Validate() error
	MarshalJSON() ([]byte, error)
}

func newValue(name string) (value, bool) {
	pkg, def, _ := strings.Cut(name, ".")
	switch pkg {
` + cases.String() + `	}
	return nil, false
}
`
	for name, text := range map[string]string{"go.mod": testenv.GoMod(t, "kwtest"), "main.go": driver} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "grammardriver")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = testenv.GoEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		keep, _ := os.MkdirTemp("", "grammarfail")
		exec.Command("cp", "-r", dir, keep).Run()
		t.Fatalf("the generated packages do not build (kept in %s): %v\n%s", keep, err, out)
	}
	return bin
}
