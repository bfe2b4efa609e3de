package gen

import (
	"cmp"
	"fmt"
	"go/token"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/schema"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/codec"
)

// Options say what to generate. The zero value of the customisations
// generates everything with the default names.
type Options struct {
	Package  string // Go package name
	Revision string // names the revision (and by default the package)
	// ProtocolVersion is the protocolVersion the package speaks (its
	// ProtocolVersion constant); "" means Revision, as for the dated
	// revisions, whose names are their versions.
	ProtocolVersion string
	Source          ir.SourceInfo
	// Rename gives definitions other Go names (definition -> Go name).
	Rename map[string]string
	// External maps definitions to existing Go types (definition -> type),
	// used instead of generating one. They must encode and decode
	// themselves with encoding/json; a Validate() error method, if they
	// have one, is called by the generated validators.
	External map[string]ir.ExternalType
	// NoValidators leaves out Validate and the validation code.
	NoValidators bool
	// NoDispatcher leaves out the method table, handlers and dispatchers.
	NoDispatcher bool
	// Strict turns warnings (unknown keywords, unknown formats, dropped
	// union branches) into errors.
	Strict bool
	// Command is the command line that regenerates the package, for its
	// documentation ("" shows the usual one, with DIR for the output).
	Command string
	// RootName is the name of the type a schema whose root is a type
	// (not only a holder of definitions) generates for its root; ""
	// derives it from the root's title.
	RootName string
	// Formats says whether the validators check "format" (FormatsAssert,
	// the default, and what the MCP revisions mean) or leave it as an
	// annotation (FormatsAnnotate, as draft 2020-12 does by default).
	Formats Formats
	// Older are older revisions to convert to and from (--serve-older):
	// the package gets the conversions between its types and each one's
	// (the older packages themselves are generated on their own, with
	// their Options).
	Older []Older
	// Refs says where the documents the schema refers to come from (its
	// directory, local copies of remote ones, whether to download).
	Refs schema.RefOptions
}

// Formats is what the validators make of the "format" keyword.
type Formats string

// The values of Options.Formats; "" is FormatsAssert.
const (
	FormatsAssert   Formats = "assert"
	FormatsAnnotate Formats = "annotate"
)

// ExternalType is an existing Go type: import path and name.
type ExternalType = ir.ExternalType

// SourceInfo says where the schema came from, for the package docs.
type SourceInfo = ir.SourceInfo

// build builds the IR of doc, with the older revisions of opts.Older
// already loaded and built (older).
func build(doc *schema.Document, opts Options, older []*olderRev) (*ir.Package, []*schema.Diagnostic, error) {
	b := newBuilder(doc, opts)
	b.older = older
	pkg := b.build()
	if len(b.errs) > 0 {
		return nil, b.warns, b.errs
	}
	return pkg, b.warns, nil
}

// builder turns one schema document into an IR package.
type builder struct {
	doc  *schema.Document
	opts Options

	// fieldSchema is the schema of each member and tuple position, for
	// breakValueCycles.
	fieldSchema map[*ir.Field]*schema.Schema

	// What went wrong, by pointer.
	errs  schema.Errors
	warns []*schema.Diagnostic
	said  map[said]bool // what errorf and warnf recorded

	// Names: every Go name the package declares, with the pointer of the
	// schema node that claimed it, and the Go name of each definition.
	owners map[string]string
	// ownNames are the names of the package's own API that gave way to a
	// definition's: the usual name, the one declared ("" for a runtime
	// name left out). See ownName.
	ownNames map[string]string
	// sides and names are what dispatch.go declares, after ownName.
	sides    []ir.Side
	names    ir.ProtocolNames
	defNames map[*schema.Schema]string
	// defNameAt is the Go name of each definition by its pointer.
	defNameAt map[string]string

	// What the schema holds, worked out before any type is built.
	shared map[string]string         // enum key -> Go name of an enum several properties repeat
	opaque map[*schema.Schema]bool   // definitions kept as raw JSON (free-form recursive JSON)
	canon  map[string]*schema.Schema // canonical text -> first definition with it
	// sources maps a schema merged from others (allOf, $ref with
	// siblings, a union branch with the union's other keywords) to the
	// schemas it stands for: the merge decides the Go type, the sources
	// how the value is validated.
	sources map[*schema.Schema][]*schema.Schema
	// complexMemo remembers complexKeywords.
	complexMemo map[*schema.Schema]bool
	// mergeDepth counts the allOf merges in progress.
	mergeDepth int

	// The IR made so far: the declarations in the order they were made,
	// and what each schema node became.
	decls  []ir.Decl
	intern *interner

	// Method constant -> method, while the method table is built.
	methodConsts map[string]string
	// The named types made for members the dispatcher needs a type of
	// (wrapType), by the member's pointer.
	wrapped map[string]*ir.Type

	// older are the revisions of opts.Older, loaded and built (loadOlder).
	older []*olderRev

	// root is the document's root schema when it is generated as a type
	// (it is then also in doc.Defs, named), or nil.
	root *schema.Schema

	// Recursion guards while types are built.
	self map[*schema.Schema]bool // definitions whose own schema is being typed
	// The dynamic scopes made, by key, and reachesDynamic's answers
	// (dynamic.go).
	scopes      map[string]*dynScope
	dynamicMemo map[*schema.Schema]bool
	// pending holds, for each definition being typed, the type a $ref to
	// it gets meanwhile: filled in with the definition's type once it is
	// built (a recursive array or map definition refers to itself before
	// its Named declaration exists).
	pending map[*schema.Schema]*ir.Type
}

// newBuilder creates a builder with all its state.
func newBuilder(doc *schema.Document, opts Options) *builder {
	return &builder{
		doc:          doc,
		opts:         opts,
		fieldSchema:  map[*ir.Field]*schema.Schema{},
		owners:       map[string]string{},
		ownNames:     map[string]string{},
		said:         map[said]bool{},
		defNames:     map[*schema.Schema]string{},
		defNameAt:    map[string]string{},
		shared:       map[string]string{},
		opaque:       map[*schema.Schema]bool{},
		canon:        map[string]*schema.Schema{},
		sources:      map[*schema.Schema][]*schema.Schema{},
		complexMemo:  map[*schema.Schema]bool{},
		intern:       newInterner(),
		methodConsts: map[string]string{},
		wrapped:      map[string]*ir.Type{},
		self:         map[*schema.Schema]bool{},
		pending:      map[*schema.Schema]*ir.Type{},
	}
}

// errorf and warnf record a diagnostic once: a schema node the builder
// reaches twice (a merged allOf, a branch) is reported once.
func (b *builder) errorf(ptr, format string, args ...any) {
	if d := b.diagnostic(false, ptr, format, args); d != nil {
		b.errs = append(b.errs, d)
	}
}

func (b *builder) warnf(ptr, format string, args ...any) {
	if d := b.diagnostic(true, ptr, format, args); d != nil {
		b.warns = append(b.warns, d)
	}
}

// diagnostic makes a diagnostic, or returns nil when it was made before.
func (b *builder) diagnostic(warning bool, ptr, format string, args []any) *schema.Diagnostic {
	d := schema.Diagnostic{File: b.doc.File, Pointer: ptr, Message: fmt.Sprintf(format, args...)}
	k := said{warning, d}
	if b.said[k] {
		return nil
	}
	b.said[k] = true
	return &d
}

