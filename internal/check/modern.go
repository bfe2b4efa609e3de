package check

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/check/wire"
)

// discoverResult is what the checker reads of a DiscoverResult.
type discoverResult struct {
	SupportedVersions []string                   `json:"supportedVersions"`
	Capabilities      map[string]json.RawMessage `json:"capabilities"`
	Meta              struct {
		ServerInfo *Server `json:"io.modelcontextprotocol/serverInfo"`
	} `json:"_meta"`
}

// negotiateModern sends server/discover at 2026-07-28. served reports
// whether the server serves 2026-07-28; reason says why not. A run that
// is not served but has findings to report is left aborted (partial).
func (r *run) negotiateModern() (served bool, reason string) {
	r.modern = true
	r.out.Via = "server/discover"
	r.vehicle = "server/discover"
	step := "server/discover"
	x := r.send(req{step: step, method: "server/discover", params: r.params("")})
	if r.tr == Stdio {
		r.ck.probe = x
		var ee *wire.ExitError
		if errors.As(x.Err, &ee) {
			r.ck.probeExit = ee.Error()
		}
	}
	p, ok := parseResponse(x.Response)
	switch {
	case x.Response == nil || !ok:
		if x.Err != nil {
			return false, "no answer to server/discover: " + errText(x.Err)
		}
		return false, fmt.Sprintf("server/discover was answered HTTP %d %s%s", x.Status, orNone(x.RespHeader.Get("Content-Type")), bodyHint(x.Raw))
	case p.Error != nil:
		// A modern server without discover still answers tools/list.
		t := r.send(req{step: "tools/list (is the server modern?)", method: "tools/list", params: r.params("")})
		if tp, ok := parseResponse(t.Response); ok && tp.Result != nil && strings.Contains(string(tp.Result), `"resultType"`) {
			r.failf("discover-implemented", step, x, "server/discover was answered with error %s %q, but tools/list with a 2026-07-28 result", string(p.Error.Code), p.Error.Message)
			r.note("the server's capabilities are unknown (no DiscoverResult): capabilities-agree is not judged, and the probes use tools/list")
			r.vehicle = "tools/list"
			return true, ""
		}
		return false, fmt.Sprintf("server/discover was answered with error %s %q", string(p.Error.Code), p.Error.Message)
	}
	r.pass("discover-implemented")
	var d discoverResult
	_ = json.Unmarshal(p.Result, &d)
	r.caps = d.Capabilities
	if r.caps == nil {
		r.caps = map[string]json.RawMessage{}
	}
	r.out.Server = d.Meta.ServerInfo
	r.out.SupportedVersions = d.SupportedVersions
	r.out.Declared = declaredList(r.caps)
	r.ck.discovered = d.SupportedVersions
	if slices.Contains(d.SupportedVersions, r.rev.name) {
		r.pass("discover-lists-served-version")
		return true, ""
	}
	r.failf("discover-lists-served-version", step, x, "supportedVersions %s does not list %s", jsonList(d.SupportedVersions), r.rev.name)
	t := r.send(req{step: "tools/list (is 2026-07-28 served?)", method: "tools/list", params: r.params(""), claimCode: true})
	if tp, ok := parseResponse(t.Response); ok && tp.Result != nil {
		return true, ""
	}
	r.abort("the server answers server/discover, but no 2026-07-28 request (its supportedVersions: " + jsonList(d.SupportedVersions) + ")")
	r.partial = true
	return false, "server/discover does not list 2026-07-28, and tools/list at 2026-07-28 is refused"
}

func jsonList(l []string) string {
	b, _ := json.Marshal(l)
	return string(b)
}

