package mcpotel_test

import (
	"encoding/json"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDocsBuild: every Go block of docs/telemetry.md and
// docs/middleware.md is a gofmt'ed program that builds against this
// module and the repository's generated packages. The blocks are laid
// over this package's directory (go build -overlay): nothing is written
// into the tree.
func TestDocsBuild(t *testing.T) {
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	overlay := map[string]string{}
	var pkgs []string
	for _, doc := range []string{"../../docs/telemetry.md", "../../docs/middleware.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		blocks := goBlocks(string(b))
		if len(blocks) == 0 {
			t.Errorf("%s has no Go block", doc)
		}
		for _, blk := range blocks {
			if !strings.HasPrefix(blk.text, "package main\n") {
				// A fragment (internal/doccheck compiles it in its
				// context): only the programs are built with mcpotel here.
				continue
			}
			if f, err := format.Source([]byte(blk.text)); err != nil || string(f) != blk.text {
				t.Errorf("%s:%d: the Go block is not gofmt'ed (%v)", doc, blk.line, err)
			}
			name := strings.TrimSuffix(filepath.Base(doc), ".md") + strconv.Itoa(blk.line)
			src := filepath.Join(tmp, name+".go")
			if err := os.WriteFile(src, []byte(blk.text), 0o644); err != nil {
				t.Fatal(err)
			}
			overlay[filepath.Join(here, "docblock_"+name, "main.go")] = src
			pkgs = append(pkgs, "./docblock_"+name)
		}
	}
	ov, _ := json.Marshal(map[string]any{"Replace": overlay})
	ovPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		if out, err := exec.Command("go", "build", "-overlay", ovPath, "-o", os.DevNull, p).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", p, err, out)
		}
	}
}

type docBlock struct {
	line int
	text string
}

// goBlocks returns the fenced ```go blocks of a Markdown text.
func goBlocks(md string) []docBlock {
	var out []docBlock
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		start := i + 1
		var b strings.Builder
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			b.WriteString(lines[i] + "\n")
		}
		out = append(out, docBlock{line: start + 1, text: b.String()})
	}
	return out
}
