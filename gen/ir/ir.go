// Package ir is the intermediate representation between the schema model
// (package schema) and the emitted Go (package emit). It is plain data:
// every Go name is decided when the builder (package gen) makes it, and the
// emitters read nothing else; in particular no schema node reaches them.
package ir

import "strings"

// Package is one generated Go package.
type Package struct {
	Name     string // Go package name
	Revision string
	// ProtocolVersion is the protocolVersion the package announces and
	// accepts (the ProtocolVersion constant): the revision's name unless
	// it was given (a draft's).
	ProtocolVersion string
	Source          SourceInfo
	Decls           []Decl // sorted by Go name
	// Protocol is the JSON-RPC layer: the method table and what the
	// revision's era needs. Nil when the schema defines no methods.
	Protocol *Protocol
	// Validators says whether to emit Validate and the validation code.
	Validators bool
	// MCP is set when the schema is an MCP revision (a pinned one, or one
	// with MCP's direction definitions); the prose names the protocol then.
	MCP bool
	// Command is the command line that regenerates the package, or "" to
	// show the usual one with DIR for the output directory.
	Command string
	// NoDispatcher says why there is no dispatcher ("" when there is one).
	NoDispatcher string
	// Older are the older revisions the package converts its messages to
	// and from (--serve-older), newest first; empty without.
	Older []*Older
	// OlderRevisions is the exported list of their conversions
	// (OlderRevisions), or "" without.
	OlderRevisions string
	// OwnNames are the names of the package's own API that gave way to a
	// definition's (a schema's definitions keep their names): the usual
	// name, then the one declared (MCPServer for Server), or "" for a
	// runtime name the package does not re-export then. See Own.
	OwnNames map[string]string
	// ReExported are the names of the runtime the package re-exports
	// (runtime.go), in the order of RuntimeNames: those of the layers it
	// has that no definition has.
	ReExported []string
}

// Own is the name the package declares for what is usually name: name,
// unless a definition has it (OwnNames).
func (p *Package) Own(name string) string {
	if to, ok := p.OwnNames[name]; ok && to != "" {
		return to
	}
	return name
}

// ReExports reports whether the package re-exports the runtime's name
// (false when a definition has it).
func (p *Package) ReExports(name string) bool {
	to, ok := p.OwnNames[name]
	return !ok || to != ""
}

// Protocol is what the dispatcher emitters need to know about a revision.
type Protocol struct {
	Methods []*Method // sorted by method name
	// Modern is set for revisions with per-request _meta (protocol version,
	// client capabilities) and server/discover (2026-07-28 and later);
	// legacy revisions use the initialize handshake.
	Modern bool
	// Batches is set when the revision allows JSON-RPC batches (2025-03-26).
	Batches bool
	// ErrorIDOptional is set when an error response may leave out its id
	// (2025-11-25 and later), which it then does when the id could not be
	// read; earlier revisions require the id and get null.
	ErrorIDOptional bool
	// Types the dispatcher uses by role; nil when the revision lacks them.
	Implementation     *Type // serverInfo / clientInfo (a struct, or an external type)
	ServerCapabilities *Struct
	ClientCapabilities *Struct
	InputRequired      *Struct // InputRequiredResult (modern)
	ResultType         Decl    // the ResultType definition (modern)
	CacheScope         *Enum   // modern
	// ErrorCodes are the MCP error codes of the revision, beyond the
	// JSON-RPC ones the runtime declares, sorted by code, descending.
	ErrorCodes []*ErrorCode
	// Sides are the two directions (the server's side first), with the
	// names of their handler, dispatcher and options.
	Sides []*Side
	// Names are the other names dispatch.go declares.
	Names ProtocolNames
	// Results are the result types whose members the protocol gives a
	// meaning, sorted by name.
	Results []*Result
	// Complete and InputRequiredType are the ResultType constants of a
	// complete result and of an InputRequiredResult; "" when the revision
	// has no resultType.
	Complete, InputRequiredType string
	// DefaultCacheScope is the CacheScope constant of the default
	// server/discover answer (public), or "".
	DefaultCacheScope string
	// InputKinds are the requests an InputRequiredResult may carry (the
	// branches of its inputRequests map), each with the result its answer
	// must be, in branch order; empty without multi round-trip requests.
	InputKinds []*InputKind
	// Tasks is what the server side of the tasks extension (SEP-2663)
	// needs of the revision; nil when the revision cannot carry it.
	Tasks *TaskSupport
	// Tools is the tool set (Tools, AddTool); nil when the revision has no
	// tools/list and tools/call of the specification's shape.
	Tools *ToolSupport
	// Client is the typed client (Client, Connect); nil when the schema
	// lacks the client's side of the protocol.
	Client *ClientSupport
	// Typed are the typed calls of calls.go (iterators, tool calls with Go
	// values, the server's requests and notifications to its client); nil
	// when the package has none.
	Typed *TypedCalls
}

