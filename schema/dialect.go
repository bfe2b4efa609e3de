package schema

import (
	"fmt"
	"regexp"
)

// Which draft a document is read as (docs/references.md, "Drafts"). A
// "$schema" mcpgen knows picks its draft. Without one, a document keeps
// the draft of the schema that refers to it, and the schema itself is
// draft-07 when it spells a draft-07 document's keywords (definitions and
// no $defs, an array "items"), else draft 2020-12. A "$schema" mcpgen
// does not know is read as the closest draft, with a warning: the draft
// its URI names (2019-09 is read as 2020-12), else the draft its
// spellings are. A document read as draft 2020-12 that spells "items" as
// an array, as draft-07 does, cannot be 2020-12: it is read as draft-07,
// with a warning. Drafts before draft-04 are refused: their keywords mean
// other things (a boolean "required", "extends", "disallow").

// dialectNote is a warning about the draft a document is read as.
type dialectNote struct{ ptr, msg string }

// oldDraft matches the URIs of the drafts before draft-04.
var oldDraft = regexp.MustCompile(`draft-0[0-3]\b`)

// namedDraft finds a draft mcpgen reads named in a "$schema" URI it does
// not know by that spelling (a trailing slash, a missing "#").
var namedDraft = regexp.MustCompile(`draft-0[467]\b|\b20(19-09|20-12)\b`)

// dialectOf picks the draft of a document whose root is root (an object).
// inherited is the draft of the schema that refers to it, 0 for the
// schema itself. It returns the draft and the warnings to give, or a
// diagnostic's pointer and message when mcpgen does not read it.
func dialectOf(root *Value, inherited Draft) (d Draft, notes []dialectNote, errPtr, errMsg string) {
	tuple := arrayItems(root)
	sv := root.Get("$schema")
	switch {
	case sv == nil && inherited != 0:
		d = inherited
	case sv == nil:
		return bySpelling(root, tuple), nil, "", ""
	case sv.Kind != String:
		return 0, nil, "/$schema", fmt.Sprintf("\"$schema\" is a JSON %s, not a string", sv.Kind)
	default:
		known, ok := dialects[sv.Str]
		switch {
		case ok:
			d = known
		case oldDraft.MatchString(sv.Str):
			return 0, nil, "/$schema", fmt.Sprintf("unsupported draft %q: mcpgen reads draft-04, draft-06, draft-07 and draft 2020-12", sv.Str)
		default:
			var why string
			switch m := namedDraft.FindString(sv.Str); m {
			case "draft-04":
				d, why = Draft04, "the draft it names"
			case "draft-06":
				d, why = Draft06, "the draft it names"
			case "draft-07":
				d, why = Draft07, "the draft it names"
			case "2020-12":
				d, why = Draft202012, "the draft it names"
			case "2019-09":
				d, why = Draft202012, "the closest draft mcpgen reads to the 2019-09 it names ($recursiveRef is not enforced)"
			default:
				d, why = bySpelling(root, tuple), "the closest draft by its spellings"
			}
			notes = append(notes, dialectNote{"/$schema", fmt.Sprintf("\"$schema\" %q is no draft mcpgen knows; the schema is read as %s, %s", sv.Str, d, why)})
		}
	}
	if d == Draft202012 && tuple != "" {
		notes = append(notes, dialectNote{tuple, fmt.Sprintf("\"items\" is an array, as draft-07 spells a tuple (draft 2020-12 spells it \"prefixItems\"): the schema is read as draft-07, the closest draft, not as %s", d)})
		d = Draft07
	}
	return d, notes, "", ""
}

// bySpelling is the draft of a document that names none: draft-07 when it
// keeps its definitions under "definitions" (and has no "$defs") or spells
// "items" as an array (tuple is where), else draft 2020-12.
func bySpelling(root *Value, tuple string) Draft {
	if root.Get("definitions") != nil && root.Get("$defs") == nil || tuple != "" {
		return Draft07
	}
	return Draft202012
}

// dataKeywords hold JSON values, not schemas: an "items" in them is data.
var dataKeywords = map[string]bool{"enum": true, "const": true, "default": true, "examples": true}

// nameMaps are the keywords whose members are named schemas (their names
// are no keywords).
var nameMaps = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
	"dependentSchemas": true, "dependencies": true}

// arrayItems returns the pointer of the first "items" (in document order)
// that is an array, outside the values of enum, const, default and
// examples, or "".
func arrayItems(root *Value) string {
	type entry struct {
		key   string // the member name v is the value of, as a keyword ("" when it is none)
		v     *Value
		names bool // v's members are named schemas
	}
	stack := []entry{{v: root}}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.key == "items" && e.v.Kind == Array {
			return e.v.Pointer
		}
		if dataKeywords[e.key] {
			continue
		}
		switch e.v.Kind {
		case Object:
			for i := len(e.v.Members) - 1; i >= 0; i-- {
				m := e.v.Members[i]
				if e.names {
					stack = append(stack, entry{v: m.Value})
				} else {
					stack = append(stack, entry{key: m.Name, v: m.Value, names: nameMaps[m.Name]})
				}
			}
		case Array:
			for i := len(e.v.Items) - 1; i >= 0; i-- {
				stack = append(stack, entry{v: e.v.Items[i]})
			}
		}
	}
	return ""
}
