package protocol

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/spec"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// This file protects the requestState of multi round-trip requests
// (basic/patterns/mrtr.mdx). The dispatcher wraps the requestState a
// handler hands out (and what the client is asked for) in a token
// authenticated with HMAC-SHA256, bound to the method and the request's
// params, the principal, and an expiry. On the retry it verifies the token
// before the handler runs, gives the handler back its own requestState,
// and checks each input response against the request it answers. A state
// that fails is refused with invalid params (-32602; 400 over HTTP), the
// code basic/patterns/mrtr.mdx gives for malformed input. Replicas that
// share the keys accept each other's states: the token carries everything.
// It is not encrypted: the client can read what the handler puts in its
// requestState, and cannot change it.

// stateSealer seals and opens requestState tokens.
type stateSealer struct {
	keys      [][]byte // the first signs, all verify
	ttl       time.Duration
	principal func(context.Context) string
	now       func() time.Time
}

// defaultStateTTL is how long a requestState stays valid by default.
const defaultStateTTL = 10 * time.Minute

// minStateKey is the shortest key newStateSealer takes.
const minStateKey = 16

// processStateKey is the key of dispatchers not given one: random, made
// once per process, so that only this process accepts their states.
var processStateKey = sync.OnceValue(func() []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		panic("mcp: cannot read random bytes for the requestState key: " + err.Error())
	}
	return k
})

func NewStateSealer(keys [][]byte, ttl time.Duration, principal func(context.Context) string) stateSealer {
	for i, k := range keys {
		if len(k) < minStateKey {
			panic("mcp: RequestStateKeys[" + strconv.Itoa(i) + "] has " + strconv.Itoa(len(k)) + " bytes; a key needs at least " + strconv.Itoa(minStateKey) + " (32 random bytes are best)")
		}
	}
	if len(keys) == 0 {
		keys = [][]byte{processStateKey()}
	}
	if ttl <= 0 {
		ttl = defaultStateTTL
	}
	return stateSealer{keys: keys, ttl: ttl, principal: principal, now: time.Now}
}

// sealedState is the payload of a token.
type sealedState struct {
	Version   int                    `json:"v"`
	Expires   int64                  `json:"e"` // Unix milliseconds
	Method    string                 `json:"m"`
	Params    []byte                 `json:"d"`           // SHA-256 of the salient params
	Principal []byte                 `json:"p,omitempty"` // SHA-256 of the principal
	State     *string                `json:"s,omitempty"` // the handler's requestState
	Inputs    map[string]sealedInput `json:"r,omitempty"` // by inputRequests key
}

// sealedInput is what one input request asked for.
type sealedInput struct {
	Method string `json:"m"`
	// Schema is the requestedSchema of a form elicitation.
	Schema json.RawMessage `json:"s,omitempty"`
}

const stateMAC = "mcp requestState v1\n"

func (s *stateSealer) mac(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(stateMAC))
	m.Write(payload)
	return m.Sum(nil)
}

// seal makes the token for an InputRequiredResult (result, as JSON) that a
// handler returned for a request of method with params.
func (s *stateSealer) seal(ctx context.Context, method string, params, result []byte) (string, error) {
	st := sealedState{
		Version: 1,
		Expires: s.now().Add(s.ttl).UnixMilli(),
		Method:  method,
		Params:  salientDigest(method, params),
	}
	if s.principal != nil {
		st.Principal = principalDigest(s.principal(ctx))
	}
	if raw := codec.Lookup(result, "requestState"); raw != nil && raw[0] == '"' {
		v, _ := HeaderText(raw)
		st.State = &v
	}
	if reqs := codec.Lookup(result, "inputRequests"); reqs != nil && reqs[0] == '{' {
		m, ok := codec.ObjectMembers(reqs)
		if !ok {
			return "", errors.New("mcp: cannot read inputRequests")
		}
		st.Inputs = make(map[string]sealedInput, len(m))
		for k, req := range m {
			st.Inputs[k] = inputOf(req)
		}
	}
	payload, err := json.Marshal(st)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(s.mac(s.keys[0], payload)), nil
}

// inputOf reads what an input request (as JSON) asks for: its method and,
// for a form elicitation, the requestedSchema its answer must match.
func inputOf(req []byte) sealedInput {
	var in sealedInput
	if raw := codec.Lookup(req, "method"); raw != nil && raw[0] == '"' {
		in.Method, _ = HeaderText(raw)
	}
	if in.Method == spec.MethodElicit {
		p := codec.Lookup(req, "params")
		if string(codec.Lookup(p, "mode")) != `"url"` {
			in.Schema = codec.Lookup(p, "requestedSchema")
		}
	}
	return in
}

// open verifies a token and returns its payload, or the reason it is
// refused.
func (s *stateSealer) open(ctx context.Context, token, method string, params []byte) (*sealedState, string) {
	const foreign = "the requestState was not issued by this server, or was altered"
	p64, m64, ok := strings.Cut(token, ".")
	if !ok {
		return nil, foreign
	}
	// Strict: a token has one spelling; without it the unused low bits of
	// the last character could be changed and the token would still open.
	enc := base64.RawURLEncoding.Strict()
	payload, err1 := enc.DecodeString(p64)
	tag, err2 := enc.DecodeString(m64)
	if err1 != nil || err2 != nil {
		return nil, foreign
	}
	good := false
	for _, k := range s.keys {
		if hmac.Equal(tag, s.mac(k, payload)) {
			good = true
		}
	}
	if !good {
		return nil, foreign
	}
	var st sealedState
	if err := json.Unmarshal(payload, &st); err != nil || st.Version != 1 {
		return nil, foreign
	}
	switch {
	case s.now().UnixMilli() >= st.Expires:
		return nil, "the requestState has expired; send the request again without inputResponses and requestState"
	case st.Method != method:
		return nil, "the requestState was issued for " + codec.Quote(st.Method) + ", not " + codec.Quote(method)
	case !bytes.Equal(st.Params, salientDigest(method, params)):
		return nil, "the requestState was issued for a request with other params; a retry repeats the original params"
	}
	var who []byte
	if s.principal != nil {
		who = principalDigest(s.principal(ctx))
	}
	if !bytes.Equal(who, st.Principal) {
		return nil, "the requestState was issued to another principal"
	}
	return &st, ""
}

// principalDigest hashes a principal; the empty principal is none.
func principalDigest(p string) []byte {
	if p == "" {
		return nil
	}
	h := sha256.Sum256([]byte("principal\n" + p))
	return h[:]
}

// salientDigest hashes what identifies a request: the method and its
// params without _meta (per-request metadata) and without what a retry
// adds (inputResponses, requestState), as canonical JSON.
func salientDigest(method string, params []byte) []byte {
	h := sha256.New()
	h.Write([]byte(method))
	h.Write([]byte{'\n'})
	if params != nil {
		m, ok := codec.ObjectMembers(params)
		if ok {
			names := make([]string, 0, len(m))
			for k := range m {
				switch k {
				case spec.MemberMeta, "inputResponses", "requestState":
					continue
				}
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				q, _ := json.Marshal(k)
				h.Write(q)
				h.Write([]byte{':'})
				h.Write([]byte(canonicalJSON(m[k])))
				h.Write([]byte{','})
			}
		} else {
			h.Write(params)
		}
	}
	return h.Sum(nil)
}

// paramError is invalid params (-32602) with one violation as data.
func paramError(pointer, keyword, reason string) error {
	data, _ := json.Marshal(struct {
		Violations []codec.Violation `json:"violations"`
	}{[]codec.Violation{{Pointer: pointer, Keyword: keyword, Message: reason}}})
	return &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: " + pointer + ": " + reason, Data: data}
}

// SealState replaces the requestState of an InputRequiredResult: see seal.
func (c *Core) SealState(ctx context.Context, method string, params, result []byte) (string, error) {
	return c.State.seal(ctx, method, params, result)
}

// OpenState checks the retry of a multi round-trip request before its
// handler runs: the requestState must be a token this server (or a replica
// with the same keys) issued for this method, params and principal, and
// not expired; each input response must be a valid answer to the input
// request of its key. It returns the handler's own requestState (nil when
// it had none) and the inputResponses keys that no input request asked for,
// which the handler does not get. inputResponses without a requestState
// reach the handler as the schema let them through, with no state.
func (c *Core) OpenState(ctx context.Context, method string, params []byte) (state *string, drop []string, err error) {
	rs := codec.Lookup(params, "requestState")
	ir := codec.Lookup(params, "inputResponses")
	var responses map[string][]byte
	if ir != nil && ir[0] == '{' {
		responses, _ = codec.ObjectMembers(ir)
	}
	if rs == nil || rs[0] != '"' {
		// Answers to input requests this server has not sent (it always
		// sends a requestState with them): the schema has checked them,
		// and the handler, which gets no state, decides what they are
		// worth (mrtr.mdx lets a client answer without a state).
		return nil, nil, nil
	}
	token, _ := HeaderText(rs)
	st, reason := c.State.open(ctx, token, method, params)
	if st == nil {
		return nil, nil, paramError("/params/requestState", "requestState", reason)
	}
	keys := make([]string, 0, len(responses))
	for k := range responses {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		in, asked := st.Inputs[k]
		if !asked {
			drop = append(drop, k)
			continue
		}
		if err := c.checkAnswer(in, k, responses[k]); err != nil {
			return nil, nil, err
		}
	}
	return st.State, drop, nil
}

// checkAnswer checks the answer raw to the input request of key k, which
// asked for in: it must be a valid result of the request's method and, for
// an accepted form elicitation, match the requestedSchema. A failure is
// invalid params (-32602) pointing into params.inputResponses.
func (c *Core) checkAnswer(in sealedInput, k string, raw []byte) error {
	at := "/params/inputResponses/" + codec.EscapePointer(k)
	if c.CheckInput != nil {
		if err := c.CheckInput(in.Method, raw); err != nil {
			var ve *codec.ValidationError
			if errors.As(err, &ve) {
				vs, data := jsonrpc.ViolationsUnder(at, ve)
				msg := "invalid params: the answer to input request " + codec.Quote(k) + " (" + in.Method + ") is not valid: " + vs[0].String()
				return &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: msg, Data: data}
			}
			return paramError(at, "type", "the answer to input request "+codec.Quote(k)+" ("+in.Method+") is not valid: "+err.Error())
		}
	}
	if in.Schema != nil && elicitAccepted(raw) {
		if vs := checkElicitContent(in.Schema, codec.Lookup(raw, "content")); len(vs) > 0 {
			for i := range vs {
				vs[i].Pointer = at + "/content" + vs[i].Pointer
			}
			data, _ := json.Marshal(struct {
				Violations []codec.Violation `json:"violations"`
			}{vs})
			msg := "invalid params: the answer to input request " + codec.Quote(k) + " does not match its requestedSchema: " + vs[0].String()
			if len(vs) > 1 {
				msg += " (and " + strconv.Itoa(len(vs)-1) + " more)"
			}
			return &jsonrpc.RPCError{Code: jsonrpc.CodeInvalidParams, Message: msg, Data: data}
		}
	}
	return nil
}

// elicitProperty is what checkElicitContent reads of a property of a
// form elicitation's requestedSchema (PrimitiveSchemaDefinition: string,
// number, integer, boolean, single- and multi-select enums).
type elicitProperty struct {
	Type      string            `json:"type"`
	Format    string            `json:"format"`
	MinLength *int              `json:"minLength"`
	MaxLength *int              `json:"maxLength"`
	Minimum   json.RawMessage   `json:"minimum"`
	Maximum   json.RawMessage   `json:"maximum"`
	Enum      []json.RawMessage `json:"enum"`
	OneOf     []elicitConst     `json:"oneOf"`
	AnyOf     []elicitConst     `json:"anyOf"`
	Items     *elicitProperty   `json:"items"`
	MinItems  *int              `json:"minItems"`
	MaxItems  *int              `json:"maxItems"`
}

type elicitConst struct {
	Const json.RawMessage `json:"const"`
}

// checkElicitContent checks the content of an accepted form elicitation
// against its requestedSchema: required properties are present, and each
// property the schema defines has its type, bounds, format and allowed
// values. Pointers are relative to the content. Properties the schema
// does not define are left alone.
func checkElicitContent(schema, content []byte) []codec.Violation {
	var s struct {
		Properties map[string]*elicitProperty `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil
	}
	if content == nil {
		if len(s.Required) > 0 {
			return []codec.Violation{{Pointer: "", Keyword: "required", Message: "an accepted form elicitation has no content; required: " + codec.QuoteList(s.Required)}}
		}
		return nil
	}
	values, ok := codec.ObjectMembers(content)
	if !ok || content[0] != '{' {
		return []codec.Violation{{Pointer: "", Keyword: "type", Message: "content must be an object"}}
	}
	var vs []codec.Violation
	for _, name := range s.Required {
		if _, ok := values[name]; !ok {
			vs = append(vs, codec.Violation{Pointer: "", Keyword: "required", Message: "missing required member " + codec.Quote(name)})
		}
	}
	names := make([]string, 0, len(values))
	for k := range values {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		p := s.Properties[name]
		if p == nil {
			continue
		}
		if msg, kw := checkElicitValue(p, values[name]); msg != "" {
			vs = append(vs, codec.Violation{Pointer: "/" + codec.EscapePointer(name), Keyword: kw, Message: msg})
		}
	}
	return vs
}

// checkElicitValue checks one value; it returns a message and keyword, or
// "" when the value passes.
func checkElicitValue(p *elicitProperty, v []byte) (msg, keyword string) {
	kind := codec.KindOf(v[0])
	switch p.Type {
	case "string":
		if v[0] != '"' {
			return "must be a string, not " + kind, "type"
		}
		s, _ := HeaderText(v)
		n := utf8.RuneCountInString(s)
		if p.MinLength != nil && n < *p.MinLength {
			return "must have at least " + strconv.Itoa(*p.MinLength) + " characters", "minLength"
		}
		if p.MaxLength != nil && n > *p.MaxLength {
			return "must have at most " + strconv.Itoa(*p.MaxLength) + " characters", "maxLength"
		}
		if f := formatOK(p.Format, s); !f {
			return "is not a valid " + p.Format, "format"
		}
		if !allowed(p, v) {
			return "is not one of the allowed values", "enum"
		}
	case "number", "integer":
		if !codec.IsNumberStart(v[0]) {
			return "must be a number, not " + kind, "type"
		}
		if p.Type == "integer" {
			if _, isInt, _ := codec.ParseInt(v); !isInt {
				return "must be an integer", "type"
			}
		}
		if len(p.Minimum) > 0 && codec.IsNumberStart(p.Minimum[0]) && codec.CmpNumber(v, string(p.Minimum)) < 0 {
			return "must be at least " + string(p.Minimum), "minimum"
		}
		if len(p.Maximum) > 0 && codec.IsNumberStart(p.Maximum[0]) && codec.CmpNumber(v, string(p.Maximum)) > 0 {
			return "must be at most " + string(p.Maximum), "maximum"
		}
	case "boolean":
		if string(v) != "true" && string(v) != "false" {
			return "must be a boolean, not " + kind, "type"
		}
	case "array":
		if v[0] != '[' {
			return "must be an array, not " + kind, "type"
		}
		var items []json.RawMessage
		if err := json.Unmarshal(v, &items); err != nil {
			return "must be an array", "type"
		}
		if p.MinItems != nil && len(items) < *p.MinItems {
			return "must have at least " + strconv.Itoa(*p.MinItems) + " items", "minItems"
		}
		if p.MaxItems != nil && len(items) > *p.MaxItems {
			return "must have at most " + strconv.Itoa(*p.MaxItems) + " items", "maxItems"
		}
		if p.Items != nil {
			for _, it := range items {
				if len(it) == 0 || it[0] != '"' {
					return "items must be strings", "type"
				}
				if !allowed(p.Items, it) {
					return "has an item that is not one of the allowed values: " + string(it), "enum"
				}
			}
		}
	}
	return "", ""
}

// allowed reports whether v is one of the values an enum, oneOf or anyOf
// of consts allows (any value, when the property has none).
func allowed(p *elicitProperty, v []byte) bool {
	var list []json.RawMessage
	list = append(list, p.Enum...)
	for _, c := range p.OneOf {
		list = append(list, c.Const)
	}
	for _, c := range p.AnyOf {
		list = append(list, c.Const)
	}
	if len(list) == 0 {
		return true
	}
	for _, a := range list {
		if len(a) > 0 && codec.JSONEqual(a, v) {
			return true
		}
	}
	return false
}

// formatOK checks the formats a form elicitation's string may declare.
func formatOK(format, s string) bool {
	switch format {
	case "email":
		return codec.FormatEmail(s)
	case "uri":
		return codec.FormatURI(s)
	case "date":
		return codec.FormatDate(s)
	case "date-time":
		return codec.FormatDateTime(s)
	}
	return true
}
