package bench

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/compilecost"
)

// The compile benchmark (make bench-compile, bench/cmd/compile) on a tiny
// module of its own, so that the line counter, the measurement and the
// table cannot break unnoticed: the real measurement takes minutes and runs
// only under make bench-compile.

// tinyModule writes a module with two main packages (".", importing ./lib,
// and ./other) and returns its directory and the lines of non-std Go the
// build of "." compiles.
func tinyModule(t *testing.T) (dir string, lines int) {
	dir = t.TempDir()
	files := map[string]string{
		"go.mod":  "module tiny\n\ngo 1.22\n",
		"main.go": "package main\n\nimport \"tiny/lib\"\n\nfunc main() { lib.Hello() }\n", // 5 lines
		// 4 lines; the file's last line has no newline, so wc -l counts 4.
		"lib/lib.go":  "package lib\n\n// Hello does nothing.\nfunc Hello() { last() }\nvar _ = 1",
		"lib/last.go": "package lib\n\nfunc last() {}\n", // 3 lines
		// Not compiled: a test, a file excluded by its build constraint, a
		// file for another system.
		"lib/lib_test.go":   "package lib\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
		"lib/ignored.go":    "//go:build ignore\n\npackage lib\n\nfunc ignored() {}\n",
		"lib/plan9_only.go": "//go:build plan9\n\npackage lib\n\nfunc plan9() {}\n",
		"other/main.go":     "package main\n\nfunc main() {}\n", // 3 lines
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, 5 + 4 + 3
}

func TestCompileCostLines(t *testing.T) {
	dir, want := tinyModule(t)
	var r compilecost.Result
	if err := compilecost.CountLines("go", dir, os.Environ(), ".", &r); err != nil {
		t.Fatal(err)
	}
	if r.Lines != want || r.Files != 3 || r.Packages != 2 {
		t.Errorf("CountLines: %d lines in %d files, %d packages; want %d lines in 3 files, 2 packages", r.Lines, r.Files, r.Packages, want)
	}
	if r.Modules["tiny"] != 5 || r.Modules["tiny/lib"] != 7 || len(r.Modules) != 2 {
		t.Errorf("lines by package: %v, want tiny 5, tiny/lib 7", r.Modules)
	}
}

// TestCompileCostRun measures the tiny module's two programs twice each,
// from a seed cache holding only the runtime's packages, and prints the
// table; a seed that lacks a standard package the program needs is an
// error, not a measurement.
func TestCompileCostRun(t *testing.T) {
	dir, lines := tinyModule(t)
	pair := compilecost.Pair{
		Name:   "tiny",
		MCPGen: compilecost.Target{Label: "main", Pkg: "."},
		GoSDK:  compilecost.Target{Label: "other", Pkg: "./other"},
		Limits: &compilecost.Limits{Wall: 1000, RSS: 1000, Lines: 5},
	}
	_, err := compilecost.Run(compilecost.Config{Dir: dir, Runs: 1, Seed: []string{"internal/goarch"}}, []compilecost.Pair{pair})
	if err == nil || !strings.Contains(err.Error(), "standard packages") || !strings.Contains(err.Error(), "runtime") {
		t.Errorf("Run with only internal/goarch prebuilt: %v; want an error naming runtime", err)
	}

	rep, err := compilecost.Run(compilecost.Config{Dir: dir, Runs: 2, Seed: []string{"runtime"}}, []compilecost.Pair{pair})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(rep.Order, " "), "main other other main"; got != want {
		t.Errorf("build order %q, want %q", got, want)
	}
	pr := rep.Pairs[0]
	for _, r := range []*compilecost.Result{pr.MCPGen, pr.GoSDK} {
		if len(r.Builds) != 2 {
			t.Fatalf("%s: %d builds, want 2", r.Label, len(r.Builds))
		}
		for _, b := range r.Builds {
			if b.Wall <= 0 || b.Wall > 5*time.Minute {
				t.Errorf("%s: wall time %v", r.Label, b.Wall)
			}
			if runtime.GOOS == "linux" && b.CPU <= 0 {
				t.Errorf("%s: CPU time %v", r.Label, b.CPU)
			}
			// The link alone takes more than 10 MB; a whole build of the
			// tiny module far less than 10 GB.
			if runtime.GOOS == "linux" && (b.PeakRSS < 10<<20 || b.PeakRSS > 10<<30) {
				t.Errorf("%s: peak RSS %d bytes", r.Label, b.PeakRSS)
			}
		}
	}
	if pr.MCPGen.Lines != lines || pr.GoSDK.Lines != 3 {
		t.Errorf("lines %d and %d, want %d and 3", pr.MCPGen.Lines, pr.GoSDK.Lines, lines)
	}
	var out strings.Builder
	compilecost.Write(&out, rep)
	t.Log("\n" + out.String())
	for _, want := range []string{
		"| tiny | main | ",
		" | 12 | 3 | 2 | ",
		"| tiny | other | ",
		"| 4.00 | ≤ 1000× go-sdk's wall and peak RSS; ≤ 5 lines | ≤ 1000× wall: PASS ",
		"; ≤ 5 lines: **FAIL** 12 |",
		"GOPROXY=off",
		"`go build runtime`",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q", want)
		}
	}
}

