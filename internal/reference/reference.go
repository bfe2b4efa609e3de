// Package reference wraps the reference JSON Schema validator the tests
// compare the generated validators with: github.com/santhosh-tekuri/jsonschema/v5,
// with format assertions on, the "byte" format (which v5 does not know)
// registered as standard base64, as MCP means it, and "uri-template" as
// RFC 6570's grammar (v5's own check only looks at the braces in a URI's
// path, and refuses templates the RFC allows, such as
// "users://{id}/profile").
package reference

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Validator validates documents against the definitions of one schema.
type Validator struct {
	draftDefs string
	compiler  *jsonschema.Compiler
	mu        sync.Mutex
	compiled  map[string]*jsonschema.Schema
}

const resource = "mcp://schema.json"

// New loads a schema document.
func New(schemaJSON []byte) (*Validator, error) {
	c := jsonschema.NewCompiler()
	c.AssertFormat = true
	c.Formats["byte"] = IsBase64
	c.Formats["uri-template"] = IsURITemplate
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("reference: no remote loading (%s)", s)
	}
	if err := c.AddResource(resource, bytes.NewReader(schemaJSON)); err != nil {
		return nil, err
	}
	defs := "$defs"
	if bytes.Contains(schemaJSON, []byte(`"definitions"`)) && !bytes.Contains(schemaJSON, []byte(`"$defs"`)) {
		defs = "definitions"
	}
	return &Validator{draftDefs: defs, compiler: c, compiled: map[string]*jsonschema.Schema{}}, nil
}

// IsBase64 is the "byte" format: standard base64 as encoding/base64 reads it.
func IsBase64(v any) bool {
	s, ok := v.(string)
	if !ok {
		return true
	}
	_, err := base64.StdEncoding.DecodeString(s)
	return err == nil
}

// uriTemplate is the grammar of RFC 6570, section 2, as a regular
// expression: literals (2.1: any character but CTL, SP, DQUOTE, "'", "%"
// outside a percent-encoding, "<", ">", "\\", "^", "`", "{", "|", "}",
// with ucschar and iprivate of RFC 3987) and expressions (2.2 to 2.4).
var uriTemplate = func() *regexp.Regexp {
	const (
		pct     = `%[0-9A-Fa-f]{2}`
		ucs     = `\x{A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}`
		planes  = `\x{10000}-\x{1FFFD}\x{20000}-\x{2FFFD}\x{30000}-\x{3FFFD}\x{40000}-\x{4FFFD}\x{50000}-\x{5FFFD}\x{60000}-\x{6FFFD}\x{70000}-\x{7FFFD}\x{80000}-\x{8FFFD}\x{90000}-\x{9FFFD}\x{A0000}-\x{AFFFD}\x{B0000}-\x{BFFFD}\x{C0000}-\x{CFFFD}\x{D0000}-\x{DFFFD}\x{E1000}-\x{EFFFD}`
		private = `\x{E000}-\x{F8FF}\x{F0000}-\x{FFFFD}\x{100000}-\x{10FFFD}`
		literal = `(?:[\x21\x23\x24\x26\x28-\x3B\x3D\x3F-\x5B\x5D\x5F\x61-\x7A\x7E` + ucs + planes + private + `]|` + pct + `)`
		varchar = `(?:[A-Za-z0-9_]|` + pct + `)`
		varname = varchar + `(?:\.?` + varchar + `)*`
		varspec = varname + `(?::[1-9][0-9]{0,3}|\*)?`
		expr    = `\{[+#./;?&=,!@|]?` + varspec + `(?:,` + varspec + `)*\}`
	)
	return regexp.MustCompile(`^(?:` + literal + `|` + expr + `)*$`)
}()

// IsURITemplate is the "uri-template" format: a URI template by RFC
// 6570's grammar (and valid UTF-8).
func IsURITemplate(v any) bool {
	s, ok := v.(string)
	if !ok {
		return true
	}
	return utf8.ValidString(s) && uriTemplate.MatchString(s)
}

func (v *Validator) schema(def string) (*jsonschema.Schema, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.compiled[def]; ok {
		return s, nil
	}
	ptr := strings.NewReplacer("~", "~0", "/", "~1").Replace(def)
	s, err := v.compiler.Compile(resource + "#/" + v.draftDefs + "/" + ptr)
	if err != nil {
		return nil, err
	}
	v.compiled[def] = s
	return s, nil
}

// Validate reports whether doc is a valid instance of definition def. An
// error that is not about validity (a definition that does not exist, a
// document that is not JSON) comes back as err.
func (v *Validator) Validate(def string, doc []byte) (valid bool, reason string, err error) {
	s, err := v.schema(def)
	if err != nil {
		return false, "", err
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var inst any
	if err := dec.Decode(&inst); err != nil {
		return false, "not JSON: " + err.Error(), nil
	}
	if _, err := dec.Token(); err != io.EOF {
		return false, "not JSON: data after the value", nil
	}
	if err := s.Validate(inst); err != nil {
		if ve, ok := err.(*jsonschema.ValidationError); ok {
			return false, fmt.Sprintf("%#v", ve), nil
		}
		return false, "", err
	}
	return true, "", nil
}

// CompileRoot compiles the document's root schema (and what it reaches),
// reporting why the reference cannot use it: a $ref to nothing or to
// another document, a schema its metaschema rejects.
func (v *Validator) CompileRoot() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	_, err := v.compiler.Compile(resource)
	return err
}