// TaskSupport is what the typed glue of the tasks extension needs: the
// tools/call method (the one method a server may answer with a task), its
// result struct, and the map types of input requests and their answers.
type TaskSupport struct {
	Call      *Method
	Result    *Struct
	Requests  string // InputRequests
	Responses string // InputResponses
	// Extensions is the ServerCapabilities field that lists extensions
	// (raw JSON objects by name), where the dispatcher advertises the
	// extension; nil when the revision has none.
	Extensions *Field
}

// InputKind pairs the method of an input request (elicitation/create)
// with the struct its answer must be (ElicitResult).
type InputKind struct {
	Method string
	Result *Struct
}

// Side is one direction of the protocol, as the dispatcher of its receiver
// sees it.
type Side struct {
	Dir           Direction
	Handler       string // ServerHandler
	Unimplemented string // UnimplementedServerHandler
	Dispatcher    string // ServerDispatcher
	Options       string // ServerOptions
	Constructor   string // NewServerDispatcher
	Receiver      string // "server", for prose
	Sender        string // "client"
}

// ProtocolNames are the names of what dispatch.go declares besides the
// sides: package-level names, and the helper methods of result types.
type ProtocolNames struct {
	MethodInfo, Methods, DecodeResult, NeedInput, CacheKey string
	// Methods of the Result structs.
	EffectiveResultType, TTL, Fresh string
	// Methods of every struct with _meta.
	MetaValue, SetMetaValue string
}

// Result is a result struct and the members of it the protocol gives a
// meaning (nil when it has none of them).
type Result struct {
	Struct *Struct
	// ResultType is resultType, typed by the ResultType definition: the
	// dispatcher fills it in a handler's result, DecodeResult fills it
	// ("complete") when an earlier server left it out, and the struct
	// gets EffectiveResultType.
	ResultType *Field
	// TTL is ttlMs of a cacheable result: the struct gets TTL and Fresh.
	TTL *Field
	// Meta is _meta, ServerInfo its io.modelcontextprotocol/serverInfo
	// member of the Implementation type: the dispatcher fills it.
	Meta, ServerInfo *Field
}

// Source says which option (or request field) a default answer's field
// is filled from.
type Source int

// Sources of default answers.
const (
	FromSupportedVersions Source = iota + 1
	FromCapabilities
	FromServerInfo
	FromInstructions
	FromNegotiatedVersion // the request's protocolVersion if supported, else the first supported
	FromDiscoverTTL
	FromDiscoverCacheScope
)

// DefaultField is a field of a default answer and where its value comes
// from.
type DefaultField struct {
	Field  *Field
	Source Source
	// Param is the request's field, for FromNegotiatedVersion.
	Param *Field
}

// ErrorCode is a named JSON-RPC error code.
type ErrorCode struct {
	Name       string // CodeHeaderMismatch
	Code       int64
	Definition string // the Go type of the error definition, or ""
	Doc        string
}

