package conformance

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/schema"
)

// This file builds instances of a schema definition from the schema
// itself: the documents the differential test and the fuzz targets start
// from for the revisions without official examples. It follows $ref,
// allOf (as a conjunction of constraints), anyOf/oneOf (one branch at a
// time), properties/required/additionalProperties, items/minItems/maxItems,
// const, enum, type, minimum/maximum (exclusive too), minLength/maxLength
// and the formats the MCP schemas use. Whether the result is valid is for
// the reference validator to say; the differential test checks it.

// instance is one built document.
type instance struct {
	label string
	value *schema.Value
}

// buildInstances returns the instances of definition def: a minimal one
// (required members only, empty arrays) and a full one (every property,
// one element per array, one additional member where the schema allows
// them), each for every alternative at the top of the definition (each
// anyOf/oneOf branch, each type of a type list).
func buildInstances(def *schema.Schema) []instance {
	var out []instance
	seen := map[string]bool{}
	alts := alternatives([]*schema.Schema{def})
	for _, full := range []bool{false, true} {
		for pick := range alts {
			b := &builder{full: full}
			v := b.build([]*schema.Schema{def}, 0, pick)
			if v == nil {
				continue
			}
			text := string(encode(v, compact))
			if seen[text] {
				continue
			}
			seen[text] = true
			mode := "minimal"
			if full {
				mode = "full"
			}
			out = append(out, instance{label: fmt.Sprintf("%s %s #%d", mode, def.Name, pick), value: v})
		}
	}
	return out
}

// alternatives returns how many top-level choices a conjunction offers: the
// branches of its first anyOf/oneOf, or else its types.
func alternatives(conj []*schema.Schema) int {
	flat, ok := flatten(conj)
	if !ok {
		return 1
	}
	for _, s := range flat {
		if n := len(s.AnyOf) + len(s.OneOf); n > 0 {
			return n
		}
	}
	c := merge(flat)
	if len(c.types) > 1 && c.constVal == nil && c.enum == nil {
		return len(c.types)
	}
	return 1
}

// builder builds one instance.
type builder struct {
	full bool // every property, one element per array
}

// maxFullDepth is how deep the full instance includes optional members;
// below, it is minimal. maxDepth stops runaway recursion.
const (
	maxFullDepth = 5
	maxDepth     = 40
)

// flatten expands a conjunction of schemas through $ref and allOf. It
// returns false when one of them is the false schema.
func flatten(conj []*schema.Schema) ([]*schema.Schema, bool) {
	var out []*schema.Schema
	seen := map[*schema.Schema]bool{}
	var add func(s *schema.Schema) bool
	add = func(s *schema.Schema) bool {
		if s == nil || seen[s] {
			return true
		}
		seen[s] = true
		if s.IsBool {
			return s.BoolValue
		}
		out = append(out, s)
		if s.Ref != nil && !add(s.Ref) {
			return false
		}
		for _, a := range s.AllOf {
			if !add(a) {
				return false
			}
		}
		return true
	}
	for _, s := range conj {
		if !add(s) {
			return nil, false
		}
	}
	return out, true
}

// constraints is a flattened conjunction without disjunctions, merged.
type constraints struct {
	types      []string // allowed JSON types ("integer" for whole numbers); nil: any
	constVal   *schema.Value
	enum       []*schema.Value
	propNames  []string
	props      map[string][]*schema.Schema
	required   []string
	additional []*schema.Schema // additionalProperties of every schema that has one
	items      []*schema.Schema
	lo, hi     *big.Rat
	loExcl     bool
	hiExcl     bool
	minItems   int64
	maxItems   int64 // -1: no bound
	minLength  int64
	maxLength  int64 // -1: no bound
	format     string
}

var allTypes = []string{"object", "array", "string", "integer", "number", "boolean", "null"}