// declaredList names the declared capabilities and their flags.
func declaredList(caps map[string]json.RawMessage) []string {
	out := []string{}
	for name, raw := range caps {
		var flags map[string]json.RawMessage
		_ = json.Unmarshal(raw, &flags)
		var on []string
		for f, v := range flags {
			if string(v) == "true" {
				on = append(on, f)
			} else if name == "extensions" || name == "experimental" {
				on = append(on, f)
			}
		}
		sort.Strings(on)
		if len(on) > 0 {
			name += " (" + strings.Join(on, ", ") + ")"
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// runModern checks 2026-07-28 once negotiated.
func (r *run) runModern() {
	if r.out.Aborted == "" {
		r.initializeProbe()
		r.walk()
		r.publicAcrossPrincipals()
		r.listen()
		r.probesModern()
		if r.http != nil {
			r.probesHTTP()
		}
		r.calls()
		r.parseErrorProbe()
	}
	r.close(true)
	skip := ""
	if r.out.Aborted != "" {
		skip = "not run: " + r.out.Aborted
	}
	r.out.finish(r.tr, skip)
}

// close ends the connection; over stdio, judge says whether to judge
// how the process exits.
func (r *run) close(judge bool) {
	if r.http != nil {
		r.http.Close()
		return
	}
	if r.proc == nil {
		return
	}
	if !judge {
		r.proc.Kill()
		return
	}
	res := r.proc.Close()
	r.stdioEvents("end of the check")
	if !r.modern {
		return
	}
	switch {
	case res.ExitedOnEOF:
		r.pass("stdio-exits-on-eof")
	case r.dead != nil:
	default:
		r.fail("stdio-exits-on-eof", &Place{Step: "close standard input", Message: fmt.Sprintf("the server was still running %s after its standard input closed (stopped with %s)", r.ck.o.Limits.ExitWait, res.Signal)})
	}
}

// initializeProbe sends initialize at 2025-11-25 on a connection of its
// own: a server that answers it serves older clients too (dual-era); one
// that refuses it should name its versions.
func (r *run) initializeProbe() {
	f, err := r.fresh()
	if err != nil {
		r.skip("initialize-error-names-versions", err.Error())
		return
	}
	f.modern = false
	step := "initialize at 2025-11-25 (does the server serve older clients?)"
	x := f.send(req{step: step, method: "initialize", version: "-", noCheck: true, claimHTTP: true, claimCode: true, claimAnswer: true,
		params: `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpgen-check","version":` + strconv.Quote(r.ck.o.Version) + `}}`})
	defer func() {
		if f.proc != nil {
			f.proc.Kill()
		}
	}()
	p, ok := parseResponse(x.Response)
	switch {
	case ok && p.Result != nil:
		r.out.DualEra = true
		r.skip("initialize-error-names-versions", "the server answers initialize: it serves older clients too")
		if sid := x.RespHeader.Get("Mcp-Session-Id"); f.http != nil && sid != "" {
			f.send(req{step: "DELETE the initialize probe's session", httpMethod: http.MethodDelete, version: "-", header: map[string]string{"Mcp-Session-Id": sid}, headersOnly: true})
		}
	case ok && p.Error != nil:
		text := p.Error.Message + " " + string(p.Error.Data)
		versions := r.out.SupportedVersions
		if len(versions) == 0 {
			versions = []string{r.rev.name}
		}
		named := true
		for _, v := range versions {
			named = named && strings.Contains(text, v)
		}
		if named {
			r.pass("initialize-error-names-versions")
		} else {
			r.failf("initialize-error-names-versions", step, x, "initialize was refused with error %s %q, which does not name the supported versions %s", string(p.Error.Code), p.Error.Message, jsonList(versions))
		}
	case x.Response == nil && len(x.Raw) > 0:
		versions := r.out.SupportedVersions
		if len(versions) == 0 {
			versions = []string{r.rev.name}
		}
		named := true
		for _, v := range versions {
			named = named && strings.Contains(string(x.Raw), v)
		}
		if named {
			r.pass("initialize-error-names-versions")
		} else {
			r.failf("initialize-error-names-versions", step, x, "initialize was refused with HTTP %d%s, which does not name the supported versions", x.Status, bodyHint(x.Raw))
		}
	default:
		r.skip("initialize-error-names-versions", "initialize was not answered")
	}
}

// expect judges a probe that must be refused with code (by rule) and,
// over HTTP, with status (by statusRule).
func (r *run) expect(step string, x *wire.Exchange, code int64, id, statusRule string, status int) *rpcError {
	if x.Err != nil {
		return nil // request-answered says why there is no answer
	}
	p, ok := parseResponse(x.Response)
	served := ok && x.Response != nil && p.Result != nil
	if r.http != nil && statusRule != "" && x.Status != 0 && !served {
		if x.Status == status {
			r.pass(statusRule)
		} else {
			r.failf(statusRule, step, x, "HTTP %d, want %d", x.Status, status)
		}
	}
	switch {
	case x.Response == nil && x.Status != 0:
		r.failf(id, step, x, "HTTP %d %s%s, not a JSON-RPC error %d", x.Status, orNone(x.RespHeader.Get("Content-Type")), bodyHint(x.Raw), code)
	case x.Response == nil || !ok:
		// no answer: request-answered says so
	case p.Error == nil:
		r.failf(id, step, x, "served (a result), want error %d", code)
	case p.Error.code() != code:
		r.failf(id, step, x, "error %s %q, want %d", string(p.Error.Code), p.Error.Message, code)
	default:
		r.pass(id)
		return p.Error
	}
	return nil
}

// probesModern sends the probes of 2026-07-28 every transport has.
func (r *run) probesModern() {
	// Unknown methods, and those 2026-07-28 removed.
	for _, m := range []struct{ method, members string }{
		{"mcpgen-check/unknown-method", ""},
		{"ping", ""},
		{"logging/setLevel", `"level":"info"`},
	} {
		step := m.method + " (not a 2026-07-28 method)"
		x := r.send(req{step: step, method: m.method, params: r.params(m.members), claimCode: true, claimHTTP: true})
		r.expect(step, x, -32601, "unknown-method-32601", "http-status-unknown-method-404", 404)
	}

	// Unsupported version.
	bogus := "1900-01-01"
	methods := []string{r.vehicle}
	if r.declared("tools") && r.vehicle != "tools/list" {
		methods = append(methods, "tools/list")
	}
	for _, m := range methods {
		step := m + " at protocol version " + bogus
		x := r.send(req{step: step, method: m, version: bogus, claimCode: true, claimHTTP: true,
			params: `{"_meta":` + r.meta(bogus, true, true, "") + `}`})
		e := r.expect(step, x, -32022, "unsupported-version-32022", "http-status-unsupported-version-400", 400)
		if e == nil {
			continue
		}
		var d struct {
			Supported []string `json:"supported"`
			Requested *string  `json:"requested"`
		}
		_ = json.Unmarshal(e.Data, &d)
		switch {
		case len(d.Supported) == 0:
			r.failf("unsupported-version-32022", step, x, "-32022 whose data.supported lists no version")
			continue
		case d.Requested == nil || *d.Requested != bogus:
			r.failf("unsupported-version-32022", step, x, "-32022 whose data.requested is not %q", bogus)
			continue
		}
		if r.out.SupportedVersions != nil {
			a, b := slices.Clone(d.Supported), slices.Clone(r.out.SupportedVersions)
			sort.Strings(a)
			sort.Strings(b)
			if slices.Equal(slices.Compact(a), slices.Compact(b)) {
				r.pass("versions-consistent")
			} else {
				r.failf("versions-consistent", step, x, "-32022 lists %s, server/discover %s", jsonList(d.Supported), jsonList(r.out.SupportedVersions))
			}
		}
	}

	// Request metadata.
	for _, m := range []struct {
		id, what, meta string
		ok             bool
	}{
		{"meta-missing-version-32602", "without io.modelcontextprotocol/protocolVersion", r.meta("", true, true, ""), true},
		{"meta-missing-capabilities-32602", "without io.modelcontextprotocol/clientCapabilities", r.meta(r.rev.name, true, false, ""), true},
		{"meta-missing-32602", "without _meta", "", r.http != nil || !r.out.DualEra},
	} {
		if !m.ok {
			r.skip(m.id, "the server also serves the initialize era, and may read a request without _meta as such")
			continue
		}
		params := `{}`
		if m.meta != "" {
			params = `{"_meta":` + m.meta + `}`
		}
		step := r.vehicle + " " + m.what
		x := r.send(req{step: step, method: r.vehicle, params: params, claimCode: true, claimHTTP: true})
		r.expect(step, x, -32602, m.id, "http-status-invalid-meta-400", 400)
	}
	{
		step := r.vehicle + " without io.modelcontextprotocol/clientInfo"
		x := r.send(req{step: step, method: r.vehicle, params: `{"_meta":` + r.meta(r.rev.name, false, true, "") + `}`})
		if p, ok := parseResponse(x.Response); ok && x.Response != nil {
			if p.Result != nil {
				r.pass("client-info-optional")
			} else {
				r.failf("client-info-optional", step, x, "refused with error %s %q", string(p.Error.Code), p.Error.Message)
			}
		} else if x.Status != 0 {
			r.failf("client-info-optional", step, x, "HTTP %d%s", x.Status, bodyHint(x.Raw))
		}
	}
	{
		step := r.vehicle + ` with io.modelcontextprotocol/logLevel "mcpgen-check-bogus"`
		x := r.send(req{step: step, method: r.vehicle, logLevel: true, claimCode: true, claimHTTP: true,
			params: `{"_meta":` + r.meta(r.rev.name, true, true, `"io.modelcontextprotocol/logLevel":"mcpgen-check-bogus"`) + `}`})
		r.expect(step, x, -32602, "loglevel-invalid-32602", "", 0)
	}
	r.commonProbes()
}

// commonProbes are the probes of every revision: cursors, unknown
// resources and prompts, notifications.
func (r *run) commonProbes() {
	if len(r.paged) == 0 {
		r.skip("pagination-invalid-cursor-32602", "no list returned a nextCursor")
	}
	for _, m := range sortedKeys(r.paged) {
		step := m + " with an unknown cursor"
		x := r.send(req{step: step, method: m, params: r.params(`"cursor":"mcpgen-check-invalid-cursor"`), claimCode: true, claimHTTP: true})
		r.expect(step, x, -32602, "pagination-invalid-cursor-32602", "", 0)
	}
	if r.declared("resources") {
		uri := "mcpgen-check://nonexistent/" + strconv.Itoa(r.ids)
		step := "resources/read of an unknown URI"
		x := r.send(req{step: step, method: "resources/read", params: r.params(`"uri":` + strconv.Quote(uri)), claimCode: true, claimHTTP: true})
		id, code := "resource-not-found-32602", int64(-32602)
		if !r.modern {
			id, code = "resource-not-found-32002", -32002
		}
		p, ok := parseResponse(x.Response)
		if ok && p.Result != nil {
			var c struct {
				Contents []json.RawMessage `json:"contents"`
			}
			_ = json.Unmarshal(p.Result, &c)
			if len(c.Contents) == 0 {
				r.failf(id, step, x, "an empty contents for a resource that does not exist")
			} else {
				r.note("resources/read of %s was served: nothing to judge", uri)
			}
		} else {
			r.expect(step, x, code, id, "", 0)
		}
	} else {
		r.skip("resource-not-found-32602", "resources not declared")
		r.skip("resource-not-found-32002", "resources not declared")
	}
	if r.declared("prompts") {
		step := "prompts/get of an unknown prompt"
		x := r.send(req{step: step, method: "prompts/get", params: r.params(`"name":"mcpgen-check-no-such-prompt","arguments":{}`), claimCode: true, claimHTTP: true})
		r.expect(step, x, -32602, "prompt-unknown-32602", "", 0)
	} else {
		r.skip("prompt-unknown-32602", "prompts not declared")
	}
	r.notificationProbe("notifications/cancelled for a request never sent", "notifications/cancelled", r.params(`"requestId":"mcpgen-check-never-sent"`), false)
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// notificationProbe sends a notification; accepted says a 2xx must be 202.
func (r *run) notificationProbe(step, method, params string, mustAccept bool) {
	x := r.send(req{step: step, method: method, params: params, notify: true})
	if r.proc != nil {
		for _, m := range x.Messages {
			if wire.Kind(m) == 'r' {
				r.failf("notification-unanswered", step, x, "the notification was answered: %s", wire.Snip(m, 200))
				return
			}
		}
		if x.Err == nil {
			r.pass("notification-unanswered")
		}
		return
	}
	if x.Err != nil {
		return
	}
	switch {
	case x.Status == http.StatusAccepted && len(x.Raw) == 0 && len(x.Messages) == 0:
		r.pass("http-notification-202")
	case x.Status == http.StatusAccepted:
		r.failf("http-notification-202", step, x, "202 with a body")
	case x.Status >= 400 && !mustAccept:
		r.pass("http-notification-202") // refusing it is allowed
	default:
		r.failf("http-notification-202", step, x, "HTTP %d, want 202 Accepted with no body (or an error status)", x.Status)
	}
}

// parseErrorProbe sends a malformed message, last: the server may not
// survive it.
func (r *run) parseErrorProbe() {
	if r.dead != nil {
		return
	}
	step := "a malformed message"
	body := []byte(`{"jsonrpc":"2.0","id":`)
	x := r.send(req{step: step, method: "tools/list", body: body, id: "null", claimHTTP: true, claimCode: true, noCheck: true, claimAnswer: true})
	p, ok := parseResponse(x.Response)
	switch {
	case ok && x.Response != nil && p.Error != nil && p.Error.code() == -32700:
		r.pass("parse-error-32700")
		if len(p.ID) > 0 && string(p.ID) == "null" {
			r.note("the parse error carries \"id\": null (JSON-RPC 2.0 says so; the 2025-11-25 and 2026-07-28 schemas want no id)")
		}
	case ok && x.Response != nil && p.Error != nil:
		r.failf("parse-error-32700", step, x, "error %s %q, want -32700", string(p.Error.Code), p.Error.Message)
	case x.Status != 0:
		r.failf("parse-error-32700", step, x, "HTTP %d %s%s, no JSON-RPC -32700 error", x.Status, orNone(x.RespHeader.Get("Content-Type")), bodyHint(x.Raw))
	case x.Err != nil:
		r.failf("parse-error-32700", step, x, "no answer: %s", errText(x.Err))
	default:
		r.failf("parse-error-32700", step, x, "no -32700 error")
	}
}

// probesHTTP sends the Streamable HTTP probes of 2026-07-28.
func (r *run) probesHTTP() {
	mismatch := func(step string, q req) {
		q.step, q.claimCode, q.claimHTTP = step, true, true
		x := r.send(q)
		r.expect(step, x, -32020, "header-mismatch-32020", "http-status-header-mismatch-400", 400)
	}
	disc := r.params("")
	mismatch(r.vehicle+" with MCP-Protocol-Version 2026-07-28 and _meta version v999.0.0",
		req{method: r.vehicle, params: `{"_meta":` + r.meta("v999.0.0", true, true, "") + `}`})
	if r.declared("tools") {
		mismatch("tools/list with Mcp-Method: prompts/list", req{method: "tools/list", params: disc, header: map[string]string{"Mcp-Method": "prompts/list"}})
	} else {
		mismatch(r.vehicle+" with Mcp-Method: prompts/list", req{method: r.vehicle, params: disc, header: map[string]string{"Mcp-Method": "prompts/list"}})
	}
	named := ""
	var namedMethod, namedParams string
	switch {
	case len(r.resources) > 0:
		named, namedMethod, namedParams = r.resources[0], "resources/read", r.params(`"uri":`+strconv.Quote(r.resources[0]))
	default:
		for _, p := range r.prompts {
			if !p.required {
				named, namedMethod, namedParams = p.name, "prompts/get", r.params(`"name":`+strconv.Quote(p.name)+`,"arguments":{}`)
				break
			}
		}
	}
	if named != "" {
		mismatch(namedMethod+" "+named+" with Mcp-Name: mcpgen-check-other", req{method: namedMethod, params: namedParams, header: map[string]string{"Mcp-Name": "mcpgen-check-other"}})
		step := namedMethod + " " + named + " with Mcp-Name in base64"
		x := r.send(req{step: step, method: namedMethod, params: namedParams, claimCode: true,
			header: map[string]string{"Mcp-Name": "=?base64?" + base64.StdEncoding.EncodeToString([]byte(named)) + "?="}})
		if p, ok := parseResponse(x.Response); ok && x.Response != nil {
			if p.Error != nil && p.Error.code() == -32020 {
				r.failf("header-base64-decoded", step, x, "refused with -32020: the encoded Mcp-Name was compared as it is")
			} else {
				r.pass("header-base64-decoded")
			}
		}
	} else {
		r.skip("header-base64-decoded", "no resource or argument-free prompt to name")
	}
	mismatch(r.vehicle+" without Mcp-Method", req{method: r.vehicle, params: disc, header: map[string]string{"Mcp-Method": ""}})
	if r.out.DualEra || slices.Contains(r.out.SupportedVersions, "2025-03-26") {
		r.note("the request without MCP-Protocol-Version is not sent: the server serves 2025-03-26 clients, and may read it as one")
	} else {
		mismatch(r.vehicle+" without MCP-Protocol-Version", req{method: r.vehicle, params: disc, version: "-"})
	}
	{
		step := r.vehicle + " with the MCP header names in lower case"
		x := r.send(req{step: step, method: r.vehicle, params: disc, lower: true, claimCode: true})
		if p, ok := parseResponse(x.Response); ok && x.Response != nil && p.Result != nil {
			r.pass("header-names-case-insensitive")
		} else if x.Err == nil {
			r.failf("header-names-case-insensitive", step, x, "not served: %s", answerText(x))
		}
	}
	r.originProbes(func(extra map[string]string, host string) req {
		return req{method: r.vehicle, params: disc, header: extra, host: host, claimHTTP: true}
	})
	if r.out.DualEra {
		r.skip("http-get-delete-405", "the server also serves older clients, whose GET and DELETE it answers")
	} else {
		for _, m := range []string{http.MethodGet, http.MethodDelete} {
			step := m + " to the endpoint"
			x := r.send(req{step: step, httpMethod: m, headersOnly: true})
			if x.Err != nil {
				continue
			}
			if x.Status == http.StatusMethodNotAllowed {
				r.pass("http-get-delete-405")
			} else {
				r.failf("http-get-delete-405", step, x, "HTTP %d %s, want 405", x.Status, orNone(x.RespHeader.Get("Content-Type")))
			}
		}
	}
	if r.out.DualEra {
		r.note("the request with an Mcp-Session-Id is not sent: the server also serves older clients, whose sessions it may look up")
	} else {
		step := r.vehicle + " with Mcp-Session-Id: mcpgen-check-bogus"
		x := r.send(req{step: step, method: r.vehicle, params: disc, header: map[string]string{"Mcp-Session-Id": "mcpgen-check-bogus"}, claimCode: true})
		if p, ok := parseResponse(x.Response); ok && x.Response != nil && p.Result == nil {
			r.failf("http-no-session-id", step, x, "a request with an Mcp-Session-Id was refused: %s", answerText(x))
		}
	}
}

// answerText says in a few words what came back.
func answerText(x *wire.Exchange) string {
	if p, ok := parseResponse(x.Response); ok && x.Response != nil && p.Error != nil {
		return fmt.Sprintf("HTTP %d, error %s %q", x.Status, string(p.Error.Code), p.Error.Message)
	}
	if x.Err != nil {
		return errText(x.Err)
	}
	return fmt.Sprintf("HTTP %d %s%s", x.Status, orNone(x.RespHeader.Get("Content-Type")), bodyHint(x.Raw))
}

// originProbes sends a request with a foreign Origin and one with a
// foreign Host (loopback URLs only, unless --origin-check).
func (r *run) originProbes(mk func(extra map[string]string, host string) req) {
	if !isLoopback(r.ck.t.URL) && !r.ck.o.OriginCheck {
		r.skip("origin-foreign-403", "not a loopback URL (--origin-check sends the probe anyway)")
		r.skip("host-foreign-rejected", "not a loopback URL (--origin-check sends the probe anyway)")
		return
	}
	u, _ := url.Parse(r.ck.t.URL)
	own := mk(map[string]string{"Origin": u.Scheme + "://" + u.Host}, "")
	own.step = "a request with the URL's own Origin"
	x := r.send(own)
	if p, ok := parseResponse(x.Response); !ok || x.Response == nil || p.Result == nil {
		r.note("a request with Origin %s://%s was not served (%s): the Origin probe would tell nothing", u.Scheme, u.Host, answerText(x))
		r.skip("origin-foreign-403", "the URL's own Origin is refused")
	} else {
		q := mk(map[string]string{"Origin": "http://mcpgen-check.invalid"}, "")
		q.step = "a request with Origin: http://mcpgen-check.invalid"
		x := r.send(q)
		switch {
		case x.Err != nil:
		case x.Status == http.StatusForbidden, r.rev.rules == "2025-06-18" && x.Status >= 400 && x.Status < 500:
			r.pass("origin-foreign-403")
		default:
			r.failf("origin-foreign-403", q.step, x, "served with HTTP %d, want 403", x.Status)
		}
	}
	q := mk(nil, "mcpgen-check.invalid")
	q.step = "a request with Host: mcpgen-check.invalid"
	x = r.send(q)
	switch {
	case x.Err != nil:
	case x.Status >= 400 && x.Status < 500:
		r.pass("host-foreign-rejected")
	default:
		r.failf("host-foreign-rejected", q.step, x, "served with HTTP %d, want a 4xx", x.Status)
	}
}
