package gen

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/schema"
)

// This file turns allOf (and, in draft 2020-12, a $ref with sibling
// keywords) into one schema: the intersection of its parts, which is what a
// single Go type can represent.

// hasConstraints reports whether s has any keyword besides $ref and
// annotations.
func hasConstraints(s *schema.Schema) bool {
	c := *s
	c.Ref, c.RefPointer = nil, ""
	c.Description, c.Title, c.Default, c.Deprecated = "", "", nil, false
	c.Name, c.Pointer, c.Ignored = "", "", nil
	return !c.IsEmpty() || c.IsBool
}

// withoutRef returns a copy of s without its $ref.
func withoutRef(s *schema.Schema) *schema.Schema {
	c := *s
	c.Ref, c.RefPointer = nil, ""
	return &c
}

// flatten resolves s into a schema with no allOf and no $ref-with-siblings.
// A $ref alone is kept (it names a type).
func (b *builder) flatten(s *schema.Schema) (*schema.Schema, error) {
	if s.IsBool {
		return s, nil
	}
	if s.Ref != nil && (hasConstraints(s) || b.entryScope(s)) {
		return b.mergeAll(s, []*schema.Schema{s.Ref, withoutRef(s)}, []*schema.Schema{s})
	}
	if len(s.AllOf) > 0 {
		rest := *s
		rest.AllOf = nil
		// A part that only names a schema another part names too adds
		// nothing (allOf [U, U] is U).
		var parts []*schema.Schema
		named := map[*schema.Schema]bool{}
		for _, p := range s.AllOf {
			if t := refTarget(p); t != nil {
				if named[t] {
					continue
				}
				named[t] = true
			}
			parts = append(parts, p)
		}
		if hasConstraints(&rest) || rest.Ref != nil {
			parts = append(parts, &rest)
		}
		return b.mergeAll(s, parts, []*schema.Schema{s})
	}
	return s, nil
}

// refTarget is the schema a part that is only a $ref (through a chain of
// them) names, or nil.
func refTarget(p *schema.Schema) *schema.Schema {
	var t *schema.Schema
	for i := 0; p.Ref != nil && !hasConstraints(p) && len(p.AllOf) == 0 && i < 1000; i++ {
		t, p = p.Ref, p.Ref
	}
	return t
}

// mergeAll intersects parts; the result carries at's pointer and
// description, and stands for the schemas sources.
func (b *builder) mergeAll(at *schema.Schema, parts, sources []*schema.Schema) (*schema.Schema, error) {
	out := &schema.Schema{IsBool: true, BoolValue: true}
	for _, p := range parts {
		var err error
		out, err = b.merge(at.Pointer, out, p, 0)
		if err != nil {
			return nil, err
		}
	}
	m := *out
	m.Pointer = at.Pointer
	m.Resource = at.Resource // its checks start in at's dynamic scope
	m.Name = ""
	if at.Description != "" {
		m.Description = at.Description
	}
	if at.Deprecated {
		m.Deprecated = true
	}
	b.sources[&m] = sources
	return &m, nil
}

// deref follows a $ref that has no siblings and flattens allOf.
func (b *builder) deref(s *schema.Schema, depth int) (*schema.Schema, error) {
	for i := 0; ; i++ {
		if i > 100 || depth > 100 {
			return nil, fmt.Errorf("allOf/$ref nesting too deep")
		}
		f, err := b.flatten(s)
		if err != nil {
			return nil, err
		}
		if f.Ref != nil && !hasConstraints(f) {
			s = f.Ref
			continue
		}
		return f, nil
	}
}

