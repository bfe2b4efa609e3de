package conformance

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp20241105"
	"github.com/mcpgen/mcpgen/generated/mcp20250326"
	"github.com/mcpgen/mcpgen/generated/mcp20250618"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Legacy revisions (initialize handshake, ping, and the 2025-03-26
// batches), as their schemas define them.

type server0618 struct {
	mcp20250618.UnimplementedServerHandler
	initialized *atomic.Int64
}

func (s server0618) OnInitialized(context.Context, *mcp20250618.InitializedNotificationParams) error {
	s.initialized.Add(1)
	return nil
}

type client0618 struct {
	mcp20250618.UnimplementedClientHandler
}

type server1105 struct {
	mcp20241105.UnimplementedServerHandler
	initialized *atomic.Int64
}

func (s server1105) OnInitialized(context.Context, *mcp20241105.InitializedNotificationParams) error {
	s.initialized.Add(1)
	return nil
}

type client1105 struct {
	mcp20241105.UnimplementedClientHandler
}

type server0326 struct {
	mcp20250326.UnimplementedServerHandler
	initialized *atomic.Int64
}

func (s server0326) OnInitialized(context.Context, *mcp20250326.InitializedNotificationParams) error {
	s.initialized.Add(1)
	return nil
}

type client0326 struct {
	mcp20250326.UnimplementedClientHandler
}

// legacyRevision builds the dispatchers of one legacy package.
type legacyRevision struct {
	version string
	older   string // another version the server may accept
	server  func(supported []string, initialized *atomic.Int64) dispatcher
	client  func() dispatcher
}

var legacyRevisions = []legacyRevision{
	{
		version: "2025-06-18", older: "2025-03-26",
		server: func(supported []string, n *atomic.Int64) dispatcher {
			return mcp20250618.NewServerDispatcher(server0618{initialized: n}, mcp20250618.ServerOptions{
				ServerInfo:        mcp20250618.Implementation{Name: "legacy", Version: "0.1"},
				Capabilities:      mcp20250618.ServerCapabilities{Tools: &mcp20250618.ServerCapabilitiesTools{}},
				Instructions:      "Be nice.",
				SupportedVersions: supported,
			})
		},
		client: func() dispatcher {
			return mcp20250618.NewClientDispatcher(client0618{}, mcp20250618.ClientOptions{})
		},
	},
	{
		version: "2024-11-05", older: "2024-10-07",
		server: func(supported []string, n *atomic.Int64) dispatcher {
			return mcp20241105.NewServerDispatcher(server1105{initialized: n}, mcp20241105.ServerOptions{
				ServerInfo:        mcp20241105.Implementation{Name: "legacy", Version: "0.1"},
				Capabilities:      mcp20241105.ServerCapabilities{Tools: &mcp20241105.ServerCapabilitiesTools{}},
				Instructions:      "Be nice.",
				SupportedVersions: supported,
			})
		},
		client: func() dispatcher {
			return mcp20241105.NewClientDispatcher(client1105{}, mcp20241105.ClientOptions{})
		},
	},
	{
		version: "2025-03-26", older: "2024-11-05",
		server: func(supported []string, n *atomic.Int64) dispatcher {
			return mcp20250326.NewServerDispatcher(server0326{initialized: n}, mcp20250326.ServerOptions{
				ServerInfo:        mcp20250326.Implementation{Name: "legacy", Version: "0.1"},
				Capabilities:      mcp20250326.ServerCapabilities{Tools: &mcp20250326.ServerCapabilitiesTools{}},
				Instructions:      "Be nice.",
				SupportedVersions: supported,
			})
		},
		client: func() dispatcher {
			return mcp20250326.NewClientDispatcher(client0326{}, mcp20250326.ClientOptions{})
		},
	},
}

func initialize(id, version string) string {
	return request(id, "initialize", `{"protocolVersion":`+quote(version)+`,"capabilities":{},"clientInfo":{"name":"old-client","version":"1.0"}}`)
}

func initializeResult(version string) string {
	return `{"capabilities":{"tools":{}},"instructions":"Be nice.","protocolVersion":` + quote(version) + `,"serverInfo":{"name":"legacy","version":"0.1"}}`
}

func TestLegacyInitialize(t *testing.T) {
	for _, rev := range legacyRevisions {
		t.Run(rev.version, func(t *testing.T) {
			var n atomic.Int64
			d := rev.server(nil, &n)
			// The requested version is the server's: echoed.
			checkResult(t, handle(d, initialize(`1`, rev.version)), "1", initializeResult(rev.version))
			// An unknown version: the server answers with its preferred one.
			checkResult(t, handle(d, initialize(`"two"`, "1999-01-01")), `"two"`, initializeResult(rev.version))
			checkResult(t, handle(d, initialize(`3`, "2026-07-28")), "3", initializeResult(rev.version))
			// Several supported versions: a supported request is echoed, an
			// unknown one gets the first (preferred).
			d2 := rev.server([]string{rev.version, rev.older}, &n)
			checkResult(t, handle(d2, initialize(`4`, rev.older)), "4", initializeResult(rev.older))
			checkResult(t, handle(d2, initialize(`5`, "1999-01-01")), "5", initializeResult(rev.version))
			d3 := rev.server([]string{rev.older, rev.version}, &n)
			checkResult(t, handle(d3, initialize(`6`, "1999-01-01")), "6", initializeResult(rev.older))
			checkResult(t, handle(d3, initialize(`7`, rev.version)), "7", initializeResult(rev.version))
			// Invalid initialize params.
			r := checkError(t, handle(d, request(`8`, "initialize", `{"protocolVersion":"`+rev.version+`","capabilities":{}}`)),
				want{"8", -32602, `invalid params: /params: missing required member "clientInfo"`, "*"})
			if vs := violationsOf(t, r); len(vs) != 1 || vs[0].Pointer != "/params" || vs[0].Keyword != "required" {
				t.Errorf("violations = %+v", vs)
			}
			checkError(t, handle(d, request(`9`, "initialize", ``)), want{"9", -32602, `invalid params: missing required member "params"`, "*"})
			checkError(t, handle(d, request(`10`, "initialize", `{"protocolVersion":1,"capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)),
				want{"10", -32602, "invalid params: /params/protocolVersion: ", "*"})
			// notifications/initialized is accepted silently, with or without params.
			for _, msg := range []string{notification("notifications/initialized", ""), notification("notifications/initialized", `{}`)} {
				if got := handle(d, msg); got != nil {
					t.Errorf("%s -> %s", msg, got)
				}
			}
			if n.Load() != 2 {
				t.Errorf("OnInitialized ran %d times, want 2", n.Load())
			}
			// ... but not as a request.
			checkError(t, handle(d, request(`11`, "notifications/initialized", `{}`)), want{"11", -32600, "invalid request: ", ""})
			// A method the handler does not implement.
			checkError(t, handle(d, request(`12`, "tools/list", `{}`)), want{"12", -32601, "method not found", ""})
			// Legacy results carry no per-response _meta and no resultType.
			if r := handle(d, initialize(`13`, rev.version)); jsonHasMember(r, "_meta") || jsonHasMember(r, "resultType") {
				t.Errorf("legacy result with 2026-07-28 members: %s", r)
			}
		})
	}
}

func jsonHasMember(resp []byte, name string) bool {
	var m struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	json.Unmarshal(resp, &m)
	_, ok := m.Result[name]
	return ok
}

func TestLegacyPing(t *testing.T) {
	for _, rev := range legacyRevisions {
		var n atomic.Int64
		for side, d := range map[string]dispatcher{"server": rev.server(nil, &n), "client": rev.client()} {
			t.Run(rev.version+"/"+side, func(t *testing.T) {
				for _, msg := range []string{
					request(`1`, "ping", ""),
					request(`1`, "ping", `{}`),
					request(`1`, "ping", `{"_meta":{"progressToken":"p"}}`),
				} {
					got := handle(d, msg)
					if string(got) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
						t.Errorf("%s -> %s", msg, got)
					}
				}
				checkResult(t, handle(d, request(`"p"`, "ping", "")), `"p"`, `{}`)
				checkError(t, handle(d, request(`2`, "ping", `{"_meta":5}`)), want{"2", -32602, "invalid params: /params/_meta: ", "*"})
				checkError(t, handle(d, request(`3`, "ping", `5`)), want{"3", -32600, "invalid request: ", ""})
				if got := handle(d, notification("ping", "")); got != nil {
					t.Errorf("ping without an id answered: %s", got)
				}
			})
		}
	}
}

// A 2026-07-28 client has no ping (the revision dropped it).
func TestModernClientHasNoPing(t *testing.T) {
	d := mcp.NewClientDispatcher(modernClient{}, mcp.ClientOptions{})
	checkError(t, handle(d, request(`1`, "ping", "")), want{"1", -32601, `method not found: "ping"`, ""})
}

type modernClient struct {
	mcp.UnimplementedClientHandler
}

// ---------------------------------------------------------------------------
// Batches

// batch checks a batch response: a JSON array of the given responses, each
// checked by its function.
func checkBatch(t *testing.T, got []byte, checks ...func(t *testing.T, resp []byte)) {
	t.Helper()
	var items []json.RawMessage
	if err := json.Unmarshal(got, &items); err != nil {
		t.Fatalf("batch response is not an array: %s", got)
	}
	if len(items) != len(checks) {
		t.Fatalf("batch response has %d items, want %d: %s", len(items), len(checks), got)
	}
	for i, it := range items {
		checks[i](t, it)
	}
}

func isResult(id, result string) func(*testing.T, []byte) {
	return func(t *testing.T, b []byte) { t.Helper(); checkResult(t, b, id, result) }
}

func isError(w want) func(*testing.T, []byte) {
	return func(t *testing.T, b []byte) { t.Helper(); checkError(t, b, w) }
}

func TestBatches20250326(t *testing.T) {
	var n atomic.Int64
	server := legacyRevisions[2].server(nil, &n)
	client := legacyRevisions[2].client()
	ping := func(id string) string { return request(id, "ping", "") }
	initialized := notification("notifications/initialized", "")
	t.Run("requests and notifications", func(t *testing.T) {
		got := handle(server, `[`+ping(`1`)+`,`+initialized+`,`+ping(`"b"`)+`]`)
		checkBatch(t, got, isResult("1", `{}`), isResult(`"b"`, `{}`))
		if n.Load() != 1 {
			t.Errorf("the batched notification ran %d times", n.Load())
		}
	})
	t.Run("order kept, errors inside", func(t *testing.T) {
		got := handle(server, "[ "+ping(`3`)+" ,\n"+request(`4`, "nope", "")+`,`+initialize(`5`, "2025-03-26")+`,`+request(`6`, "ping", `7`)+`]`)
		checkBatch(t, got,
			isResult("3", `{}`),
			isError(want{"4", -32601, `method not found: "nope"`, ""}),
			isResult("5", initializeResult("2025-03-26")),
			isError(want{"6", -32600, `invalid request: "params" must be an object`, ""}))
	})
	t.Run("only notifications", func(t *testing.T) {
		if got := handle(server, `[`+initialized+`,`+initialized+`]`); got != nil {
			t.Errorf("a batch of notifications was answered: %s", got)
		}
	})
	t.Run("empty", func(t *testing.T) {
		checkError(t, handle(server, `[]`), want{noID, -32600, "invalid request: empty batch", ""})
		checkError(t, handle(server, " [ \n ] "), want{noID, -32600, "invalid request: empty batch", ""})
	})
	t.Run("invalid items", func(t *testing.T) {
		checkBatch(t, handle(server, `[1]`), isError(want{noID, -32600, "invalid request: a message must be a JSON object", ""}))
		checkBatch(t, handle(server, `[1,"x",null]`),
			isError(want{noID, -32600, "invalid request: ", ""}),
			isError(want{noID, -32600, "invalid request: ", ""}),
			isError(want{noID, -32600, "invalid request: ", ""}))
		checkBatch(t, handle(server, `[[`+ping(`1`)+`]]`), isError(want{noID, -32600, "invalid request: a message must be a JSON object", ""}))
		checkBatch(t, handle(server, `[{"id":1,"method":"ping"},`+ping(`2`)+`]`),
			isError(want{"1", -32600, `invalid request: missing "jsonrpc"`, ""}),
			isResult("2", `{}`))
	})
	t.Run("malformed", func(t *testing.T) {
		checkError(t, handle(server, `[`+ping(`1`)+`,`), want{noID, -32700, "parse error: ", ""})
		checkError(t, handle(server, `[`+ping(`1`)+`}`), want{noID, -32700, "parse error: ", ""})
	})
	t.Run("client dispatcher", func(t *testing.T) {
		checkBatch(t, handle(client, `[`+ping(`1`)+`,`+ping(`2`)+`]`), isResult("1", `{}`), isResult("2", `{}`))
	})
	t.Run("responses in a batch", func(t *testing.T) {
		if got := handle(server, `[{"jsonrpc":"2.0","id":1,"result":{}}]`); got != nil {
			t.Errorf("a batch of responses was answered: %s", got)
		}
	})
}

// TestBatchItemWithDuplicateMember: one item of a batch with a duplicate
// member is an invalid request like the same message alone (-32600), and
// the other items are still answered. See DISPATCH_FINDINGS.md.
func TestBatchItemWithDuplicateMember(t *testing.T) {
	var n atomic.Int64
	server := legacyRevisions[2].server(nil, &n)
	dup := `{"jsonrpc":"2.0","id":1,"method":"ping","method":"nope"}`
	checkError(t, handle(server, dup), want{noID, -32600, `invalid request: duplicate member "method"`, ""})
	checkBatch(t, handle(server, `[`+dup+`,`+request(`2`, "ping", "")+`]`),
		isError(want{noID, -32600, `invalid request: duplicate member "method"`, ""}),
		isResult("2", `{}`))
}

func TestNoBatchesElsewhere(t *testing.T) {
	var n atomic.Int64
	ds := map[string]dispatcher{
		"2026-07-28 server": newServer(toolsServer(), mcp.ServerOptions{}),
		"2026-07-28 client": mcp.NewClientDispatcher(modernClient{}, mcp.ClientOptions{}),
		"2025-06-18 server": legacyRevisions[0].server(nil, &n),
		"2025-06-18 client": legacyRevisions[0].client(),
		"2024-11-05 server": legacyRevisions[1].server(nil, &n),
		"2024-11-05 client": legacyRevisions[1].client(),
	}
	for name, d := range ds {
		t.Run(name, func(t *testing.T) {
			for _, msg := range []string{
				`[` + request(`1`, "ping", "") + `]`,
				`[` + notification("notifications/initialized", "") + `]`,
				`[]`,
				`[1,2]`,
			} {
				checkError(t, handle(d, msg), want{noID, -32600, "invalid request: this protocol revision does not allow JSON-RPC batches", ""})
			}
			// Malformed is still a parse error.
			checkError(t, handle(d, `[{"jsonrpc"`), want{noID, -32700, "parse error: ", ""})
		})
	}
	if n.Load() != 0 {
		t.Errorf("a rejected batch ran a notification handler")
	}
}
