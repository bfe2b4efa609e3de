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
	case strings.HasPrefix(desc, name+" "):
		lead = desc
	default:
		if l, ok := leadIn(desc); ok {
			lead = name + " " + l
		} else {
			// A description that does not read as the rest of a sentence
			// about the declaration ("See [General fields]...", "After
			// receiving...") follows a lead-in that says what it is.
			switch {
			case b.memberOf(s.Pointer) != "":
				lead = name + " is the type of " + b.memberOf(s.Pointer) + ".\n\n" + desc
			case s.Name != "":
				lead = name + " is the " + s.Name + " definition of the schema.\n\n" + desc
			default:
				lead = name + " is the schema at #" + s.Pointer + ".\n\n" + desc
			}
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
// the identifier, so that every doc comment names what it documents:
//
//	A tool the server offers.        X is a tool the server offers.
//	Describes a message.             X describes a message.
//	Sent from the client to ...      X is sent from the client to ...
//	This request is sent ...         X is sent ...
//	Whether the client supports ...  X says whether the client supports ...
//	Parameters for a request.        X holds parameters for a request.
//	Schema for an enumeration.       X is a schema for an enumeration.
//	Text provided to an LLM.         X is text provided to an LLM.
//
// It reports false for a description that does not start as one of these.
func leadIn(desc string) (string, bool) {
	first, rest, _ := strings.Cut(desc, " ")
	switch first {
	case "A", "An", "The":
		return "is " + strings.ToLower(first) + " " + rest, true
	case "Sent", "Used", "Returned", "Present":
		return "is " + lowerFirst(desc), true
	case "Whether":
		return "says " + lowerFirst(desc), true
	case "This":
		// "This notification is sent by ...": the declaration is the
		// subject.
		if _, verb, ok := strings.Cut(rest, " "); ok && startsWithVerb(verb) {
			return verb, true
		}
		return "", false
	}
	if !isCapitalWord(first) || slices.Contains(sentenceStarts, first) {
		return "", false
	}
	if len(first) > 3 && strings.HasSuffix(first, "s") && !strings.HasSuffix(first, "ss") {
		verbs := []string{"Represents", "Describes", "Indicates", "Identifies", "Contains", "Specifies",
			"Defines", "Provides", "Allows", "Holds", "Sends", "Returns", "Lists", "Declares",
			"Extends", "Refers", "Controls"}
		if slices.Contains(verbs, first) {
			return lowerFirst(desc), true
		}
	}
	// A noun phrase: plural when one of its first words (before a
	// preposition, a relative pronoun or a participle) is.
	plural := false
	for i, w := range strings.Fields(desc) {
		bare := strings.TrimRight(w, ".,;:")
		if i > 0 && (slices.Contains(nounPhraseEnds, bare) || strings.HasSuffix(bare, "ed")) {
			break
		}
		if len(bare) > 3 && strings.HasSuffix(bare, "s") && !strings.HasSuffix(bare, "ss") && !strings.Contains(bare, "'") &&
			!strings.HasSuffix(bare, "us") && !strings.HasSuffix(bare, "is") {
			plural = true
		}
		if bare != w || i == 3 {
			break
		}
	}
	switch {
	case first == "Metadata" || first == "Data" || plural:
		return "holds " + lowerFirst(desc), true
	case first == "Text" || first == "Audio" || first == "Another":
		return "is " + lowerFirst(desc), true
	}
	article := "a "
	if strings.ContainsRune("AEIOU", rune(first[0])) {
		article = "an "
	}
	return "is " + article + lowerFirst(desc), true
}

// nounPhraseEnds are the words that end the noun phrase a description
// may start with.
var nounPhraseEnds = []string{"for", "of", "to", "that", "a", "an", "the", "with", "describing",
	"provided", "associated", "used", "which", "in", "on", "by", "when", "if", "from", "whose",
	"who", "under", "without", "told", "nothing", "is", "are", "can", "may", "must"}

// sentenceStarts are the words that start a sentence of its own, not a
// noun phrase.
var sentenceStarts = []string{"After", "Before", "If", "When", "While", "See", "Use", "In", "For",
	"On", "Once", "Note", "Only", "Each", "Every", "All", "Any", "Some", "No", "It", "If", "Unless",
	"Clients", "Servers", "Implementations", "Its", "Their", "Who", "What", "How",
	"Why", "Where", "Which", "There", "Here", "This", "These", "Those"}

// startsWithVerb reports whether s starts with a verb that can follow the
// subject of a sentence ("is sent", "can be", "allows").
func startsWithVerb(s string) bool {
	w, _, _ := strings.Cut(s, " ")
	switch w {
	case "is", "are", "can", "may", "must", "should", "will", "was":
		return true
	}
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss")
}

// isCapitalWord reports whether w is a capitalized word of letters (and
// hyphens), not an identifier or a link.
func isCapitalWord(w string) bool {
	if w == "" || w[0] < 'A' || w[0] > 'Z' {
		return false
	}
	for _, r := range w[1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == ',') {
			return false
		}
	}
	return true
}

// lowerFirst lowers the first letter of s unless it starts an acronym or
// an identifier ("JSONRPCNotification", "URI").
func lowerFirst(s string) string {
	if len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z' {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
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
