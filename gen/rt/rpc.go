//lint:file-ignore U1000 the runtime is for generated code; gen/rt alone does not use all of it

package rt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
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
var errNotImplemented = errors.New("method not implemented")

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
type rpcResult interface {
	encodeJSON(e *encoder)
}

// rpcMethod is one entry of the generated method table.
type rpcMethod struct {
	notification bool
	// call decodes and checks params, runs the handler and returns the
	// result to encode. It returns *RPCError for protocol failures.
	call func(ctx context.Context, params []byte) (rpcResult, error)
}

// rpcDispatcher routes messages to a method table.
type rpcDispatcher struct {
	methods map[string]*rpcMethod
	// batches says whether a JSON array of messages is a batch (2025-03-26);
	// otherwise it is an invalid request.
	batches bool
	// onResponse receives responses (messages with result or error), if set.
	onResponse func(msg []byte)
	// onBadMessage, if set, receives what serve reads that is not a
	// message it can route (msg nil for a line too long), with the error
	// response it would send otherwise: a client does not answer them.
	onBadMessage func(msg, errResp []byte)
	// logf reports handler panics and dropped notifications, if set.
	logf func(format string, args ...any)
	// omitUnknownID leaves the id out of an error response to a message
	// whose id could not be read, instead of writing null.
	omitUnknownID bool

	// The server side sets these.
	//
	// modern marks a revision with per-request _meta (2026-07-28): the
	// header rules of its HTTP transport apply, and extension methods
	// check the protocol version.
	modern bool
	// versions are the protocol versions the server supports.
	versions []string
	// state seals and opens the requestState of multi round-trip requests.
	state stateSealer
	// checkInput checks an input response against the result type of the
	// method of the input request it answers; nil checks nothing.
	checkInput func(method string, raw []byte) error
	// limits bound the connections served by serve.
	limits serveLimits
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
	older *rpcDispatcher
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

func (r rawResult) encodeJSON(e *encoder) { e.buf = append(e.buf, r...) }

// addExtensions adds extension methods to a method table. A name the table
// has already is a programming error, reported by a panic when the
// dispatcher is made, as http.ServeMux reports conflicting patterns.
func (r *rpcDispatcher) addExtensions(ext map[string]ExtensionMethod) {
	for name, fn := range ext {
		if _, ok := r.methods[name]; ok {
			panic("mcp: ExtensionMethods: " + strconv.Quote(name) + " is a method of this revision; its handler serves it")
		}
		if fn == nil {
			panic("mcp: ExtensionMethods: " + strconv.Quote(name) + " has a nil function")
		}
		r.methods[name] = &rpcMethod{call: func(ctx context.Context, params []byte) (rpcResult, error) {
			if r.modern {
				if err := checkProtocolVersion(params, r.versions); err != nil {
					return nil, err
				}
			}
			res, err := fn(ctx, params)
			if err != nil {
				return nil, err
			}
			if i := firstByte(res); i < 0 || res[i] != '{' || !rtValidJSON(res) {
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
func (r *rpcDispatcher) handle(ctx context.Context, msg []byte) []byte {
	var d decoder
	d.initShared(msg)
	c := d.peek()
	if c == '[' {
		return r.handleBatch(ctx, msg)
	}
	return r.handleOne(ctx, msg)
}

func (r *rpcDispatcher) handleBatch(ctx context.Context, msg []byte) []byte {
	// A duplicate member inside an item is that item's problem (an invalid
	// request), not the batch's.
	whole := decoder{data: msg, allowDup: true}
	whole.skip()
	if err := whole.finish(); err != nil {
		return r.errorResponse(nil, CodeParseError, "parse error: "+syntaxText(msg), nil)
	}
	if !r.batches {
		return r.errorResponse(nil, CodeInvalidRequest, "invalid request: this protocol revision does not allow JSON-RPC batches", nil)
	}
	d := decoder{data: msg, allowDup: true}
	d.array()
	var items [][]byte
	for first := true; d.elem(&first); {
		items = append(items, d.raw())
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

// syntaxText describes why msg is not JSON.
func syntaxText(msg []byte) string {
	d := decoder{data: msg}
	d.skip()
	if err := d.finish(); err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return se.Msg + " at offset " + strconv.FormatInt(se.Offset, 10)
		}
		return err.Error()
	}
	return "invalid JSON"
}

// readEnvelope reads the members the dispatcher needs; it returns an
// error response when the message is not a valid request or notification.
func (r *rpcDispatcher) readEnvelope(msg []byte) (env envelope, errResp []byte) {
	if !rtValidJSON(msg) {
		d := decoder{data: msg}
		d.skip()
		err := d.finish()
		var se *SyntaxError
		if errors.As(err, &se) && se.Duplicate != "" {
			return env, r.errorResponse(nil, CodeInvalidRequest, "invalid request: duplicate member "+strconv.Quote(se.Duplicate), nil)
		}
		return env, r.errorResponse(nil, CodeParseError, "parse error: "+syntaxText(msg), nil)
	}
	var d decoder
	d.initShared(msg)
	if d.peek() != '{' {
		return env, r.errorResponse(nil, CodeInvalidRequest, "invalid request: a message must be a JSON object", nil)
	}
	d.object()
	var jsonrpc string
	var hasJSONRPC, hasMethod, methodOK bool
	for first := true; d.member(&first); {
		switch d.key {
		case "jsonrpc":
			hasJSONRPC = true
			if d.peek() == '"' {
				jsonrpc = d.string()
			} else {
				d.skip()
			}
		case "id":
			d.peek()
			env.id = d.raw()
			env.idOK = rtIsRequestID(env.id)
		case "method":
			hasMethod = true
			if d.peek() == '"' {
				env.method = d.string()
				methodOK = true
			} else {
				d.skip()
			}
		case "params":
			d.peek()
			env.params = d.raw()
		case "result", "error":
			env.response = true
			d.skip()
		default:
			d.skip()
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
		return env, r.errorResponse(nil, CodeInvalidRequest, "invalid request: the id must be a string or an integer, not "+rtQuote(string(env.id)), nil)
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
	if !rtIsNumberStart(raw[0]) {
		return false
	}
	// Any integral number: the id is kept as raw JSON and echoed, so its
	// size does not matter.
	_, isInt, _ := rtParseInt(raw)
	return isInt
}

func (r *rpcDispatcher) handleOne(ctx context.Context, msg []byte) []byte {
	env, errResp := r.readEnvelope(msg)
	if errResp != nil {
		return errResp
	}
	return r.handleEnvelope(ctx, env, msg)
}

// handleEnvelope answers a message whose envelope readEnvelope has read
// without finding fault.
func (r *rpcDispatcher) handleEnvelope(ctx context.Context, env envelope, msg []byte) []byte {
	sess := SessionFromContext(ctx)
	if env.response && env.method == "" {
		if sess != nil && sess.out.deliver(msg) {
			return nil
		}
		if r.onResponse != nil {
			r.onResponse(msg)
		} else {
			r.log("mcp: dropped a response to a request that is not waiting for one: %s", rtQuote(string(env.id)))
		}
		return nil
	}
	if o := r.eraOf(sess, &env); o != r {
		return o.handleEnvelope(context.WithValue(ctx, notifierKey{}, notifier(eraLink{linkOf(ctx), o})), env, msg)
	}
	notification := env.id == nil
	m, ok := r.methods[env.method]
	if !ok || m.notification != notification {
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
	e := encoder{buf: make([]byte, 0, 256)}
	e.buf = append(e.buf, `{"jsonrpc":"2.0","id":`...)
	e.buf = append(e.buf, env.id...)
	e.buf = append(e.buf, `,"result":`...)
	res.encodeJSON(&e)
	e.buf = append(e.buf, '}')
	if e.err != nil {
		return r.errorResponse(env.id, CodeInternalError, "internal error: cannot encode the result: "+e.err.Error(), nil)
	}
	if sess != nil && r.server() {
		sess.observe(env.method, env.params, e.buf)
	}
	return e.buf
}

// eraOf is the dispatcher for a message read on a connection served by
// serve (sess), when r also serves clients of older revisions: r.older for
// a message without the per-request protocol version of r's revision that
// opens the initialize handshake, belongs to a session that made it, or is
// a ping; r otherwise. Over HTTP the handler routes by headers instead.
func (r *rpcDispatcher) eraOf(sess *Session, env *envelope) *rpcDispatcher {
	if r.older == nil || sess == nil || sess.d != r || rtMember(rtMember(env.params, "_meta"), metaProtocolVersion) != nil {
		return r
	}
	if env.method == "initialize" || env.method == "ping" || sess.ProtocolVersion() != "" {
		return r.older
	}
	return r
}

// call runs a method, turning a panic into an internal error.
func (r *rpcDispatcher) call(ctx context.Context, m *rpcMethod, env envelope) (res rpcResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.log("mcp: panic in handler for %q: %v\n%s", env.method, p, debug.Stack())
			res, err = nil, &RPCError{Code: CodeInternalError, Message: "internal error: the handler panicked"}
		}
	}()
	return m.call(ctx, env.params)
}

func (r *rpcDispatcher) log(format string, args ...any) {
	if r.logf != nil {
		r.logf(format, args...)
	}
}

// errorResponseFor maps a handler error to an error response.
func (r *rpcDispatcher) errorResponseFor(id []byte, err error) []byte {
	var re *RPCError
	switch {
	case errors.As(err, &re):
		return r.errorResponse(id, re.Code, re.Message, re.Data)
	case errors.Is(err, errNotImplemented):
		return r.errorResponse(id, CodeMethodNotFound, "method not found", nil)
	}
	return r.errorResponse(id, CodeInternalError, err.Error(), nil)
}

// errorResponse encodes an error response. A nil id (one that could not be
// read) is written as null, or left out where the revision's schema makes
// the id of an error response optional (2025-11-25 and later: null is not a
// RequestId there).
func (r *rpcDispatcher) errorResponse(id []byte, code int64, message string, data []byte) []byte {
	e := encoder{buf: make([]byte, 0, 128)}
	e.buf = append(e.buf, `{"jsonrpc":"2.0",`...)
	switch {
	case id != nil:
		e.buf = append(e.buf, `"id":`...)
		e.buf = append(e.buf, id...)
		e.buf = append(e.buf, ',')
	case !r.omitUnknownID:
		e.buf = append(e.buf, `"id":null,`...)
	}
	e.buf = append(e.buf, `"error":{"code":`...)
	e.int(code)
	e.buf = append(e.buf, `,"message":`...)
	e.string(message)
	if data != nil && rtValidJSON(data) {
		e.buf = append(e.buf, `,"data":`...)
		e.buf = append(e.buf, data...)
	}
	e.buf = append(e.buf, "}}"...)
	return e.buf
}

// violationsUnder moves violations under a member of the message (their
// pointers become /params/..., /result/...) and encodes them as the data
// of an error response.
func violationsUnder(prefix string, ve *ValidationError) ([]Violation, []byte) {
	vs := make([]Violation, len(ve.Violations))
	for i, v := range ve.Violations {
		v.Pointer = prefix + v.Pointer
		vs[i] = v
	}
	data, _ := json.Marshal(struct {
		Violations []Violation `json:"violations"`
	}{vs})
	return vs, data
}

// invalidParams turns decoding and validation errors into -32602 with the
// violations (pointers relative to the message, under /params) as data.
func invalidParams(err error) error {
	var ve *ValidationError
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
	decodeJSON(d *decoder)
	validate(s *vstate)
}

// decodeParams decodes and validates a request's params; failures are
// invalid params (-32602) with the violations as data.
func decodeParams(raw []byte, p rpcParams, required bool) error {
	if raw == nil {
		if !required {
			return nil
		}
		data, _ := json.Marshal(struct {
			Violations []Violation `json:"violations"`
		}{[]Violation{{Pointer: "", Keyword: "required", Message: `missing required member "params"`}}})
		return &RPCError{Code: CodeInvalidParams, Message: `invalid params: missing required member "params"`, Data: data}
	}
	if err := checkValue(raw, p); err != nil {
		return invalidParams(err)
	}
	return nil
}

// checkValue decodes raw into v and validates it: nil, a *SyntaxError, or
// a *ValidationError with every violation.
func checkValue(raw []byte, v rpcParams) error {
	var d decoder
	d.init(raw) // handlers may keep strings; they must not alias the message
	v.decodeJSON(&d)
	derr := d.finish()
	var dv *ValidationError
	if derr != nil && !errors.As(derr, &dv) {
		return derr
	}
	s := newVState()
	v.validate(s)
	return mergeViolations(derr, s.done())
}

// invalidResult reports a handler result that breaks the schema as an
// internal error (the result is not sent).
func invalidResult(err error) error {
	var ve *ValidationError
	if errors.As(err, &ve) {
		vs, data := violationsUnder("/result", ve)
		return &RPCError{Code: CodeInternalError, Message: "internal error: the handler's result breaks the schema: " + vs[0].String(), Data: data}
	}
	return &RPCError{Code: CodeInternalError, Message: "internal error: " + err.Error()}
}
