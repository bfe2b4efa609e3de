package check

import (
	"fmt"
	"strings"
)

// Level is how strongly the specification requires a rule.
type Level int

// The levels. A failed MUST makes the check fail (exit 1); a failed
// SHOULD is a warning.
const (
	Must Level = iota + 1
	Should
)

func (l Level) String() string {
	if l == Should {
		return "SHOULD"
	}
	return "MUST"
}

// revSet is a set of revisions (bits of revBits).
type revSet uint8

const (
	r26 revSet = 1 << iota
	r25
	r18
	r0326
	r1105
	legacy = r25 | r18
	all    = r26 | r25 | r18 | r0326 | r1105
)

// revBits are the revisions mcpgen check knows, newest first.
var revBits = []struct {
	name string
	bit  revSet
}{
	{"2026-07-28", r26}, {"2025-11-25", r25}, {"2025-06-18", r18}, {"2025-03-26", r0326}, {"2024-11-05", r1105},
}

func bitOf(rev string) revSet {
	for _, r := range revBits {
		if r.name == rev {
			return r.bit
		}
	}
	return 0
}

func (s revSet) String() string {
	if s == all {
		return "all"
	}
	var out []string
	for _, r := range revBits {
		if s&r.bit != 0 {
			out = append(out, r.name)
		}
	}
	return strings.Join(out, ", ")
}

// Transport a rule applies to.
type Transport string

// The transports.
const (
	Any   Transport = "any"
	HTTP  Transport = "http"
	Stdio Transport = "stdio"
)

// Source is where the specification states a rule: a page under the
// specification's repository (spec-2026-07-28/basic/index.mdx), the line
// the sentence starts on, and the sentence as it reads (markup removed).
type Source struct {
	Revs revSet
	Page string
	Line int
	Text string
}

// Rule is one requirement mcpgen check tests.
type Rule struct {
	ID    string
	Level Level
	// Derived rules follow from a sentence without stating the
	// requirement in these words (or come from JSON-RPC 2.0 itself).
	Derived   bool
	Revs      revSet
	Transport Transport
	// Check says what is done or looked at, for the table of rules.
	Check string
	// Call is set for rules tested only with --call (their probes run a tool).
	Call    bool
	Sources []Source
}

// source returns the source to cite in a run of rev.
func (r *Rule) source(rev string) Source {
	b := bitOf(rev)
	for _, s := range r.Sources {
		if s.Revs&b != 0 {
			return s
		}
	}
	return r.Sources[0]
}

// applies reports whether the rule is tested in a run of rev over tr.
func (r *Rule) applies(rev string, tr Transport) bool {
	return r.Revs&bitOf(rev) != 0 && (r.Transport == Any || r.Transport == tr)
}

const (
	p26     = "spec-2026-07-28/"
	p25     = "spec-2025-11-25/"
	p18     = "spec-2025-06-18/"
	index26 = p26 + "basic/index.mdx"
	http26  = p26 + "basic/transports/streamable-http.mdx"
	tr25    = p25 + "basic/transports.mdx"
	tr18    = p18 + "basic/transports.mdx"
	jsonrpc = "JSON-RPC 2.0 (jsonrpc.org/specification)"
)

