package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file holds the JSON-level checks of revisions with per-request
// _meta (2026-07-28 and later): the protocol version, the client
// capabilities an answer needs, and the cache key of a request. They read
// JSON rather than the generated types so that they work the same for
// every such revision.

// CheckProtocolVersion answers a request whose params declare a protocol
// version the server does not support with UnsupportedProtocolVersionError
// (-32022). A missing version is left to params validation (-32602), as
// the specification says for a missing required member.
func CheckProtocolVersion(params []byte, supported []string) error {
	raw := codec.Lookup(codec.Lookup(params, spec.MemberMeta), spec.MetaProtocolVersion)
	if raw == nil || raw[0] != '"' {
		return nil
	}
	var d codec.Decoder
	d.InitShared(raw)
	v := d.Str()
	if slices.Contains(supported, v) {
		return nil
	}
	data, _ := json.Marshal(struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}{supported, codec.Clip(v, codec.MaxQuoted)})
	return &jsonrpc.RPCError{Code: spec.CodeUnsupportedProtocolVersion, Message: "unsupported protocol version " + codec.Quote(v) + "; supported: " + codec.QuoteList(supported), Data: data}
}

// RequireClientCapabilities returns MissingRequiredClientCapabilityError
// (-32021) listing the capabilities a request needs and the client did
// not declare; required is a ClientCapabilities value as JSON.
func RequireClientCapabilities(required json.RawMessage) error {
	data := append([]byte(`{"requiredCapabilities":`), required...)
	data = append(data, '}')
	return &jsonrpc.RPCError{Code: spec.CodeMissingRequiredClientCapability, Message: "the request needs client capabilities it did not declare: " + string(required), Data: data}
}

// InputRequestCapabilities checks the inputRequests of an
// InputRequiredResult (as JSON) against the client capabilities declared
// in the request's params and returns RequireClientCapabilities for what
// is missing, or nil. The specification forbids asking a client for input
// it has not declared support for.
func InputRequestCapabilities(params, result []byte) error {
	caps := codec.Lookup(codec.Lookup(params, spec.MemberMeta), spec.MetaClientCapabilities)
	has := func(path ...string) bool {
		v := caps
		for _, p := range path {
			v = codec.Lookup(v, p)
			if v == nil || v[0] != '{' {
				return false
			}
		}
		return true
	}
	need := map[string]map[string]bool{}
	want := func(capability, sub string) {
		if need[capability] == nil {
			need[capability] = map[string]bool{}
		}
		if sub != "" {
			need[capability][sub] = true
		}
	}
	reqs := codec.Lookup(result, "inputRequests")
	if reqs == nil {
		return nil
	}
	var d codec.Decoder
	d.InitShared(reqs)
	if d.Peek() != '{' {
		return nil
	}
	d.Object()
	for first := true; d.NextMember(&first); {
		d.Peek()
		req := d.Raw()
		method := codec.Lookup(req, "method")
		p := codec.Lookup(req, "params")
		switch string(method) {
		case `"elicitation/create"`:
			// An empty elicitation capability means form mode only.
			url := string(codec.Lookup(p, "mode")) == `"url"`
			switch {
			case !has("elicitation"):
				if url {
					want("elicitation", "url")
				} else {
					want("elicitation", "")
				}
			case url && !has("elicitation", "url"):
				want("elicitation", "url")
			case !url && codec.Lookup(caps, "elicitation") != nil && !has("elicitation", "form") && has("elicitation", "url"):
				want("elicitation", "form")
			}
		case `"sampling/createMessage"`:
			tools := codec.Lookup(p, "tools")
			usesTools := tools != nil && tools[0] == '[' && !codec.JSONEqual(tools, []byte("[]"))
			switch {
			case !has("sampling"):
				if usesTools {
					want("sampling", "tools")
				} else {
					want("sampling", "")
				}
			case usesTools && !has("sampling", "tools"):
				want("sampling", "tools")
			}
		case `"roots/list"`:
			if !has("roots") {
				want("roots", "")
			}
		}
	}
	if len(need) == 0 {
		return nil
	}
	names := make([]string, 0, len(need))
	for k := range need {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + k + `":{`)
		subs := make([]string, 0, len(need[k]))
		for s := range need[k] {
			subs = append(subs, s)
		}
		sort.Strings(subs)
		for j, s := range subs {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + s + `":{}`)
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return RequireClientCapabilities(json.RawMessage(b.String()))
}

