// Package compilecost measures what building a Go program costs someone
// who has no build cache yet (a new user's first `go run`, a CI build
// without a cache): the wall time and peak memory of `go build` starting
// from a build cache that holds only the prebuilt standard library, and the
// lines of non-standard-library Go that build compiles. bench/cmd/compile
// runs it on mcpgen's servers and go-sdk's; `make bench-compile` runs that.
//
// The standard library is built once per run into a seed cache; every
// measured build starts from a fresh copy of the seed, so each one compiles
// every non-standard package of its program and nothing else (Run checks
// that with `go build -n` before it measures). The module cache is used as
// it is, and the measured builds run with GOPROXY=off, so no network time
// is measured.
package compilecost

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Pair is one server built two ways: with mcpgen and with go-sdk.
type Pair struct {
	Name   string // the first column: what the server is
	MCPGen Target
	GoSDK  Target
	Limits *Limits // the targets mcpgen's build is measured against; nil: none
}

// Target is one program to build.
type Target struct {
	Label string // the second column, e.g. "mcpgen (bench/sidebyside/mcpgen)"
	Pkg   string // what `go build` is given, resolved in Config.Dir
}

// Limits are targets for the mcpgen build of a pair: at most Wall and RSS
// times go-sdk's wall time and peak RSS, at most Lines lines of non-std Go.
type Limits struct {
	Wall, RSS float64
	Lines     int
}

// Config says how to run the go command.
type Config struct {
	Go   string   // the go command; "go" if empty
	Dir  string   // where the go command runs (the module the targets resolve in)
	Env  []string // added to the environment of every go command
	Runs int      // builds per target; 3 if zero
	// Seed lists what `go build` prebuilds into the seed cache: ["std"]
	// if nil. Every standard package a target imports must be among them.
	Seed []string
	Log  io.Writer // progress; discarded if nil
}

// Build is one measured `go build`.
type Build struct {
	Wall    time.Duration
	CPU     time.Duration // user and system time of the go command and the processes it waited for
	PeakRSS int64         // bytes: the largest process of the build (the go command or a compile or link it ran); 0 where unknown
}

// Result is what was measured for one target.
type Result struct {
	Target
	Lines    int            // lines (newline characters, as wc -l counts) of the non-std Go files compiled
	Files    int            // those files
	Packages int            // the non-std packages in `go list -deps`, the target's own included
	Modules  map[string]int // Lines by module ("path version"), by package for a module on disk (see listFormat)
	Builds   []Build        // in the order run
}

// BestWall is the least wall time of r's builds.
func (r *Result) BestWall() time.Duration {
	var m time.Duration
	for i, b := range r.Builds {
		if i == 0 || b.Wall < m {
			m = b.Wall
		}
	}
	return m
}

// BestCPU is the least CPU time of r's builds.
func (r *Result) BestCPU() time.Duration {
	var m time.Duration
	for i, b := range r.Builds {
		if i == 0 || b.CPU < m {
			m = b.CPU
		}
	}
	return m
}

// BestRSS is the least peak RSS of r's builds.
func (r *Result) BestRSS() int64 {
	var m int64
	for i, b := range r.Builds {
		if i == 0 || b.PeakRSS < m {
			m = b.PeakRSS
		}
	}
	return m
}

// PairResult is a pair's two results.
type PairResult struct {
	Pair
	MCPGen, GoSDK *Result
}

// Report is one run of every pair.
type Report struct {
	Pairs     []PairResult
	Runs      int
	Seed      []string
	SeedTime  time.Duration // building the seed cache
	Order     []string      // labels of the builds in the order run
	Date      time.Time
	CPU       string
	NumCPU    int
	GoVersion string // of the go command that built the targets
	GOOS      string
	GOARCH    string
	LoadStart string // /proc/loadavg's averages before and after; "" where there is none
	LoadEnd   string
	GOFLAGS   string // of the builds
}

