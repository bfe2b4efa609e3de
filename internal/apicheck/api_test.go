package apicheck

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/textdiff"
)

var update = flag.Bool("update", false, "rewrite api/ from the packages as they are")

// root is the repository's root, where api/ lives.
const root = "../.."

// modules are the module directories whose packages are public, and the
// directories of each that hold them: the main module's runtime, generated
// packages, generator and schema loader, and the modules of their own
// beside it (auth, replicas, otel). Directories named internal, testdata
// or cmd, programs (package main), packages with tests only, and nested
// modules (auth/interop) are left out.
var modules = []struct {
	dir  string
	dirs []string
}{
	{".", []string{"runtime", "generated", "schema", "gen", "templates"}},
	{"auth", []string{"."}},
	{"replicas", []string{"."}},
	{"otel", []string{"."}},
}

// pkgInfo is one public package: its import path, its directory
// (relative to the root) and its non-test Go files.
type pkgInfo struct {
	path, dir string
	files     []string
}

// apiFile is where the listing of the package in dir is kept:
// api/runtime/spec.txt for runtime/spec, api/auth.txt for auth.
func apiFile(dir string) string {
	return filepath.Join(root, "api", filepath.FromSlash(dir)+".txt")
}

// TestAPI checks that every public package's exported names are those its
// file under api/ lists, and that api/ lists no package that is gone. With
// -update it rewrites api/ instead.
//
// The main module's packages need nothing outside the repository. The
// other modules' need their dependencies in the module cache, which their
// own tests download: without them, their subtest skips, unless
// MCPGEN_API_ALL is set (make test sets it, after testing those modules),
// when it fails.
func TestAPI(t *testing.T) {
	want := map[string]bool{} // the files api/ should hold
	complete := true
	for _, m := range modules {
		name := m.dir
		if name == "." {
			name = "mcpgen"
		}
		t.Run(name, func(t *testing.T) {
			pkgs, exports, err := modulePackages(m.dir, m.dirs)
			for _, p := range pkgs {
				want[filepath.Clean(apiFile(p.dir))] = true
			}
			if err != nil {
				complete = false
				if m.dir != "." && os.Getenv("MCPGEN_API_ALL") == "" {
					t.Skipf("%v\n(the module's dependencies are not in the module cache: cd %s && go mod download)", err, m.dir)
				}
				t.Fatal(err)
			}
			checkListings(t, pkgs, exports)
		})
	}
	if !complete {
		return // a listing of a module that was not read is no orphan
	}
	// A listing whose package is gone.
	err := filepath.WalkDir(filepath.Join(root, "api"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || want[filepath.Clean(path)] {
			return err
		}
		if *update {
			return os.Remove(path)
		}
		t.Errorf("%s lists a package that is not public or does not exist (make api removes it)", rel(path))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 10 {
		t.Errorf("only %d public packages found; the walk of %v is broken", len(want), modules)
	}
}

// checkListings compares (or with -update, writes) the listings of pkgs.
func checkListings(t *testing.T, pkgs []pkgInfo, exports map[string]string) {
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(f)
	})
	for _, p := range pkgs {
		file := apiFile(p.dir)
		pkg, err := imp.Import(p.path)
		if err != nil {
			t.Errorf("%s: %v", p.path, err)
			continue
		}
		got := ""
		if lines := Listing(pkg); len(lines) > 0 {
			got = strings.Join(lines, "\n") + "\n"
		}
		if *update {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("%s: no listing of its exported names: %v (make api writes it)", p.path, err)
			continue
		}
		if d := textdiff.Unified(rel(file), p.path, string(old), got, 0, 60); d != "" {
			t.Errorf("the exported names of %s are not those %s lists (make api rewrites it when the change is meant):\n%s", p.path, rel(file), d)
		}
	}
}

