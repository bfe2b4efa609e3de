package ir

// Older is an older revision whose messages a package converts to and from
// its own types (mcpgen generate --serve-older): the older revision's own
// generated package, the methods both carry, and every pair of types those
// methods reach, with what each direction does with every member. The
// builder decides all of it by comparing the two packages' IR; the emitter
// of the conversions reads only this.
type Older struct {
	Revision   string // "2025-11-25"
	Package    string // the older package's Go name: mcp20251125
	ImportPath string // its import path
	File       string // the generated file: older_mcp20251125.go
	// Var is the exported variable of type *Older (the runtime type) that
	// holds the conversions: Older20251125.
	Var string
	// Methods are the methods both revisions carry (and the input
	// requests the newer revision embeds in InputRequiredResult that the
	// older one sends as requests), sorted by name.
	Methods []*ConvMethod
	// Pairs are the pairs converted by functions of their own (structs,
	// unions, multi-kind values, checked enums), sorted by new Go name,
	// then old.
	Pairs []*Pair
	// Values are the pairs ToOlder and FromOlder convert: each new Go type
	// and each old Go type appears at most once, sorted by new Go name.
	Values []*Pair
	// The functions behind ToOlder and FromOlder, and the one that turns
	// the older package's validation and syntax errors into this
	// package's.
	ToValue, FromValue, Errors string
}

// ConvMethod is one method both revisions carry.
type ConvMethod struct {
	Name         string
	Notification bool
	// NewParams and OldParams are the params types (nil when that
	// revision's message has none); Params pairs them when both have them.
	NewParams, OldParams                 *Type
	NewParamsRequired, OldParamsRequired bool
	Params                               *Pair
	// Result pairs the result types (nil for a notification).
	Result *Pair
	// The functions of the runtime table: params from and to the older
	// revision's JSON, result from and to it.
	ParamsUp, ParamsDown, ResultUp, ResultDown string
}

// PairKind says how a pair of types converts.
type PairKind int

// Pair kinds.
const (
	// PairAssign: the two sides are the same Go type (string, []string,
	// json.RawMessage): an assignment.
	PairAssign PairKind = iota
	// PairCast: the same basic kind (string, integer, number, boolean, raw
	// JSON) under different named types: a Go conversion, checked in a
	// direction whose Conv lists Allowed values.
	PairCast
	// PairStruct converts member by member (Fields).
	PairStruct
	// PairUnion converts branch by branch (Branches).
	PairUnion
	// PairKinds converts a multi-kind value kind by kind (Alts).
	PairKinds
	// PairSlice and PairMap convert element by element (Elem).
	PairSlice
	PairMap
	// PairCodec converts through JSON: the source's encoder, then the
	// target's decoder (struct and raw JSON, or other shapes that differ).
	PairCodec
)

// Pair is a new type and the old type it converts to and from.
type Pair struct {
	Kind     PairKind
	New, Old *Type
	// Down converts new to old, Up old to new.
	Down, Up *Conv
	Elem     *Pair         // PairSlice, PairMap
	Fields   []*PairField  // PairStruct, in JSON name order
	Branches []*PairBranch // PairUnion: every concrete branch of either side
	Alts     []*PairAlt    // PairKinds: every kind of either side
}

// Conv is one direction of a pair.
type Conv struct {
	// Func is the function that converts (unexported); "" when the
	// conversion is written inline (assign, unchecked cast, slice, map,
	// codec).
	Func string
	// Allowed lists the values the target accepts when the source may
	// hold others (PairCast); nil means every source value exists in the
	// target.
	Allowed []*Value
	// Drop lists members the target drops (PairCodec into raw JSON: the
	// era members of the source struct).
	Drop []string
	// Zeros are the members a struct target requires that the runtime
	// fills (era members): JSON that lacks them gets their zero values
	// before it is decoded (PairCodec).
	Zeros []*ZeroMember
	// Skip lists the source's unknown members (Extra) that fill target
	// fields (FieldFill with FromExtra); the rest go to the target's Extra
	// (ExtraCopy) or are an error (the target keeps none).
	Skip      []string
	ExtraCopy bool
}

// FieldRule says what one direction does with a member.
type FieldRule int

// Field rules.
const (
	// FieldConvert: both sides declare the member.
	FieldConvert FieldRule = iota
	// FieldToExtra: the target does not declare it but keeps unknown
	// members; it goes to the target's Extra as JSON.
	FieldToExtra
	// FieldDrop: an era member the runtime handles (Why says how); it is
	// left out.
	FieldDrop
	// FieldRefuse: the target can carry it nowhere; a value that has it
	// fails to convert.
	FieldRefuse
	// FieldFill: only the target declares it: taken from the source's
	// Extra when FromExtra, else Default, else absent (an error when the
	// target requires it, unless Zero).
	FieldFill
)

// PairField is one member of a struct pair.
type PairField struct {
	JSONName string
	New, Old *Field // nil on the side that does not declare it
	Pair     *Pair  // FieldConvert: how the values convert
	Down, Up *FieldConv
}

// FieldConv is what one direction does with a member.
type FieldConv struct {
	Rule FieldRule
	// FromExtra: FieldFill takes the source's unknown member of this name.
	FromExtra bool
	// Default is the target's value when the source has none (FieldFill):
	// resultType "complete" from an older revision. DefaultConst is the Go
	// constant that holds it, or "".
	Default      *Value
	DefaultConst string
	// Zero: the target requires the member and gets its zero value when
	// the source has none (_meta, whose era members the runtime fills).
	Zero bool
	// Drop lists the era members of the value that FieldToExtra leaves out
	// of the JSON it writes (a new _meta going to an older revision's
	// Extra).
	Drop []string
	// Zeros are what FieldFill adds to the JSON it takes from the source's
	// Extra before decoding it (see Conv.Zeros).
	Zeros []*ZeroMember
	// OmitEmpty: an empty object (`_meta: {}`) is left out of the target,
	// which does not require the member; {} and no _meta say the same.
	OmitEmpty bool
	// Why documents a drop, a default or a zero value.
	Why string
}

// ZeroMember is a member and the JSON of its zero value.
type ZeroMember struct {
	Name, JSON string
}

// PairBranch is one concrete branch of a union pair: both sides, or one
// side only (the other revision cannot carry it). Every branch of the new
// side appears once with Down set (the cases of the conversion to the
// older revision), every branch of the old side once with Up set; a
// branch several branches of the other side convert to appears once more
// for each of them (EnumSchema of 2025-06-18 takes both the untitled and
// the legacy titled enum schemas of 2025-11-25, and comes back as the
// untitled one).
type PairBranch struct {
	New, Old *Type // TDecl branch types (nil where missing)
	Pair     *Pair // when both
	Down, Up bool
	// Label names the source branch in errors: `ResourceLink (type "resource_link")`.
	Label string
}

// PairAlt is one JSON kind of a multi-kind pair.
type PairAlt struct {
	New, Old *KindAlt // nil where missing
	Pair     *Pair    // when both have a value field (nil for null)
}