// said is a diagnostic made, for errorf and warnf.
type said struct {
	warning bool
	d       schema.Diagnostic
}

func (b *builder) build() *ir.Package {
	b.addRoot()
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
			b.defNameAt[d.Pointer] = ext.Name
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
			b.defNameAt[d.Pointer] = name
		}
	}
	if len(b.errs) > 0 {
		return nil
	}
	b.findSharedEnums()
	b.findOpaque()
	b.findCanonical()
	for _, d := range b.doc.Defs {
		b.defType(d)
	}
	if len(b.errs) > 0 {
		return nil
	}
	// Every definition's name (and every name derived from one) comes
	// first; the names the package declares for its own API give way to
	// them (ownName).
	b.reserveOwnNames()
	sort.Slice(b.decls, func(i, j int) bool { return b.decls[i].GoName() < b.decls[j].GoName() })
	b.breakValueCycles()
	if len(b.errs) > 0 {
		return nil
	}
	for _, d := range b.decls {
		if u, ok := d.(*ir.Union); ok {
			b.planUnion(u)
		}
	}
	var protocol *ir.Protocol
	noDispatcher := b.noDispatcherReason()
	if noDispatcher == "" {
		protocol = b.buildProtocol()
		// The protocol may declare types of its own (the params of a
		// method that takes free-form JSON).
		sort.Slice(b.decls, func(i, j int) bool { return b.decls[i].GoName() < b.decls[j].GoName() })
	}
	b.markInexact()
	if protocol != nil && b.opts.NoValidators {
		b.errorf("", "the dispatcher needs the validators: leave out both (dispatcher and validators) or neither")
		protocol = nil
	}
	if protocol == nil && noDispatcher == "" {
		noDispatcher = "the schema defines no method mcpgen can dispatch"
	}
	if !b.opts.NoDispatcher && protocol == nil {
		b.warnUndirected()
	}
	mcp := b.opts.Source.Pinned
	for name := range directionDefs {
		mcp = mcp || b.doc.Def(name) != nil
	}
	if mcp {
		for _, d := range b.decls {
			if st, ok := d.(*ir.Struct); ok {
				if f := metaField(st); f != nil {
					st.Meta = &ir.MetaAccess{Field: f, Get: protocolNames.MetaValue, Set: protocolNames.SetMetaValue}
				}
			}
		}
	}
	pkg := &ir.Package{
		Name:         b.opts.Package,
		Revision:     b.opts.Revision,
		Source:       b.opts.Source,
		Decls:        b.decls,
		Protocol:     protocol,
		Validators:   !b.opts.NoValidators,
		MCP:          mcp,
		Command:      b.opts.Command,
		NoDispatcher: noDispatcher,
		OwnNames:     b.ownNames,
	}
	pkg.ProtocolVersion = cmp.Or(b.opts.ProtocolVersion, b.opts.Revision)
	if len(b.errs) == 0 {
		b.buildOlder(pkg)
	}
	pkg.ReExported = reExported(pkg)
	return pkg
}

// reExported lists the runtime names pkg re-exports: those of
// ir.RuntimeNames of the layers it has (the dispatcher's, an MCP
// revision's, the tasks extension's, the conversions') that no definition
// has.
func reExported(pkg *ir.Package) []string {
	p := pkg.Protocol
	has := map[ir.Layer]bool{
		"":              true,
		ir.LayerRPC:     p != nil,
		ir.LayerMCP:     p != nil && pkg.MCP,
		ir.LayerTasks:   p != nil && p.Tasks != nil,
		ir.LayerConvert: len(pkg.Older) > 0,
	}
	var out []string
	for _, n := range ir.RuntimeNames {
		if has[n.Layer] && pkg.ReExports(n.Name) {
			out = append(out, n.Name)
		}
	}
	return out
}

// addRoot makes the document's root a definition when it is a type: a
// schema with keywords of its own (draft-04 schemas and SchemaStore's are
// often one type, with or without definitions). Its name is
// Options.RootName, else its title; a root that is a type with neither
// is an error. A root that is only a $ref is generated (as another name
// for what it refers to) when it has a name, and a warning otherwise.
func (b *builder) addRoot() {
	r := b.doc.Root
	if e := b.doc.Empty; e != nil && b.opts.RootName == "" {
		b.errs = append(b.errs, e)
		return
	}
	if r == nil || r.IsEmpty() && b.doc.Empty == nil {
		if b.opts.RootName != "" {
			b.errorf("", "--root-name %q: the root of the schema is no type (it holds only definitions)", b.opts.RootName)
		}
		return
	}
	name := b.opts.RootName
	if name == "" {
		name = camel(words(r.Title))
	}
	if name == "" {
		if r.Ref != nil && !hasConstraints(r) {
			b.warnf("", "the root of the schema is a $ref to %s; it gets no type of its own (name it with --root-name to have one)", displayPtr(r.Ref.Pointer))
			return
		}
		name = b.untitledRootName(r)
		if name == "" {
			b.errorf("", "the root of the schema is a type (it has keywords such as \"type\" or \"properties\") and no title to name it by, and definitions have the names of its file and of the package: name its Go type with --root-name")
			return
		}
	}
	if d := b.doc.Def(name); d != nil {
		b.errorf("", "the root of the schema is named %s, like the definition at %s: give it another name with --root-name", name, d.Pointer)
		return
	}
	r.Name = name
	doc := *b.doc
	doc.Defs = append([]*schema.Schema{r}, b.doc.Defs...)
	b.doc = &doc
	b.root = r
}

// inlineName is the name of the inline schema s derived as name: name,
// unless a definition's Go name takes it already; then the definition
// keeps it and the inline type adds "Inline" (AssistantMessage's inline
// content union next to the AssistantMessageContent definition is
// AssistantMessageContentInline). A clash after that is an error.
func (b *builder) inlineName(name string, s *schema.Schema) string {
	if s.Name != "" {
		return name
	}
	if owner, ok := b.owners[name]; ok && owner != s.Pointer && b.defNameAt[owner] == name {
		return capName(name + "Inline")
	}
	return name
}

// claim reserves a Go name for the schema node at ptr. A second claim is
// an error naming both.
func (b *builder) claim(name, ptr string) bool {
	return b.claimAs(name, ptr, "")
}

// claimAs is claim for a name mcpgen derives from the node's (role says
// what it is: "the holder of the union Content").
func (b *builder) claimAs(name, ptr, role string) bool {
	if prev, ok := b.owners[name]; ok {
		if prev == ptr {
			return true
		}
		what := "Go name " + name
		if role != "" {
			what += " (" + role + ")"
		}
		if own, reserved := strings.CutPrefix(prev, reservedOwner); reserved {
			b.errorf(ptr, "%s is reserved for %s (rename the definition)", what, own)
			return false
		}
		if role != "" {
			b.errorf(ptr, "%s is already taken by %s (rename one)", what, displayPtr(prev))
			return false
		}
		b.errorf(ptr, "%s is already taken by %s; two schema names map to it (rename one)", what, displayPtr(prev))
		return false
	}
	b.owners[name] = ptr
	return true
}

// reservedOwner starts the owner of a name the package declares itself
// (no JSON pointer starts with it), followed by what declares it.
const reservedOwner = "\x00"

// reserve claims name for something the package declares itself when no
// definition has it (the typed calls, which are left out otherwise).
func (b *builder) reserve(name, what string) {
	if _, ok := b.owners[name]; !ok {
		b.owners[name] = reservedOwner + what
	}
}

