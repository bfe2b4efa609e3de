package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/check/wire"
)

// run is the check of one revision over one connection.
type run struct {
	ck   *checker
	rev  *revision
	tr   Transport
	out  *RunReport
	http *wire.HTTP
	proc *wire.Stdio
	ids  int
	// sid is the session of a legacy run over HTTP.
	sid string
	// modern is set for a 2026-07-28 run.
	modern bool
	// vehicle is the method the 2026-07-28 probes send: server/discover,
	// or tools/list when the server has no server/discover.
	vehicle string
	// caps are the server's capabilities, nil when unknown.
	caps map[string]json.RawMessage
	// dead is why the connection is gone (nothing more is sent).
	dead error
	// partial is set for a 2026-07-28 run reported although the server
	// does not serve 2026-07-28 (its findings explain why).
	partial bool

	tools     []tool
	prompts   []prompt
	resources []string
	paged     map[string]string // list method -> a cursor it returned

	// the initialize exchange of a legacy run, judged once the revision is known
	initX      *wire.Exchange
	initResult json.RawMessage
}

// --- verdicts

func (r *run) result(id string) *ruleResult {
	rl := rule(id)
	res := r.out.results[id]
	if res == nil {
		res = &ruleResult{rule: rl}
		r.out.results[id] = res
	}
	return res
}

func (r *run) applies(id string) bool { return rule(id).applies(r.rev.rules, r.tr) }

// pass records that the rule held once.
func (r *run) pass(id string) {
	if r.applies(id) {
		r.result(id).passes++
	}
}

// fail records a violation of the rule (a warning for a SHOULD).
func (r *run) fail(id string, p *Place) {
	if !r.applies(id) {
		return
	}
	res := r.result(id)
	res.fails++
	if len(res.places) < maxPlaces {
		res.places = append(res.places, p)
	}
}

// failf records a violation at step, with x as the exchange.
func (r *run) failf(id, step string, x *wire.Exchange, format string, args ...any) {
	r.fail(id, &Place{Step: step, Message: fmt.Sprintf(format, args...), Exchange: r.view(x)})
}

// errorf records that the rule could not be judged.
func (r *run) errorf(id, step string, x *wire.Exchange, format string, args ...any) {
	if !r.applies(id) {
		return
	}
	res := r.result(id)
	res.errs++
	if len(res.places) < maxPlaces {
		res.places = append(res.places, &Place{Step: step, Message: fmt.Sprintf(format, args...), Exchange: r.view(x)})
	}
}

// skip records why the rule was not judged (unless it was).
func (r *run) skip(id, reason string) {
	if r.applies(id) {
		if res := r.result(id); res.skipped == "" {
			res.skipped = reason
		}
	}
}

func (r *run) note(format string, args ...any) {
	r.out.Notes = append(r.out.Notes, fmt.Sprintf(format, args...))
}

func (r *run) view(x *wire.Exchange) *Exchange {
	n := 200
	if r.ck.o.Verbose {
		n = 64 << 10
	}
	return view(x, n)
}

func (r *run) progress(step string) { r.ck.progress("%s %s", r.rev.name, step) }

// --- requests

// req is one message to send and how to judge its answer.
type req struct {
	step   string
	method string
	// params is the params member (JSON), "" for none.
	params string
	// body, if set, is sent as it is (a malformed message); id is then
	// the id to expect ("null" for one the server cannot read).
	body []byte
	id   string
	// notify sends a notification.
	notify bool
	// version is the MCP-Protocol-Version header; "" the run's, "-" none.
	version string
	// header overrides headers; a value "" removes the header.
	header map[string]string
	// lower writes the MCP header names in lower case.
	lower      bool
	host       string
	httpMethod string
	noSession  bool
	// headersOnly ends an HTTP exchange at the headers.
	headersOnly bool
	until       func([]byte) bool
	// claimHTTP: the probe judges the HTTP status and content type.
	claimHTTP bool
	// claimCode: the probe judges the error code.
	claimCode bool
	// noCheck: the probe judges the answer alone (no schema checks).
	noCheck bool
	// claimAnswer: the probe judges a missing answer itself.
	claimAnswer bool
	// logLevel: the request asks for log messages.
	logLevel bool
}

// nextID returns the next id's JSON text: numbers and strings in turn.
func (r *run) nextID() string {
	r.ids++
	if r.ids%2 == 0 {
		return strconv.Quote("mcpgen-check-" + strconv.Itoa(r.ids))
	}
	return strconv.Itoa(r.ids)
}

