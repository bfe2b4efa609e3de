package check

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// specDir finds the MCP specification pages (the repository's ../shared
// next to it, or $MCPGEN_MCP_SPEC_DIR); "" when they are not there.
func specDir() string {
	if d := os.Getenv("MCPGEN_MCP_SPEC_DIR"); d != "" {
		return d
	}
	dir, _ := filepath.Abs(".")
	for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if d := filepath.Join(dir, "shared", "mcp-spec"); isDir(d) {
			return d
		}
	}
	return ""
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

var (
	mdLink   = regexp.MustCompile(`\[([^\]]*)\](\([^)]*\)|\[[^\]]*\])`)
	mdMarkup = strings.NewReplacer("**", "", "`", "", "_", "", "\\", "", "<sup>", "", "</sup>", "", "&mdash;", "—")
	listMark = regexp.MustCompile(`^\s*([-*>|]|\d+\.)\s+`)
	spaces   = regexp.MustCompile(`\s+`)
)

// plain removes the markup a rule's Text leaves out.
func plain(s string) string {
	s = mdLink.ReplaceAllString(s, "$1")
	return mdMarkup.Replace(s)
}

// findLine returns the line of page on which text starts, 0 when the
// page does not have it.
func findLine(lines []string, text string) int {
	want := spaces.ReplaceAllString(strings.ReplaceAll(plain(text), " ", " "), " ")
	for i := range lines {
		var b strings.Builder
		for j := i; j < len(lines) && j < i+12; j++ {
			b.WriteString(" ")
			b.WriteString(listMark.ReplaceAllString(lines[j], ""))
		}
		got := spaces.ReplaceAllString(plain(b.String()), " ")
		// The sentence must start on line i.
		first := spaces.ReplaceAllString(plain(listMark.ReplaceAllString(lines[i], "")), " ")
		if strings.Contains(got, want) && lastWords(first, want) != "" {
			return i + 1
		}
	}
	return 0
}

// lastWords returns the words of line that could begin text: the line's
// last few words when text starts there.
func lastWords(line, text string) string {
	words := strings.Fields(line)
	for k := range words {
		cand := strings.Join(words[k:], " ")
		if strings.HasPrefix(text, cand) || strings.HasPrefix(cand, text) {
			return cand
		}
	}
	return ""
}

// TestRuleSources checks every quoted sentence against the specification
// pages: the page has it, starting on the line the rule gives.
func TestRuleSources(t *testing.T) {
	dir := specDir()
	if dir == "" {
		t.Skip("the MCP specification pages are not here (set MCPGEN_MCP_SPEC_DIR)")
	}
	for _, r := range Rules {
		if len(r.Sources) == 0 {
			t.Errorf("%s: no source", r.ID)
		}
		var covered revSet
		for _, s := range r.Sources {
			covered |= s.Revs
			if !strings.HasSuffix(s.Page, ".mdx") {
				if !r.Derived && s.Revs&^(r0326|r1105|legacy) == s.Revs {
					t.Errorf("%s: %s is not a page of the specification, and the rule is not derived", r.ID, s.Page)
				}
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, s.Page))
			if err != nil {
				t.Errorf("%s: %v", r.ID, err)
				continue
			}
			line := findLine(strings.Split(string(b), "\n"), s.Text)
			switch {
			case line == 0:
				t.Errorf("%s: %s does not say %q", r.ID, s.Page, s.Text)
			case line != s.Line:
				t.Errorf("%s: %s says %q on line %d, not %d", r.ID, s.Page, s.Text, line, s.Line)
			}
		}
		if covered&r.Revs != r.Revs {
			t.Errorf("%s: no source for %s", r.ID, (r.Revs &^ covered).String())
		}
		if !r.Derived && !strings.Contains(strings.Join(texts(r), " "), r.Level.String()) && r.Level == Must && !strings.Contains(strings.Join(texts(r), " "), "MUST") {
			t.Errorf("%s: a MUST rule whose sentences have no MUST is derived", r.ID)
		}
	}
}

func texts(r *Rule) []string {
	var out []string
	for _, s := range r.Sources {
		out = append(out, s.Text)
	}
	return out
}
