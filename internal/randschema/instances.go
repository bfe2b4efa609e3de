package randschema

import (
	"math/rand/v2"
	"regexp"
	"strconv"
)

// Instances returns n documents for the case: most drawn from its schema
// (so that many are valid and many are near misses), some arbitrary.
func Instances(r *rand.Rand, c *Case, n int) [][]byte {
	ig := &inst{gen: &gen{r: r, c: c}, seen: map[string]bool{}}
	var out [][]byte
	for tries := 0; len(out) < n && tries < 4*n; tries++ {
		var v any
		if r.Float64() < 0.15 {
			v = ig.value(2)
		} else {
			v = ig.from(c.Schema, 3)
		}
		b, err := Marshal(v)
		if err != nil || ig.seen[string(b)] {
			continue
		}
		ig.seen[string(b)] = true
		out = append(out, b)
	}
	return out
}

type inst struct {
	*gen
	seen map[string]bool
	refs int
}

// from makes a value meant to satisfy s, with some noise.
func (ig *inst) from(s any, depth int) any {
	if ig.chance(0.08) || depth < 0 {
		return ig.value(1)
	}
	o, ok := s.(*Obj)
	if !ok {
		return ig.value(2)
	}
	if ref, ok := o.Get("$ref"); ok && ig.refs < 20 && ig.chance(0.7) {
		ig.refs++
		name := lastSegment(ref.(string))
		if h, ok := ig.c.Helpers[name]; ok {
			return ig.from(h, depth-1)
		}
	}
	if v, ok := o.Get("const"); ok && ig.chance(0.7) {
		return v
	}
	if v, ok := o.Get("enum"); ok && len(v.([]any)) > 0 && ig.chance(0.7) {
		return pick(ig.r, v.([]any))
	}
	// Follow an applicator now and then: the value then meets a branch.
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if v, ok := o.Get(k); ok && ig.chance(0.35) {
			return ig.from(pick(ig.r, v.([]any)), depth-1)
		}
	}
	for _, k := range []string{"then", "else", "if"} {
		if v, ok := o.Get(k); ok && ig.chance(0.25) {
			return ig.from(v, depth-1)
		}
	}
	var types []string
	switch t := o.Vals["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			types = append(types, x.(string))
		}
	}
	kind := ""
	if len(types) > 0 && ig.chance(0.9) {
		kind = pick(ig.r, types)
	} else {
		// Guess from the keywords.
		var kinds []string
		for k, t := range map[string]string{"properties": "object", "patternProperties": "object", "additionalProperties": "object",
			"required": "object", "propertyNames": "object", "minProperties": "object", "maxProperties": "object",
			"dependentRequired": "object", "dependentSchemas": "object", "dependencies": "object", "unevaluatedProperties": "object",
			"items": "array", "prefixItems": "array", "contains": "array", "uniqueItems": "array", "minItems": "array",
			"maxItems": "array", "unevaluatedItems": "array", "minLength": "string", "maxLength": "string",
			"pattern": "string", "format": "string", "minimum": "number", "maximum": "number", "multipleOf": "number",
			"exclusiveMinimum": "number", "exclusiveMaximum": "number"} {
			if _, ok := o.Get(k); ok {
				kinds = append(kinds, t)
			}
		}
		if len(kinds) == 0 {
			return ig.value(2)
		}
		kind = kinds[ig.r.IntN(len(kinds))]
	}
	switch kind {
	case "null":
		return nil
	case "boolean":
		return ig.chance(0.5)
	case "integer":
		return Num(ig.numberFor(o, true))
	case "number":
		return Num(ig.numberFor(o, false))
	case "string":
		return ig.stringFor(o)
	case "array":
		return ig.arrayFor(o, depth)
	default:
		return ig.objectFor(o, depth)
	}
}

func lastSegment(ref string) string {
	for i := len(ref) - 1; i >= 0; i-- {
		if ref[i] == '/' {
			return ref[i+1:]
		}
	}
	return ref
}

