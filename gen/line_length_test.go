package gen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// maxLine is the longest line of code the generator may write.
const maxLine = 200

// TestLineLength: no line of code in the generated packages (generated/,
// the a2a example's package) or in the golden files is longer than
// maxLine bytes; long composite literals are written one element a line
// and long string literals as sums. Comment lines are not counted: a
// comment may quote a command or an address that cannot be cut.
func TestLineLength(t *testing.T) {
	root := testenv.ModuleRoot(t)
	var files []string
	for _, pattern := range []string{"generated/*/*.go", "examples/a2a-server/a2a/*.go", "golden/*/*.go.golden"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 50 {
		t.Fatalf("found %d generated files", len(files))
	}
	long := 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if len(line) <= maxLine || strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			if long++; long <= 20 {
				rel, _ := filepath.Rel(root, name)
				t.Errorf("%s:%d: a line of %d bytes (at most %d): %.100s...", rel, i+1, len(line), maxLine, strings.TrimSpace(line))
			}
		}
	}
	if long > 20 {
		t.Errorf("and %d more lines over %d bytes", long-20, maxLine)
	}
}
