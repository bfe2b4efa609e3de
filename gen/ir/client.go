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
	// Request is the struct of the input request (ElicitRequest), a branch
	// of InputRequest, and ParamsField its params field (nil: none).
	Request     *Struct
	ParamsField *Field
	// Answer is the type of its answer among the inputResponses
	// (*ElicitResult, a branch of InputResponse); nil when the revision's
	// InputResponse has no branch of Result.
	Answer *Type
}

// Names are the exported names the client declares.
func (c *ClientSupport) Names() []string {
	return []string{c.Client, c.Connect}
}

// ClientList is a paginated list the Client ranges over: Client.Tools
// iterates over the pages of tools/list (server/utilities/pagination.mdx).
type ClientList struct {
	Iter string      // the Client's method: Tools
	Call *ClientCall // the request that reads a page: ListTools
	// Params is the struct of the request's params (PaginatedRequestParams)
	// and Cursor its cursor field (a *string).
	Params *Struct
	Cursor string
	// Items is the result's field with the page's items (Tools), Item
	// their type (Tool), Next the result's nextCursor field (a *string).
	Items string
	Item  *Type
	Next  string
}

// ServerAsk is a request a server of a revision with the initialize
// handshake sends its client, as a function of the package with typed
// params and result: Elicit sends elicitation/create.
type ServerAsk struct {
	Method *Method
	Func   string
}

// ServerNotify is a notification a server sends its client from a
// handler, as a function of the package with typed params:
// SendElicitationComplete sends notifications/elicitation/complete.
type ServerNotify struct {
	Method *Method
	Func   string
}

// TypedCalls are the typed calls of a package beyond one method per
// request (calls.go): the Client's iterators and tool calls with Go
// values, the server's requests to its client and its notifications.
type TypedCalls struct {
	// Lists are the Client's iterators over paginated lists.
	Lists []*ClientList
	// Call and CallAs are the Client's method that calls a tool with a
	// Go value for its arguments and the function that also decodes its
	// structured output; "" when the revision lacks what they need.
	Call, CallAs string
	// MaxPages is set when ClientOptions has MaxPages (the bound of the
	// iterators).
	MaxPages bool
	// Asks are the server's typed requests to its client (revisions with
	// the initialize handshake).
	Asks []*ServerAsk
	// Asker and AskFunc name the type and constructor that ask for input
	// from a handler of a multi round-trip request (2026-07-28): "" when
	// the revision has none.
	Asker, AskFunc string
	// AskRequests and AskResponses are the types of the inputRequests
	// of an InputRequiredResult and of the inputResponses of a retry
	// (InputRequests, InputResponses), for the asker.
	AskRequests, AskResponses *Type
	// Notifies are the server's typed notifications.
	Notifies []*ServerNotify
	// Read is the Client's method that reads a resource by its URI
	// (resources/read with the uri alone): ReadResource's call, and the
	// params struct and its uri field; "" when the revision lacks them.
	Read       string
	ReadCall   *ClientCall
	ReadParams *Struct
	ReadURI    string
	// Texts are the results that get a Text method, which joins the text
	// of their text content (CallToolResult, ReadResourceResult).
	Texts []*ResultText
	// Require names the function that makes the error for client
	// capabilities a request needs, from a RequireCaps value (the
	// ClientCapabilities struct); "" when the revision has none.
	Require     string
	RequireCaps *Struct
	// Form, when set, makes form elicitations of a Go struct's fields and
	// decodes their answers.
	Form *FormCall
}

// FormCall is Form[T](message), which makes the params of a form
// elicitation (Params, its Message and Schema fields: the requestedSchema
// from T), and Value[T](result), which decodes an accepted answer (a
// Result) into a T.
type FormCall struct {
	Form, Value     string
	Params          *Struct
	Message, Schema string
	Result          *Struct
}

// ResultText is a result whose Text method joins the text of its content:
// the members of the slice Content that are a Branch (a struct) with a
// string field TextField.
type ResultText struct {
	Result    *Struct
	Content   string
	Branch    string
	TextField string
}

// Names are the package-level names the typed calls declare.
func (t *TypedCalls) Names() []string {
	var names []string
	if t.CallAs != "" {
		names = append(names, t.CallAs)
	}
	for _, a := range t.Asks {
		names = append(names, a.Func)
	}
	if t.Asker != "" {
		names = append(names, t.Asker, t.AskFunc)
	}
	for _, n := range t.Notifies {
		names = append(names, n.Func)
	}
	return names
}
