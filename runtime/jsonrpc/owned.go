package jsonrpc

import (
	"context"
	"sync"
	"sync/atomic"
)

// The params a method decodes are copied first (CheckValue), because the
// message they come from belongs to the caller, which may reuse it, and
// the handler may keep what it decoded. A caller that made the params
// itself for one call (the conversion of an older revision's params, in
// runtime/protocol) hands them over with CallOwned instead, and they are
// decoded in place: without it, a message of many members would be held
// three times (the message, its conversion, and the copy of that).

// owned holds the params handed over by the calls in progress: the
// address of the first byte of each, and its length.
var (
	owned      sync.Map // *byte → int
	ownedCalls atomic.Int64
)

// CallOwned calls m with params, which the caller made for this call and
// hands over: it must not change them once the call begins, nor hand the
// same bytes to another call in progress. The method decodes them in place
// (the values it decodes may refer to them) instead of copying them first.
func CallOwned(ctx context.Context, m *Method, params []byte) (Result, error) {
	if len(params) == 0 {
		return m.Call(ctx, params)
	}
	k := &params[0]
	owned.Store(k, len(params))
	ownedCalls.Add(1)
	defer func() {
		owned.Delete(k)
		ownedCalls.Add(-1)
	}()
	return m.Call(ctx, params)
}

// isOwned reports whether raw is exactly params handed over by CallOwned.
func isOwned(raw []byte) bool {
	if len(raw) == 0 || ownedCalls.Load() == 0 {
		return false
	}
	n, ok := owned.Load(&raw[0])
	return ok && n.(int) == len(raw)
}