// ExternalType is an existing Go type: import path and name.
type ExternalType struct {
	ImportPath string
	Name       string
}

// SourceInfo says where the schema came from, for the package docs.
type SourceInfo struct {
	URL    string // upstream URL, or the path/URL given with --schema
	SHA256 string
	Pinned bool
}

// Decl is a named Go type declaration: one of *Struct, *Tuple, *Enum,
// *Union, *Kinds, *Raw, *Named, *Alias.
type Decl interface {
	GoName() string
	Info() *DeclInfo
}

// DeclInfo is what every declaration has.
type DeclInfo struct {
	Name       string // Go name
	Doc        string // doc comment text, without comment markers
	Pointer    string // JSON pointer of the schema node it comes from
	Definition string // the definition name when it is one
}

// GoName is the declared Go name.
func (d *DeclInfo) GoName() string { return d.Name }

// Info returns the common part of a declaration.
func (d *DeclInfo) Info() *DeclInfo { return d }

// DefName is the name of the definition the declaration comes from, or ""
// for an inline schema. Definition is empty for a definition built by
// merging allOf; its pointer still names it ("/$defs/CancelTaskResult").
func (d *DeclInfo) DefName() string {
	if d.Definition != "" {
		return d.Definition
	}
	rest, ok := strings.CutPrefix(d.Pointer, "/$defs/")
	if !ok {
		rest, ok = strings.CutPrefix(d.Pointer, "/definitions/")
	}
	if !ok || rest == "" || strings.Contains(rest, "/") {
		return ""
	}
	return strings.ReplaceAll(strings.ReplaceAll(rest, "~1", "/"), "~0", "~")
}

// Struct is an object schema with declared properties.
type Struct struct {
	DeclInfo
	Fields []*Field
	// Extra holds the members the schema does not name; nil when the
	// schema forbids them (additionalProperties: false).
	Extra *Extra
	// Whole, when set, is what Validate checks the struct's JSON encoding
	// against instead of checking its fields: the schema uses keywords
	// the fields cannot be checked by one at a time.
	Whole *Check
	// Meta, when set, gives the struct the methods that read and write one
	// member of its _meta as JSON, whatever the Go type of _meta.
	Meta *MetaAccess
}

// MetaAccess is the field of a struct's _meta and the names of the
// methods that read and write one of its members: Get(key) returns the
// member's JSON, Set(key, value) replaces it.
type MetaAccess struct {
	Field    *Field
	Get, Set string
}

// Tuple is an array schema with prefixItems (draft-07: "items" as an
// array): a struct with one field per position, and the elements after
// them in Rest.
type Tuple struct {
	DeclInfo
	// Items are the positions, named Item0, Item1, ...: the ones below
	// minItems are Required; an optional one is absent when nil (and then
	// so must be every later one).
	Items []*Field
	// Rest is the field of the elements after the positions, of type
	// []RestType; RestType is nil when the schema allows none (items:
	// false), and then so is Rest.
	Rest     string
	RestType *Type
	// RestKeyword names the keyword of the elements after the positions:
	// "items" (2020-12) or "additionalItems" (draft-07).
	RestKeyword        string
	MinItems, MaxItems *int64
	Whole              *Check // as for Struct
}

// Extra is the field that keeps undeclared members.
type Extra struct {
	Name string // Go field name
	// Value is the type of each member's value; a TRaw with no constraints
	// when additionalProperties is absent, true or {}.
	Value *Type
}

// Field is one declared property.
type Field struct {
	Name     string // Go field name ("" for a required const: no field)
	JSONName string
	Doc      string
	Required bool
	// Const is set when the property is a const: a required const has no
	// Go field and is written by the type; an optional one is a pointer
	// field that must hold the constant.
	Const *Value
	Type  *Type
	// Getter is the name of the nil-safe getter of an optional scalar
	// (GetIsError), or "".
	Getter string
}

