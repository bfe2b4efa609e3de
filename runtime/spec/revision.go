package spec

// Revision is what the runtime needs to know of one protocol revision
// beyond its schema: the behaviour its pages state in prose. The runtime
// asks Of for a negotiated version instead of comparing version strings.
type Revision struct {
	Version string
	// Handshake: the revision opens with initialize and keeps a session;
	// without it, every request carries its version in _meta (2026-07-28).
	Handshake bool
	// Batches: JSON-RPC batches, which clients and servers MUST accept
	// (2025-03-26 only; 2025-06-18 removed them).
	Batches bool
	// HTTPWithSSE: the HTTP transport is 2024-11-05's HTTP+SSE (a GET
	// stream that names the endpoint to POST to), not Streamable HTTP.
	HTTPWithSSE bool
	// ProgressMessage: notifications/progress may carry a message
	// (2025-03-26 and later).
	ProgressMessage bool
	// PrimingEvents: a Streamable HTTP stream begins with a priming event
	// and may be closed before its response, for the client to poll
	// (2025-11-25 and later; earlier clients expect neither).
	PrimingEvents bool
}

// Revisions are the revisions mcpgen knows, oldest first.
var Revisions = []Revision{
	{Version: "2024-11-05", Handshake: true, HTTPWithSSE: true},
	{Version: "2025-03-26", Handshake: true, Batches: true, ProgressMessage: true},
	{Version: "2025-06-18", Handshake: true, ProgressMessage: true},
	{Version: "2025-11-25", Handshake: true, ProgressMessage: true, PrimingEvents: true},
	{Version: "2026-07-28", ProgressMessage: true, PrimingEvents: true},
}

// Of returns the revision of version. A version the table does not list
// (a revision newer than this runtime, served by a package generated from
// its schema) behaves as the newest revision with the handshake when
// handshake is set, and as the newest one otherwise. The empty version (a
// session that has not negotiated one yet) has none of the behaviours.
func Of(version string, handshake bool) Revision {
	if version == "" {
		return Revision{Handshake: handshake}
	}
	for _, r := range Revisions {
		if r.Version == version {
			return r
		}
	}
	for i := len(Revisions) - 1; i >= 0; i-- {
		if Revisions[i].Handshake == handshake {
			r := Revisions[i]
			r.Version = version
			return r
		}
	}
	return Revision{Version: version, Handshake: handshake}
}