// merge intersects x and y (at is the pointer the result gets): after
// the shortcuts (anything, nothing), each group of keywords is merged by
// its own function.
func (b *builder) merge(at string, x, y *schema.Schema, depth int) (*schema.Schema, error) {
	// depth counts this merge's own nesting; mergeDepth all the merges
	// in progress (a recursive schema can start a new one through
	// flatten, forever).
	b.mergeDepth++
	defer func() { b.mergeDepth-- }()
	if depth > 50 || b.mergeDepth > 200 {
		return nil, fmt.Errorf("allOf at %s nests too deep to merge", at)
	}
	// Intersecting with "anything" changes nothing: keep the other side as
	// written, $ref included, so it still names its type.
	if isTrue(x) {
		return y, nil
	}
	if isTrue(y) {
		return x, nil
	}
	var err error
	if x, err = b.deref(x, depth+1); err != nil {
		return nil, err
	}
	if y, err = b.deref(y, depth+1); err != nil {
		return nil, err
	}
	if isTrue(x) || x == y {
		return y, nil
	}
	if isTrue(y) {
		return x, nil
	}
	if x.IsFalse() || y.IsFalse() {
		return &schema.Schema{IsBool: true, Pointer: at}, nil
	}
	out := &schema.Schema{Pointer: at, Description: x.Description, Deprecated: x.Deprecated || y.Deprecated}
	if out.Description == "" {
		out.Description = y.Description
	}
	m := merger{b: b, at: at, x: x, y: y, out: out, depth: depth}
	for _, step := range []func() error{m.types, m.object, m.array, m.applicators, m.constEnum, m.bounds, m.strings} {
		if err := step(); err != nil {
			var none noValue
			if errors.As(err, &none) {
				// Nothing can satisfy both (a draft of MCP had such an
				// allOf): the intersection is false, said so, and the
				// sources say how a value fails them.
				b.warnf(at, "allOf: %s, so no value is valid here: the generated code rejects any (a member can only be absent)", strings.TrimPrefix(err.Error(), "allOf at "+at+": "))
				out = &schema.Schema{IsBool: true, Pointer: at}
				break
			}
			return nil, err
		}
	}
	b.sources[out] = append(b.sourcesOf(x), b.sourcesOf(y)...)
	return out, nil
}

// sourcesOf returns the schemas s stands for: its sources when it was
// merged, else itself.
func (b *builder) sourcesOf(s *schema.Schema) []*schema.Schema {
	if srcs, ok := b.sources[s]; ok {
		return slices.Clone(srcs)
	}
	return []*schema.Schema{s}
}

// noValue is a merge that no value can satisfy (two types, two consts,
// two enums with nothing in common): the merged schema is false.
type noValue struct{ error }

// merger merges the keywords of x and y into out, one group per method.
type merger struct {
	b         *builder
	at        string
	x, y, out *schema.Schema
	depth     int
}

func (m *merger) cannot(what string) error {
	return fmt.Errorf("allOf combines %s of %s and %s, which mcpgen cannot merge into one Go type", what, m.x.Pointer, m.y.Pointer)
}

// types intersects "type" (an integer is a number).
func (m *merger) types() error {
	x, y := m.x, m.y
	switch {
	case x.Types == nil:
		m.out.Types = y.Types
	case y.Types == nil:
		m.out.Types = x.Types
	default:
		m.out.Types = []string{}
		for _, t := range x.Types {
			switch {
			case slices.Contains(y.Types, t):
				m.out.Types = append(m.out.Types, t)
			case t == "integer" && slices.Contains(y.Types, "number"):
				m.out.Types = append(m.out.Types, t)
			case t == "number" && slices.Contains(y.Types, "integer"):
				m.out.Types = append(m.out.Types, "integer")
			}
		}
		if len(m.out.Types) == 0 {
			return noValue{fmt.Errorf("allOf at %s: no value has both type %v (%s) and type %v (%s)", m.at, x.Types, x.Pointer, y.Types, y.Pointer)}
		}
	}
	return nil
}

// object merges properties (each name gets the intersection of what both
// sides say about it; a side that does not declare it applies its
// additionalProperties), additionalProperties and required.
func (m *merger) object() error {
	x, y := m.x, m.y
	if x.Properties != nil || y.Properties != nil {
		m.out.Properties = []*schema.Property{}
		var names []string
		for _, s := range []*schema.Schema{x, y} {
			for _, p := range s.Properties {
				if !slices.Contains(names, p.Name) {
					names = append(names, p.Name)
				}
			}
		}
		for _, n := range names {
			ps, err := m.b.merge(m.at+"/properties/"+schema.EscapePointer(n), propSchema(x, n), propSchema(y, n), m.depth+1)
			if err != nil {
				return err
			}
			m.out.Properties = append(m.out.Properties, &schema.Property{Name: n, Schema: ps})
		}
	}
	m.out.PatternProperties = append(slices.Clone(x.PatternProperties), y.PatternProperties...)
	if m.out.PatternProperties == nil && (x.PatternProperties != nil || y.PatternProperties != nil) {
		m.out.PatternProperties = []*schema.PatternProperty{}
	}
	if x.AdditionalProperties != nil || y.AdditionalProperties != nil {
		ap, err := m.b.merge(m.at+"/additionalProperties", orTrue(x.AdditionalProperties), orTrue(y.AdditionalProperties), m.depth+1)
		if err != nil {
			return err
		}
		if !(ap.IsBool && ap.BoolValue) {
			m.out.AdditionalProperties = ap
		}
	}
	m.out.Required = sortedUnique(append(slices.Clone(x.Required), y.Required...))
	if len(m.out.Required) == 0 {
		m.out.Required = nil
	}
	return nil
}

