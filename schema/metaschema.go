package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"sort"
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
