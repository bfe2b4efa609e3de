package protocol_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// TestParamsRefuseCaseFoldedMembers: a member of params that spells one
// the params declare in another case (beside it or instead of it) is
// refused with invalid params, text pinned; encoding/json would read it
// as the declared member. Inside a member (a tool's arguments) names are
// the tool's: "name" and "Name" are two properties there.
func TestParamsRefuseCaseFoldedMembers(t *testing.T) {
	s := &mcp.Server{}
	mcp.AddTool(s, mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequestParams, in map[string]int) (*mcp.CallToolResult, error) {
		b, _ := json.Marshal(in)
		return mcp.TextResult(string(b)), nil
	})
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{})
	ctx := context.Background()
	refused := func(member, name string) string {
		return `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid params: member \"` + member + `\" differs from \"` + name + `\" only in case"}}`
	}
	for params, want := range map[string]string{
		`{` + meta2026 + `,"name":"echo","Name":"rm"}`:                     refused("Name", "name"),
		`{"Name":"rm",` + meta2026 + `,"name":"echo"}`:                     refused("Name", "name"),
		`{` + meta2026 + `,"NAME":"echo"}`:                                 refused("NAME", "name"),
		`{` + meta2026 + `,"_META":{},"name":"echo"}`:                      refused("_META", "_meta"),
		`{` + meta2026 + `,"name":"echo","Arguments":{"a":1}}`:             refused("Arguments", "arguments"),
		`{` + meta2026 + `,"name":"echo","inputRespon\u017fes":{}}`:        refused("inputResponſes", "inputResponses"),
		`{` + meta2026 + `,"name":"echo","arguments":{"name":1,"Name":2}}`: `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"","version":""}},"content":[{"text":"{\"Name\":2,\"name\":1}","type":"text"}],"resultType":"complete"}}`,
		`{` + meta2026 + `,"name":"echo","names":1}`:                       `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"","version":""}},"content":[{"text":"{}","type":"text"}],"resultType":"complete"}}`,
	} {
		msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params + `}`
		if got := string(d.Handle(ctx, []byte(msg))); got != want {
			t.Errorf("%s:\n got %s\nwant %s", params, got, want)
		}
	}
	// The long s folds to s for encoding/json as for the check.
	var p struct {
		InputResponses json.RawMessage `json:"inputResponses"`
	}
	if err := json.Unmarshal([]byte(`{"inputRespon\u017fes":{"a":1}}`), &p); err != nil || string(p.InputResponses) != `{"a":1}` {
		t.Errorf("encoding/json does not read inputResponſes as inputResponses (%v, %s): the check refuses more than it needs", err, p.InputResponses)
	}

	// A client of 2025-11-25, served through the conversions.
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","Name":"rm"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"Cursor":"x"}}`,
	}, "\n") + "\n"
	var out strings.Builder
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := d.Serve(sctx, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: member \"Name\" differs from \"name\" only in case"}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"invalid params: member \"Cursor\" differs from \"cursor\" only in case"}}`,
	} {
		if !strings.Contains(out.String(), want+"\n") {
			t.Errorf("2025-11-25 client: answers\n%s\nwant among them\n%s", out.String(), want)
		}
	}
}
