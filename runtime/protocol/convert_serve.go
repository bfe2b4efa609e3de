package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file serves the clients of older revisions (the initialize era)
// with the handlers of a package's own revision, through the package's
// conversions (mcpgen generate --serve-older): the "front door" that
// NewServerDispatcher attaches as rpcDispatcher.older.
//
// The older dispatcher's table answers what only the older era has
// (initialize, ping, logging/setLevel, resources/subscribe and
// unsubscribe: the session keeps what they set) and wraps every method
// both revisions carry: the older params are converted (ParamsFromOlder),
// given the per-request _meta the package's revision requires (its
// protocol version, and the client's capabilities and clientInfo from the
// session), and handed to the package's own method, whose result is
// converted back (ResultToOlder). An InputRequiredResult is answered by the
// runtime: each input request goes to the client as a request of its own
// (elicitation/create, sampling/createMessage, roots/list) over the
// session, and the method runs again with the answers and the
// requestState, as a client of the package's revision would retry.

// OlderServe is what the generated code gives newOlderFront.
type OlderServe struct {
	// version is the package's protocol version, put in the _meta of the
	// requests handed to its methods.
	Version string
	// olders are the older revisions served, newest first.
	Olders []*Older
	// capabilities and serverInfo are ServerOptions' (pointers to the
	// package's types), converted to each revision for initialize.
	Capabilities, ServerInfo any
	Instructions             string
	// maxRounds bounds the input requests of one request.
	maxRounds int
}

// olderFront serves the clients of older revisions.
type olderFront struct {
	OlderServe
	modern *Core
	// hello is the initialize result of each revision served.
	hello map[string][]byte
}

// NewOlderFront returns the dispatcher that serves the clients of
// cfg.olders with modern's methods. A revision whose initialize result
// cannot carry the server's capabilities or serverInfo is left out, and
// logged.
func NewOlderFront(modern *Core, cfg OlderServe) *Core {
	if cfg.maxRounds <= 0 {
		cfg.maxRounds = defaultMaxRounds
	}
	if !slices.Contains(modern.Versions, cfg.Version) && len(modern.Versions) > 0 {
		cfg.Version = modern.Versions[0]
	}
	f := &olderFront{OlderServe: cfg, modern: modern, hello: map[string][]byte{}}
	d := &Core{Dispatcher: jsonrpc.Dispatcher{OmitUnknownID: true, Logger: modern.Logger, Limits: modern.Limits, Methods: map[string]*jsonrpc.Method{}}, batchesBySession: true, Middleware: modern.Middleware}
	d.Init()
	var olders []*Older
	for _, o := range cfg.Olders {
		b, err := f.initializeResult(o)
		if err != nil {
			modern.LogAttrs(slog.LevelWarn, "mcp: not serving the clients of a revision", slog.String("revision", o.Revision()), slog.String("error", err.Error()))
			continue
		}
		f.hello[o.Revision()] = b
		olders = append(olders, o)
		d.Versions = append(d.Versions, o.Revision())
	}
	f.Olders = olders
	if len(olders) == 0 {
		return nil
	}
	for _, o := range olders {
		for _, name := range o.Methods() {
			m, ok := modern.Methods[name]
			if !ok || d.Methods[name] != nil {
				continue
			}
			d.Methods[name] = &jsonrpc.Method{Notification: m.Notification, Call: f.wrap(name, m)}
		}
	}
	empty := func(context.Context, []byte) (jsonrpc.Result, error) { return jsonrpc.RawResult("{}"), nil }
	d.Methods[spec.MethodInitialize] = &jsonrpc.Method{Call: f.initialize}
	d.Methods[spec.MethodPing] = &jsonrpc.Method{Call: empty}
	d.Methods[spec.MethodSetLevel] = &jsonrpc.Method{Call: func(_ context.Context, raw []byte) (jsonrpc.Result, error) {
		if levelOf(codec.Lookup(raw, "level")) < 0 {
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: level must be one of " + codec.QuoteList(logLevels[:])}
		}
		return jsonrpc.RawResult("{}"), nil
	}}
	uri := func(_ context.Context, raw []byte) (jsonrpc.Result, error) {
		if v := codec.Lookup(raw, "uri"); v == nil || v[0] != '"' {
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: uri must be a string"}
		}
		return jsonrpc.RawResult("{}"), nil
	}
	d.Methods[spec.MethodSubscribe] = &jsonrpc.Method{Call: uri}
	d.Methods[spec.MethodUnsubscribe] = &jsonrpc.Method{Call: uri}
	note := func(context.Context, []byte) (jsonrpc.Result, error) { return nil, nil }
	for _, n := range []string{spec.MethodInitialized, spec.MethodRootsListChanged, spec.MethodProgress} {
		if d.Methods[n] == nil {
			d.Methods[n] = &jsonrpc.Method{Notification: true, Call: note}
		}
	}
	return d
}

