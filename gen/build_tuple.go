package gen

import (
	"strconv"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/schema"
)

// tupleType types an array schema with prefixItems (draft-07: items as an
// array): a struct with a field per position (Item0, Item1, ...) and Rest
// for the elements after them. A position below minItems is a value; a
// later one is optional like an optional member (a pointer, or nil).
func (b *builder) tupleType(s *schema.Schema, name string) *ir.Type {
	// The node may already be another type (a multi-kind value whose
	// array kind this is): only a tuple made for it is this type.
	interned, taken := b.intern.typeAt(s.Pointer)
	if taken && s.Pointer != "" && interned.Kind == ir.TDecl {
		if _, ok := interned.Decl.(*ir.Tuple); ok {
			return interned
		}
	}
	if !b.claim(name, s.Pointer) {
		return &ir.Type{Kind: ir.TRaw}
	}
	tu := &ir.Tuple{
		DeclInfo:    ir.DeclInfo{Name: name, Doc: b.docText(name, s), Pointer: s.Pointer}, // defType names the definition
		RestKeyword: s.ItemsKeyword,
		MinItems:    s.MinItems,
		MaxItems:    s.MaxItems,
	}
	if tu.RestKeyword == "" {
		tu.RestKeyword = "items"
	}
	t := &ir.Type{Kind: ir.TDecl, Decl: tu}
	if s.Pointer != "" && !taken {
		b.intern.setTypeAt(s.Pointer, t)
	}
	b.add(tu)
	required := 0
	if s.MinItems != nil {
		required = int(min(*s.MinItems, int64(len(s.PrefixItems))))
	}
	for i, ps := range s.PrefixItems {
		idx := strconv.Itoa(i)
		f := &ir.Field{Name: "Item" + idx, JSONName: idx, Required: i < required, Doc: b.docText("", ps)}
		f.Type = b.typeOf(ps, derive(name, "Item"+idx))
		b.fieldSchema[f] = ps
		tu.Items = append(tu.Items, f)
	}
	switch it := s.Items; {
	case it == nil || (it.IsBool && it.BoolValue) || (!it.IsBool && it.IsEmpty()):
		tu.Rest, tu.RestType = "Rest", &ir.Type{Kind: ir.TRaw}
	case it.IsFalse():
		// No element may follow the positions.
	default:
		tu.Rest, tu.RestType = "Rest", b.typeOf(it, derive(name, "Rest"))
	}
	return t
}
