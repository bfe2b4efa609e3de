package protocol

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// URITemplate is an RFC 6570 URI template, used the other way round: Match
// finds the variables a URI was expanded from. It reads the expressions of
// levels 1 to 4: {var}, {+var}, {#var}, {.var}, {/var}, {;var}, {?var}
// and {&var}, with several variables ({x,y}), the explode modifier
// ({/path*}: its values come back joined by the operator's separator) and
// prefixes ({var:3}). The query operators ? and & must end the template;
// their variables match the URI's query parameters by name, in any order,
// each optional. A simple {var} matches no "/", "?", "#" or ",", a
// reserved {+var} anything but "?" and "#"; values are percent-decoded.
type URITemplate struct {
	text  string
	re    *regexp.Regexp
	names []string // the regexp's groups, in order
	trims []byte   // per group: the separator an exploded value starts with, or 0
	query []string // the variables of ? and & expressions
}

// ParseURITemplate parses a URI template.
func ParseURITemplate(tmpl string) (*URITemplate, error) {
	t := &URITemplate{text: tmpl}
	var re strings.Builder
	re.WriteString("^")
	rest := tmpl
	for rest != "" {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			if strings.IndexByte(rest, '}') >= 0 {
				return nil, errors.New("uri template " + quoteTmpl(tmpl) + ": a \"}\" without \"{\"")
			}
			if len(t.query) > 0 {
				return nil, errors.New("uri template " + quoteTmpl(tmpl) + ": the query expressions ({?...}, {&...}) must end the template")
			}
			re.WriteString(regexp.QuoteMeta(rest))
			break
		}
		lit := rest[:open]
		if strings.IndexByte(lit, '}') >= 0 {
			return nil, errors.New("uri template " + quoteTmpl(tmpl) + ": a \"}\" without \"{\"")
		}
		if len(t.query) > 0 && lit != "" {
			return nil, errors.New("uri template " + quoteTmpl(tmpl) + ": the query expressions ({?...}, {&...}) must end the template")
		}
		re.WriteString(regexp.QuoteMeta(lit))
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return nil, errors.New("uri template " + quoteTmpl(tmpl) + ": a \"{\" without \"}\"")
		}
		expr := rest[open+1 : open+end]
		rest = rest[open+end+1:]
		if err := t.expr(&re, expr); err != nil {
			return nil, errors.New("uri template " + quoteTmpl(tmpl) + ": {" + expr + "}: " + err.Error())
		}
	}
	if len(t.query) > 0 {
		re.WriteString(`(?:\?(.*))?`)
	}
	re.WriteString("$")
	r, err := regexp.Compile(re.String())
	if err != nil {
		return nil, errors.New("uri template " + quoteTmpl(tmpl) + ": " + err.Error())
	}
	t.re = r
	return t, nil
}

func quoteTmpl(s string) string { return `"` + s + `"` }

var tmplVarName = regexp.MustCompile(`^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$`)

// expr adds the pattern of one expression (without its braces) to re.
func (t *URITemplate) expr(re *strings.Builder, expr string) error {
	if expr == "" {
		return errors.New("an empty expression")
	}
	op := byte(0)
	switch expr[0] {
	case '+', '#', '.', '/', ';', '?', '&':
		op, expr = expr[0], expr[1:]
	case '=', ',', '!', '@', '|':
		return errors.New("the operator " + expr[:1] + " is reserved")
	}
	if op != '?' && op != '&' && len(t.query) > 0 {
		return errors.New("the query expressions ({?...}, {&...}) must end the template")
	}
	for i, v := range strings.Split(expr, ",") {
		name, explode := strings.CutSuffix(v, "*")
		if n, _, ok := strings.Cut(name, ":"); ok {
			name = n // a prefix: the match takes what is there
		}
		if !tmplVarName.MatchString(name) {
			return errors.New("invalid variable name " + quoteTmpl(name))
		}
		if op == '?' || op == '&' {
			t.query = append(t.query, name)
			continue
		}
		t.names = append(t.names, name)
		trim := byte(0)
		if explode && (op == '.' || op == '/') {
			trim = op
		}
		t.trims = append(t.trims, trim)
		// The characters one value may hold, and what comes before it.
		val := `[^/?#,]*`
		switch op {
		case '+', '#':
			val = `[^?#]*?`
		case '.':
			val = `[^/?#.,]*`
		case '/':
			val = `[^/?#,]*`
		case ';':
			val = `[^;/?#,]*`
		}
		sep := ""
		switch {
		case op == '.' || op == '/':
			sep = regexp.QuoteMeta(string(op))
		case op == ';':
			sep = ";" + regexp.QuoteMeta(name) + "=?"
		case i > 0:
			sep = ","
		case op == '#':
			sep = "#"
		}
		if explode {
			// {/path*}: one or more values, each with its separator.
			re.WriteString("((?:" + sep + val + ")*)")
			continue
		}
		if op == '.' || op == '/' || op == ';' {
			re.WriteString("(?:" + sep + "(" + val + "))?")
			continue
		}
		re.WriteString(sep + "(" + val + ")")
	}
	return nil
}

// String is the template's text.
func (t *URITemplate) String() string { return t.text }

// Match reports whether uri is an expansion of t and returns its
// variables, percent-decoded (a variable the URI leaves out is absent).
func (t *URITemplate) Match(uri string) (map[string]string, bool) {
	m := t.re.FindStringSubmatchIndex(uri)
	if m == nil {
		return nil, false
	}
	vars := make(map[string]string, len(t.names)+len(t.query))
	for i, name := range t.names {
		if m[2+2*i] < 0 {
			continue
		}
		raw := uri[m[2+2*i]:m[3+2*i]]
		if c := t.trims[i]; c != 0 && raw != "" {
			raw = raw[1:]
		}
		v, err := url.PathUnescape(raw)
		if err != nil {
			return nil, false
		}
		vars[name] = v
	}
	if len(t.query) > 0 {
		if g := 2 + 2*len(t.names); m[g] >= 0 {
			q, err := url.ParseQuery(uri[m[g]:m[g+1]])
			if err != nil {
				return nil, false
			}
			for _, name := range t.query {
				if vs, ok := q[name]; ok {
					vars[name] = strings.Join(vs, ",")
				}
			}
		}
	}
	return vars, true
}
