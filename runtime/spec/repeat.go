package spec

// SafeToRepeat reports whether a client may send the request method again
// when it cannot tell whether the server got it (a connection that broke,
// a response stream cut before its response) or when the server refused it
// for now (429, 503): requests that read (discovery, the lists, a
// resource, a prompt, completions, a task), the handshake, ping, and those
// that set a state to a value (resources/subscribe and unsubscribe,
// logging/setLevel), whose second sending changes nothing. tools/call is
// not among them (a tool may act on the world: its annotations'
// idempotentHint is the server's word, not a guarantee), nor tasks/cancel
// or tasks/update, nor any method this list does not name.
// subscriptions/listen is: a client that lost its stream listens again.
func SafeToRepeat(method string) bool {
	switch method {
	case MethodDiscover, MethodInitialize, MethodPing,
		MethodListTools, MethodListPrompts, MethodListResources, MethodListResourceTemplates,
		MethodGetPrompt, MethodReadResource, MethodComplete,
		MethodSubscribe, MethodUnsubscribe, MethodSetLevel, MethodListen,
		MethodTasksGet, MethodTasksList, MethodTasksResult:
		return true
	}
	return false
}
