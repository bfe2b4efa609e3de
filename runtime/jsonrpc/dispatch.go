// Package jsonrpc is the JSON-RPC 2.0 engine of mcpgen's runtime: it reads
// one message (or batch), routes it to a method table, maps failures to
// error responses, serves a stream of newline-delimited messages (the MCP
// stdio transport) with cancellation and back-pressure, and sends requests
// to the peer and waits for their responses. It knows nothing of MCP: a
// protocol on top of it (runtime/protocol) takes part through the Protocol
// hooks, and generated packages fill the method tables with their typed
// handlers.
package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// RPCError is a JSON-RPC error. A handler that returns one (or wraps one)
// gets exactly this code, message and data in the error response.
type RPCError struct {
	Code    int64
	Message string
	// Data is the error's data member as JSON; nil leaves it out.
	Data json.RawMessage
}

func (e *RPCError) Error() string {
	return "jsonrpc error " + strconv.FormatInt(e.Code, 10) + ": " + e.Message
}

// ErrNotImplemented is what the Unimplemented handlers of generated
// packages return; the dispatcher answers method not found.
var ErrNotImplemented = errors.New("method not implemented")

// RequestInfo describes the request a handler is serving.
type RequestInfo struct {
	// ID is the request id as JSON (a string or an integer).
	ID json.RawMessage
	// Method is the method name.
	Method string
	// Params is the params member as JSON; nil when absent.
	Params json.RawMessage
}

type requestInfoKey struct{}

// RequestFromContext returns the request a handler's context belongs to,
// or nil.
func RequestFromContext(ctx context.Context) *RequestInfo {
	ri, _ := ctx.Value(requestInfoKey{}).(*RequestInfo)
	return ri
}

// WithRequest returns ctx with ri as the request it belongs to.
func WithRequest(ctx context.Context, ri *RequestInfo) context.Context {
	return context.WithValue(ctx, requestInfoKey{}, ri)
}

// Result is a value the dispatcher can encode as a result: every type of a
// generated package is one.
type Result interface {
	EncodeJSON(e *codec.Encoder)
}

// RawResult is a result that is JSON already.
type RawResult []byte

// EncodeJSON writes r as it is.
func (r RawResult) EncodeJSON(e *codec.Encoder) { e.Buf = append(e.Buf, r...) }

// An Answer is an error a method returns to answer its request with a
// result after all (the tasks extension's CreateTaskResult).
type Answer interface {
	error
	// AnswerFor returns the result for the request ri, and false when the
	// error is not about ri.
	AnswerFor(ri *RequestInfo) (Result, bool)
}

// Method is one entry of a method table.
type Method struct {
	Notification bool
	// Call decodes and checks params, runs the handler and returns the
	// result to encode. It returns *RPCError for protocol failures.
	Call func(ctx context.Context, params []byte) (Result, error)
}

// ExtensionMethod serves a request method that the schema does not define,
// such as one of an extension: it receives the params as JSON (nil when
// absent) and returns the result, a JSON object. Its errors become error
// responses as a handler's do (an *RPCError keeps its code).
type ExtensionMethod func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)

// AddExtensions adds extension methods to the method table; check, if set,
// runs first on the params (MCP checks their protocol version). A name the
// table has already is a programming error, reported by a panic when the
// dispatcher is made, as http.ServeMux reports conflicting patterns.
func (d *Dispatcher) AddExtensions(ext map[string]ExtensionMethod, check func(params []byte) error) {
	for name, fn := range ext {
		if _, ok := d.Methods[name]; ok {
			panic("jsonrpc: ExtensionMethods: " + strconv.Quote(name) + " is a method of this revision; its handler serves it")
		}
		if fn == nil {
			panic("jsonrpc: ExtensionMethods: " + strconv.Quote(name) + " has a nil function")
		}
		d.Methods[name] = &Method{Call: func(ctx context.Context, params []byte) (Result, error) {
			if check != nil {
				if err := check(params); err != nil {
					return nil, err
				}
			}
			res, err := fn(ctx, params)
			if err != nil {
				return nil, err
			}
			if i := codec.FirstByte(res); i < 0 || res[i] != '{' || !codec.ValidJSON(res) {
				return nil, &RPCError{Code: CodeInternalError, Message: "internal error: the extension method " + strconv.Quote(name) + " returned a result that is not a JSON object"}
			}
			return RawResult(res), nil
		}}
	}
}

