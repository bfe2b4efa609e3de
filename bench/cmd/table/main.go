// Command table reads the output of `go test -bench` run on the bench
// module (from the files named as arguments, or standard input) and prints
// a Markdown table: one row per benchmark with the median of each metric
// over the runs, the ratio to json.Valid measured in the same output, and
// the targets mcpgen is measured against, as pass/fail.
package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// result is what the runs of one benchmark reported: every value of every
// unit, in the order read.
type result struct {
	name    string
	procs   int
	metrics map[string][]float64
}

func (r *result) median(unit string) (float64, bool) {
	v := r.metrics[unit]
	if len(v) == 0 {
		return 0, false
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2], true
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2, true
}

func (r *result) max(unit string) float64 {
	m := math.Inf(-1)
	for _, v := range r.metrics[unit] {
		m = math.Max(m, v)
	}
	return m
}

func (r *result) runs() int { return len(r.metrics["ns/op"]) }

var benchLine = regexp.MustCompile(`^Benchmark(\S+?)(?:-(\d+))?\s+(\d+)\s+(.*)$`)

type parsed struct {
	results map[string]*result
	order   []string
	goCPU   string   // the "cpu:" header line of go test
	loads   []string // loadavg-… lines printed by the bench module's TestMain
}

func parse(r io.Reader) (*parsed, error) {
	p := &parsed{results: map[string]*result{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "cpu:"):
			p.goCPU = strings.TrimSpace(strings.TrimPrefix(line, "cpu:"))
			continue
		case strings.HasPrefix(line, "loadavg-"):
			// "loadavg-start: 0.52 0.58 0.59 1/123 456": keep the averages.
			when, rest, _ := strings.Cut(strings.TrimPrefix(line, "loadavg-"), ":")
			if f := strings.Fields(rest); len(f) >= 3 {
				p.loads = append(p.loads, when+" "+strings.Join(f[:3], " "))
			}
			continue
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name := m[1]
		procs := 1
		if m[2] != "" {
			procs, _ = strconv.Atoi(m[2])
		}
		res := p.results[name]
		if res == nil {
			res = &result{name: name, procs: procs, metrics: map[string][]float64{}}
			p.results[name] = res
			p.order = append(p.order, name)
		}
		f := strings.Fields(m[4])
		if len(f)%2 != 0 {
			return nil, fmt.Errorf("cannot read the metrics of: %s", line)
		}
		for i := 0; i < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("cannot read %q in: %s", f[i], line)
			}
			res.metrics[f[i+1]] = append(res.metrics[f[i+1]], v)
		}
	}
	return p, sc.Err()
}

// The rows of the corpus table, in order, and their labels.
var corpusRows = []struct{ bench, label string }{
	{"JSONValid", "json.Valid (the floor)"},
	{"JSONUnmarshalAny", "json.Unmarshal into any"},
	{"JSONSchemaV5DecodeValidate", "jsonschema/v5 v5.3.1: decode (UseNumber) + validate"},
	{"JSONSchemaV6DecodeValidate", "jsonschema/v6 v6.0.3: decode (UseNumber) + validate"},
	{"GoSDKDecode", "go-sdk v1.8.0 types: decode"},
	{"GoSDKDecodeEncode", "go-sdk v1.8.0 types: decode + encode"},
	{"MCPGoDecode", "mcp-go v1.2.1 types: decode"},
	{"MCPGoDecodeEncode", "mcp-go v1.2.1 types: decode + encode"},
	{"McpgenDecodeValidate", "mcpgen: decode + validate"},
	{"McpgenDecodeValidateEncode", "mcpgen: decode + validate + encode"},
	{"McpgenValidate", "mcpgen: Validate on decoded values"},
}

var genRows = []struct{ bench, label string }{
	{"GenerateFiveRevisions", "generator: five revisions"},
	{"Generate20260728", "generator: 2026-07-28"},
	{"GenerateSynthetic10x", "generator: synthetic 10x 2026-07-28"},
}

