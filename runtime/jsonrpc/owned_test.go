package jsonrpc_test

import (
	"context"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// spanParams records the decoder's data and the name member it read.
type spanParams struct {
	data []byte
	name string
}

func (p *spanParams) DecodeJSON(d *codec.Decoder) {
	p.data = d.Data
	p.name = string(codec.Lookup(d.Data, "name"))
	d.Skip()
}

func (p *spanParams) ValidateWith(*codec.Validator) {}

// TestCallOwned: params handed over with CallOwned are decoded in place;
// the same bytes given to Call once that call is over, and a part of
// handed-over params, are copied first.
func TestCallOwned(t *testing.T) {
	var got spanParams
	cut := 0 // bytes the method leaves out at the end of what it decodes
	m := &jsonrpc.Method{Call: func(_ context.Context, raw []byte) (jsonrpc.Result, error) {
		got = spanParams{}
		return nil, jsonrpc.DecodeParams(raw[:len(raw)-cut], &got, true)
	}}
	same := func(a, b []byte) bool { return len(a) > 0 && len(b) > 0 && &a[0] == &b[0] }
	params := []byte(`{"name":"x","a":1} `)
	ctx := context.Background()

	if _, err := jsonrpc.CallOwned(ctx, m, params); err != nil {
		t.Fatal(err)
	}
	if !same(got.data, params) || got.name != `"x"` {
		t.Errorf("CallOwned: decoded in place %v, name %s; want in place, \"x\"", same(got.data, params), got.name)
	}
	if _, err := m.Call(ctx, params); err != nil {
		t.Fatal(err)
	}
	if same(got.data, params) || string(got.data) != string(params) || got.name != `"x"` {
		t.Errorf("Call after CallOwned: decoded in place %v (%s, name %s); want a copy", same(got.data, params), got.data, got.name)
	}
	cut = 1
	if _, err := jsonrpc.CallOwned(ctx, m, params); err != nil {
		t.Fatal(err)
	}
	if same(got.data, params) || string(got.data) != string(params[:len(params)-1]) {
		t.Errorf("CallOwned, a part decoded: in place %v (%s); want a copy", same(got.data, params), got.data)
	}
	// Empty params are called as they are.
	called := false
	empty := &jsonrpc.Method{Call: func(_ context.Context, raw []byte) (jsonrpc.Result, error) {
		called = raw == nil
		return nil, nil
	}}
	if _, err := jsonrpc.CallOwned(ctx, empty, nil); err != nil || !called {
		t.Errorf("CallOwned(nil): err %v, called with nil %v", err, called)
	}
}