// Envelope is what the dispatcher reads of a message before routing it.
type Envelope struct {
	ID       []byte // raw id, nil when absent
	IDOK     bool   // ID is a string or an integer
	Method   string
	Params   []byte
	Response bool // has result or error
}

// Protocol is how a protocol on top of JSON-RPC takes part in handling
// messages: MCP keeps sessions, serves the clients of several revisions
// and runs tasks. Every method is called on the dispatcher's goroutine for
// the message; peer is the peer of the connection the message came on
// (nil over stateless HTTP).
type Protocol interface {
	// Route returns the dispatcher that handles a message (or a batch,
	// when env is nil) read on peer's connection: d itself, or another
	// one (and the context for it).
	Route(ctx context.Context, d *Dispatcher, peer *Peer, env *Envelope) (*Dispatcher, context.Context)
	// AllowsBatch reports whether d answers batches on peer's connection
	// beyond Dispatcher.Batches.
	AllowsBatch(d *Dispatcher, peer *Peer) bool
	// Before runs before a request's or notification's method; a non-nil
	// error answers it instead. It may return a new context for it.
	Before(ctx context.Context, d *Dispatcher, peer *Peer, env *Envelope) (context.Context, error)
	// After is told of a method that succeeded: resp is the response (nil
	// for a notification).
	After(ctx context.Context, d *Dispatcher, peer *Peer, env *Envelope, resp []byte)
	// Read is told of each notification as a connection reads it, in
	// order, before it is queued (MCP's notifications/initialized).
	Read(d *Dispatcher, peer *Peer, env *Envelope)
	// Opened and Closed frame the life of a connection's peer.
	Opened(d *Dispatcher, peer *Peer)
	Closed(d *Dispatcher, peer *Peer)
}

// Dispatcher routes messages to a method table. Set its fields before it
// handles a message; then it is safe for concurrent use.
type Dispatcher struct {
	Methods map[string]*Method
	// Batches says whether a JSON array of messages is a batch; otherwise
	// it is an invalid request.
	Batches bool
	// OnResponse receives responses (messages with result or error) that
	// no request of the peer awaits, if set.
	OnResponse func(msg []byte)
	// OnBadMessage, if set, receives what Serve reads that is not a
	// message it can route (msg nil for a line too long that is not a
	// response: a response fails the request it answers), with the error
	// response it would send otherwise: a client does not answer them.
	OnBadMessage func(msg, errResp []byte)
	// Logger, if set, receives what goes wrong outside a response: handler
	// and middleware panics (Error), dropped notifications and responses,
	// failed writes (Warn); requests cancelled by the peer (Debug). Nothing
	// is logged per request at Info.
	Logger *slog.Logger
	// OmitUnknownID leaves the id out of an error response to a message
	// whose id could not be read, instead of writing null.
	OmitUnknownID bool
	// Limits bound the connections served by Serve, and (MaxResult) the
	// responses the dispatcher sends on any transport.
	Limits Limits
	// Cancel is the notification that cancels a request, and CancelID the
	// member of its params that names the request ("" for none): Serve
	// acts on it as it reads it, and a request sent to the peer that stops
	// waiting sends it.
	Cancel, CancelID string
	// Protocol, if set, takes part in handling each message.
	Protocol Protocol
	// Stopping, if set, runs when the context of Serve is done, before
	// the handlers' contexts are: it asks handlers that never end by
	// themselves (a server's subscriptions/listen) to end with their
	// result. Serve waits up to StopWait for the handlers to end before
	// it cancels them.
	Stopping func()
	// Around, if set, runs around the serving of each request and
	// notification that reaches the method table, after Route and before
	// the method lookup: s.Serve finds the method (a request for none gets
	// method not found), runs Protocol.Before and the method with the
	// params given, and returns the result (or the error the response
	// reports). Around returns what the message is answered with; it is
	// how a protocol on top runs its middleware (protocol.Middleware).
	// Responses, and messages that are not valid JSON-RPC, never reach it.
	Around func(ctx context.Context, s *Serving) (Result, error)
	// TooLarge, if set, gives what a request whose response would be
	// longer than Limits.MaxResult bytes is answered with instead of
	// result, which is longer than max, what the envelope leaves: a
	// result (MCP's tools/call: a tool error that says so), or nil for
	// the internal error the dispatcher answers with otherwise.
	TooLarge func(env *Envelope, result []byte, max int) Result
}

