package schema

import (
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strconv"
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
			Draft04:     "http://json-schema.org/draft-04/schema",
			Draft06:     "http://json-schema.org/draft-06/schema",
			Draft07:     "http://json-schema.org/draft-07/schema",
			Draft202012: "https://json-schema.org/draft/2020-12/schema",
			draft201909: "https://json-schema.org/draft/2019-09/schema",
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

// metaschemaDraft is the draft whose metaschema checks a document read as
// d: draft 2019-09's for one read as 2020-12 whose "$schema" names 2019-09
// (2020-12's metaschema refuses its "$recursiveAnchor": true), else d's.
func metaschemaDraft(root *Value, d Draft) Draft {
	if d != Draft202012 || root.Kind != Object {
		return d
	}
	if sv := root.Get("$schema"); sv != nil && sv.Kind == String && namedDraft.FindString(sv.Str) == "2019-09" {
		return draft201909
	}
	return d
}

// checkMetaschema validates the document against its dialect's
// metaschema and returns one diagnostic per failing leaf, located by the
// instance location the validator reports.
//
// The validator's cost grows with the square of the nesting depth (it
// builds each keyword location from the whole path), so a deep document is
// checked in pieces: every schema node (schemaVals, the nodes the loader
// read as schemas) that sits chunkDepth schema levels below the root of
// its piece is replaced by `{}` there and checked as a piece of its own,
// its locations prefixed with its pointer. Every subschema is checked
// against the whole metaschema in both dialects (draft-07's "$ref": "#",
// 2020-12's "$dynamicRef": "#meta"), so the verdict is the same.
func checkMetaschema(file string, d Draft, root *Value, schemaVals map[*Value]bool) Errors {
	meta, err := metaschema(d)
	if err != nil {
		return Errors{{File: file, Message: "cannot load the " + d.String() + " metaschema: " + err.Error()}}
	}
	pieces := []*Value{root}
	var leafErrs []*jsonschema.ValidationError
	var prefixes []string
	var docs []any
	for len(pieces) > 0 {
		v := pieces[0]
		pieces = pieces[1:]
		doc := metaPiece(v, v, 0, schemaVals, &pieces)
		err := meta.Validate(doc)
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			leafErrs = append(leafErrs, ve)
			prefixes = append(prefixes, v.Pointer)
			docs = append(docs, doc)
		}
	}
	var out Errors
	for i, ve := range leafErrs {
		out = append(out, metaLeaves(file, d, prefixes[i], docs[i], ve)...)
	}

	// The validator's order follows Go map iteration; sort for stable output.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Pointer != out[j].Pointer {
			return out[i].Pointer < out[j].Pointer
		}
		return out[i].Message < out[j].Message
	})
	return slices.CompactFunc(out, func(a, b *Diagnostic) bool { return *a == *b })
}

// metaLeaves lists the failing leaves of one piece's verdict, their
// locations prefixed with the piece's pointer.
func metaLeaves(file string, d Draft, prefix string, doc any, ve *jsonschema.ValidationError) Errors {
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
			out = append(out, &Diagnostic{File: file, Pointer: prefix + e.InstanceLocation,
				Message: "not a valid " + d.String() + " schema (by its metaschema): " + e.Message})
			return
		}
		for _, c := range e.Causes {
			leaves(c)
		}
	}
	leaves(ve)
	return out
}

// chunkDepth is how many schema levels one piece of the metaschema check
// holds.
var chunkDepth = 32 // a variable for the test that compares pieces of every size

// metaPiece converts v (inside the piece rooted at top) into the value the
// validator reads (numbers as json.Number), cutting out the schema nodes
// chunkDepth levels down into pieces of their own.
func metaPiece(v, top *Value, depth int, schemaVals map[*Value]bool, pieces *[]*Value) any {
	if v != top && schemaVals[v] {
		depth++
		if depth >= chunkDepth && (v.Kind == Object || v.Kind == Array) {
			*pieces = append(*pieces, v)
			return map[string]any{} // the empty schema (draft-04 has no boolean ones)
		}
	}
	switch v.Kind {
	case Null:
		return nil
	case Bool:
		return v.Bool
	case Number:
		return json.Number(v.Num)
	case String:
		return v.Str
	case Array:
		a := make([]any, len(v.Items))
		for i, it := range v.Items {
			a[i] = metaPiece(it, top, depth, schemaVals, pieces)
		}
		return a
	}
	m := make(map[string]any, len(v.Members))
	for _, mem := range v.Members {
		m[mem.Name] = metaPiece(mem.Value, top, depth, schemaVals, pieces)
	}
	return m
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

// CheckMetaschema checks data, a JSON Schema document, against the
// metaschema of its dialect and nothing else (none of Load's checks for
// generating code): the dialect its "$schema" names, else def (the
// keywords are not looked at to guess one). It returns the dialect and
// one diagnostic per failing leaf, nil when the document is valid; as in
// Load, a pattern that is an ECMA-262 regular expression but not a Go one
// is accepted. Malformed JSON and an unsupported "$schema" are
// diagnostics too (the dialect is then 0). The document is checked in one
// piece, so the cost grows with the square of its depth: callers bound it.
func CheckMetaschema(file string, data []byte, def Draft) (Draft, Errors) {
	root, err := Parse(data)
	if err != nil {
		var pe *PosError
		if errors.As(err, &pe) {
			return 0, Errors{{File: file, Pointer: pe.Pointer, Message: "malformed JSON: " + pe.Error()}}
		}
		return 0, Errors{{File: file, Message: "malformed JSON: " + err.Error()}}
	}
	d := def
	if sv := root.Get("$schema"); sv != nil {
		if sv.Kind != String {
			return 0, Errors{{File: file, Pointer: "/$schema", Message: "\"$schema\" is a JSON " + sv.Kind.String() + ", not a string"}}
		}
		var ok bool
		if d, ok = dialects[sv.Str]; !ok {
			return 0, Errors{{File: file, Pointer: "/$schema", Message: "unsupported dialect " + strconv.Quote(sv.Str) + " (draft-04, draft-06, draft-07 and draft 2020-12 are known)"}}
		}
	}
	return d, checkMetaschema(file, d, root, nil)
}
