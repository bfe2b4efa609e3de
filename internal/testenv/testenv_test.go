package testenv

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
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