// array merges prefixItems (position by position; a side without one
// applies its items there), items and the item counts.
func (m *merger) array() error {
	x, y := m.x, m.y
	for i := range max(len(x.PrefixItems), len(y.PrefixItems)) {
		p, err := m.b.merge(m.at+"/prefixItems/"+strconv.Itoa(i), position(x, i), position(y, i), m.depth+1)
		if err != nil {
			return err
		}
		m.out.PrefixItems = append(m.out.PrefixItems, p)
	}
	if x.Items != nil || y.Items != nil {
		it, err := m.b.merge(m.at+"/items", orTrue(x.Items), orTrue(y.Items), m.depth+1)
		if err != nil {
			return err
		}
		m.out.Items, m.out.ItemsKeyword = it, x.ItemsKeyword
		if m.out.ItemsKeyword == "" {
			m.out.ItemsKeyword = y.ItemsKeyword
		}
	}
	m.out.MinItems = intMax(x.MinItems, y.MinItems)
	m.out.MaxItems = intMin(x.MaxItems, y.MaxItems)
	return nil
}

// position is what s says about the array element at index i.
func position(s *schema.Schema, i int) *schema.Schema {
	if i < len(s.PrefixItems) {
		return s.PrefixItems[i]
	}
	return orTrue(s.Items)
}

// applicators keeps the anyOf or oneOf of one side (two are an error);
// allOf was flattened before.
func (m *merger) applicators() error {
	x, y := m.x, m.y
	if (x.AnyOf != nil || x.OneOf != nil) && (y.AnyOf != nil || y.OneOf != nil) {
		return m.cannot("two anyOf/oneOf lists")
	}
	m.out.AnyOf = pick(x.AnyOf, y.AnyOf)
	m.out.OneOf = pick(x.OneOf, y.OneOf)
	return nil
}

// constEnum intersects const and enum.
func (m *merger) constEnum() error {
	x, y := m.x, m.y
	switch {
	case x.Const != nil && y.Const != nil:
		if !schema.Equal(x.Const, y.Const) {
			return noValue{fmt.Errorf("allOf at %s: const %s (%s) and const %s (%s) cannot both hold", m.at, x.Const.JSON(), x.Pointer, y.Const.JSON(), y.Pointer)}
		}
		m.out.Const = x.Const
	default:
		m.out.Const = pick1(x.Const, y.Const)
	}
	switch {
	case x.Enum != nil && y.Enum != nil:
		for _, v := range x.Enum {
			for _, w := range y.Enum {
				if schema.Equal(v, w) {
					m.out.Enum = append(m.out.Enum, v)
					break
				}
			}
		}
		if len(m.out.Enum) == 0 {
			return noValue{fmt.Errorf("allOf at %s: the enums of %s and %s share no value", m.at, x.Pointer, y.Pointer)}
		}
	default:
		m.out.Enum = pick(x.Enum, y.Enum)
	}
	return nil
}

// bounds keeps the tighter of each numeric bound, and the least common
// multiple of two multipleOf.
func (m *merger) bounds() error {
	x, y := m.x, m.y
	m.out.Minimum = numMax(x.Minimum, y.Minimum)
	m.out.ExclusiveMinimum = numMax(x.ExclusiveMinimum, y.ExclusiveMinimum)
	m.out.Maximum = numMin(x.Maximum, y.Maximum)
	m.out.ExclusiveMaximum = numMin(x.ExclusiveMaximum, y.ExclusiveMaximum)
	m.out.MultipleOf = pick1(x.MultipleOf, y.MultipleOf)
	if x.MultipleOf != nil && y.MultipleOf != nil {
		l := lcmRat(*x.MultipleOf, *y.MultipleOf)
		m.out.MultipleOf = &l
	}
	return nil
}

// lcmRat is the least common multiple of two positive numbers (as text):
// a value is a multiple of both exactly when it is a multiple of it. For
// fractions in lowest terms, lcm(a/b, c/d) = lcm(a, c) / gcd(b, d).
func lcmRat(x, y string) string {
	a, _ := new(big.Rat).SetString(x)
	c, _ := new(big.Rat).SetString(y)
	if a.Cmp(c) == 0 {
		return x
	}
	g := new(big.Int).GCD(nil, nil, a.Num(), c.Num())
	l := new(big.Int).Mul(a.Num(), c.Num())
	l.Div(l, g)
	den := new(big.Int).GCD(nil, nil, a.Denom(), c.Denom())
	r := new(big.Rat).SetFrac(l, den)
	if r.IsInt() {
		return r.Num().String()
	}
	// A terminating decimal: both denominators divide a power of ten.
	return r.FloatString(decimals(r))
}

