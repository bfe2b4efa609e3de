package revdiff_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/internal/cli"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/internal/textdiff"
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
					path, textdiff.Unified(path, "now", string(golden), stdout.String(), 2, 80))
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