// ownPrefix starts the name a name of the package's own API takes when a
// definition has it (ownName).
const ownPrefix = "MCP"

// ownName claims name for something the package declares for its own API
// and returns the name it is declared as. A schema's definitions keep
// their names: when one (or a name derived from one) has name, the
// package's name gives way and takes the prefix MCP (Server becomes
// MCPServer), then 2, 3, ... after it if that is taken too.
// docs/generating.md ("Names the package declares") states the rule.
func (b *builder) ownName(name, what string) string {
	if to, ok := b.ownNames[name]; ok {
		return to
	}
	owner, taken := b.owners[name]
	if !taken {
		b.owners[name] = reservedOwner + what
		return name
	}
	if strings.HasPrefix(owner, reservedOwner) {
		return name
	}
	to := ownPrefix + name
	for i := 2; ; i++ {
		if _, taken := b.owners[to]; !taken {
			break
		}
		to = ownPrefix + name + strconv.Itoa(i)
	}
	b.owners[to] = reservedOwner + what
	b.ownNames[name] = to
	b.warnf(owner, "the schema defines %s, so the package's own %s is %s (docs/generating.md, \"Names the package declares\")", name, name, to)
	return to
}

// reexport claims a runtime name the package re-exports (a type alias, a
// constant or a wrapper); when a definition has it, the package leaves it
// out and its code names the runtime's directly.
func (b *builder) reexport(name string) {
	owner, taken := b.owners[name]
	switch {
	case !taken:
		b.owners[name] = reservedOwner + "the runtime's " + name
	case !strings.HasPrefix(owner, reservedOwner):
		if _, done := b.ownNames[name]; !done {
			b.ownNames[name] = ""
			b.warnf(owner, "the schema defines %s, so the package does not re-export the runtime's %s (docs/generating.md, \"Names the package declares\")", name, name)
		}
	}
}

// reserveOwnNames claims, after every definition, the names the package
// declares for its own API: the runtime's names it re-exports, the
// registry's names, ProtocolVersion, and, when there will be a
// dispatcher, its names. Each gives way to a definition (ownName).
func (b *builder) reserveOwnNames() {
	dispatcher := b.withDispatcher()
	// The runtime names a package re-exports are claimed with any
	// dispatcher, before the protocol is built and it is known whether
	// the revision can carry tasks or conversions.
	for _, n := range ir.RuntimeNames {
		if n.Layer == "" || dispatcher {
			b.reexport(n.Name)
		}
	}
	for _, n := range []string{"Value", "Definitions", "NewValue", "ProtocolVersion"} {
		b.ownName(n, "the generated package's own API")
	}
	if dispatcher {
		b.claimProtocolNames()
	}
	b.reserveOlderNames()
}

// withDispatcher reports whether the package gets a dispatcher: the
// options allow it and the schema says who sends which method.
func (b *builder) withDispatcher() bool {
	return b.noDispatcherReason() == ""
}

// warnUndirected warns when the schema defines methods (request or
// notification definitions with a constant "method") but the package
// gets no dispatcher for them.
func (b *builder) warnUndirected() {
	var found []string
	for _, d := range b.doc.Defs {
		if (strings.HasSuffix(d.Name, "Request") || strings.HasSuffix(d.Name, "Notification")) && schemaMethod(d) != "" {
			found = append(found, fmt.Sprintf("%s (%q)", d.Name, schemaMethod(d)))
		}
	}
	if len(found) == 0 {
		return
	}
	if len(found) > 3 {
		found = append(found[:3], fmt.Sprintf("and %d more", len(found)-3))
	}
	b.warnf("", "the schema defines methods, %s, but the package has no dispatcher for them: %s", strings.Join(found, ", "), b.noDispatcherReason())
}

// noDispatcherReason says why the package gets no dispatcher, or "".
func (b *builder) noDispatcherReason() string {
	if b.opts.NoDispatcher {
		return "the options leave it out (--no-dispatcher, or a config whose \"emit\" lacks \"dispatcher\")"
	}
	if len(b.directionUnions()) == 0 {
		return "no definition of the schema says who sends which method (MCP's ClientRequest, ServerRequest, ClientNotification and ServerNotification, or a union definition named ...Request or ...Notification whose branches are all method definitions; see \"Pairing requests with results\" in mcpgen's docs/other-schemas.md)"
	}
	return ""
}

func displayPtr(p string) string {
	if p == "" {
		return "the document root"
	}
	return p
}

func (b *builder) add(d ir.Decl) {
	b.decls = append(b.decls, d)
}

// defType returns the type of a definition, building its declaration the
// first time.
func (b *builder) defType(d *schema.Schema) *ir.Type {
	if t, ok := b.intern.typeAt(d.Pointer); ok {
		return t
	}
	name := b.defNames[d]
	if ext, ok := b.opts.External[d.Name]; ok {
		t := &ir.Type{Kind: ir.TExternal, Ext: &ext}
		b.intern.setTypeAt(d.Pointer, t)
		return t
	}
	info := ir.DeclInfo{Name: name, Doc: b.docText(name, d), Pointer: d.Pointer, Definition: d.Name}
	if b.opaque[d] {
		r := &ir.Raw{DeclInfo: info, Check: b.check(d)}
		t := &ir.Type{Kind: ir.TDecl, Decl: r}
		b.intern.setTypeAt(d.Pointer, t)
		b.add(r)
		return t
	}
	// A definition that is just a $ref to another is an alias.
	// A $ref back to it met while its target is built (through a member
	// of the target: a cycle of $refs alone is refused by the loader)
	// gets a placeholder, filled in with the alias.
	if d.Ref != nil && !hasConstraints(d) && !b.ownScope(d) {
		if p, ok := b.pending[d]; ok {
			return p
		}
		placeholder := &ir.Type{Kind: ir.TRaw}
		b.pending[d] = placeholder
		target := b.typeOf(d.Ref, b.nameForPointer(d.Ref.Pointer))
		delete(b.pending, d)
		if target == placeholder {
			b.errorf(d.Pointer, "$ref cycle through %s cannot be represented", d.Name)
			return &ir.Type{Kind: ir.TRaw}
		}
		var t *ir.Type
		if target.Kind == ir.TDecl {
			a := &ir.Alias{DeclInfo: info, Target: target, Final: target.Resolve()}
			t = &ir.Type{Kind: ir.TDecl, Decl: a}
			b.add(a)
		} else {
			n := &ir.Named{DeclInfo: info, Type: target}
			t = &ir.Type{Kind: ir.TDecl, Decl: n}
			b.add(n)
		}
		b.intern.setTypeAt(d.Pointer, t)
		*placeholder = *t
		return t
	}
	// Otherwise the definition's schema declares the type itself. A $ref
	// to it met meanwhile gets a placeholder (raw JSON until it is filled
	// in with the type).
	if p, ok := b.pending[d]; ok {
		return p
	}
	placeholder := &ir.Type{Kind: ir.TRaw}
	b.pending[d] = placeholder
	b.self[d] = true
	t := b.typeOf(d, name)
	delete(b.self, d)
	delete(b.pending, d)
	fill := func(t *ir.Type) *ir.Type {
		*placeholder = *t
		return t
	}
	if t.Kind == ir.TDecl && t.Decl.GoName() == name {
		t.Decl.Info().Definition = d.Name
		if t.Decl.Info().Doc == "" || t.Decl.Info().Pointer != d.Pointer {
			t.Decl.Info().Doc = b.docText(name, d)
		}
		b.intern.setTypeAt(d.Pointer, t)
		return fill(t)
	}
	if _, ok := t.Resolve().Decl.(*ir.Union); ok && t.Resolve().Kind == ir.TDecl {
		// A union (or an alias of one) is an interface: another name
		// for it is an alias.
		a := &ir.Alias{DeclInfo: info, Target: t, Final: t.Resolve()}
		at := &ir.Type{Kind: ir.TDecl, Decl: a}
		b.intern.setTypeAt(d.Pointer, at)
		b.add(a)
		return fill(at)
	}
	n := &ir.Named{DeclInfo: info, Type: t}
	nt := &ir.Type{Kind: ir.TDecl, Decl: n}
	b.intern.setTypeAt(d.Pointer, nt)
	b.add(n)
	b.namedConsts(n, d)
	return fill(nt)
}

