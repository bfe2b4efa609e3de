//lint:file-ignore U1000 the runtime is for generated code; gen/rt alone does not use all of it

package rt

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
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

// olderServe is what the generated code gives newOlderFront.
type olderServe struct {
	// version is the package's protocol version, put in the _meta of the
	// requests handed to its methods.
	version string
	// olders are the older revisions served, newest first.
	olders []*Older
	// capabilities and serverInfo are ServerOptions' (pointers to the
	// package's types), converted to each revision for initialize.
	capabilities, serverInfo any
	instructions             string
	// inputParams decodes the params of an input request (as the package's
	// revision writes them) into the value the conversions take.
	inputParams func(method string, raw []byte) (any, error)
	// maxRounds bounds the input requests of one request.
	maxRounds int
}

// olderFront serves the clients of older revisions.
type olderFront struct {
	olderServe
	modern *rpcDispatcher
	// hello is the initialize result of each revision served.
	hello map[string][]byte
}

// newOlderFront returns the dispatcher that serves the clients of
// cfg.olders with modern's methods. A revision whose initialize result
// cannot carry the server's capabilities or serverInfo is left out, and
// logged.
func newOlderFront(modern *rpcDispatcher, cfg olderServe) *rpcDispatcher {
	if cfg.maxRounds <= 0 {
		cfg.maxRounds = defaultMaxRounds
	}
	if !slices.Contains(modern.versions, cfg.version) && len(modern.versions) > 0 {
		cfg.version = modern.versions[0]
	}
	f := &olderFront{olderServe: cfg, modern: modern, hello: map[string][]byte{}}
	d := &rpcDispatcher{omitUnknownID: true, logf: modern.logf, limits: modern.limits, methods: map[string]*rpcMethod{}}
	var olders []*Older
	for _, o := range cfg.olders {
		b, err := f.initializeResult(o)
		if err != nil {
			modern.log("mcp: not serving clients of %s: %v", o.Revision(), err)
			continue
		}
		f.hello[o.Revision()] = b
		olders = append(olders, o)
		d.versions = append(d.versions, o.Revision())
	}
	f.olders = olders
	if len(olders) == 0 {
		return nil
	}
	for _, o := range olders {
		for _, name := range o.Methods() {
			m, ok := modern.methods[name]
			if !ok || d.methods[name] != nil {
				continue
			}
			d.methods[name] = &rpcMethod{notification: m.notification, call: f.wrap(name, m)}
		}
	}
	empty := func(context.Context, []byte) (rpcResult, error) { return rawResult("{}"), nil }
	d.methods["initialize"] = &rpcMethod{call: f.initialize}
	d.methods["ping"] = &rpcMethod{call: empty}
	d.methods["logging/setLevel"] = &rpcMethod{call: func(_ context.Context, raw []byte) (rpcResult, error) {
		if levelOf(rtMember(raw, "level")) < 0 {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "invalid params: level must be one of " + rtQuoteList(logLevels[:])}
		}
		return rawResult("{}"), nil
	}}
	uri := func(_ context.Context, raw []byte) (rpcResult, error) {
		if v := rtMember(raw, "uri"); v == nil || v[0] != '"' {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "invalid params: uri must be a string"}
		}
		return rawResult("{}"), nil
	}
	d.methods["resources/subscribe"] = &rpcMethod{call: uri}
	d.methods["resources/unsubscribe"] = &rpcMethod{call: uri}
	note := func(context.Context, []byte) (rpcResult, error) { return nil, nil }
	for _, n := range []string{"notifications/initialized", "notifications/roots/list_changed", "notifications/progress"} {
		if d.methods[n] == nil {
			d.methods[n] = &rpcMethod{notification: true, call: note}
		}
	}
	return d
}

// initializeResult is the answer to initialize for a client of o's
// revision: the server's capabilities (with logging, which the runtime
// serves with logging/setLevel, and without the extensions, which the older
// era does not have) and serverInfo converted to it.
func (f *olderFront) initializeResult(o *Older) ([]byte, error) {
	caps, err := o.ToOlder(f.capabilities)
	if err != nil {
		return nil, errors.New("ServerOptions.Capabilities: " + err.Error())
	}
	info, err := o.ToOlder(f.serverInfo)
	if err != nil {
		return nil, errors.New("ServerOptions.ServerInfo: " + err.Error())
	}
	cb, err := json.Marshal(caps)
	if err != nil {
		return nil, err
	}
	ib, err := json.Marshal(info)
	if err != nil {
		return nil, err
	}
	cb = convAddMembers(convDropMembers(cb, "extensions"), "logging", "{}")
	b := []byte(`{"protocolVersion":`)
	b = rtAppendQuoted(b, o.Revision())
	b = append(b, `,"capabilities":`...)
	b = append(b, cb...)
	b = append(b, `,"serverInfo":`...)
	b = append(b, ib...)
	if f.instructions != "" {
		b = append(b, `,"instructions":`...)
		b = rtAppendQuoted(b, f.instructions)
	}
	return append(b, '}'), nil
}