func merge(flat []*schema.Schema) *constraints {
	c := &constraints{props: map[string][]*schema.Schema{}, maxItems: -1, maxLength: -1}
	typed := false
	allowed := map[string]bool{}
	for _, t := range allTypes {
		allowed[t] = true
	}
	for _, s := range flat {
		if s.Types != nil {
			typed = true
			for _, t := range allTypes {
				ok := s.HasType(t) || (t == "integer" && s.HasType("number"))
				allowed[t] = allowed[t] && ok
			}
		}
		if s.Const != nil {
			c.constVal = s.Const
		}
		if s.Enum != nil {
			if c.enum == nil {
				c.enum = s.Enum
			} else {
				c.enum = slices.DeleteFunc(slices.Clone(c.enum), func(v *schema.Value) bool {
					return !slices.ContainsFunc(s.Enum, func(w *schema.Value) bool { return schema.Equal(v, w) })
				})
			}
		}
		for _, p := range s.Properties {
			if _, ok := c.props[p.Name]; !ok {
				c.propNames = append(c.propNames, p.Name)
			}
			c.props[p.Name] = append(c.props[p.Name], p.Schema)
		}
		for _, r := range s.Required {
			if !slices.Contains(c.required, r) {
				c.required = append(c.required, r)
			}
		}
		if s.AdditionalProperties != nil {
			c.additional = append(c.additional, s.AdditionalProperties)
		}
		if s.Items != nil {
			c.items = append(c.items, s.Items)
		}
		bound := func(text *string, excl bool, lower bool) {
			if text == nil {
				return
			}
			r, ok := new(big.Rat).SetString(*text)
			if !ok {
				return
			}
			if lower {
				if c.lo == nil || r.Cmp(c.lo) > 0 || (r.Cmp(c.lo) == 0 && excl) {
					c.lo, c.loExcl = r, excl
				}
			} else if c.hi == nil || r.Cmp(c.hi) < 0 || (r.Cmp(c.hi) == 0 && excl) {
				c.hi, c.hiExcl = r, excl
			}
		}
		bound(s.Minimum, false, true)
		bound(s.ExclusiveMinimum, true, true)
		bound(s.Maximum, false, false)
		bound(s.ExclusiveMaximum, true, false)
		if s.MinItems != nil && *s.MinItems > c.minItems {
			c.minItems = *s.MinItems
		}
		if s.MaxItems != nil && (c.maxItems < 0 || *s.MaxItems < c.maxItems) {
			c.maxItems = *s.MaxItems
		}
		if s.MinLength != nil && *s.MinLength > c.minLength {
			c.minLength = *s.MinLength
		}
		if s.MaxLength != nil && (c.maxLength < 0 || *s.MaxLength < c.maxLength) {
			c.maxLength = *s.MaxLength
		}
		if s.Format != "" {
			c.format = s.Format
		}
	}
	if typed {
		c.types = []string{}
		for _, t := range allTypes {
			// Where any number goes, build one that is not whole.
			if allowed[t] && (t != "integer" || !allowed["number"]) {
				c.types = append(c.types, t)
			}
		}
	} else {
		// No "type": guess from the other keywords.
		switch {
		case len(c.propNames) > 0 || len(c.required) > 0 || len(c.additional) > 0:
			c.types = []string{"object"}
		case len(c.items) > 0:
			c.types = []string{"array"}
		case c.lo != nil || c.hi != nil:
			c.types = []string{"number"}
		case c.format != "" || c.minLength > 0:
			c.types = []string{"string"}
		}
	}
	return c
}

// build returns an instance of the conjunction, or nil when it finds none.
// pick chooses among the alternatives at this level (see alternatives).
func (b *builder) build(conj []*schema.Schema, depth, pick int) *schema.Value {
	return b.resolve(conj, nil, depth, pick)
}

// resolve builds an instance of conj where the disjunctions (anyOf, oneOf)
// of the schemas in done are already taken care of by a branch in conj.
func (b *builder) resolve(conj, done []*schema.Schema, depth, pick int) *schema.Value {
	if depth > maxDepth {
		return nil
	}
	flat, ok := flatten(conj)
	if !ok {
		return nil
	}
	// Resolve the first open disjunction by adding one of its branches,
	// trying them in turn from pick.
	for _, s := range flat {
		branches := append(slices.Clone(s.AnyOf), s.OneOf...)
		if len(branches) == 0 || slices.Contains(done, s) {
			continue
		}
		for k := range branches {
			br := branches[(pick+k)%len(branches)]
			if v := b.resolve(append(slices.Clone(flat), br), append(slices.Clone(done), s), depth, 0); v != nil {
				return v
			}
		}
		return nil
	}
	c := merge(flat)
	if c.constVal != nil {
		return clone(c.constVal)
	}
	if c.enum != nil {
		if len(c.enum) == 0 {
			return nil
		}
		return clone(c.enum[pick%len(c.enum)])
	}
	types := c.types
	if types == nil {
		types = []string{"string"}
	}
	if len(types) == 0 {
		return nil
	}
	switch types[pick%len(types)] {
	case "object":
		return b.object(c, depth)
	case "array":
		return b.array(c, depth)
	case "string":
		return b.string(c)
	case "integer":
		return b.number(c, true)
	case "number":
		return b.number(c, false)
	case "boolean":
		return &schema.Value{Kind: schema.Bool, Bool: true}
	default:
		return &schema.Value{Kind: schema.Null}
	}
}

