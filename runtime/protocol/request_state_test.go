package protocol

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// The requestState protection of multi round-trip requests, at the level
// of the runtime: sealing, opening, and checking input responses.

const testInputRequests = `{"inputRequests":{` +
	`"login":{"method":"elicitation/create","params":{"mode":"form","message":"Who?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","minLength":2},"age":{"type":"integer","minimum":0},"tier":{"type":"string","enum":["a","b"]}},"required":["name"]}}},` +
	`"docs":{"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://x.example/a","elicitationId":"e1"}},` +
	`"roots":{"method":"roots/list"}},` +
	`"requestState":"app-state"}`

type principalKey struct{}

func testSealer(keys ...string) stateSealer {
	var ks [][]byte
	for _, k := range keys {
		ks = append(ks, []byte(k))
	}
	return NewStateSealer(ks, time.Minute, func(ctx context.Context) string {
		s, _ := ctx.Value(principalKey{}).(string)
		return s
	})
}

const key1, key2 = "0123456789abcdef-key-one", "0123456789abcdef-key-two"

func sealFor(t *testing.T, d *Core, ctx context.Context, method, params string) string {
	t.Helper()
	tok, err := d.SealState(ctx, method, []byte(params), []byte(testInputRequests))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// retry is the params of a retry carrying responses and a state.
func retry(params, responses, state string) string {
	p := strings.TrimSuffix(params, "}")
	if responses != "" {
		p += `,"inputResponses":` + responses
	}
	if state != "" {
		p += `,"requestState":` + quoteJSON(state)
	}
	return p + "}"
}

// checkTypes stands in for the generated checkInputResponse: an
// elicitation answer needs an action, a roots answer a roots array.
func checkTypes(method string, raw []byte) error {
	switch method {
	case "elicitation/create":
		if a := codec.Lookup(raw, "action"); a == nil || a[0] != '"' {
			return &codec.ValidationError{Violations: []codec.Violation{{Pointer: "", Keyword: "required", Message: `missing required member "action"`}}}
		}
	case "roots/list":
		if r := codec.Lookup(raw, "roots"); r == nil || r[0] != '[' {
			return errors.New("not a ListRootsResult")
		}
	}
	return nil
}

func stateDispatcher(keys ...string) *Core {
	return &Core{State: testSealer(keys...), CheckInput: checkTypes}
}

func wantInvalidParams(t *testing.T, err error, pointer, part string) {
	t.Helper()
	var re *jsonrpc.RPCError
	if !errors.As(err, &re) || re.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("got %v, want invalid params", err)
	}
	if !strings.Contains(re.Message, part) {
		t.Errorf("message %q does not contain %q", re.Message, part)
	}
	var data struct {
		Violations []codec.Violation `json:"violations"`
	}
	if err := json.Unmarshal(re.Data, &data); err != nil || len(data.Violations) == 0 || data.Violations[0].Pointer != pointer {
		t.Errorf("data %s: want a violation at %s", re.Data, pointer)
	}
}

