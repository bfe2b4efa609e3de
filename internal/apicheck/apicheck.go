// Package apicheck records the public surface of mcpgen: every exported
// name of every public package, one line each, in the style of Go's own
// api/ files:
//
//	pkg github.com/mcpgen/mcpgen/runtime/spec, const CodeInvalidParams = -32602
//	pkg github.com/mcpgen/mcpgen/runtime/spec, const CodeInvalidParams ideal-int
//	pkg github.com/mcpgen/mcpgen/runtime/jsonrpc, func NewPeer(...) *Peer
//	pkg github.com/mcpgen/mcpgen/runtime/codec, method (*Decoder) Init([]uint8)
//	pkg github.com/mcpgen/mcpgen/runtime/codec, type Decoder struct, Pos int
//
// The listings are checked in under api/ at the repository's root, one
// file per package (api/runtime/spec.txt, api/generated/mcp20260728.txt,
// api/auth.txt, ...). TestAPI fails with a diff when a package's surface
// differs from its file; after a change that is meant, regenerate them
// with
//
//	make api
//
// (go test ./internal/apicheck -run TestAPI -update). TestDocComments
// checks what staticcheck's ST1020-ST1022 leave out, the generated files:
// every exported declaration's doc comment starts with its name.
//
// The packages are read from the export data the go command builds (go
// list -export), with go/types and go/importer; apicheck has no API for
// other programs.
package apicheck

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
)

// Listing returns the lines that record the exported names of pkg, sorted.
func Listing(pkg *types.Package) []string {
	l := lister{pkg: pkg, prefix: "pkg " + pkg.Path() + ", "}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			l.add("const %s = %s", name, obj.Val().ExactString())
			l.add("const %s %s", name, l.constType(obj.Type()))
		case *types.Var:
			l.add("var %s %s", name, l.typ(obj.Type()))
		case *types.Func:
			l.add("func %s%s", name, l.signature(obj.Type().(*types.Signature)))
		case *types.TypeName:
			l.typeName(obj)
		}
	}
	slices.Sort(l.lines)
	return slices.Compact(l.lines)
}

type lister struct {
	pkg    *types.Package
	prefix string
	lines  []string
}

func (l *lister) add(format string, args ...any) {
	l.lines = append(l.lines, l.prefix+fmt.Sprintf(format, args...))
}

// qualifier writes other packages by name, as the code that uses them
// does, and this package's names bare.
func (l *lister) qualifier(p *types.Package) string {
	if p == l.pkg {
		return ""
	}
	return p.Name()
}

func (l *lister) typ(t types.Type) string { return types.TypeString(t, l.qualifier) }

// constType is the type of a constant, an untyped one as Go's api files
// write it (ideal-int, ideal-string, ...).
func (l *lister) constType(t types.Type) string {
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		switch b.Kind() {
		case types.UntypedBool:
			return "ideal-bool"
		case types.UntypedInt:
			return "ideal-int"
		case types.UntypedRune:
			return "ideal-char"
		case types.UntypedFloat:
			return "ideal-float"
		case types.UntypedComplex:
			return "ideal-complex"
		case types.UntypedString:
			return "ideal-string"
		}
	}
	return l.typ(t)
}

// signature is a function's type without the func keyword and without
// the names of its parameters and results, which are no part of the
// surface: "[T any](T, int) (T, error)".
func (l *lister) signature(sig *types.Signature) string {
	var b strings.Builder
	if tps := sig.TypeParams(); tps != nil && tps.Len() > 0 {
		b.WriteString(l.typeParams(tps))
	}
	b.WriteString("(")
	for i := range sig.Params().Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		t := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			b.WriteString("..." + l.typ(t.(*types.Slice).Elem()))
			continue
		}
		b.WriteString(l.typ(t))
	}
	b.WriteString(")")
	switch n := sig.Results().Len(); n {
	case 0:
	case 1:
		b.WriteString(" " + l.typ(sig.Results().At(0).Type()))
	default:
		b.WriteString(" (")
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(l.typ(sig.Results().At(i).Type()))
		}
		b.WriteString(")")
	}
	return b.String()
}

func (l *lister) typeParams(tps *types.TypeParamList) string {
	parts := make([]string, tps.Len())
	for i := range tps.Len() {
		tp := tps.At(i)
		parts[i] = tp.Obj().Name() + " " + l.typ(tp.Constraint())
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// typeName records a type: its kind (or what it is an alias of), its
// exported fields or interface methods, and its exported methods, those
// promoted from embedded types included.
func (l *lister) typeName(obj *types.TypeName) {
	name := obj.Name()
	if obj.IsAlias() {
		l.add("type %s = %s", name, l.typ(types.Unalias(obj.Type())))
		return
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		l.add("type %s %s", name, l.typ(obj.Type()))
		return
	}
	decl := name
	if tps := named.TypeParams(); tps != nil && tps.Len() > 0 {
		decl += l.typeParams(tps)
	}
	switch u := named.Underlying().(type) {
	case *types.Struct:
		l.add("type %s struct", decl)
		for f := range u.Fields() {
			if !f.Exported() {
				continue
			}
			if f.Embedded() {
				l.add("type %s struct, embedded %s", decl, l.typ(f.Type()))
			} else {
				l.add("type %s struct, %s %s", decl, f.Name(), l.typ(f.Type()))
			}
		}
	case *types.Interface:
		var names []string
		for m := range u.Methods() {
			if m.Exported() {
				names = append(names, m.Name())
				l.add("type %s interface, %s%s", decl, m.Name(), l.signature(m.Type().(*types.Signature)))
			} else {
				names = append(names, "unexported methods")
			}
		}
		for e := range u.EmbeddedTypes() {
			if _, isIface := e.Underlying().(*types.Interface); !isIface {
				names = append(names, l.typ(e)) // a constraint's type set
			}
		}
		slices.Sort(names)
		names = slices.Compact(names)
		l.add("type %s interface { %s }", decl, strings.Join(names, ", "))
		return // its methods are listed above
	default:
		l.add("type %s %s", decl, l.typ(u))
	}
	// The method sets of T and *T: a method of *T only is listed with a
	// pointer receiver.
	valueSet := types.NewMethodSet(named)
	ptrSet := types.NewMethodSet(types.NewPointer(named))
	for sel := range ptrSet.Methods() {
		m := sel.Obj().(*types.Func)
		if !m.Exported() {
			continue
		}
		recv := "*" + decl
		if valueSet.Lookup(m.Pkg(), m.Name()) != nil {
			recv = decl
		}
		l.add("method (%s) %s%s", recv, m.Name(), l.signature(m.Type().(*types.Signature)))
	}
}