// nameForPointer derives the Go name of the inline schema at ptr from its
// location: the definition's Go name, then one word per step.
func (b *builder) nameForPointer(ptr string) string {
	if file, inDoc := schema.SplitPointer(ptr); file != "" {
		return b.foreignName(file, inDoc)
	}
	parts := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	start := 2
	var name string
	switch {
	case len(parts) >= 2 && b.defNameAt["/"+parts[0]+"/"+parts[1]] != "":
		name = b.defNameAt["/"+parts[0]+"/"+parts[1]]
	case b.root != nil:
		// Under the root type (not under a definition).
		name, start = b.defNameAt[""], 0
		if ptr == "" {
			return name
		}
	case len(parts) < 2:
		return "Root"
	default:
		name = camel(words(schema.UnescapePointer(parts[1])))
	}
	return b.deriveSteps(name, parts, start)
}

// foreignName names a node of another document (a reference brought it
// in) by its pointer there, inDoc: a definition of that document's root
// (/$defs/K, /definitions/K) by its key, as a definition of the schema
// is; anything else from the document's own name (documentName) with one
// word per step, as for an inline schema under a root type.
func (b *builder) foreignName(file, inDoc string) string {
	parts := strings.Split(strings.TrimPrefix(inDoc, "/"), "/")
	if len(parts) >= 2 && (parts[0] == "$defs" || parts[0] == "definitions") {
		if n, err := definitionGoName(schema.UnescapePointer(parts[1])); err == nil {
			return b.deriveSteps(n, parts, 2)
		}
	}
	name := b.documentName(file)
	if inDoc == "" {
		return name
	}
	return b.deriveSteps(name, parts, 0)
}

// documentName is the Go name of another document's root: the last path
// segment of its URI (its $id, else the URI it was retrieved by) without
// the extensions .json and .schema (tree.json -> Tree,
// eslintrc.schema.json -> Eslintrc); else its title; else External.
func (b *builder) documentName(file string) string {
	root := b.doc.Node(file + "#")
	if root != nil && root.Resource != nil {
		if n := uriGoName(root.Resource.URI); n != "" {
			return n
		}
	}
	if root != nil {
		if n := camel(words(root.Title)); n != "" && token.IsIdentifier(n) {
			return n
		}
	}
	return "External"
}

// uriGoName is the Go name of a document by its URI: the last path segment
// without the extensions .json and .schema, when it has letters or digits
// and starts with no digit; else "".
func uriGoName(uri string) string {
	seg := strings.TrimSuffix(strings.TrimSuffix(lastSegment(uri), ".json"), ".schema")
	if n, err := definitionGoName(seg); err == nil && len(words(seg)) > 0 {
		return n
	}
	return ""
}

// untitledRootName names a root type that has no title when --root-name
// does not (docs/other-schemas.md): by its URI as another document's
// root is (its $id, else the schema's file name or URL: github-workflow.json
// -> GithubWorkflow), else, when that gives no name or a definition has
// it, by the package name (--package). A warning says which; "" when
// neither gives a name.
func (b *builder) untitledRootName(r *schema.Schema) string {
	uri := b.doc.File
	if r.Resource != nil {
		uri = r.Resource.URI
	}
	name, from := uriGoName(uri), fmt.Sprintf("%q", lastSegment(uri))
	if name == "" || b.doc.Def(name) != nil {
		name, from = uriGoName(b.opts.Package), fmt.Sprintf("the package name %q", b.opts.Package)
	}
	if name == "" || b.doc.Def(name) != nil {
		return ""
	}
	b.warnf("", "the root of the schema is a type with no title: it is named %s, after %s (choose another name with --root-name)", name, from)
	return name
}

// lastSegment is the last path segment of a URI (or a file name).
func lastSegment(uri string) string {
	if i := strings.LastIndexAny(uri, "/:"); i >= 0 {
		return uri[i+1:]
	}
	return uri
}

// deriveSteps derives the name of the schema at parts[start:] below the
// one named name: one word per step (nameForPointer).
func (b *builder) deriveSteps(name string, parts []string, start int) string {
	for i := start; i < len(parts); i++ {
		switch parts[i] {
		case "properties", "definitions", "$defs":
			// A property, or a definition nested in a schema (SchemaStore
			// has many), is named by its key.
			if i+1 < len(parts) {
				i++
				key := schema.UnescapePointer(parts[i])
				n, err := propertyGoName(key)
				if err != nil {
					n = camel(words(key))
				}
				if n == "" && parts[i-1] != "properties" {
					n = unwordedGoName(key) // a nested definition's key, as a definition's
				}
				name = derive(name, n)
			}
		case "items":
			if i+1 < len(parts) && isIndex(parts[i+1]) {
				i++
				name = derive(name, "Item"+parts[i]) // draft-07 tuple position
			} else {
				name = derive(name, "Item")
			}
		case "prefixItems":
			if i+1 < len(parts) {
				i++
				name = derive(name, "Item"+parts[i])
			}
		case "additionalItems":
			name = derive(name, "Rest")
		case "additionalProperties":
			name = derive(name, "Value")
		case "anyOf", "oneOf", "allOf":
			i++ // the index; the JSON type is added by the union builder
		}
	}
	return name
}