// initializeResult is the answer to initialize for a client of o's
// revision: the server's capabilities (with logging, which the runtime
// serves with logging/setLevel, and without the extensions, which the older
// era does not have) and serverInfo converted to it.
func (f *olderFront) initializeResult(o *Older) ([]byte, error) {
	caps, err := encodeAny(f.Capabilities)
	if err != nil {
		return nil, errors.New("ServerOptions.Capabilities: " + err.Error())
	}
	// The older era has no extensions, and the runtime serves logging.
	caps = addPairs(dropMembers(caps, "extensions"), "logging", "{}")
	cb, err := o.toOlderJSON("ServerCapabilities", caps)
	if err != nil {
		return nil, errors.New("ServerOptions.Capabilities: " + err.Error())
	}
	ib, err := o.ToOlder("Implementation", f.ServerInfo)
	if err != nil {
		return nil, errors.New("ServerOptions.ServerInfo: " + err.Error())
	}
	b := []byte(`{"protocolVersion":`)
	b = jsonrpc.AppendQuoted(b, o.Revision())
	b = append(b, `,"capabilities":`...)
	b = append(b, cb...)
	b = append(b, `,"serverInfo":`...)
	b = append(b, ib...)
	if f.Instructions != "" {
		b = append(b, `,"instructions":`...)
		b = jsonrpc.AppendQuoted(b, f.Instructions)
	}
	return append(b, '}'), nil
}

// initialize negotiates the version (lifecycle.mdx: the client's, if the
// server supports it; otherwise the newest the server supports) and
// answers with that revision's initialize result. The session records
// the version and what the client declared.
func (f *olderFront) initialize(_ context.Context, raw []byte) (jsonrpc.Result, error) {
	v := codec.Lookup(raw, "protocolVersion")
	if v == nil || v[0] != '"' {
		return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: protocolVersion must be a string"}
	}
	for _, name := range []string{"capabilities", "clientInfo"} {
		if m := codec.Lookup(raw, name); m == nil || m[0] != '{' {
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: " + name + " must be an object"}
		}
	}
	requested, _ := HeaderText(v)
	if b, ok := f.hello[requested]; ok {
		return jsonrpc.RawResult(b), nil
	}
	return jsonrpc.RawResult(f.hello[f.Olders[0].Revision()]), nil
}

// olderOf is the revision the session negotiated.
func (f *olderFront) olderOf(s *Session) *Older {
	if s != nil {
		v := s.ProtocolVersion()
		for _, o := range f.Olders {
			if o.Revision() == v {
				return o
			}
		}
	}
	return f.Olders[0]
}