// Handle processes one message (or batch) and returns the response bytes,
// nil when there is nothing to answer.
func (d *Dispatcher) Handle(ctx context.Context, msg []byte) []byte {
	var dec codec.Decoder
	dec.InitShared(msg)
	if dec.Peek() == '[' {
		if d.Protocol != nil {
			if o, octx := d.Protocol.Route(ctx, d, PeerFromContext(ctx), nil); o != d {
				return o.handleBatch(octx, msg)
			}
		}
		return d.handleBatch(ctx, msg)
	}
	return d.handleOne(ctx, msg)
}

func (d *Dispatcher) handleBatch(ctx context.Context, msg []byte) []byte {
	// A duplicate member inside an item is that item's problem (an invalid
	// request), not the batch's.
	whole := codec.Decoder{Data: msg, AllowDup: true}
	whole.Skip()
	if err := whole.Finish(); err != nil {
		return d.ErrorResponse(nil, CodeParseError, "parse error: "+SyntaxText(msg), nil)
	}
	if !d.Batches && (d.Protocol == nil || !d.Protocol.AllowsBatch(d, PeerFromContext(ctx))) {
		return d.ErrorResponse(nil, CodeInvalidRequest, "invalid request: this protocol revision does not allow JSON-RPC batches", nil)
	}
	dec := codec.Decoder{Data: msg, AllowDup: true}
	dec.Array()
	var items [][]byte
	for first := true; dec.NextElem(&first); {
		items = append(items, dec.Raw())
	}
	if len(items) == 0 {
		return d.ErrorResponse(nil, CodeInvalidRequest, "invalid request: empty batch", nil)
	}
	out := []byte{'['}
	n := 0
	for _, it := range items {
		resp := d.handleOne(ctx, it)
		if resp == nil {
			continue
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, resp...)
		n++
	}
	if n == 0 {
		return nil
	}
	return append(out, ']')
}

// SyntaxText describes why msg is not JSON.
func SyntaxText(msg []byte) string {
	d := codec.Decoder{Data: msg}
	d.Skip()
	if err := d.Finish(); err != nil {
		var se *codec.SyntaxError
		if errors.As(err, &se) {
			return se.Msg + " at offset " + strconv.FormatInt(se.Offset, 10)
		}
		return err.Error()
	}
	return "invalid JSON"
}

