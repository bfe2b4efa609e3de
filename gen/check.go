package gen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/schema"
)

// This file turns schema nodes into the IR's plain data: JSON values, and
// the checks of raw JSON (a graph that mirrors the schema's validation
// keywords, $ref resolved).

// value is the IR form of a JSON value.
func value(v *schema.Value) *ir.Value {
	if v == nil {
		return nil
	}
	out := &ir.Value{Bool: v.Bool, Num: v.Num, Str: v.Str, JSON: v.JSON()}
	switch v.Kind {
	case schema.Null:
		out.Kind = ir.Null
	case schema.Bool:
		out.Kind = ir.Bool
	case schema.Number:
		out.Kind = ir.Number
	case schema.String:
		out.Kind = ir.String
	case schema.Array:
		out.Kind = ir.Array
	case schema.Object:
		out.Kind = ir.Object
	}
	return out
}

func values(vs []*schema.Value) []*ir.Value {
	if vs == nil {
		return nil
	}
	out := make([]*ir.Value, len(vs))
	for i, v := range vs {
		out[i] = value(v)
	}
	return out
}

// check returns the IR check of schema node s (nil for nil), converting
// each node once, so that recursive schemas become a cyclic graph. s is
// checked as an entry point: its dynamic scope starts with its resource
// (dynamic.go).
func (b *builder) check(s *schema.Schema) *ir.Check {
	if s == nil {
		return nil
	}
	return b.checkIn(s, b.enterScope(nil, s.Resource))
}

// checkIn is check in the dynamic scope sc (nil when no dynamic anchor
// is bound, which is every scope of a schema without dynamic references:
// then each node has one check).
func (b *builder) checkIn(s *schema.Schema, sc *dynScope) *ir.Check {
	if s == nil {
		return nil
	}
	memo := b.intern.checks
	if sc != nil {
		memo = b.intern.scoped[sc.key]
		if memo == nil {
			memo = map[*schema.Schema]*ir.Check{}
			b.intern.scoped[sc.key] = memo
		}
	}
	if c, ok := memo[s]; ok {
		return c
	}
	// sub is the check of a subschema of s: its resource joins the scope.
	sub := func(x *schema.Schema) *ir.Check {
		if x == nil {
			return nil
		}
		return b.checkIn(x, b.enterScope(sc, x.Resource))
	}
	subs := func(xs []*schema.Schema) []*ir.Check {
		if xs == nil {
			return nil
		}
		out := make([]*ir.Check, len(xs))
		for i, x := range xs {
			out[i] = sub(x)
		}
		return out
	}
	if srcs, ok := b.sources[s]; ok {
		// A merged schema (allOf, $ref with siblings): validation follows
		// the schemas it stands for, as written.
		if len(srcs) == 1 {
			c := sub(srcs[0])
			memo[s] = c
			return c
		}
		c := &ir.Check{Pointer: s.Pointer}
		memo[s] = c
		c.AllOf = subs(srcs)
		return c
	}
	c := &ir.Check{Pointer: s.Pointer, IsBool: s.IsBool, Accept: s.BoolValue}
	memo[s] = c
	if s.IsBool {
		return c
	}
	c.Ref = sub(sc.resolve(s))
	c.AllOf, c.AnyOf, c.OneOf = subs(s.AllOf), subs(s.AnyOf), subs(s.OneOf)
	if s.Types != nil {
		c.Types = []ir.Kind{}
		for _, t := range s.Types {
			if k, ok := ir.KindOfType(t); ok && !slices.Contains(c.Types, k) {
				c.Types = append(c.Types, k)
			}
		}
	}
	c.Const, c.Enum = value(s.Const), values(s.Enum)
	for _, p := range s.Properties {
		c.Properties = append(c.Properties, &ir.CheckProperty{Name: p.Name, Check: sub(p.Schema)})
	}
	if s.Properties != nil && c.Properties == nil {
		c.Properties = []*ir.CheckProperty{}
	}
	c.Required = s.Required
	c.AdditionalProperties = sub(s.AdditionalProperties)
	for _, pp := range s.PatternProperties {
		if pp.Unsupported {
			c.UnknownPatterns = true
			continue
		}
		src, _, _ := schema.GoPattern(pp.Pattern)
		c.PatternProperties = append(c.PatternProperties, &ir.CheckPattern{Pattern: src, Text: pp.Pattern, Check: sub(pp.Schema)})
	}
	c.PropertyNames = sub(s.PropertyNames)
	c.MinProperties, c.MaxProperties = s.MinProperties, s.MaxProperties
	for _, d := range s.Dependencies {
		c.Dependencies = append(c.Dependencies, &ir.CheckDependency{Keyword: d.Keyword, Name: d.Name, Required: d.Required, Check: sub(d.Schema)})
	}
	c.UnevaluatedProperties = sub(s.UnevaluatedProperties)
	c.PrefixItems = subs(s.PrefixItems)
	c.Items, c.ItemsKeyword = sub(s.Items), s.ItemsKeyword
	c.MinItems, c.MaxItems = s.MinItems, s.MaxItems
	c.Contains = sub(s.Contains)
	c.MinContains, c.MaxContains = s.MinContains, s.MaxContains
	c.UniqueItems = s.UniqueItems
	c.UnevaluatedItems = sub(s.UnevaluatedItems)
	c.Format = b.checkedFormat(s.Format)
	c.MinLength, c.MaxLength = s.MinLength, s.MaxLength
	if s.Pattern != nil {
		src, _, _ := schema.GoPattern(*s.Pattern)
		c.Pattern, c.PatternText = &src, *s.Pattern
	}
	c.Minimum, c.Maximum = s.Minimum, s.Maximum
	c.ExclusiveMinimum, c.ExclusiveMaximum = s.ExclusiveMinimum, s.ExclusiveMaximum
	c.MultipleOf = s.MultipleOf
	c.Not = sub(s.Not)
	if s.If != nil {
		c.If, c.Then, c.Else = sub(s.If), sub(s.Then), sub(s.Else)
	}
	c.Inexact = s.Inexact
	return c
}

