package interop

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/testenv"
)

// TestGoCmpOnGeneratedValues: go-cmp compares generated values with no
// options (it panics on unexported fields): a decoded value against the
// equal literal, and every official example decoded twice.
func TestGoCmpOnGeneratedValues(t *testing.T) {
	in := `{"content":[{"type":"text","text":"3"},{"type":"image","data":"aGk=","mimeType":"image/png"}],"isError":false,"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}`
	var got mcp.CallToolResult
	if err := mcp.UnmarshalAndValidate([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	want := mcp.CallToolResult{
		Meta: &mcp.ResultMetaObject{ServerInfo: &mcp.Implementation{Name: "s", Version: "1"}},
		Content: []mcp.ContentBlock{
			&mcp.TextContent{Text: "3"},
			&mcp.ImageContent{Data: "aGk=", MIMEType: "image/png"},
		},
		IsError:    new(false),
		ResultType: mcp.ResultTypeComplete,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("decoded value differs from the literal (-want +got):\n%s", d)
	}
	want.Content[0] = &mcp.TextContent{Text: "4"}
	if d := cmp.Diff(want, got); d == "" {
		t.Error("cmp.Diff sees no difference in a union branch")
	}

	req := `{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}},"name":"add","arguments":{"a":1,"b":2}}}`
	var r mcp.CallToolRequest
	if err := mcp.UnmarshalAndValidate([]byte(req), &r); err != nil {
		t.Fatal(err)
	}
	wantR := mcp.CallToolRequest{
		ID: mcp.RequestIdFromString("r1"),
		Params: mcp.CallToolRequestParams{
			Meta: mcp.RequestMetaObject{
				ProtocolVersion: mcp.ProtocolVersion,
				ClientCapabilities: mcp.ClientCapabilities{
					Elicitation: &mcp.ClientCapabilitiesElicitation{Form: &mcp.ClientCapabilitiesElicitationForm{}},
				},
			},
			Name:      "add",
			Arguments: json.RawMessage(`{"a":1,"b":2}`),
		},
	}
	if d := cmp.Diff(wantR, r); d != "" {
		t.Errorf("decoded request differs from the literal (-want +got):\n%s", d)
	}

	examples := testenv.Examples(t, "2026-07-28")
	for _, ex := range examples {
		a, _ := mcp.NewValue(ex.Definition)
		b, _ := mcp.NewValue(ex.Definition)
		if a == nil {
			t.Errorf("%s: no such definition", ex.Definition)
			continue
		}
		if err := a.UnmarshalJSON(ex.Data); err != nil {
			t.Errorf("%s/%s: %v", ex.Definition, ex.Name, err)
			continue
		}
		if err := b.UnmarshalJSON(ex.Data); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(a, b); d != "" {
			t.Errorf("%s/%s: two decodings differ:\n%s", ex.Definition, ex.Name, d)
		}
	}
}
