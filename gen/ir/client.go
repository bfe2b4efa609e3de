package ir

// ClientSupport is what the typed client of a package (client.go: Client,
// Connect, one method per request and notification a client sends) is
// emitted from. The builder sets it for every revision whose schema has
// the client's side of the protocol (Implementation, ClientCapabilities,
// requests from client to server); every name is decided there.
type ClientSupport struct {
	// Exported names: the client type and its constructor.
	Client, Connect string
	// Requests are the requests a Client sends, and Notifications the
	// notifications, sorted by method name; the initialize handshake is
	// the Client's own business, not a method.
	Requests, Notifications []*ClientCall
	// Meta is the _meta of the requests of revisions with per-request
	// metadata (RequestMetaObject), whose members the Client fills; nil
	// in revisions with the initialize handshake.
	Meta *ClientMeta
	// Inputs are the input requests an InputRequiredResult may carry, in
	// the order of the revision's union, each answered by a method of the
	// ClientHandler; empty without multi round-trip requests.
	Inputs []*ClientInput
	// InfoName and InfoVersion are the name and version fields of the
	// Implementation struct (for the default clientInfo); "" when the
	// Implementation is an external type.
	InfoName, InfoVersion string
	// Cacheable is set when some request's results carry caching hints:
	// the options then have the cache's.
	Cacheable bool
	// CacheScopePrivate is the CacheScope constant "private", or "".
	CacheScopePrivate string
}

// ClientCall is one request or notification a Client sends.
type ClientCall struct {
	Method *Method
	// Name is the Client's method: CallTool; NotifyCancelled for
	// notifications/cancelled.
	Name string
	// Meta is the params' _meta field when it has the Meta type: the
	// Client fills it.
	Meta *Field
	// ResultType is the result struct's resultType (typed ResultType),
	// which the Client sets to "complete" when a server of an earlier
	// revision leaves it out; nil when the result has none.
	ResultType *Field
	// TTL and CacheScope are the result's ttlMs and cacheScope, which a
	// server of an earlier revision leaves out (the Client then reads
	// them as 0 and private); nil when the result has none.
	TTL, CacheScope *Field
	// Listen marks the request that stays open while the server sends the
	// notifications it asked for (subscriptions/listen).
	Listen bool
}

// ClientMeta is the request _meta struct and the members the Client fills:
// the protocol version (always), the clientInfo and clientCapabilities
// (unless the caller set them).
type ClientMeta struct {
	Struct                                          *Struct
	ProtocolVersion, ClientInfo, ClientCapabilities *Field
	// CapsFields are the fields of ClientCapabilities, all of which can
	// be nil (pointers, maps, slices): a value with every one nil is "not
	// set". Nil when some field cannot be: the Client then leaves the
	// member as the caller wrote it.
	CapsFields []*Field
}

// ClientInput is one input request of a multi round-trip request
// (elicitation/create) and the ClientHandler method that answers it
// (Elicit).
type ClientInput struct {
	Method  string
	Handler string
	// Params is the type of the input request's params (nil when it has
	// none), Result the struct of its answer.
	Params *Type
	Result *Struct
	// Declared is set when the ClientHandler has the method already (the
	// revision also sends the request from server to client); otherwise
	// the handler interface gets it for the Client.
	Declared bool
	// FillDefaults is set for elicitation/create: the defaults of
	// requestedSchema fill what an accepted form leaves out.
	FillDefaults bool
}

// Names are the exported names the client declares.
func (c *ClientSupport) Names() []string {
	return []string{c.Client, c.Connect}
}
