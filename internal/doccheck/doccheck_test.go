package doccheck

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// root is the repository, from this package's directory.
const root = "../.."

// elsewhere lists the documents whose Go blocks another module's test
// builds, with that test's file (which must name the document).
var elsewhere = map[string]string{
	"docs/authorization.md": "auth/interop/docs_test.go",
	"docs/telemetry.md":     "otel/mcpotel/docs_test.go",
	"docs/first-server.md":  "internal/downstream/firstserver_test.go",
}

// imports is the table a fragment's undefined package names resolve from.
var imports = map[string]string{
	"mcp":      "github.com/mcpgen/mcpgen/generated/mcp20260728",
	"jsonrpc":  "github.com/mcpgen/mcpgen/runtime/jsonrpc",
	"codec":    "github.com/mcpgen/mcpgen/runtime/codec",
	"protocol": "github.com/mcpgen/mcpgen/runtime/protocol",
	"spec":     "github.com/mcpgen/mcpgen/runtime/spec",
	"bufio":    "bufio",
	"bytes":    "bytes",
	"context":  "context",
	"errors":   "errors",
	"fmt":      "fmt",
	"io":       "io",
	"json":     "encoding/json",
	"log":      "log",
	"slog":     "log/slog",
	"http":     "net/http",
	"os":       "os",
	"exec":     "os/exec",
	"signal":   "os/signal",
	"slices":   "slices",
	"strconv":  "strconv",
	"strings":  "strings",
	"sync":     "sync",
	"time":     "time",
}

// A block is one fenced ```go block of a Markdown file.
type block struct {
	doc       string // the Markdown file, relative to the repository
	line      int    // of the block's first line of code
	text      string
	directive string // "context" or "excerpt", from the comment before the fence
	arg       string
}

func (b block) String() string { return fmt.Sprintf("%s:%d", b.doc, b.line) }

var directiveRE = regexp.MustCompile(`^<!--\s*go:\s*(\S+)\s+(\S+)\s*-->$`)

// goBlocks returns the ```go blocks of a Markdown text, with their
// directives; a malformed directive, one that precedes no Go block, or an
// unclosed fence is an error.
func goBlocks(doc, md string) ([]block, []error) {
	var out []block
	var errs []error
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "<!--") && strings.Contains(l, "go:") {
			m := directiveRE.FindStringSubmatch(l)
			if m == nil || (m[1] != "context" && m[1] != "excerpt") {
				errs = append(errs, fmt.Errorf("%s:%d: malformed directive %q (want <!-- go: context NAME --> or <!-- go: excerpt PATH -->)", doc, i+1, l))
			} else if i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) != "```go" {
				errs = append(errs, fmt.Errorf("%s:%d: the directive %q is not on the line just before a ```go fence", doc, i+1, l))
			}
			continue
		}
		if !strings.HasPrefix(l, "```") {
			continue
		}
		info := strings.TrimSpace(strings.TrimPrefix(l, "```"))
		fence := i
		var body strings.Builder
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			body.WriteString(lines[i] + "\n")
		}
		if i >= len(lines) {
			errs = append(errs, fmt.Errorf("%s:%d: the fence is not closed", doc, fence+1))
			break
		}
		if strings.EqualFold(info, "golang") || (info != "go" && strings.EqualFold(info, "go")) {
			errs = append(errs, fmt.Errorf("%s:%d: write the fence as ```go", doc, fence+1))
		}
		if info != "go" {
			continue
		}
		b := block{doc: doc, line: fence + 2, text: body.String()}
		if fence > 0 {
			if m := directiveRE.FindStringSubmatch(strings.TrimSpace(lines[fence-1])); m != nil {
				b.directive, b.arg = m[1], m[2]
			}
		}
		out = append(out, b)
	}
	return out, errs
}

// documents returns README.md, ARCHITECTURE.md and docs/*.md, relative to
// the repository.
func documents(t *testing.T) []string {
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"README.md", "ARCHITECTURE.md"}
	for _, d := range docs {
		out = append(out, filepath.ToSlash(strings.TrimPrefix(d, root+"/")))
	}
	return out
}

// TestDocsCompile type-checks every Go block of README.md and docs/*.md
// (see the package documentation for how).
func TestDocsCompile(t *testing.T) {
	var blocks []block
	for _, doc := range documents(t) {
		md, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		bs, errs := goBlocks(doc, string(md))
		for _, err := range errs {
			t.Error(err)
		}
		if by, ok := elsewhere[doc]; ok {
			src, err := os.ReadFile(filepath.Join(root, by))
			if err != nil || !bytes.Contains(src, []byte(doc)) {
				t.Errorf("%s: its Go blocks are said to be built by %s, which does not name it (%v)", doc, by, err)
			}
			continue
		}
		blocks = append(blocks, bs...)
	}
	// Not vacuous: the README has its server and client at least.
	if n := countDoc(blocks, "README.md"); n < 2 {
		t.Errorf("README.md has %d Go blocks, want a server and a client at least", n)
	}

	n, errs := checkBlocks(blocks)
	for _, err := range errs {
		t.Error(err)
	}
	t.Logf("%d Go blocks compiled", n)
}

