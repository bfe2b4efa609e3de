package doccheck

import (
	"fmt"
	"strings"
	"testing"
)

// TestHarness checks that the compile test fails where it should: each
// case is a Markdown text with one Go block and the error it must report
// (by its file:line and a part of the message), or none.
func TestHarness(t *testing.T) {
	fence := "```"
	cases := []struct {
		name, md, want string
	}{
		{"file", fence + "go\npackage main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }\n" + fence + "\n", ""},
		{"file type error", "text\n\n" + fence + "go\npackage main\n\nfunc main() { var x int = \"a\"; _ = x }\n" + fence + "\n",
			"t.md:6:"},
		{"file without its import", fence + "go\npackage main\n\nfunc main() { fmt.Println(1) }\n" + fence + "\n", "t.md:4:15: undefined: fmt"},
		{"declarations", fence + "go\ntype T struct{ Tools *mcp.Server }\n\nfunc (T) F(ctx context.Context) error { return ctx.Err() }\n" + fence + "\n", ""},
		{"statements", fence + "go\nres := mcp.TextResult(\"hi\")\nb, err := json.Marshal(res)\n" + fence + "\n", ""},
		{"statements, an error on line 3", fence + "go\nres := mcp.TextResult(\"hi\")\n\nres.Nope()\n" + fence + "\n", "t.md:4:5: res.Nope undefined"},
		{"a placeholder", fence + "go\nx := f(...)\n" + fence + "\n", "t.md:2: not Go"},
		{"not gofmt'ed", fence + "go\nx  := 1\n" + fence + "\n", "not gofmt'ed"},
		{"undefined without a context", fence + "go\nd.Broadcast(mcp.MethodToolListChangedNotification, nil)\n" + fence + "\n", "t.md:2:1: undefined: d"},
		{"with its context", "<!-- go: context dispatcher -->\n" + fence + "go\nd.Broadcast(mcp.MethodToolListChangedNotification, nil)\n" + fence + "\n", ""},
		{"an unknown context", "<!-- go: context nope -->\n" + fence + "go\nx := 1\n" + fence + "\n", `unknown context "nope"`},
		{"an explicit import wins", fence + "go\nimport mcp \"github.com/mcpgen/mcpgen/generated/mcp20251125\"\n\nvar _ = mcp.MethodPing\n" + fence + "\n", ""},
		{"the table's mcp has no ping", fence + "go\nvar _ = mcp.MethodPing\n" + fence + "\n", "t.md:2:13: undefined: mcp.MethodPing"},
		{"an excerpt", "<!-- go: excerpt internal/doccheck/harness_test.go -->\n" + fence + "go\npackage doccheck\n" + fence + "\n", ""},
		{"an indented excerpt", "<!-- go: excerpt internal/doccheck/harness_test.go -->\n" + fence + "go\nfence := \"```\"\n" + fence + "\n", ""},
		{"not an excerpt", "<!-- go: excerpt internal/doccheck/doc.go -->\n" + fence + "go\nvar notThere = 1\n" + fence + "\n", "not a verbatim part of internal/doccheck/doc.go"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			blocks, errs := goBlocks("t.md", c.md)
			if len(blocks) != 1 || len(errs) != 0 {
				t.Fatalf("goBlocks: %d blocks, errors %v", len(blocks), errs)
			}
			_, errs = checkBlocks(blocks)
			got := fmt.Sprint(errs)
			switch {
			case c.want == "" && len(errs) != 0:
				t.Errorf("errors %v, want none", errs)
			case c.want != "" && !strings.Contains(got, c.want):
				t.Errorf("errors %v, want one with %q", errs, c.want)
			}
		})
	}
	// A directive that precedes no Go block is an error.
	if _, errs := goBlocks("t.md", "<!-- go: context dispatcher -->\n\n"+fence+"go\nx := 1\n"+fence+"\n"); len(errs) != 1 {
		t.Errorf("a directive away from its fence: errors %v, want one", errs)
	}
}
