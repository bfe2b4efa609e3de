package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
)

// TestWriteDirSwaps: writeDir replaces a package directory as a whole,
// keeping what mcpgen did not write (files and directories) and dropping
// generated files no longer produced; a failure leaves the old package as
// it was.
func TestWriteDirSwaps(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pkg")
	header := "// " + gen.Header + "\n\npackage p\n"
	if err := writeDir(dir, gen.Files{"a.go": []byte(header + "// a1\n"), "b.go": []byte(header + "// b1\n")}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("new package directory: %v %v", fi, err)
	}
	os.WriteFile(filepath.Join(dir, "mine.go"), []byte("package p\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "testdata", "x"), 0o755)
	os.WriteFile(filepath.Join(dir, "testdata", "x", "f.json"), []byte("{}"), 0o644)

	// A failing write (a file name writeDir cannot create) changes nothing.
	err := writeDir(dir, gen.Files{"a.go": []byte(header + "// a2\n"), "no/such/dir.go": []byte(header)})
	if err == nil {
		t.Fatal("writing into a missing subdirectory succeeded")
	}
	want := map[string]string{"a.go": header + "// a1\n", "b.go": header + "// b1\n", "mine.go": "package p\n", "testdata/x/f.json": "{}"}
	checkTree(t, dir, want)

	// A successful write replaces the generated files and keeps the rest.
	if err := writeDir(dir, gen.Files{"a.go": []byte(header + "// a2\n"), "c.go": []byte(header + "// c\n")}); err != nil {
		t.Fatal(err)
	}
	checkTree(t, dir, map[string]string{"a.go": header + "// a2\n", "c.go": header + "// c\n", "mine.go": "package p\n", "testdata/x/f.json": "{}"})
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".mcpgen-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary directories left behind: %v", leftovers)
	}
}

// checkTree checks that the files under dir are exactly want.
func checkTree(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		got[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if len(got) != len(want) {
		t.Errorf("files %v, want %v", keys(got), keys(want))
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s = %q, want %q", name, got[name], w)
		}
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
