package check

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/check/wire"
)

// initializeResult is what the checker reads of an InitializeResult.
type initializeResult struct {
	ProtocolVersion string                     `json:"protocolVersion"`
	Capabilities    map[string]json.RawMessage `json:"capabilities"`
	ServerInfo      *Server                    `json:"serverInfo"`
}

// initialize sends initialize at rev (the handshake of the legacy
// revisions) and returns the version the server answered, or why none.
func (r *run) initialize(rev string) (string, string) {
	r.modern = false
	r.out.Via = "initialize"
	step := "initialize at " + rev
	x := r.send(req{step: step, method: "initialize", version: "-", noCheck: true,
		params: `{"protocolVersion":` + strconv.Quote(rev) + `,"capabilities":{},"clientInfo":{"name":"mcpgen-check","version":` + strconv.Quote(r.ck.o.Version) + `}}`})
	p, ok := parseResponse(x.Response)
	switch {
	case x.Response == nil || !ok:
		if x.Err != nil {
			return "", step + ": no answer: " + errText(x.Err)
		}
		return "", fmt.Sprintf("%s: HTTP %d %s%s", step, x.Status, orNone(x.RespHeader.Get("Content-Type")), bodyHint(x.Raw))
	case p.Error != nil:
		return "", fmt.Sprintf("%s: error %s %q", step, string(p.Error.Code), p.Error.Message)
	}
	var res initializeResult
	_ = json.Unmarshal(p.Result, &res)
	r.initX, r.initResult = x, p.Result
	r.caps = res.Capabilities
	if r.caps == nil {
		r.caps = map[string]json.RawMessage{}
	}
	r.out.Server = res.ServerInfo
	r.out.Declared = declaredList(r.caps)
	if r.http != nil {
		r.sid = x.RespHeader.Get("Mcp-Session-Id")
	}
	if res.ProtocolVersion == "" {
		return "", step + ": the result names no protocolVersion"
	}
	return res.ProtocolVersion, ""
}

// runLegacy checks a revision of the initialize era once initialized.
func (r *run) runLegacy() {
	switch {
	case r.tr != Stdio:
	case r.ck.probe == nil:
		r.skip("discover-probe-survived", "no server/discover probe was sent (--revision names an older revision)")
	case r.ck.probeExit != "":
		r.failf("discover-probe-survived", "server/discover (the 2026-07-28 probe, another process)", r.ck.probe, "the server exited on the probe instead of answering it or ignoring it (%s): a client that probes first must start it again to fall back to initialize", r.ck.probeExit)
	default:
		r.pass("discover-probe-survived")
	}
	step := "initialize at " + r.rev.name
	if r.initResult != nil {
		r.validate(step, r.initX, r.initResult, "/result", []string{"InitializeResult"}, nil)
	}
	if r.http != nil && r.sid != "" {
		if visibleASCII(r.sid) {
			r.pass("session-id-visible-ascii")
		} else {
			r.failf("session-id-visible-ascii", step, r.initX, "Mcp-Session-Id %q", r.sid)
		}
	}
	r.notificationProbe("notifications/initialized", "notifications/initialized", "", true)
	r.walk()
	if r.dead == nil {
		x := r.send(req{step: "ping", method: "ping"})
		if p, ok := parseResponse(x.Response); ok && x.Response != nil {
			var m map[string]json.RawMessage
			_ = json.Unmarshal(p.Result, &m)
			delete(m, "_meta")
			switch {
			case p.Error != nil:
				r.failf("ping-empty-result", "ping", x, "error %s %q", string(p.Error.Code), p.Error.Message)
			case len(m) > 0:
				r.failf("ping-empty-result", "ping", x, "result %s is not empty", wire.Snip(p.Result, 120))
			default:
				r.pass("ping-empty-result")
			}
		}
	}
	if r.declared("logging") {
		r.send(req{step: "logging/setLevel info", method: "logging/setLevel", params: `{"level":"info"}`, logLevel: true})
		step := `logging/setLevel "mcpgen-check-bogus"`
		x := r.send(req{step: step, method: "logging/setLevel", params: `{"level":"mcpgen-check-bogus"}`, claimCode: true, claimHTTP: true})
		r.expect(step, x, -32602, "logging-invalid-level-32602", "", 0)
	} else {
		r.skip("logging-invalid-level-32602", "logging not declared")
	}
	{
		step := "mcpgen-check/unknown-method"
		x := r.send(req{step: step, method: "mcpgen-check/unknown-method", claimCode: true, claimHTTP: true})
		r.expect(step, x, -32601, "unknown-method-32601", "", 0)
	}
	r.commonProbes()
	if r.http != nil {
		r.probesSession()
	}
	r.calls()
	r.parseErrorProbe()
	if r.http != nil && r.sid != "" {
		r.deleteSession()
	}
	r.close(true)
	r.initializeUnknown()
	skip := ""
	if r.out.Aborted != "" {
		skip = "not run: " + r.out.Aborted
	}
	r.out.finish(r.tr, skip)
}

func visibleASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return s != ""
}

// probesSession sends the HTTP probes of the initialize era.
func (r *run) probesSession() {
	r.originProbes(func(extra map[string]string, host string) req {
		return req{method: "ping", header: extra, host: host, claimHTTP: true}
	})
	if r.sid != "" {
		step := "ping without Mcp-Session-Id"
		x := r.send(req{step: step, method: "ping", noSession: true, claimHTTP: true, claimCode: true})
		switch {
		case x.Err != nil:
		case x.Status == http.StatusBadRequest || x.Status/100 == 2:
			r.pass("session-required-400")
		default:
			r.failf("session-required-400", step, x, "HTTP %d, want 400", x.Status)
		}
	} else {
		r.skip("session-required-400", "the server issued no session")
		r.skip("session-terminated-404", "the server issued no session")
	}
	{
		step := "GET to the endpoint"
		x := r.send(req{step: step, httpMethod: http.MethodGet, headersOnly: true})
		ct := x.RespHeader.Get("Content-Type")
		switch {
		case x.Err != nil:
		case x.Status == http.StatusMethodNotAllowed || (x.Status == 200 && mediaType(ct) == "text/event-stream"):
			r.pass("http-get-sse-or-405")
		default:
			r.failf("http-get-sse-or-405", step, x, "HTTP %d %s, want text/event-stream or 405", x.Status, orNone(ct))
		}
	}
	if r.rev.rules != "2025-03-26" && r.rev.rules != "2024-11-05" {
		step := "ping with MCP-Protocol-Version: 1900-01-01"
		x := r.send(req{step: step, method: "ping", version: "1900-01-01", claimHTTP: true, claimCode: true})
		switch {
		case x.Err != nil:
		case x.Status == http.StatusBadRequest:
			r.pass("http-status-bad-version-header-400")
		default:
			r.failf("http-status-bad-version-header-400", step, x, "HTTP %d, want 400", x.Status)
		}
	}
}

// deleteSession ends the session; a session the server let go must then
// be unknown.
func (r *run) deleteSession() {
	step := "DELETE the session"
	x := r.send(req{step: step, httpMethod: http.MethodDelete, headersOnly: true})
	switch {
	case x.Err != nil:
		return
	case x.Status == http.StatusMethodNotAllowed:
		r.skip("session-terminated-404", "the server does not let clients end sessions (DELETE 405)")
		return
	case x.Status/100 != 2:
		r.skip("session-terminated-404", fmt.Sprintf("DELETE was answered HTTP %d", x.Status))
		return
	}
	step = "ping in the deleted session"
	y := r.send(req{step: step, method: "ping", claimHTTP: true, claimCode: true})
	switch {
	case y.Err != nil:
	case y.Status == http.StatusNotFound:
		r.pass("session-terminated-404")
	default:
		r.failf("session-terminated-404", step, y, "HTTP %d after DELETE %d, want 404", y.Status, x.Status)
	}
	r.sid = ""
}

// initializeUnknown sends initialize at a version no server knows, on a
// connection of its own: the server must offer one it supports.
func (r *run) initializeUnknown() {
	if r.dead != nil {
		return
	}
	f, err := r.fresh()
	if err != nil {
		return
	}
	step := "initialize at 1900-01-01"
	x := f.send(req{step: step, method: "initialize", version: "-", noCheck: true, claimCode: true,
		params: `{"protocolVersion":"1900-01-01","capabilities":{},"clientInfo":{"name":"mcpgen-check","version":` + strconv.Quote(r.ck.o.Version) + `}}`})
	if f.proc != nil {
		f.proc.Kill()
	}
	p, ok := parseResponse(x.Response)
	switch {
	case !ok || x.Response == nil:
		if x.Status != 0 {
			r.failf("initialize-version-negotiation", step, x, "HTTP %d%s, not a result naming a version", x.Status, bodyHint(x.Raw))
		}
		return
	case p.Error != nil:
		r.failf("initialize-version-negotiation", step, x, "refused with error %s %q; the server must answer with a version it supports", string(p.Error.Code), p.Error.Message)
	default:
		var res initializeResult
		_ = json.Unmarshal(p.Result, &res)
		if res.ProtocolVersion == "" || res.ProtocolVersion == "1900-01-01" {
			r.failf("initialize-version-negotiation", step, x, "answered with protocolVersion %q", res.ProtocolVersion)
		} else {
			r.pass("initialize-version-negotiation")
		}
	}
	if sid := x.RespHeader.Get("Mcp-Session-Id"); f.http != nil && sid != "" {
		f.send(req{step: "DELETE the probe's session", httpMethod: http.MethodDelete, version: "-", header: map[string]string{"Mcp-Session-Id": sid}, headersOnly: true})
	}
}