func (ig *inst) numberFor(o *Obj, integer bool) string {
	if m, ok := o.Get("multipleOf"); ok && ig.chance(0.5) {
		f, err := strconv.ParseFloat(string(m.(Num)), 64)
		if err == nil {
			return strconv.FormatFloat(f*float64(ig.r.IntN(11)-5), 'f', -1, 64)
		}
	}
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		if b, ok := o.Get(k); ok && ig.chance(0.4) {
			f, _ := strconv.ParseFloat(string(b.(Num)), 64)
			d := []float64{-1, -0.5, 0, 0.5, 1}[ig.r.IntN(5)]
			if integer {
				d = float64(ig.r.IntN(3) - 1)
			}
			return strconv.FormatFloat(f+d, 'f', -1, 64)
		}
	}
	return ig.number(integer)
}

func (ig *inst) stringFor(o *Obj) string {
	if p, ok := o.Get("pattern"); ok && ig.chance(0.5) {
		re := regexp.MustCompile(p.(string))
		var matching []string
		for _, s := range stringPool {
			if re.MatchString(s) {
				matching = append(matching, s)
			}
		}
		if len(matching) > 0 {
			return pick(ig.r, matching)
		}
	}
	if n, ok := o.Get("minLength"); ok && ig.chance(0.4) {
		l, _ := strconv.Atoi(string(n.(Num)))
		return "xyzw"[:min(4, l+ig.r.IntN(2))]
	}
	return pick(ig.r, stringPool)
}

func (ig *inst) arrayFor(o *Obj, depth int) any {
	var out []any
	n := ig.r.IntN(4)
	var prefix []any
	if p, ok := o.Get("prefixItems"); ok {
		prefix = p.([]any)
	} else if p, ok := o.Get("items"); ok {
		if a, ok := p.([]any); ok {
			prefix = a
		}
	}
	if len(prefix) > 0 && ig.chance(0.6) {
		n = len(prefix) + ig.r.IntN(2) - ig.r.IntN(2)
	}
	items, _ := o.Get("items")
	if _, isList := items.([]any); isList {
		items, _ = o.Get("additionalItems")
	}
	contains, _ := o.Get("contains")
	for i := range max(n, 0) {
		switch {
		case i < len(prefix):
			out = append(out, ig.from(prefix[i], depth-1))
		case contains != nil && ig.chance(0.4):
			out = append(out, ig.from(contains, depth-1))
		case items != nil:
			out = append(out, ig.from(items, depth-1))
		default:
			out = append(out, ig.value(1))
		}
	}
	if u, ok := o.Get("uniqueItems"); ok && u == true && len(out) > 0 && ig.chance(0.3) {
		out = append(out, out[0]) // a repeat
	}
	if out == nil {
		out = []any{}
	}
	return out
}

func (ig *inst) objectFor(o *Obj, depth int) any {
	out := NewObj()
	props, _ := o.Get("properties")
	req, _ := o.Get("required")
	if p, ok := props.(*Obj); ok {
		for _, k := range p.Keys {
			if ig.chance(0.6) {
				out.Set(k, ig.from(p.Vals[k], depth-1))
			}
		}
	}
	if r, ok := req.([]any); ok {
		for _, k := range r {
			if _, ok := out.Get(k.(string)); !ok && ig.chance(0.85) {
				var sub any = true
				if p, ok := props.(*Obj); ok {
					if s, ok := p.Get(k.(string)); ok {
						sub = s
					}
				}
				out.Set(k.(string), ig.from(sub, depth-1))
			}
		}
	}
	if pp, ok := o.Get("patternProperties"); ok && ig.chance(0.7) {
		p := pp.(*Obj)
		pat := pick(ig.r, p.Keys)
		re := regexp.MustCompile(pat)
		for _, n := range propNames {
			if re.MatchString(n) && ig.chance(0.5) {
				out.Set(n, ig.from(p.Vals[pat], depth-1))
			}
		}
	}
	for _, k := range []string{"dependentRequired", "dependencies", "dependentSchemas"} {
		if d, ok := o.Get(k); ok && ig.chance(0.5) {
			dm := d.(*Obj)
			trigger := pick(ig.r, dm.Keys)
			out.Set(trigger, ig.value(1))
			if list, ok := dm.Vals[trigger].([]any); ok && ig.chance(0.7) {
				for _, r := range list {
					out.Set(r.(string), ig.value(1))
				}
			}
		}
	}
	if ig.chance(0.3) {
		out.Set(pick(ig.r, propNames), ig.value(1))
	}
	return out
}
