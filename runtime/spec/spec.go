// Package spec holds what the MCP specification says in prose and every
// part of mcpgen must agree on: the method names, error codes, headers and
// _meta keys the code acts on, the members of the newer revisions that the
// older ones carry elsewhere, and (revision.go) which revision has which
// behaviour. The generator reads it
// to decide what it writes; the runtime reads it to decide what it does.
// It imports nothing.
package spec

// The _meta keys of the protocol (basic/index.mdx, 2026-07-28).
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// The methods whose meaning the generator or the runtime knows beyond
// their schema (what a generated package serves is its schema's; these are
// the names the code acts on).
const (
	MethodDiscover    = "server/discover"           // 2026-07-28: the version probe
	MethodInitialize  = "initialize"                // the handshake of the earlier revisions
	MethodInitialized = "notifications/initialized" // its end
	MethodPing        = "ping"
	MethodCancelled   = "notifications/cancelled"
	MethodProgress    = "notifications/progress"

	MethodListTools             = "tools/list"
	MethodCallTool              = "tools/call"
	MethodListPrompts           = "prompts/list"
	MethodGetPrompt             = "prompts/get"
	MethodListResources         = "resources/list"
	MethodListResourceTemplates = "resources/templates/list"
	MethodReadResource          = "resources/read"
	MethodSubscribe             = "resources/subscribe"
	MethodUnsubscribe           = "resources/unsubscribe"
	MethodResourceUpdated       = "notifications/resources/updated"
	MethodSetLevel              = "logging/setLevel"
	MethodLogMessage            = "notifications/message"
	MethodListen                = "subscriptions/listen"                     // 2026-07-28: the stream of notifications
	MethodListenAcknowledged    = "notifications/subscriptions/acknowledged" // its first notification, sent by the runtime

	MethodToolsListChanged     = "notifications/tools/list_changed"
	MethodPromptsListChanged   = "notifications/prompts/list_changed"
	MethodResourcesListChanged = "notifications/resources/list_changed"
	MethodRootsListChanged     = "notifications/roots/list_changed"

	// What a server asks of the client.
	MethodElicit        = "elicitation/create"
	MethodCreateMessage = "sampling/createMessage"
	MethodListRoots     = "roots/list"

	// The tasks extension (io.modelcontextprotocol/tasks).
	MethodTasksGet    = "tasks/get"
	MethodTasksUpdate = "tasks/update"
	MethodTasksCancel = "tasks/cancel"
	MethodTasksList   = "tasks/list"   // 2025-11-25
	MethodTasksResult = "tasks/result" // 2025-11-25

	MethodComplete = "completion/complete"
)

// The error codes MCP defines beyond JSON-RPC's (2026-07-28, and
// -32002 of the earlier revisions).
const (
	CodeResourceNotFound                = -32002 // 2025-11-25 and earlier: resources/read of an unknown resource
	CodeHeaderMismatch                  = -32020 // a request metadata header disagrees with the body
	CodeMissingRequiredClientCapability = -32021
	CodeUnsupportedProtocolVersion      = -32022
)

// DataRetryAfterMs is the member of an error's data by which a server that
// cannot carry out a request for now (a service it depends on, such as the
// shared task store of its replicas, cannot be reached) says when to try
// again, in milliseconds: not in the specification, mcpgen's own. The
// request was not carried out; Streamable HTTP also answers 503 Service
// Unavailable with Retry-After (HTTP's, in seconds).
const DataRetryAfterMs = "retryAfterMs"

// The request metadata headers of Streamable HTTP (streamable-http.mdx,
// "Request Metadata"; Mcp-Session-Id: "Session Management" of the
// revisions with sessions), in the canonical form net/http stores header
// names in.
const (
	HeaderProtocolVersion = "Mcp-Protocol-Version"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
	HeaderParamPrefix     = "Mcp-Param-"
	HeaderSessionID       = "Mcp-Session-Id"
)

// TasksExtension is the identifier of the tasks extension.
const TasksExtension = "io.modelcontextprotocol/tasks"

