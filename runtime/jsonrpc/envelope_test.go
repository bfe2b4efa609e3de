package jsonrpc_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// TestEnvelopeRefusesCaseFoldedMembers: a member that spells one of the
// envelope's in another case is refused, with the text pinned; inside
// params, names are not the envelope's business.
func TestEnvelopeRefusesCaseFoldedMembers(t *testing.T) {
	d := &jsonrpc.Dispatcher{Methods: map[string]*jsonrpc.Method{}}
	for msg, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping","Method":"tools/call"}`:            `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: member \"Method\" differs from \"method\" only in case"}}`,
		`{"jsonrpc":"2.0","ID":2,"id":1,"method":"ping"}`:                           `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: member \"ID\" differs from \"id\" only in case"}}`,
		`{"jsonrpc":"2.0","id":1,"PARAMS":{},"method":"ping"}`:                      `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: member \"PARAMS\" differs from \"params\" only in case"}}`,
		`{"JsonRpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}`:                  `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: member \"JsonRpc\" differs from \"jsonrpc\" only in case"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"Name":"a","name":"b"}}`: "",
	} {
		env, errResp := d.ReadEnvelope([]byte(msg))
		if got := strings.TrimSpace(string(errResp)); got != want {
			t.Errorf("%s:\n got %s\nwant %s", msg, got, want)
		}
		if want == "" && env.Method != "ping" {
			t.Errorf("%s: method %q", msg, env.Method)
		}
	}
}