func TestRequestStateRoundTrip(t *testing.T) {
	d := stateDispatcher(key1)
	ctx := context.WithValue(context.Background(), principalKey{}, "alice")
	params := `{"_meta":{"x":1},"name":"t","arguments":{"b":2,"a":1}}`
	tok := sealFor(t, d, ctx, "tools/call", params)
	if strings.Contains(tok, "app-state") {
		t.Errorf("the token shows the state in clear text: %s", tok)
	}
	// A retry with other _meta and the arguments in another order is the
	// same request.
	good := retry(`{"_meta":{"y":2},"arguments":{"a":1,"b":2},"name":"t"}`,
		`{"login":{"action":"accept","content":{"name":"Ann","age":30,"tier":"b"}},"roots":{"roots":[]},"extra":{"x":1}}`, tok)
	st, drop, err := d.OpenState(ctx, "tools/call", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if st == nil || *st != "app-state" {
		t.Errorf("state %v, want the handler's app-state", st)
	}
	if len(drop) != 1 || drop[0] != "extra" {
		t.Errorf("drop %v, want [extra]: a response nobody asked for", drop)
	}
	// A further round reuses the params with the state of round one.
	if _, _, err := d.OpenState(ctx, "tools/call", []byte(retry(params, `{}`, tok))); err != nil {
		t.Errorf("retry without answers: %v", err)
	}
	// No state and no responses: a first request.
	if st, drop, err := d.OpenState(ctx, "tools/call", []byte(params)); st != nil || drop != nil || err != nil {
		t.Errorf("first request: %v %v %v", st, drop, err)
	}
	// A replica with the same key (and one that rotated it in second
	// place) accepts it.
	for _, r := range []*Core{stateDispatcher(key1), stateDispatcher(key2, key1)} {
		if _, _, err := r.OpenState(ctx, "tools/call", []byte(good)); err != nil {
			t.Errorf("replica: %v", err)
		}
	}
}

const base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

func TestRequestStateRefused(t *testing.T) {
	d := stateDispatcher(key1)
	ctx := context.WithValue(context.Background(), principalKey{}, "alice")
	params := `{"name":"t","arguments":{"a":1}}`
	tok := sealFor(t, d, ctx, "tools/call", params)
	payload, tag, _ := strings.Cut(tok, ".")
	raw, _ := base64.RawURLEncoding.DecodeString(payload)
	altered := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), "app-state", "adm-state", 1))) + "." + tag
	flipped := []byte(tok)
	flipped[len(flipped)-3] ^= 1
	// The tag's last character carries two unused bits: setting one
	// spells the same bytes another way, which must not open either.
	respelled := []byte(tok)
	last := strings.IndexByte(base64url, respelled[len(respelled)-1])
	respelled[len(respelled)-1] = base64url[last|1]
	cases := []struct {
		name   string
		d      *Core
		ctx    context.Context
		method string
		params string
		part   string
	}{
		{"altered payload", d, ctx, "tools/call", retry(params, "", altered), "not issued by this server"},
		{"altered tag", d, ctx, "tools/call", retry(params, "", string(flipped)), "not issued by this server"},
		{"respelled tag", d, ctx, "tools/call", retry(params, "", string(respelled)), "not issued by this server"},
		{"made up", d, ctx, "tools/call", retry(params, "", "eyJ2IjoxfQ.AAAA"), "not issued by this server"},
		{"not a token", d, ctx, "tools/call", retry(params, "", "app-state"), "not issued by this server"},
		{"foreign key", stateDispatcher(key2), ctx, "tools/call", retry(params, "", tok), "not issued by this server"},
		{"other method", d, ctx, "prompts/get", retry(params, "", tok), `issued for "tools/call"`},
		{"other params", d, ctx, "tools/call", retry(`{"name":"t","arguments":{"a":2}}`, "", tok), "other params"},
		{"other principal", d, context.WithValue(ctx, principalKey{}, "mallory"), "tools/call", retry(params, "", tok), "another principal"},
		{"no principal", d, context.Background(), "tools/call", retry(params, "", tok), "another principal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := c.d.OpenState(c.ctx, c.method, []byte(c.params))
			wantInvalidParams(t, err, "/params/requestState", c.part)
		})
	}
	// Expired.
	late := stateDispatcher(key1)
	late.State.now = func() time.Time { return time.Now().Add(time.Minute + time.Second) }
	_, _, err := late.OpenState(ctx, "tools/call", []byte(retry(params, "", tok)))
	wantInvalidParams(t, err, "/params/requestState", "expired")
	// Responses without a state reach the handler, with no state.
	if st, drop, err := d.OpenState(ctx, "tools/call", []byte(retry(params, `{"login":{"action":"cancel"}}`, ""))); st != nil || drop != nil || err != nil {
		t.Errorf("responses without a state: %v %v %v", st, drop, err)
	}
}