// typeOf returns the Go type for schema s at a use site. name is the Go
// name a declaration for s would get.
func (b *builder) typeOf(s *schema.Schema, name string) *ir.Type {
	// A definition reached directly (not through $ref, e.g. after an allOf
	// merge kept it as is) is still its own type.
	if s.Name != "" && b.isDef(s) && !b.self[s] {
		return b.defType(s)
	}
	if s.IsBool {
		if s.BoolValue {
			return &ir.Type{Kind: ir.TRaw}
		}
		return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
	}
	// A $ref alone names a type (unless it is a definition whose
	// validation the dynamic scope makes differ from its target's: a use
	// site is checked by the whole of the type it is in).
	if s.Ref != nil && !hasConstraints(s) && !b.entryScope(s) {
		if s.Ref.Name != "" && b.isDef(s.Ref) {
			return b.defType(s.Ref)
		}
		return b.typeOf(s.Ref, b.nameForPointer(s.Ref.Pointer))
	}
	if t, ok := b.intern.typeAt(s.Pointer); ok && (s.Pointer != "" || b.root != nil) {
		return t
	}
	if (s.Ref != nil) || len(s.AllOf) > 0 {
		m, err := b.flatten(s)
		if err != nil {
			return b.rawFallback(s, err.Error())
		}
		return b.typeOf(m, name)
	}
	if s.IsEmpty() && !b.complexKeywords(s) {
		// (A merge whose parts only have keywords a merge does not
		// carry, such as not or dependentSchemas, is empty itself, but
		// its sources still check values.)
		return &ir.Type{Kind: ir.TRaw}
	}
	// Keywords a Go value cannot be checked by directly: Validate checks
	// the value's JSON encoding against the schema (whole). Where the Go
	// type would be an interface, an enum or a multi-kind value, the
	// value is kept as raw JSON instead.
	whole := b.wholeCheck(s)
	if whole != nil && len(s.Types) == 1 && s.Types[0] == "object" && b.mapKeywordsTyped(s) && !b.reachesDynamic(s) {
		whole = nil // a map checks them (objectType)
	}
	simple := func() *ir.Type {
		if whole != nil {
			return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: whole}}
		}
		return nil
	}
	if len(s.AnyOf) > 0 || len(s.OneOf) > 0 {
		if len(s.AnyOf) > 0 && len(s.OneOf) > 0 {
			// Both lists must hold: no one sum type says that.
			return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
		}
		if t := simple(); t != nil {
			return t
		}
		return b.unionType(s, name)
	}
	if s.Const != nil {
		if t := simple(); t != nil {
			return t
		}
		if !constFitsTypes(s) {
			b.warnf(s.Pointer, "const %s is not of the schema's type %v, so no value is valid here: the generated code rejects any", s.Const.JSON(), s.Types)
		}
		if !constFitsTypes(s) || hasOtherConstraints(s, true) {
			// "type" rules out the constant (or a kind it takes): raw
			// JSON says so exactly.
			return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
		}
		return b.constType(s)
	}
	if s.Enum != nil {
		if t := simple(); t != nil {
			return t
		}
		if hasOtherConstraints(s, false) || len(s.Enum) == 0 {
			// An enum type checks its values only; the rest of the
			// schema (a pattern, a bound) is for raw JSON to check, and
			// so is an empty enum (no value is valid).
			return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
		}
		return b.enumType(s, name)
	}
	if len(s.Types) == 0 {
		// No type: every JSON kind is allowed and the other keywords apply
		// to the kinds they are about. Only raw bytes can hold that.
		b.warnf(s.Pointer, "schema has constraints but no \"type\"; it is kept as raw JSON (json.RawMessage) and validated as such")
		return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
	}
	if len(s.Types) > 1 {
		if t := simple(); t != nil {
			return t
		}
		return b.kindsType(s, name, nil)
	}
	t := b.singleType(s, s.Types[0], name)
	if whole == nil {
		return t
	}
	switch t.Kind {
	case ir.TString, ir.TInt, ir.TFloat, ir.TBool, ir.TSlice, ir.TMap:
		t.C.Whole = whole
	case ir.TDecl:
		switch d := t.Decl.(type) {
		case *ir.Struct:
			d.Whole = whole
		case *ir.Tuple:
			d.Whole = whole
		default:
			return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: whole}}
		}
	}
	return t
}

// int64Of returns the integer a number's text is, if an int64 holds it.
func int64Of(num string) (int64, bool) {
	r, ok := new(big.Rat).SetString(num)
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// hasOtherConstraints reports whether s constrains values beyond "type"
// and its const (isConst) or its enum.
func hasOtherConstraints(s *schema.Schema, isConst bool) bool {
	c := *s
	c.Types = nil
	if isConst {
		c.Const = nil
	} else {
		c.Enum = nil
	}
	return hasConstraints(&c)
}

// constFitsTypes reports whether s's "type" (if any) allows its const,
// so that the const alone decides the Go type.
func constFitsTypes(s *schema.Schema) bool {
	if s.Types == nil {
		return true
	}
	switch c := s.Const; c.Kind {
	case schema.Null:
		return s.HasType("null")
	case schema.Bool:
		return s.HasType("boolean")
	case schema.String:
		return s.HasType("string")
	case schema.Number:
		return s.HasType("number") || s.HasType("integer") && schema.IsInteger(c.Num)
	case schema.Array:
		return s.HasType("array")
	}
	return s.HasType("object")
}

// rawFallback keeps a value whose schema cannot be one Go type (an allOf
// whose parts mcpgen cannot merge) as raw JSON, validated as such.
func (b *builder) rawFallback(s *schema.Schema, why string) *ir.Type {
	b.warnf(s.Pointer, "%s; it is kept as raw JSON (json.RawMessage) and validated as such", why)
	return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
}

// wholeCheck returns the check Validate runs on a value's JSON encoding
// when its schema uses keywords the typed checks do not cover (not, if,
// contains, unevaluatedProperties, ...), or nil.
func (b *builder) wholeCheck(s *schema.Schema) *ir.Check {
	if !b.complexKeywords(s) {
		return nil
	}
	return b.check(s)
}

// complexKeywords reports whether s, or a schema merged into it (allOf,
// $ref with siblings), has a keyword the typed checks do not cover. The
// alternatives of anyOf and oneOf do not count: each branch is a Go type
// of its own.
func (b *builder) complexKeywords(s *schema.Schema) bool {
	if v, ok := b.complexMemo[s]; ok {
		return v
	}
	b.complexMemo[s] = false // a cycle adds nothing
	// Checks that reach a $dynamicRef depend on the dynamic scope, which
	// only a check of the whole value follows.
	v := b.reachesDynamic(s)
	if srcs, ok := b.sources[s]; ok {
		for _, src := range srcs {
			v = v || b.complexKeywords(src)
		}
	} else if !s.IsBool {
		v = s.Not != nil || s.If != nil || s.PatternProperties != nil ||
			s.PropertyNames != nil || s.MinProperties != nil || s.MaxProperties != nil ||
			s.Dependencies != nil || s.UnevaluatedProperties != nil || s.UnevaluatedItems != nil ||
			s.Contains != nil || s.UniqueItems
		if s.Ref != nil {
			// A $ref among the sources of a merge was merged in.
			v = v || b.complexKeywords(s.Ref)
		}
		for _, p := range s.AllOf {
			v = v || b.complexKeywords(p)
		}
	}
	b.complexMemo[s] = v
	return v
}

func isIndex(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

func (b *builder) isDef(s *schema.Schema) bool {
	_, ok := b.defNames[s]
	return ok
}

// singleType types a schema with one JSON type.
func (b *builder) singleType(s *schema.Schema, typ, name string) *ir.Type {
	switch typ {
	case "string":
		t := &ir.Type{Kind: ir.TString, C: ir.Constraints{Format: b.format(s), MinLength: s.MinLength, MaxLength: s.MaxLength}}
		if s.Pattern != nil {
			// Go's spelling of the ECMA-262 pattern (the loader checked
			// that there is one).
			src, _, _ := schema.GoPattern(*s.Pattern)
			t.C.Pattern, t.C.PatternText = &src, *s.Pattern
		}
		return t
	case "integer":
		return &ir.Type{Kind: ir.TInt, C: numConstraints(s)}
	case "number":
		b.checkFloatBounds(s)
		return &ir.Type{Kind: ir.TFloat, C: numConstraints(s)}
	case "boolean":
		return &ir.Type{Kind: ir.TBool}
	case "null":
		return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
	case "array":
		if s.PrefixItems != nil {
			return b.tupleType(s, name)
		}
		elem := &ir.Type{Kind: ir.TRaw}
		if s.Items != nil {
			elem = b.typeOf(s.Items, derive(name, "Item"))
		}
		return &ir.Type{Kind: ir.TSlice, Elem: elem, C: ir.Constraints{MinItems: s.MinItems, MaxItems: s.MaxItems}}
	case "object":
		return b.objectType(s, name)
	}
	b.errorf(s.Pointer, "unsupported type %q", typ)
	return &ir.Type{Kind: ir.TRaw}
}

// checkFloatBounds reports the bounds of a number schema that float64,
// which numbers map to, cannot hold: beyond ±1.8e308 no Go value compares
// with them. (Integer bounds beyond int64 are exact: such a bound lets
// every int64 through or none.)
func (b *builder) checkFloatBounds(s *schema.Schema) {
	for _, bd := range []struct {
		keyword string
		v       *string
	}{{"minimum", s.Minimum}, {"maximum", s.Maximum}, {"exclusiveMinimum", s.ExclusiveMinimum}, {"exclusiveMaximum", s.ExclusiveMaximum}} {
		if bd.v == nil {
			continue
		}
		if f, err := strconv.ParseFloat(*bd.v, 64); err != nil && math.IsInf(f, 0) {
			b.errorf(s.Pointer+"/"+bd.keyword, "%s %s is beyond the range of float64, which mcpgen maps \"number\" to (at most %g in magnitude); mcpgen cannot represent this bound", bd.keyword, *bd.v, math.MaxFloat64)
		}
	}
}

func numConstraints(s *schema.Schema) ir.Constraints {
	return ir.Constraints{Minimum: s.Minimum, Maximum: s.Maximum, ExclusiveMinimum: s.ExclusiveMinimum, ExclusiveMaximum: s.ExclusiveMaximum, MultipleOf: s.MultipleOf}
}

// knownFormat reports whether the runtime checks format f.
func knownFormat(f string) bool { return codec.FormatChecker(f) != nil }

func (b *builder) format(s *schema.Schema) string {
	if s.Format == "" || b.opts.Formats == FormatsAnnotate {
		return ""
	}
	if !knownFormat(s.Format) {
		b.warnf(s.Pointer+"/format", "format %q is not known; it is not checked (the reference validator ignores unknown formats too)", s.Format)
		return ""
	}
	return s.Format
}

// objectType types an object schema: a struct when it declares
// properties, a map when it only constrains its members' values, raw JSON
// when it allows anything.
func (b *builder) objectType(s *schema.Schema, name string) *ir.Type {
	if pp := mapPattern(s); pp != nil {
		// Every member matches one pattern, and has its schema: a map
		// whose keys Validate checks.
		src, _, _ := schema.GoPattern(pp.Pattern)
		return &ir.Type{Kind: ir.TMap, Elem: b.typeOf(pp.Schema, derive(name, "Value")),
			C: ir.Constraints{KeyPattern: &src, KeyPatternText: pp.Pattern, MinProperties: s.MinProperties, MaxProperties: s.MaxProperties}}
	}
	if len(s.Properties) == 0 && len(s.Required) == 0 && s.PatternProperties != nil {
		// Members the patterns take and members they leave to
		// additionalProperties can be of different types: raw JSON.
		return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
	}
	if len(s.Properties) == 0 && len(s.Required) == 0 {
		ap := s.AdditionalProperties
		if ap == nil || (ap.IsBool && ap.BoolValue) || (!ap.IsBool && ap.IsEmpty()) {
			return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
		}
		if ap.IsFalse() {
			return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
		}
		return &ir.Type{Kind: ir.TMap, Elem: b.typeOf(ap, derive(name, "Value")), C: ir.Constraints{MinProperties: s.MinProperties, MaxProperties: s.MaxProperties}}
	}
	return b.structType(s, name)
}

// mapPattern returns the one pattern of an object schema that allows no
// other member (no properties, one patternProperties entry Go's regexp
// can match, additionalProperties false), or nil.
func mapPattern(s *schema.Schema) *schema.PatternProperty {
	if len(s.Properties) > 0 || len(s.Required) > 0 || len(s.PatternProperties) != 1 ||
		s.PatternProperties[0].Unsupported || s.AdditionalProperties == nil || !s.AdditionalProperties.IsFalse() {
		return nil
	}
	return s.PatternProperties[0]
}

// mapKeywordsTyped reports whether the keywords of s that complexKeywords
// counts are all ones a map type checks itself: patternProperties (the
// one of mapPattern), minProperties and maxProperties.
func (b *builder) mapKeywordsTyped(s *schema.Schema) bool {
	if _, merged := b.sources[s]; merged || s.Ref != nil || s.AllOf != nil || len(s.Properties) > 0 || len(s.Required) > 0 {
		return false
	}
	if s.PatternProperties != nil && mapPattern(s) == nil {
		return false
	}
	rest := *s
	rest.PatternProperties, rest.MinProperties, rest.MaxProperties = nil, nil, nil
	return !b.complexKeywords(&rest)
}

func (b *builder) structType(s *schema.Schema, name string) *ir.Type {
	name = b.inlineName(name, s)
	if !b.claim(name, s.Pointer) {
		return &ir.Type{Kind: ir.TRaw}
	}
	st := &ir.Struct{DeclInfo: ir.DeclInfo{Name: name, Doc: b.docText(name, s), Pointer: s.Pointer, Definition: s.Name}}
	t := &ir.Type{Kind: ir.TDecl, Decl: st}
	// The node may already be another type: a multi-kind value whose
	// object kind this is, which a $ref to the node still means.
	if _, taken := b.intern.typeAt(s.Pointer); !taken && (s.Pointer != "" || b.root != nil) {
		b.intern.setTypeAt(s.Pointer, t)
	}
	b.add(st)
	// Members whose plain Go names are the same ("max-size" and
	// "maxSize") spell their separators out (docs/generated-code.md, "Naming").
	plain := map[string]int{}
	for _, m := range structMembers(s) {
		if n, err := propertyGoName(m); err == nil {
			plain[n]++
		}
	}
	goNames := map[string]string{} // Go field name -> JSON name
	use := func(goName, jsonName, ptr string) bool {
		if prev, ok := goNames[goName]; ok {
			b.errorf(ptr, "properties %q and %q of %s both map to the Go field %s", prev, jsonName, name, goName)
			return false
		}
		goNames[goName] = jsonName
		return true
	}
	capability := b.inCapabilities(s)
	addField := func(jsonName string, ps *schema.Schema, required bool, ptr string) {
		f := &ir.Field{JSONName: jsonName, Required: required, Doc: b.docText("", ps)}
		goName, err := propertyGoName(jsonName)
		if err == nil && plain[goName] > 1 || err != nil && separatorsOnly(jsonName) {
			// Also a name of separators only ("+", "$"): Plus, Dollar.
			goName, err = spelledGoName(jsonName)
		}
		if err != nil {
			b.errorf(ptr, "property %v", err)
			return
		}
		cs, err := b.deref(ps, 0)
		if err == nil && cs.Const != nil && !cs.IsBool && constFitsTypes(cs) && !hasOtherConstraints(cs, true) {
			// A member that can only be its const needs no field. One
			// whose other keywords say more (a "type" the const is not
			// of, a bound, an anyOf) is typed like any other schema,
			// which checks them all.
			f.Const = value(cs.Const)
			f.Type = b.constType(cs)
			if !required {
				f.Name = goName
			}
		} else {
			f.Name = goName
			f.Type = b.memberType(jsonName, ps)
			if f.Type == nil && capability {
				f.Type = b.openCapability(ps, derive(name, goName))
			}
			if f.Type == nil {
				f.Type = b.typeOf(ps, derive(name, goName))
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
		b.fieldSchema[f] = ps
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
	// A required member whose struct holds this one by value again (a
	// required $ref to itself) cannot be a Go value field; no finite
	// document has one anyway, and raw JSON says so.
	for _, f := range st.Fields {
		if f.Required && f.Name != "" && holdsByValue(f.Type, st, map[*ir.Struct]bool{}) {
			f.Type = &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(propSchema(s, f.JSONName))}}
		}
	}
	ap := s.AdditionalProperties
	switch {
	case s.PatternProperties != nil:
		// Members the patterns take are kept as they are, like those
		// additionalProperties takes; the validators tell them apart.
		st.Extra = &ir.Extra{Name: "Extra", Value: &ir.Type{Kind: ir.TRaw}}
	case ap != nil && ap.IsFalse():
		st.Extra = nil
	case ap == nil || (ap.IsBool && ap.BoolValue) || ap.IsEmpty():
		st.Extra = &ir.Extra{Name: "Extra", Value: &ir.Type{Kind: ir.TRaw}}
	default:
		st.Extra = &ir.Extra{Name: "Extra", Value: b.typeOf(ap, derive(name, "Value"))}
	}
	b.memberNames(st)
	return t
}

// structMembers lists the members a struct of s has fields for: its
// properties, then the required members it does not declare.
func structMembers(s *schema.Schema) []string {
	var out []string
	for _, p := range s.Properties {
		out = append(out, p.Name)
	}
	for _, r := range s.Required {
		if s.Prop(r) == nil {
			out = append(out, r)
		}
	}
	return out
}

// breakValueCycles finds the types that hold themselves by value (a
// member that is a value, not a pointer: a required one, or one of a
// multi-kind type, whose zero value is no value; a tuple position; the
// alternatives of a multi-kind type), which Go cannot declare, and makes
// the last member or position on each such cycle raw JSON, checked
// against its schema, with a warning. (A required member of a struct on
// the cycle can have no finite value anyway.) A cycle with no member or
// position on it is an error.
func (b *builder) breakValueCycles() {
	type edge struct {
		to    ir.Decl
		field *ir.Field // the member or position, or nil
		owner string    // the Go type holding it
		ptr   string    // where it is
		tuple bool      // field is a tuple position
	}
	byValue := func(t *ir.Type) ir.Decl {
		if t == nil {
			return nil
		}
		if t = t.Resolve(); t.Kind == ir.TDecl {
			return t.Decl
		}
		return nil
	}
	edges := func(d ir.Decl) []edge {
		var out []edge
		fields := func(fs []*ir.Field, tuple bool) {
			for _, f := range fs {
				if f.Name == "" || f.Pointer() || f.Type == nil || f.Type.Kind == ir.TRaw {
					continue
				}
				if to := byValue(f.Type); to != nil {
					out = append(out, edge{to, f, d.GoName(), d.Info().Pointer, tuple})
				}
			}
		}
		switch d := d.(type) {
		case *ir.Struct:
			fields(d.Fields, false)
		case *ir.Tuple:
			fields(d.Items, true)
		case *ir.Named:
			if to := byValue(d.Type); to != nil {
				out = append(out, edge{to, nil, d.Name, d.Pointer, false})
			}
		case *ir.Kinds:
			for _, a := range d.Alts {
				if to := byValue(a.Type); to != nil {
					out = append(out, edge{to, nil, d.Name, d.Pointer, false})
				}
			}
		}
		return out
	}
	const (
		visiting = 1
		done     = 2
	)
	state := map[ir.Decl]int{}
	var path []edge
	var visit func(d ir.Decl)
	visit = func(d ir.Decl) {
		state[d] = visiting
		for _, e := range edges(d) {
			if e.field != nil && e.field.Type.Kind == ir.TRaw {
				continue // made raw on an earlier cycle
			}
			switch state[e.to] {
			case visiting:
				// The cycle: the path from e.to, then e.
				cycle := []edge{e}
				for i := len(path) - 1; i >= 0 && path[i].to != e.to; i-- {
					cycle = append(cycle, path[i])
				}
				var cut *edge
				for i := range cycle {
					if cycle[i].field != nil {
						cut = &cycle[i]
						break
					}
				}
				if cut == nil {
					b.errorf(e.ptr, "%s holds %s by value, which holds it again: Go cannot declare a type that contains itself", e.owner, e.to.GoName())
					continue
				}
				f := cut.field
				ps := b.fieldSchema[f]
				if ps == nil {
					ps = trueSchema
				}
				what := fmt.Sprintf("member %q", f.JSONName)
				if cut.tuple {
					what = "position " + f.JSONName
				}
				b.warnf(ps.Pointer, "%s of %s holds %s, which holds %s again by value: Go cannot declare that, so the %s is raw JSON (json.RawMessage), checked against its schema",
					what, cut.owner, cut.to.GoName(), cut.owner, strings.Fields(what)[0])
				f.Type = &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(ps)}}
			case 0:
				path = append(path, e)
				visit(e.to)
				path = path[:len(path)-1]
			}
		}
		state[d] = done
	}
	for _, d := range b.decls {
		if state[d] == 0 {
			visit(d)
		}
	}
}

// holdsByValue reports whether a value of type t holds a struct target
// by value: t is target, or a struct with a required field that does.
func holdsByValue(t *ir.Type, target *ir.Struct, seen map[*ir.Struct]bool) bool {
	r := t.Resolve()
	if r.Kind != ir.TDecl {
		return false
	}
	st, ok := r.Decl.(*ir.Struct)
	if !ok {
		return false
	}
	if st == target {
		return true
	}
	if seen[st] {
		return false
	}
	seen[st] = true
	for _, f := range st.Fields {
		if f.Required && f.Name != "" && f.Type != nil && holdsByValue(f.Type, target, seen) {
			return true
		}
	}
	return false
}

// structMethods are the methods every generated struct has.
var structMethods = []string{"MarshalJSON", "AppendJSON", "UnmarshalJSON", "Validate", "DecodeJSON", "EncodeJSON", "ValidateWith"}

// memberNames settles the names of st's fields and getters. The type's
// own names come first: its methods, the Extra field, the protocol
// helpers and the getters. A property whose Go name is one of them gets
// "Member" appended (`validate` is ValidateMember, `extra` ExtraMember,
// `getName` next to `name` GetNameMember); if that name is taken too, the
// two properties are an error naming both.
func (b *builder) memberNames(st *ir.Struct) {
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
	owner := map[string]*ir.Field{}
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
func hasGetter(f *ir.Field) bool {
	if !f.Pointer() {
		return false
	}
	t := f.Type.Resolve()
	switch t.Kind {
	case ir.TString, ir.TInt, ir.TFloat, ir.TBool:
		return true
	case ir.TDecl:
		switch d := t.Decl.(type) {
		case *ir.Enum:
			return true
		case *ir.Named:
			k := d.Type.Resolve().Kind
			return k == ir.TString || k == ir.TInt || k == ir.TFloat || k == ir.TBool
		}
	}
	return false
}

// constType types a const value: the Go type of its kind, restricted to
// the value.
func (b *builder) constType(s *schema.Schema) *ir.Type {
	c := s.Const
	t := &ir.Type{C: ir.Constraints{Const: value(c)}}
	switch c.Kind {
	case schema.String:
		t.Kind = ir.TString
	case schema.Bool:
		t.Kind = ir.TBool
	case schema.Number:
		if _, ok := int64Of(c.Num); ok {
			t.Kind = ir.TInt
			break
		}
		// A number an int64 does not hold exactly (0.5, 1e30): float64
		// rounding would let near numbers pass, so raw JSON compares
		// the text exactly.
		t.Kind = ir.TRaw
		t.C = ir.Constraints{Raw: b.check(s)}
	default:
		t.Kind = ir.TRaw
		t.C.Raw = b.check(s)
	}
	return t
}

// enumType types an enum: a named type with constants when every value is
// a string (or every value an integer); raw JSON checked against the list
// otherwise.
func (b *builder) enumType(s *schema.Schema, name string) *ir.Type {
	allStrings, allInts := true, true
	for _, v := range s.Enum {
		allStrings = allStrings && v.Kind == schema.String
		_, isInt64 := int64Of(v.Num)
		allInts = allInts && v.Kind == schema.Number && isInt64
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
	var base ir.Kind
	switch {
	case allStrings && typeOK("string"):
		base = ir.KString
	case allInts && typeOK("integer", "number"):
		base = ir.KInt
	default:
		return &ir.Type{Kind: ir.TRaw, C: ir.Constraints{Raw: b.check(s)}}
	}
	key := enumKey(s)
	sharedName, isShared := b.shared[key]
	if isShared {
		if e, ok := b.intern.enum(key); ok {
			return &ir.Type{Kind: ir.TDecl, Decl: e}
		}
		name = sharedName
	} else if t, ok := b.intern.typeAt(s.Pointer); ok {
		return t
	} else {
		name = b.inlineName(name, s)
	}
	if !b.claim(name, s.Pointer) {
		return &ir.Type{Kind: ir.TRaw}
	}
	e := &ir.Enum{DeclInfo: ir.DeclInfo{Name: name, Doc: b.docText(name, s), Pointer: s.Pointer, Definition: s.Name}, Base: base}
	b.enumConsts(e, s)
	t := &ir.Type{Kind: ir.TDecl, Decl: e}
	if isShared {
		b.intern.setEnum(key, e)
	} else {
		b.intern.setTypeAt(s.Pointer, t)
	}
	if s.Name != "" {
		b.intern.setTypeAt(s.Pointer, t)
	}
	b.add(e)
	return t
}

// enumConsts gives the values of e (of schema s) their Go constants,
// named by the type and the value (the loader has refused repeated
// values). Values whose constant names would be the same ("dark-mode" and "dark_mode",
// "C" and "c"), or whose name another declaration has, get no constant,
// with a warning: the type still holds them and Validate accepts them.
func (b *builder) enumConsts(e *ir.Enum, s *schema.Schema) {
	type cand struct {
		name string
		v    *schema.Value
	}
	var cands []cand
	count := map[string]int{}
	for _, v := range s.Enum {
		var word string
		switch {
		case e.Base == ir.KString && v.Str == "":
			word = "Empty" // the empty string is a value like any other
		case e.Base == ir.KString:
			word = enumWord(v.Str)
		default:
			n, _ := int64Of(v.Num) // 1e1 and 10.0 are 10
			word = strings.ReplaceAll(strconv.FormatInt(n, 10), "-", "Minus")
		}
		cands = append(cands, cand{e.Name + word, v})
		count[e.Name+word]++
	}
	ptr := s.Pointer + "/enum"
	clashes := map[string][]string{}
	var order []string
	for _, c := range cands {
		ev := &ir.EnumValue{Value: value(c.v)}
		e.Values = append(e.Values, ev)
		owner, taken := b.owners[c.name]
		switch {
		case count[c.name] > 1:
			if clashes[c.name] == nil {
				order = append(order, c.name)
			}
			clashes[c.name] = append(clashes[c.name], c.v.JSON())
		case taken && owner != ptr:
			what := displayPtr(owner)
			if own, reserved := strings.CutPrefix(owner, reservedOwner); reserved {
				what = own
			}
			b.warnf(ptr, "the Go constant %s of enum value %s is taken by %s, so the value gets no constant (write %s(%s)); %s holds it and Validate accepts it", c.name, c.v.JSON(), what, e.Name, c.v.JSON(), e.Name)
		default:
			b.owners[c.name] = ptr
			ev.Name = c.name
		}
	}
	for _, cn := range order {
		vals := clashes[cn]
		all, none := "all", "none of them gets"
		if len(vals) == 2 {
			all, none = "both", "neither gets"
		}
		b.warnf(ptr, "enum values %s %s map to the Go constant %s, so %s a constant (write %s(%s)); %s holds them and Validate accepts them", strings.Join(vals, ", "), all, cn, none, e.Name, vals[0], e.Name)
	}
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
	// A name two different enums would share, or one a definition (or
	// the package) already has, is no one's: those enums are named where
	// they are, like any inline type.
	wanted := map[string]int{}
	names := map[string]string{}
	for _, k := range order {
		if len(count[k]) < 2 {
			continue
		}
		prop := schema.UnescapePointer(strings.SplitN(k, "\x00", 2)[0])
		name, err := propertyGoName(prop)
		if err != nil {
			continue
		}
		if _, taken := b.owners[name]; taken {
			continue
		}
		names[k] = name
		wanted[name]++
	}
	for k, name := range names {
		if wanted[name] == 1 {
			b.shared[k] = name
		}
	}
}

// findOpaque marks the definitions that stay raw JSON: those on a $ref
// cycle that passes through no "properties" (free-form recursive JSON such
// as JSONValue and JSONObject).
func (b *builder) findOpaque() {
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
	// A definition is opaque when it can reach itself: when it is on a
	// cycle of the graph, that is, in a strongly connected component of
	// more than one definition, or with an edge to itself. Tarjan's
	// algorithm finds the components in one pass (a search from every
	// definition would be quadratic on a long $ref chain).
	index := map[*schema.Schema]int{}
	low := map[*schema.Schema]int{}
	onStack := map[*schema.Schema]bool{}
	var stack []*schema.Schema
	var connect func(d *schema.Schema)
	connect = func(d *schema.Schema) {
		index[d] = len(index)
		low[d] = index[d]
		stack = append(stack, d)
		onStack[d] = true
		for _, n := range edges[d] {
			if _, seen := index[n]; !seen {
				connect(n)
				low[d] = min(low[d], low[n])
			} else if onStack[n] {
				low[d] = min(low[d], index[n])
			}
		}
		if low[d] != index[d] {
			return
		}
		var comp []*schema.Schema
		for {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[n] = false
			comp = append(comp, n)
			if n == d {
				break
			}
		}
		if len(comp) > 1 || slices.Contains(edges[d], d) {
			for _, n := range comp {
				b.opaque[n] = true
			}
		}
	}
	for _, d := range b.doc.Defs {
		if _, seen := index[d]; !seen {
			connect(d)
		}
	}
}
