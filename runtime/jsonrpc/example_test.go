package jsonrpc_test

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// A dispatcher with one method answers a request, and refuses a method it
// does not know with -32601.
func Example() {
	d := &jsonrpc.Dispatcher{Methods: map[string]*jsonrpc.Method{
		"ping": {Call: func(ctx context.Context, params []byte) (jsonrpc.Result, error) {
			return jsonrpc.RawResult(`{}`), nil
		}},
	}}
	ctx := context.Background()
	fmt.Printf("%s\n", d.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)))
	fmt.Printf("%s\n", d.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":2,"method":"pong"}`)))
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{}}
	// {"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"method not found: \"pong\""}}
}
