package gen

import (
	"slices"

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
// each node once, so that recursive schemas become a cyclic graph.
func (b *builder) check(s *schema.Schema) *ir.Check {
	if s == nil {
		return nil
	}
	if c, ok := b.intern.checks[s]; ok {
		return c
	}
	c := &ir.Check{Pointer: s.Pointer, IsBool: s.IsBool, Accept: s.BoolValue}
	b.intern.checks[s] = c
	if s.IsBool {
		return c
	}
	c.Ref = b.check(s.Ref)
	c.AllOf, c.AnyOf, c.OneOf = b.checkList(s.AllOf), b.checkList(s.AnyOf), b.checkList(s.OneOf)
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
		c.Properties = append(c.Properties, &ir.CheckProperty{Name: p.Name, Check: b.check(p.Schema)})
	}
	if s.Properties != nil && c.Properties == nil {
		c.Properties = []*ir.CheckProperty{}
	}
	c.Required = s.Required
	c.AdditionalProperties = b.check(s.AdditionalProperties)
	c.Items = b.check(s.Items)
	c.MinItems, c.MaxItems = s.MinItems, s.MaxItems
	if slices.Contains(knownFormats, s.Format) {
		c.Format = s.Format
	}
	c.MinLength, c.MaxLength, c.Pattern = s.MinLength, s.MaxLength, s.Pattern
	c.Minimum, c.Maximum = s.Minimum, s.Maximum
	c.ExclusiveMinimum, c.ExclusiveMaximum = s.ExclusiveMinimum, s.ExclusiveMaximum
	return c
}

func (b *builder) checkList(ss []*schema.Schema) []*ir.Check {
	if ss == nil {
		return nil
	}
	out := make([]*ir.Check, len(ss))
	for i, s := range ss {
		out[i] = b.check(s)
	}
	return out
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
}

func newInterner() *interner {
	return &interner{types: map[string]*ir.Type{}, enums: map[string]*ir.Enum{}, checks: map[*schema.Schema]*ir.Check{}}
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