// Pointer reports whether the Go field is a pointer (optional scalars and
// structs).
func (f *Field) Pointer() bool {
	if f.Required {
		return false
	}
	return f.Type.NeedsPointer()
}

// Enum is a named string or integer type with one constant per value.
type Enum struct {
	DeclInfo
	Base   Kind // KString or KInt
	Values []*EnumValue
}

// EnumValue is one allowed value.
type EnumValue struct {
	Name  string // Go constant name
	Value *Value
}

// Union is a sum type: a sealed interface (the union's own name) that only
// the branch types implement.
type Union struct {
	DeclInfo
	// Holder is the struct that holds one value of the union on its own
	// (for NewValue, UnmarshalAndValidate, json.Unmarshal); Unmarshal is
	// the function that decodes one.
	Holder    string
	Unmarshal string
	Marker    string // name of the unexported marker method
	OneOf     bool   // oneOf: exactly one branch may match; anyOf: at least one
	Branches  []*Branch
	Plan      *UnionPlan
}

// Branch is one alternative of a union.
type Branch struct {
	Type *Type // always a TDecl
	// Kinds are the JSON kinds the branch can decode.
	Kinds []Kind
	// Tags maps each member whose value the branch fixes to a few strings
	// (a string const or a string enum) to those strings. Required lists
	// its required members.
	Tags     map[string][]string
	Required []string
}

// UnionPlan says how a union decodes: by the JSON kind of the value, then,
// for objects, by the value of a discriminator member.
type UnionPlan struct {
	ByKind []*KindCase
	// Discriminator is the member whose const value picks the branch; ""
	// when the object branches have none.
	Discriminator string
	ByTag         []*TagCase
	// Untagged lists the candidates when the discriminator is absent.
	Untagged []int
	// Unknown lists the candidates when the discriminator has a value no
	// branch declares (branches that do not constrain it); empty means the
	// value is an error.
	Unknown []int
	// Allowed lists the discriminator values, for the error message.
	Allowed []string
}

// KindCase lists the branches (indexes, in preference order) that can hold
// a value of one JSON kind. For KObject with a Discriminator, Candidates is
// unused and the tag cases decide.
type KindCase struct {
	Kind       Kind
	Candidates []int
}

// TagCase lists the candidates for one discriminator value.
type TagCase struct {
	Value      string
	Candidates []int
}

// Kinds is a value of one of several JSON kinds without object branches
// ("type": ["string", "integer"]): a comparable struct with a Kind field,
// one field per kind that has a value, and one accessor per kind.
type Kinds struct {
	DeclInfo
	Alts []*KindAlt
}

// KindAlt is one kind a Kinds value can hold.
type KindAlt struct {
	Kind  Kind
	Name  string // Go name used in accessors: String, Integer, Number, Boolean, Null, Array
	Type  *Type  // the Go type for the kind (nil for null)
	Field string // the struct field holding the value: Str, Int, Num, Bool, Arr, Obj
}

// Raw is a named opaque JSON type that keeps its exact bytes (JSONValue).
type Raw struct {
	DeclInfo
	Check *Check // what the bytes must satisfy
}

// Named is a named non-struct type: `type Cursor string`,
// `type JSONArray []JSONValue`, `type M map[string]T`.
type Named struct {
	DeclInfo
	Type *Type
	// Consts are the values the specification defines for a string type
	// whose schema does not list them (ResultType).
	Consts []*Const
}

// Const is a named constant of a Named string type.
type Const struct {
	Name  string // Go name: ResultTypeComplete
	Value string
	Doc   string
}

// Alias is a definition that is only a $ref to another: `type A = B`.
type Alias struct {
	DeclInfo
	Target *Type
	// Final is Target with every alias followed, when the builder knows it
	// (nil: follow Target). It keeps Resolve constant-time on a chain of
	// aliases, which would otherwise make a long chain quadratic.
	Final *Type
}

// Kind is a JSON kind as the decoder sees it.
type Kind int

// JSON kinds. KInt and KFloat are both JSON numbers.
const (
	KNull Kind = iota
	KBool
	KInt
	KFloat
	KString
	KArray
	KObject
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "integer", "number", "string", "array", "object"}[k]
}

// TKind says what a Type is.
type TKind int

// Type kinds.
const (
	TString TKind = iota
	TInt
	TFloat
	TBool
	TRaw      // json.RawMessage
	TDecl     // a named declaration
	TSlice    // []Elem
	TMap      // map[string]Elem
	TExternal // an existing Go type (Ext)
)

// Type is how a use site (a field, an element, a map value) is typed, with
// the validation that applies there.
type Type struct {
	Kind TKind
	Decl Decl          // TDecl
	Elem *Type         // TSlice, TMap
	Ext  *ExternalType // TExternal
	C    Constraints
}

// NeedsPointer reports whether an optional field of this type is a pointer
// (to tell absent from zero).
func (t *Type) NeedsPointer() bool {
	switch t.Kind {
	case TString, TInt, TFloat, TBool, TExternal:
		return true
	case TDecl:
		switch d := t.Decl.(type) {
		case *Struct, *Tuple, *Enum:
			return true
		case *Named:
			return d.Type.NeedsPointer()
		case *Alias:
			return d.Target.NeedsPointer()
		}
	}
	return false
}

// Resolve follows aliases.
func (t *Type) Resolve() *Type {
	for t.Kind == TDecl {
		a, ok := t.Decl.(*Alias)
		if !ok {
			break
		}
		if a.Final != nil {
			return a.Final
		}
		t = a.Target
	}
	return t
}

// Constraints are the validation keywords that apply at a use site.
type Constraints struct {
	Format                             string
	Minimum, Maximum                   *string
	ExclusiveMinimum, ExclusiveMaximum *string
	MinLength, MaxLength               *int64
	Pattern                            *string // Go regexp source
	PatternText                        string  // the pattern as the schema writes it, for messages
	MultipleOf                         *string
	MinItems, MaxItems                 *int64
	// The keys and the number of members of a map (TMap): KeyPattern is
	// the Go regexp every key must match (patternProperties with
	// additionalProperties false), KeyPatternText as the schema writes it.
	KeyPattern                   *string
	KeyPatternText               string
	MinProperties, MaxProperties *int64
	// Enum restricts a value that is not a named enum (integer enums of
	// mixed kinds, enums on raw values).
	Enum []*Value
	// Const restricts an optional const field or a const element.
	Const *Value
	// Raw is what raw bytes must satisfy (TRaw); nil accepts any JSON.
	Raw *Check
	// Whole, when set, is what Validate checks the value's JSON encoding
	// against instead of the constraints above: the schema uses keywords
	// a Go value cannot be checked by directly (not, contains, ...).
	Whole *Check
}

// Direction says who sends a method.
type Direction int

// Directions.
const (
	ClientToServer Direction = iota + 1
	ServerToClient
)

// Method is one JSON-RPC request or notification of the protocol.
type Method struct {
	Name         string // "tools/call"
	Const        string // Go constant holding the name: MethodCallTool
	Handler      string // Go method of the handler interface: CallTool, OnCancelled
	Notification bool
	Direction    Direction
	Definition   *Struct // the request or notification (CallToolRequest)
	// Params is the type of the params member; nil when the message has
	// none. ParamsRequired says whether params must be present.
	Params         *Type
	ParamsRequired bool
	// Result is the result type of a request (nil for notifications).
	Result *Type
	// Cacheable is set when the result carries ttlMs and cacheScope.
	Cacheable bool
	// InputRequired is set when the method may answer with an
	// InputRequiredResult (multi round-trip requests).
	InputRequired bool
	// Default says the dispatcher answers the method itself when the
	// handler does not implement it, and how (the Default constants); ""
	// when it does not.
	Default string
	// DefaultFields are the fields of the default answer (discover,
	// initialize) the dispatcher fills from its options.
	DefaultFields []*DefaultField
}