// The dispatcher benchmarks (BenchmarkDispatch/<implementation>/<request>):
// the requests, and the implementations in the order of the table.
var dispRequests = []struct{ bench, label string }{
	{"ServerDiscover", "server/discover"},
	{"ToolsList", "tools/list"},
	{"ToolsCall", "tools/call (add)"},
}

var dispImpls = []struct{ bench, label string }{
	{"McpgenHandle", "mcpgen: ServerDispatcher.Handle"},
	{"GoSDKPipe", "go-sdk v1.8.0: server over net.Pipe, raw JSON-RPC client"},
	{"GoSDKInMemory", "go-sdk v1.8.0: NewInMemoryTransports, client Connection (adds client-side encode/decode)"},
	{"McpgenServePipe", "mcpgen: ServerDispatcher.Serve over net.Pipe, raw JSON-RPC client"},
	{"PipeEcho", "net.Pipe echo of the go-sdk's response (transport floor)"},
}

// dispLimit is the target: mcpgen's Handle takes at most this fraction of
// the go-sdk's round trip.
const dispLimit = 0.2

// check is one target: its text, and a verdict with the measured value.
type check struct {
	target string
	short  string // the target in the result column
	ok     bool
	got    string
	cpu    string // the verdict on CPU time, when it differs
}

func (c check) String() string {
	v := "**FAIL**"
	if c.ok {
		v = "PASS"
	}
	s := fmt.Sprintf("%s: %s %s", c.short, v, c.got)
	if c.cpu != "" {
		s += " (on CPU time: " + c.cpu + ")"
	}
	return s
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

func main() {
	var in io.Reader = os.Stdin
	date := time.Now()
	if len(os.Args) > 1 {
		date = time.Time{}
		var rs []io.Reader
		for _, name := range os.Args[1:] {
			f, err := os.Open(name)
			if err != nil {
				fmt.Fprintln(os.Stderr, "table:", err)
				os.Exit(1)
			}
			defer f.Close()
			if fi, err := f.Stat(); err == nil && fi.ModTime().After(date) {
				date = fi.ModTime() // when the benchmarks last wrote it
			}
			rs = append(rs, f)
		}
		in = io.MultiReader(rs...)
	}
	p, err := parse(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "table:", err)
		os.Exit(1)
	}
	if len(p.results) == 0 {
		fmt.Fprintln(os.Stderr, "table: no benchmark results in the input")
		os.Exit(1)
	}
	write(os.Stdout, p, date)
}