// Run measures every pair. The builds alternate: each round builds every
// target once, the odd rounds in reverse order, so that a change in the
// machine's load falls on both sides of a pair.
func Run(cfg Config, pairs []Pair) (*Report, error) {
	if cfg.Go == "" {
		cfg.Go = "go"
	}
	if cfg.Runs <= 0 {
		cfg.Runs = 3
	}
	if cfg.Seed == nil {
		cfg.Seed = []string{"std"}
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	rep := &Report{Runs: cfg.Runs, Seed: cfg.Seed, CPU: CPUModel(), NumCPU: runtime.NumCPU(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	rep.LoadStart = loadavg()

	base := append(os.Environ(), cfg.Env...)
	goflags, err := goEnv(cfg, base, "GOFLAGS")
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(strings.Fields(goflags), func(f string) bool { return strings.HasPrefix(f, "-mod=") }) {
		goflags = strings.TrimSpace(goflags + " -mod=mod")
	}
	rep.GOFLAGS = goflags
	base = append(base, "GOFLAGS="+goflags, "GOWORK=off")
	if rep.GoVersion, err = goEnv(cfg, base, "GOVERSION"); err != nil {
		return nil, err
	}

	// Lines first, with the network as configured: go list fetches any
	// module the module cache lacks, so the timed builds need none.
	var results []*Result
	for _, p := range pairs {
		for _, t := range []Target{p.MCPGen, p.GoSDK} {
			r := &Result{Target: t}
			if err := CountLines(cfg.Go, cfg.Dir, base, t.Pkg, r); err != nil {
				return nil, err
			}
			fmt.Fprintf(cfg.Log, "%s: %d lines of non-std Go in %d files, %d packages\n", t.Label, r.Lines, r.Files, r.Packages)
			results = append(results, r)
		}
	}
	offline := append(slices.Clip(base), "GOPROXY=off")

	tmp, err := os.MkdirTemp("", "compilecost-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	seed := filepath.Join(tmp, "seed")
	fmt.Fprintf(cfg.Log, "building %s into a fresh cache\n", strings.Join(cfg.Seed, " "))
	start := time.Now()
	if _, err := goCmd(cfg, append(slices.Clip(offline), "GOCACHE="+seed), append([]string{"build"}, cfg.Seed...)...); err != nil {
		return nil, fmt.Errorf("prebuilding %s: %w", strings.Join(cfg.Seed, " "), err)
	}
	rep.SeedTime = time.Since(start)
	fmt.Fprintf(cfg.Log, "  %.1f s\n", rep.SeedTime.Seconds())

	std, err := goCmd(cfg, offline, "list", "std")
	if err != nil {
		return nil, err
	}
	isStd := map[string]bool{}
	for _, p := range strings.Fields(std) {
		isStd[p] = true
	}
	for _, r := range results {
		if err := checkSeeded(cfg, offline, seed, tmp, r.Pkg, isStd); err != nil {
			return nil, err
		}
	}

	for round := 0; round < cfg.Runs; round++ {
		order := slices.Clone(results)
		if round%2 == 1 {
			slices.Reverse(order)
		}
		for _, r := range order {
			b, err := measure(cfg, offline, seed, tmp, r.Pkg)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.Label, err)
			}
			fmt.Fprintf(cfg.Log, "round %d: %s: %.2f s (%.2f s CPU), %.0f MB\n", round+1, r.Label, b.Wall.Seconds(), b.CPU.Seconds(), mb(b.PeakRSS))
			r.Builds = append(r.Builds, b)
			rep.Order = append(rep.Order, r.Label)
		}
	}
	for i, p := range pairs {
		rep.Pairs = append(rep.Pairs, PairResult{Pair: p, MCPGen: results[2*i], GoSDK: results[2*i+1]})
	}
	rep.LoadEnd = loadavg()
	rep.Date = time.Now()
	return rep, nil
}

// measure builds pkg once, from a fresh copy of the seed cache.
func measure(cfg Config, env []string, seed, tmp, pkg string) (Build, error) {
	cache := filepath.Join(tmp, "cache")
	if err := os.RemoveAll(cache); err != nil {
		return Build{}, err
	}
	if err := os.CopyFS(cache, os.DirFS(seed)); err != nil {
		return Build{}, fmt.Errorf("copying the seed cache: %w", err)
	}
	defer os.RemoveAll(cache)
	bin := filepath.Join(tmp, "bin")
	defer os.Remove(bin)
	cmd := exec.Command(cfg.Go, "build", "-o", bin, pkg)
	cmd.Dir = cfg.Dir
	cmd.Env = append(slices.Clip(env), "GOCACHE="+cache)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return Build{}, fmt.Errorf("go build %s: %v\n%s", pkg, err, stderr.Bytes())
	}
	ps := cmd.ProcessState
	return Build{Wall: wall, CPU: ps.UserTime() + ps.SystemTime(), PeakRSS: peakRSS(ps)}, nil
}

// A package the go command compiles, assembles or runs cgo on, in the
// commands `go build -n` prints.
var buildsPkg = regexp.MustCompile(`\s-(?:p|importpath)\s+(\S+)`)

// checkSeeded fails if building pkg from the seed cache would build a
// standard package: the seed lacks it, and the measurement would count it.
func checkSeeded(cfg Config, env []string, seed, tmp, pkg string, isStd map[string]bool) error {
	out, err := goCmd(cfg, append(slices.Clip(env), "GOCACHE="+seed), "build", "-n", "-o", filepath.Join(tmp, "bin"), pkg)
	if err != nil {
		return err
	}
	var missing []string
	for _, m := range buildsPkg.FindAllStringSubmatch(out, -1) {
		if isStd[m[1]] && !slices.Contains(missing, m[1]) {
			missing = append(missing, m[1])
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s: building it from a cache with %s prebuilt would still build the standard packages %s", pkg, strings.Join(cfg.Seed, " "), strings.Join(missing, ", "))
	}
	return nil
}

// listFormat prints, for each non-std package in -deps, where its lines
// are added up (a module from the module cache: "path version"; a package
// of a module on disk, the main module or one replaced by a directory: its
// import path), its directory and the Go files the build compiles (GoFiles
// and CgoFiles: those that match the build constraints, never _test.go
// files), tab-separated.
const listFormat = `{{if not .Standard}}{{with .Module}}{{if or .Main .Replace}}{{$.ImportPath}}{{else}}{{.Path}} {{.Version}}{{end}}{{else}}{{.ImportPath}}{{end}}{{"\t"}}{{.Dir}}{{range .GoFiles}}{{"\t"}}{{.}}{{end}}{{range .CgoFiles}}{{"\t"}}{{.}}{{end}}{{"\n"}}{{end}}`

// CountLines fills r.Lines, r.Files, r.Packages and r.Modules for pkg: the
// Go files the build compiles of every non-standard package in
// `go list -deps pkg`, run in dir with env, and their lines as wc -l counts
// them (newline characters).
func CountLines(goCmdName, dir string, env []string, pkg string, r *Result) error {
	cmd := exec.Command(goCmdName, "list", "-deps", "-f", listFormat, pkg)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list -deps %s: %v\n%s", pkg, err, stderr.Bytes())
	}
	r.Lines, r.Files, r.Packages = 0, 0, 0
	r.Modules = map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 2 {
			continue
		}
		mod, pdir := f[0], f[1]
		r.Packages++
		for _, name := range f[2:] {
			b, err := os.ReadFile(filepath.Join(pdir, name))
			if err != nil {
				return err
			}
			n := bytes.Count(b, []byte{'\n'})
			r.Lines += n
			r.Files++
			r.Modules[mod] += n
		}
	}
	if r.Packages == 0 {
		return fmt.Errorf("go list -deps %s: no non-standard package", pkg)
	}
	return sc.Err()
}

func goEnv(cfg Config, env []string, name string) (string, error) {
	out, err := goCmd(cfg, env, "env", name)
	return strings.TrimSpace(out), err
}

// goCmd runs the go command in cfg.Dir and returns its output, standard
// output and standard error together.
func goCmd(cfg Config, env []string, args ...string) (string, error) {
	cmd := exec.Command(cfg.Go, args...)
	cmd.Dir = cfg.Dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	if f := strings.Fields(string(b)); len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return ""
}

// CPUModel is the first "model name" of /proc/cpuinfo, or GOARCH.
func CPUModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return runtime.GOARCH
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }
