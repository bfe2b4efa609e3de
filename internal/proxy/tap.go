package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// A Violation is one schema rule a message crossing the proxy broke.
type Violation struct {
	// Side is "downstream" (the proxy's clients) or "upstream" (its
	// server); Version is that side's protocol version.
	Side, Version string
	// Method is the request's method; Part is "params" or "result".
	Method, Part string
	// Pointer is the JSON pointer of the offending value in the part;
	// Keyword the schema rule; Message says what is wrong.
	Pointer, Keyword, Message string
}

func (v Violation) String() string {
	return fmt.Sprintf("%s %s %s %s: %s: %s: %s", v.Side, v.Version, v.Method, v.Part, pointerText(v.Pointer), v.Keyword, v.Message)
}

func pointerText(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

// Tap checks every message the proxy forwards against its side's revision
// schema and keeps count. It is safe for concurrent use.
type Tap struct {
	logger *slog.Logger
	strict bool
	fast   *Proxy // the proxy whose fast path the tap's requests take, or nil

	checked, hits, misses atomic.Int64
	mu                    sync.Mutex
	counts                map[string]int // side method part pointer keyword -> n
	first                 []Violation    // the first maxKept violations
	// unchecked counts, by side and method, the messages received that
	// the tap has no schema rule for (the initialize handshake, which the
	// dispatcher answers itself, and the upstream's notifications).
	unchecked map[string]int
}

// maxKept bounds the violations a Tap keeps (the counts go on), and
// maxCounted the distinct violations it counts apart: past it, the
// violations of a new kind are counted together under otherKinds, so
// that a peer that breaks rules at ever new pointers costs no more
// memory.
const (
	maxKept    = 100
	maxCounted = 1000
	otherKinds = "(other violations, past the first 1000 kinds)"
)

func newTap(logger *slog.Logger, strict bool) *Tap {
	return &Tap{logger: logger, strict: strict, counts: map[string]int{}, unchecked: map[string]int{}}
}

func (t *Tap) hit()  { t.hits.Add(1) }
func (t *Tap) miss() { t.misses.Add(1) }

// Checked returns how many messages (params or a result) the tap checked
// against their revision's schema.
func (t *Tap) Checked() int64 { return t.checked.Load() }

// Unchecked returns how many messages of each side and method ("downstream
// initialize") crossed without a schema check: those the tap has no rule
// for.
func (t *Tap) Unchecked() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return maps.Clone(t.unchecked)
}

func (t *Tap) pass(side, method, part string) {
	t.mu.Lock()
	t.unchecked[side+" "+method+" "+part]++
	t.mu.Unlock()
}

// CacheHits and CacheMisses count the cacheable requests answered from
// the cache and forwarded.
func (t *Tap) CacheHits() int64   { return t.hits.Load() }
func (t *Tap) CacheMisses() int64 { return t.misses.Load() }

// Violations returns the first violations seen (at most 100).
func (t *Tap) Violations() []Violation {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Violation(nil), t.first...)
}

// Summary is the tap's record for a person: messages checked, cache hits
// and misses, and each distinct violation with its count.
func (t *Tap) Summary() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	total := 0
	for _, n := range t.counts {
		total += n
	}
	unchecked := 0
	for _, n := range t.unchecked {
		unchecked += n
	}
	fmt.Fprintf(&b, "mcpgen proxy: %d messages checked, %d violations, %d not checked; cache: %d hits, %d misses\n", t.checked.Load(), total, unchecked, t.hits.Load(), t.misses.Load())
	if unchecked > 0 {
		keys := make([]string, 0, len(t.unchecked))
		for k := range t.unchecked {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%dx %s", t.unchecked[k], k))
		}
		fmt.Fprintf(&b, "  not checked (no schema rule here): %s\n", strings.Join(parts, ", "))
	}
	keys := make([]string, 0, len(t.counts))
	for k := range t.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "  %dx %s\n", t.counts[k], k)
	}
	return b.String()
}

// record logs and counts the violations of err, which checked a part of
// a message; it returns them.
func (t *Tap) record(side, version, method, part string, err error) []Violation {
	var vs []Violation
	var ve *codec.ValidationError
	var ce *protocol.ConversionError
	switch {
	case errors.As(err, &ve):
		for _, v := range ve.Violations {
			vs = append(vs, Violation{Side: side, Version: version, Method: method, Part: part, Pointer: v.Pointer, Keyword: v.Keyword, Message: v.Message})
		}
	case errors.As(err, &ce):
		vs = append(vs, Violation{Side: side, Version: version, Method: method, Part: part, Pointer: ce.Pointer, Keyword: "conversion", Message: ce.Message})
	default:
		vs = append(vs, Violation{Side: side, Version: version, Method: method, Part: part, Keyword: "syntax", Message: err.Error()})
	}
	t.mu.Lock()
	for _, v := range vs {
		k := fmt.Sprintf("%s %s %s %s %s %s", v.Side, v.Version, v.Method, v.Part, pointerText(v.Pointer), v.Keyword)
		if _, ok := t.counts[k]; !ok && len(t.counts) >= maxCounted {
			k = otherKinds
		}
		t.counts[k]++
		if len(t.first) < maxKept {
			t.first = append(t.first, v)
		}
	}
	t.mu.Unlock()
	if t.logger != nil {
		for _, v := range vs {
			t.logger.Warn("mcpgen proxy: schema violation", "side", v.Side, "version", v.Version, "method", v.Method, "part", v.Part, "pointer", v.Pointer, "rule", v.Keyword, "message", v.Message)
		}
	}
	return vs
}

// refusal is the error a strict tap answers with.
func refusal(vs []Violation) error {
	v := vs[0]
	return &jsonrpc.RPCError{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("mcpgen proxy: the %s's %s of %s breaks the %s schema at %s (%s): %s", v.Side, v.Part, v.Method, v.Version, pointerText(v.Pointer), v.Keyword, v.Message)}
}

// upstream is the upstream client's middleware: it checks each result the
// upstream sends against the upstream's revision and keeps an
// InputRequiredResult for forwardInput.
func (t *Tap) upstream(next mcp.Handler) mcp.Handler {
	return func(ctx context.Context, req *mcp.Call) (jsonrpc.Result, error) {
		res, err := next(ctx, req)
		if !req.Sent {
			// A notification or request of the upstream's own (a list
			// change, an older server's roots/list), of the upstream's
			// revision.
			version := req.ProtocolVersion()
			if version == "" && t.fast != nil {
				version = t.fast.up.ProtocolVersion()
			}
			if _, checked, cerr := checkParams(version, req.Method, req.Params); !checked {
				t.pass("upstream", req.Method, "params")
			} else {
				t.checked.Add(1)
				if cerr != nil {
					t.record("upstream", version, req.Method, "params", cerr)
				}
			}
			return res, err
		}
		if err != nil || req.Notification {
			return res, err
		}
		raw, ok := res.(jsonrpc.RawResult)
		if !ok {
			return res, err
		}
		version := req.ProtocolVersion()
		checked, cerr := checkResult(version, req.Method, raw)
		if !checked {
			t.pass("upstream", req.Method, "result")
		} else {
			t.checked.Add(1)
		}
		if cerr != nil {
			vs := t.record("upstream", version, req.Method, "result", cerr)
			if t.strict {
				return nil, refusal(vs)
			}
		}
		if fc := fastOf(ctx); fc != nil && cerr == nil && version == mcp.ProtocolVersion {
			if ir, _ := protocol.ResultKind(raw, true); !ir {
				fc.raw = json.RawMessage(raw)
				return nil, errRaw
			}
		}
		if slot, _ := ctx.Value(inputSlotKey{}).(*inputSlot); slot != nil && version == mcp.ProtocolVersion {
			if ir, _ := protocol.ResultKind(raw, true); ir {
				slot.raw = append(slot.raw[:0], raw...)
			}
		}
		return res, err
	}
}

// downstream is the dispatcher's middleware: it checks each request a
// downstream client sends against that client's revision (the dispatcher
// refuses what breaks it in any case) and each result going down.
func (t *Tap) downstream(next mcp.Handler) mcp.Handler {
	return func(ctx context.Context, req *mcp.Call) (jsonrpc.Result, error) {
		if req.Sent {
			return next(ctx, req)
		}
		version := req.ProtocolVersion()
		params, checked, cerr := checkParams(version, req.Method, req.Params)
		if checked {
			t.checked.Add(1)
		} else {
			t.pass("downstream", req.Method, "params")
		}
		if cerr != nil {
			t.record("downstream", version, req.Method, "params", cerr)
		}
		var res jsonrpc.Result
		var err error
		if cerr == nil && params != nil && t.fast != nil && t.fast.fastOK(req, version) {
			res, err = t.fast.fast(ctx, req, params, next)
		} else {
			res, err = next(ctx, req)
		}
		if err != nil || req.Notification {
			return res, err
		}
		switch v := res.(type) {
		case interface{ Validate() error }:
			t.checked.Add(1)
			if cerr := v.Validate(); cerr != nil {
				vs := t.record("downstream", mcp.ProtocolVersion, req.Method, "result", cerr)
				if t.strict {
					return nil, refusal(vs)
				}
			}
		case jsonrpc.RawResult:
			if version == mcp.ProtocolVersion {
				// The fast path's: the upstream's result as it came (or
				// as the cache kept it), checked then and found clean.
				t.checked.Add(1)
				break
			}
			// An older client's result, converted to its revision.
			checked, cerr := checkResult(version, req.Method, v)
			if !checked {
				t.pass("downstream", req.Method, "result")
				break
			}
			t.checked.Add(1)
			if cerr != nil {
				vs := t.record("downstream", version, req.Method, "result", cerr)
				if t.strict {
					return nil, refusal(vs)
				}
			}
		}
		return res, err
	}
}

// validatable is a generated value that decodes and checks itself.
type validatable interface {
	UnmarshalJSON([]byte) error
	Validate() error
}

// modernParams and modernResults make the 2026-07-28 params and results
// of the methods the proxy forwards.
var modernParams = map[string]func() validatable{
	mcp.MethodListTools:             func() validatable { return new(mcp.PaginatedRequestParams) },
	mcp.MethodListPrompts:           func() validatable { return new(mcp.PaginatedRequestParams) },
	mcp.MethodListResources:         func() validatable { return new(mcp.PaginatedRequestParams) },
	mcp.MethodListResourceTemplates: func() validatable { return new(mcp.PaginatedRequestParams) },
	mcp.MethodReadResource:          func() validatable { return new(mcp.ReadResourceRequestParams) },
	mcp.MethodCallTool:              func() validatable { return new(mcp.CallToolRequestParams) },
	mcp.MethodGetPrompt:             func() validatable { return new(mcp.GetPromptRequestParams) },
	mcp.MethodComplete:              func() validatable { return new(mcp.CompleteRequestParams) },
	mcp.MethodDiscover:              func() validatable { return new(mcp.RequestParams) },
}

var modernResults = map[string]func() validatable{
	mcp.MethodListTools:             func() validatable { return new(mcp.ListToolsResult) },
	mcp.MethodListPrompts:           func() validatable { return new(mcp.ListPromptsResult) },
	mcp.MethodListResources:         func() validatable { return new(mcp.ListResourcesResult) },
	mcp.MethodListResourceTemplates: func() validatable { return new(mcp.ListResourceTemplatesResult) },
	mcp.MethodReadResource:          func() validatable { return new(mcp.ReadResourceResult) },
	mcp.MethodCallTool:              func() validatable { return new(mcp.CallToolResult) },
	mcp.MethodGetPrompt:             func() validatable { return new(mcp.GetPromptResult) },
	mcp.MethodComplete:              func() validatable { return new(mcp.CompleteResult) },
	mcp.MethodDiscover:              func() validatable { return new(mcp.DiscoverResult) },
}

// older returns the conversions of version, or nil.
func older(version string) *mcp.Older {
	for _, o := range mcp.OlderRevisions {
		if o.Revision() == version {
			return o
		}
	}
	return nil
}

// handshake are the parts of the older revisions' schemas (below their
// definitions) that the messages the dispatcher answers itself, with no
// conversion, are checked against.
var handshake = map[string]struct{ params, result string }{
	"initialize":                {"/InitializeRequest/properties/params", "/InitializeResult"},
	"notifications/initialized": {"/InitializedNotification/properties/params", ""},
	"logging/setLevel":          {"/SetLevelRequest/properties/params", "/EmptyResult"},
	"ping":                      {"/PingRequest/properties/params", "/EmptyResult"},
}

// checkOlder checks data (absent params: nil, which every params member
// of these allows unless the message requires it) against o's schema at
// path.
func checkOlder(o *mcp.Older, path string, data []byte) error {
	if data == nil {
		if strings.HasSuffix(path, "/properties/params") && path != "/InitializeRequest/properties/params" && path != "/SetLevelRequest/properties/params" {
			return nil
		}
		return &codec.ValidationError{Violations: []codec.Violation{{Keyword: "required", Message: "params are required"}}}
	}
	return o.Validate(path, data)
}

// checkParams checks a request's params against version's schema and
// says whether it did: methods it does not know are not checked (the
// dispatcher answers them). The params of 2026-07-28 come back decoded.
func checkParams(version, method string, params []byte) (validatable, bool, error) {
	if method == "initialize" {
		// Checked as the revision it asks for (the newest older one if
		// the proxy does not serve that).
		version, _ = protocol.HeaderText(codec.Lookup(params, "protocolVersion"))
		if older(version) == nil {
			version = mcp.OlderRevisions[0].Revision()
		}
	}
	if o := older(version); o != nil {
		if h, ok := handshake[method]; ok {
			return nil, true, checkOlder(o, h.params, params)
		}
		if !o.Carries(method) {
			return nil, false, nil
		}
		_, err := o.ParamsFromOlder(method, params)
		return nil, true, err
	}
	mk := modernParams[method]
	if mk == nil || version != mcp.ProtocolVersion || params == nil {
		return nil, false, nil
	}
	v := mk()
	return v, true, codec.UnmarshalAndValidate(params, v)
}

// checkResult checks a result against version's schema and says whether
// it did. An InputRequiredResult is checked as one.
func checkResult(version, method string, result []byte) (bool, error) {
	if method == "initialize" {
		// Checked as the revision it answers.
		version, _ = protocol.HeaderText(codec.Lookup(result, "protocolVersion"))
	}
	if o := older(version); o != nil {
		if h, ok := handshake[method]; ok && h.result != "" {
			return true, checkOlder(o, h.result, result)
		}
		if !o.Carries(method) {
			return false, nil
		}
		_, err := o.ResultFromOlder(method, result)
		return true, err
	}
	mk := modernResults[method]
	if mk == nil || version != mcp.ProtocolVersion {
		return false, nil
	}
	if ir, _ := protocol.ResultKind(result, true); ir {
		return true, codec.UnmarshalAndValidate(result, new(mcp.InputRequiredResult))
	}
	return true, codec.UnmarshalAndValidate(result, mk())
}
