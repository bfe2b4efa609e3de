package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The metaschemas of the two dialects, as github.com/santhosh-tekuri/jsonschema/v5
// bundles them (no network).
var metaschemas = struct {
	once sync.Once
	by   map[Draft]*jsonschema.Schema
	err  error
}{}

func metaschema(d Draft) (*jsonschema.Schema, error) {
	metaschemas.once.Do(func() {
		metaschemas.by = map[Draft]*jsonschema.Schema{}
		for draft, url := range map[Draft]string{
			Draft07:     "http://json-schema.org/draft-07/schema",
			Draft202012: "https://json-schema.org/draft/2020-12/schema",
		} {
			s, err := jsonschema.NewCompiler().Compile(url)
			if err != nil {
				metaschemas.err = err
				return
			}
			metaschemas.by[draft] = s
		}
	})
	return metaschemas.by[d], metaschemas.err
}

// checkMetaschema validates the document against its dialect's
// metaschema and returns one diagnostic per failing leaf, located by the
// instance location the validator reports.
func checkMetaschema(file string, d Draft, data []byte) Errors {
	meta, err := metaschema(d)
	if err != nil {
		return Errors{{File: file, Message: "cannot load the " + d.String() + " metaschema: " + err.Error()}}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil // Parse has reported it already
	}
	err = meta.Validate(doc)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	var out Errors
	var leaves func(*jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 && ecmaRegexAt(doc, e) {
			// The metaschema's "regex" format is Go's regexp there; a
			// pattern is ECMA-262's, and one with a construct Go lacks
			// is still a schema (Load warns that it is not enforced).
			return
		}
		if len(e.Causes) == 0 {
			out = append(out, &Diagnostic{File: file, Pointer: e.InstanceLocation,
				Message: "not a valid " + d.String() + " schema (by its metaschema): " + e.Message})
			return
		}
		for _, c := range e.Causes {
			leaves(c)
		}
	}
	leaves(ve)
	// The validator's order follows Go map iteration; sort for stable output.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Pointer != out[j].Pointer {
			return out[i].Pointer < out[j].Pointer
		}
		return out[i].Message < out[j].Message
	})
	return slices.CompactFunc(out, func(a, b *Diagnostic) bool { return *a == *b })
}

// ecmaRegexAt reports whether the leaf e is the "regex" format rejecting a
// pattern (the string at its location, or the member name at its location
// for patternProperties) that is an ECMA-262 regular expression.
func ecmaRegexAt(doc any, e *jsonschema.ValidationError) bool {
	if !strings.HasSuffix(e.KeywordLocation, "/format") || !strings.HasSuffix(e.Message, "'regex'") {
		return false
	}
	toks := strings.Split(e.InstanceLocation, "/")
	v := doc
	for _, t := range toks[1:] {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		v = m[UnescapePointer(t)]
	}
	if p, ok := v.(string); ok {
		return IsECMARegex(p)
	}
	// propertyNames of patternProperties: the member name is the pattern.
	return len(toks) > 1 && IsECMARegex(UnescapePointer(toks[len(toks)-1]))
}