// initialize negotiates the version (lifecycle.mdx: the client's, if the
// server supports it; otherwise the newest the server supports) and
// answers with that revision's initialize result. The session records
// the version and what the client declared.
func (f *olderFront) initialize(_ context.Context, raw []byte) (rpcResult, error) {
	v := rtMember(raw, "protocolVersion")
	if v == nil || v[0] != '"' {
		return nil, &RPCError{Code: CodeInvalidParams, Message: "invalid params: protocolVersion must be a string"}
	}
	for _, name := range []string{"capabilities", "clientInfo"} {
		if m := rtMember(raw, name); m == nil || m[0] != '{' {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "invalid params: " + name + " must be an object"}
		}
	}
	requested, _ := headerText(v)
	if b, ok := f.hello[requested]; ok {
		return rawResult(b), nil
	}
	return rawResult(f.hello[f.olders[0].Revision()]), nil
}

// olderOf is the revision the session negotiated.
func (f *olderFront) olderOf(s *Session) *Older {
	if s != nil {
		v := s.ProtocolVersion()
		for _, o := range f.olders {
			if o.Revision() == v {
				return o
			}
		}
	}
	return f.olders[0]
}

// wrap serves method name of an older revision with m, the package's own.
func (f *olderFront) wrap(name string, m *rpcMethod) func(context.Context, []byte) (rpcResult, error) {
	return func(ctx context.Context, raw []byte) (rpcResult, error) {
		sess := SessionFromContext(ctx)
		o := f.olderOf(sess)
		if !o.Carries(name) {
			return nil, &RPCError{Code: CodeMethodNotFound, Message: "method not found: " + rtQuote(name) + " (not in protocol version " + o.Revision() + ")"}
		}
		v, err := o.ParamsFromOlder(name, raw)
		if err != nil {
			return nil, invalidParams(err)
		}
		params, err := f.params(v, sess)
		if err != nil {
			return nil, err
		}
		if m.notification {
			return m.call(ctx, params)
		}
		for round := 0; ; round++ {
			res, err := m.call(ctx, params)
			if err != nil || res == nil {
				return res, err
			}
			e := encoder{}
			res.encodeJSON(&e)
			if e.err != nil {
				return nil, e.err
			}
			if string(rtMember(e.buf, "resultType")) != `"input_required"` {
				b, err := o.ResultToOlder(name, res)
				if err != nil {
					return nil, &RPCError{Code: CodeInternalError, Message: "internal error: the result of " + rtQuote(name) + " cannot be sent to a client of " + o.Revision() + ": " + err.Error()}
				}
				return rawResult(b), nil
			}
			if round == f.maxRounds {
				return nil, &RPCError{Code: CodeInternalError, Message: "internal error: the handler of " + rtQuote(name) + " still asks for input after " + strconv.Itoa(f.maxRounds) + " rounds"}
			}
			answers, err := f.askClient(ctx, o, sess, rtMember(e.buf, "inputRequests"))
			if err != nil {
				return nil, err
			}
			params = convDropMembers(params, "inputResponses", "requestState")
			pairs := []string{"inputResponses", string(answers)}
			if st := rtMember(e.buf, "requestState"); st != nil {
				pairs = append(pairs, "requestState", string(st))
			}
			params = convAddMembers(params, pairs...)
		}
	}
}

// params is the JSON of converted params v, with the _meta of the
// package's revision filled from the session.
func (f *olderFront) params(v any, sess *Session) ([]byte, error) {
	b := []byte("{}")
	if a, ok := v.(interface {
		AppendJSON([]byte) ([]byte, error)
	}); ok && v != nil {
		var err error
		if b, err = a.AppendJSON(nil); err != nil {
			return nil, err
		}
	}
	meta := rtMember(b, "_meta")
	if meta == nil || meta[0] != '{' {
		meta = []byte("{}")
	}
	meta = convDropMembers(meta, metaProtocolVersion, metaClientCapabilities, metaClientInfo)
	pairs := []string{metaProtocolVersion, strconv.Quote(f.version)}
	caps := []byte("{}")
	var info []byte
	if sess != nil {
		if c := sess.ClientCapabilities(); c != nil {
			caps = c
		}
		info = sess.ClientInfo()
	}
	pairs = append(pairs, metaClientCapabilities, string(caps))
	if info != nil {
		pairs = append(pairs, metaClientInfo, string(info))
	}
	meta = convAddMembers(meta, pairs...)
	return convAddMembers(convDropMembers(b, "_meta"), "_meta", string(meta)), nil
}

