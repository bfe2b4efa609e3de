package gen

import (
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/schema"
)

// Options say what to generate. The zero value of the customisations
// generates everything with the default names.
type Options struct {
	Package  string // Go package name
	Revision string
	Source   SourceInfo
	// Rename gives definitions other Go names (definition -> Go name).
	Rename map[string]string
	// External maps definitions to existing Go types (definition -> type),
	// used instead of generating one. They must encode and decode
	// themselves with encoding/json; a Validate() error method, if they
	// have one, is called by the generated validators.
	External map[string]ExternalType
	// NoValidators leaves out Validate and the validation code.
	NoValidators bool
	// NoDispatcher leaves out the method table, handlers and dispatchers.
	NoDispatcher bool
}

// ExternalType is an existing Go type: import path and name.
type ExternalType struct {
	ImportPath string
	Name       string
}

// Build turns a loaded schema into the IR of its Go package. Errors are
// schema.Errors naming the file and JSON pointer of each problem;
// warnings come back separately.
func Build(doc *schema.Document, opts Options) (*Package, []*schema.Diagnostic, error) {
	b := &builder{
		doc:      doc,
		opts:     opts,
		owners:   map[string]string{},
		byPtr:    map[string]*Type{},
		defNames: map[*schema.Schema]string{},
		enums:    map[string]*Enum{},
	}
	pkg := b.build()
	if len(b.errs) > 0 {
		return nil, b.warns, b.errs
	}
	return pkg, b.warns, nil
}

type builder struct {
	doc      *schema.Document
	opts     Options
	errs     schema.Errors
	warns    []*schema.Diagnostic
	owners   map[string]string // Go name -> pointer that claimed it
	decls    []Decl
	byPtr    map[string]*Type          // schema pointer -> its type, for schemas that declare one
	defNames map[*schema.Schema]string // definition -> Go name
	shared   map[string]string         // enum key -> shared Go name
	enums    map[string]*Enum          // enum key -> shared declaration
	opaque   map[*schema.Schema]bool   // definitions kept as raw JSON
	building map[*schema.Schema]bool   // definitions being built (for recursion)
	defTypes map[*schema.Schema]*Type  // finished or started definition types
	canon    map[string]*schema.Schema // canonical text -> first definition with it
	self     map[*schema.Schema]bool   // definitions whose own schema is being typed
}

