package gen

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/schema"

	"github.com/mcpgen/mcpgen/gen/ir"
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
	t, found := b.intern.typeAt(parent)
	if !found || t.Kind != ir.TDecl {
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