// askClient sends each input request of an InputRequiredResult to the
// client as a request of its revision, one at a time in the order of
// their keys, and returns the answers as the inputResponses of the retry.
func (f *olderFront) askClient(ctx context.Context, o *Older, sess *Session, reqs []byte) ([]byte, error) {
	if sess == nil {
		return nil, &RPCError{Code: CodeInternalError, Message: "internal error: the handler asks for input, and a client of " + o.Revision() + " without a session cannot be asked"}
	}
	link := linkOf(ctx)
	type input struct {
		key         string
		method      string
		params, raw []byte
	}
	var list []input
	var d decoder
	d.initShared(reqs)
	if d.peek() == '{' {
		d.object()
		for first := true; d.member(&first); {
			k := d.key
			d.peek()
			r := d.raw()
			method, _ := headerText(rtMember(r, "method"))
			list = append(list, input{key: k, method: method, params: rtMember(r, "params")})
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
		v, err := f.inputParams(in.method, in.params)
		if err != nil {
			return nil, &RPCError{Code: CodeInternalError, Message: "internal error: input request " + rtQuote(in.key) + ": " + err.Error()}
		}
		p, err := o.ParamsToOlder(in.method, v)
		if err != nil {
			return nil, &RPCError{Code: CodeInternalError, Message: "internal error: input request " + rtQuote(in.key) + " cannot be sent to a client of " + o.Revision() + ": " + err.Error()}
		}
		if err := sess.mayRequest(in.method, p); err != nil {
			return nil, &RPCError{Code: CodeInternalError, Message: "internal error: " + err.Error()}
		}
		res, err := sess.out.call(ctx, link.notify, sess.send, in.method, p, sess.d.limits.requestTimeout)
		if err != nil {
			var re *RPCError
			if errors.As(err, &re) {
				return nil, &RPCError{Code: CodeInternalError, Message: "internal error: the client answered " + rtQuote(in.method) + " with an error: " + re.Message}
			}
			return nil, err
		}
		r, err := o.ResultFromOlder(in.method, res)
		if err != nil {
			return nil, &RPCError{Code: CodeInternalError, Message: "internal error: the client's answer to " + rtQuote(in.method) + ": " + err.Error()}
		}
		a, ok := r.(interface {
			AppendJSON([]byte) ([]byte, error)
		})
		if !ok {
			return nil, &RPCError{Code: CodeInternalError, Message: "internal error: the client's answer to " + rtQuote(in.method) + " has no JSON form"}
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = rtAppendQuoted(out, in.key)
		out = append(out, ':')
		if out, err = a.AppendJSON(out); err != nil {
			return nil, err
		}
	}
	return append(out, '}'), nil
}

// broadcastOlder sends msg, a notification, to the clients of older
// revisions that keep accepts: the HTTP sessions of r.older, and the
// connections served by serve whose client made the initialize handshake.
// (Clients of r's own revision hear of changes through subscriptions
// they open.)
func (r *rpcDispatcher) broadcastOlder(msg []byte, keep func(*Session) bool) int {
	if r.older == nil {
		return 0
	}
	n := r.older.broadcast(msg, keep)
	return n + r.broadcast(msg, func(s *Session) bool {
		return s.ProtocolVersion() != "" && (keep == nil || keep(s))
	})
}

// newHTTPHandlerOlder is newHTTPHandler for a dispatcher that also serves
// the clients of older revisions (d.older): unless opts has a Fallback of
// its own, what the handler leaves to Fallback (a POST without
// MCP-Protocol-Version or with an older one, a request naming a session,
// GET and DELETE) goes to a handler with sessions for d.older, with the
// same options.
func newHTTPHandlerOlder(d *rpcDispatcher, opts HTTPOptions) *HTTPHandler {
	if d.older == nil || opts.Fallback != nil {
		return newHTTPHandler(d, opts)
	}
	older := newSessionHTTPHandler(d.older, opts, d.older.versions[0])
	opts.Fallback = older
	h := newHTTPHandler(d, opts)
	h.older = older
	return h
}