func write(w io.Writer, p *parsed, date time.Time) {
	procs := 0
	runs := 0
	for _, r := range p.results {
		procs = max(procs, r.procs)
		runs = max(runs, r.runs())
	}
	fmt.Fprintf(w, "Machine: %s, GOMAXPROCS=%d, %s %s/%s. Date: %s. Medians of %d runs.\n",
		cpuModel(p.goCPU), procs, runtime.Version(), runtime.GOOS, runtime.GOARCH, date.UTC().Format("2006-01-02 15:04 MST"), runs)
	if len(p.loads) > 0 {
		fmt.Fprintf(w, "Load average (1, 5, 15 min) around the runs: %s.\n", strings.Join(p.loads, "; "))
	}
	fmt.Fprintln(w)

	floor, haveFloor := 0.0, false
	floorCPU := 0.0
	if r := p.results["JSONValid"]; r != nil {
		floor, haveFloor = r.median("ns/byte")
		floorCPU, _ = r.median("cpu-ns/byte")
	}
	ratio := func(r *result, unit string, base float64) (float64, bool) {
		v, ok := r.median(unit)
		if !ok || !haveFloor || base == 0 {
			return 0, false
		}
		return v / base, true
	}

	if present(p, corpusRows) {
		fmt.Fprintln(w, "| # | Benchmark | examples | ns/byte | × json.Valid | cpu-ns/byte | × json.Valid (cpu) | MB/s | allocs/KB | allocs/op | target | result |")
		fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
	}
	seen := map[string]bool{}
	for i, row := range corpusRows {
		r := p.results[row.bench]
		if r == nil {
			continue
		}
		seen[row.bench] = true
		x, _ := ratio(r, "ns/byte", floor)
		xc, _ := ratio(r, "cpu-ns/byte", floorCPU)
		var checks []check
		switch row.bench {
		case "McpgenDecodeValidate":
			checks = append(checks, ratioCheck("≤ 3× json.Valid", "≤ 3×", x, xc, 3))
			a, _ := r.median("allocs/KB")
			checks = append(checks, check{target: "≤ 20 allocs/KB", short: "≤ 20/KB", ok: a <= 20, got: fmt.Sprintf("%.1f", a)})
		case "McpgenDecodeValidateEncode":
			checks = append(checks, ratioCheck("≤ 5× json.Valid", "≤ 5×", x, xc, 5))
		case "McpgenValidate":
			a := r.max("allocs/op")
			checks = append(checks, check{target: "0 allocs/op", short: "0 allocs", ok: a == 0, got: fmt.Sprintf("%g allocs/op in the worst run", a)})
		}
		target, res := "", ""
		if len(checks) > 0 {
			var ts, rs []string
			for _, c := range checks {
				ts = append(ts, c.target)
				rs = append(rs, c.String())
			}
			target, res = strings.Join(ts, "; "), strings.Join(rs, "; ")
		}
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", i+1, row.label,
			num(r, "examples", "%.0f"), num(r, "ns/byte", "%.2f"), fmtRatio(x, row.bench), num(r, "cpu-ns/byte", "%.2f"), fmtRatio(xc, row.bench),
			num(r, "MB/s", "%.1f"), num(r, "allocs/KB", "%.1f"), num(r, "allocs/op", "%.0f"), target, res)
	}

	if present(p, genRows) {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| Benchmark | time/op (ms) | cpu-ms/op | wall-ms of one run | peak heap (MB) | allocated MB/op | target | result |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---|---|")
	}
	for _, row := range genRows {
		r := p.results[row.bench]
		if r == nil {
			continue
		}
		seen[row.bench] = true
		t, _ := r.median("ns/op")
		var checks []check
		switch row.bench {
		case "GenerateFiveRevisions":
			cpu, _ := r.median("cpu-ms")
			c := check{target: "< 1 s", short: "< 1 s", ok: t < 1e9, got: fmt.Sprintf("%.0f ms", t/1e6)}
			if cok := cpu < 1000; cok != c.ok {
				c.cpu = fmt.Sprintf("%s %.0f ms", verdict(cok), cpu)
			}
			checks = append(checks, c)
			peak, _ := r.median("peak-heap-MB")
			checks = append(checks, check{target: "< 200 MB peak", short: "< 200 MB", ok: peak < 200, got: fmt.Sprintf("%.0f MB peak heap", peak)})
		case "GenerateSynthetic10x":
			if one := p.results["Generate20260728"]; one != nil {
				t1, _ := one.median("ns/op")
				c1, _ := one.median("cpu-ms")
				c10, _ := r.median("cpu-ms")
				x := t / t1
				c := check{target: "≤ 12× the time of 2026-07-28", short: "≤ 12×", ok: x <= 12, got: fmt.Sprintf("%.2f×", x)}
				if c1 > 0 {
					xc := c10 / c1
					if cok := xc <= 12; cok != c.ok {
						c.cpu = fmt.Sprintf("%s %.2f×", verdict(cok), xc)
					} else {
						c.got += fmt.Sprintf(" (%.2f× on CPU time)", xc)
					}
				}
				checks = append(checks, c)
			}
		}
		var ts, rs []string
		for _, c := range checks {
			ts = append(ts, c.target)
			rs = append(rs, c.String())
		}
		fmt.Fprintf(w, "| %s | %.0f | %s | %s | %s | %s | %s | %s |\n", row.label, t/1e6,
			num(r, "cpu-ms", "%.0f"), num(r, "wall-ms", "%.0f"), num(r, "peak-heap-MB", "%.0f"), num(r, "alloc-MB", "%.0f"),
			strings.Join(ts, "; "), strings.Join(rs, "; "))
	}

	writeScale(w, p, seen)
	writeDispatch(w, p, seen)
	writeHTTP(w, p, seen)
	writeHostile(w, p, seen)
	writeToolArgs(w, p, seen)
	writeClient(w, p, seen)

	var other []string
	for _, name := range p.order {
		if !seen[name] {
			other = append(other, name)
		}
	}
	if len(other) > 0 {
		fmt.Fprintf(w, "\nNot tabulated: %s.\n", strings.Join(other, ", "))
	}
}

