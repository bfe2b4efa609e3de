package gen

import (
	"fmt"
	"go/token"
	"hash/fnv"
	"strings"
	"unicode"
)

// Naming rules (docs/generated-code.md, "Naming"):
//
//   - A definition keeps its name when it is already an exported Go
//     identifier (DiscoverResult stays DiscoverResult). Otherwise it is
//     converted like a property name: a Go keyword is no exception, since
//     its Go name is capitalised (map -> Map, type -> Type).
//   - A property name is split into words at every character that is not
//     an ASCII letter or digit and where a lower-case letter or digit is
//     followed by an upper-case letter; each word is capitalised, and the
//     words in initialisms are written in capitals (mimeType -> MIMEType,
//     websiteUrl -> WebsiteURL, _meta -> Meta). A name with a reverse-DNS
//     prefix keeps only what follows the last slash
//     (io.modelcontextprotocol/protocolVersion -> ProtocolVersion).
//   - An inline type is named by its parent type's name followed by the
//     Go name of each step down to it: a property adds the property's Go
//     name, an array's items add "Item", additionalProperties adds
//     "Value", and an anyOf/oneOf branch adds its JSON type ("Array",
//     "String", ...).
//   - An inline enum used with the same values under the same property name
//     in more than one place is one type named after the property alone
//     (cacheScope -> CacheScope).
//   - A derived name is at most maxNameLen characters: a longer one keeps
//     its first 40 and last 15 characters with "H" and 8 hex digits of a
//     hash of the whole name between them (capName). Each step derives
//     from its parent's capped name, so names do not grow with nesting
//     depth.
//   - A node of another document (a reference brought it in; its pointer
//     is file#/...) is named by foreignName: a definition of that
//     document by its key, the document's root by its URI's last segment
//     (tree.json -> Tree), else its title.
//   - Two sources with one Go name are an error naming both.

// initialisms are written in capitals when they are a whole word.
var initialisms = map[string]string{
	"id": "ID", "uri": "URI", "url": "URL", "json": "JSON", "http": "HTTP", "https": "HTTPS",
	"api": "API", "ttl": "TTL", "mime": "MIME", "html": "HTML", "ip": "IP", "uuid": "UUID",
	"rpc": "RPC", "sse": "SSE", "ui": "UI", "llm": "LLM", "utf8": "UTF8", "xml": "XML",
}

// words splits a schema name into words.
func words(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		if !isASCIIAlnum(r) {
			flush()
			continue
		}
		if i > 0 && unicode.IsUpper(r) && len(cur) > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			// fooBar -> foo Bar; HTTPServer -> HTTP Server; foo2Bar -> foo2 Bar
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

func isASCIIAlnum(r rune) bool {
	return r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
}

// camel joins words into an exported Go name.
func camel(ws []string) string {
	var b strings.Builder
	for _, w := range ws {
		if up, ok := initialisms[strings.ToLower(w)]; ok {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]))
		b.WriteString(w[1:])
	}
	return b.String()
}

// propertyGoName is the Go name of a property (or an enum value).
func propertyGoName(name string) (string, error) {
	if err := checkNameChars(name); err != nil {
		return "", err
	}
	base := name
	if i := strings.LastIndexByte(name, '/'); i >= 0 && i+1 < len(name) {
		base = name[i+1:]
	}
	n := camel(words(base))
	if n == "" {
		return "", fmt.Errorf("%q has no letters or digits to make a Go name from", name)
	}
	if n[0] >= '0' && n[0] <= '9' {
		return "", fmt.Errorf("%q starts with a digit, which a Go name cannot", name)
	}
	return n, nil
}

// spelledGoName is the Go name of a property whose plain Go name another
// member of its object has too: the whole name, its separators spelled as
// words ("max-size" -> MaxDashSize, "max_size" -> MaxUnderscoreSize, "a/b"
// -> ASlashB). A name without separators keeps its plain Go name.
func spelledGoName(name string) (string, error) {
	var ws []string
	start := -1
	for i, r := range name {
		if isASCIIAlnum(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			ws = append(ws, words(name[start:i])...)
			start = -1
		}
		w, ok := separatorWords[r]
		if !ok {
			w = fmt.Sprintf("U%04X", r)
		}
		ws = append(ws, w)
	}
	if start >= 0 {
		ws = append(ws, words(name[start:])...)
	}
	n := camel(ws)
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		return "", fmt.Errorf("%q starts with a digit, which a Go name cannot", name)
	}
	return n, nil
}

// separatorsOnly reports whether name is made only of characters
// separatorWords spells ("+", "$", "@").
func separatorsOnly(name string) bool {
	for _, r := range name {
		if _, ok := separatorWords[r]; !ok {
			return false
		}
	}
	return name != ""
}

// separatorWords spell the characters between a name's words.
var separatorWords = map[rune]string{
	'-': "Dash", '_': "Underscore", '.': "Dot", '/': "Slash", ' ': "Space", '@': "At",
	'$': "Dollar", ':': "Colon", '+': "Plus", '#': "Hash", '~': "Tilde", '*': "Star",
}

// definitionGoName is the Go name of a definition.
func definitionGoName(name string) (string, error) {
	if err := checkNameChars(name); err != nil {
		return "", fmt.Errorf("%w (rename it)", err)
	}
	if token.IsIdentifier(name) && token.IsExported(name) {
		return name, nil
	}
	if name != "" && name[0] >= '0' && name[0] <= '9' {
		return "", fmt.Errorf("definition %q starts with a digit, which a Go name cannot", name)
	}
	n := camel(words(name))
	if n == "" {
		return unwordedGoName(name), nil
	}
	return n, nil
}

// unwordedGoName is the Go name of a definition's key with no letters or
// digits (docs/generated-code.md, "Naming"): the empty key is Empty, any other has its
// characters spelled out as separators are ("-" -> Dash, "$" -> Dollar,
// "..." -> DotDotDot, "!" -> U0021).
func unwordedGoName(name string) string {
	if name == "" {
		return "Empty"
	}
	n, _ := spelledGoName(name) // no digits: it starts with a letter
	return n
}

// checkNameChars rejects names mcpgen will not convert: non-ASCII ones
// (their Go spelling would be a guess).
func checkNameChars(name string) error {
	for _, r := range name {
		if r >= 0x80 {
			return fmt.Errorf("%q has non-ASCII characters; mcpgen only converts ASCII names", name)
		}
	}
	return nil
}

// kindSuffix names an inline union branch by its JSON types.
func kindSuffix(types []string) string {
	var b strings.Builder
	for _, t := range types {
		b.WriteString(camel([]string{t}))
	}
	return b.String()
}

// maxNameLen is the longest Go name mcpgen derives for an inline type.
const maxNameLen = 64

// derive is the Go name of an inline schema one step below the one named
// parent: parent followed by word, capped.
func derive(parent, word string) string {
	return capName(parent + word)
}

// capName shortens a derived name longer than maxNameLen: its first 40
// characters, "H", the 32-bit FNV-1a hash of the whole name in 8 hex
// digits, and its last 15 characters (64 in all). The result depends only
// on the name, and a clash of two shortened names is reported like any
// other (the claim), so it never silently merges two types.
func capName(name string) string {
	if len(name) <= maxNameLen {
		return name
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%sH%08x%s", name[:40], h.Sum32(), name[len(name)-15:])
}
