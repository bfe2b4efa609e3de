package schema

import (
	"regexp"
	"strconv"
	"strings"
)

// JSON Schema writes regular expressions in ECMA-262's dialect; mcpgen
// matches them with Go's regexp (RE2), as the reference validator does. The
// two agree on the common syntax. What ECMA-262 has and Go lacks is of two
// kinds: spellings Go writes differently (\uXXXX, \u{X}, \cX, [^], []), which
// GoPattern rewrites, and constructs RE2 cannot match at all (lookahead,
// lookbehind, backreferences), which make the keyword unenforceable.

// GoPattern returns the Go regexp source for the ECMA-262 pattern p. When
// p uses a construct Go's regexp cannot match, unsupported names it and
// goSrc is "". When p is not a regular expression in either dialect, err
// says why.
func GoPattern(p string) (goSrc, unsupported string, err error) {
	if _, err := regexp.Compile(p); err == nil {
		return p, "", nil
	}
	tr, construct := translateECMA(p, false)
	if construct != "" {
		// Check that the rest is well formed: replace what RE2 lacks by
		// something it has.
		loose, _ := translateECMA(p, true)
		if _, err := regexp.Compile(loose); err != nil {
			return "", "", err
		}
		return "", construct, nil
	}
	if _, err := regexp.Compile(tr); err != nil {
		return "", "", err
	}
	return tr, "", nil
}

// IsECMARegex reports whether p is a regular expression by ECMA-262, as far
// as mcpgen can tell: Go's regexp compiles it once the constructs Go lacks
// are rewritten or stood in for. It is the "regex" format the metaschema
// check uses, so that a schema with a lookahead loads (with a warning that
// the pattern is not enforced).
func IsECMARegex(p string) bool {
	if _, err := regexp.Compile(p); err == nil {
		return true
	}
	loose, _ := translateECMA(p, true)
	_, err := regexp.Compile(loose)
	return err == nil
}

// translateECMA rewrites the ECMA-262 spellings Go writes differently. It
// returns the first construct RE2 cannot match; with loose it replaces
// such a construct by a group that matches the empty string (enough to
// check the rest of the syntax) and goes on.
func translateECMA(p string, loose bool) (string, string) {
	var b strings.Builder
	inClass := false
	unsupported := ""
	note := func(what string) {
		if unsupported == "" {
			unsupported = what
		}
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			n := p[i+1]
			switch {
			case n == 'u' && i+2 < len(p) && p[i+2] == '{':
				end := strings.IndexByte(p[i+2:], '}')
				if end < 0 {
					b.WriteString(p[i : i+2])
					i++
					continue
				}
				b.WriteString(`\x{` + p[i+3:i+2+end] + `}`)
				i += 2 + end
				continue
			case n == 'u' && i+6 <= len(p) && isHex4(p[i+2:i+6]):
				b.WriteString(`\x{` + p[i+2:i+6] + `}`)
				i += 5
				continue
			case n == 'c' && i+2 < len(p) && isASCIILetter(p[i+2]):
				b.WriteString(`\x{` + strconv.FormatInt(int64(p[i+2]%32), 16) + `}`)
				i += 2
				continue
			case n == 'k' && i+2 < len(p) && p[i+2] == '<' && !inClass:
				note(`a named backreference (\k<name>)`)
				end := strings.IndexByte(p[i:], '>')
				if end < 0 {
					end = len(p) - i - 1
				}
				if loose {
					b.WriteString("(?:)")
				}
				i += end
				continue
			case n >= '1' && n <= '9' && !inClass:
				note(`a backreference (\` + string(n) + ")")
				j := i + 2
				for j < len(p) && p[j] >= '0' && p[j] <= '9' {
					j++
				}
				if loose {
					b.WriteString("(?:)")
				}
				i = j - 1
				continue
			}
			b.WriteString(p[i : i+2])
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
			b.WriteByte(c)
		case c == '[':
			switch {
			case strings.HasPrefix(p[i:], "[^]"):
				b.WriteString(`(?s:.)`)
				i += 2
			case strings.HasPrefix(p[i:], "[]"):
				b.WriteString(`[^\x00-\x{10FFFF}]`)
				i++
			default:
				inClass = true
				b.WriteByte(c)
				// A ']' right after '[' or '[^' is a literal in Go but
				// closes the class in ECMA-262; the cases above took it.
			}
		case c == '(' && strings.HasPrefix(p[i:], "(?="), c == '(' && strings.HasPrefix(p[i:], "(?!"):
			note("a lookahead (" + strconv.Quote(p[i:i+3]) + ")")
			b.WriteString("(?:")
			i += 2
		case c == '(' && strings.HasPrefix(p[i:], "(?<="), c == '(' && strings.HasPrefix(p[i:], "(?<!"):
			note("a lookbehind (" + strconv.Quote(p[i:i+4]) + ")")
			b.WriteString("(?:")
			i += 3
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), unsupported
}

func isHex4(s string) bool {
	for i := 0; i < 4; i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