// meta is the request _meta of a 2026-07-28 request.
func (r *run) meta(version string, withInfo, withCaps bool, extra string) string {
	var parts []string
	if version != "" {
		parts = append(parts, `"io.modelcontextprotocol/protocolVersion":`+strconv.Quote(version))
	}
	if withInfo {
		parts = append(parts, `"io.modelcontextprotocol/clientInfo":{"name":"mcpgen-check","version":`+strconv.Quote(r.ck.o.Version)+`}`)
	}
	if withCaps {
		parts = append(parts, `"io.modelcontextprotocol/clientCapabilities":{}`)
	}
	if extra != "" {
		parts = append(parts, extra)
	}
	return `{` + strings.Join(parts, ",") + `}`
}

// params returns a params object: members (JSON "k":v text, may be "")
// plus, in a 2026-07-28 run, the standard _meta.
func (r *run) params(members string) string {
	if !r.modern {
		if members == "" {
			return ""
		}
		return "{" + members + "}"
	}
	m := `"_meta":` + r.meta(r.rev.name, true, true, "")
	if members != "" {
		m = members + "," + m
	}
	return "{" + m + "}"
}

// send sends q and judges what every exchange must satisfy; the caller
// judges the rest.
func (r *run) send(q req) *wire.Exchange {
	if r.ck.o.Progress != nil {
		r.progress(q.step)
	}
	x := &wire.Exchange{Method: q.httpMethod, Host: q.host, HeadersOnly: q.headersOnly, Until: q.until, Quiet: r.ck.o.Quiet}
	id := q.id
	switch {
	case q.body != nil:
		x.Body = q.body
	case q.notify:
		x.Body = []byte(`{"jsonrpc":"2.0","method":` + strconv.Quote(q.method) + paramsMember(q.params) + `}`)
	case q.httpMethod == "" || q.httpMethod == http.MethodPost:
		if id == "" {
			id = r.nextID()
		}
		x.Body = []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":` + strconv.Quote(q.method) + paramsMember(q.params) + `}`)
	}
	if !q.notify {
		x.ID = id
	}
	if r.http != nil {
		x.Header = r.headers(q)
	}
	r.do(x)
	r.observe(&q, x)
	return x
}

func paramsMember(p string) string {
	if p == "" {
		return ""
	}
	return `,"params":` + p
}

// headers are the HTTP headers of q: those a conforming client sends,
// then the user's, then q's overrides.
func (r *run) headers(q req) http.Header {
	h := http.Header{}
	set := func(k, v string) {
		if q.lower {
			k = strings.ToLower(k)
		}
		h[k] = []string{v}
	}
	if q.httpMethod == "" || q.httpMethod == http.MethodPost {
		h["Content-Type"] = []string{"application/json"}
		h["Accept"] = []string{"application/json, text/event-stream"}
	} else {
		h["Accept"] = []string{"text/event-stream"}
	}
	version := q.version
	if version == "" {
		version = r.rev.name
	}
	if version != "-" && bitOf(r.rev.rules)&(r0326|r1105) == 0 {
		set("MCP-Protocol-Version", version)
	}
	if r.modern && q.method != "" {
		set("Mcp-Method", q.method)
		if name := nameOf(q.method, q.params); name != "" {
			set("Mcp-Name", name)
		}
	}
	if r.sid != "" && !q.noSession {
		set("Mcp-Session-Id", r.sid)
	}
	for k, v := range r.ck.o.Header {
		h[http.CanonicalHeaderKey(k)] = v
	}
	for k, v := range q.header {
		delete(h, k)
		delete(h, strings.ToLower(k))
		delete(h, http.CanonicalHeaderKey(k))
		if v != "" {
			h[k] = []string{v}
		}
	}
	return h
}

// nameOf is the Mcp-Name of a request: params.name or params.uri.
func nameOf(method, params string) string {
	var p struct {
		Name *string `json:"name"`
		URI  *string `json:"uri"`
	}
	switch method {
	case "tools/call", "prompts/get":
		if json.Unmarshal([]byte(params), &p) == nil && p.Name != nil {
			return *p.Name
		}
	case "resources/read":
		if json.Unmarshal([]byte(params), &p) == nil && p.URI != nil {
			return *p.URI
		}
	}
	return ""
}

// do performs x, unless the connection is gone or the deadline passed.
func (r *run) do(x *wire.Exchange) {
	if r.dead != nil {
		x.Err = r.dead
		return
	}
	if err := context.Cause(r.ck.ctx); err != nil {
		x.Err = err
		r.dead = err
		r.abort(err.Error())
		return
	}
	if r.http != nil {
		r.http.Do(r.ck.ctx, x)
		return
	}
	r.proc.Do(r.ck.ctx, x)
}