func TestInputResponsesChecked(t *testing.T) {
	d := stateDispatcher(key1)
	ctx := context.Background()
	params := `{"name":"t"}`
	tok := sealFor(t, d, ctx, "tools/call", params)
	cases := []struct {
		name      string
		responses string
		pointer   string // "" when they pass
		part      string
	}{
		{"accepted", `{"login":{"action":"accept","content":{"name":"Ann"}}}`, "", ""},
		{"declined without content", `{"login":{"action":"decline"}}`, "", ""},
		{"url mode accept", `{"docs":{"action":"accept"}}`, "", ""},
		{"wrong kind of answer", `{"login":{"roots":[]}}`, "/params/inputResponses/login", "elicitation/create"},
		{"roots answer that is not one", `{"roots":{"action":"accept"}}`, "/params/inputResponses/roots", "not a ListRootsResult"},
		{"missing required content", `{"login":{"action":"accept","content":{"age":3}}}`, "/params/inputResponses/login/content", `missing required member "name"`},
		{"no content", `{"login":{"action":"accept"}}`, "/params/inputResponses/login/content", "no content"},
		{"string too short", `{"login":{"action":"accept","content":{"name":"A"}}}`, "/params/inputResponses/login/content/name", "at least 2"},
		{"wrong type", `{"login":{"action":"accept","content":{"name":"Ann","age":"old"}}}`, "/params/inputResponses/login/content/age", "must be a number"},
		{"not an integer", `{"login":{"action":"accept","content":{"name":"Ann","age":1.5}}}`, "/params/inputResponses/login/content/age", "integer"},
		{"below minimum", `{"login":{"action":"accept","content":{"name":"Ann","age":-1}}}`, "/params/inputResponses/login/content/age", "at least 0"},
		{"not in enum", `{"login":{"action":"accept","content":{"name":"Ann","tier":"c"}}}`, "/params/inputResponses/login/content/tier", "allowed values"},
		{"unknown member left alone", `{"login":{"action":"accept","content":{"name":"Ann","zzz":[1]}}}`, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := d.OpenState(ctx, "tools/call", []byte(retry(params, c.responses, tok)))
			if c.pointer == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantInvalidParams(t, err, c.pointer, c.part)
		})
	}
}

func TestElicitContentKinds(t *testing.T) {
	schema := `{"type":"object","properties":{` +
		`"email":{"type":"string","format":"email"},` +
		`"when":{"type":"string","format":"date"},` +
		`"ok":{"type":"boolean"},` +
		`"n":{"type":"number","maximum":10},` +
		`"pick":{"type":"string","oneOf":[{"const":"x","title":"X"},{"const":"y","title":"Y"}]},` +
		`"many":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":1,"maxItems":2},` +
		`"titled":{"type":"array","items":{"anyOf":[{"const":"p"},{"const":"q"}]}}}}`
	for _, c := range []struct {
		content string
		bad     string // pointer of the violation, "" for none
	}{
		{`{"email":"a@example.com","when":"2026-01-31","ok":true,"n":10,"pick":"y","many":["a","c"],"titled":["q"]}`, ""},
		{`{"email":"not an address"}`, "/email"},
		{`{"when":"2026-02-30"}`, "/when"},
		{`{"ok":"yes"}`, "/ok"},
		{`{"n":10.5}`, "/n"},
		{`{"pick":"z"}`, "/pick"},
		{`{"many":[]}`, "/many"},
		{`{"many":["a","b","c"]}`, "/many"},
		{`{"many":["d"]}`, "/many"},
		{`{"many":[1]}`, "/many"},
		{`{"titled":["p","r"]}`, "/titled"},
		{`[]`, ""},
	} {
		vs := checkElicitContent([]byte(schema), []byte(c.content))
		switch {
		case c.content == `[]`:
			if len(vs) != 1 || vs[0].Keyword != "type" {
				t.Errorf("%s: %v", c.content, vs)
			}
		case c.bad == "" && len(vs) > 0:
			t.Errorf("%s: %v", c.content, vs)
		case c.bad != "" && (len(vs) != 1 || vs[0].Pointer != c.bad):
			t.Errorf("%s: %v, want one violation at %s", c.content, vs, c.bad)
		}
	}
}

func TestStateKeys(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a short key was taken")
		}
	}()
	a, b := NewStateSealer(nil, 0, nil), NewStateSealer(nil, 0, nil)
	if string(a.keys[0]) != string(b.keys[0]) || len(a.keys[0]) != 32 || a.ttl != defaultStateTTL {
		t.Error("the default key is not one per process, or the default TTL is off")
	}
	NewStateSealer([][]byte{[]byte("short")}, 0, nil)
}

func TestSalientDigest(t *testing.T) {
	a := salientDigest("m", []byte(`{"a":1,"b":{"y":1,"x":[1,2]},"_meta":{"q":1},"requestState":"s","inputResponses":{}}`))
	b := salientDigest("m", []byte(` { "b" : {"x":[1,2],"y":1}, "a":1 } `))
	if string(a) != string(b) {
		t.Error("the digest depends on member order, whitespace, _meta or the retry's members")
	}
	if string(a) == string(salientDigest("n", []byte(`{"a":1,"b":{"y":1,"x":[1,2]}}`))) ||
		string(a) == string(salientDigest("m", []byte(`{"a":1,"b":{"y":1,"x":[2,1]}}`))) {
		t.Error("the digest ignores the method or the params")
	}
}
