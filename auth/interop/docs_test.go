package interop

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

// TestDocsBuild: every Go block of docs/authorization.md is a gofmt'ed
// program that builds against this repository's auth module and
// generated packages. The blocks are laid over this module's directory
// (go build -overlay), so nothing is written into the tree.
func TestDocsBuild(t *testing.T) {
	const doc = "../../docs/authorization.md"
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlocks(string(b))
	if len(blocks) < 2 {
		t.Fatalf("%s has %d Go blocks, want the server and the client at least", doc, len(blocks))
	}
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	overlay := map[string]string{}
	var pkgs []string
	for i, blk := range blocks {
		if !strings.HasPrefix(blk.text, "package main\n") {
			t.Errorf("%s:%d: a Go block that is not a program (package main)", doc, blk.line)
			continue
		}
		if f, err := format.Source([]byte(blk.text)); err != nil || string(f) != blk.text {
			t.Errorf("%s:%d: the Go block is not gofmt'ed (%v)", doc, blk.line, err)
		}
		src := filepath.Join(tmp, strconv.Itoa(i)+".go")
		if err := os.WriteFile(src, []byte(blk.text), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := "docblock" + strconv.Itoa(blk.line) // named by line, for the build's messages
		overlay[filepath.Join(here, dir, "main.go")] = src
		pkgs = append(pkgs, "./"+dir)
	}
	ov, _ := json.Marshal(map[string]any{"Replace": overlay})
	ovPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		cmd := exec.Command("go", "build", "-overlay", ovPath, "-o", os.DevNull, p)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s (the block at line %s): %v\n%s", doc, strings.TrimPrefix(p, "./docblock"), err, out)
		}
	}
}

type block struct {
	line int // of the block's first line of code
	text string
}

// goBlocks returns the fenced ```go blocks of a Markdown text.
func goBlocks(md string) []block {
	var out []block
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
		out = append(out, block{line: start + 1, text: b.String()})
	}
	return out
}
