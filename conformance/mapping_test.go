package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// These tests pin the type mapping the README promises, on real messages.

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPresenceSurvives(t *testing.T) {
	for _, in := range []string{
		`{"content":[],"isError":false,"resultType":"complete"}`,
		`{"content":[],"resultType":"complete"}`,
		`{"content":[],"resultType":""}`,
	} {
		var r mcp.CallToolResult
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			t.Fatal(err)
		}
		if got := mustMarshal(t, r); got != in {
			t.Errorf("round trip of %s gave %s", in, got)
		}
	}
	var r mcp.CallToolResult
	json.Unmarshal([]byte(`{"content":[],"isError":false,"resultType":"complete"}`), &r)
	if r.IsError == nil || *r.IsError {
		t.Errorf("isError false decoded as %v", r.IsError)
	}
}

func TestConstWrittenByType(t *testing.T) {
	if got := mustMarshal(t, mcp.TextContent{}); got != `{"text":"","type":"text"}` {
		t.Errorf("TextContent{} = %s", got)
	}
	if got := mustMarshal(t, &mcp.TextContent{Text: "hi"}); got != `{"text":"hi","type":"text"}` {
		t.Errorf("&TextContent{Text: hi} = %s", got)
	}
	req := mcp.DiscoverRequest{ID: mcp.RequestIdFromInteger(1)}
	got := mustMarshal(t, req)
	if !strings.Contains(got, `"jsonrpc":"2.0"`) || !strings.Contains(got, `"method":"server/discover"`) {
		t.Errorf("DiscoverRequest = %s", got)
	}
	var tc mcp.TextContent
	err := json.Unmarshal([]byte(`{"type":"image","text":"x"}`), &tc)
	var ve *mcp.ValidationError
	if !errors.As(err, &ve) || ve.Violations[0].Keyword != "const" || ve.Violations[0].Pointer != "/type" {
		t.Errorf("wrong const: err = %v", err)
	}
}

func TestSharedEnum(t *testing.T) {
	var l mcp.ListToolsResult
	var d mcp.DiscoverResult
	l.CacheScope = mcp.CacheScopePublic
	d.CacheScope = l.CacheScope // one type, CacheScope, in both
	if d.CacheScope != "public" {
		t.Fatal(d.CacheScope)
	}
	bad := mcp.CacheScope("bogus")
	err := bad.Validate()
	if err == nil || !strings.Contains(err.Error(), `"bogus" is not one of "private", "public"`) {
		t.Errorf("Validate(bogus) = %v", err)
	}
}

func TestRequestIdKinds(t *testing.T) {
	for _, in := range []string{`"abc"`, `7`, `-9007199254740993`} {
		var id mcp.RequestId
		if err := json.Unmarshal([]byte(in), &id); err != nil {
			t.Fatal(err)
		}
		if got := mustMarshal(t, id); got != in {
			t.Errorf("RequestId %s round-tripped as %s", in, got)
		}
	}
	var id mcp.RequestId
	json.Unmarshal([]byte(`"abc"`), &id)
	if s, ok := id.AsString(); !ok || s != "abc" {
		t.Errorf("AsString = %q, %v", s, ok)
	}
	if _, ok := id.AsInteger(); ok {
		t.Error("a string id reports an integer")
	}
	seven, otherSeven := mcp.RequestIdFromInteger(7), mcp.RequestIdFromInteger(7)
	if seven != otherSeven || mcp.RequestIdFromString("7") == seven {
		t.Error("RequestId must compare by kind and value")
	}
	for _, bad := range []string{`1.5`, `null`, `true`, `{}`} {
		if err := json.Unmarshal([]byte(bad), &id); err == nil {
			t.Errorf("RequestId accepted %s", bad)
		}
	}
	if err := json.Unmarshal([]byte(`2.0`), &id); err != nil {
		t.Errorf("2.0 is an integer in JSON Schema: %v", err)
	}
}