// decimals is the number of decimal places r needs (its denominator
// divides a power of ten).
func decimals(r *big.Rat) int {
	d := new(big.Int).Set(r.Denom())
	ten := big.NewInt(10)
	n := 0
	for d.Cmp(big.NewInt(1)) != 0 && n < 400 {
		g := new(big.Int).GCD(nil, nil, d, ten)
		if g.Cmp(big.NewInt(1)) == 0 {
			break
		}
		d.Div(d, g)
		n++
	}
	return n
}

// strings merges the string keywords: lengths, pattern and format (two
// different patterns or formats cannot be one Go type's).
func (m *merger) strings() error {
	x, y := m.x, m.y
	m.out.MinLength = intMax(x.MinLength, y.MinLength)
	m.out.MaxLength = intMin(x.MaxLength, y.MaxLength)
	if x.Pattern != nil && y.Pattern != nil && *x.Pattern != *y.Pattern {
		return m.cannot("two patterns")
	}
	m.out.Pattern = pick1(x.Pattern, y.Pattern)
	if x.Format != "" && y.Format != "" && x.Format != y.Format {
		return m.cannot("two formats")
	}
	m.out.Format = x.Format
	if m.out.Format == "" {
		m.out.Format = y.Format
	}
	return nil
}

// isTrue reports whether s accepts everything (true, {}, annotations only).
func isTrue(s *schema.Schema) bool {
	if s.IsBool {
		return s.BoolValue
	}
	return s.IsEmpty() && s.Ref == nil
}

// propSchema is what s says about member name, as far as the Go type
// goes: its property, else additionalProperties unless a pattern of
// patternProperties may take the member (then anything: the validators
// check the patterns).
func propSchema(s *schema.Schema, name string) *schema.Schema {
	if p := s.Prop(name); p != nil {
		return p
	}
	for _, pp := range s.PatternProperties {
		if pp.Unsupported || patternMatches(pp.Pattern, name) {
			return trueSchema
		}
	}
	return orTrue(s.AdditionalProperties)
}

// patternMatches reports whether the ECMA-262 pattern p matches name with
// Go's regexp (as the validators match it).
func patternMatches(p, name string) bool {
	src, _, err := schema.GoPattern(p)
	if err != nil || src == "" {
		return true // unknown: as if it matched
	}
	re, err := regexp.Compile(src)
	return err != nil || re.MatchString(name)
}

var trueSchema = &schema.Schema{IsBool: true, BoolValue: true}

func orTrue(s *schema.Schema) *schema.Schema {
	if s == nil {
		return trueSchema
	}
	return s
}

func pick[T any](a, b []T) []T {
	if a != nil {
		return a
	}
	return b
}

