package gen

import (
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/schema"
)

// Dynamic references ($dynamicRef, docs/references.md). The Go types
// follow their static targets (Schema.Ref). The validators follow the
// dynamic scope, which the generated code does not track at run time:
// the builder tracks it while it makes the checks. A check is made per
// node and per dynamic scope the node is reached in, where a scope is
// what matters of it: for each dynamic anchor name, the anchor of the
// outermost resource entered so far that has one (the outermost wins, so
// entering a resource only binds names still unbound). A schema without
// dynamic references has only the empty scope, and one check per node.
//
// A type whose checks reach a $dynamicRef (Document.Dynamic) is validated
// as a whole, on its JSON encoding, in its own scope (Whole), never by the
// Validate methods of the types of its members, which know only theirs.

// dynScope is a dynamic scope: the bound anchor names, sorted, and their
// anchors. nil is the empty scope.
type dynScope struct {
	names []string
	to    []*schema.Schema
	key   string
}

// enterScope is sc after entering resource r.
func (b *builder) enterScope(sc *dynScope, r *schema.Resource) *dynScope {
	if r == nil || len(r.Dynamic) == 0 {
		return sc
	}
	var add []string
	for n := range r.Dynamic {
		if sc.bound(n) == nil {
			add = append(add, n)
		}
	}
	if len(add) == 0 {
		return sc
	}
	out := &dynScope{}
	if sc != nil {
		out.names, out.to = append(out.names, sc.names...), append(out.to, sc.to...)
	}
	for _, n := range add {
		out.names = append(out.names, n)
		out.to = append(out.to, r.Dynamic[n])
	}
	sort.Sort(scopeOrder{out})
	var key strings.Builder
	for i, n := range out.names {
		key.WriteString(n)
		key.WriteByte(0)
		key.WriteString(out.to[i].Pointer)
		key.WriteByte(0)
	}
	out.key = key.String()
	if prev, ok := b.scopes[out.key]; ok {
		return prev
	}
	if b.scopes == nil {
		b.scopes = map[string]*dynScope{}
	}
	b.scopes[out.key] = out
	return out
}

type scopeOrder struct{ *dynScope }

func (s scopeOrder) Len() int           { return len(s.names) }
func (s scopeOrder) Less(i, j int) bool { return s.names[i] < s.names[j] }
func (s scopeOrder) Swap(i, j int) {
	s.names[i], s.names[j] = s.names[j], s.names[i]
	s.to[i], s.to[j] = s.to[j], s.to[i]
}

// bound is the anchor sc binds name to, or nil.
func (sc *dynScope) bound(name string) *schema.Schema {
	if sc == nil {
		return nil
	}
	for i, n := range sc.names {
		if n == name {
			return sc.to[i]
		}
	}
	return nil
}

// resolve is what the reference of s leads to in scope sc: for a
// $dynamicRef whose name sc binds, the bound anchor; else the static
// target.
func (sc *dynScope) resolve(s *schema.Schema) *schema.Schema {
	if s.Dynamic != nil {
		if a := sc.bound(s.Dynamic.Name); a != nil {
			return a
		}
	}
	return s.Ref
}

// allChecks lists every check made, in every scope.
func (in *interner) allChecks() []*ir.Check {
	out := make([]*ir.Check, 0, len(in.checks))
	for _, c := range in.checks {
		out = append(out, c)
	}
	for _, m := range in.scoped {
		for _, c := range m {
			out = append(out, c)
		}
	}
	return out
}

// reachesDynamic reports whether the checks of s reach a $dynamicRef the
// validators resolve in the dynamic scope (only in a document where one
// may resolve to more than one anchor).
func (b *builder) reachesDynamic(s *schema.Schema) bool {
	if s == nil || !b.doc.Dynamic {
		return false
	}
	if v, ok := b.dynamicMemo[s]; ok {
		return v
	}
	if b.dynamicMemo == nil {
		b.dynamicMemo = map[*schema.Schema]bool{}
	}
	seen := map[*schema.Schema]bool{}
	var walk func(x *schema.Schema) bool
	walk = func(x *schema.Schema) bool {
		if x == nil || seen[x] {
			return false
		}
		seen[x] = true
		if v, ok := b.dynamicMemo[x]; ok {
			return v
		}
		if x.Dynamic != nil {
			return true
		}
		for _, src := range b.sources[x] {
			if walk(src) {
				return true
			}
		}
		for _, c := range x.Subschemas() {
			if walk(c) {
				return true
			}
		}
		return false
	}
	v := walk(s)
	if !v {
		// Nothing below any node the walk met reaches one either.
		for x := range seen {
			b.dynamicMemo[x] = false
		}
	}
	b.dynamicMemo[s] = v
	return v
}

// ownScope reports whether s, a $ref alone, must be a type of its own
// rather than another name for its target's: its checks reach a
// $dynamicRef, so its scope as an entry point may resolve it otherwise
// than its target's does (or than a chain of such references does).
func (b *builder) ownScope(s *schema.Schema) bool {
	return s.Ref != nil && b.reachesDynamic(s)
}

// entryScope reports whether s, a $ref alone, is validated as an entry
// point in its own dynamic scope (ownScope): a definition being typed,
// or a merge standing for one; a use site inside a type is checked by
// the whole of that type.
func (b *builder) entryScope(s *schema.Schema) bool {
	_, merged := b.sources[s]
	return (b.self[s] || merged) && b.ownScope(s)
}
