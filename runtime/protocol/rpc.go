package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// This file is the JSON-RPC 2.0 machinery of a generated package that has
// methods: reading one message, routing it to the generated method table,
// and mapping failures to error responses. The typed parts (handler
// interfaces, params and result types) are generated next to it.

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

// errNotImplemented is what the Unimplemented handlers return; the
// dispatcher answers method not found (or a default answer, for methods
// that have one).
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

// rpcResult is a value the dispatcher can encode as a result.
type RpcResult interface {
	EncodeJSON(e *codec.Encoder)
}

// rpcMethod is one entry of the generated method table.
type RpcMethod struct {
	Notification bool
	// call decodes and checks params, runs the handler and returns the
	// result to encode. It returns *RPCError for protocol failures.
	Call func(ctx context.Context, params []byte) (RpcResult, error)
}

// rpcDispatcher routes messages to a method table.
type RpcDispatcher struct {
	Methods map[string]*RpcMethod
	// batches says whether a JSON array of messages is a batch (2025-03-26);
	// otherwise it is an invalid request.
	Batches bool
	// onResponse receives responses (messages with result or error), if set.
	onResponse func(msg []byte)
	// onBadMessage, if set, receives what serve reads that is not a
	// message it can route (msg nil for a line too long), with the error
	// response it would send otherwise: a client does not answer them.
	onBadMessage func(msg, errResp []byte)
	// logf reports handler panics and dropped notifications, if set.
	Logf func(format string, args ...any)
	// omitUnknownID leaves the id out of an error response to a message
	// whose id could not be read, instead of writing null.
	OmitUnknownID bool

	// The server side sets these.
	//
	// modern marks a revision with per-request _meta (2026-07-28): the
	// header rules of its HTTP transport apply, and extension methods
	// check the protocol version.
	Modern bool
	// versions are the protocol versions the server supports.
	Versions []string
	// state seals and opens the requestState of multi round-trip requests.
	State stateSealer
	// checkInput checks an input response against the result type of the
	// method of the input request it answers; nil checks nothing.
	CheckInput func(method string, raw []byte) error
	// limits bound the connections served by serve.
	Limits ServeLimits
	// nameParams maps extension methods whose HTTP requests carry an
	// Mcp-Name header to the params member the header mirrors (the tasks
	// extension's taskId).
	nameParams map[string]string
	// tasks serves the tasks extension, if the server has a task store.
	tasks *taskStore
	// sessions are the sessions being served (connections served by
	// serve, HTTP sessions), for notifications to all of them.
	sessions sessionSet
	// older, if set, serves the clients of the older revisions the
	// package converts to (the initialize era) with this dispatcher's
	// handlers; eraOf picks it for their messages on a connection served
	// by serve, and the HTTP handler sends it their requests.
	Older *RpcDispatcher
	// batchesBySession, set on such an older dispatcher, answers batches
	// in the sessions that negotiated batchRevision.
	batchesBySession bool
}

// ExtensionMethod serves a request method that the revision's schema does
// not define, such as one of an extension (the tasks extension's
// tasks/get): it receives the params as JSON (nil when absent) and returns
// the result, a JSON object. Its errors become error responses as a
// handler's do (an *RPCError keeps its code). In revisions with
// per-request _meta the dispatcher first checks the protocol version the
// params declare, as it does for every request.
type ExtensionMethod func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)

// rawResult is a result that is JSON already.
type rawResult []byte

func (r rawResult) EncodeJSON(e *codec.Encoder) { e.Buf = append(e.Buf, r...) }

// addExtensions adds extension methods to a method table. A name the table
// has already is a programming error, reported by a panic when the
// dispatcher is made, as http.ServeMux reports conflicting patterns.
func (r *RpcDispatcher) AddExtensions(ext map[string]ExtensionMethod) {
	for name, fn := range ext {
		if _, ok := r.Methods[name]; ok {
			panic("mcp: ExtensionMethods: " + strconv.Quote(name) + " is a method of this revision; its handler serves it")
		}
		if fn == nil {
			panic("mcp: ExtensionMethods: " + strconv.Quote(name) + " has a nil function")
		}
		r.Methods[name] = &RpcMethod{Call: func(ctx context.Context, params []byte) (RpcResult, error) {
			if r.Modern {
				if err := CheckProtocolVersion(params, r.Versions); err != nil {
					return nil, err
				}
			}
			res, err := fn(ctx, params)
			if err != nil {
				return nil, err
			}
			if i := firstByte(res); i < 0 || res[i] != '{' || !codec.ValidJSON(res) {
				return nil, &RPCError{Code: CodeInternalError, Message: "internal error: the extension method " + strconv.Quote(name) + " returned a result that is not a JSON object"}
			}
			return rawResult(res), nil
		}}
	}
}

