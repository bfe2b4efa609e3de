package gen

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/schema"
)

// This file turns schema descriptions into doc comment text: the lead-in
// that starts with the Go name, {@link X} as Go doc links, and paragraphs
// reflowed to the comment width.

// docText is the doc comment text of the declaration name for schema s
// (name "" for a field: its description as it is).
func (b *builder) docText(name string, s *schema.Schema) string {
	desc := b.docLinks(strings.TrimSpace(strings.ReplaceAll(s.Description, "\r", "")))
	var lead string
	switch {
	case name == "":
		lead = desc
	case desc == "":
		switch {
		case s.Name != "":
			lead = name + " is the " + s.Name + " definition of the schema."
		case b.memberOf(s.Pointer) != "":
			lead = name + " is the type of " + b.memberOf(s.Pointer) + "."
		default:
			lead = name + " is the schema at #" + s.Pointer + "."
		}
	default:
		if l, ok := leadIn(desc); ok {
			lead = name + " " + l
		} else {
			lead = desc
		}
	}
	if s.Deprecated {
		if lead != "" {
			lead += "\n\n"
		}
		lead += "Deprecated: the schema marks this as deprecated."
	}
	return lead
}

// memberOf describes the schema at ptr as a member of the struct that
// declares it ("the form member of [ClientCapabilitiesElicitation]"), or
// returns "" when ptr is not a property of a declared struct.
func (b *builder) memberOf(ptr string) string {
	i := strings.LastIndex(ptr, "/properties/")
	if i < 0 {
		return ""
	}
	parent, prop := ptr[:i], ptr[i+len("/properties/"):]
	if strings.Contains(prop, "/") {
		return ""
	}
	t, found := b.byPtr[parent]
	if !found || t.Kind != TDecl {
		return ""
	}
	return "the " + schema.UnescapePointer(prop) + " member of [" + t.Decl.GoName() + "]"
}

// leadIn turns a description into the rest of a sentence that starts with
// the identifier.
func leadIn(desc string) (string, bool) {
	first, rest, _ := strings.Cut(desc, " ")
	switch first {
	case "A", "An", "The":
		return "is " + strings.ToLower(first) + " " + rest, true
	}
	if len(first) > 3 && strings.HasSuffix(first, "s") && first[0] >= 'A' && first[0] <= 'Z' &&
		strings.ToLower(first[1:]) == first[1:] && !strings.HasSuffix(first, "ss") {
		verbs := []string{"Represents", "Describes", "Indicates", "Identifies", "Contains", "Specifies",
			"Defines", "Provides", "Allows", "Holds", "Sends", "Returns", "Lists"}
		if slices.Contains(verbs, first) {
			return strings.ToLower(first[:1]) + first[1:] + " " + rest, true
		}
	}
	return "", false
}

var linkRE = regexp.MustCompile(`\{@link\s+([^}]*)\}`)

// docLinks rewrites the TSDoc links of a description as Go doc links to
// the Go types of the definitions they name:
//
//	{@link Result}                  [Result]
//	{@link CallToolResult.content}  [CallToolResult].content
//	{@link X | tools/call}          tools/call ([X])
//	{@link ListToolsRequesttools/list} (upstream lost the " | ")  tools/list ([ListToolsRequest])
//
// A name that is no definition of this package stays plain text.
func (b *builder) docLinks(desc string) string {
	return linkRE.ReplaceAllStringFunc(desc, func(m string) string {
		target := strings.TrimSpace(linkRE.FindStringSubmatch(m)[1])
		name, text := target, ""
		if i := strings.IndexAny(target, " |"); i >= 0 {
			name, text = target[:i], strings.TrimSpace(strings.TrimLeft(target[i:], " |"))
		}
		head, path, hasPath := strings.Cut(name, ".")
		if goName, ok := b.linkName(head); ok {
			switch {
			case hasPath && text == "":
				return "[" + goName + "]." + path
			case text != "":
				return text + " ([" + goName + "])"
			}
			return "[" + goName + "]"
		}
		if !hasPath && text == "" {
			// The longest definition name the target starts with, the
			// rest being the link text.
			for i := len(name) - 1; i > 0; i-- {
				if goName, ok := b.linkName(name[:i]); ok {
					return name[i:] + " ([" + goName + "])"
				}
			}
		}
		if text != "" {
			return text
		}
		return name
	})
}

// linkName is the Go name of definition def when a doc link can point to
// it (a type of this package).
func (b *builder) linkName(def string) (string, bool) {
	d := b.doc.Def(def)
	if d == nil {
		return "", false
	}
	if _, ext := b.opts.External[def]; ext {
		return "", false
	}
	n, ok := b.defNames[d]
	return n, ok && n != ""
}

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