func (r *run) abort(why string) {
	if r.out.Aborted == "" {
		r.out.Aborted = why
	}
}

// --- observation: the rules every exchange is judged by

func (r *run) observe(q *req, x *wire.Exchange) {
	step := q.step
	unknownID := false
	if r.proc != nil {
		unknownID = r.stdioEvents(step)
	}
	if x.Err != nil {
		r.exchangeErr(q, x, unknownID)
	} else if !q.notify && !q.headersOnly && (x.Response != nil || x.Stopped != nil) {
		r.pass("request-answered")
	}
	requests := false
	for _, m := range x.Messages {
		if bytes.Equal(m, x.Response) {
			continue
		}
		requests = requests || wire.Kind(m) == 'q'
		r.observeMessage(q, x, m)
	}
	if !requests && x.Err == nil {
		r.pass("capabilities-respected")
		if r.modern && r.proc != nil {
			r.pass("stdio-no-requests")
		}
	}
	if r.http != nil && !q.headersOnly && x.Err == nil {
		r.observeHTTP(q, x)
	}
	if x.Response != nil {
		r.observeResponse(q, x)
	}
}

// exchangeErr judges an exchange that got no answer.
func (r *run) exchangeErr(q *req, x *wire.Exchange, unknownID bool) {
	var te *wire.TimeoutError
	var le *wire.LimitError
	var ee *wire.ExitError
	switch {
	case errors.Is(x.Err, wire.ErrClosed) || errors.Is(x.Err, r.dead) && r.dead != nil && x.Elapsed == 0:
		// not sent
	case errors.As(x.Err, &ee):
		if r.dead == nil {
			r.dead = x.Err
			r.abort(ee.Error())
			if !q.claimAnswer {
				r.failf("request-answered", q.step, x, "%s", ee.Error())
			}
		}
	case errors.As(x.Err, &le):
		r.errorf("request-answered", q.step, x, "%s", le.Error())
		if r.proc != nil {
			// The rest of the output cannot be trusted to be framed.
			r.dead = x.Err
			r.abort("the server broke a limit: " + le.Error())
			r.proc.Kill()
		}
	case errors.As(x.Err, &te):
		if r.dead != nil || context.Cause(r.ck.ctx) != nil {
			r.dead = context.Cause(r.ck.ctx)
			r.abort(r.dead.Error())
			return
		}
		if q.notify || q.claimAnswer || unknownID {
			return
		}
		r.failf("request-answered", q.step, x, "%s", te.Error())
	default:
		if c := context.Cause(r.ck.ctx); c != nil {
			r.dead = c
			r.abort(c.Error())
			return
		}
		if !q.claimAnswer {
			r.failf("request-answered", q.step, x, "%s", x.Err.Error())
		}
	}
}

// stdioEvents judges what the server wrote outside the exchange; it
// reports whether a response came for an id never sent.
func (r *run) stdioEvents(step string) (unknownID bool) {
	clean := true
	for _, ev := range r.proc.Events() {
		switch ev.Kind {
		case wire.NotMessage:
			clean = false
			r.fail("stdio-stdout-only-mcp", &Place{Step: step, Message: "stdout line that is not a JSON-RPC message: " + strconv.Quote(wire.Snip(ev.Line, 200))})
		case wire.UnknownID:
			unknownID = true
			r.fail("response-id-matches", &Place{Step: step, Message: "a response to an id never sent: " + wire.Snip(ev.Line, 200)})
		case wire.Duplicate:
			r.fail("response-id-matches", &Place{Step: step, Message: "a second response to one id: " + wire.Snip(ev.Line, 200)})
		case wire.Request:
			r.serverRequest(step, nil, ev.Line)
		case wire.Stray:
			r.observeNotification(&req{step: step}, nil, ev.Line)
		}
	}
	if clean {
		r.pass("stdio-stdout-only-mcp")
	}
	return unknownID
}

// observeMessage judges a message that came before (or instead of) the
// response: a notification, a request from the server, or garbage.
func (r *run) observeMessage(q *req, x *wire.Exchange, m []byte) {
	switch wire.Kind(m) {
	case 'n':
		r.observeNotification(q, x, m)
	case 'q':
		r.serverRequest(q.step, x, m)
	case 'r':
		// an answer to a notification: the probe judges it
	}
}

