package bench

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	jsv5 "github.com/santhosh-tekuri/jsonschema/v5"
	jsv6 "github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is where the validators file the 2026-07-28 schema.
const schemaURL = "mcp://schema/2026-07-28/schema.json"

// A Validator decodes a document (encoding/json with UseNumber) and
// validates it against one definition.
type Validator func(data []byte) error

// isBase64 is the "byte" format (which neither validator knows): standard
// base64, as MCP means it and as mcpgen checks it.
func isBase64(s string) bool {
	_, err := base64.StdEncoding.DecodeString(s)
	return err == nil
}

// DecodeNumber decodes one JSON document with UseNumber, rejecting
// trailing data.
func DecodeNumber(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}

// V5 compiles #/$defs/<def> of schemaJSON for each def with
// github.com/santhosh-tekuri/jsonschema/v5, format assertions on.
func V5(schemaJSON []byte, defs []string) (map[string]Validator, error) {
	c := jsv5.NewCompiler()
	c.Draft = jsv5.Draft2020
	c.AssertFormat = true
	c.Formats["byte"] = func(v any) bool {
		s, ok := v.(string)
		return !ok || isBase64(s)
	}
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("no remote loading (%s)", s)
	}
	if err := c.AddResource(schemaURL, bytes.NewReader(schemaJSON)); err != nil {
		return nil, err
	}
	out := map[string]Validator{}
	for _, def := range defs {
		if _, ok := out[def]; ok {
			continue
		}
		s, err := c.Compile(schemaURL + "#/$defs/" + def)
		if err != nil {
			return nil, fmt.Errorf("v5: compile %s: %w", def, err)
		}
		out[def] = func(data []byte) error {
			v, err := DecodeNumber(data)
			if err != nil {
				return err
			}
			return s.Validate(v)
		}
	}
	return out, nil
}

// V6 is V5 with github.com/santhosh-tekuri/jsonschema/v6.
func V6(schemaJSON []byte, defs []string) (map[string]Validator, error) {
	doc, err := DecodeNumber(schemaJSON)
	if err != nil {
		return nil, err
	}
	c := jsv6.NewCompiler()
	c.DefaultDraft(jsv6.Draft2020)
	c.AssertFormat()
	c.RegisterFormat(&jsv6.Format{Name: "byte", Validate: func(v any) error {
		if s, ok := v.(string); ok && !isBase64(s) {
			return errors.New("not standard base64")
		}
		return nil
	}})
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	out := map[string]Validator{}
	for _, def := range defs {
		if _, ok := out[def]; ok {
			continue
		}
		s, err := c.Compile(schemaURL + "#/$defs/" + def)
		if err != nil {
			return nil, fmt.Errorf("v6: compile %s: %w", def, err)
		}
		out[def] = func(data []byte) error {
			v, err := DecodeNumber(data)
			if err != nil {
				return err
			}
			return s.Validate(v)
		}
	}
	return out, nil
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("no remote loading (%s)", url)
}