// envelope is what the dispatcher reads of a message before routing it.
type envelope struct {
	id       []byte // raw id, nil when absent
	idOK     bool   // id is a string or an integer
	method   string
	params   []byte
	response bool // has result or error
}

// handle processes one message (or batch) and returns the response bytes,
// nil when there is nothing to answer.
func (r *RpcDispatcher) Handle(ctx context.Context, msg []byte) []byte {
	var d codec.Decoder
	d.InitShared(msg)
	c := d.Peek()
	if c == '[' {
		if r.Older != nil {
			if sess := SessionFromContext(ctx); sess != nil && sess.d == r && sess.ProtocolVersion() == batchRevision {
				// A batch of a 2025-03-26 client on a connection served
				// by serve.
				return r.Older.handleBatch(context.WithValue(ctx, notifierKey{}, notifier(eraLink{linkOf(ctx), r.Older})), msg)
			}
		}
		return r.handleBatch(ctx, msg)
	}
	return r.handleOne(ctx, msg)
}

// batchRevision is the revision with JSON-RPC batches (2025-03-26: clients
// and servers MUST accept them; 2025-06-18 removed them). A dispatcher
// that serves several revisions (rpcDispatcher.older) answers batches in
// the sessions that negotiated it.
const batchRevision = "2025-03-26"