func (b *builder) errorf(ptr, format string, args ...any) {
	b.errs = append(b.errs, &schema.Diagnostic{File: b.doc.File, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
}

func (b *builder) warnf(ptr, format string, args ...any) {
	b.warns = append(b.warns, &schema.Diagnostic{File: b.doc.File, Pointer: ptr, Message: fmt.Sprintf(format, args...)})
}

func (b *builder) build() *Package {
	b.building = map[*schema.Schema]bool{}
	b.defTypes = map[*schema.Schema]*Type{}
	b.self = map[*schema.Schema]bool{}
	// Decide every definition's Go name first: they are the contract.
	for name := range b.opts.Rename {
		if b.doc.Def(name) == nil {
			b.errorf("", "rename: the schema has no definition %q", name)
		}
	}
	for name := range b.opts.External {
		if b.doc.Def(name) == nil {
			b.errorf("", "external type: the schema has no definition %q", name)
		}
	}
	for _, d := range b.doc.Defs {
		if ext, ok := b.opts.External[d.Name]; ok {
			if !token.IsIdentifier(ext.Name) || !token.IsExported(ext.Name) || ext.ImportPath == "" {
				b.errorf(d.Pointer, "external type %q for %s is not an import path and an exported type name", ext.ImportPath+"."+ext.Name, d.Name)
			}
			b.defNames[d] = ext.Name
			continue
		}
		var name string
		var err error
		if to, ok := b.opts.Rename[d.Name]; ok {
			name = to
			if !token.IsIdentifier(to) || !token.IsExported(to) {
				err = fmt.Errorf("rename: %q (for %s) is not an exported Go identifier", to, d.Name)
			}
		} else {
			name, err = definitionGoName(d.Name)
		}
		if err != nil {
			b.errorf(d.Pointer, "%v", err)
			continue
		}
		if b.claim(name, d.Pointer) {
			b.defNames[d] = name
		}
	}
	if len(b.errs) > 0 {
		return nil
	}
	b.findSharedEnums()
	b.findOpaque()
	for _, d := range b.doc.Defs {
		b.defType(d)
	}
	if len(b.errs) > 0 {
		return nil
	}
	sort.Slice(b.decls, func(i, j int) bool { return b.decls[i].GoName() < b.decls[j].GoName() })
	for _, d := range b.decls {
		if u, ok := d.(*Union); ok {
			b.planUnion(u)
		}
	}
	var protocol *Protocol
	if !b.opts.NoDispatcher {
		protocol = b.buildProtocol()
	}
	if protocol != nil && b.opts.NoValidators {
		b.errorf("", "the dispatcher needs the validators: leave out both (dispatcher and validators) or neither")
		protocol = nil
	}
	if protocol != nil {
		for _, n := range protocolNames() {
			if prev, ok := b.owners[n]; ok {
				b.errorf(prev, "Go name %s is reserved for the generated dispatcher (rename the definition)", n)
			}
		}
	}
	return &Package{
		Name:       b.opts.Package,
		Revision:   b.opts.Revision,
		Source:     b.opts.Source,
		Decls:      b.decls,
		Protocol:   protocol,
		Validators: !b.opts.NoValidators,
	}
}

// claim reserves a Go name for the schema node at ptr. A second claim is
// an error naming both.
func (b *builder) claim(name, ptr string) bool {
	if prev, ok := b.owners[name]; ok {
		if prev == ptr {
			return true
		}
		b.errorf(ptr, "Go name %s is already taken by %s; two schema names map to it (rename one)", name, displayPtr(prev))
		return false
	}
	for _, r := range reservedNames {
		if name == r {
			b.errorf(ptr, "Go name %s is reserved for the generated package's own API (rename the definition)", name)
			return false
		}
	}
	b.owners[name] = ptr
	return true
}

// reservedNames are exported names the runtime declares in every package.
var reservedNames = []string{"Violation", "ValidationError", "SyntaxError", "EncodeError", "ProtocolVersion",
	"Member", "Members", "Value", "NewValue", "Definitions", "UnmarshalAndValidate"}

func displayPtr(p string) string {
	if p == "" {
		return "the document root"
	}
	return p
}

func (b *builder) add(d Decl) {
	b.decls = append(b.decls, d)
}

// defType returns the type of a definition, building its declaration the
// first time.
func (b *builder) defType(d *schema.Schema) *Type {
	if t, ok := b.defTypes[d]; ok {
		return t
	}
	name := b.defNames[d]
	if ext, ok := b.opts.External[d.Name]; ok {
		t := &Type{Kind: TExternal, Ext: &ext}
		b.defTypes[d] = t
		return t
	}
	info := DeclInfo{Name: name, Doc: b.docText(name, d), Pointer: d.Pointer, Definition: d.Name}
	if b.opaque[d] {
		r := &Raw{DeclInfo: info, Schema: d}
		t := &Type{Kind: TDecl, Decl: r}
		b.defTypes[d] = t
		b.add(r)
		return t
	}
	// A definition that is just a $ref to another is an alias.
	if d.Ref != nil && !hasConstraints(d) {
		if b.building[d] {
			b.errorf(d.Pointer, "$ref cycle through %s cannot be represented", d.Name)
			return &Type{Kind: TRaw}
		}
		b.building[d] = true
		target := b.typeOf(d.Ref, b.nameForPointer(d.Ref.Pointer))
		delete(b.building, d)
		if target.Kind == TDecl {
			a := &Alias{DeclInfo: info, Target: target}
			t := &Type{Kind: TDecl, Decl: a}
			b.defTypes[d] = t
			b.add(a)
			return t
		}
		n := &Named{DeclInfo: info, Type: target}
		t := &Type{Kind: TDecl, Decl: n}
		b.defTypes[d] = t
		b.add(n)
		return t
	}
	// Otherwise the definition's schema declares the type itself.
	b.self[d] = true
	t := b.typeOf(d, name)
	delete(b.self, d)
	if t.Kind == TDecl && t.Decl.GoName() == name {
		t.Decl.info().Definition = d.Name
		if t.Decl.info().Doc == "" || t.Decl.info().Pointer != d.Pointer {
			t.Decl.info().Doc = b.docText(name, d)
		}
		b.defTypes[d] = t
		return t
	}
	if _, ok := t.Decl.(*Union); ok && t.Kind == TDecl {
		// A union is an interface: another name for it is an alias.
		a := &Alias{DeclInfo: info, Target: t}
		at := &Type{Kind: TDecl, Decl: a}
		b.defTypes[d] = at
		b.add(a)
		return at
	}
	n := &Named{DeclInfo: info, Type: t}
	nt := &Type{Kind: TDecl, Decl: n}
	b.defTypes[d] = nt
	b.add(n)
	b.namedConsts(n, d)
	return nt
}

// nameForPointer derives the Go name of the inline schema at ptr from its
// location: the definition's Go name, then one word per step.
func (b *builder) nameForPointer(ptr string) string {
	parts := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	if len(parts) < 2 {
		return "Root"
	}
	var name string
	for _, d := range b.doc.Defs {
		if d.Pointer == "/"+parts[0]+"/"+parts[1] {
			name = b.defNames[d]
		}
	}
	if name == "" {
		name = camel(words(schema.UnescapePointer(parts[1])))
	}
	for i := 2; i < len(parts); i++ {
		switch parts[i] {
		case "properties":
			if i+1 < len(parts) {
				i++
				n, err := propertyGoName(schema.UnescapePointer(parts[i]))
				if err != nil {
					n = camel(words(parts[i]))
				}
				name += n
			}
		case "items":
			name += "Item"
		case "additionalProperties":
			name += "Value"
		case "anyOf", "oneOf", "allOf":
			i++ // the index; the JSON type is added by the union builder
		}
	}
	return name
}

// typeOf returns the Go type for schema s at a use site. name is the Go
// name a declaration for s would get.
func (b *builder) typeOf(s *schema.Schema, name string) *Type {
	// A definition reached directly (not through $ref, e.g. after an allOf
	// merge kept it as is) is still its own type.
	if s.Name != "" && b.isDef(s) && !b.self[s] {
		return b.defType(s)
	}
	if s.IsBool {
		if s.BoolValue {
			return &Type{Kind: TRaw}
		}
		return &Type{Kind: TRaw, C: Constraints{Raw: s}}
	}
	// A $ref alone names a type.
	if s.Ref != nil && !hasConstraints(s) {
		if s.Ref.Name != "" && b.isDef(s.Ref) {
			return b.defType(s.Ref)
		}
		return b.typeOf(s.Ref, b.nameForPointer(s.Ref.Pointer))
	}
	if t, ok := b.byPtr[s.Pointer]; ok && s.Pointer != "" {
		return t
	}
	if (s.Ref != nil) || len(s.AllOf) > 0 {
		m, err := b.flatten(s)
		if err != nil {
			b.errorf(s.Pointer, "%v", err)
			return &Type{Kind: TRaw}
		}
		return b.typeOf(m, name)
	}
	if s.IsEmpty() {
		return &Type{Kind: TRaw}
	}
	if len(s.AnyOf) > 0 || len(s.OneOf) > 0 {
		return b.unionType(s, name)
	}
	if s.Const != nil {
		return b.constType(s)
	}
	if s.Enum != nil {
		return b.enumType(s, name)
	}
	if len(s.Types) == 0 {
		// No type: every JSON kind is allowed and the other keywords apply
		// to the kinds they are about. Only raw bytes can hold that.
		b.warnf(s.Pointer, "schema has constraints but no \"type\"; it is kept as raw JSON (json.RawMessage) and validated as such")
		return &Type{Kind: TRaw, C: Constraints{Raw: s}}
	}
	if len(s.Types) > 1 {
		return b.kindsType(s, name, nil)
	}
	return b.singleType(s, s.Types[0], name)
}

func (b *builder) isDef(s *schema.Schema) bool {
	_, ok := b.defNames[s]
	return ok
}

// singleType types a schema with one JSON type.
func (b *builder) singleType(s *schema.Schema, typ, name string) *Type {
	switch typ {
	case "string":
		return &Type{Kind: TString, C: Constraints{Format: b.format(s), MinLength: s.MinLength, MaxLength: s.MaxLength, Pattern: s.Pattern}}
	case "integer":
		return &Type{Kind: TInt, C: numConstraints(s)}
	case "number":
		return &Type{Kind: TFloat, C: numConstraints(s)}
	case "boolean":
		return &Type{Kind: TBool}
	case "null":
		return &Type{Kind: TRaw, C: Constraints{Raw: s}}
	case "array":
		elem := &Type{Kind: TRaw}
		if s.Items != nil {
			elem = b.typeOf(s.Items, name+"Item")
		}
		return &Type{Kind: TSlice, Elem: elem, C: Constraints{MinItems: s.MinItems, MaxItems: s.MaxItems}}
	case "object":
		return b.objectType(s, name)
	}
	b.errorf(s.Pointer, "unsupported type %q", typ)
	return &Type{Kind: TRaw}
}

func numConstraints(s *schema.Schema) Constraints {
	return Constraints{Minimum: s.Minimum, Maximum: s.Maximum, ExclusiveMinimum: s.ExclusiveMinimum, ExclusiveMaximum: s.ExclusiveMaximum}
}

// formats the generated runtime can check.
var knownFormats = []string{"uri", "iri", "uri-reference", "iri-reference", "uriref", "uri-template", "byte", "ip-address",
	"date-time", "date", "time", "duration", "period", "hostname", "email", "ipv4", "ipv6",
	"uuid", "json-pointer", "relative-json-pointer", "regex"}

func (b *builder) format(s *schema.Schema) string {
	if s.Format == "" {
		return ""
	}
	if !slices.Contains(knownFormats, s.Format) {
		b.warnf(s.Pointer+"/format", "format %q is not known; it is not checked (the reference validator ignores unknown formats too)", s.Format)
		return ""
	}
	return s.Format
}

// objectType types an object schema: a struct when it declares
// properties, a map when it only constrains its members' values, raw JSON
// when it allows anything.
func (b *builder) objectType(s *schema.Schema, name string) *Type {
	if len(s.Properties) == 0 && len(s.Required) == 0 {
		ap := s.AdditionalProperties
		if ap == nil || (ap.IsBool && ap.BoolValue) || (!ap.IsBool && ap.IsEmpty()) {
			return &Type{Kind: TRaw, C: Constraints{Raw: s}}
		}
		if ap.IsFalse() {
			return &Type{Kind: TRaw, C: Constraints{Raw: s}}
		}
		return &Type{Kind: TMap, Elem: b.typeOf(ap, name+"Value")}
	}
	return b.structType(s, name)
}

func (b *builder) structType(s *schema.Schema, name string) *Type {
	if !b.claim(name, s.Pointer) {
		return &Type{Kind: TRaw}
	}
	st := &Struct{DeclInfo: DeclInfo{Name: name, Doc: b.docText(name, s), Pointer: s.Pointer, Definition: s.Name}}
	t := &Type{Kind: TDecl, Decl: st}
	if s.Pointer != "" {
		b.byPtr[s.Pointer] = t
	}
	if s.Name != "" {
		b.defTypes[s] = t
	}
	b.add(st)
	goNames := map[string]string{} // Go field name -> JSON name
	use := func(goName, jsonName, ptr string) bool {
		if prev, ok := goNames[goName]; ok {
			b.errorf(ptr, "properties %q and %q of %s both map to the Go field %s (rename one)", prev, jsonName, name, goName)
			return false
		}
		goNames[goName] = jsonName
		return true
	}
	capability := b.inCapabilities(s)
	addField := func(jsonName string, ps *schema.Schema, required bool, ptr string) {
		f := &Field{JSONName: jsonName, Required: required, Doc: b.docText("", ps)}
		goName, err := propertyGoName(jsonName)
		if err != nil {
			b.errorf(ptr, "property %v", err)
			return
		}
		cs, err := b.deref(ps, 0)
		if err == nil && cs.Const != nil && !cs.IsBool {
			f.Const = cs.Const
			f.Type = b.constType(cs)
			if !required {
				f.Name = goName
			}
		} else {
			f.Name = goName
			f.Type = b.memberType(jsonName, ps)
			if f.Type == nil && capability {
				f.Type = b.openCapability(ps, name+goName)
			}
			if f.Type == nil {
				f.Type = b.typeOf(ps, name+goName)
			}
		}
		if f.Name != "" && !use(f.Name, jsonName, ptr) {
			return
		}
		if f.Name == "" {
			// A required const has no field, but its name must not be
			// taken by another property either.
			if !use(goName, jsonName, ptr) {
				return
			}
		}
		st.Fields = append(st.Fields, f)
	}
	for _, p := range s.Properties {
		addField(p.Name, p.Schema, s.IsRequired(p.Name), p.Schema.Pointer)
	}
	// A required member that properties does not declare still has to be
	// there; its value follows additionalProperties.
	for _, r := range s.Required {
		if s.Prop(r) == nil {
			addField(r, orTrue(s.AdditionalProperties), true, s.Pointer+"/required")
		}
	}
	ap := s.AdditionalProperties
	switch {
	case ap != nil && ap.IsFalse():
		st.Extra = nil
	case ap == nil || (ap.IsBool && ap.BoolValue) || ap.IsEmpty():
		st.Extra = &Extra{Name: "Extra", Value: &Type{Kind: TRaw}}
	default:
		st.Extra = &Extra{Name: "Extra", Value: b.typeOf(ap, name+"Value")}
	}
	b.memberNames(st)
	return t
}

// structMethods are the methods every generated struct has.
var structMethods = []string{"MarshalJSON", "AppendJSON", "UnmarshalJSON", "Validate"}

// helperMethods are the methods a protocol fact adds to a struct with the
// member: resultType gets EffectiveResultType, ttlMs gets TTL and Fresh.
var helperMethods = map[string][]string{
	"resultType": {"EffectiveResultType"},
	"ttlMs":      {"TTL", "Fresh"},
}

// memberNames settles the names of st's fields and getters. The type's
// own names come first: its methods, the Extra field, the protocol
// helpers and the getters. A property whose Go name is one of them gets
// "Member" appended (`validate` is ValidateMember, `extra` ExtraMember,
// `getName` next to `name` GetNameMember); if that name is taken too, the
// two properties are an error naming both.
func (b *builder) memberNames(st *Struct) {
	taken := map[string]bool{}
	for _, m := range structMethods {
		taken[m] = true
	}
	if st.Extra != nil {
		taken[st.Extra.Name] = true
	}
	for _, f := range st.Fields {
		for _, m := range helperMethods[f.JSONName] {
			taken[m] = true
		}
	}
	// Renaming a field renames its getter, which may take another
	// property's name; a few rounds settle it (each lengthens a name).
	for round := 0; ; round++ {
		getters := map[string]bool{}
		for _, f := range st.Fields {
			if f.Name != "" && hasGetter(f) {
				getters["Get"+f.Name] = true
			}
		}
		changed := false
		for _, f := range st.Fields {
			if f.Name != "" && (taken[f.Name] || getters[f.Name]) && round < 8 {
				f.Name += "Member"
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	owner := map[string]*Field{}
	for _, f := range st.Fields {
		if f.Name == "" {
			continue
		}
		if prev, ok := owner[f.Name]; ok {
			b.errorf(st.Pointer+"/properties/"+schema.EscapePointer(f.JSONName), "properties %q and %q of %s both map to the Go field %s (rename one)", prev.JSONName, f.JSONName, st.Name, f.Name)
			continue
		}
		owner[f.Name] = f
		if hasGetter(f) {
			f.Getter = "Get" + f.Name
		}
	}
	for _, f := range st.Fields {
		if f.Getter == "" {
			continue
		}
		if o, ok := owner[f.Getter]; ok || taken[f.Getter] {
			what := "a method of the type"
			if ok {
				what = fmt.Sprintf("the field of property %q", o.JSONName)
			}
			b.errorf(st.Pointer+"/properties/"+schema.EscapePointer(f.JSONName), "the getter %s of property %q of %s is %s (rename one)", f.Getter, f.JSONName, st.Name, what)
		}
	}
}

// hasGetter reports whether f gets a nil-safe getter: an optional scalar
// (a pointer to a string, number, boolean or a named type of one).
func hasGetter(f *Field) bool {
	if !f.Pointer() {
		return false
	}
	t := f.Type.Resolve()
	switch t.Kind {
	case TString, TInt, TFloat, TBool:
		return true
	case TDecl:
		switch d := t.Decl.(type) {
		case *Enum:
			return true
		case *Named:
			k := d.Type.Resolve().Kind
			return k == TString || k == TInt || k == TFloat || k == TBool
		}
	}
	return false
}

// constType types a const value: the Go type of its kind, restricted to
// the value.
func (b *builder) constType(s *schema.Schema) *Type {
	c := s.Const
	t := &Type{C: Constraints{Const: c}}
	switch c.Kind {
	case schema.String:
		t.Kind = TString
	case schema.Bool:
		t.Kind = TBool
	case schema.Number:
		if schema.IsInteger(c.Num) {
			t.Kind = TInt
		} else {
			t.Kind = TFloat
		}
	default:
		t.Kind = TRaw
		t.C.Raw = s
	}
	return t
}

// enumType types an enum: a named type with constants when every value is
// a string (or every value an integer); raw JSON checked against the list
// otherwise.
func (b *builder) enumType(s *schema.Schema, name string) *Type {
	allStrings, allInts := true, true
	for _, v := range s.Enum {
		allStrings = allStrings && v.Kind == schema.String
		allInts = allInts && v.Kind == schema.Number && schema.IsInteger(v.Num)
	}
	typeOK := func(want ...string) bool {
		if s.Types == nil {
			return true
		}
		for _, t := range s.Types {
			if slices.Contains(want, t) {
				return true
			}
		}
		return false
	}
	var base Kind
	switch {
	case allStrings && typeOK("string"):
		base = KString
	case allInts && typeOK("integer", "number"):
		base = KInt
	default:
		return &Type{Kind: TRaw, C: Constraints{Raw: s}}
	}
	key := enumKey(s)
	sharedName, isShared := b.shared[key]
	if isShared {
		if e, ok := b.enums[key]; ok {
			return &Type{Kind: TDecl, Decl: e}
		}
		name = sharedName
	} else if t, ok := b.byPtr[s.Pointer]; ok {
		return t
	}
	if !b.claim(name, s.Pointer) {
		return &Type{Kind: TRaw}
	}
	e := &Enum{DeclInfo: DeclInfo{Name: name, Doc: b.docText(name, s), Pointer: s.Pointer, Definition: s.Name}, Base: base}
	consts := map[string]string{}
	for _, v := range s.Enum {
		var word string
		if base == KString && v.Str == "" {
			word = "Empty" // the empty string is a value like any other
		} else if base == KString {
			w, err := propertyGoName(v.Str)
			if err != nil {
				b.errorf(s.Pointer+"/enum", "enum value %v", err)
				continue
			}
			word = w
		} else {
			word = strings.ReplaceAll(v.Num, "-", "Minus")
		}
		cn := name + word
		if prev, ok := consts[cn]; ok {
			b.errorf(s.Pointer+"/enum", "enum values %s and %s both map to the Go constant %s", prev, v.JSON(), cn)
			continue
		}
		if !b.claim(cn, s.Pointer+"/enum") {
			continue
		}
		consts[cn] = v.JSON()
		e.Values = append(e.Values, &EnumValue{Name: cn, Value: v})
	}
	t := &Type{Kind: TDecl, Decl: e}
	if isShared {
		b.enums[key] = e
	} else {
		b.byPtr[s.Pointer] = t
	}
	if s.Name != "" {
		b.defTypes[s] = t
	}
	b.add(e)
	return t
}

// enumKey identifies an inline enum by property name and values.
func enumKey(s *schema.Schema) string {
	parts := strings.Split(s.Pointer, "/")
	prop := parts[len(parts)-1]
	var vals []string
	for _, v := range s.Enum {
		vals = append(vals, v.JSON())
	}
	return prop + "\x00" + strings.Join(vals, "\x00")
}

// findSharedEnums finds inline enums that repeat, with the same values,
// under the same property name in several places.
func (b *builder) findSharedEnums() {
	b.shared = map[string]string{}
	count := map[string]map[string]bool{}
	var order []string
	seen := map[*schema.Schema]bool{}
	var walk func(s *schema.Schema)
	walk = func(s *schema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		for _, p := range s.Properties {
			ps := p.Schema
			if ps.Enum != nil && ps.Ref == nil && ps.Name == "" {
				k := enumKey(ps)
				if count[k] == nil {
					count[k] = map[string]bool{}
					order = append(order, k)
				}
				count[k][ps.Pointer] = true
			}
			walk(ps)
		}
		walk(s.Items)
		walk(s.AdditionalProperties)
		for _, l := range [][]*schema.Schema{s.AnyOf, s.OneOf, s.AllOf} {
			for _, c := range l {
				walk(c)
			}
		}
	}
	for _, d := range b.doc.Defs {
		walk(d)
	}
	for _, k := range order {
		if len(count[k]) < 2 {
			continue
		}
		prop := schema.UnescapePointer(strings.SplitN(k, "\x00", 2)[0])
		name, err := propertyGoName(prop)
		if err != nil {
			continue
		}
		b.shared[k] = name
	}
}

// findOpaque marks the definitions that stay raw JSON: those on a $ref
// cycle that passes through no "properties" (free-form recursive JSON such
// as JSONValue and JSONObject).
func (b *builder) findOpaque() {
	b.opaque = map[*schema.Schema]bool{}
	edges := map[*schema.Schema][]*schema.Schema{}
	for _, d := range b.doc.Defs {
		if len(d.Properties) > 0 {
			continue
		}
		var refs []*schema.Schema
		var walk func(s *schema.Schema, depth int)
		walk = func(s *schema.Schema, depth int) {
			if s == nil || depth > 50 || len(s.Properties) > 0 {
				return
			}
			if s.Ref != nil {
				if b.isDef(s.Ref) {
					refs = append(refs, s.Ref)
				} else {
					walk(s.Ref, depth+1)
				}
			}
			walk(s.Items, depth+1)
			walk(s.AdditionalProperties, depth+1)
			for _, l := range [][]*schema.Schema{s.AnyOf, s.OneOf, s.AllOf} {
				for _, c := range l {
					walk(c, depth+1)
				}
			}
		}
		walk(d, 0)
		edges[d] = refs
	}
	// A definition is opaque when it can reach itself.
	for _, d := range b.doc.Defs {
		seen := map[*schema.Schema]bool{}
		stack := slices.Clone(edges[d])
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n == d {
				b.opaque[d] = true
				break
			}
			if seen[n] {
				continue
			}
			seen[n] = true
			stack = append(stack, edges[n]...)
		}
	}
}