// The generator's scaling cases (BenchmarkScale<case><size>): each large
// case next to the same case a tenth the size.
var scaleRows = []struct{ small, large, label string }{
	{"ScaleEnum10k", "ScaleEnum100k", "enum of 100k values"},
	{"ScaleRefChain1k", "ScaleRefChain10k", "$ref chain 10k deep"},
	{"ScaleNesting100", "ScaleNesting1k", "objects nested 1k deep"},
	{"ScaleDefinitions2k", "ScaleDefinitions20k", "20k definitions"},
}

// scaleLimit is the most time ten times the input may take (linear: 10).
const scaleLimit = 12

// writeScale prints the scaling table: each large case's time and peak
// heap as ratios to generating 2026-07-28 in the same run, and the ratio
// of its time to the case a tenth the size, checked against scaleLimit.
func writeScale(w io.Writer, p *parsed, seen map[string]bool) {
	base := p.results["Generate20260728"]
	found := false
	for _, row := range scaleRows {
		found = found || p.results[row.large] != nil
	}
	if !found {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| Generator input | input (KB) | time (ms) | peak heap (MB) | × 2026-07-28 time | × 2026-07-28 peak heap | × the case a tenth the size | target | result |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---|---|")
	for _, row := range scaleRows {
		r := p.results[row.large]
		if r == nil {
			continue
		}
		seen[row.large] = true
		t, _ := r.median("ns/op")
		peak, _ := r.median("peak-heap-MB")
		xt, xp := "", ""
		if base != nil {
			bt, _ := base.median("ns/op")
			bp, _ := base.median("peak-heap-MB")
			if bt > 0 {
				xt = fmt.Sprintf("%.1f", t/bt)
			}
			if bp > 0 {
				xp = fmt.Sprintf("%.1f", peak/bp)
			}
		}
		x10, res := "", "no result for "+row.small
		target := fmt.Sprintf("≤ %d× the case a tenth the size", scaleLimit)
		if small := p.results[row.small]; small != nil {
			seen[row.small] = true
			st, _ := small.median("ns/op")
			if st > 0 {
				x := t / st
				x10 = fmt.Sprintf("%.1f", x)
				res = check{target: target, short: fmt.Sprintf("≤ %d×", scaleLimit), ok: x <= scaleLimit, got: fmt.Sprintf("%.1f×", x)}.String()
			}
		}
		fmt.Fprintf(w, "| %s | %s | %.0f | %.0f | %s | %s | %s | %s | %s |\n", row.label, num(r, "input-KB", "%.0f"), t/1e6, peak, xt, xp, x10, target, res)
	}
}

// present reports whether any of rows has a result (a table whose rows
// all lack one is left out).
func present(p *parsed, rows []struct{ bench, label string }) bool {
	for _, row := range rows {
		if p.results[row.bench] != nil {
			return true
		}
	}
	return false
}

// writeDispatch prints the dispatcher table: per request, every
// implementation's time per request, with the ratio to the go-sdk's
// (GoSDKPipe) and, on mcpgen's Handle rows, the target.
func writeDispatch(w io.Writer, p *parsed, seen map[string]bool) {
	var names []struct{ bench, label string }
	for _, req := range dispRequests {
		for _, impl := range dispImpls {
			names = append(names, struct{ bench, label string }{"Dispatch/" + impl.bench + "/" + req.bench, ""})
		}
	}
	if !present(p, names) {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| Request | Implementation | ns/op | cpu-ns/op | B/op | allocs/op | × go-sdk | × go-sdk (cpu) | target | result |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---|---|")
	for _, req := range dispRequests {
		base := p.results["Dispatch/GoSDKPipe/"+req.bench]
		var baseT, baseC float64
		if base != nil {
			baseT, _ = base.median("ns/op")
			baseC, _ = base.median("cpu-ns/op")
		}
		for _, impl := range dispImpls {
			name := "Dispatch/" + impl.bench + "/" + req.bench
			r := p.results[name]
			if r == nil {
				continue
			}
			seen[name] = true
			t, _ := r.median("ns/op")
			c, _ := r.median("cpu-ns/op")
			x, xc := "", ""
			var xt, xcv float64
			if baseT > 0 {
				xt = t / baseT
				x = fmt.Sprintf("%.3f", xt)
			}
			if baseC > 0 && c > 0 {
				xcv = c / baseC
				xc = fmt.Sprintf("%.3f", xcv)
			}
			target, res := "", ""
			if impl.bench == "McpgenHandle" {
				target = fmt.Sprintf("≤ %g× go-sdk", dispLimit)
				if baseT > 0 {
					ck := check{target: target, short: fmt.Sprintf("≤ %g×", dispLimit), ok: xt <= dispLimit, got: fmt.Sprintf("%.3f×", xt)}
					if xcv > 0 {
						if cok := xcv <= dispLimit; cok != ck.ok {
							ck.cpu = fmt.Sprintf("%s %.3f×", verdict(cok), xcv)
						} else {
							ck.got += fmt.Sprintf(" (%.3f× on CPU time)", xcv)
						}
					}
					res = ck.String()
				} else {
					res = "no go-sdk result (Dispatch/GoSDKPipe/" + req.bench + ")"
				}
			}
			fmt.Fprintf(w, "| %s | %s | %.0f | %s | %s | %s | %s | %s | %s | %s |\n", req.label, impl.label, t,
				num(r, "cpu-ns/op", "%.0f"), num(r, "B/op", "%.0f"), num(r, "allocs/op", "%.0f"), x, xc, target, res)
		}
	}
}

// The HTTP benchmarks (BenchmarkHTTP/<server>/Clients<n>).
var httpClients = []string{"1", "16", "256"}

var httpServers = []struct{ bench, label string }{
	{"Mcpgen", "mcpgen: NewHTTPHandler"},
	{"GoSDK", "go-sdk v1.8.0: StreamableHTTPHandler (stateless, JSONResponse)"},
}

// The HTTP targets: mcpgen's throughput at least httpThroughput times the
// go-sdk's at every concurrency, and its p99 at most httpP99 times the
// go-sdk's at 256 clients.
const (
	httpThroughput = 3.0
	httpP99        = 0.5
)

// writeHTTP prints the HTTP table: per number of clients, each server's
// throughput, latency, CPU time and allocations per request, with mcpgen's
// ratios to the go-sdk and the targets.
func writeHTTP(w io.Writer, p *parsed, seen map[string]bool) {
	var names []struct{ bench, label string }
	for _, n := range httpClients {
		for _, s := range httpServers {
			names = append(names, struct{ bench, label string }{"HTTP/" + s.bench + "/Clients" + n, ""})
		}
	}
	if !present(p, names) {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| Clients | Server | req/s | p50 (µs) | p99 (µs) | cpu-µs/req | allocs/req | B/req | × go-sdk req/s | × go-sdk p99 | target | result |")
	fmt.Fprintln(w, "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
	for _, n := range httpClients {
		base := p.results["HTTP/GoSDK/Clients"+n]
		var baseRPS, baseP99 float64
		if base != nil {
			baseRPS, _ = base.median("req/s")
			baseP99, _ = base.median("p99-µs")
		}
		for _, s := range httpServers {
			name := "HTTP/" + s.bench + "/Clients" + n
			r := p.results[name]
			if r == nil {
				continue
			}
			seen[name] = true
			rps, _ := r.median("req/s")
			p99, _ := r.median("p99-µs")
			cpu, _ := r.median("cpu-ns/op")
			xr, xp := "", ""
			var target, res []string
			if s.bench == "Mcpgen" && baseRPS > 0 {
				x := rps / baseRPS
				xr = fmt.Sprintf("%.2f", x)
				target = append(target, fmt.Sprintf("≥ %g× go-sdk req/s", httpThroughput))
				res = append(res, check{short: fmt.Sprintf("≥ %g×", httpThroughput), ok: x >= httpThroughput, got: fmt.Sprintf("%.2f×", x)}.String())
				if baseP99 > 0 {
					y := p99 / baseP99
					xp = fmt.Sprintf("%.2f", y)
					if n == "256" {
						target = append(target, fmt.Sprintf("p99 ≤ %g× go-sdk", httpP99))
						res = append(res, check{short: fmt.Sprintf("p99 ≤ %g×", httpP99), ok: y <= httpP99, got: fmt.Sprintf("%.2f×", y)}.String())
					}
				}
			} else if s.bench == "Mcpgen" {
				res = append(res, "no go-sdk result (HTTP/GoSDK/Clients"+n+")")
			}
			fmt.Fprintf(w, "| %s | %s | %.0f | %s | %.0f | %.1f | %s | %s | %s | %s | %s | %s |\n", n, s.label, rps,
				num(r, "p50-µs", "%.0f"), p99, cpu/1e3, num(r, "allocs/op", "%.0f"), num(r, "B/op", "%.0f"), xr, xp,
				strings.Join(target, "; "), strings.Join(res, "; "))
		}
	}
}

// The hostile-message benchmarks (BenchmarkHostile/<server>/<revision>/<message>):
// allocated bytes per request divided by the body size.
var hostileRevisions = []struct{ bench, label string }{
	{"20260728", "2026-07-28"},
	{"20251125", "2025-11-25"},
}

var hostileMessages = []struct{ bench, label string }{
	{"ManyMembers", "100,000 undeclared members"},
	{"Deep", "200 objects 900 deep"},
	{"LargeString", "a 1 MiB string"},
}

var hostileServers = []struct{ bench, label string }{
	{"Mcpgen", "mcpgen: NewHTTPHandler"},
	{"GoSDK", "go-sdk v1.8.0: StreamableHTTPHandler (stateless, JSONResponse)"},
}

// hostileMax is the target: mcpgen allocates at most this many times the
// body (and at most what the go-sdk allocates).
const hostileMax = 10.0

// writeHostile prints the hostile-message table: per revision and
// message, each server's allocated bytes per body byte and CPU time, with
// the targets.
func writeHostile(w io.Writer, p *parsed, seen map[string]bool) {
	var names []struct{ bench, label string }
	for _, v := range hostileRevisions {
		for _, m := range hostileMessages {
			for _, s := range hostileServers {
				names = append(names, struct{ bench, label string }{"Hostile/" + s.bench + "/" + v.bench + "/" + m.bench, ""})
			}
		}
	}
	if !present(p, names) {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| Revision | Message | Server | body (bytes) | allocated/body | B/op | allocs/op | cpu-ms/op | × go-sdk allocated | target | result |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---:|---:|---:|---|---|")
	for _, v := range hostileRevisions {
		for _, m := range hostileMessages {
			base := p.results["Hostile/GoSDK/"+v.bench+"/"+m.bench]
			var baseAlloc float64
			if base != nil {
				baseAlloc, _ = base.median("alloc/body")
			}
			for _, s := range hostileServers {
				name := "Hostile/" + s.bench + "/" + v.bench + "/" + m.bench
				r := p.results[name]
				if r == nil {
					continue
				}
				seen[name] = true
				a, _ := r.median("alloc/body")
				x, target, res := "", "", ""
				if s.bench == "Mcpgen" {
					target = fmt.Sprintf("≤ %g× body; ≤ go-sdk", hostileMax)
					res = check{short: fmt.Sprintf("≤ %g×", hostileMax), ok: a <= hostileMax, got: fmt.Sprintf("%.2f×", a)}.String()
					if baseAlloc > 0 {
						x = fmt.Sprintf("%.3f", a/baseAlloc)
						res += "; " + check{short: "≤ go-sdk", ok: a <= baseAlloc, got: fmt.Sprintf("%.3f×", a/baseAlloc)}.String()
					} else {
						res += "; no go-sdk result"
					}
				}
				fmt.Fprintf(w, "| %s | %s | %s | %s | %.2f | %s | %s | %s | %s | %s | %s |\n", v.label, m.label, s.label,
					num(r, "body-bytes", "%.0f"), a, num(r, "B/op", "%.0f"), num(r, "allocs/op", "%.0f"), num(r, "cpu-ms/op", "%.1f"), x, target, res)
			}
		}
	}
}

// The tool-set benchmarks (BenchmarkToolArgs/<phase>/<impl>/<tool>):
// deriving a tool's schema, and checking and decoding its arguments.
var toolPhases = []struct{ bench, label string }{
	{"Schema", "add a tool (derive the schema)"},
	{"Call", "tools/call (check + decode the arguments)"},
}

var toolTools = []string{"add", "search"}

var toolImpls = []struct{ bench, label string }{
	{"Mcpgen", "mcpgen: standard library (runtime/typeschema)"},
	{"JSONSchema", "github.com/google/jsonschema-go v0.4.3"},
	{"JSON", "json.Unmarshal into the struct, no schema (floor)"},
}

// writeToolArgs prints the tool-set table: per phase and tool, each
// implementation's time, with its ratios to jsonschema-go's and (for
// calls) to plain json.Unmarshal, both from the same run.
func writeToolArgs(w io.Writer, p *parsed, seen map[string]bool) {
	var names []struct{ bench, label string }
	for _, ph := range toolPhases {
		for _, tool := range toolTools {
			for _, impl := range toolImpls {
				names = append(names, struct{ bench, label string }{"ToolArgs/" + ph.bench + "/" + impl.bench + "/" + tool, ""})
			}
		}
	}
	if !present(p, names) {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| Phase | Tool | Implementation | ns/op | cpu-ns/op | B/op | allocs/op | × jsonschema-go | × jsonschema-go (cpu) | × json.Unmarshal | × json.Unmarshal (cpu) |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, ph := range toolPhases {
		for _, tool := range toolTools {
			ratio := func(r *result, base, unit string) string {
				b := p.results["ToolArgs/"+ph.bench+"/"+base+"/"+tool]
				if b == nil {
					return ""
				}
				x, _ := r.median(unit)
				y, _ := b.median(unit)
				if x == 0 || y == 0 {
					return ""
				}
				return fmt.Sprintf("%.3f", x/y)
			}
			for _, impl := range toolImpls {
				name := "ToolArgs/" + ph.bench + "/" + impl.bench + "/" + tool
				r := p.results[name]
				if r == nil {
					continue
				}
				seen[name] = true
				t, _ := r.median("ns/op")
				fmt.Fprintf(w, "| %s | %s | %s | %.0f | %s | %s | %s | %s | %s | %s | %s |\n", ph.label, tool, impl.label, t,
					num(r, "cpu-ns/op", "%.0f"), num(r, "B/op", "%.0f"), num(r, "allocs/op", "%.0f"),
					ratio(r, "JSONSchema", "ns/op"), ratio(r, "JSONSchema", "cpu-ns/op"), ratio(r, "JSON", "ns/op"), ratio(r, "JSON", "cpu-ns/op"))
			}
		}
	}
}

func ratioCheck(target, short string, x, xc, limit float64) check {
	c := check{target: target, short: short, ok: x <= limit, got: fmt.Sprintf("%.2f×", x)}
	if xc > 0 {
		if cok := xc <= limit; cok != c.ok {
			c.cpu = fmt.Sprintf("%s %.2f×", verdict(cok), xc)
		}
	}
	return c
}

func fmtRatio(x float64, bench string) string {
	if bench == "JSONValid" {
		return "1"
	}
	if x == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f", x)
}

func num(r *result, unit, format string) string {
	v, ok := r.median(unit)
	if !ok {
		return ""
	}
	return fmt.Sprintf(format, v)
}

// cpuModel is the first "model name" of /proc/cpuinfo, or what go test
// printed.
func cpuModel(fallback string) string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	if fallback != "" {
		return fallback
	}
	return "unknown CPU"
}

// The client benchmarks (BenchmarkClient/<implementation>): a tools/call
// round trip through a client library against the same server.
var clientTransports = []struct {
	suffix, label string
}{
	{"", "stdio framing over net.Pipe"},
	{"HTTP", "Streamable HTTP on loopback"},
}

// clientLimit is the target: the generated client takes under this
// fraction of the go-sdk client's time and allocations per call.
const clientLimit = 0.5

// writeClient prints the client table: per transport, the generated
// client's and the go-sdk client's round trip, their ratios, and (for
// stdio, where ServerOnly measures the server's share) the client-only
// allocations.
func writeClient(w io.Writer, p *parsed, seen map[string]bool) {
	if p.results["Client/Mcpgen"] == nil && p.results["Client/McpgenHTTP"] == nil {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| Transport | Client | ns/op | cpu-ns/op | allocs/op | B/op | × go-sdk time | × go-sdk allocs | client-only allocs | target | result |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
	server := p.results["Client/ServerOnly"]
	if server != nil {
		seen["Client/ServerOnly"] = true
	}
	for _, tr := range clientTransports {
		gen, sdk := p.results["Client/Mcpgen"+tr.suffix], p.results["Client/GoSDK"+tr.suffix]
		for _, row := range []struct {
			r     *result
			name  string
			label string
		}{{gen, "Mcpgen" + tr.suffix, "mcpgen generated Client"}, {sdk, "GoSDK" + tr.suffix, "go-sdk v1.8.0 ClientSession"}} {
			if row.r == nil {
				continue
			}
			seen["Client/"+row.name] = true
			t, _ := row.r.median("ns/op")
			a, _ := row.r.median("allocs/op")
			clientOnly := ""
			if server != nil && tr.suffix == "" {
				sa, _ := server.median("allocs/op")
				clientOnly = fmt.Sprintf("%.0f", a-sa)
			}
			xt, xa, target, res := "", "", "", ""
			if row.r == gen && sdk != nil {
				st, _ := sdk.median("ns/op")
				sa, _ := sdk.median("allocs/op")
				ct, _ := gen.median("cpu-ns/op")
				sct, _ := sdk.median("cpu-ns/op")
				xt, xa = fmt.Sprintf("%.2f", t/st), fmt.Sprintf("%.2f", a/sa)
				if tr.suffix == "" {
					target = fmt.Sprintf("< %g× go-sdk time and allocs", clientLimit)
					c1 := check{short: "time", ok: t/st < clientLimit, got: fmt.Sprintf("%.2f×", t/st)}
					if sct > 0 {
						if cok := ct/sct < clientLimit; cok != c1.ok {
							c1.cpu = fmt.Sprintf("%s %.2f×", verdict(cok), ct/sct)
						} else {
							c1.got += fmt.Sprintf(" (%.2f× on CPU time)", ct/sct)
						}
					}
					c2 := check{short: "allocs", ok: a/sa < clientLimit, got: fmt.Sprintf("%.2f×", a/sa)}
					res = c1.String() + "; " + c2.String()
				}
			}
			fmt.Fprintf(w, "| %s | %s | %.0f | %s | %.0f | %s | %s | %s | %s | %s | %s |\n", tr.label, row.label, t,
				num(row.r, "cpu-ns/op", "%.0f"), a, num(row.r, "B/op", "%.0f"), xt, xa, clientOnly, target, res)
		}
	}
	if server != nil {
		t, _ := server.median("ns/op")
		a, _ := server.median("allocs/op")
		fmt.Fprintf(w, "| stdio framing over net.Pipe | the server's share (raw client) | %.0f | %s | %.0f | %s |  |  |  |  |  |\n", t,
			num(server, "cpu-ns/op", "%.0f"), a, num(server, "B/op", "%.0f"))
	}
}
