package revdiff_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/cli"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files under golden/diff")

// TestGolden runs `mcpgen diff` on each pair of adjacent pinned revisions
// (text) and on the newest pair (Markdown too), and compares the output
// with golden/diff/<from>_<to>.<txt|md>.
func TestGolden(t *testing.T) {
	dir := filepath.Join(testenv.ModuleRoot(t), "golden", "diff")
	revs := schema.Revisions()
	type goldenCase struct{ from, to, format, file string }
	var cases []goldenCase
	for i := 0; i+1 < len(revs); i++ {
		cases = append(cases, goldenCase{revs[i], revs[i+1], "text", revs[i] + "_" + revs[i+1] + ".txt"})
	}
	last := cases[len(cases)-1]
	cases = append(cases, goldenCase{last.from, last.to, "markdown", last.from + "_" + last.to + ".md"})

	want := map[string]bool{}
	for _, c := range cases {
		want[c.file] = true
		t.Run(c.file, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			env := cli.Env{Stdout: &stdout, Stderr: &stderr,
				Locator: &schema.Locator{SchemaDir: testenv.SchemaDir(t), Offline: true}}
			code := cli.Run(context.Background(), []string{"diff", "--from", c.from, "--to", c.to, "--format", c.format}, env)
			if code != cli.ExitOK || stderr.Len() > 0 {
				t.Fatalf("mcpgen diff exited %d; stderr:\n%s", code, stderr.String())
			}
			path := filepath.Join(dir, c.file)
			if *update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, stdout.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			golden, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run: go test ./internal/revdiff -update)", err)
			}
			if !bytes.Equal(golden, stdout.Bytes()) {
				t.Errorf("output differs from %s (- golden, + now); run go test ./internal/revdiff -update if the change is right:\n%s",
					path, lineDiff(string(golden), stdout.String()))
			}
		})
	}
	// A golden file no case writes is stale.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !want[e.Name()] {
			t.Errorf("%s: no test produces this file; delete it", filepath.Join(dir, e.Name()))
		}
	}
}

// lineDiff shows the lines that differ between a and b, with two lines of
// context, from a longest common subsequence of lines.
func lineDiff(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
		num  int // line number in a (for ' ' and '-') or b ('+')
	}
	var lines []line
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			lines = append(lines, line{' ', x[i], i + 1})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', x[i], i + 1})
			i++
		default:
			lines = append(lines, line{'+', y[j], j + 1})
			j++
		}
	}
	const context = 2
	var out strings.Builder
	last := -1
	for k, l := range lines {
		near := false
		for d := max(0, k-context); d <= min(len(lines)-1, k+context); d++ {
			near = near || lines[d].op != ' '
		}
		if !near {
			continue
		}
		if last >= 0 && k > last+1 {
			out.WriteString("...\n")
		}
		fmt.Fprintf(&out, "%c %4d | %s\n", l.op, l.num, l.text)
		last = k
	}
	return out.String()
}