func (r *run) observeNotification(q *req, x *wire.Exchange, m []byte) {
	var n struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	_ = json.Unmarshal(m, &n)
	r.validate(q.step, x, m, "", []string{"JSONRPCNotification"}, func(v violation) bool { return strings.HasPrefix(v.pointer, "/params") })
	if mi, ok := r.rev.notes[n.Method]; ok && mi.newParams != nil && n.Params != nil {
		r.validateWith(q.step, x, n.Params, "/params", mi.newParams(), nil)
	}
	if r.modern && n.Method == "notifications/message" {
		if q.logLevel {
			return
		}
		r.failf("no-log-without-loglevel", q.step, x, "notifications/message for a request without io.modelcontextprotocol/logLevel: %s", wire.Snip(m, 200))
	}
}

// serverRequest judges a request the server sent.
func (r *run) serverRequest(step string, x *wire.Exchange, m []byte) {
	var q struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(m, &q)
	r.validate(step, x, m, "", []string{"JSONRPCRequest"}, nil)
	switch {
	case r.modern && r.http != nil:
		r.failf("http-no-requests-on-stream", step, x, "a %s request on the response stream", q.Method)
	case r.modern:
		r.fail("stdio-no-requests", &Place{Step: step, Message: "a " + q.Method + " request on stdout: " + wire.Snip(m, 200), Exchange: r.view(x)})
	case q.Method != "ping":
		r.failf("capabilities-respected", step, x, "a %s request to a client that declared no capabilities", q.Method)
	}
}

// observeHTTP judges the HTTP side of an exchange.
func (r *run) observeHTTP(q *req, x *wire.Exchange) {
	isRequest := !q.notify && (q.httpMethod == "" || q.httpMethod == http.MethodPost)
	if isRequest && !q.claimHTTP {
		ct, _, _ := mime.ParseMediaType(x.RespHeader.Get("Content-Type"))
		switch {
		case x.SSE || (ct == "application/json" && x.Response != nil):
			r.pass("http-response-content-type")
		default:
			r.failf("http-response-content-type", q.step, x, "a request answered HTTP %d %s%s, not one JSON-RPC message (application/json or text/event-stream)", x.Status, orNone(x.RespHeader.Get("Content-Type")), bodyHint(x.Raw))
		}
	}
	if r.modern {
		if sid := x.RespHeader.Get("Mcp-Session-Id"); sid != "" {
			r.failf("http-no-session-id", q.step, x, "the response carries Mcp-Session-Id %q", sid)
		} else {
			r.pass("http-no-session-id")
		}
	}
	if !x.SSE {
		return
	}
	if r.modern {
		if x.RespHeader.Get("X-Accel-Buffering") == "no" {
			r.pass("sse-x-accel-buffering")
		} else {
			r.failf("sse-x-accel-buffering", q.step, x, "an event stream without X-Accel-Buffering: no")
		}
		requests := false
		for _, m := range x.Messages {
			requests = requests || wire.Kind(m) == 'q'
		}
		if !requests {
			r.pass("http-no-requests-on-stream")
		}
	}
	if r.rev.rules == "2025-11-25" {
		if x.Priming {
			r.pass("sse-priming-event")
		} else {
			r.failf("sse-priming-event", q.step, x, "the event stream does not start with an event that has an id and empty data")
		}
	}
	if x.Response != nil {
		if x.StreamEnded {
			r.pass("sse-response-ends-stream")
		} else {
			r.failf("sse-response-ends-stream", q.step, x, "the event stream was still open %s after the response", r.ck.o.Limits.Linger)
		}
	}
}

func mediaType(ct string) string {
	t, _, _ := mime.ParseMediaType(ct)
	return t
}

func orNone(s string) string {
	if s == "" {
		return "(no Content-Type)"
	}
	return s
}

func bodyHint(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return ": " + strconv.Quote(wire.Snip(b, 120))
}

// response is the part of a response the checker reads.
type response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