func rel(path string) string {
	r, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

// modulePackages lists the public packages of the module in dir, under
// the directories dirs of it, and the export data of them and every
// package they depend on (go list -export builds what is missing). It
// downloads nothing (GOPROXY=off).
func modulePackages(dir string, dirs []string) ([]pkgInfo, map[string]string, error) {
	var patterns []string
	for _, d := range dirs {
		patterns = append(patterns, "./"+filepath.ToSlash(filepath.Clean(d))+"/...")
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, err
	}
	pkgs, err := goList(dir, append([]string{"-e", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{.Name}}\t{{join .GoFiles \"\\t\"}}"}, patterns...))
	if err != nil {
		return nil, nil, err
	}
	var out []pkgInfo
	var paths []string
	for _, f := range pkgs {
		if len(f) < 4 || f[2] == "main" || f[3] == "" || (len(f) == 4 && f[3] == "doc.go") {
			continue // a program, or tests only (with a doc.go for its package doc)
		}
		rd, err := filepath.Rel(absRoot, f[1])
		if err != nil {
			return nil, nil, err
		}
		rd = filepath.ToSlash(rd)
		parts := strings.Split(rd, "/")
		if slices.Contains(parts, "internal") || slices.Contains(parts, "testdata") || slices.Contains(parts, "cmd") {
			continue
		}
		out = append(out, pkgInfo{path: f[0], dir: rd, files: f[3:]})
		paths = append(paths, f[0])
	}
	lines, err := goList(dir, append([]string{"-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, paths...))
	if err != nil {
		return out, nil, err
	}
	exports := map[string]string{}
	for _, f := range lines {
		if len(f) == 2 && f[1] != "" {
			exports[f[0]] = f[1]
		}
	}
	// go test's cache does not see what go list reads: stat the sources so
	// that a change to them runs the test again.
	for _, p := range out {
		for _, f := range p.files {
			os.Stat(filepath.Join(root, p.dir, f))
		}
	}
	return out, exports, nil
}

// goList runs go list in the module directory dir, with GOPROXY=off, and
// splits its lines at tabs.
func goList(dir string, args []string) ([][]string, error) {
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = filepath.Join(root, dir)
	cmd.Env = append(os.Environ(), "GOPROXY=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s (in %s): %v\n%s", strings.Join(args, " "), cmd.Dir, err, stderr.Bytes())
	}
	var lines [][]string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, strings.Split(sc.Text(), "\t"))
	}
	return lines, sc.Err()
}

// TestDocComments checks, in the generated packages, what staticcheck's
// ST1020-ST1022 check everywhere else (staticcheck reports nothing of those
// in generated files): the doc comment of an exported function, method of
// an exported type, type, or variable or constant declared alone starts
// with its name (a type's may start with "A", "An" or "The").
func TestDocComments(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(root, "generated", "*"))
	if err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, filepath.Join(root, "examples", "a2a-server", "a2a"))
	n := 0
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			for _, p := range docProblems(t, file) {
				t.Error(p)
			}
			n++
		}
	}
	if n < 10 {
		t.Errorf("checked only %d files; the generated packages are missing", n)
	}
}

// docProblems returns where the doc comments of file's exported
// declarations do not start with what they document.
func docProblems(t *testing.T, file string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	check := func(doc *ast.CommentGroup, name, kind string, article bool) {
		if doc == nil || !ast.IsExported(name) {
			return
		}
		text := doc.Text()
		if article {
			for _, a := range []string{"A ", "An ", "The "} {
				text = strings.TrimPrefix(text, a)
			}
		}
		if !strings.HasPrefix(text, name+" ") && !strings.HasPrefix(text, name+"\n") {
			first, _, _ := strings.Cut(doc.Text(), "\n")
			out = append(out, fmt.Sprintf("%s: the doc comment of %s %s does not start with its name: %q",
				rel(fset.Position(doc.Pos()).String()), kind, name, first))
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && !exportedReceiver(d.Recv.List[0].Type) {
				continue
			}
			check(d.Doc, d.Name.Name, "function", false)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					doc := s.Doc
					if doc == nil && !d.Lparen.IsValid() {
						doc = d.Doc
					}
					check(doc, s.Name.Name, "type", true)
				case *ast.ValueSpec:
					if !d.Lparen.IsValid() && len(s.Names) == 1 {
						check(d.Doc, s.Names[0].Name, d.Tok.String(), false)
					}
				}
			}
		}
	}
	return out
}

// exportedReceiver reports whether a method's receiver type is exported.
func exportedReceiver(t ast.Expr) bool {
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

// TestListing pins the form of the lines on a small package.
func TestListing(t *testing.T) {
	const src = `package p

import "io"

const Untyped = 3
const Typed Kind = 2

type Kind int

func (k Kind) String() string { return "" }

type S struct {
	io.Reader
	Name string
	hidden int
}

func (s *S) Set(v string) {}

type I interface {
	M(int) error
	unexported()
}

type Alias = S

type G[T any] struct{ V T }

func F[T comparable](x T, r io.Reader) (T, error) { var z T; return z, nil }

var V []*S

func unexported() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("example.com/p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(Listing(pkg), "\n")
	for _, line := range []string{
		"pkg example.com/p, const Typed = 2",
		"pkg example.com/p, const Typed Kind",
		"pkg example.com/p, const Untyped = 3",
		"pkg example.com/p, const Untyped ideal-int",
		"pkg example.com/p, func F[T comparable](T, io.Reader) (T, error)",
		"pkg example.com/p, method (Kind) String() string",
		"pkg example.com/p, method (S) Read([]byte) (int, error)",
		"pkg example.com/p, method (*S) Set(string)",
		"pkg example.com/p, type Alias = S",
		"pkg example.com/p, type G[T any] struct",
		"pkg example.com/p, type G[T any] struct, V T",
		"pkg example.com/p, type I interface { M, unexported methods }",
		"pkg example.com/p, type I interface, M(int) error",
		"pkg example.com/p, type Kind int",
		"pkg example.com/p, type S struct",
		"pkg example.com/p, type S struct, Name string",
		"pkg example.com/p, type S struct, embedded io.Reader",
		"pkg example.com/p, var V []*S",
	} {
		if !strings.Contains(got+"\n", line+"\n") {
			t.Errorf("the listing has no line %q; it is:\n%s", line, got)
		}
	}
	if n := len(Listing(pkg)); n != 18 {
		t.Errorf("the listing has %d lines, want 18:\n%s", n, got)
	}
	for _, name := range []string{"hidden", "func unexported"} {
		if strings.Contains(got, name) {
			t.Errorf("the listing names %s, which is not exported:\n%s", name, got)
		}
	}
}