// checkedFormat is the format the validators check for format f: "" for
// an unknown format (the reference validator ignores those too) and for
// every format when formats are annotations.
func (b *builder) checkedFormat(f string) string {
	if b.opts.Formats == FormatsAnnotate || !knownFormat(f) {
		return ""
	}
	return f
}

// markInexact spreads Inexact from every check to the checks that contain
// it, to a fixed point (the graph has cycles through $ref), and warns
// about each keyword that negates an inexact check and is therefore not
// enforced (so that the validators never reject more than the schema).
func (b *builder) markInexact() {
	all := b.intern.allChecks()
	for changed := true; changed; {
		changed = false
		for _, c := range all {
			if c.Inexact || c.IsBool {
				continue
			}
			for _, x := range c.Children() {
				if x.Inexact {
					c.Inexact, changed = true, true
					break
				}
			}
		}
	}
	warned := map[string]bool{}
	warn := func(ptr, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if !warned[ptr+msg] {
			warned[ptr+msg] = true
			b.warnf(ptr, "%s", msg)
		}
	}
	checks := slices.Clone(all)
	slices.SortFunc(checks, func(x, y *ir.Check) int { return strings.Compare(x.Pointer, y.Pointer) })
	for _, c := range checks {
		const why = "uses a keyword mcpgen cannot enforce"
		if c.Not != nil && c.Not.Inexact {
			warn(c.Pointer+"/not", "\"not\" is not enforced: its schema %s", why)
		}
		if c.If != nil && c.If.Inexact && c.Then != nil && c.Else != nil {
			warn(c.Pointer+"/if", "the schema of \"if\" %s; a value it matches must be valid against \"then\" or \"else\"", why)
		}
		if c.If != nil && c.If.Inexact && c.Then != nil && c.Else == nil {
			warn(c.Pointer+"/if", "the schema of \"if\" %s; \"then\" is not enforced", why)
		}
		if c.If != nil && c.If.Inexact && c.Then == nil && c.Else != nil {
			warn(c.Pointer+"/if", "the schema of \"if\" %s; \"else\" applies only to values it rejects for certain", why)
		}
		if c.Contains != nil && c.Contains.Inexact && c.MaxContains != nil {
			warn(c.Pointer+"/maxContains", "\"maxContains\" is not enforced: the schema of \"contains\" %s", why)
		}
		for i, br := range c.OneOf {
			if br.Inexact {
				warn(fmt.Sprintf("%s/oneOf/%d", c.Pointer, i), "this branch %s: it does not count as a second match of \"oneOf\"", why)
			}
		}
	}
}

// interner remembers what the builder made of each schema node, so that a
// node becomes one type and one check however often it is reached (and a
// recursive schema refers to itself). A type is kept under the node's JSON
// pointer: a definition's under its own, an inline schema's under where it
// sits; an enum that several properties repeat is kept under its values.
type interner struct {
	types  map[string]*ir.Type
	enums  map[string]*ir.Enum
	checks map[*schema.Schema]*ir.Check
	// scoped holds the checks made in a dynamic scope that binds some
	// dynamic anchor, by the scope's key.
	scoped map[string]map[*schema.Schema]*ir.Check
}

func newInterner() *interner {
	return &interner{types: map[string]*ir.Type{}, enums: map[string]*ir.Enum{}, checks: map[*schema.Schema]*ir.Check{}, scoped: map[string]map[*schema.Schema]*ir.Check{}}
}

// typeAt returns the type made for the node at ptr.
func (in *interner) typeAt(ptr string) (*ir.Type, bool) {
	t, ok := in.types[ptr]
	return t, ok
}

func (in *interner) setTypeAt(ptr string, t *ir.Type) { in.types[ptr] = t }

// enum returns the shared enum with the given key (enumKey).
func (in *interner) enum(key string) (*ir.Enum, bool) {
	e, ok := in.enums[key]
	return e, ok
}

func (in *interner) setEnum(key string, e *ir.Enum) { in.enums[key] = e }
