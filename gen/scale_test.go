package gen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/schema"
)

// nested is a definition holding n levels of inline objects.
func nested(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"$defs":{"N":`)
	for i := 0; i < n; i++ {
		b.WriteString(`{"type":"object","properties":{"name":{"type":"string"},"child":`)
	}
	b.WriteString(`{"type":"string"}`)
	b.WriteString(strings.Repeat(`}}`, n))
	b.WriteString(`}}`)
	return []byte(b.String())
}

// TestNestingOutputLinear checks that the generated code grows linearly
// with the nesting depth: the names of inline types are capped (capName),
// so each level adds the same amount of code. Before the cap, names grew
// with the depth and the output with its square (3,000 levels: 357 MB).
func TestNestingOutputLinear(t *testing.T) {
	size := func(n int) int {
		files, _, err := Generate("nested.json", nested(n), Options{Package: "nested"})
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, b := range files {
			total += len(b)
		}
		return total
	}
	s100, s200, s400 := size(100), size(200), size(400)
	perLevelLow, perLevelHigh := float64(s200-s100)/100, float64(s400-s200)/200
	t.Logf("output: %d, %d, %d bytes at depths 100, 200, 400 (%.0f and %.0f bytes per level)", s100, s200, s400, perLevelLow, perLevelHigh)
	if perLevelHigh > 1.1*perLevelLow {
		t.Errorf("each level costs %.0f bytes of output between depths 200 and 400, %.0f between 100 and 200: the output grows faster than the depth", perLevelHigh, perLevelLow)
	}
}

// TestCapName checks the rule for long derived names: at most maxNameLen
// characters, the start and the end of the name kept, the same name for
// the same input, different names for different inputs.
func TestCapName(t *testing.T) {
	short := "ServerCapabilitiesPrompts"
	if got := capName(short); got != short {
		t.Errorf("capName(%q) = %q; short names stay", short, got)
	}
	seen := map[string]string{}
	for i := 0; i < 2000; i++ {
		long := "Tool" + strings.Repeat("Child", 20) + fmt.Sprintf("Item%dValue", i)
		c := capName(long)
		if len(c) != maxNameLen {
			t.Fatalf("capName(%q) = %q, %d characters; want %d", long, c, len(c), maxNameLen)
		}
		if !strings.HasPrefix(c, long[:40]) || !strings.HasSuffix(c, long[len(long)-15:]) {
			t.Errorf("capName(%q) = %q does not keep the start and the end", long, c)
		}
		if c != capName(long) {
			t.Errorf("capName(%q) is not deterministic", long)
		}
		if prev, dup := seen[c]; dup {
			t.Errorf("capName gives %q for %q and %q", c, prev, long)
		}
		seen[c] = long
		if capName(c) != c {
			t.Errorf("capName(%q) changes a capped name", c)
		}
	}
}

// TestDeepNamesCapped generates 300 levels of nesting and checks that no
// declared name is longer than maxNameLen.
func TestDeepNamesCapped(t *testing.T) {
	doc, err := schema.Load("nested.json", nested(300))
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := Build(doc, Options{Package: "nested"})
	if err != nil {
		t.Fatal(err)
	}
	structs := 0
	for _, d := range pkg.Decls {
		if len(d.GoName()) > maxNameLen {
			t.Errorf("%s is %d characters long", d.GoName(), len(d.GoName()))
		}
		if _, ok := d.(*ir.Struct); ok {
			structs++
		}
	}
	if structs != 300 {
		t.Errorf("%d structs, want one per level (300)", structs)
	}
}
