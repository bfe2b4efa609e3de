package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLinks: this directory links every file of examples/everything-server
// but its main.go and its tests, so that the replicas serve the same
// server. A file added there needs a link here:
//
//	ln -s ../../../examples/everything-server/F.go replicas/cmd/everything-replicas/F.go
func TestLinks(t *testing.T) {
	const src = "../../../examples/everything-server"
	want, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range want {
		b := filepath.Base(f)
		if b != "main.go" && !strings.HasSuffix(b, "_test.go") {
			files = append(files, b)
		}
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var links []string
	for _, e := range entries {
		if e.Type()&os.ModeSymlink == 0 {
			continue
		}
		target, err := os.Readlink(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if target != filepath.Join(src, e.Name()) {
			t.Errorf("%s links to %s, want %s", e.Name(), target, filepath.Join(src, e.Name()))
		}
		links = append(links, e.Name())
	}
	slices.Sort(files)
	slices.Sort(links)
	if !slices.Equal(files, links) {
		t.Errorf("links %v, want one for each of %v", links, files)
	}
}
