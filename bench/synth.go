package bench

import (
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/schema"
)

// Synthetic returns a schema document with n renamed copies of every
// definition of schemaJSON: copy k of definition D is "Copy<k>D", and
// every "$ref" inside copy k that points into the definitions is rewritten
// to point to the same copy. The copies are as independent of each other
// as the definitions of the original are, so generating the synthetic
// schema is n times the work of generating the original, unless the
// generator's cost grows faster than its input.
func Synthetic(schemaJSON []byte, n int) ([]byte, error) {
	root, err := schema.Parse(schemaJSON)
	if err != nil {
		return nil, err
	}
	if root.Kind != schema.Object {
		return nil, fmt.Errorf("synthetic: the schema is not an object")
	}
	defsKey := "$defs"
	if root.Get(defsKey) == nil {
		defsKey = "definitions"
	}
	defs := root.Get(defsKey)
	if defs == nil || defs.Kind != schema.Object || len(defs.Members) == 0 {
		return nil, fmt.Errorf("synthetic: the schema has no %s", defsKey)
	}
	prefix := "#/" + defsKey + "/"
	out := &schema.Value{Kind: schema.Object}
	for _, m := range root.Members {
		if m.Name != defsKey {
			out.Members = append(out.Members, m)
			continue
		}
		all := &schema.Value{Kind: schema.Object}
		for k := 0; k < n; k++ {
			name := fmt.Sprintf("Copy%d", k)
			for _, d := range defs.Members {
				all.Members = append(all.Members, schema.Member{Name: name + d.Name, Value: rename(d.Value, prefix, name)})
			}
		}
		out.Members = append(out.Members, schema.Member{Name: defsKey, Value: all})
	}
	return []byte(out.JSON()), nil
}

// rename deep-copies v, rewriting "$ref": "<prefix>D..." to
// "<prefix><name>D...".
func rename(v *schema.Value, prefix, name string) *schema.Value {
	c := &schema.Value{Kind: v.Kind, Bool: v.Bool, Num: v.Num, Str: v.Str}
	for _, it := range v.Items {
		c.Items = append(c.Items, rename(it, prefix, name))
	}
	for _, m := range v.Members {
		mv := rename(m.Value, prefix, name)
		if m.Name == "$ref" && mv.Kind == schema.String && strings.HasPrefix(mv.Str, prefix) {
			mv.Str = prefix + name + strings.TrimPrefix(mv.Str, prefix)
		}
		c.Members = append(c.Members, schema.Member{Name: m.Name, Value: mv})
	}
	return c
}

// The schemas of the generator's scaling benchmarks (issue 14): each is
// small to write and large in one dimension, so that a cost that grows
// faster than the input shows.

// EnumSchema is one definition, a string enum of n values.
func EnumSchema(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"E":{"type":"string","enum":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"v%d"`, i)
	}
	b.WriteString(`]}}}`)
	return []byte(b.String())
}

// RefChainSchema is n definitions, each a "$ref" to the next, and the
// object the last one names.
func RefChainSchema(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `"D%d":{"$ref":"#/definitions/D%d"},`, i, i+1)
	}
	fmt.Fprintf(&b, `"D%d":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}}`, n)
	return []byte(b.String())
}

// NestingSchema is one definition holding n levels of inline objects, each
// the "child" member of the one above.
func NestingSchema(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"N":`)
	for i := 0; i < n; i++ {
		b.WriteString(`{"type":"object","properties":{"name":{"type":"string"},"child":`)
	}
	b.WriteString(`{"type":"string"}`)
	for i := 0; i < n; i++ {
		b.WriteString(`},"required":["name"]}`)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// DefinitionsSchema is n object definitions, each with a string, an
// optional integer, an inline object and a "$ref" to the next one.
func DefinitionsSchema(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"D%d":{"type":"object","properties":{"a":{"type":"string"},"n":{"type":"integer","minimum":0},`+
			`"o":{"type":"object","properties":{"x":{"type":"boolean"}}},"next":{"$ref":"#/definitions/D%d"}},"required":["a"]}`, i, (i+1)%n)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}