type rpcError struct {
	Code    json.RawMessage `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// code is the error code, or a value no code has when it is not an integer.
func (e *rpcError) code() int64 {
	c, err := strconv.ParseInt(string(e.Code), 10, 64)
	if err != nil {
		return 1 << 62
	}
	return c
}

func parseResponse(b []byte) (*response, bool) {
	var p response
	if json.Unmarshal(b, &p) != nil {
		return nil, false
	}
	return &p, true
}

// observeResponse judges the response of an exchange.
func (r *run) observeResponse(q *req, x *wire.Exchange) {
	p, ok := parseResponse(x.Response)
	if !ok {
		return
	}
	// An HTTP error status may come with an error that has no id (the
	// request was refused before its body was read).
	noID := len(p.ID) == 0 || string(p.ID) == "null"
	if x.ID != "" && x.ID != "null" && !(p.Error != nil && noID && x.Status >= 400) {
		if compactJSON(p.ID) == compactJSON([]byte(x.ID)) {
			r.pass("response-id-matches")
		} else {
			r.failf("response-id-matches", q.step, x, "the response to id %s carries id %s", x.ID, orNull(p.ID))
		}
	}
	if q.noCheck {
		return
	}
	if p.Error != nil {
		defs := []string{"JSONRPCErrorResponse", "JSONRPCError"}
		var claimed func(violation) bool
		if noID && x.Status >= 400 {
			claimed = func(v violation) bool { return v.member() == "id" }
		}
		r.validate(q.step, x, x.Response, "", defs, claimed)
		if r.modern {
			r.observeError(q, x, p.Error)
		}
		return
	}
	if p.Result != nil {
		r.validate(q.step, x, x.Response, "", []string{"JSONRPCResultResponse", "JSONRPCResponse"}, func(v violation) bool { return strings.HasPrefix(v.pointer, "/result") })
		if !q.claimCode {
			// A probe judges its answer itself: a result it should not
			// have got is one finding, not one per rule of results.
			r.checkResult(q, x, p.Result)
		}
	}
	if r.modern {
		r.pass("no-log-without-loglevel")
	}
}

// observeError judges a 2026-07-28 error response.
func (r *run) observeError(q *req, x *wire.Exchange, e *rpcError) {
	c := e.code()
	if !q.claimCode {
		if (c <= -32020 && c >= -32099 && c != -32020 && c != -32021 && c != -32022) || c == -32002 || c == -32042 {
			r.failf("error-code-reserved", q.step, x, "error code %d", c)
		} else {
			r.pass("error-code-reserved")
		}
	}
	if c == -32021 {
		var d struct {
			Required json.RawMessage `json:"requiredCapabilities"`
		}
		_ = json.Unmarshal(e.Data, &d)
		switch {
		case d.Required == nil || d.Required[0] != '{':
			r.failf("missing-capability-error", q.step, x, "-32021 without data.requiredCapabilities")
		case r.http != nil && x.Status != http.StatusBadRequest:
			r.failf("missing-capability-error", q.step, x, "-32021 with HTTP %d, not 400", x.Status)
		default:
			r.pass("missing-capability-error")
		}
	}
}

func orNull(b []byte) string {
	if len(b) == 0 {
		return "(none)"
	}
	return string(b)
}

func compactJSON(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}

// --- schema validation

// validate validates doc as the first of defs the revision has, and
// reports every violation not claimed (at pointer prefix + its own).
func (r *run) validate(step string, x *wire.Exchange, doc []byte, prefix string, defs []string, claimed func(violation) bool) {
	for _, d := range defs {
		if v, ok := r.rev.newValue(d); ok {
			r.validateWith(step, x, doc, prefix, v, claimed)
			return
		}
	}
}

func (r *run) validateWith(step string, x *wire.Exchange, doc []byte, prefix string, v value, claimed func(violation) bool) {
	err := r.rev.check(doc, v)
	if err == nil {
		r.pass("schema-valid")
		return
	}
	vs, ok := r.rev.violations(err)
	if !ok {
		r.fail("schema-valid", &Place{Step: step, Pointer: prefix, Message: err.Error(), Exchange: r.view(x)})
		return
	}
	bad := false
	for _, vi := range vs {
		if claimed != nil && claimed(vi) {
			continue
		}
		bad = true
		p := prefix + vi.pointer
		where := p
		if where == "" {
			where = "/"
		}
		r.fail("schema-valid", &Place{Step: step, Pointer: p, Message: where + ": " + vi.message + " (" + vi.keyword + ")", Exchange: r.view(x)})
	}
	if !bad {
		r.pass("schema-valid")
	}
}

// member is the member a violation is about, relative to the document:
// the missing member of a "required" one at the root, else the first
// pointer token.
func (v violation) member() string {
	if v.pointer == "" && v.keyword == "required" {
		if i := strings.IndexByte(v.message, '"'); i >= 0 {
			if j := strings.IndexByte(v.message[i+1:], '"'); j >= 0 {
				return v.message[i+1 : i+1+j]
			}
		}
		return ""
	}
	t := strings.TrimPrefix(v.pointer, "/")
	if i := strings.IndexByte(t, '/'); i >= 0 {
		t = t[:i]
	}
	return t
}
