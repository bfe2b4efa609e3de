package doccheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

var (
	linkRE     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeSpanRE = regexp.MustCompile("`[^`]*`")
)

// TestDocsLinks checks the relative links of README.md, ARCHITECTURE.md
// and docs/*.md: the file (or directory) each names exists, and a
// #fragment is a heading of the Markdown file it points into (as GitHub
// spells headings' anchors).
func TestDocsLinks(t *testing.T) {
	anchors := map[string]map[string]bool{}
	for _, doc := range documents(t) {
		md, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		fenced := false
		for i, line := range strings.Split(string(md), "\n") {
			// Code is not Markdown: fenced blocks and code spans
			// (`Form[T](message)`) hold no links.
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				fenced = !fenced
				continue
			}
			if fenced {
				continue
			}
			line = codeSpanRE.ReplaceAllString(line, "")
			for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
				if err := checkLink(doc, m[1], anchors); err != nil {
					t.Errorf("%s:%d: %v", doc, i+1, err)
				}
			}
		}
	}
}

func checkLink(doc, link string, anchors map[string]map[string]bool) error {
	if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
		return nil
	}
	path, frag, _ := strings.Cut(link, "#")
	target := doc
	if path != "" {
		target = filepath.ToSlash(filepath.Join(filepath.Dir(doc), path))
		if _, err := os.Stat(filepath.Join(root, target)); err != nil {
			return fmt.Errorf("link %q: %v", link, err)
		}
	}
	if frag == "" || !strings.HasSuffix(target, ".md") {
		return nil
	}
	a, ok := anchors[target]
	if !ok {
		md, err := os.ReadFile(filepath.Join(root, target))
		if err != nil {
			return err
		}
		a = headingAnchors(string(md))
		anchors[target] = a
	}
	if !a[frag] {
		return fmt.Errorf("link %q: %s has no heading with the anchor #%s", link, target, frag)
	}
	return nil
}

// headingAnchors returns the anchors GitHub gives a Markdown text's
// headings: lower case, punctuation but - and _ dropped, spaces as -, and
// -1, -2, ... after repeats. Headings inside fenced blocks do not count.
func headingAnchors(md string) map[string]bool {
	out := map[string]bool{}
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		a := b.String()
		for n := 1; out[a]; n++ {
			a = fmt.Sprintf("%s-%d", b.String(), n)
		}
		out[a] = true
	}
	return out
}