// ServerAsks are the requests a server sends to ask its client for input
// (client/elicitation.mdx, client/sampling.mdx, client/roots.mdx): in
// 2026-07-28 the input requests of multi round-trip requests.
var ServerAsks = []string{MethodElicit, MethodCreateMessage, MethodListRoots}

// Pagination (server/utilities/pagination.mdx): the request's cursor and
// the result's nextCursor, and the lists that have them, each with the
// result member that holds a page's items.
const (
	MemberCursor     = "cursor"
	MemberNextCursor = "nextCursor"
)

// ElicitAccept is the action of an elicitation's result when the user
// submitted the form (client/elicitation.mdx).
const ElicitAccept = "accept"

// PaginatedList is a list method and the result member of its items.
type PaginatedList struct {
	Method, Items string
}

// PaginatedLists are the lists a client reads page by page.
var PaginatedLists = []PaginatedList{
	{MethodListTools, "tools"},
	{MethodListResources, "resources"},
	{MethodListResourceTemplates, "resourceTemplates"},
	{MethodListPrompts, "prompts"},
}

// The members of results the protocol gives a meaning.
const (
	MemberResultType = "resultType"
	MemberTTL        = "ttlMs"
	MemberCacheScope = "cacheScope"
	MemberMeta       = "_meta"
)

// The values of resultType, and the cache scope of a result that says
// nothing of its sharing.
const (
	ResultComplete      = "complete"
	ResultInputRequired = "input_required"
	CacheScopePublic    = "public"
	CacheScopePrivate   = "private"
)

// Where an era member is.
const (
	InMessage = iota // a member of params or of a result
	InMeta           // a key of their _meta
)

// EraMember is a member of the newer revisions (2026-07-28) that the
// older ones (the initialize era) carry elsewhere or not at all, and that
// the runtime serving older peers handles itself: a conversion to an older
// revision leaves it out, and one from an older revision gives it Fill
// (or, where the newer revision requires it and Fill is "", its zero
// value, for the runtime to fill).
type EraMember struct {
	Name  string
	Where int // InMessage or InMeta
	// Fill is the JSON string a conversion from an older revision gives
	// the member; "" for none.
	Fill string
	// Why says why, for the documentation of the conversions.
	Why string
}

// EraMembers are the era members. Their names are unique.
var EraMembers = []EraMember{
	{Name: MemberResultType, Where: InMessage, Fill: ResultComplete, Why: "older revisions have no multi round-trip results: the runtime answers input requests with requests of its own, and a result from an older revision is complete"},
	{Name: MemberTTL, Where: InMessage, Why: "older revisions have no caching hints: a result from one is immediately stale (ttlMs 0)"},
	{Name: MemberCacheScope, Where: InMessage, Fill: CacheScopePrivate, Why: "older revisions have no caching hints: a result from one is private (never shared across authorization contexts)"},
	{Name: MetaProtocolVersion, Where: InMeta, Why: "older revisions negotiate the version once, with initialize"},
	{Name: MetaClientCapabilities, Where: InMeta, Why: "older revisions declare the client's capabilities once, in initialize"},
	{Name: MetaClientInfo, Where: InMeta, Why: "older revisions name the client once, in initialize"},
	{Name: MetaLogLevel, Where: InMeta, Why: "older revisions set the log level with logging/setLevel"},
	{Name: MetaServerInfo, Where: InMeta, Why: "older revisions name the server once, in initialize's result"},
	{Name: MetaSubscriptionID, Where: InMeta, Why: "older revisions send notifications on the session, not on subscriptions/listen streams"},
}

// Era returns the era member of that name and place, and whether there is
// one.
func Era(name string, where int) (EraMember, bool) {
	for _, m := range EraMembers {
		if m.Name == name && m.Where == where {
			return m, true
		}
	}
	return EraMember{}, false
}

// ResourceNotFoundCode is the JSON-RPC error code of resources/read for a
// URI the server does not have: invalid params (-32602) in the revisions
// with per-request _meta (2026-07-28, resources.mdx), -32002 in the
// initialize era before them.
func ResourceNotFoundCode(modern bool) int {
	if modern {
		return -32602
	}
	return -32002
}
