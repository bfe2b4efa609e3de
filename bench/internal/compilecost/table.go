package compilecost

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Write prints rep as Markdown: a header naming the machine, the date and
// the load, a table with one row per target (best wall time, CPU time and
// peak RSS, lines of non-std Go, the mcpgen/go-sdk ratios and the targets
// as PASS/FAIL; the time target is judged on wall time, and where CPU time
// would give the other verdict the result says so, as bench/cmd/table
// does), then every build and the lines by module.
func Write(w io.Writer, rep *Report) {
	fmt.Fprintf(w, "Machine: %s, %d CPUs, %s %s/%s. Date: %s. Best of %d builds per target (the least wall time, CPU time and peak RSS, each on its own), the targets alternating.\n",
		rep.CPU, rep.NumCPU, rep.GoVersion, rep.GOOS, rep.GOARCH, rep.Date.UTC().Format("2006-01-02 15:04 MST"), rep.Runs)
	if rep.LoadStart != "" || rep.LoadEnd != "" {
		fmt.Fprintf(w, "Load average (1, 5, 15 min): start %s; end %s.\n", rep.LoadStart, rep.LoadEnd)
	}
	fmt.Fprintf(w, "Every build is `go build` (GOFLAGS=`%s`, GOPROXY=off, the module cache warm) from a fresh copy of a build cache holding only `go build %s` (built once for the run, in %.0f s). CPU: user and system time of the go command and the processes it ran. Peak RSS: the largest process of the build (the go command, a compile or the link; wait4's rusage, as GNU time's %%M), MB of 2^20 bytes. Lines: newlines (wc -l) of the Go files compiled (build constraints applied, no _test.go) of every non-standard package in `go list -deps`.\n",
		rep.GOFLAGS, strings.Join(rep.Seed, " "), rep.SeedTime.Seconds())
	fmt.Fprintln(w)

	fmt.Fprintln(w, "| Server | Built with | wall (s) | CPU (s) | peak RSS (MB) | lines of non-std Go | files | packages | × go-sdk wall | × go-sdk CPU | × go-sdk peak RSS | × go-sdk lines | target | result |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
	for _, p := range rep.Pairs {
		m, g := p.MCPGen, p.GoSDK
		wallX := ratio(m.BestWall().Seconds(), g.BestWall().Seconds())
		cpuX := ratio(m.BestCPU().Seconds(), g.BestCPU().Seconds())
		rssX := ratio(float64(m.BestRSS()), float64(g.BestRSS()))
		linesX := ratio(float64(m.Lines), float64(g.Lines))
		target, result := "", ""
		if l := p.Limits; l != nil {
			target = fmt.Sprintf("≤ %s× go-sdk's wall and peak RSS; ≤ %s lines", fmtLimit(l.Wall), fmtLines(l.Lines))
			if l.Wall != l.RSS {
				target = fmt.Sprintf("≤ %s× go-sdk's wall; ≤ %s× its peak RSS; ≤ %s lines", fmtLimit(l.Wall), fmtLimit(l.RSS), fmtLines(l.Lines))
			}
			result = strings.Join([]string{
				wallVerdict("≤ "+fmtLimit(l.Wall)+"× wall", wallX, cpuX, l.Wall),
				ratioVerdict("≤ "+fmtLimit(l.RSS)+"× RSS", rssX, l.RSS),
				fmt.Sprintf("≤ %s lines: %s %s", fmtLines(l.Lines), verdict(m.Lines <= l.Lines), thousands(m.Lines)),
			}, "; ")
		}
		fmt.Fprintf(w, "| %s | %s | %.2f | %.2f | %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |\n",
			p.Name, m.Label, m.BestWall().Seconds(), m.BestCPU().Seconds(), fmtMB(m.BestRSS()), thousands(m.Lines), m.Files, m.Packages,
			fmtX(wallX), fmtX(cpuX), fmtX(rssX), fmtX(linesX), target, result)
		fmt.Fprintf(w, "| %s | %s | %.2f | %.2f | %s | %s | %d | %d |  |  |  |  |  |  |\n",
			p.Name, g.Label, g.BestWall().Seconds(), g.BestCPU().Seconds(), fmtMB(g.BestRSS()), thousands(g.Lines), g.Files, g.Packages)
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Every build (wall s / CPU s / peak MB, in the order run), and the lines by module (by package for this repository's):")
	fmt.Fprintln(w)
	for _, p := range rep.Pairs {
		for _, r := range []*Result{p.MCPGen, p.GoSDK} {
			var builds []string
			for _, b := range r.Builds {
				builds = append(builds, fmt.Sprintf("%.2f / %.2f / %s", b.Wall.Seconds(), b.CPU.Seconds(), fmtMB(b.PeakRSS)))
			}
			var mods []string
			for _, mod := range slices.Sorted(maps.Keys(r.Modules)) {
				mods = append(mods, fmt.Sprintf("%s %s", mod, thousands(r.Modules[mod])))
			}
			fmt.Fprintf(w, "- %s, %s: %s; %s.\n", p.Name, r.Label, strings.Join(builds, ", "), strings.Join(mods, ", "))
		}
	}
}

func ratio(a, b float64) float64 {
	if a == 0 || b == 0 {
		return 0
	}
	return a / b
}

func ratioVerdict(short string, x, limit float64) string {
	if x == 0 {
		return short + ": unknown"
	}
	return fmt.Sprintf("%s: %s %.2f×", short, verdict(x <= limit), x)
}

// wallVerdict judges the wall-time ratio x, and adds the verdict on the
// CPU-time ratio xc where it differs.
func wallVerdict(short string, x, xc, limit float64) string {
	s := ratioVerdict(short, x, limit)
	if x != 0 && xc != 0 && (xc <= limit) != (x <= limit) {
		s += fmt.Sprintf(" (on CPU time: %s %.2f×)", verdict(xc <= limit), xc)
	}
	return s
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "**FAIL**"
}

func fmtX(x float64) string {
	if x == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f", x)
}

func fmtMB(b int64) string {
	if b == 0 {
		return ""
	}
	return fmt.Sprintf("%.0f", mb(b))
}

func fmtLimit(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// fmtLines writes a limit on lines: 100000 as "100k".
func fmtLines(n int) string {
	if n >= 10000 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return thousands(n)
}

// thousands writes n with a comma every three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
