package testenv

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/schema"
)

// TestExamplesArePinned checks the committed official examples against
// testdata/examples/SHA256SUMS: every listed file has exactly its bytes and
// every example file is listed, so a changed byte fails CI.
func TestExamplesArePinned(t *testing.T) {
	dir := ExamplesDir(t)
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: malformed line %q", sc.Text())
		}
		listed[name] = true
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Error(err)
			continue
		}
		if got := schema.SHA256(data); got != sum {
			t.Errorf("%s: sha256 %s, pinned %s", name, got, sum)
		}
	}
	n := 0
	for _, ex := range Examples(t, "2026-07-28") {
		n++
		if name := "2026-07-28/" + ex.Definition + "/" + ex.Name; !listed[name] {
			t.Errorf("%s is not in SHA256SUMS", name)
		}
	}
	if n != 129 || len(listed) != 129 {
		t.Errorf("%d example files, %d listed; want the 129 official examples", n, len(listed))
	}
}

// TestSampler checks that the slices of MCPGEN_SAMPLE partition the cases
// and that malformed values are refused.
func TestSampler(t *testing.T) {
	const n = 5
	seen := map[string]int{}
	for k := range n {
		s, err := ParseSample(strings.Join([]string{strconv.Itoa(k), strconv.Itoa(n)}, "/"))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 1000 {
			key := "case " + strconv.Itoa(i)
			if s.Keep(key) {
				seen[key]++
			}
		}
	}
	if len(seen) != 1000 {
		t.Errorf("the %d slices keep %d of 1000 cases", n, len(seen))
	}
	for key, c := range seen {
		if c != 1 {
			t.Errorf("%s is in %d slices", key, c)
		}
	}
	for _, v := range []string{"all", "0/1"} {
		if s, err := ParseSample(v); err != nil || !s.All() {
			t.Errorf("ParseSample(%q) = %+v, %v; want every case", v, s, err)
		}
	}
	if s, err := ParseSample(""); err != nil || s.All() || s.Fraction() != 8 || s.Index() != 0 {
		t.Errorf(`ParseSample("") = %+v, %v; want 0/8`, s, err)
	}
	for _, v := range []string{"8/8", "1/0", "x", "1/", "-1/4", "1/2/3"} {
		if _, err := ParseSample(v); err == nil {
			t.Errorf("ParseSample(%q) accepted", v)
		}
	}
}