// The answers the dispatcher gives itself (Method.Default).
const (
	DefaultDiscover    = "discover"    // server/discover, from the options
	DefaultInitialize  = "handshake"   // initialize, from the options
	DefaultPing        = "pong"        // an empty result (ping)
	DefaultInitialized = "initialized" // a notification accepted silently
	// DefaultSession is an empty result, the runtime keeping what the
	// request sets in the session (logging/setLevel, resources/subscribe
	// and unsubscribe).
	DefaultSession = "session"
)

// Value is a JSON value the schema states (a const, an enum value).
type Value struct {
	Kind ValueKind
	Bool bool
	Num  string // the number's text, for Number
	Str  string
	JSON string // the value as compact JSON text
}

// ValueKind is the JSON kind of a Value.
type ValueKind int

// Value kinds.
const (
	Null ValueKind = iota
	Bool
	Number
	String
	Array
	Object
)

// Check is a schema node as the validators of raw JSON need it: the
// validation keywords, with $ref resolved to the target's Check (a graph,
// cycles included). Annotations are left out.
type Check struct {
	Pointer string // where the node is, for the check function's doc
	// IsBool marks a boolean schema; Accept is its value.
	IsBool, Accept bool

	Ref                 *Check
	AllOf, AnyOf, OneOf []*Check

	// Types are the kinds of the "type" keyword (KInt for "integer",
	// KFloat for "number"); nil when absent.
	Types []Kind
	Const *Value
	Enum  []*Value

	Properties           []*CheckProperty
	Required             []string
	AdditionalProperties *Check // nil when absent
	PatternProperties    []*CheckPattern
	// UnknownPatterns is set when patternProperties has a pattern Go's
	// regexp cannot match: additionalProperties is then not enforced, and
	// the node counts as evaluating every member.
	UnknownPatterns              bool
	PropertyNames                *Check
	MinProperties, MaxProperties *int64
	Dependencies                 []*CheckDependency
	UnevaluatedProperties        *Check

	// PrefixItems check the first elements, Items the elements after
	// them (ItemsKeyword is "items" or draft-07's "additionalItems").
	PrefixItems              []*Check
	Items                    *Check // nil when absent
	ItemsKeyword             string
	MinItems, MaxItems       *int64
	Contains                 *Check
	MinContains, MaxContains *int64 // MinContains nil means 1
	UniqueItems              bool
	UnevaluatedItems         *Check

	Format               string // a format the runtime checks, or ""
	MinLength, MaxLength *int64
	Pattern              *string // Go regexp source
	PatternText          string  // the pattern as the schema writes it, for messages

	Minimum, Maximum                   *string // exact number text
	ExclusiveMinimum, ExclusiveMaximum *string
	MultipleOf                         *string

	Not            *Check
	If, Then, Else *Check

	// Inexact is set when this node or one below it has a keyword the
	// validators cannot enforce: its verdict may be "valid" where the
	// schema says otherwise, so the keywords that negate it (not, the
	// condition of if, a second oneOf match, maxContains) do not trust
	// a pass.
	Inexact bool
}

// Children returns every check c refers to: InPlace, then those of
// members and elements.
func (c *Check) Children() []*Check {
	out := c.InPlace()
	add := func(x *Check) {
		if x != nil {
			out = append(out, x)
		}
	}
	for _, p := range c.Properties {
		add(p.Check)
	}
	for _, p := range c.PatternProperties {
		add(p.Check)
	}
	add(c.AdditionalProperties)
	add(c.PropertyNames)
	add(c.UnevaluatedProperties)
	for _, x := range c.PrefixItems {
		add(x)
	}
	add(c.Items)
	add(c.Contains)
	add(c.UnevaluatedItems)
	return out
}

