package ir

// Older is an older revision whose messages a package converts to and from
// its own (mcpgen generate --serve-older). The conversion works on JSON
// (the runtime leaves out or fills the era members and checks each side
// against its own schema), so what the builder decides is per method; the
// emitter of the conversions reads only this.
type Older struct {
	Revision string // "2025-11-25"
	File     string // the generated file: older_mcp20251125.go
	// SchemaFile is the file beside it holding Schema, which the package
	// embeds in SchemaVar.
	SchemaFile, SchemaVar string
	// Var is the exported variable of type *Older (the runtime type) that
	// holds the conversions: Older20251125.
	Var string
	// Schema is the older revision's schema reduced to what validation
	// reads (JSON), and Definitions the pointer of its definitions
	// ("/$defs", "/definitions").
	Schema      []byte
	Definitions string
	// Methods are the methods both revisions carry (and the input
	// requests the newer revision embeds in InputRequiredResult that the
	// older one sends as requests), sorted by name.
	Methods []*ConvMethod
}

// ConvMethod is one method both revisions carry.
type ConvMethod struct {
	Name         string
	Notification bool
	// ToClient is set for what servers send to clients.
	ToClient bool
	// Params and Result are the JSON pointers of the older revision's
	// params and result schemas ("" where it has none); ParamsRequired says
	// whether it requires the params.
	Params, Result string
	ParamsRequired bool
	// NewParams and NewResult are this package's types (nil where it has
	// none); NewParamsRequired says whether it requires the params.
	NewParams, NewResult *Type
	NewParamsRequired    bool
	// ParamsMeta are the era members this package's params require in
	// their _meta; ResultFill and ResultMeta those its result requires, at
	// the top and in _meta: a conversion from the older revision adds them.
	ParamsMeta, ResultFill, ResultMeta []*ZeroMember
}

// ZeroMember is a member a conversion fills, with its JSON.
type ZeroMember struct {
	Name string
	JSON string
}