func pick1[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

func numMax(a, b *string) *string {
	if a == nil || b != nil && schema.NumberCmp(*b, *a) > 0 {
		return b
	}
	return a
}

func numMin(a, b *string) *string {
	if a == nil || b != nil && schema.NumberCmp(*b, *a) < 0 {
		return b
	}
	return a
}

func intMax(a, b *int64) *int64 {
	if a == nil || b != nil && *b > *a {
		return b
	}
	return a
}

func intMin(a, b *int64) *int64 {
	if a == nil || b != nil && *b < *a {
		return b
	}
	return a
}

func sortedUnique(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// canonical renders the constraints of s (not its annotations) as text, so
// that two schemas that accept the same documents by construction compare
// equal. A $ref renders as its target's pointer.
func canonical(s *schema.Schema) string {
	var b strings.Builder
	canon(&b, s, 0)
	return b.String()
}

func canon(b *strings.Builder, s *schema.Schema, depth int) {
	if s == nil {
		b.WriteString("nil")
		return
	}
	if depth > 30 {
		b.WriteString("deep")
		return
	}
	if s.IsBool {
		fmt.Fprintf(b, "%v", s.BoolValue)
		return
	}
	b.WriteByte('{')
	if s.Ref != nil {
		b.WriteString("$ref:" + s.Ref.Pointer + ";")
	}
	fmt.Fprintf(b, "type:%q;", s.Types)
	if s.Properties != nil {
		b.WriteString("properties:")
		for _, p := range s.Properties {
			fmt.Fprintf(b, "%q:", p.Name)
			canon(b, p.Schema, depth+1)
		}
		b.WriteByte(';')
	}
	fmt.Fprintf(b, "required:%q;", s.Required)
	if s.AdditionalProperties != nil {
		b.WriteString("additionalProperties:")
		canon(b, s.AdditionalProperties, depth+1)
	}
	if s.Items != nil {
		b.WriteString("items:")
		canon(b, s.Items, depth+1)
	}
	for _, l := range []struct {
		n  string
		ss []*schema.Schema
	}{{"anyOf", s.AnyOf}, {"oneOf", s.OneOf}, {"allOf", s.AllOf}} {
		if l.ss != nil {
			b.WriteString(l.n + ":[")
			for _, c := range l.ss {
				canon(b, c, depth+1)
			}
			b.WriteString("];")
		}
	}
	if s.Const != nil {
		b.WriteString("const:" + s.Const.JSON() + ";")
	}
	for _, v := range s.Enum {
		b.WriteString("enum:" + v.JSON() + ";")
	}
	for _, n := range []struct {
		k string
		v *string
	}{{"min", s.Minimum}, {"max", s.Maximum}, {"xmin", s.ExclusiveMinimum}, {"xmax", s.ExclusiveMaximum}, {"pattern", s.Pattern}} {
		if n.v != nil {
			fmt.Fprintf(b, "%s:%q;", n.k, *n.v)
		}
	}
	for _, n := range []struct {
		k string
		v *int64
	}{{"minItems", s.MinItems}, {"maxItems", s.MaxItems}, {"minLength", s.MinLength}, {"maxLength", s.MaxLength}} {
		if n.v != nil {
			fmt.Fprintf(b, "%s:%d;", n.k, *n.v)
		}
	}
	if s.Format != "" {
		fmt.Fprintf(b, "format:%q;", s.Format)
	}
	// The keywords beyond the ones above, each with its subschemas.
	sub := func(k string, c *schema.Schema) {
		if c != nil {
			b.WriteString(k + ":")
			canon(b, c, depth+1)
			b.WriteByte(';')
		}
	}
	sub("not", s.Not)
	if s.If != nil {
		sub("if", s.If)
		sub("then", s.Then)
		sub("else", s.Else)
	}
	sub("propertyNames", s.PropertyNames)
	sub("unevaluatedProperties", s.UnevaluatedProperties)
	if s.Contains != nil {
		sub("contains", s.Contains)
		for _, n := range []struct {
			k string
			v *int64
		}{{"minContains", s.MinContains}, {"maxContains", s.MaxContains}} {
			if n.v != nil {
				fmt.Fprintf(b, "%s:%d;", n.k, *n.v)
			}
		}
	}
	sub("unevaluatedItems", s.UnevaluatedItems)
	for _, pp := range s.PatternProperties {
		sub("pattern "+strconv.Quote(pp.Pattern), pp.Schema)
	}
	for _, d := range s.Dependencies {
		fmt.Fprintf(b, "%s %q:%q;", d.Keyword, d.Name, d.Required)
		sub("", d.Schema)
	}
	if s.PrefixItems != nil {
		b.WriteString("prefixItems:[")
		for _, p := range s.PrefixItems {
			canon(b, p, depth+1)
		}
		b.WriteString("];")
	}
	for _, n := range []struct {
		k string
		v *int64
	}{{"minProperties", s.MinProperties}, {"maxProperties", s.MaxProperties}} {
		if n.v != nil {
			fmt.Fprintf(b, "%s:%d;", n.k, *n.v)
		}
	}
	if s.MultipleOf != nil {
		fmt.Fprintf(b, "multipleOf:%q;", *s.MultipleOf)
	}
	if s.UniqueItems {
		b.WriteString("uniqueItems;")
	}
	if s.Inexact {
		b.WriteString("inexact;")
	}
	b.WriteByte('}')
}

// findCanonical records the canonical text of every definition that is
// not an alias, for sameAsDef.
func (b *builder) findCanonical() {
	for _, d := range b.doc.Defs {
		if d.Ref != nil && !hasConstraints(d) {
			continue // an alias; its target is the one to match
		}
		c := canonical(d)
		if _, ok := b.canon[c]; !ok {
			b.canon[c] = d
		}
	}
}

// sameAsDef returns the definition that an inline schema repeats word for
// word (ignoring descriptions), or nil. The inline copy then uses the
// definition's type instead of declaring another.
func (b *builder) sameAsDef(s *schema.Schema) *schema.Schema {
	if _, merged := b.sources[s]; s.Name != "" || merged {
		// A merged schema's canonical text leaves out what the merge
		// leaves to its sources (not, if, ...): it is never a copy.
		return nil
	}
	return b.canon[canonical(s)]
}