func (b *builder) object(c *constraints, depth int) *schema.Value {
	v := &schema.Value{Kind: schema.Object, Members: []schema.Member{}}
	optional := b.full && depth < maxFullDepth
	for _, name := range c.propNames {
		req := slices.Contains(c.required, name)
		if !req && !optional {
			continue
		}
		m := b.build(c.props[name], depth+1, 0)
		if m == nil {
			if req {
				return nil
			}
			continue
		}
		v.Members = append(v.Members, schema.Member{Name: name, Value: m})
	}
	for _, name := range c.required {
		if _, ok := c.props[name]; ok {
			continue
		}
		m := b.build(c.additional, depth+1, 0)
		if m == nil {
			return nil
		}
		v.Members = append(v.Members, schema.Member{Name: name, Value: m})
	}
	if optional && len(c.additional) > 0 {
		if m := b.build(c.additional, depth+1, 0); m != nil {
			v.Members = append(v.Members, schema.Member{Name: "extra", Value: m})
		}
	}
	return v
}

func (b *builder) array(c *constraints, depth int) *schema.Value {
	v := &schema.Value{Kind: schema.Array, Items: []*schema.Value{}}
	n := c.minItems
	if b.full && depth < maxFullDepth && n == 0 {
		n = 1
	}
	if c.maxItems >= 0 && n > c.maxItems {
		n = c.maxItems
	}
	for range n {
		it := b.build(c.items, depth+1, 0)
		if it == nil {
			if c.minItems > 0 {
				return nil
			}
			break
		}
		v.Items = append(v.Items, it)
	}
	return v
}

// formatExamples are valid strings of each format the schemas use.
var formatExamples = map[string]string{
	"uri":          "https://example.com/a",
	"uri-template": "https://example.com/{id}",
	"byte":         "aGVsbG8=",
	"date-time":    "2025-01-01T00:00:00Z",
	"email":        "a@example.com",
}

func (b *builder) string(c *constraints) *schema.Value {
	s := "x"
	if ex, ok := formatExamples[c.format]; ok {
		s = ex
	}
	if int64(len(s)) < c.minLength {
		s += strings.Repeat("x", int(c.minLength)-len(s))
	}
	if c.maxLength >= 0 && int64(len(s)) > c.maxLength {
		s = s[:c.maxLength]
	}
	return &schema.Value{Kind: schema.String, Str: s}
}

func (b *builder) number(c *constraints, integer bool) *schema.Value {
	var r *big.Rat
	one := big.NewRat(1, 1)
	half := big.NewRat(1, 2)
	switch {
	case c.lo != nil && c.hi != nil:
		r = new(big.Rat).Add(c.lo, c.hi)
		r.Quo(r, big.NewRat(2, 1))
	case c.lo != nil:
		r = new(big.Rat).Add(c.lo, half)
	case c.hi != nil:
		r = new(big.Rat).Sub(c.hi, half)
	default:
		r = new(big.Rat).SetInt64(1)
	}
	if integer && !r.IsInt() {
		// Round up, inside the bounds when there is a whole number there.
		n := new(big.Int).Quo(r.Num(), r.Denom())
		if r.Sign() > 0 {
			n.Add(n, big.NewInt(1))
		}
		r = new(big.Rat).SetInt(n)
		if c.hi != nil && (r.Cmp(c.hi) > 0 || (c.hiExcl && r.Cmp(c.hi) == 0)) {
			r.Sub(r, one)
		}
	}
	text := r.RatString()
	if !r.IsInt() {
		text = strings.TrimRight(r.FloatString(20), "0")
	}
	return &schema.Value{Kind: schema.Number, Num: text}
}

// clone copies a value deeply.
func clone(v *schema.Value) *schema.Value {
	c := *v
	if v.Items != nil {
		c.Items = make([]*schema.Value, len(v.Items))
		for i, it := range v.Items {
			c.Items[i] = clone(it)
		}
	}
	if v.Members != nil {
		c.Members = make([]schema.Member, len(v.Members))
		for i, m := range v.Members {
			c.Members[i] = schema.Member{Name: m.Name, Value: clone(m.Value)}
		}
	}
	return &c
}