// CacheKey is the cache key of a request: the method and the params
// that affect the result (all but _meta), as canonical JSON. ok is false
// when the request's result must not be cached: it carries inputResponses
// or requestState (a retry of a multi round-trip request).
func CacheKey(method string, params []byte) (key string, ok bool) {
	var b strings.Builder
	b.WriteString(method)
	b.WriteByte(' ')
	if params == nil {
		b.WriteString("{}")
		return b.String(), true
	}
	var d codec.Decoder
	d.InitShared(params)
	if d.Peek() != '{' {
		return "", false
	}
	d.Object()
	type member struct {
		name  string
		value []byte
	}
	var ms []member
	for first := true; d.NextMember(&first); {
		k := d.Key
		d.Peek()
		v := d.Raw()
		switch k {
		case spec.MemberMeta:
			continue
		case "inputResponses", "requestState":
			return "", false
		}
		ms = append(ms, member{k, v})
	}
	if d.Finish() != nil {
		return "", false
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].name < ms[j].name })
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		q, _ := json.Marshal(m.name)
		b.Write(q)
		b.WriteByte(':')
		b.WriteString(canonicalJSON(m.value))
	}
	b.WriteByte('}')
	return b.String(), true
}

// canonicalJSON renders JSON with object members sorted and no whitespace.
func canonicalJSON(raw []byte) string {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	out, err := json.Marshal(v) // encoding/json sorts map keys
	if err != nil {
		return string(raw)
	}
	return string(out)
}

// InputRequired carries an InputRequiredResult (as JSON) back from a
// handler; see NeedInput.
type InputRequired struct {
	Result jsonrpc.Result
}

func (e *InputRequired) Error() string { return "the request needs more input from the client" }

// AsInputRequired reports whether err carries an input-required result.
func AsInputRequired(err error) (jsonrpc.Result, bool) {
	var ir *InputRequired
	if errors.As(err, &ir) {
		return ir.Result, true
	}
	return nil, false
}

// TTL turns ttlMs into a duration: negative counts as 0, and a value
// too large for a Duration is the largest one.
func TTL(ms int64) time.Duration {
	switch {
	case ms <= 0:
		return 0
	case ms > int64(math.MaxInt64/time.Millisecond):
		return math.MaxInt64
	}
	return time.Duration(ms) * time.Millisecond
}

// RejectInitialize answers the legacy initialize request on a server that
// only speaks revisions without a handshake: the specification asks such a
// server to name the versions it supports, the only diagnostic a legacy
// client can show (basic/versioning.mdx). A legacy client gets
// UnsupportedProtocolVersionError with the supported versions as data. An
// initialize that carries the per-request _meta of a modern revision is a
// modern request for a method the revision does not have: method not found
// (streamable-http.mdx: 404 with -32601), whose message names the versions.
func RejectInitialize(params []byte, supported []string) error {
	if v := codec.Lookup(codec.Lookup(params, spec.MemberMeta), spec.MetaProtocolVersion); v != nil {
		return &jsonrpc.RPCError{Code: jsonrpc.CodeMethodNotFound,
			Message: `method not found: "initialize" (this server has no initialize handshake; it supports protocol versions ` + codec.QuoteList(supported) + `)`}
	}
	requested := ""
	if raw := codec.Lookup(params, "protocolVersion"); raw != nil && raw[0] == '"' {
		var d codec.Decoder
		d.InitShared(raw)
		requested = d.Str()
	}
	data, _ := json.Marshal(struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}{supported, codec.Clip(requested, codec.MaxQuoted)})
	return &jsonrpc.RPCError{Code: spec.CodeUnsupportedProtocolVersion,
		Message: "this server has no initialize handshake; it supports protocol versions " + codec.QuoteList(supported) + " (send server/discover)",
		Data:    data}
}

// CheckInputRequired enforces what the schema cannot say: an
// InputRequiredResult carries inputRequests or requestState (basic/patterns/mrtr).
func CheckInputRequired(result []byte) error {
	if codec.Lookup(result, "inputRequests") == nil && codec.Lookup(result, "requestState") == nil {
		return &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: "internal error: the handler's InputRequiredResult has neither inputRequests nor requestState"}
	}
	return nil
}

// OnlyMissing reports whether err is a *ValidationError whose one
// violation is that the top-level object lacks the member name.
func OnlyMissing(err error, name string) bool {
	var ve *codec.ValidationError
	if !errors.As(err, &ve) || len(ve.Violations) != 1 {
		return false
	}
	v := ve.Violations[0]
	return v.Pointer == "" && v.Keyword == "required" && v.Message == "missing required member "+strconv.Quote(name)
}

// ResultKind reads the resultType of a result: "complete" (also when
// absent: a server of an earlier revision) or "input_required" (where the
// method allows it). Any other value is an error: the specification says a
// client must treat an unrecognized resultType as invalid.
func ResultKind(result []byte, inputRequired bool) (isInputRequired bool, err error) {
	raw := codec.Lookup(result, spec.MemberResultType)
	switch string(raw) {
	case "", `"complete"`:
		return false, nil
	case `"input_required"`:
		if inputRequired {
			return true, nil
		}
	}
	return false, fmt.Errorf("mcp: unrecognized resultType %s", raw)
}