// wrap serves method name of an older revision with m, the package's own.
func (f *olderFront) wrap(name string, m *jsonrpc.Method) func(context.Context, []byte) (jsonrpc.Result, error) {
	return func(ctx context.Context, raw []byte) (jsonrpc.Result, error) {
		sess := SessionFromContext(ctx)
		o := f.olderOf(sess)
		if !o.Carries(name) {
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeMethodNotFound, Message: "method not found: " + codec.Quote(name) + " (not in protocol version " + o.Revision() + ")"}
		}
		om := o.methods[name]
		up, meta, err := o.paramsUpMeta(om, raw)
		if err != nil {
			return nil, jsonrpc.InvalidParams(o.fail(err, false))
		}
		params, err := f.params(up, meta, sess)
		if err != nil {
			return nil, err
		}
		// The converted params are this call's own copy when the
		// conversion made one: the method decodes them in place.
		own := !sameStart(params, up) && !sameStart(params, raw)
		call := func() (jsonrpc.Result, error) {
			if own {
				return jsonrpc.CallOwned(ctx, m, params)
			}
			return m.Call(ctx, params)
		}
		if m.Notification {
			return call()
		}
		for round := 0; ; round++ {
			res, err := call()
			if err != nil || res == nil {
				return res, olderError(name, err)
			}
			e := codec.Encoder{}
			res.EncodeJSON(&e)
			if e.Err != nil {
				return nil, e.Err
			}
			if string(codec.Lookup(e.Buf, spec.MemberResultType)) != `"input_required"` {
				b, err := o.resultDown(om, e.Buf)
				if err != nil {
					err = o.fail(err, true)
					return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the result of " + codec.Quote(name) + " cannot be sent to a client of " + o.Revision() + ": " + err.Error()}
				}
				return jsonrpc.RawResult(b), nil
			}
			if round == f.maxRounds {
				return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the handler of " + codec.Quote(name) + " still asks for input after " + strconv.Itoa(f.maxRounds) + " rounds"}
			}
			answers, err := f.askClient(ctx, o, sess, codec.Lookup(e.Buf, "inputRequests"))
			if err != nil {
				return nil, err
			}
			prev := params
			params = dropMembers(params, "inputResponses", "requestState")
			pairs := []string{"inputResponses", string(answers)}
			if st := codec.Lookup(e.Buf, "requestState"); st != nil {
				pairs = append(pairs, "requestState", string(st))
			}
			params = addPairs(params, pairs...)
			// A new copy is the call's own; the same bytes stay as they
			// were (neither function changes its input).
			own = own || !sameStart(params, prev)
		}
	}
}

// sameStart reports whether a and b begin at the same byte of memory (the
// functions of convert.go return their input itself, or a new copy).
func sameStart(a, b []byte) bool {
	return len(a) > 0 && len(b) > 0 && &a[0] == &b[0]
}

// olderError is the error an older client gets for err: resources/read's
// "resource not found" (2026-07-28: -32602 with data.uri) gets the older
// revisions' code, -32002, with the same message and data.
func olderError(method string, err error) error {
	var re *jsonrpc.RPCError
	if method != spec.MethodReadResource || !errors.As(err, &re) || re.Code != jsonrpc.CodeInvalidParams || codec.Lookup(re.Data, "uri") == nil {
		return err
	}
	return &jsonrpc.RPCError{Code: spec.CodeResourceNotFound, Message: re.Message, Data: re.Data}
}

// params is converted params b (JSON of the package's revision; nil for
// none), with the _meta of the package's revision filled from the session;
// meta, if not nil, is the _meta of b the conversion filled (paramsUpMeta),
// so that b is copied once.
func (f *olderFront) params(b, meta []byte, sess *Session) ([]byte, error) {
	if b == nil {
		b = []byte("{}")
	}
	if meta == nil {
		meta = codec.Lookup(b, spec.MemberMeta)
	}
	switch {
	case meta == nil:
		meta = []byte("{}")
	case meta[0] != '{':
		return b, nil // the method's validation refuses it
	}
	meta = dropMembers(meta, spec.MetaProtocolVersion, spec.MetaClientCapabilities, spec.MetaClientInfo)
	pairs := []string{spec.MetaProtocolVersion, strconv.Quote(f.Version)}
	caps := []byte("{}")
	var info []byte
	if sess != nil {
		if c := sess.ClientCapabilities(); c != nil {
			caps = c
		}
		info = sess.ClientInfo()
	}
	pairs = append(pairs, spec.MetaClientCapabilities, string(caps))
	if info != nil {
		pairs = append(pairs, spec.MetaClientInfo, string(info))
	}
	meta = addPairs(meta, pairs...)
	return setMember(b, spec.MemberMeta, meta), nil
}