// ReadEnvelope reads the members the dispatcher needs; it returns an error
// response when the message is not a valid request, notification or
// response.
func (d *Dispatcher) ReadEnvelope(msg []byte) (env Envelope, errResp []byte) {
	if !codec.ValidJSON(msg) {
		dec := codec.Decoder{Data: msg}
		dec.Skip()
		err := dec.Finish()
		var se *codec.SyntaxError
		if errors.As(err, &se) && se.Duplicate != "" {
			return env, d.ErrorResponse(nil, CodeInvalidRequest, "invalid request: duplicate member "+codec.Quote(se.Duplicate), nil)
		}
		return env, d.ErrorResponse(nil, CodeParseError, "parse error: "+SyntaxText(msg), nil)
	}
	var dec codec.Decoder
	dec.InitShared(msg)
	if dec.Peek() != '{' {
		return env, d.ErrorResponse(nil, CodeInvalidRequest, "invalid request: a message must be a JSON object", nil)
	}
	dec.Object()
	var jsonrpc string
	var hasJSONRPC, hasMethod, methodOK bool
	var folded, foldedOf string // a member named as one of the envelope's in another case, and that one
	for first := true; dec.NextMember(&first); {
		switch dec.Key {
		case "jsonrpc":
			hasJSONRPC = true
			if dec.Peek() == '"' {
				jsonrpc = dec.Str()
			} else {
				dec.Skip()
			}
		case "id":
			dec.Peek()
			env.ID = dec.Raw()
			env.IDOK = IsRequestID(env.ID)
		case "method":
			hasMethod = true
			if dec.Peek() == '"' {
				env.Method = dec.Str()
				methodOK = true
			} else {
				dec.Skip()
			}
		case "params":
			dec.Peek()
			env.Params = dec.Raw()
		case "result", "error":
			env.Response = true
			dec.Skip()
		default:
			if folded == "" {
				folded, foldedOf = foldedEnvelopeMember(dec.Key)
			}
			dec.Skip()
		}
	}
	id := env.ID
	if !env.IDOK {
		id = nil
	}
	switch {
	case folded != "":
		// A peer that matches names case-insensitively (encoding/json)
		// would read this member as the envelope's: refused, so that
		// two parsers cannot read one message two ways.
		return env, d.ErrorResponse(id, CodeInvalidRequest, "invalid request: member "+codec.Quote(folded)+" differs from "+codec.Quote(foldedOf)+" only in case", nil)
	case !hasJSONRPC:
		return env, d.ErrorResponse(id, CodeInvalidRequest, `invalid request: missing "jsonrpc": "2.0"`, nil)
	case jsonrpc != "2.0":
		return env, d.ErrorResponse(id, CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`, nil)
	case env.Response && !hasMethod:
		return env, nil
	case !hasMethod:
		return env, d.ErrorResponse(id, CodeInvalidRequest, `invalid request: missing "method"`, nil)
	case !methodOK:
		return env, d.ErrorResponse(id, CodeInvalidRequest, `invalid request: "method" must be a string`, nil)
	case env.ID != nil && !env.IDOK:
		return env, d.ErrorResponse(nil, CodeInvalidRequest, "invalid request: the id must be a string or an integer, not "+codec.Quote(string(env.ID)), nil)
	case env.Params != nil && env.Params[0] != '{' && env.Params[0] != '[':
		return env, d.ErrorResponse(id, CodeInvalidRequest, `invalid request: "params" must be an object`, nil)
	}
	return env, nil
}

// IsRequestID reports whether raw is a string or an integer (MCP does not
// allow null or fractional ids).
func IsRequestID(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		return true
	}
	if !codec.IsNumberStart(raw[0]) {
		return false
	}
	// Any integral number: the id is kept as raw JSON and echoed, so its
	// size does not matter.
	_, isInt, _ := codec.ParseInt(raw)
	return isInt
}

func (d *Dispatcher) handleOne(ctx context.Context, msg []byte) []byte {
	env, errResp := d.ReadEnvelope(msg)
	if errResp != nil {
		return errResp
	}
	return d.HandleEnvelope(ctx, env, msg)
}

// HandleEnvelope answers a message whose envelope ReadEnvelope has read
// without finding fault.
func (d *Dispatcher) HandleEnvelope(ctx context.Context, env Envelope, msg []byte) []byte {
	peer := PeerFromContext(ctx)
	if env.Response && env.Method == "" {
		if peer != nil && peer.Deliver(msg) {
			return nil
		}
		if d.OnResponse != nil {
			d.OnResponse(msg)
		} else {
			d.LogAttrs(slog.LevelWarn, "jsonrpc: dropped a response to a request that is not waiting for one", slog.String(LogKeyRequestID, codec.Clip(string(env.ID), codec.MaxQuoted)))
		}
		return nil
	}
	if d.Protocol != nil {
		if o, octx := d.Protocol.Route(ctx, d, peer, &env); o != d {
			return o.HandleEnvelope(octx, env, msg)
		}
	}
	notification := env.ID == nil
	var res Result
	var err error
	mctx := ctx // the method's context, for Protocol.After
	if d.Around == nil {
		res, mctx, err = d.serve(ctx, peer, &env)
	} else {
		res, mctx, err = d.serveAround(ctx, peer, env)
	}
	if notification {
		var nh *noHandler
		switch {
		case errors.As(err, &nh):
			d.LogAttrs(slog.LevelWarn, "jsonrpc: dropped a notification: no handler", slog.String(LogKeyMethod, codec.Clip(env.Method, codec.MaxQuoted)))
		case err != nil:
			d.LogAttrs(slog.LevelWarn, "jsonrpc: a notification failed", slog.String(LogKeyMethod, codec.Clip(env.Method, codec.MaxQuoted)), slog.String("error", err.Error()))
		case d.Protocol != nil:
			d.Protocol.After(mctx, d, peer, &env, nil)
		}
		return nil
	}
	if err != nil {
		return d.ErrorResponseFor(env.ID, err)
	}
	if res == nil {
		return d.ErrorResponse(env.ID, CodeInternalError, "internal error: no result", nil)
	}
	e := codec.Encoder{Buf: make([]byte, 0, 256)}
	e.Buf = append(e.Buf, `{"jsonrpc":"2.0","id":`...)
	e.Buf = append(e.Buf, env.ID...)
	e.Buf = append(e.Buf, `,"result":`...)
	start := len(e.Buf)
	res.EncodeJSON(&e)
	e.Buf = append(e.Buf, '}')
	if e.Err != nil {
		return d.ErrorResponse(env.ID, CodeInternalError, "internal error: cannot encode the result: "+e.Err.Error(), nil)
	}
	if max := d.Limits.ResultLimit(); max > 0 && len(e.Buf) > max {
		// The result's own bound is what the envelope leaves of max.
		result := e.Buf[start : len(e.Buf)-1]
		resp := d.tooLarge(&env, result, max-(len(e.Buf)-len(result)), max)
		if resp == nil {
			return d.ErrorResponse(env.ID, CodeInternalError, "internal error: the response is "+strconv.Itoa(len(e.Buf))+" bytes long; this server sends at most "+strconv.Itoa(max), nil)
		}
		e.Buf = resp
	}
	if d.Protocol != nil {
		d.Protocol.After(mctx, d, peer, &env, e.Buf)
	}
	return e.Buf
}

// tooLarge returns the response that answers env instead of one whose
// result (longer than resultMax) makes it longer than max, or nil:
// TooLarge's result, if it gives one within max bytes.
func (d *Dispatcher) tooLarge(env *Envelope, result []byte, resultMax, max int) []byte {
	if d.TooLarge == nil {
		return nil
	}
	res := d.TooLarge(env, result, resultMax)
	if res == nil {
		return nil
	}
	e := codec.Encoder{Buf: make([]byte, 0, 256)}
	e.Buf = append(e.Buf, `{"jsonrpc":"2.0","id":`...)
	e.Buf = append(e.Buf, env.ID...)
	e.Buf = append(e.Buf, `,"result":`...)
	res.EncodeJSON(&e)
	e.Buf = append(e.Buf, '}')
	if e.Err != nil || len(e.Buf) > max {
		return nil
	}
	return e.Buf
}

// noHandler is why a notification the method table has no entry for is
// dropped.
type noHandler struct{ method string }

func (e *noHandler) Error() string { return "no handler for the notification " + codec.Quote(e.method) }

// serve finds env's method, runs Protocol.Before and the method, and turns
// an Answer into its result: what Around wraps. It returns the method's
// context (Before may make a new one).
func (d *Dispatcher) serve(ctx context.Context, peer *Peer, env *Envelope) (Result, context.Context, error) {
	notification := env.ID == nil
	m, ok := d.Methods[env.Method]
	if !ok || m.Notification != notification {
		switch {
		case notification:
			return nil, ctx, &noHandler{env.Method}
		case ok:
			return nil, ctx, &RPCError{Code: CodeInvalidRequest, Message: "invalid request: " + codec.Quote(env.Method) + " is a notification and must not have an id"}
		}
		return nil, ctx, &RPCError{Code: CodeMethodNotFound, Message: "method not found: " + codec.Quote(env.Method)}
	}
	ri := &RequestInfo{ID: env.ID, Method: env.Method, Params: env.Params}
	ctx = WithRequest(ctx, ri)
	if d.Protocol != nil {
		var err error
		if ctx, err = d.Protocol.Before(ctx, d, peer, env); err != nil {
			return nil, ctx, err
		}
	}
	res, err := d.call(ctx, m, *env)
	if err != nil && !notification {
		var a Answer
		if errors.As(err, &a) {
			if r, ok := a.AnswerFor(ri); ok {
				return r, ctx, nil
			}
		}
	}
	return res, ctx, err
}

// Serving is the serving of one message that Around wraps: its envelope,
// and Serve, which serves it.
type Serving struct {
	d    *Dispatcher
	peer *Peer
	env  Envelope
	// ctx is the method's context, once Serve has run (for
	// Protocol.After).
	ctx context.Context
}

// Envelope returns the envelope of the message.
func (s *Serving) Envelope() *Envelope { return &s.env }

// Serve finds the method (a request for none gets method not found), runs
// Protocol.Before and the method with params, and returns its result or
// the error the response reports.
func (s *Serving) Serve(ctx context.Context, params []byte) (Result, error) {
	s.env.Params = params
	r, c, err := s.d.serve(ctx, s.peer, &s.env)
	s.ctx = c
	return r, err
}

// serveAround is serve inside Around, turning a panic in Around into an
// internal error.
func (d *Dispatcher) serveAround(ctx context.Context, peer *Peer, env Envelope) (res Result, mctx context.Context, err error) {
	s := &Serving{d: d, peer: peer, env: env, ctx: ctx}
	defer func() {
		if p := recover(); p != nil {
			d.LogAttrs(slog.LevelError, "jsonrpc: panic in middleware", slog.String(LogKeyMethod, codec.Clip(env.Method, codec.MaxQuoted)), slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
			res, err = nil, &RPCError{Code: CodeInternalError, Message: "internal error: the middleware panicked"}
		}
	}()
	res, err = d.Around(ctx, s)
	return res, s.ctx, err
}

// CallMethod runs m for a message whose envelope is env, turning a panic
// into an internal error, as HandleEnvelope does.
func (d *Dispatcher) CallMethod(ctx context.Context, m *Method, env Envelope) (Result, error) {
	return d.call(ctx, m, env)
}

// call runs a method, turning a panic into an internal error.
func (d *Dispatcher) call(ctx context.Context, m *Method, env Envelope) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			d.LogAttrs(slog.LevelError, "jsonrpc: panic in handler", slog.String(LogKeyMethod, codec.Clip(env.Method, codec.MaxQuoted)), slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
			res, err = nil, &RPCError{Code: CodeInternalError, Message: "internal error: the handler panicked"}
		}
	}()
	return m.Call(ctx, env.Params)
}

// ErrorResponseFor maps a handler error to an error response.
func (d *Dispatcher) ErrorResponseFor(id []byte, err error) []byte {
	var re *RPCError
	switch {
	case errors.As(err, &re):
		return d.ErrorResponse(id, re.Code, re.Message, re.Data)
	case errors.Is(err, ErrNotImplemented):
		return d.ErrorResponse(id, CodeMethodNotFound, "method not found", nil)
	}
	return d.ErrorResponse(id, CodeInternalError, err.Error(), nil)
}

// ErrorResponse encodes an error response. A nil id (one that could not be
// read) is written as null, or left out with OmitUnknownID.
func (d *Dispatcher) ErrorResponse(id []byte, code int64, message string, data []byte) []byte {
	e := codec.Encoder{Buf: make([]byte, 0, 128)}
	e.Buf = append(e.Buf, `{"jsonrpc":"2.0",`...)
	switch {
	case id != nil:
		e.Buf = append(e.Buf, `"id":`...)
		e.Buf = append(e.Buf, id...)
		e.Buf = append(e.Buf, ',')
	case !d.OmitUnknownID:
		e.Buf = append(e.Buf, `"id":null,`...)
	}
	e.Buf = append(e.Buf, `"error":{"code":`...)
	e.Int(code)
	e.Buf = append(e.Buf, `,"message":`...)
	e.Str(message)
	if data != nil && codec.ValidJSON(data) {
		e.Buf = append(e.Buf, `,"data":`...)
		e.Buf = append(e.Buf, data...)
	}
	e.Buf = append(e.Buf, "}}"...)
	return e.Buf
}

// ViolationsUnder moves violations under a member of the message (their
// pointers become /params/..., /result/...) and encodes them as the data
// of an error response: at most MaxDataViolations of them, each pointer
// longer than codec.MaxPointerText shortened in its middle, and the number
// of the others as "omitted".
func ViolationsUnder(prefix string, ve *codec.ValidationError) ([]codec.Violation, []byte) {
	vs := make([]codec.Violation, len(ve.Violations))
	for i, v := range ve.Violations {
		v.Pointer = prefix + v.Pointer
		vs[i] = v
	}
	shown, omitted := vs, ve.Omitted
	if len(shown) > MaxDataViolations {
		omitted += len(shown) - MaxDataViolations
		shown = shown[:MaxDataViolations]
	}
	if slices.ContainsFunc(shown, func(v codec.Violation) bool { return len(v.Pointer) > codec.MaxPointerText }) {
		shown = slices.Clone(shown)
		for i := range shown {
			shown[i].Pointer = codec.ClipMiddle(shown[i].Pointer, codec.MaxPointerText)
		}
	}
	data, _ := json.Marshal(codec.ValidationError{Violations: shown, Omitted: omitted})
	return vs, data
}

// MaxDataViolations bounds the violations in the data of an invalid-params
// or invalid-result error.
const MaxDataViolations = 20

// InvalidParams turns decoding and validation errors into -32602 with the
// violations (pointers relative to the message, under /params) as data.
func InvalidParams(err error) error {
	var ve *codec.ValidationError
	if errors.As(err, &ve) && len(ve.Violations) > 0 {
		vs, data := ViolationsUnder("/params", ve)
		msg := "invalid params: " + vs[0].String()
		if n := len(vs) + ve.Omitted; n > 1 {
			msg += fmt.Sprintf(" (and %d more)", n-1)
		}
		return &RPCError{Code: CodeInvalidParams, Message: msg, Data: data}
	}
	return &RPCError{Code: CodeInvalidParams, Message: "invalid params: " + err.Error()}
}

// Params is a params type of a generated package.
type Params interface {
	DecodeJSON(d *codec.Decoder)
	ValidateWith(s *codec.Validator)
}

// DecodeParams decodes and validates a request's params; failures are
// invalid params (-32602) with the violations as data. A member of params
// that spells one its type declares in another case ("Name" for "name"),
// which a peer that matches names case-insensitively would read as the
// declared member, is invalid params too, whatever else is wrong.
func DecodeParams(raw []byte, p Params, required bool) error {
	if raw == nil {
		if !required {
			return nil
		}
		data, _ := json.Marshal(struct {
			Violations []codec.Violation `json:"violations"`
		}{[]codec.Violation{{Pointer: "", Keyword: "required", Message: `missing required member "params"`}}})
		return &RPCError{Code: CodeInvalidParams, Message: `invalid params: missing required member "params"`, Data: data}
	}
	err := CheckValue(raw, p)
	if member, name := foldedParamsMember(p); member != "" {
		return foldedParamsError(member, name)
	}
	if err != nil {
		return InvalidParams(err)
	}
	return nil
}

// CheckValue decodes raw into v and validates it: nil, a *SyntaxError, or
// a *ValidationError with every violation.
func CheckValue(raw []byte, v Params) error {
	var d codec.Decoder
	if isOwned(raw) {
		d.InitShared(raw) // handed over by CallOwned: the handler's own
	} else {
		d.Init(raw) // handlers may keep strings; they must not alias the message
	}
	v.DecodeJSON(&d)
	derr := d.Finish()
	var dv *codec.ValidationError
	if derr != nil && !errors.As(derr, &dv) {
		return derr
	}
	s := codec.NewValidator()
	v.ValidateWith(s)
	return codec.MergeViolations(derr, s.Done())
}

// InvalidResult reports a handler result that breaks the schema as an
// internal error (the result is not sent).
func InvalidResult(err error) error {
	var ve *codec.ValidationError
	if errors.As(err, &ve) && len(ve.Violations) > 0 {
		vs, data := ViolationsUnder("/result", ve)
		return &RPCError{Code: CodeInternalError, Message: "internal error: the handler's result breaks the schema: " + vs[0].String(), Data: data}
	}
	return &RPCError{Code: CodeInternalError, Message: "internal error: " + err.Error()}
}

// foldedEnvelopeMember returns name and the envelope's member name
// (jsonrpc, id, method, params, result, error) it spells in another case,
// or "", "".
func foldedEnvelopeMember(name string) (string, string) {
	for _, m := range [...]string{"jsonrpc", "id", "method", "params", "result", "error"} {
		if name != m && strings.EqualFold(name, m) {
			return name, m
		}
	}
	return "", ""
}
