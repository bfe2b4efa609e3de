package main

import (
	"net/http/httptest"
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

func TestForwardedFor(t *testing.T) {
	for _, tc := range []struct {
		xff  []string
		want string
	}{
		{nil, "192.0.2.1"},
		{[]string{"203.0.113.5"}, "203.0.113.5"},
		{[]string{"10.0.0.1, 203.0.113.5"}, "203.0.113.5"},
		{[]string{"10.0.0.1", "198.51.100.2 , 203.0.113.6"}, "203.0.113.6"},
	} {
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.RemoteAddr = "192.0.2.1:4000"
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := forwardedFor(r); got != tc.want {
			t.Errorf("X-Forwarded-For %q: %q, want %q", tc.xff, got, tc.want)
		}
	}
}