// askClient sends each input request of an InputRequiredResult to the
// client as a request of its revision, one at a time in the order of
// their keys, and returns the answers as the inputResponses of the retry.
func (f *olderFront) askClient(ctx context.Context, o *Older, sess *Session, reqs []byte) ([]byte, error) {
	if sess == nil {
		return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the handler asks for input, and a client of " + o.Revision() + " without a session cannot be asked"}
	}
	link := linkOf(ctx)
	type input struct {
		key    string
		method string
		params []byte
	}
	var list []input
	var d codec.Decoder
	d.InitShared(reqs)
	if d.Peek() == '{' {
		d.Object()
		for first := true; d.NextMember(&first); {
			k := d.Key
			d.Peek()
			r := d.Raw()
			method, _ := HeaderText(codec.Lookup(r, "method"))
			list = append(list, input{key: k, method: method, params: codec.Lookup(r, "params")})
		}
	}
	slices.SortFunc(list, func(a, b input) int {
		if a.key < b.key {
			return -1
		}
		if a.key > b.key {
			return 1
		}
		return 0
	})
	out := []byte{'{'}
	for i, in := range list {
		im, ok := o.methods[in.method]
		if !ok {
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: input request " + codec.Quote(in.key) + ": " + codec.Quote(in.method) + " is not a request of " + o.Revision()}
		}
		p, err := o.paramsDown(im, in.params)
		if err != nil {
			err = o.fail(err, true)
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: input request " + codec.Quote(in.key) + " cannot be sent to a client of " + o.Revision() + ": " + err.Error()}
		}
		if err := sess.mayRequest(in.method, p); err != nil {
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: " + err.Error()}
		}
		res, err := sendThrough(ctx, sess.core.mw, &Call{Method: in.method, Params: p, Session: sess, HTTP: link.HTTPRequest()}, func(ctx context.Context, p []byte) (json.RawMessage, error) {
			return sess.peer.Call(ctx, link.Notify, in.method, p)
		})
		if err != nil {
			var re *jsonrpc.RPCError
			if errors.As(err, &re) {
				return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the client answered " + codec.Quote(in.method) + " with an error: " + re.Message}
			}
			return nil, err
		}
		r, err := o.resultUp(im, res)
		if err == nil {
			err = o.decodeNew(r, im.NewResult())
		}
		if err != nil {
			err = o.fail(err, false)
			return nil, &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the client's answer to " + codec.Quote(in.method) + ": " + err.Error()}
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = jsonrpc.AppendQuoted(out, in.key)
		out = append(out, ':')
		out = append(out, r...)
	}
	return append(out, '}'), nil
}

// BroadcastOlder sends msg, a notification, to the clients of older
// revisions that keep accepts: the HTTP sessions of c.Older, and the
// connections served by serve whose client made the initialize handshake.
// (Clients of c's own revision hear of changes through subscriptions
// they open.)
func (c *Core) BroadcastOlder(msg []byte, keep func(*Session) bool) int {
	if c.Older == nil {
		return 0
	}
	n := c.Older.broadcast(msg, keep)
	return n + c.broadcast(msg, func(s *Session) bool {
		return s.ProtocolVersion() != "" && (keep == nil || keep(s))
	})
}

// NewHTTPHandlerOlder is NewHTTPHandler for a dispatcher that also serves
// the clients of older revisions (d.older): unless opts has a Fallback of
// its own, what the handler leaves to Fallback (a POST without
// MCP-Protocol-Version or with an older one, a request naming a session,
// GET and DELETE) goes to a handler with sessions for d.older, with the
// same options.
func NewHTTPHandlerOlder(d *Core, opts HTTPOptions) *HTTPHandler {
	if d.Older == nil || opts.Fallback != nil {
		return NewHTTPHandler(d, opts)
	}
	older := NewSessionHTTPHandler(d.Older, opts, d.Older.Versions[0])
	if older.sessions != nil {
		// The sessions of older clients are bound to the principal of
		// the request that opened them, as this revision's requestState
		// and tasks are.
		older.sessions.principal = d.State.principal
	}
	opts.Fallback = older
	h := NewHTTPHandler(d, opts)
	h.older = older
	return h
}
