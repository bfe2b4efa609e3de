package conformance

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// TestBoundedErrorText: whatever a request is given in its method name,
// id, member names, values or headers, the error it gets back quotes at
// most a short prefix of it: with 1 MiB in the offending place, the whole
// response stays under 8 KiB (the text of a refusal is a few hundred
// bytes; invalid params carry at most 20 violations in their data, with
// shortened pointers), over HTTP and from Handle.
func TestBoundedErrorText(t *testing.T) {
	big := strings.Repeat("é", 1<<19) // 1 MiB of two-byte runes
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	call := func(params string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + params + `}}`
	}
	manyBad := strings.Repeat(`{"type":"text","text":1},`, 20_000)
	bodies := []struct{ what, body string }{
		{"method name", `{"jsonrpc":"2.0","id":1,"method":"` + big + `","params":{` + meta + `}}`},
		{"notification method name with an id", `{"jsonrpc":"2.0","id":1,"method":"notifications/` + big + `"}`},
		{"id of the wrong type", `{"jsonrpc":"2.0","id":{"` + big + `":1},"method":"tools/list","params":{` + meta + `}}`},
		{"id as a long number", `{"jsonrpc":"2.0","id":1` + strings.Repeat("0", 1<<20) + `.5,"method":"tools/list","params":{` + meta + `}}`},
		{"duplicate member name", call(`"` + big + `":1,"` + big + `":2,"name":"x",` + meta)},
		{"protocol version in _meta", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + big + `"}}}`},
		{"member name where none is allowed", call(`"name":"x",` + meta + `,"arguments":{},"inputResponses":{"k":{"` + big + `":1}}`)},
		{"long string of the wrong kind", call(`"name":1` + strings.Repeat("0", 1<<20) + `,` + meta)},
		{"many violations", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x",` + meta + `,"inputResponses":{"k":{"content":[` + manyBad + `1]}}}}`},
		{"deep pointer", call(`"name":"x",` + meta + `,"inputResponses":{"` + strings.Repeat("/", 1<<20) + `":1}`)},
	}
	d := mcp.NewServerDispatcher(mcp.UnimplementedServerHandler{}, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "s", Version: "1"}})
	const limit = 8 << 10
	for _, b := range bodies {
		resp := d.Handle(context.Background(), []byte(b.body))
		if len(resp) > limit || !bytes.Contains(resp, []byte(`"error"`)) {
			t.Errorf("Handle, %s: %d bytes: %.300s", b.what, len(resp), resp)
		}
	}
	h := mcp.NewHTTPHandler(d, mcp.HTTPOptions{MaxBodyBytes: 8 << 20})
	post := func(body string, hdr map[string]string) (int, []byte) {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("MCP-Protocol-Version", "2026-07-28")
		for k, v := range hdr {
			if k == "Host" {
				r.Host = v
				continue
			}
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		out, _ := io.ReadAll(w.Result().Body)
		return w.Code, out
	}
	for _, b := range bodies {
		hdr := map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "x"}
		if code, resp := post(b.body, hdr); code == http.StatusOK && !bytes.Contains(resp, []byte(`"error"`)) || len(resp) > limit {
			t.Errorf("HTTP, %s: %d, %d bytes: %.300s", b.what, code, len(resp), resp)
		}
	}
	ascii := strings.Repeat("a", 1<<20)
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`
	for _, c := range []struct {
		what string
		hdr  map[string]string
	}{
		{"MCP-Protocol-Version header", map[string]string{"MCP-Protocol-Version": "2026-" + ascii, "Mcp-Method": "tools/list"}},
		{"Mcp-Method header", map[string]string{"Mcp-Method": ascii}},
		{"Mcp-Name header", map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": ascii}},
		{"Host header", map[string]string{"Host": ascii + ".example"}},
		{"Origin header", map[string]string{"Origin": "http://" + ascii}},
	} {
		body := list
		if c.hdr["Mcp-Name"] != "" {
			body = call(`"name":"x",` + meta)
		}
		code, resp := post(body, c.hdr)
		if code == http.StatusOK || len(resp) > limit {
			t.Errorf("HTTP, %s: %d, %d bytes: %.300s", c.what, code, len(resp), resp)
		}
	}
}