func (r *RpcDispatcher) handleBatch(ctx context.Context, msg []byte) []byte {
	// A duplicate member inside an item is that item's problem (an invalid
	// request), not the batch's.
	whole := codec.Decoder{Data: msg, AllowDup: true}
	whole.Skip()
	if err := whole.Finish(); err != nil {
		return r.errorResponse(nil, CodeParseError, "parse error: "+syntaxText(msg), nil)
	}
	if !r.Batches && !r.sessionBatches(ctx) {
		return r.errorResponse(nil, CodeInvalidRequest, "invalid request: this protocol revision does not allow JSON-RPC batches", nil)
	}
	d := codec.Decoder{Data: msg, AllowDup: true}
	d.Array()
	var items [][]byte
	for first := true; d.NextElem(&first); {
		items = append(items, d.Raw())
	}
	if len(items) == 0 {
		return r.errorResponse(nil, CodeInvalidRequest, "invalid request: empty batch", nil)
	}
	out := []byte{'['}
	n := 0
	for _, it := range items {
		resp := r.handleOne(ctx, it)
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

// sessionBatches reports whether the session of ctx negotiated the
// revision with batches, for a dispatcher that serves several older
// revisions (the older dispatcher of a package that converts to them).
func (r *RpcDispatcher) sessionBatches(ctx context.Context) bool {
	if !r.batchesBySession {
		return false
	}
	sess := SessionFromContext(ctx)
	return sess != nil && sess.ProtocolVersion() == batchRevision
}

// syntaxText describes why msg is not JSON.
func syntaxText(msg []byte) string {
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

// readEnvelope reads the members the dispatcher needs; it returns an
// error response when the message is not a valid request or notification.
func (r *RpcDispatcher) readEnvelope(msg []byte) (env envelope, errResp []byte) {
	if !codec.ValidJSON(msg) {
		d := codec.Decoder{Data: msg}
		d.Skip()
		err := d.Finish()
		var se *codec.SyntaxError
		if errors.As(err, &se) && se.Duplicate != "" {
			return env, r.errorResponse(nil, CodeInvalidRequest, "invalid request: duplicate member "+strconv.Quote(se.Duplicate), nil)
		}
		return env, r.errorResponse(nil, CodeParseError, "parse error: "+syntaxText(msg), nil)
	}
	var d codec.Decoder
	d.InitShared(msg)
	if d.Peek() != '{' {
		return env, r.errorResponse(nil, CodeInvalidRequest, "invalid request: a message must be a JSON object", nil)
	}
	d.Object()
	var jsonrpc string
	var hasJSONRPC, hasMethod, methodOK bool
	for first := true; d.NextMember(&first); {
		switch d.Key {
		case "jsonrpc":
			hasJSONRPC = true
			if d.Peek() == '"' {
				jsonrpc = d.Str()
			} else {
				d.Skip()
			}
		case "id":
			d.Peek()
			env.id = d.Raw()
			env.idOK = rtIsRequestID(env.id)
		case "method":
			hasMethod = true
			if d.Peek() == '"' {
				env.method = d.Str()
				methodOK = true
			} else {
				d.Skip()
			}
		case "params":
			d.Peek()
			env.params = d.Raw()
		case "result", "error":
			env.response = true
			d.Skip()
		default:
			d.Skip()
		}
	}
	id := env.id
	if !env.idOK {
		id = nil
	}
	switch {
	case !hasJSONRPC:
		return env, r.errorResponse(id, CodeInvalidRequest, `invalid request: missing "jsonrpc": "2.0"`, nil)
	case jsonrpc != "2.0":
		return env, r.errorResponse(id, CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`, nil)
	case env.response && !hasMethod:
		return env, nil
	case !hasMethod:
		return env, r.errorResponse(id, CodeInvalidRequest, `invalid request: missing "method"`, nil)
	case !methodOK:
		return env, r.errorResponse(id, CodeInvalidRequest, `invalid request: "method" must be a string`, nil)
	case env.id != nil && !env.idOK:
		return env, r.errorResponse(nil, CodeInvalidRequest, "invalid request: the id must be a string or an integer, not "+codec.Quote(string(env.id)), nil)
	case env.params != nil && env.params[0] != '{' && env.params[0] != '[':
		return env, r.errorResponse(id, CodeInvalidRequest, `invalid request: "params" must be an object`, nil)
	}
	return env, nil
}

// rtIsRequestID reports whether raw is a string or an integer (MCP does not
// allow null or fractional ids).
func rtIsRequestID(raw []byte) bool {
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

func (r *RpcDispatcher) handleOne(ctx context.Context, msg []byte) []byte {
	env, errResp := r.readEnvelope(msg)
	if errResp != nil {
		return errResp
	}
	return r.handleEnvelope(ctx, env, msg)
}

// handleEnvelope answers a message whose envelope readEnvelope has read
// without finding fault.
func (r *RpcDispatcher) handleEnvelope(ctx context.Context, env envelope, msg []byte) []byte {
	sess := SessionFromContext(ctx)
	if env.response && env.method == "" {
		if sess != nil && sess.out.deliver(msg) {
			return nil
		}
		if r.onResponse != nil {
			r.onResponse(msg)
		} else {
			r.log("mcp: dropped a response to a request that is not waiting for one: %s", codec.Quote(string(env.id)))
		}
		return nil
	}
	if o := r.eraOf(sess, &env); o != r {
		return o.handleEnvelope(context.WithValue(ctx, notifierKey{}, notifier(eraLink{linkOf(ctx), o})), env, msg)
	}
	notification := env.id == nil
	m, ok := r.Methods[env.method]
	if !ok || m.Notification != notification {
		if notification {
			r.log("mcp: dropped notification %q: no handler", env.method)
			return nil
		}
		if ok {
			return r.errorResponse(env.id, CodeInvalidRequest, "invalid request: "+strconv.Quote(env.method)+" is a notification and must not have an id", nil)
		}
		return r.errorResponse(env.id, CodeMethodNotFound, "method not found: "+strconv.Quote(env.method), nil)
	}
	if sess != nil && r.server() {
		// (notifications/cancelled is acted on by the transport, in the
		// order it reads messages, not here: handled later, it could hit
		// a newer request that reuses the id.)
		if err := sess.before(&env); err != nil {
			return r.errorResponseFor(env.id, err)
		}
	}
	ri := &RequestInfo{ID: env.id, Method: env.method, Params: env.params}
	ctx = context.WithValue(ctx, requestInfoKey{}, ri)
	if r.tasks != nil {
		ctx = context.WithValue(ctx, taskStoreKey{}, r.tasks)
	}
	res, err := r.call(ctx, m, env)
	if notification {
		if err != nil {
			r.log("mcp: notification %q: %v", env.method, err)
		} else if sess != nil && r.server() {
			sess.observe(env.method, env.params, nil)
		}
		return nil
	}
	if err != nil {
		tc, ok := asTaskCreated(err, ri)
		if !ok {
			return r.errorResponseFor(env.id, err)
		}
		res = tc
	}
	e := codec.Encoder{Buf: make([]byte, 0, 256)}
	e.Buf = append(e.Buf, `{"jsonrpc":"2.0","id":`...)
	e.Buf = append(e.Buf, env.id...)
	e.Buf = append(e.Buf, `,"result":`...)
	res.EncodeJSON(&e)
	e.Buf = append(e.Buf, '}')
	if e.Err != nil {
		return r.errorResponse(env.id, CodeInternalError, "internal error: cannot encode the result: "+e.Err.Error(), nil)
	}
	if sess != nil && r.server() {
		sess.observe(env.method, env.params, e.Buf)
	}
	return e.Buf
}

// eraOf is the dispatcher for a message read on a connection served by
// serve (sess), when r also serves clients of older revisions: r.older for
// a message without the per-request protocol version of r's revision that
// opens the initialize handshake, belongs to a session that made it, or is
// a ping; r otherwise. Over HTTP the handler routes by headers instead.
func (r *RpcDispatcher) eraOf(sess *Session, env *envelope) *RpcDispatcher {
	if r.Older == nil || sess == nil || sess.d != r || codec.Lookup(codec.Lookup(env.params, "_meta"), metaProtocolVersion) != nil {
		return r
	}
	if env.method == "initialize" || env.method == "ping" || sess.ProtocolVersion() != "" {
		return r.Older
	}
	return r
}

// call runs a method, turning a panic into an internal error.
func (r *RpcDispatcher) call(ctx context.Context, m *RpcMethod, env envelope) (res RpcResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.log("mcp: panic in handler for %q: %v\n%s", env.method, p, debug.Stack())
			res, err = nil, &RPCError{Code: CodeInternalError, Message: "internal error: the handler panicked"}
		}
	}()
	return m.Call(ctx, env.params)
}

func (r *RpcDispatcher) log(format string, args ...any) {
	if r.Logf != nil {
		r.Logf(format, args...)
	}
}

// errorResponseFor maps a handler error to an error response.
func (r *RpcDispatcher) errorResponseFor(id []byte, err error) []byte {
	var re *RPCError
	switch {
	case errors.As(err, &re):
		return r.errorResponse(id, re.Code, re.Message, re.Data)
	case errors.Is(err, ErrNotImplemented):
		return r.errorResponse(id, CodeMethodNotFound, "method not found", nil)
	}
	return r.errorResponse(id, CodeInternalError, err.Error(), nil)
}

// errorResponse encodes an error response. A nil id (one that could not be
// read) is written as null, or left out where the revision's schema makes
// the id of an error response optional (2025-11-25 and later: null is not a
// RequestId there).
func (r *RpcDispatcher) errorResponse(id []byte, code int64, message string, data []byte) []byte {
	e := codec.Encoder{Buf: make([]byte, 0, 128)}
	e.Buf = append(e.Buf, `{"jsonrpc":"2.0",`...)
	switch {
	case id != nil:
		e.Buf = append(e.Buf, `"id":`...)
		e.Buf = append(e.Buf, id...)
		e.Buf = append(e.Buf, ',')
	case !r.OmitUnknownID:
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

// violationsUnder moves violations under a member of the message (their
// pointers become /params/..., /result/...) and encodes them as the data
// of an error response.
func violationsUnder(prefix string, ve *codec.ValidationError) ([]codec.Violation, []byte) {
	vs := make([]codec.Violation, len(ve.Violations))
	for i, v := range ve.Violations {
		v.Pointer = prefix + v.Pointer
		vs[i] = v
	}
	data, _ := json.Marshal(struct {
		Violations []codec.Violation `json:"violations"`
	}{vs})
	return vs, data
}

// invalidParams turns decoding and validation errors into -32602 with the
// violations (pointers relative to the message, under /params) as data.
func InvalidParams(err error) error {
	var ve *codec.ValidationError
	if errors.As(err, &ve) {
		vs, data := violationsUnder("/params", ve)
		msg := "invalid params: " + vs[0].String()
		if len(vs) > 1 {
			msg += fmt.Sprintf(" (and %d more)", len(vs)-1)
		}
		return &RPCError{Code: CodeInvalidParams, Message: msg, Data: data}
	}
	return &RPCError{Code: CodeInvalidParams, Message: "invalid params: " + err.Error()}
}

// rpcParams is a generated params type.
type rpcParams interface {
	DecodeJSON(d *codec.Decoder)
	ValidateWith(s *codec.Validator)
}

// decodeParams decodes and validates a request's params; failures are
// invalid params (-32602) with the violations as data.
func DecodeParams(raw []byte, p rpcParams, required bool) error {
	if raw == nil {
		if !required {
			return nil
		}
		data, _ := json.Marshal(struct {
			Violations []codec.Violation `json:"violations"`
		}{[]codec.Violation{{Pointer: "", Keyword: "required", Message: `missing required member "params"`}}})
		return &RPCError{Code: CodeInvalidParams, Message: `invalid params: missing required member "params"`, Data: data}
	}
	if err := CheckValue(raw, p); err != nil {
		return InvalidParams(err)
	}
	return nil
}

// checkValue decodes raw into v and validates it: nil, a *SyntaxError, or
// a *ValidationError with every violation.
func CheckValue(raw []byte, v rpcParams) error {
	var d codec.Decoder
	d.Init(raw) // handlers may keep strings; they must not alias the message
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

// invalidResult reports a handler result that breaks the schema as an
// internal error (the result is not sent).
func InvalidResult(err error) error {
	var ve *codec.ValidationError
	if errors.As(err, &ve) {
		vs, data := violationsUnder("/result", ve)
		return &RPCError{Code: CodeInternalError, Message: "internal error: the handler's result breaks the schema: " + vs[0].String(), Data: data}
	}
	return &RPCError{Code: CodeInternalError, Message: "internal error: " + err.Error()}
}
