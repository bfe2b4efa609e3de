package conformance

import (
	"context"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The 2026-07-28 parts of the dispatcher: per-request protocol version
// and client capabilities, server/discover, the _meta and resultType it
// adds to results, and the caching helpers.

// sealedStates matches the requestState member of a response.
var sealedStates = regexp.MustCompile(`"requestState":"[^"]*"`)

// ---------------------------------------------------------------------------
// Protocol version

func TestDispatchProtocolVersion(t *testing.T) {
	d := newServer(toolsServer(), mcp.ServerOptions{})
	unsupported := func(id, requested string) want {
		return want{id, -32022, "unsupported protocol version " + quote(requested),
			`{"supported":["2026-07-28"],"requested":` + quote(requested) + `}`}
	}
	cases := []struct {
		name, msg string
		w         want
	}{
		{"unknown version", request(`1`, "tools/list", `{`+metaWith(`"1900-01-01"`, `{}`)+`}`), unsupported("1", "1900-01-01")},
		{"legacy version", request(`"a"`, "tools/list", `{`+metaWith(`"2025-11-25"`, `{}`)+`}`), unsupported(`"a"`, "2025-11-25")},
		{"empty version", request(`2`, "tools/list", `{`+metaWith(`""`, `{}`)+`}`), unsupported("2", "")},
		{"on server/discover", request(`3`, "server/discover", `{`+metaWith(`"1900-01-01"`, `{}`)+`}`), unsupported("3", "1900-01-01")},
		// Checked before the rest of params: the missing name and the
		// missing capabilities are not reported.
		{"before other params", request(`4`, "tools/call", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01"},"arguments":5}`), unsupported("4", "1900-01-01")},
		// A missing version is a missing required member: -32602
		// (basic/index.mdx: "A request missing any required field is
		// malformed; the server MUST reject it with ... -32602").
		{"missing version", request(`5`, "tools/list", `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}`),
			want{"5", -32602, `invalid params: /params/_meta: missing required member "io.modelcontextprotocol/protocolVersion"`,
				`{"violations":[{"pointer":"/params/_meta","keyword":"required","message":"missing required member \"io.modelcontextprotocol/protocolVersion\""}]}`}},
		{"missing _meta", request(`6`, "tools/list", `{}`),
			want{"6", -32602, `invalid params: /params: missing required member "_meta"`, "*"}},
		{"missing params", request(`7`, "server/discover", ``),
			want{"7", -32602, `invalid params: missing required member "params"`, "*"}},
		{"version not a string", request(`8`, "tools/list", `{`+metaWith(`20260728`, `{}`)+`}`),
			want{"8", -32602, "invalid params: /params/_meta/io.modelcontextprotocol~1protocolVersion: ", "*"}},
		{"missing capabilities", request(`9`, "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`),
			want{"9", -32602, `invalid params: /params/_meta: missing required member "io.modelcontextprotocol/clientCapabilities"`, "*"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkError(t, handle(d, c.msg), c.w)
		})
	}
}

func TestDispatchSupportedVersionsOption(t *testing.T) {
	d := newServer(toolsServer(), mcp.ServerOptions{SupportedVersions: []string{"2026-07-28", "2026-01-15"}})
	checkResult(t, handle(d, request(`1`, "tools/list", `{`+metaWith(`"2026-01-15"`, `{}`)+`}`)), "1", listToolsResult)
	checkResult(t, handle(d, request(`2`, "tools/list", `{`+meta+`}`)), "2", listToolsResult)
	checkError(t, handle(d, request(`3`, "tools/list", `{`+metaWith(`"2025-11-25"`, `{}`)+`}`)),
		want{"3", -32022, `unsupported protocol version "2025-11-25"; supported: "2026-07-28", "2026-01-15"`,
			`{"supported":["2026-07-28","2026-01-15"],"requested":"2025-11-25"}`})
	// The list is the server's: a server may drop the package's own version.
	d = newServer(toolsServer(), mcp.ServerOptions{SupportedVersions: []string{"2027-01-01"}})
	checkError(t, handle(d, request(`4`, "tools/list", `{`+meta+`}`)),
		want{"4", -32022, "unsupported protocol version", `{"supported":["2027-01-01"],"requested":"2026-07-28"}`})
}

// TestModernServerAnswersInitializeWithVersions: a legacy client opens with
// initialize. basic/versioning.mdx: "A server that supports only modern
// versions SHOULD name the protocol versions it supports in any error it
// returns to an initialize request". See DISPATCH_FINDINGS.md.
func TestModernServerAnswersInitializeWithVersions(t *testing.T) {
	d := newServer(toolsServer(), mcp.ServerOptions{SupportedVersions: []string{"2026-07-28"}})
	got := handle(d, request(`0`, "initialize",
		`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}`))
	r := checkError(t, got, want{"0", -32022, "", "*"}) // the code is implementation-defined; -32022 is a modern error a dual-era client recognizes
	if !strings.Contains(r.err.Message, "2026-07-28") && !strings.Contains(string(r.err.Data), "2026-07-28") {
		t.Errorf("the error to initialize does not name the supported versions: %s", got)
	}
	// A modern request (per-request _meta) for initialize asks for a
	// method 2026-07-28 does not have: streamable-http.mdx answers an
	// unimplemented method with -32601 (and 404 over HTTP), and the
	// message still names the versions.
	got = handle(d, request(`1`, "initialize", `{`+metaWith(`"2026-07-28"`, `{}`)+`}`))
	r = checkError(t, got, want{"1", -32601, "method not found", ""})
	if !strings.Contains(r.err.Message, "2026-07-28") {
		t.Errorf("the error to a modern initialize does not name the supported versions: %s", got)
	}
}

// ---------------------------------------------------------------------------
// Client capabilities and NeedInput

const (
	elicitForm      = `{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`
	elicitNoMode    = `{"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}`
	elicitURL       = `{"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://auth.example.com/x"}}`
	sampling        = `{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}}`
	samplingTools   = `{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10,"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}`
	samplingNoTools = `{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10,"tools":[]}}`
	rootsList       = `{"method":"roots/list"}`
)

// inputRequired decodes an InputRequiredResult from js, an object without
// resultType, and leaves resultType empty, as a handler builds it: the
// dispatcher fills it.
func inputRequired(t *testing.T, js string) mcp.InputRequiredResult {
	t.Helper()
	var r mcp.InputRequiredResult
	full := `{"resultType":"input_required",` + strings.TrimPrefix(js, "{")
	if err := r.UnmarshalJSON([]byte(full)); err != nil {
		t.Fatalf("%s: %v", full, err)
	}
	r.ResultType = ""
	return r
}

func TestDispatchNeedInputCapabilities(t *testing.T) {
	const missing = "the request needs client capabilities it did not declare"
	cases := []struct {
		name     string
		requests string // the inputRequests object
		caps     string
		required string // data.requiredCapabilities; "" means the result passes
	}{
		{"form elicitation, no capabilities", `{"a":` + elicitForm + `}`, `{}`, `{"elicitation":{}}`},
		{"form elicitation without mode, no capabilities", `{"a":` + elicitNoMode + `}`, `{}`, `{"elicitation":{}}`},
		{"form elicitation, elicitation {}", `{"a":` + elicitForm + `}`, `{"elicitation":{}}`, ""},
		{"form elicitation, elicitation form", `{"a":` + elicitForm + `}`, `{"elicitation":{"form":{}}}`, ""},
		{"form elicitation, url only", `{"a":` + elicitForm + `}`, `{"elicitation":{"url":{}}}`, `{"elicitation":{"form":{}}}`},
		{"url elicitation, no capabilities", `{"a":` + elicitURL + `}`, `{}`, `{"elicitation":{"url":{}}}`},
		{"url elicitation, elicitation {} (form only)", `{"a":` + elicitURL + `}`, `{"elicitation":{}}`, `{"elicitation":{"url":{}}}`},
		{"url elicitation, form only", `{"a":` + elicitURL + `}`, `{"elicitation":{"form":{}}}`, `{"elicitation":{"url":{}}}`},
		{"url elicitation, url", `{"a":` + elicitURL + `}`, `{"elicitation":{"url":{}}}`, ""},
		{"url elicitation, both", `{"a":` + elicitURL + `}`, `{"elicitation":{"form":{},"url":{}}}`, ""},
		{"sampling, no capabilities", `{"s":` + sampling + `}`, `{}`, `{"sampling":{}}`},
		{"sampling, sampling", `{"s":` + sampling + `}`, `{"sampling":{}}`, ""},
		{"sampling with tools, sampling", `{"s":` + samplingTools + `}`, `{"sampling":{}}`, `{"sampling":{"tools":{}}}`},
		{"sampling with tools, no capabilities", `{"s":` + samplingTools + `}`, `{}`, `{"sampling":{"tools":{}}}`},
		{"sampling with tools, sampling.tools", `{"s":` + samplingTools + `}`, `{"sampling":{"tools":{}}}`, ""},
		{"sampling with an empty tools list, sampling", `{"s":` + samplingNoTools + `}`, `{"sampling":{}}`, ""},
		{"roots, no capabilities", `{"r":` + rootsList + `}`, `{}`, `{"roots":{}}`},
		{"roots, other capabilities", `{"r":` + rootsList + `}`, `{"sampling":{},"elicitation":{}}`, `{"roots":{}}`},
		{"roots, roots", `{"r":` + rootsList + `}`, `{"roots":{}}`, ""},
		{"all kinds, none declared", `{"a":` + elicitURL + `,"r":` + rootsList + `,"s":` + samplingTools + `}`, `{}`,
			`{"elicitation":{"url":{}},"roots":{},"sampling":{"tools":{}}}`},
		{"all kinds, some declared", `{"a":` + elicitForm + `,"r":` + rootsList + `,"s":` + sampling + `}`, `{"elicitation":{},"sampling":{}}`,
			`{"roots":{}}`},
		{"all kinds, all declared", `{"a":` + elicitForm + `,"b":` + elicitURL + `,"r":` + rootsList + `,"s":` + samplingTools + `}`,
			`{"elicitation":{"form":{},"url":{}},"roots":{},"sampling":{"tools":{}}}`, ""},
		{"no input requests", `{}`, `{}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			irJSON := `{"inputRequests":` + c.requests + `,"requestState":"st"}`
			ir := inputRequired(t, irJSON)
			s := &server{
				callTool: func(context.Context, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
					return nil, mcp.NeedInput(ir)
				},
				readResource: func(context.Context, *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
					return nil, mcp.NeedInput(ir)
				},
				getPrompt: func(context.Context, *mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error) {
					return nil, mcp.NeedInput(ir)
				},
			}
			d := newServer(s, mcp.ServerOptions{})
			m := metaWith(`"2026-07-28"`, c.caps)
			for _, msg := range []string{
				request(`1`, "tools/call", `{`+m+`,"name":"t"}`),
				request(`1`, "resources/read", `{`+m+`,"uri":"file:///a"}`),
				request(`1`, "prompts/get", `{`+m+`,"name":"p"}`),
			} {
				got := handle(d, msg)
				if c.required == "" {
					// The requestState the client gets is the sealed token
					// (mrtr_test.go checks what it holds).
					checkResult(t, []byte(sealedStates.ReplaceAllString(string(got), `"requestState":"sealed"`)), "1",
						`{`+resultMeta+`,"inputRequests":`+c.requests+`,"requestState":"sealed","resultType":"input_required"}`)
				} else {
					checkError(t, got, want{"1", -32021, missing, `{"requiredCapabilities":` + c.required + `}`})
				}
			}
		})
	}
}

// TestDispatchNeedInputWithNothingToAsk: an InputRequiredResult "MUST
// include at least one of inputRequests or requestState" (mrtr.mdx,
// Server Requirements 6); the dispatcher checks results before sending
// them. See DISPATCH_FINDINGS.md.
func TestDispatchNeedInputWithNothingToAsk(t *testing.T) {
	d := newServer(&server{callTool: func(context.Context, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		return nil, mcp.NeedInput(mcp.InputRequiredResult{})
	}}, mcp.ServerOptions{})
	got := handle(d, request(`1`, "tools/call", `{`+meta+`,"name":"t"}`))
	checkError(t, got, want{"1", -32603, "internal error", "*"})
}

// ---------------------------------------------------------------------------
// server/discover

func TestDispatchDiscover(t *testing.T) {
	opts := mcp.ServerOptions{
		Capabilities: mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{}, Resources: &mcp.ServerCapabilitiesResources{Subscribe: new(true)}},
		Instructions: "Call add.",
		DiscoverTTL:  time.Hour,
	}
	discover := request(`"d"`, "server/discover", `{`+meta+`}`)
	t.Run("from options", func(t *testing.T) {
		d := newServer(&server{}, opts)
		checkResult(t, handle(d, discover), `"d"`, `{`+resultMeta+`,"cacheScope":"public","capabilities":{"resources":{"subscribe":true},"tools":{}},`+
			`"instructions":"Call add.","resultType":"complete","supportedVersions":["2026-07-28"],"ttlMs":3600000}`)
	})
	t.Run("minimal options", func(t *testing.T) {
		d := mcp.NewServerDispatcher(&server{}, mcp.ServerOptions{ServerInfo: serverInfo})
		checkResult(t, handle(d, discover), `"d"`, `{`+resultMeta+`,"cacheScope":"public","capabilities":{},"resultType":"complete","supportedVersions":["2026-07-28"],"ttlMs":0}`)
	})
	t.Run("scope, versions, no server info", func(t *testing.T) {
		o := opts
		o.DiscoverCacheScope = mcp.CacheScopePrivate
		o.SupportedVersions = []string{"2026-07-28", "2026-01-15"}
		o.OmitServerInfo = true
		o.DiscoverTTL = 1500 * time.Millisecond
		d := newServer(&server{}, o)
		checkResult(t, handle(d, discover), `"d"`, `{"cacheScope":"private","capabilities":{"resources":{"subscribe":true},"tools":{}},`+
			`"instructions":"Call add.","resultType":"complete","supportedVersions":["2026-07-28","2026-01-15"],"ttlMs":1500}`)
	})
	t.Run("handler overrides", func(t *testing.T) {
		d := newServer(&server{discover: func(context.Context, *mcp.RequestParams) (*mcp.DiscoverResult, error) {
			return &mcp.DiscoverResult{SupportedVersions: []string{"2026-07-28"}, CacheScope: mcp.CacheScopePrivate, TTLMs: 7}, nil
		}}, opts)
		checkResult(t, handle(d, discover), `"d"`, `{`+resultMeta+`,"cacheScope":"private","capabilities":{},"resultType":"complete","supportedVersions":["2026-07-28"],"ttlMs":7}`)
	})
	t.Run("handler error", func(t *testing.T) {
		d := newServer(&server{discover: func(context.Context, *mcp.RequestParams) (*mcp.DiscoverResult, error) {
			return nil, &mcp.RPCError{Code: 7, Message: "no"}
		}}, opts)
		checkError(t, handle(d, discover), want{`"d"`, 7, "no", ""})
	})
	t.Run("handler sees the request", func(t *testing.T) {
		var info *mcp.RequestInfo
		var caps []byte
		d := newServer(&server{discover: func(ctx context.Context, p *mcp.RequestParams) (*mcp.DiscoverResult, error) {
			info = mcp.RequestFromContext(ctx)
			caps, _ = p.Meta.ClientCapabilities.AppendJSON(nil)
			return &mcp.DiscoverResult{SupportedVersions: []string{}, CacheScope: mcp.CacheScopePublic}, nil
		}}, opts)
		checkResult(t, handle(d, request(`"d"`, "server/discover", `{`+metaWith(`"2026-07-28"`, `{"roots":{}}`)+`}`)), `"d"`, "")
		if info == nil || string(info.ID) != `"d"` || info.Method != "server/discover" || !strings.Contains(string(info.Params), `"roots"`) {
			t.Errorf("RequestFromContext = %+v", info)
		}
		if string(caps) != `{"roots":{}}` {
			t.Errorf("capabilities = %s", caps)
		}
	})
}

// ---------------------------------------------------------------------------
// serverInfo and resultType

func TestDispatchResultMeta(t *testing.T) {
	own := mcp.Implementation{Name: "own", Version: "9"}
	cases := []struct {
		name   string
		opts   mcp.ServerOptions
		result *mcp.ListToolsResult
		want   string
	}{
		{"added", mcp.ServerOptions{}, &mcp.ListToolsResult{Tools: []mcp.Tool{}, CacheScope: "public"},
			`{` + resultMeta + `,"cacheScope":"public","resultType":"complete","tools":[],"ttlMs":0}`},
		{"omitted", mcp.ServerOptions{OmitServerInfo: true}, &mcp.ListToolsResult{Tools: []mcp.Tool{}, CacheScope: "public"},
			`{"cacheScope":"public","resultType":"complete","tools":[],"ttlMs":0}`},
		{"handler's serverInfo kept", mcp.ServerOptions{}, &mcp.ListToolsResult{Tools: []mcp.Tool{}, CacheScope: "public", Meta: &mcp.ResultMetaObject{ServerInfo: &own}},
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"own","version":"9"}},"cacheScope":"public","resultType":"complete","tools":[],"ttlMs":0}`},
		{"handler's other _meta kept", mcp.ServerOptions{}, &mcp.ListToolsResult{Tools: []mcp.Tool{}, CacheScope: "public",
			Meta: &mcp.ResultMetaObject{Extra: mcp.Members{{Name: "com.example/trace", Value: json.RawMessage(`"t1"`)}}}},
			`{"_meta":{"com.example/trace":"t1","io.modelcontextprotocol/serverInfo":` + serverInfoJSON + `},"cacheScope":"public","resultType":"complete","tools":[],"ttlMs":0}`},
		{"handler's resultType kept", mcp.ServerOptions{OmitServerInfo: true}, &mcp.ListToolsResult{Tools: []mcp.Tool{}, CacheScope: "public", ResultType: "complete"},
			`{"cacheScope":"public","resultType":"complete","tools":[],"ttlMs":0}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newServer(&server{listTools: func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
				return c.result, nil
			}}, c.opts)
			checkResult(t, handle(d, request(`1`, "tools/list", `{`+meta+`}`)), "1", c.want)
		})
	}
	t.Run("tools/call", func(t *testing.T) {
		d := newServer(toolsServer(), mcp.ServerOptions{})
		checkResult(t, handle(d, request(`1`, "tools/call", `{`+meta+`,"name":"add"}`)), "1",
			`{`+resultMeta+`,"content":[{"type":"text","text":"add"}],"resultType":"complete"}`)
	})
}

// TestDispatchDoesNotMutateResults: handlers may return shared values; the
// dispatcher adds _meta and resultType to a copy. Run with -race.
func TestDispatchDoesNotMutateResults(t *testing.T) {
	list := &mcp.ListToolsResult{Tools: []mcp.Tool{{Name: "t", InputSchema: mcp.ToolInputSchema{}}}, CacheScope: mcp.CacheScopePublic, TTLMs: 10}
	other := &mcp.ResultMetaObject{Extra: mcp.Members{{Name: "com.example/x", Value: json.RawMessage(`1`)}}}
	call := &mcp.CallToolResult{Content: []mcp.ContentBlock{}, Meta: other}
	disc := &mcp.DiscoverResult{SupportedVersions: []string{"2026-07-28"}, CacheScope: mcp.CacheScopePublic}
	ir := mcp.InputRequiredResult{RequestState: new("s"), Meta: other}
	before := func() string {
		var b []byte
		for _, v := range []interface{ AppendJSON([]byte) ([]byte, error) }{list, call, disc, &ir} {
			b, _ = v.AppendJSON(append(b, ' '))
		}
		return string(b)
	}
	snapshot := before()
	s := &server{
		listTools: func(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) { return list, nil },
		callTool: func(_ context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
			if p.Name == "input" {
				return nil, mcp.NeedInput(ir)
			}
			return call, nil
		},
		discover: func(context.Context, *mcp.RequestParams) (*mcp.DiscoverResult, error) { return disc, nil },
	}
	d := newServer(s, mcp.ServerOptions{})
	msgs := []string{
		request(`1`, "tools/list", `{`+meta+`}`),
		request(`2`, "tools/call", `{`+meta+`,"name":"t"}`),
		request(`3`, "server/discover", `{`+meta+`}`),
		request(`4`, "tools/call", `{`+meta+`,"name":"input"}`),
	}
	first := make([][]byte, len(msgs))
	for i, m := range msgs {
		first[i] = handle(d, m)
	}
	var wg sync.WaitGroup
	for range 8 {
		for i, m := range msgs {
			wg.Go(func() {
				// Sealed requestStates carry their expiry, so they
				// differ from call to call.
				got := handle(d, m)
				if a, b := sealedStates.ReplaceAll(got, nil), sealedStates.ReplaceAll(first[i], nil); string(a) != string(b) {
					t.Errorf("%s answered differently:\n%s\n%s", m, got, first[i])
				}
			})
		}
	}
	wg.Wait()
	if list.Meta != nil || list.ResultType != "" || call.ResultType != "" || disc.Meta != nil || disc.ResultType != "" || ir.ResultType != "" {
		t.Error("the dispatcher changed a handler's result")
	}
	if other.ServerInfo != nil {
		t.Error("the dispatcher wrote serverInfo into the handler's _meta object")
	}
	if after := before(); after != snapshot {
		t.Errorf("results changed:\n%s\n%s", snapshot, after)
	}
	for i, r := range first {
		if !strings.Contains(string(r), `"io.modelcontextprotocol/serverInfo"`) || !strings.Contains(string(r), `"resultType"`) {
			t.Errorf("response %d lacks serverInfo or resultType: %s", i, r)
		}
	}
}

// ---------------------------------------------------------------------------
// Caching helpers

func TestTTL(t *testing.T) {
	maxMs := int64(math.MaxInt64 / int64(time.Millisecond))
	cases := []struct {
		ms   int64
		want time.Duration
	}{
		{-1, 0},
		{math.MinInt64, 0},
		{0, 0},
		{1, time.Millisecond},
		{1500, 1500 * time.Millisecond},
		{maxMs, time.Duration(maxMs) * time.Millisecond},
		{maxMs + 1, time.Duration(math.MaxInt64)},
		{math.MaxInt64, time.Duration(math.MaxInt64)},
	}
	for _, c := range cases {
		for name, got := range map[string]time.Duration{
			"ListToolsResult":             (&mcp.ListToolsResult{TTLMs: c.ms}).TTL(),
			"DiscoverResult":              (&mcp.DiscoverResult{TTLMs: c.ms}).TTL(),
			"ReadResourceResult":          (&mcp.ReadResourceResult{TTLMs: c.ms}).TTL(),
			"ListPromptsResult":           (&mcp.ListPromptsResult{TTLMs: c.ms}).TTL(),
			"ListResourcesResult":         (&mcp.ListResourcesResult{TTLMs: c.ms}).TTL(),
			"ListResourceTemplatesResult": (&mcp.ListResourceTemplatesResult{TTLMs: c.ms}).TTL(),
		} {
			if got != c.want {
				t.Errorf("%s{TTLMs: %d}.TTL() = %v, want %v", name, c.ms, got, c.want)
			}
		}
	}
}

func TestFresh(t *testing.T) {
	received := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		ms   int64
		now  time.Time
		want bool
	}{
		{"at receipt", 1000, received, true},
		{"before expiry", 1000, received.Add(999 * time.Millisecond), true},
		{"just before expiry", 1000, received.Add(time.Second - time.Nanosecond), true},
		{"at expiry (stale)", 1000, received.Add(time.Second), false},
		{"after expiry", 1000, received.Add(time.Second + time.Nanosecond), false},
		{"ttl 0 at receipt", 0, received, false},
		{"negative ttl", -5000, received, false},
		{"clock went back", 1000, received.Add(-time.Hour), true},
		{"huge ttl, a century later", math.MaxInt64, received.AddDate(100, 0, 0), true},
		{"huge ttl, at receipt", math.MaxInt64, received, true},
	}
	for _, c := range cases {
		r := mcp.ListToolsResult{TTLMs: c.ms}
		if got := r.Fresh(received, c.now); got != c.want {
			t.Errorf("%s: Fresh = %v, want %v", c.name, got, c.want)
		}
		d := mcp.DiscoverResult{TTLMs: c.ms}
		if got := d.Fresh(received, c.now); got != c.want {
			t.Errorf("%s: DiscoverResult.Fresh = %v, want %v", c.name, got, c.want)
		}
	}
	// With the monotonic clock too.
	now := time.Now()
	r := mcp.ListToolsResult{TTLMs: 60_000}
	if !r.Fresh(now, now.Add(time.Second)) || r.Fresh(now, now.Add(time.Minute)) {
		t.Error("Fresh with monotonic times")
	}
}

func decodeParamsValue(t *testing.T, method, js string) mcp.Value {
	t.Helper()
	for _, m := range mcp.Methods {
		if m.Name == method && m.FromClient {
			v := m.NewParams()
			if err := v.UnmarshalJSON([]byte(js)); err != nil {
				t.Fatalf("%s params %s: %v", method, js, err)
			}
			return v
		}
	}
	t.Fatalf("no method %s", method)
	return nil
}

func TestCacheKey(t *testing.T) {
	otherMeta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"2"},"progressToken":7}`
	cases := []struct {
		name, method, params string
		key                  string // "" means not cacheable
	}{
		{"list without cursor", "tools/list", `{` + meta + `}`, `tools/list {}`},
		{"list with cursor", "tools/list", `{` + meta + `,"cursor":"c2"}`, `tools/list {"cursor":"c2"}`},
		{"other _meta, same key", "tools/list", `{` + otherMeta + `,"cursor":"c2"}`, `tools/list {"cursor":"c2"}`},
		{"prompts/list", "prompts/list", `{` + meta + `}`, `prompts/list {}`},
		{"resources/list", "resources/list", `{` + meta + `,"cursor":"x"}`, `resources/list {"cursor":"x"}`},
		{"resources/templates/list", "resources/templates/list", `{` + meta + `}`, `resources/templates/list {}`},
		{"server/discover", "server/discover", `{` + otherMeta + `}`, `server/discover {}`},
		{"resources/read", "resources/read", `{` + meta + `,"uri":"file:///a"}`, `resources/read {"uri":"file:///a"}`},
		{"canonical order", "resources/read", `{"uri":"file:///a","zeta":{"b":[1,{"y":1,"x":2}],"a":true},"alpha":null,` + meta + `}`,
			`resources/read {"alpha":null,"uri":"file:///a","zeta":{"a":true,"b":[1,{"x":2,"y":1}]}}`},
		{"canonical order, reversed", "resources/read", `{` + otherMeta + `,"alpha":null,"zeta":{"a":true,"b":[1,{"x":2,"y":1}]},"uri":"file:///a"}`,
			`resources/read {"alpha":null,"uri":"file:///a","zeta":{"a":true,"b":[1,{"x":2,"y":1}]}}`},
		{"retry with inputResponses", "resources/read", `{` + meta + `,"uri":"file:///a","inputResponses":{"a":{"action":"cancel"}}}`, ""},
		{"retry with requestState", "resources/read", `{` + meta + `,"uri":"file:///a","requestState":"s"}`, ""},
		{"tools/call is not cacheable", "tools/call", `{` + meta + `,"name":"t"}`, ""},
		{"prompts/get is not cacheable", "prompts/get", `{` + meta + `,"name":"p"}`, ""},
		{"completion/complete is not cacheable", "completion/complete", `{` + meta + `,"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"v"}}`, ""},
	}
	for _, c := range cases {
		key, ok := mcp.CacheKey(c.method, decodeParamsValue(t, c.method, c.params))
		if ok != (c.key != "") || key != c.key {
			t.Errorf("%s: CacheKey = %q, %v; want %q", c.name, key, ok, c.key)
		}
	}
	k1, _ := mcp.CacheKey("tools/list", decodeParamsValue(t, "tools/list", `{`+meta+`,"cursor":"a"}`))
	k2, _ := mcp.CacheKey("tools/list", decodeParamsValue(t, "tools/list", `{`+meta+`,"cursor":"b"}`))
	k3, _ := mcp.CacheKey("resources/list", decodeParamsValue(t, "resources/list", `{`+meta+`,"cursor":"a"}`))
	if k1 == k2 || k1 == k3 {
		t.Errorf("different requests share a key: %q %q %q", k1, k2, k3)
	}
	if key, ok := mcp.CacheKey("server/discover", nil); !ok || key != "server/discover {}" {
		t.Errorf("CacheKey(discover, nil) = %q, %v", key, ok)
	}
	if key, ok := mcp.CacheKey("no/such", nil); ok {
		t.Errorf("CacheKey of an unknown method = %q", key)
	}
	if key, ok := mcp.CacheKey("tools/call", nil); ok {
		t.Errorf("CacheKey(tools/call, nil) = %q", key)
	}
}

func TestDecodeResult(t *testing.T) {
	cases := []struct {
		name, method, result string
		wantType             string // Go type; "" means an error
		effective            mcp.ResultType
	}{
		{"tools/call input_required", "tools/call", `{"resultType":"input_required","requestState":"s"}`, "*mcp20260728.InputRequiredResult", "input_required"},
		{"tools/call input_required with requests", "tools/call", `{"resultType":"input_required","inputRequests":{"r":` + rootsList + `}}`, "*mcp20260728.InputRequiredResult", "input_required"},
		{"tools/call complete", "tools/call", `{"resultType":"complete","content":[]}`, "*mcp20260728.CallToolResult", "complete"},
		{"tools/call without resultType", "tools/call", `{"content":[{"type":"text","text":"x"}]}`, "*mcp20260728.CallToolResult", "complete"},
		{"resources/read input_required", "resources/read", `{"resultType":"input_required","requestState":"s"}`, "*mcp20260728.InputRequiredResult", "input_required"},
		{"resources/read complete", "resources/read", `{"resultType":"complete","contents":[],"ttlMs":1,"cacheScope":"private"}`, "*mcp20260728.ReadResourceResult", "complete"},
		{"prompts/get input_required", "prompts/get", `{"resultType":"input_required","requestState":"s"}`, "*mcp20260728.InputRequiredResult", "input_required"},
		{"prompts/get without resultType", "prompts/get", `{"messages":[]}`, "*mcp20260728.GetPromptResult", "complete"},
		{"tools/list", "tools/list", `{"tools":[],"ttlMs":5,"cacheScope":"public"}`, "*mcp20260728.ListToolsResult", "complete"},
		{"server/discover", "server/discover", `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"public"}`, "*mcp20260728.DiscoverResult", "complete"},
		{"unknown method", "tools/nope", `{}`, "", ""},
		{"notification", "notifications/cancelled", `{}`, "", ""},
		{"malformed", "tools/call", `{"content":`, "", ""},
		{"wrong type", "tools/call", `{"content":5}`, "", ""},
	}
	for _, c := range cases {
		v, err := mcp.DecodeResult(c.method, []byte(c.result))
		if c.wantType == "" {
			if err == nil {
				t.Errorf("%s: DecodeResult accepted %s as %T", c.name, c.result, v)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := typeName(v); got != c.wantType {
			t.Errorf("%s: decoded as %s, want %s", c.name, got, c.wantType)
			continue
		}
		type effective interface{ EffectiveResultType() mcp.ResultType }
		if e, ok := v.(effective); !ok || e.EffectiveResultType() != c.effective {
			t.Errorf("%s: EffectiveResultType = %v, want %v", c.name, e.EffectiveResultType(), c.effective)
		}
	}
}

// TestDecodeResultRejectsUnknownResultType: "A resultType of any value
// unrecognized by the client MUST be considered invalid" (basic/index.mdx,
// ResultType). See DISPATCH_FINDINGS.md.
func TestDecodeResultRejectsUnknownResultType(t *testing.T) {
	for _, c := range []struct{ method, result string }{
		{"tools/call", `{"resultType":"partial","content":[]}`},
		{"tools/list", `{"resultType":"streaming","tools":[],"ttlMs":0,"cacheScope":"public"}`},
	} {
		if v, err := mcp.DecodeResult(c.method, []byte(c.result)); err == nil {
			t.Errorf("DecodeResult(%s, %s) = %T, nil; want an error", c.method, c.result, v)
		}
	}
}