func TestUnionByDiscriminator(t *testing.T) {
	var p mcp.PromptMessage
	in := `{"content":{"type":"image","data":"aGk=","mimeType":"image/png"},"role":"user"}`
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	img, ok := p.Content.(*mcp.ImageContent)
	if !ok || img.Data != "aGk=" {
		t.Fatalf("content decoded as %T", p.Content)
	}
	err := json.Unmarshal([]byte(`{"content":{"type":"video"},"role":"user"}`), &p)
	if err == nil || !strings.Contains(err.Error(), `unknown "type" "video" for ContentBlock; want one of "text", "image", "audio", "resource_link", "resource"`) {
		t.Errorf("unknown discriminator: %v", err)
	}
	// A union value built in Go encodes its branch.
	p = mcp.PromptMessage{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: "hi"}}
	if got := mustMarshal(t, p); got != `{"content":{"text":"hi","type":"text"},"role":"user"}` {
		t.Errorf("PromptMessage = %s", got)
	}
}

func TestUnionStructural(t *testing.T) {
	cases := map[string]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`:                         "*mcp20260728.JSONRPCRequest",
		`{"jsonrpc":"2.0","method":"notifications/cancelled"}`:                   "*mcp20260728.JSONRPCNotification",
		`{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}`:            "*mcp20260728.JSONRPCResultResponse",
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"not found"}}`: "*mcp20260728.JSONRPCErrorResponse",
	}
	for in, want := range cases {
		m, err := mcp.UnmarshalJSONRPCMessage([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := typeName(m); got != want {
			t.Errorf("%s decoded as %s, want %s", in, got, want)
		}
		if err := m.Validate(); err != nil {
			t.Errorf("%s: %v", in, err)
		}
		// The holder decodes the same way through encoding/json.
		var h mcp.JSONRPCMessageHolder
		if err := json.Unmarshal([]byte(in), &h); err != nil || typeName(h.Value) != want {
			t.Errorf("%s through the holder: %s, %v", in, typeName(h.Value), err)
		}
	}
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }

func TestOpaqueJSONKeepsBytes(t *testing.T) {
	in := `{"content":[],"resultType":"complete","structuredContent":{"big":12345678901234567890123,"f":1.000000000000000000001,"s":"\u00e9"}}`
	var r mcp.CallToolResult
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	if string(r.StructuredContent) != `{"big":12345678901234567890123,"f":1.000000000000000000001,"s":"\u00e9"}` {
		t.Errorf("structuredContent = %s", r.StructuredContent)
	}
	if got := mustMarshal(t, r); got != in {
		t.Errorf("round trip: %s", got)
	}
}

func TestUnknownMembersSurvive(t *testing.T) {
	in := `{"name":"x","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},"x-vendor":{"n":1}}`
	var tool mcp.Tool
	if err := json.Unmarshal([]byte(in), &tool); err != nil {
		t.Fatal(err)
	}
	if v, ok := tool.Extra.Get("x-vendor"); !ok || string(v) != `{"n":1}` {
		t.Errorf("Extra = %v", tool.Extra)
	}
	if got := mustMarshal(t, tool); got != `{"inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},"name":"x","x-vendor":{"n":1}}` {
		t.Errorf("round trip: %s", got)
	}
}

func TestMetaReservedKeys(t *testing.T) {
	in := `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"com.example/trace":"t1"}}`
	var p mcp.RequestParams
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	if p.Meta.ProtocolVersion != "2026-07-28" || p.Meta.ClientInfo == nil || p.Meta.ClientInfo.Name != "c" {
		t.Errorf("typed _meta keys: %+v", p.Meta)
	}
	if v, _ := p.Meta.Extra.Get("com.example/trace"); string(v) != `"t1"` {
		t.Errorf("other _meta keys: %v", p.Meta.Extra)
	}
}

func TestNumberMapping(t *testing.T) {
	var r mcp.ListToolsResult
	if err := json.Unmarshal([]byte(`{"cacheScope":"public","resultType":"complete","tools":[],"ttlMs":9007199254740993}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.TTLMs != 9007199254740993 { // int64, exact beyond 2^53
		t.Errorf("ttlMs = %d", r.TTLMs)
	}
	var m mcp.ModelPreferences
	if err := json.Unmarshal([]byte(`{"costPriority":0.25}`), &m); err != nil || *m.CostPriority != 0.25 {
		t.Errorf("costPriority: %v %v", m.CostPriority, err)
	}
	var img mcp.ImageContent
	if err := json.Unmarshal([]byte(`{"type":"image","data":"not base64!","mimeType":"image/png"}`), &img); err != nil {
		t.Fatal(err) // format: byte is a string; Validate checks it
	}
	if err := img.Validate(); err == nil || !strings.Contains(err.Error(), "/data") {
		t.Errorf("Validate of bad base64: %v", err)
	}
}