// checkBlocks checks and compiles blocks; it returns how many it compiled
// and what failed.
func checkBlocks(blocks []block) (int, []error) {
	var errs []error
	// Parse every block, then load the export data of every package they
	// import at once.
	fset := token.NewFileSet()
	var units []*unit
	need := map[string]bool{}
	for _, p := range imports {
		need[p] = true
	}
	for _, b := range blocks {
		if f, err := gofmt(b.text); err != nil {
			errs = append(errs, fmt.Errorf("%s: not Go: %v", b, err))
			continue
		} else if f != b.text {
			errs = append(errs, fmt.Errorf("%s: the block is not gofmt'ed; gofmt writes:\n%s", b, f))
		}
		switch b.directive {
		case "excerpt":
			src, err := os.ReadFile(filepath.Join(root, b.arg))
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: excerpt of %s: %v", b, b.arg, err))
			} else if !isExcerpt(string(src), b.text) {
				errs = append(errs, fmt.Errorf("%s: the block is not a verbatim part of %s", b, b.arg))
			}
			continue
		case "context":
			if _, err := os.Stat(filepath.Join("testdata", b.arg+".go")); err != nil {
				errs = append(errs, fmt.Errorf("%s: unknown context %q: %v", b, b.arg, err))
				continue
			}
		}
		u, err := parseBlock(fset, b)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, f := range u.files {
			for _, is := range f.Imports {
				need[strings.Trim(is.Path.Value, `"`)] = true
			}
		}
		units = append(units, u)
	}
	exports, err := exportData(slices.Sorted(mapKeys(need)))
	if err != nil {
		return 0, append(errs, err)
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %q (a package outside this module? show such code as an excerpt)", path)
		}
		return os.Open(f)
	})
	for _, u := range units {
		for _, err := range u.check(fset, imp) {
			errs = append(errs, fmt.Errorf("%s (block at %s)", err, u.block))
		}
	}
	return len(units), errs
}

func countDoc(bs []block, doc string) int {
	n := 0
	for _, b := range bs {
		if b.doc == doc {
			n++
		}
	}
	return n
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// A unit is what one block compiles as: its files, with the context file.
type unit struct {
	block    block
	pkg      string
	fragment *ast.File // the block's own file
	files    []*ast.File
	whole    bool   // the block is a file of its own
	stmts    bool   // the block is statements wrapped in a function
	header   string // the block's leading import lines (fragments)
	body     string // the rest (fragments)
	added    []string
}

// parseBlock parses a block as a file, as declarations, or as statements.
func parseBlock(fset *token.FileSet, b block) (*unit, error) {
	u := &unit{block: b}
	if strings.HasPrefix(b.text, "package ") {
		f, err := parser.ParseFile(fset, "block.go", lineDirective(b.doc, b.line)+b.text, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		u.pkg, u.fragment, u.files, u.whole = f.Name.Name, f, []*ast.File{f}, true
		return u, nil
	}
	u.pkg = "doc"
	u.header, u.body = splitImports(b.text)
	f, err := u.parse(fset)
	if err != nil {
		u.stmts = true
		var err2 error
		if f, err2 = u.parse(fset); err2 != nil {
			return nil, fmt.Errorf("%v (as declarations: %v)", err2, err)
		}
	}
	u.fragment = f
	u.files = []*ast.File{f}
	if b.directive == "context" {
		name := filepath.Join("testdata", b.arg+".go")
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		cf, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		if cf.Name.Name != u.pkg {
			return nil, fmt.Errorf("%s: the context's package is %s, want %s", name, cf.Name.Name, u.pkg)
		}
		u.files = append(u.files, cf)
	}
	return u, nil
}

// source is the fragment's file: the package clause, the leading imports,
// the imports added from the table, and the body (in a function for
// statements), with line directives that point back into the Markdown.
func (u *unit) source() string {
	var s strings.Builder
	s.WriteString("package " + u.pkg + "\n\n")
	if u.header != "" {
		s.WriteString(lineDirective(u.block.doc, u.block.line) + u.header)
	}
	for _, name := range u.added {
		fmt.Fprintf(&s, "import %s %q\n", name, imports[name])
	}
	bodyLine := u.block.line + strings.Count(u.header, "\n")
	if u.stmts {
		s.WriteString("\nfunc _() error {\n")
	}
	s.WriteString(lineDirective(u.block.doc, bodyLine) + u.body)
	if u.stmts {
		s.WriteString("\nreturn nil\n}\n")
	}
	return s.String()
}

func (u *unit) parse(fset *token.FileSet) (*ast.File, error) {
	return parser.ParseFile(fset, "fragment.go", u.source(), parser.ParseComments|parser.SkipObjectResolution)
}

func lineDirective(file string, line int) string {
	return fmt.Sprintf("\n//line %s:%d:1\n", file, line)
}

// splitImports splits the leading import declarations (and blank or
// comment lines among them) off a fragment.
func splitImports(text string) (header, body string) {
	lines := strings.SplitAfter(text, "\n")
	n, inGroup, seen := 0, false, false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case inGroup:
			if t == ")" {
				inGroup = false
			}
		case strings.HasPrefix(t, "import ("):
			inGroup, seen = true, true
		case strings.HasPrefix(t, "import "):
			seen = true
		case t == "" && seen:
		default:
			return strings.Join(lines[:n], ""), strings.Join(lines[n:], "")
		}
		n = i + 1
	}
	return strings.Join(lines[:n], ""), strings.Join(lines[n:], "")
}