// Rules is the catalogue, in the order reports list it.
var Rules = []*Rule{
	// Messages.
	{ID: "schema-valid", Level: Must, Revs: all, Transport: Any,
		Check:   "every message received validates against the revision's schema (results by their method's result type); each violation with its JSON pointer",
		Sources: []Source{{r26, index26, 27, "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification."}, {r25, p25 + "basic/index.mdx", 27, "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification."}, {r18 | r0326 | r1105, p18 + "basic/index.mdx", 27, "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification."}}},
	{ID: "response-id-matches", Level: Must, Revs: all, Transport: Any,
		Check:   "every response carries the id of its request, as the same JSON value; no response to an id never sent, no second response",
		Sources: []Source{{r26, index26, 70, "Result responses MUST include the same ID as the request they correspond to."}, {r25, p25 + "basic/index.mdx", 69, "Result responses MUST include the same ID as the request they correspond to."}, {r18 | r0326 | r1105, p18 + "basic/index.mdx", 70, "Responses MUST include the same ID as the request they correspond to."}}},
	{ID: "request-answered", Level: Must, Derived: true, Revs: all, Transport: Any,
		Check:   "every request is answered within --timeout (a timeout, a stream that ends first, or the process exiting fails)",
		Sources: []Source{{all, jsonrpc, 0, "When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications."}}},
	{ID: "notification-unanswered", Level: Must, Revs: all, Transport: Stdio,
		Check:   "notifications/cancelled for an id never sent gets no response within the quiet window",
		Sources: []Source{{all, index26, 160, "The receiver MUST NOT send a response."}}},
	{ID: "error-code-reserved", Level: Must, Revs: r26, Transport: Any,
		Check:   "no error code from -32020..-32099 the specification does not define, and neither -32002 nor -32042",
		Sources: []Source{{r26, index26, 124, "Implementations MUST NOT emit any code from this sub-range that is not defined by this specification"}}},
	{ID: "parse-error-32700", Level: Should, Derived: true, Revs: all, Transport: Any,
		Check:   "a malformed message gets a -32700 error (sent last: a server may not survive it)",
		Sources: []Source{{all, jsonrpc, 0, "Invalid JSON was received by the server."}}},

	// Versions and discovery.
	{ID: "discover-implemented", Level: Must, Revs: r26, Transport: Any,
		Check:   "server/discover is answered with a DiscoverResult by a server that answers 2026-07-28 requests",
		Sources: []Source{{r26, p26 + "server/discover.mdx", 8, "Servers MUST implement it."}}},
	{ID: "discover-lists-served-version", Level: Must, Derived: true, Revs: r26, Transport: Any,
		Check:   "the DiscoverResult to a 2026-07-28 request lists 2026-07-28 in supportedVersions",
		Sources: []Source{{r26, p26 + "basic/versioning.mdx", 48, "If the server does not implement the requested version (whether the version is unknown to the server, or is a known version the server has chosen not to support), it MUST respond with an UnsupportedProtocolVersionError listing the versions it does support"}}},
	{ID: "unsupported-version-32022", Level: Must, Revs: r26, Transport: Any,
		Check:   "server/discover (and tools/list) at version 1900-01-01 get -32022 with data.supported (not empty) and data.requested",
		Sources: []Source{{r26, p26 + "basic/versioning.mdx", 48, "If the server does not implement the requested version (whether the version is unknown to the server, or is a known version the server has chosen not to support), it MUST respond with an UnsupportedProtocolVersionError listing the versions it does support"}}},
	{ID: "versions-consistent", Level: Must, Derived: true, Revs: r26, Transport: Any,
		Check:   "the versions of -32022's data.supported are those of supportedVersions",
		Sources: []Source{{r26, p26 + "server/discover.mdx", 94, "supportedVersions: Protocol versions the server supports."}}},
	{ID: "http-status-unsupported-version-400", Level: Must, Revs: r26, Transport: HTTP,
		Check:   "the -32022 probes get HTTP 400",
		Sources: []Source{{r26, http26, 265, "it MUST respond with 400 Bad Request and an UnsupportedProtocolVersionError listing its supported versions."}}},
	{ID: "initialize-error-names-versions", Level: Should, Revs: r26, Transport: Any,
		Check:   "a server that refuses initialize names the versions it supports in the error (a server that answers it serves older clients too)",
		Sources: []Source{{r26, p26 + "basic/versioning.mdx", 154, "A server that supports only modern versions SHOULD name the protocol versions it supports in any error it returns to an initialize request, on any transport"}}},

	// Request metadata.
	{ID: "meta-missing-version-32602", Level: Must, Revs: r26, Transport: Any,
		Check:   "a request whose _meta lacks io.modelcontextprotocol/protocolVersion gets -32602",
		Sources: []Source{{r26, index26, 380, "A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code -32602 (Invalid params)."}}},
	{ID: "meta-missing-capabilities-32602", Level: Must, Revs: r26, Transport: Any,
		Check:   "a request whose _meta lacks io.modelcontextprotocol/clientCapabilities gets -32602",
		Sources: []Source{{r26, index26, 380, "A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code -32602 (Invalid params)."}}},
	{ID: "meta-missing-32602", Level: Must, Revs: r26, Transport: Any,
		Check:   "a request without _meta gets -32602 (over stdio only when the server refuses initialize: a dual-era server may read it as legacy traffic)",
		Sources: []Source{{r26, index26, 380, "A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code -32602 (Invalid params)."}}},
	{ID: "http-status-invalid-meta-400", Level: Must, Revs: r26, Transport: HTTP,
		Check:   "the three probes above get HTTP 400",
		Sources: []Source{{r26, index26, 381, "On HTTP, the response status MUST be 400 Bad Request."}}},
	{ID: "client-info-optional", Level: Must, Derived: true, Revs: r26, Transport: Any,
		Check:   "a request without io.modelcontextprotocol/clientInfo is served",
		Sources: []Source{{r26, index26, 384, "Clients SHOULD include io.modelcontextprotocol/clientInfo on every request unless specifically configured not to do so."}}},
	{ID: "loglevel-invalid-32602", Level: Should, Revs: r26, Transport: Any,
		Check:   "a request with io.modelcontextprotocol/logLevel \"mcpgen-check-bogus\" gets -32602",
		Sources: []Source{{r26, p26 + "server/utilities/logging.mdx", 101, "is not a recognized log level, the server SHOULD reject that request with a standard JSON-RPC error"}}},
	{ID: "no-log-without-loglevel", Level: Must, Revs: r26, Transport: Any,
		Check:   "no notifications/message for a request without io.modelcontextprotocol/logLevel (the checker never sets one but in the probe above)",
		Sources: []Source{{r26, p26 + "server/utilities/logging.mdx", 63, "The server MUST NOT emit notifications/message for a request that does not include this field."}}},
	{ID: "missing-capability-error", Level: Must, Revs: r26, Transport: Any,
		Check:   "any -32021 lists data.requiredCapabilities (and comes with HTTP 400)",
		Sources: []Source{{r26, index26, 389, "the server MUST return a MissingRequiredClientCapabilityError (-32021) whose data.requiredCapabilities lists the missing capabilities."}}},

	// Results.
	{ID: "result-type-present", Level: Must, Revs: r26, Transport: Any,
		Check:   "every result has resultType",
		Sources: []Source{{r26, index26, 73, "The result MUST include a resultType field to indicate the type of the result."}}},
	{ID: "result-type-known", Level: Must, Derived: true, Revs: r26, Transport: Any,
		Check:   "resultType is complete or input_required (or a value of an extension the server declares)",
		Sources: []Source{{r26, index26, 83, "The set of supported ResultType values MUST be created from the set defined in the core protocol and include any additional values of supported extensions that are advertised via capabilities."}}},
	{ID: "input-required-where-allowed", Level: Must, Revs: r26, Transport: Any,
		Check:   "input_required only on prompts/get, resources/read and tools/call",
		Sources: []Source{{r26, p26 + "basic/patterns/mrtr.mdx", 192, "Servers MUST NOT send InputRequiredResult responses on any other client requests."}}},
	{ID: "input-required-shape", Level: Must, Revs: r26, Transport: Any,
		Check:   "an input_required result has inputRequests or requestState",
		Sources: []Source{{r26, p26 + "basic/patterns/mrtr.mdx", 245, "Servers MUST include at least one of inputRequests or requestState in every InputRequiredResult response."}}},
	{ID: "input-requests-declared", Level: Must, Revs: r26, Transport: Any,
		Check:   "no inputRequests the client did not declare (the checker declares no capabilities)",
		Sources: []Source{{r26, p26 + "basic/patterns/mrtr.mdx", 246, "Servers MUST NOT send an inputRequests that the client has not declared support for in its capabilities."}}},
	{ID: "server-info-in-meta", Level: Should, Revs: r26, Transport: Any,
		Check:   "every result carries _meta[\"io.modelcontextprotocol/serverInfo\"]",
		Sources: []Source{{r26, index26, 396, "Servers SHOULD include the following io.modelcontextprotocol/* field in every result's _meta"}}},

	// Caching.
	{ID: "cache-hints-present", Level: Must, Revs: r26, Transport: Any,
		Check:   "complete results of server/discover, the lists and resources/read carry ttlMs (an integer) and cacheScope (public or private)",
		Sources: []Source{{r26, p26 + "server/utilities/caching.mdx", 13, "Servers MUST include caching hints on results with resultType: \"complete\" returned by"}}},
	{ID: "cache-ttl-nonnegative", Level: Must, Revs: r26, Transport: Any,
		Check:   "ttlMs >= 0",
		Sources: []Source{{r26, p26 + "server/utilities/caching.mdx", 60, "Servers MUST provide a ttlMs value that is >= 0."}}},
	{ID: "cache-none-on-input-required", Level: Must, Derived: true, Revs: r26, Transport: Any,
		Check:   "an input_required result carries neither ttlMs nor cacheScope",
		Sources: []Source{{r26, p26 + "server/utilities/caching.mdx", 13, "Servers MUST include caching hints on results with resultType: \"complete\" returned by"}}},
	{ID: "cache-scope-same-pages", Level: Must, Revs: r26, Transport: Any,
		Check:   "every page of one list has the cacheScope of its first page",
		Sources: []Source{{r26, p26 + "server/utilities/caching.mdx", 166, "Servers MUST apply the same cacheScope to all response pages for a given list request."}}},

	{ID: "cache-public-same-for-principals", Level: Must, Derived: true, Revs: r26, Transport: HTTP,
		Check:   "with --second-principal-header: server/discover and the first page of each list, when public for both principals, are the same for the second as for the first (ttlMs and _meta aside)",
		Sources: []Source{{r26, p26 + "server/utilities/caching.mdx", 173, "A cacheScope of \"public\" indicates that the response does not contain user-specific data and can be safely shared."}}},

	// Pagination.
	{ID: "pagination-terminates", Level: Should, Derived: true, Revs: all, Transport: Any,
		Check:   "following nextCursor never returns a cursor already followed (more than --max-pages pages is reported, not failed)",
		Sources: []Source{{all, p26 + "server/utilities/pagination.mdx", 94, "Servers SHOULD:"}}},
	{ID: "pagination-invalid-cursor-32602", Level: Should, Revs: all, Transport: Any,
		Check:   "a list that pages answers an unknown cursor with -32602",
		Sources: []Source{{r26, p26 + "server/utilities/pagination.mdx", 111, "Invalid cursors SHOULD result in an error with code -32602 (Invalid params)."}, {legacy | r0326 | r1105, p25 + "server/utilities/pagination.mdx", 97, "Invalid cursors SHOULD result in an error with code -32602 (Invalid params)."}}},

	// Capabilities.
	{ID: "capabilities-agree", Level: Must, Revs: all, Transport: Any,
		Check:   "declared tools, prompts and resources answer their lists; undeclared ones (and completion/complete) are refused",
		Sources: []Source{{r26, p26 + "server/tools.mdx", 62, "Servers that declare the tools capability MUST respond to tools/list requests"}, {legacy | r0326 | r1105, p25 + "server/tools.mdx", 38, "Servers that support tools MUST declare the tools capability"}}},
	{ID: "listen-ack-first", Level: Must, Revs: r26, Transport: Any,
		Check:   "subscriptions/listen (when list changes or subscriptions are declared) is first acknowledged by notifications/subscriptions/acknowledged carrying its id",
		Sources: []Source{{r26, p26 + "basic/patterns/subscriptions.mdx", 54, "The server MUST send notifications/subscriptions/acknowledged as the first message carrying the subscription's ID in _meta under io.modelcontextprotocol/subscriptionId"}}},

	// Tools.
	{ID: "tool-input-schema-valid", Level: Must, Revs: r26 | r25, Transport: Any,
		Check:   "every inputSchema is valid by the metaschema of its dialect (default 2020-12) and its local $refs resolve",
		Sources: []Source{{r26, index26, 297, "Schemas MUST be valid according to their declared or default dialect"}, {r25, p25 + "basic/index.mdx", 186, "Schemas MUST be valid according to their declared or default dialect"}}},
	{ID: "tool-output-schema-valid", Level: Must, Revs: r26 | r25, Transport: Any,
		Check:   "the same for every outputSchema",
		Sources: []Source{{r26, index26, 297, "Schemas MUST be valid according to their declared or default dialect"}, {r25, p25 + "basic/index.mdx", 186, "Schemas MUST be valid according to their declared or default dialect"}}},
	{ID: "tool-schema-no-network-ref", Level: Should, Derived: true, Revs: r26, Transport: Any,
		Check:   "no $ref to a network URI (clients will not fetch it and reject the tool)",
		Sources: []Source{{r26, index26, 309, "Schemas that fail to validate due to an unresolved external $ref SHOULD be rejected"}}},
	{ID: "x-mcp-header-nonempty", Level: Must, Revs: r26, Transport: Any,
		Check:   "no empty x-mcp-header (clients over HTTP drop such a tool)",
		Sources: []Source{{r26, http26, 378, "MUST NOT be empty"}}},
	{ID: "x-mcp-header-token", Level: Must, Revs: r26, Transport: Any,
		Check:   "x-mcp-header is an HTTP field-name token (a string of tchar)",
		Sources: []Source{{r26, http26, 379, "MUST match HTTP field-name token syntax (1*tchar, RFC 9110 Section 5.1)"}}},
	{ID: "x-mcp-header-unique", Level: Must, Revs: r26, Transport: Any,
		Check:   "x-mcp-header values are unique in an inputSchema, ignoring case",
		Sources: []Source{{r26, http26, 382, "MUST be case-insensitively unique among all x-mcp-header values in the inputSchema"}}},
	{ID: "x-mcp-header-primitive", Level: Must, Revs: r26, Transport: Any,
		Check:   "x-mcp-header annotates a property of type string, integer or boolean",
		Sources: []Source{{r26, http26, 384, "MUST only be applied to parameters with primitive types (integer, string, boolean). Parameters with type number are not permitted."}}},
	{ID: "x-mcp-header-reachable", Level: Must, Revs: r26, Transport: Any,
		Check:   "x-mcp-header only on properties reached from the root through properties keys alone",
		Sources: []Source{{r26, http26, 388, "MUST only be applied to properties that are statically reachable from the schema root: reachable via a chain consisting solely of properties keys."}}},
	{ID: "tool-names-format", Level: Should, Revs: r26 | r25, Transport: Any,
		Check:   "tool names have 1 to 128 characters from A-Z a-z 0-9 _ - .",
		Sources: []Source{{r26, p26 + "server/tools.mdx", 313, "The following SHOULD be the only allowed characters: uppercase and lowercase ASCII letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-), and dot (.)"}, {r25, p25 + "server/tools.mdx", 221, "The following SHOULD be the only allowed characters: uppercase and lowercase ASCII letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-), and dot (.)"}}},
	{ID: "tool-names-unique", Level: Should, Revs: r26 | r25, Transport: Any,
		Check:   "no tool name twice across the pages",
		Sources: []Source{{r26, p26 + "server/tools.mdx", 316, "Tool names SHOULD be unique within a server."}, {r25, p25 + "server/tools.mdx", 224, "Tool names SHOULD be unique within a server."}}},
	{ID: "tools-list-deterministic", Level: Should, Revs: r26, Transport: Any,
		Check:   "tools/list walked twice gives the same names in the same order",
		Sources: []Source{{r26, p26 + "server/tools.mdx", 71, "Servers SHOULD return tools in a deterministic order"}}},

	// Resources and prompts.
	{ID: "resource-not-found-32602", Level: Must, Revs: r26, Transport: Any,
		Check:   "resources/read of an unknown URI gets -32602, not an empty contents",
		Sources: []Source{{r26, p26 + "server/resources.mdx", 404, "If the requested resource does not exist, servers MUST return a JSON-RPC error with code -32602 (Invalid Params)."}}},
	{ID: "resource-not-found-32002", Level: Should, Revs: legacy, Transport: Any,
		Check:   "resources/read of an unknown URI gets -32002",
		Sources: []Source{{legacy, p25 + "server/resources.mdx", 386, "Servers SHOULD return standard JSON-RPC errors for common failure cases:"}}},
	{ID: "prompt-unknown-32602", Level: Should, Revs: all, Transport: Any,
		Check:   "prompts/get of an unknown prompt gets -32602",
		Sources: []Source{{r26, p26 + "server/prompts.mdx", 321, "Servers SHOULD return standard JSON-RPC errors for common failure cases:"}, {legacy | r0326 | r1105, p25 + "server/prompts.mdx", 271, "Servers SHOULD return standard JSON-RPC errors for common failure cases:"}}},

	// Lifecycle (the initialize era).
	{ID: "initialize-version-negotiation", Level: Must, Revs: legacy, Transport: Any,
		Check:   "initialize at an unknown version is answered with a version the server supports, not an error",
		Sources: []Source{{legacy, p25 + "basic/lifecycle.mdx", 170, "If the server supports the requested protocol version, it MUST respond with the same version. Otherwise, the server MUST respond with another protocol version it supports."}}},
	{ID: "ping-empty-result", Level: Must, Revs: legacy, Transport: Any,
		Check:   "ping gets an empty result",
		Sources: []Source{{legacy, p25 + "basic/utilities/ping.mdx", 29, "The receiver MUST respond promptly with an empty response"}}},
	{ID: "logging-invalid-level-32602", Level: Should, Revs: legacy, Transport: Any,
		Check:   "logging/setLevel with an unknown level gets -32602 (when logging is declared)",
		Sources: []Source{{legacy, p25 + "server/utilities/logging.mdx", 110, "Servers SHOULD return standard JSON-RPC errors for common failure cases:"}}},
	{ID: "capabilities-respected", Level: Must, Revs: legacy, Transport: Any,
		Check:   "no request to the client but ping (the checker declares no capabilities)",
		Sources: []Source{{legacy, p25 + "basic/lifecycle.mdx", 217, "Both parties MUST:"}}},

	// Streamable HTTP.
	{ID: "http-response-content-type", Level: Must, Revs: all, Transport: HTTP,
		Check:   "a request is answered with application/json (one message) or text/event-stream",
		Sources: []Source{{r26, http26, 88, "If the body is a JSON-RPC request, the server MUST return either"}, {legacy | r0326 | r1105, tr25, 101, "If the input is a JSON-RPC request, the server MUST either"}}},
	{ID: "http-notification-202", Level: Must, Revs: all, Transport: HTTP,
		Check:   "a notification is answered 202 with no body (or an HTTP error status)",
		Sources: []Source{{r26, http26, 83, "If the server accepts it, the server MUST return HTTP status code 202 Accepted with no body."}, {legacy | r0326 | r1105, tr25, 96, "If the server accepts the input, the server MUST return HTTP status code 202 Accepted with no body."}}},
	{ID: "unknown-method-32601", Level: Must, Revs: all, Transport: Any,
		Check:   "an unknown method gets -32601 (in 2026-07-28 also ping and logging/setLevel, which it removed)",
		Sources: []Source{{r26, http26, 271, "If the server does not implement the requested RPC method, it MUST respond with 404 Not Found and a JSON-RPC error with code -32601 (Method not found)."}, {legacy | r0326 | r1105, jsonrpc, 0, "The method does not exist / is not available."}}},
	{ID: "http-status-unknown-method-404", Level: Must, Revs: r26, Transport: HTTP,
		Check:   "the unknown-method probes get HTTP 404",
		Sources: []Source{{r26, http26, 271, "If the server does not implement the requested RPC method, it MUST respond with 404 Not Found and a JSON-RPC error with code -32601 (Method not found)."}}},
	{ID: "header-mismatch-32020", Level: Must, Revs: r26, Transport: HTTP,
		Check:   "MCP-Protocol-Version, Mcp-Method or Mcp-Name that disagree with the body, or a missing Mcp-Method or MCP-Protocol-Version, get -32020",
		Sources: []Source{{r26, http26, 582, "Servers that process the request body MUST reject requests where the values specified in the headers do not match the corresponding values in the request body."}}},
	{ID: "http-status-header-mismatch-400", Level: Must, Revs: r26, Transport: HTTP,
		Check:   "those probes get HTTP 400",
		Sources: []Source{{r26, http26, 597, "When rejecting a request due to header validation failure, servers MUST return HTTP status 400 Bad Request"}}},
	{ID: "header-base64-decoded", Level: Must, Revs: r26, Transport: HTTP,
		Check:   "an Mcp-Name in the =?base64?...?= form is decoded before it is compared",
		Sources: []Source{{r26, http26, 501, "servers MUST decode an encoded Mcp-Name or Mcp-Param-{Name} value before comparing it to the corresponding request body value"}}},
	{ID: "header-names-case-insensitive", Level: Must, Revs: r26, Transport: HTTP,
		Check:   "the MCP headers written in lower case are read",
		Sources: []Source{{r26, http26, 574, "Clients and servers MUST use case-insensitive comparisons for header names."}}},
	{ID: "origin-foreign-403", Level: Must, Revs: r26 | r25 | r18, Transport: HTTP,
		Check:   "a request with a foreign Origin gets 403 (2025-06-18: any 4xx); loopback URLs only, unless --origin-check",
		Sources: []Source{{r26, http26, 60, "If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden."}, {r25, tr25, 79, "If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden."}, {r18, tr18, 76, "Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks"}}},
	{ID: "host-foreign-rejected", Level: Should, Derived: true, Revs: all, Transport: HTTP,
		Check:   "a request with a foreign Host gets a 4xx; loopback URLs only, unless --origin-check",
		Sources: []Source{{r26, http26, 63, "When running locally, servers SHOULD bind only to localhost"}, {legacy | r0326 | r1105, tr25, 81, "When running locally, servers SHOULD bind only to localhost (127.0.0.1) rather than all network interfaces (0.0.0.0)"}}},
	{ID: "http-get-delete-405", Level: Should, Revs: r26, Transport: HTTP,
		Check:   "a server that refuses initialize answers GET and DELETE with 405",
		Sources: []Source{{r26, http26, 683, "HTTP GET or DELETE to the MCP endpoint: respond with 405 Method Not Allowed."}}},
	{ID: "http-no-session-id", Level: Should, Revs: r26, Transport: HTTP,
		Check:   "no Mcp-Session-Id on 2026-07-28 responses, and a request carrying one is served",
		Sources: []Source{{r26, http26, 685, "An Mcp-Session-Id header on a request: ignore it, and do not mint or echo session IDs."}}},
	{ID: "http-no-requests-on-stream", Level: Must, Revs: r26, Transport: HTTP,
		Check:   "no JSON-RPC request on a response stream",
		Sources: []Source{{r26, http26, 117, "The server MUST NOT send independent JSON-RPC requests on this stream."}}},
	{ID: "sse-x-accel-buffering", Level: Should, Revs: r26, Transport: HTTP,
		Check:   "event streams carry X-Accel-Buffering: no",
		Sources: []Source{{r26, http26, 136, "When initiating an SSE stream, servers SHOULD include the X-Accel-Buffering: no header"}}},
	{ID: "sse-response-ends-stream", Level: Should, Revs: all, Transport: HTTP,
		Check:   "an event stream ends within the linger time after its response",
		Sources: []Source{{r26, http26, 125, "The final JSON-RPC response SHOULD terminate the stream."}, {legacy | r0326 | r1105, tr25, 124, "After the JSON-RPC response has been sent, the server SHOULD terminate the SSE stream."}}},
	{ID: "sse-priming-event", Level: Should, Revs: r25, Transport: HTTP,
		Check:   "an event stream starts with an event that has an id and empty data",
		Sources: []Source{{r25, tr25, 106, "The server SHOULD immediately send an SSE event consisting of an event ID and an empty data field in order to prime the client to reconnect"}}},

	// Sessions.
	{ID: "session-id-visible-ascii", Level: Must, Revs: legacy, Transport: HTTP,
		Check:   "Mcp-Session-Id has visible ASCII characters only",
		Sources: []Source{{legacy, tr25, 203, "The session ID MUST only contain visible ASCII characters (ranging from 0x21 to 0x7E)."}}},
	{ID: "session-required-400", Level: Should, Revs: legacy, Transport: HTTP,
		Check:   "a server that issued a session answers a request without it with 400 (or serves it)",
		Sources: []Source{{legacy, tr25, 209, "Servers that require a session ID SHOULD respond to requests without an MCP-Session-Id header (other than initialization) with HTTP 400 Bad Request."}}},
	{ID: "session-terminated-404", Level: Must, Revs: legacy, Transport: HTTP,
		Check:   "after a DELETE the server accepted, the session gets 404",
		Sources: []Source{{legacy, tr25, 211, "The server MAY terminate the session at any time, after which it MUST respond to requests containing that session ID with HTTP 404 Not Found."}}},
	{ID: "http-get-sse-or-405", Level: Must, Revs: legacy, Transport: HTTP,
		Check:   "GET is answered with text/event-stream or 405",
		Sources: []Source{{legacy, tr25, 140, "The server MUST either return Content-Type: text/event-stream in response to this HTTP GET, or else return HTTP 405 Method Not Allowed"}}},
	{ID: "http-status-bad-version-header-400", Level: Must, Revs: legacy, Transport: HTTP,
		Check:   "a request in the session with MCP-Protocol-Version: 1900-01-01 gets 400",
		Sources: []Source{{legacy, tr25, 279, "If the server receives a request with an invalid or unsupported MCP-Protocol-Version, it MUST respond with 400 Bad Request."}}},

	// stdio.
	{ID: "stdio-stdout-only-mcp", Level: Must, Revs: all, Transport: Stdio,
		Check:   "every stdout line is one JSON-RPC message",
		Sources: []Source{{r26, p26 + "basic/transports/stdio.mdx", 18, "The server MUST NOT write anything to its stdout that is not a valid MCP message."}, {legacy | r0326 | r1105, tr25, 33, "The server MUST NOT write anything to its stdout that is not a valid MCP message."}}},
	{ID: "stdio-no-requests", Level: Must, Revs: r26, Transport: Stdio,
		Check:   "no JSON-RPC request on stdout",
		Sources: []Source{{r26, p26 + "basic/transports/stdio.mdx", 55, "The server MUST NOT write JSON-RPC requests to stdout."}}},
	{ID: "discover-probe-survived", Level: Should, Derived: true, Revs: r25 | r18 | r0326 | r1105, Transport: Stdio,
		Check:   "a server of an older revision survives the server/discover probe a dual-era client sends first over stdio (an error or no answer, then initialize on the same process); exiting on it fails (judged from the 2026-07-28 run's probe)",
		Sources: []Source{{r25 | r18 | r0326 | r1105, p26 + "basic/transports/stdio.mdx", 123, "A client that supports both modern (per-request-metadata) MCP versions and a legacy version that requires an initialize handshake SHOULD probe with server/discover before sending any other request, setting its preferred modern version in _meta."}}},
	{ID: "stdio-exits-on-eof", Level: Should, Revs: r26, Transport: Stdio,
		Check:   "the server exits within 5s of its standard input closing",
		Sources: []Source{{r26, p26 + "basic/transports/stdio.mdx", 102, "Servers SHOULD exit promptly when their standard input is closed"}}},

	// --call.
	{ID: "call-structured-content", Level: Must, Revs: all, Transport: Any, Call: true,
		Check:   "tools/call of a --call tool with an outputSchema returns structuredContent that conforms to it",
		Sources: []Source{{r26, p26 + "server/tools.mdx", 514, "Servers MUST provide structured results that conform to this schema."}, {legacy | r0326 | r1105, p25 + "server/tools.mdx", 340, "Servers MUST provide structured results that conform to this schema."}}},
	{ID: "call-param-header-validated", Level: Must, Revs: r26, Transport: HTTP, Call: true,
		Check:   "the call of a --call tool with x-mcp-header, with its Mcp-Param header missing or different, gets 400 and -32020",
		Sources: []Source{{r26, http26, 552, "Servers MUST reject requests with a recognized Mcp-Param-{Name} header"}}},
	{ID: "call-name-header-validated", Level: Must, Revs: r26, Transport: HTTP, Call: true,
		Check:   "the call of a --call tool with Mcp-Name of another tool gets 400 and -32020",
		Sources: []Source{{r26, http26, 582, "Servers that process the request body MUST reject requests where the values specified in the headers do not match the corresponding values in the request body."}}},
}

var rulesByID = func() map[string]*Rule {
	m := map[string]*Rule{}
	for _, r := range Rules {
		if m[r.ID] != nil {
			panic("check: rule " + r.ID + " twice")
		}
		m[r.ID] = r
	}
	return m
}()

// rule returns the rule with id, panicking on an unknown id (a typo).
func rule(id string) *Rule {
	r := rulesByID[id]
	if r == nil {
		panic(fmt.Sprintf("check: no rule %q", id))
	}
	return r
}

// RuleByID returns the rule with id, or nil.
func RuleByID(id string) *Rule { return rulesByID[id] }
