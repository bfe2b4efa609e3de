package emit

import "strings"

// reflow wraps text into lines of at most width: each paragraph (lines
// between blank lines) is refilled, and so is each item of a Markdown list
// ("- ", "* ", "1. "), which is indented, its continuation lines under it.
// Lines a paragraph indents without a list are kept as they are (code).
func reflow(text string, width int) string {
	var out []string
	for i, para := range strings.Split(text, "\n\n") {
		if i > 0 {
			out = append(out, "")
		}
		lines := strings.Split(para, "\n")
		var item []string // words of the item being filled
		marker := ""      // its list marker, "" for plain text
		flush := func() {
			if len(item) > 0 {
				out = append(out, fill(item, marker, width)...)
			}
			item, marker = nil, ""
		}
		inList := false
		for _, l := range lines {
			trimmed := strings.TrimSpace(l)
			switch {
			case trimmed == "":
				continue
			case listMarker(trimmed) != "":
				flush()
				marker = listMarker(trimmed)
				inList = true
				item = strings.Fields(strings.TrimPrefix(trimmed, marker))
			case !inList && (strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "\t")):
				flush()
				out = append(out, strings.TrimRight(l, " \t"))
			default:
				item = append(item, strings.Fields(trimmed)...)
			}
		}
		flush()
	}
	return strings.Join(out, "\n")
}

// listMarker returns the Markdown list marker line starts with ("- ",
// "1. "), or "".
func listMarker(line string) string {
	for _, m := range []string{"- ", "* ", "+ "} {
		if strings.HasPrefix(line, m) {
			return m
		}
	}
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i > 0 && i < 4 && strings.HasPrefix(line[i:], ". ") {
		return line[:i+2]
	}
	return ""
}

// fill lays words out in lines of at most width (a longer word gets a
// line of its own), the first starting with marker and the rest indented
// under it. A list item is indented, as Go doc comments want lists.
func fill(words []string, marker string, width int) []string {
	if marker != "" {
		marker = "  " + marker
	}
	indent := strings.Repeat(" ", len(marker))
	var lines []string
	line := marker
	empty := true
	for _, w := range words {
		if !empty && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line, empty = indent, true
		}
		if empty {
			line += w
			empty = false
		} else {
			line += " " + w
		}
	}
	return append(lines, line)
}
