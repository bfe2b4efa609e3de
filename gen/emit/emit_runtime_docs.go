package emit

// aliasDocs is the doc comment of each type a generated package re-exports
// from the runtime (runtime.go), in the reader's terms: what the name is
// for in this package's API. go doc prints it with the alias; the runtime's
// own doc is one link away.
var aliasDocs = map[string]string{
	"Member":            "one member of a JSON object that the schema does not name: its name and raw value",
	"Members":           "the members of a JSON object that the schema does not name, in their order",
	"Kind":              "the kind of a JSON value (KindNull, KindString, ...)",
	"SyntaxError":       "the error of malformed JSON, with the byte offset where it was found",
	"ValidationError":   "the error of a value that breaks its schema: every Violation, each with its JSON pointer",
	"Violation":         "one way a value breaks its schema, with the JSON pointer of the member",
	"EncodeError":       "the error of a Go value that has no JSON form (a NaN, raw bytes that are not JSON)",
	"RPCError":          "a JSON-RPC error response: what a handler returns to answer with a code of its choice, and what a Client's methods return when the server answers with an error",
	"RequestInfo":       "what a handler knows of the request it answers (method, id); RequestFromContext returns it",
	"ExtensionMethod":   "a method outside the schema that a dispatcher serves (ServerOptions.ExtensionMethods)",
	"Stream":            "a connection that carries whole JSON-RPC messages, for ServeStream and for transports of one's own",
	"Session":           "what the runtime keeps about one peer (a stdio connection, an HTTP session): for a client of an initialize-era revision, what its initialize said; SessionFromContext returns it in a handler",
	"Cache":             "the cache of results a server marks cacheable, shared by Clients (ClientOptions.Cache); NewCache makes one",
	"Transport":         "how Connect reaches a server: CommandTransport, StreamTransport, InMemoryTransport, HTTPTransport, or one's own",
	"CommandTransport":  "the stdio transport of a client: it starts the server's command and talks over its standard input and output",
	"StreamTransport":   "a client transport of newline-delimited messages over any io.ReadWriteCloser (a socket, a pipe)",
	"InMemoryTransport": "a client transport to a server dispatcher in the same process, for tests",
	"HTTPTransport":     "the Streamable HTTP transport of a client: the server's endpoint URL, headers and http.Client",
	"HTTPStatusError":   "the error of an HTTP answer that carries no JSON-RPC message: status, headers and the start of the body",
	"ToolError":         "the error a Client's tool calls return when the tool answers with isError: true (the tool's name and the text of its result)",
	"Subscription":      "the changes a Client's Listen receives: list changes (tools, prompts, resources) and the updates of resources by URI, in every revision",
	"Change":            "one change a server announced, as a Client's Listen receives it: Method is the notification (MethodToolListChangedNotification, ..., MethodResourceUpdatedNotification) and URI the updated resource's",
	"HTTPHandler":       "the http.Handler NewHTTPHandler returns: Streamable HTTP at one endpoint, with ListenAndServe and NewServer",
	"HTTPOptions":       "the options of NewHTTPHandler: allowed origins and hosts, limits, sessions of the older revisions; the zero value is the defaults",
	"Middleware":        "a function around every request a dispatcher answers or a Client sends (ServerOptions.Middleware, ClientOptions.Middleware; RequestLog is one)",
	"Handler":           "what serves (or sends) a Call; a Middleware wraps the next one",
	"Call":              "a request or notification as a Middleware sees it: its id, method and params",
	"TaskStore":         "where the tasks of a server live (ServerOptions.Tasks); NewTaskStore makes one",
	"TaskStoreOptions":  "the options of NewTaskStore: how many tasks it holds and how long they live",
	"Older":             "the conversions of one older revision's messages to this package's types and back, an entry of OlderRevisions",
	"ConversionError":   "the error of a message that does not convert between this package's revision and an older one: the revision, the direction and the JSON pointer of the value",
}
