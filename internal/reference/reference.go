// Package reference wraps the reference JSON Schema validator the tests
// compare the generated validators with: github.com/santhosh-tekuri/jsonschema/v5,
// with format assertions on and the "byte" format (which v5 does not know)
// registered as standard base64, as MCP means it.
package reference

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

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