// CheckProperty is one entry of a Check's properties.
type CheckProperty struct {
	Name  string
	Check *Check
}

// CheckPattern is one entry of patternProperties.
type CheckPattern struct {
	Pattern string // Go regexp source
	Text    string // as the schema writes it
	Check   *Check
}

// CheckDependency is one entry of dependentRequired, dependentSchemas or
// draft-07 dependencies.
type CheckDependency struct {
	Keyword  string
	Name     string
	Required []string // nil for a schema dependency
	Check    *Check   // nil for a required-members dependency
}

// InPlace returns the checks that apply to the value itself: $ref, allOf,
// anyOf, oneOf, not, if, then, else, the dependent schemas.
func (c *Check) InPlace() []*Check {
	var out []*Check
	add := func(x *Check) {
		if x != nil {
			out = append(out, x)
		}
	}
	add(c.Ref)
	for _, l := range [][]*Check{c.AllOf, c.AnyOf, c.OneOf} {
		for _, x := range l {
			add(x)
		}
	}
	add(c.Not)
	add(c.If)
	add(c.Then)
	add(c.Else)
	for _, d := range c.Dependencies {
		add(d.Check)
	}
	return out
}

// Prop returns the check of property name, or nil.
func (c *Check) Prop(name string) *Check {
	for _, p := range c.Properties {
		if p.Name == name {
			return p.Check
		}
	}
	return nil
}

// IsRequired reports whether name is required.
func (c *Check) IsRequired(name string) bool {
	for _, r := range c.Required {
		if r == name {
			return true
		}
	}
	return false
}

// KindOfType is the one mapping from a JSON Schema "type" name to a Kind:
// "integer" is KInt, "number" KFloat. ok is false for a name that is no
// JSON type.
func KindOfType(t string) (k Kind, ok bool) {
	switch t {
	case "null":
		return KNull, true
	case "boolean":
		return KBool, true
	case "integer":
		return KInt, true
	case "number":
		return KFloat, true
	case "string":
		return KString, true
	case "array":
		return KArray, true
	case "object":
		return KObject, true
	}
	return 0, false
}

// IsNumber reports whether k is a JSON number (an integer or not).
func (k Kind) IsNumber() bool { return k == KInt || k == KFloat }

// IsStruct reports whether t (through aliases) is a struct declaration,
// whose methods have pointer receivers.
func (t *Type) IsStruct() bool {
	_, ok := t.Resolve().Decl.(*Struct)
	return ok && t.Resolve().Kind == TDecl
}

// PointerMethods reports whether t (through aliases) is a struct or a
// tuple, whose methods have pointer receivers.
func (t *Type) PointerMethods() bool {
	r := t.Resolve()
	if r.Kind != TDecl {
		return false
	}
	switch r.Decl.(type) {
	case *Struct, *Tuple:
		return true
	}
	return false
}

// Union returns the union t is (through aliases), or nil.
func (t *Type) Union() *Union {
	t = t.Resolve()
	if t.Kind != TDecl {
		return nil
	}
	u, _ := t.Decl.(*Union)
	return u
}

// Same reports whether t and u name the same type (through aliases).
func (t *Type) Same(u *Type) bool {
	if t == nil || u == nil {
		return false
	}
	t, u = t.Resolve(), u.Resolve()
	switch {
	case t.Kind == TDecl && u.Kind == TDecl:
		return t.Decl == u.Decl
	case t.Kind == TExternal && u.Kind == TExternal:
		return *t.Ext == *u.Ext
	}
	return false
}

// FieldByJSON returns the field of member name, or nil.
func (st *Struct) FieldByJSON(name string) *Field {
	for _, f := range st.Fields {
		if f.JSONName == name {
			return f
		}
	}
	return nil
}

// HasKind reports whether ks lists k.
func HasKind(ks []Kind, k Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}