// isExcerpt reports whether text is a verbatim part of src, possibly
// indented there by up to three tabs more (a block may show a function's
// body at the left margin).
func isExcerpt(src, text string) bool {
	for indent := ""; len(indent) <= 3; indent += "\t" {
		lines := strings.SplitAfter(text, "\n")
		for i, l := range lines {
			if strings.TrimSpace(l) != "" {
				lines[i] = indent + l
			}
		}
		if strings.Contains(src, strings.Join(lines, "")) {
			return true
		}
	}
	return false
}

// gofmt formats a block: a file, or a fragment's leading imports and its
// body apart (go/format reads a list of declarations or of statements, not
// imports followed by statements).
func gofmt(text string) (string, error) {
	if strings.HasPrefix(text, "package ") {
		f, err := format.Source([]byte(text))
		return string(f), err
	}
	header, body := splitImports(text)
	var out []byte
	for _, part := range []string{header, body} {
		if strings.TrimSpace(part) == "" {
			out = append(out, part...)
			continue
		}
		f, err := format.Source([]byte(part))
		if err != nil {
			return "", err
		}
		out = append(out, f...)
	}
	return string(out), nil
}

var undefinedRE = regexp.MustCompile(`^undefined: (\w+)$`)

// check type-checks a unit, adding imports from the table for the names a
// fragment leaves undefined, and returns the errors that remain.
func (u *unit) check(fset *token.FileSet, imp types.Importer) []error {
	for round := 0; ; round++ {
		var errs []types.Error
		conf := types.Config{Importer: imp, Error: func(err error) {
			var te types.Error
			if errors.As(err, &te) {
				errs = append(errs, te)
			}
		}}
		_, _ = conf.Check(u.pkg, fset, u.files, nil)
		if u.whole {
			return asErrors(fset, errs) // a whole file: its imports are its own
		}
		var missing []string
		var rest []types.Error
		for _, e := range errs {
			m := undefinedRE.FindStringSubmatch(e.Msg)
			if m != nil && imports[m[1]] != "" && !slices.Contains(u.added, m[1]) && fset.File(e.Pos) == fset.File(u.fragment.Pos()) {
				if !slices.Contains(missing, m[1]) {
					missing = append(missing, m[1])
				}
				continue
			}
			if u.stmts && strings.HasPrefix(e.Msg, "declared and not used") {
				continue
			}
			rest = append(rest, e)
		}
		if len(missing) == 0 || round > 3 {
			return asErrors(fset, rest)
		}
		u.added = append(u.added, missing...)
		sort.Strings(u.added)
		f, err := u.parse(fset)
		if err != nil {
			return []error{err}
		}
		u.fragment = f
		u.files[0] = f
	}
}

func asErrors(fset *token.FileSet, errs []types.Error) []error {
	var out []error
	for _, e := range errs {
		out = append(out, fmt.Errorf("%s: %s", fset.Position(e.Pos), e.Msg))
	}
	return out
}

// exportData builds the packages (with their dependencies) and returns the
// export data file of each, by import path.
func exportData(paths []string) (map[string]string, error) {
	key := strings.Join(paths, " ")
	if m, ok := exportCache[key]; ok {
		return m, nil
	}
	m, err := listExports(paths)
	if err == nil {
		exportCache[key] = m
	}
	return m, err
}

var exportCache = map[string]map[string]string{}

func listExports(paths []string) (map[string]string, error) {
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{if not .Standard}}{{.Dir}}\t{{join .GoFiles \"\\t\"}}{{end}}"}, paths...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export: %v\n%s", err, stderr.Bytes())
	}
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) >= 2 && fields[1] != "" {
			m[fields[0]] = fields[1]
		}
		// Stat the sources of the repository's packages, so that go test's
		// cache knows this test depends on them (it does not see what go
		// list reads).
		if len(fields) > 2 {
			for _, f := range fields[3:] {
				os.Stat(filepath.Join(fields[2], f))
			}
		}
	}
	return m, sc.Err()
}
