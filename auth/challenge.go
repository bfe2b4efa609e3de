package auth

import (
	"net/http"
	"strings"
)

// Challenge is one challenge of a WWW-Authenticate header (RFC 9110
// section 11.6.1), such as
//
//	Bearer error="insufficient_scope", scope="files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"
//
// Scheme is as sent; compare it case-insensitively. Params has the
// auth-params with lowercased names and unquoted values.
type Challenge struct {
	Scheme string
	Params map[string]string
}

// Scope returns the challenge's scope parameter split on spaces.
func (c Challenge) Scope() []string { return strings.Fields(c.Params["scope"]) }

// ParseChallenges parses every WWW-Authenticate field of h. Malformed
// parts are skipped: a challenge the client cannot read is treated as
// absent, never as an error.
func ParseChallenges(h http.Header) []Challenge {
	var out []Challenge
	for _, v := range h.Values("WWW-Authenticate") {
		out = append(out, parseChallenges(v)...)
	}
	return out
}

// bearerChallenge returns the first Bearer challenge, else the first
// DPoP one, else a zero Challenge.
func bearerChallenge(cs []Challenge) Challenge {
	for _, scheme := range []string{"bearer", "dpop"} {
		for _, c := range cs {
			if strings.EqualFold(c.Scheme, scheme) {
				return c
			}
		}
	}
	return Challenge{Params: map[string]string{}}
}

func parseChallenges(s string) []Challenge {
	var out []Challenge
	p := &headerParser{s: s}
	for {
		p.skip(" \t,")
		if p.done() {
			return out
		}
		scheme := p.token()
		if scheme == "" {
			return out // not a token: give up on the rest
		}
		c := Challenge{Scheme: scheme, Params: map[string]string{}}
		for {
			p.skip(" \t")
			// An auth-param is token BWS "=" ...; a token followed by
			// anything else starts the next challenge.
			save := p.i
			name := p.token()
			p.skip(" \t")
			if name == "" || p.done() || p.s[p.i] != '=' {
				p.i = save
				break
			}
			p.i++ // '='
			p.skip(" \t")
			if !p.done() && p.s[p.i] == '=' { // token68 padding, e.g. "abc=="
				for !p.done() && p.s[p.i] == '=' {
					p.i++
				}
				p.i = save
				p.token68()
				break
			}
			var val string
			if !p.done() && p.s[p.i] == '"' {
				val = p.quoted()
			} else {
				val = p.token()
			}
			c.Params[strings.ToLower(name)] = val
			p.skip(" \t")
			if p.done() {
				break
			}
			if p.s[p.i] != ',' {
				break
			}
			p.i++ // ','
		}
		out = append(out, c)
	}
}

type headerParser struct {
	s string
	i int
}

func (p *headerParser) done() bool { return p.i >= len(p.s) }

func (p *headerParser) skip(chars string) {
	for !p.done() && strings.IndexByte(chars, p.s[p.i]) >= 0 {
		p.i++
	}
}

func isTokenChar(c byte) bool {
	if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

func (p *headerParser) token() string {
	start := p.i
	for !p.done() && isTokenChar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

func (p *headerParser) token68() {
	for !p.done() && (isTokenChar(p.s[p.i]) || p.s[p.i] == '/' || p.s[p.i] == '=') {
		p.i++
	}
}

func (p *headerParser) quoted() string {
	p.i++ // opening quote
	var b strings.Builder
	for !p.done() {
		c := p.s[p.i]
		p.i++
		switch c {
		case '\\':
			if !p.done() {
				b.WriteByte(p.s[p.i])
				p.i++
			}
		case '"':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String() // unterminated: take what there is
}

// formatChallenge writes a challenge with the parameters in the given
// order, quoting every value; empty values are left out.
func formatChallenge(scheme string, kv ...string) string {
	var b strings.Builder
	b.WriteString(scheme)
	first := true
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			continue
		}
		if first {
			b.WriteByte(' ')
			first = false
		} else {
			b.WriteString(", ")
		}
		b.WriteString(kv[i])
		b.WriteString(`="`)
		for j := 0; j < len(kv[i+1]); j++ {
			c := kv[i+1][j]
			if c == '"' || c == '\\' {
				b.WriteByte('\\')
			}
			if c < 0x20 || c == 0x7f {
				c = ' ' // no control characters in a header
			}
			b.WriteByte(c)
		}
		b.WriteByte('"')
	}
	return b.String()
}