// TestCompileCostTable checks the ratios and verdicts on fixed figures.
func TestCompileCostTable(t *testing.T) {
	build := func(s, cpu float64, mb int64) compilecost.Build {
		return compilecost.Build{Wall: time.Duration(s * float64(time.Second)), CPU: time.Duration(cpu * float64(time.Second)), PeakRSS: mb << 20}
	}
	rep := &compilecost.Report{
		Runs: 3, Seed: []string{"std"}, GoVersion: "go1.x", GOFLAGS: "-mod=mod",
		Date: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC),
		Pairs: []compilecost.PairResult{{
			Pair: compilecost.Pair{Name: "adder", Limits: &compilecost.Limits{Wall: 2, RSS: 2, Lines: 100000}},
			MCPGen: &compilecost.Result{Target: compilecost.Target{Label: "mcpgen"}, Lines: 123456, Files: 10, Packages: 4,
				Modules: map[string]int{"m": 123456},
				Builds:  []compilecost.Build{build(9, 12, 300), build(7.5, 11, 310), build(8, 10, 290)}},
			GoSDK: &compilecost.Result{Target: compilecost.Target{Label: "go-sdk"}, Lines: 30864, Files: 5, Packages: 3,
				Modules: map[string]int{"g": 30000, "h": 864},
				Builds:  []compilecost.Build{build(3, 5, 100), build(3.5, 4, 116), build(3.1, 6, 120)}},
		}},
	}
	var out strings.Builder
	compilecost.Write(&out, rep)
	for _, want := range []string{
		"Date: 2026-12-01 10:00 UTC. Best of 3 builds",
		"| adder | mcpgen | 7.50 | 10.00 | 290 | 123,456 | 10 | 4 | 2.50 | 2.50 | 2.90 | 4.00 | ≤ 2× go-sdk's wall and peak RSS; ≤ 100k lines | ≤ 2× wall: **FAIL** 2.50×; ≤ 2× RSS: **FAIL** 2.90×; ≤ 100k lines: **FAIL** 123,456 |",
		"| adder | go-sdk | 3.00 | 4.00 | 100 | 30,864 | 5 | 3 |  |  |  |  |  |  |",
		"- adder, go-sdk: 3.00 / 5.00 / 100, 3.50 / 4.00 / 116, 3.10 / 6.00 / 120; g 30,000, h 864.",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q; it is\n%s", want, out.String())
		}
	}
	pr := &rep.Pairs[0]
	pr.MCPGen.Lines = 99999
	pr.MCPGen.Builds = []compilecost.Build{build(6, 9, 200)}
	out.Reset()
	compilecost.Write(&out, rep)
	if want := "≤ 2× wall: PASS 2.00× (on CPU time: **FAIL** 2.25×); ≤ 2× RSS: PASS 2.00×; ≤ 100k lines: PASS 99,999 |"; !strings.Contains(out.String(), want) {
		t.Errorf("the table lacks %q; it is\n%s", want, out.String())
	}
}
