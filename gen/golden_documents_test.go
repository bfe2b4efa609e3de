package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/reference"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

// A golden case may have documents.json: for each definition, a table of
// documents with what the generated code must say of them, as
//
//	{"Definition": [[document, true], [document, ["#/pointer keyword", ...]], ...]}
//
// true means valid; a list means invalid, with exactly those violations
// (in any order; each as its JSON pointer in URI fragment form, "#" for
// the document itself, and its keyword) from UnmarshalAndValidate;
// ["syntax"] is malformed JSON.
// Unless the case's case.json says "noReference", the reference validator
// (internal/reference) must give each document the same verdict, so the
// table states what the schema means, not what mcpgen does.

type goldenDocs map[string][][2]json.RawMessage

// TestGoldenDocuments generates every golden case with documents.json into
// one module with a program that validates the documents, runs it, and
// compares each verdict with the table (and with the reference).
func TestGoldenDocuments(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the golden packages")
	}
	paths, err := filepath.Glob("../golden/*/documents.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden/*/documents.json: %v", err)
	}
	dir := t.TempDir()
	type row struct {
		pkg, def string
		doc      []byte
		want     json.RawMessage
		ref      *reference.Validator
		where    string
	}
	var rows []row
	var imports, cases strings.Builder
	for _, path := range paths {
		caseDir := filepath.Dir(path)
		name := filepath.Base(caseDir)
		data, err := os.ReadFile(filepath.Join(caseDir, "schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		var opts struct {
			Formats     gen.Formats `json:"formats"`
			NoReference bool        `json:"noReference"`
		}
		if b, err := os.ReadFile(filepath.Join(caseDir, "case.json")); err == nil {
			if err := json.Unmarshal(b, &opts); err != nil {
				t.Fatalf("%s/case.json: %v", name, err)
			}
		}
		pkg := "golden" + strings.ReplaceAll(name, "_", "")
		files, _, err := gen.Generate("schema.json", data, gen.Options{Package: pkg, Revision: "golden", Formats: opts.Formats, Refs: schema.RefOptions{Dir: caseDir}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := filepath.Join(dir, pkg)
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		for n, b := range files {
			if strings.HasSuffix(n, ".go") {
				if err := os.WriteFile(filepath.Join(out, n), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		var ref *reference.Validator
		if !opts.NoReference {
			if ref, err = reference.New(data); err != nil {
				t.Fatalf("%s: the reference: %v", name, err)
			}
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var docs goldenDocs
		if err := json.Unmarshal(raw, &docs); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defs := make([]string, 0, len(docs))
		for d := range docs {
			defs = append(defs, d)
		}
		sort.Strings(defs)
		for _, def := range defs {
			for i, r := range docs[def] {
				rows = append(rows, row{pkg: pkg, def: def, doc: compact(t, r[0]), want: r[1], ref: ref, where: fmt.Sprintf("%s %s #%d", name, def, i)})
			}
		}
		fmt.Fprintf(&imports, "\t%q\n", "golden.test/"+pkg)
		fmt.Fprintf(&cases, "\tcase %q:\n\t\tv, ok := %s.NewValue(def)\n\t\tif !ok {\n\t\t\treturn nil, false\n\t\t}\n\t\treturn func(b []byte) error { return %s.UnmarshalAndValidate(b, v) }, true\n", pkg, pkg, pkg)
	}
	main := "package main\n\nimport (\n\t\"bufio\"\n\t\"fmt\"\n\t\"os\"\n\t\"reflect\"\n\t\"sort\"\n\t\"strings\"\n\n" + imports.String() + ")\n\n" +
		"func check(pkg, def string) (func([]byte) error, bool) {\n\tswitch pkg {\n" + cases.String() + "\t}\n\treturn nil, false\n}\n\n" + goldenDriver
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(testenv.GoMod(t, "golden.test")), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "driver")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = testenv.GoEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the golden packages and their driver do not build: %v\n%s", err, out)
	}
	var input bytes.Buffer
	for _, r := range rows {
		fmt.Fprintf(&input, "%s %s %x\n", r.pkg, r.def, r.doc)
	}
	run := exec.Command(bin)
	run.Stdin = &input
	var stderr bytes.Buffer
	run.Stderr = &stderr
	stdout, err := run.Output()
	if err != nil {
		t.Fatalf("driver: %v\n%s", err, stderr.Bytes())
	}
	lines := strings.Split(strings.TrimRight(string(stdout), "\n"), "\n")
	if len(lines) != len(rows) {
		t.Fatalf("%d verdicts for %d documents", len(lines), len(rows))
	}
	for i, r := range rows {
		var got any
		if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
			t.Fatalf("%s: driver said %q", r.where, lines[i])
		}
		var want any
		if err := json.Unmarshal(r.want, &want); err != nil {
			t.Fatalf("%s: verdict %s: %v", r.where, r.want, err)
		}
		if w, ok := want.([]any); ok {
			sorted := make([]string, len(w))
			for j, x := range w {
				sorted[j] = fmt.Sprint(x)
			}
			slices.Sort(sorted)
			want = toAny(sorted)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %s: mcpgen says %v, the table %v", r.where, r.doc, got, want)
		}
		if r.ref != nil {
			ok, why, err := r.ref.Validate(r.def, r.doc)
			if err != nil {
				t.Errorf("%s: the reference: %v", r.where, err)
			} else if ok != (want == true) {
				t.Errorf("%s: %s: the table says %v, the reference %v (%s)", r.where, r.doc, want, ok, why)
			}
		}
	}
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func compact(t *testing.T, raw json.RawMessage) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// goldenDriver reads "package definition hexdocument" lines and prints
// true, or the sorted violations as a JSON list.
const goldenDriver = `func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		var doc []byte
		fmt.Sscanf(f[2], "%x", &doc)
		check, ok := check(f[0], f[1])
		if !ok {
			fmt.Println(` + "`" + `"no definition"` + "`" + `)
			continue
		}
		err := check(doc)
		if err == nil {
			fmt.Println("true")
			continue
		}
		var out []string
		v := reflect.ValueOf(err)
		if m := v.MethodByName("Unwrap"); m.IsValid() {
			for _, e := range m.Call(nil)[0].Interface().([]error) {
				ev := reflect.ValueOf(e)
				out = append(out, "#"+ev.FieldByName("Pointer").String()+" "+ev.FieldByName("Keyword").String())
			}
		} else {
			out = append(out, "syntax")
		}
		sort.Strings(out)
		b := "["
		for i, s := range out {
			if i > 0 {
				b += ","
			}
			b += fmt.Sprintf("%q", s)
		}
		fmt.Println(b + "]")
	}
}
`
