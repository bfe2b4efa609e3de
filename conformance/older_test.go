package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/testenv"
)

// This file tests the conversions between 2026-07-28 and the older
// revisions it serves (generated/mcp20260728/older_*.go) on real messages:
// the official 2026-07-28 examples converted down, and hand-written
// messages of every older revision (testdata/older/<revision>.json).

// eraKeys are the members the conversions to an older revision drop on
// purpose (documented, pinned by TestOlderDrops): comparing a 2026-07-28
// message with what comes back from an older revision leaves them out.
var eraKeys = []string{
	"resultType", "ttlMs", "cacheScope",
	"io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities",
	"io.modelcontextprotocol/clientInfo", "io.modelcontextprotocol/logLevel",
	"io.modelcontextprotocol/serverInfo", "io.modelcontextprotocol/subscriptionId",
}

// canonical decodes JSON into a tree for comparison: numbers by exact
// value, an empty _meta the same as none (the conversions say so: a
// required _meta of 2026-07-28 cannot tell them apart), and, with drop,
// without the era members.
func canonical(t *testing.T, data []byte, drop bool) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if drop && slices.Contains(eraKeys, k) {
					delete(v, k)
					continue
				}
				v[k] = walk(x)
				if m, ok := v[k].(map[string]any); ok && k == "_meta" && len(m) == 0 {
					delete(v, k)
				}
			}
			return v
		case []any:
			for i := range v {
				v[i] = walk(v[i])
			}
			return v
		case json.Number:
			r, ok := new(big.Rat).SetString(string(v))
			if !ok {
				t.Fatalf("number %s", v)
			}
			return r.RatString()
		}
		return v
	}
	return walk(v)
}

// sameJSON fails the test when a and b are not the same value (see
// canonical).
func sameJSON(t *testing.T, what string, a, b []byte, drop bool) {
	t.Helper()
	if !reflect.DeepEqual(canonical(t, a, drop), canonical(t, b, drop)) {
		t.Errorf("%s differs:\n  %s\n  %s", what, a, b)
	}
}

// methodValues decodes 2026-07-28 params or results of a method into the
// values the conversions take.
type methodValues struct {
	params, result func(data []byte) (any, error)
}

// newMethods are the 2026-07-28 methods and input requests, by name.
func newMethods() map[string]methodValues {
	out := map[string]methodValues{}
	for _, m := range mcp.Methods {
		mv := methodValues{}
		if m.NewParams != nil {
			newParams := m.NewParams
			mv.params = func(b []byte) (any, error) {
				v := newParams()
				return v, mcp.UnmarshalAndValidate(b, v)
			}
		}
		if m.NewResult != nil {
			newResult := m.NewResult
			mv.result = func(b []byte) (any, error) {
				v := newResult()
				return v, mcp.UnmarshalAndValidate(b, v)
			}
		}
		out[m.Name] = mv
	}
	out["elicitation/create"] = methodValues{
		params: func(b []byte) (any, error) {
			var h mcp.ElicitRequestParamsHolder
			err := mcp.UnmarshalAndValidate(b, &h)
			return h.Value, err
		},
		result: func(b []byte) (any, error) { v := new(mcp.ElicitResult); return v, mcp.UnmarshalAndValidate(b, v) },
	}
	out["sampling/createMessage"] = methodValues{
		params: func(b []byte) (any, error) {
			v := new(mcp.CreateMessageRequestParams)
			return v, mcp.UnmarshalAndValidate(b, v)
		},
		result: func(b []byte) (any, error) {
			v := new(mcp.CreateMessageResult)
			return v, mcp.UnmarshalAndValidate(b, v)
		},
	}
	out["roots/list"] = methodValues{
		params: func(b []byte) (any, error) {
			var r mcp.ListRootsRequest
			err := r.UnmarshalJSON([]byte(`{"method":"roots/list","params":` + string(b) + `}`))
			return r.Params, err
		},
		result: func(b []byte) (any, error) { v := new(mcp.ListRootsResult); return v, mcp.UnmarshalAndValidate(b, v) },
	}
	return out
}

// exampleCase is the params or result of a method in an official example.
type exampleCase struct {
	name, method     string
	result, response bool
	data             []byte
}

// exampleCases finds the params and results of methods in the official
// 2026-07-28 examples: requests and notifications (their params),
// responses (their result), and params and result definitions.
func exampleCases(t *testing.T) []exampleCase {
	byType := map[string][2]string{} // Go type name -> method, "params" or "result"
	for name, mv := range newMethods() {
		if mv.params != nil {
			if v, _ := mv.params([]byte(`{}`)); v != nil {
				byType[reflect.TypeOf(v).Elem().Name()] = [2]string{name, "params"}
			}
		}
		if mv.result != nil {
			if v, _ := mv.result([]byte(`{}`)); v != nil {
				byType[reflect.TypeOf(v).Elem().Name()] = [2]string{name, "result"}
			}
		}
	}
	// Types several methods share (PaginatedRequestParams) stand for one of
	// them; the conversion is the same.
	var out []exampleCase
	for _, ex := range testenv.Examples(t, "2026-07-28") {
		var msg struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(ex.Data, &msg); err != nil {
			continue // not an object
		}
		name := ex.Definition + "/" + ex.Name
		switch {
		case msg.Method != "":
			out = append(out, exampleCase{name, msg.Method, false, false, msg.Params})
		case msg.Result != nil && strings.HasSuffix(ex.Definition, "ResultResponse"):
			if m, ok := byType[strings.TrimSuffix(ex.Definition, "Response")]; ok {
				out = append(out, exampleCase{name, m[0], true, true, msg.Result})
			}
		default:
			if m, ok := byType[ex.Definition]; ok {
				out = append(out, exampleCase{name, m[0], m[1] == "result", false, ex.Data})
			}
		}
	}
	return out
}

// TestOlderExamplesRoundTrip converts the official 2026-07-28 examples to
// every older revision that carries their method. What converts must come
// back: old -> new -> old gives the same older message, and new -> old ->
// new the same 2026-07-28 message but for the members dropped on purpose.
// What does not convert must fail with a *ConversionError (the older
// revision lacks a content kind, say), never anything else.
func TestOlderExamplesRoundTrip(t *testing.T) {
	methods := newMethods()
	cases := exampleCases(t)
	if len(cases) < 60 {
		t.Fatalf("found %d params and results among the examples, want at least 60", len(cases))
	}
	for _, o := range mcp.OlderRevisions {
		converted, refused := 0, 0
		for _, c := range cases {
			if !o.Carries(c.method) {
				continue
			}
			mv := methods[c.method]
			decode, up, down := mv.params, o.ParamsFromOlder, o.ParamsToOlder
			if c.result {
				decode, up, down = mv.result, o.ResultFromOlder, o.ResultToOlder
			}
			if c.result && bytes.Contains(c.data, []byte(`"input_required"`)) {
				continue // an InputRequiredResult: the runtime answers those itself
			}
			t.Run(o.Revision()+"/"+c.name, func(t *testing.T) {
				var v any
				if len(c.data) > 0 {
					var err error
					if v, err = decode(c.data); err != nil {
						if c.response {
							// Valid through the other branch of the response's
							// result (InputRequiredResult accepts it).
							t.Skipf("not a %s result: %v", c.method, err)
						}
						t.Fatalf("the example does not decode: %v", err)
					}
				}
				old, err := down(c.method, v)
				var ce *mcp.ConversionError
				if errors.As(err, &ce) {
					refused++
					t.Logf("not carried: %v", err)
					if ce.Revision != o.Revision() || !ce.ToOlder || ce.Message == "" {
						t.Errorf("conversion error without revision, direction or message: %#v", ce)
					}
					return
				}
				if err != nil {
					t.Fatalf("converting down: %v", err)
				}
				converted++
				if old == nil {
					return // no params, none to send
				}
				back, err := up(c.method, old)
				if err != nil {
					t.Fatalf("converting %s back: %v", old, err)
				}
				again, err := down(c.method, back)
				if err != nil {
					t.Fatalf("converting down again: %v", err)
				}
				sameJSON(t, "old -> new -> old", old, again, false)
				newJSON, err := json.Marshal(back)
				if err != nil {
					t.Fatal(err)
				}
				if len(c.data) == 0 {
					return
				}
				sameJSON(t, "new -> old -> new (but the era members)", c.data, newJSON, true)
			})
		}
		t.Logf("%s: %d examples convert and come back, %d are refused", o.Revision(), converted, refused)
		if converted < 40 {
			t.Errorf("%s: only %d examples convert", o.Revision(), converted)
		}
	}
}

// olderMessages are the hand-written messages of an older revision
// (testdata/older/<revision>.json): by method, its params and results.
type olderMessages map[string]struct {
	Params []json.RawMessage `json:"params"`
	Result []json.RawMessage `json:"result"`
}

// TestOlderMessagesRoundTrip converts hand-written messages of every
// older revision, at least one params and one result of each method it
// carries, to 2026-07-28 and back: they must come back the same.
func TestOlderMessagesRoundTrip(t *testing.T) {
	for _, o := range mcp.OlderRevisions {
		t.Run(o.Revision(), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "older", o.Revision()+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var msgs olderMessages
			d := json.NewDecoder(bytes.NewReader(data))
			d.DisallowUnknownFields()
			if err := d.Decode(&msgs); err != nil {
				t.Fatal(err)
			}
			for name := range msgs {
				if !o.Carries(name) {
					t.Errorf("messages of %s, which the conversions do not carry", name)
				}
			}
			n := 0
			for _, method := range o.Methods() {
				m := msgs[method]
				if len(m.Params) == 0 {
					t.Errorf("no params of %s", method)
				}
				notification := strings.HasPrefix(method, "notifications/")
				if notification != (len(m.Result) == 0) {
					t.Errorf("%s: %d results", method, len(m.Result))
				}
				for i, p := range m.Params {
					roundTripOlder(t, method, "params", i, p, o.ParamsFromOlder, o.ParamsToOlder)
					n++
				}
				for i, r := range m.Result {
					roundTripOlder(t, method, "result", i, r, o.ResultFromOlder, o.ResultToOlder)
					n++
				}
			}
			t.Logf("%d messages", n)
		})
	}
}

func roundTripOlder(t *testing.T, method, what string, i int, data []byte,
	up func(string, []byte) (any, error), down func(string, any) ([]byte, error)) {
	t.Helper()
	v, err := up(method, data)
	if err != nil {
		t.Errorf("%s %s %d: from the older revision: %v", method, what, i, err)
		return
	}
	back, err := down(method, v)
	if err != nil {
		t.Errorf("%s %s %d: back to the older revision: %v", method, what, i, err)
		return
	}
	sameJSON(t, method+" "+what, data, back, false)
}

// older returns the conversions of a revision.
func older(t *testing.T, revision string) *mcp.Older {
	t.Helper()
	for _, o := range mcp.OlderRevisions {
		if o.Revision() == revision {
			return o
		}
	}
	t.Fatalf("no conversions to %s", revision)
	return nil
}

// wantJSON fails the test when got is not the JSON want (see canonical).
func wantJSON(t *testing.T, what string, got []byte, want string) {
	t.Helper()
	sameJSON(t, what, got, []byte(want), false)
}

// TestOlderDrops pins every member a conversion to an older revision
// drops on purpose (the era members the runtime handles), in every older
// revision, and what the member is when it comes back.
func TestOlderDrops(t *testing.T) {
	info := mcp.Implementation{Name: "srv", Version: "1.0"}
	for _, o := range mcp.OlderRevisions {
		t.Run(o.Revision(), func(t *testing.T) {
			// resultType: older revisions have no multi round-trip results.
			res := &mcp.CallToolResult{ResultType: mcp.ResultTypeComplete, Content: []mcp.ContentBlock{&mcp.TextContent{Text: "hi"}},
				Meta: &mcp.ResultMetaObject{ServerInfo: &info, Extra: mcp.Members{{Name: "com.example/k", Value: json.RawMessage(`1`)}}}}
			b, err := o.ResultToOlder("tools/call", res)
			if err != nil {
				t.Fatal(err)
			}
			// serverInfo goes too (initialize's result names the server);
			// other _meta members stay.
			wantJSON(t, "tools/call result", b, `{"content":[{"type":"text","text":"hi"}],"_meta":{"com.example/k":1}}`)
			v, err := o.ResultFromOlder("tools/call", b)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.(*mcp.CallToolResult); got.ResultType != mcp.ResultTypeComplete || got.Meta.ServerInfo != nil {
				t.Errorf("from %s: resultType %q, serverInfo %v; want complete and none", o.Revision(), got.ResultType, got.Meta.ServerInfo)
			}
			// A _meta that held only era members is left out.
			res.Meta = &mcp.ResultMetaObject{ServerInfo: &info}
			b, _ = o.ResultToOlder("tools/call", res)
			if bytes.Contains(b, []byte("_meta")) {
				t.Errorf("a _meta of era members only is still there: %s", b)
			}

			// ttlMs and cacheScope: older revisions have no caching hints;
			// from one, a result is immediately stale and private.
			list := &mcp.ListToolsResult{ResultType: mcp.ResultTypeComplete, TTLMs: 60000, CacheScope: mcp.CacheScopePublic,
				Tools: []mcp.Tool{{Name: "t", InputSchema: mcp.ToolInputSchema{}}}}
			b, err = o.ResultToOlder("tools/list", list)
			if err != nil {
				t.Fatal(err)
			}
			wantJSON(t, "tools/list result", b, `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`)
			v, err = o.ResultFromOlder("tools/list", b)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.(*mcp.ListToolsResult); got.TTLMs != 0 || got.CacheScope != mcp.CacheScopePrivate || got.ResultType != mcp.ResultTypeComplete {
				t.Errorf("from %s: ttlMs %d, cacheScope %q, resultType %q; want 0, private, complete", o.Revision(), got.TTLMs, got.CacheScope, got.ResultType)
			}

			// The request _meta members of 2026-07-28: older revisions
			// negotiate the version, name the client and declare its
			// capabilities once, in initialize, and set the log level with
			// logging/setLevel. progressToken and other members stay.
			params := &mcp.CallToolRequestParams{Name: "t", Meta: mcp.RequestMetaObject{
				ProtocolVersion:    "2026-07-28",
				ClientCapabilities: mcp.ClientCapabilities{Roots: &mcp.ClientCapabilitiesRoots{}},
				ClientInfo:         &mcp.Implementation{Name: "cli", Version: "2"},
				LogLevel:           new(mcp.LoggingLevelInfo),
				ProgressToken:      mcp.ProgressTokenFromInteger(5),
				Extra:              mcp.Members{{Name: "com.example/trace", Value: json.RawMessage(`"t1"`)}},
			}}
			b, err = o.ParamsToOlder("tools/call", params)
			if err != nil {
				t.Fatal(err)
			}
			wantJSON(t, "tools/call params", b, `{"name":"t","_meta":{"progressToken":5,"com.example/trace":"t1"}}`)
			v, err = o.ParamsFromOlder("tools/call", b)
			if err != nil {
				t.Fatal(err)
			}
			got := v.(*mcp.CallToolRequestParams)
			if got.Meta.ProtocolVersion != "" || got.Meta.ClientInfo != nil || got.Meta.LogLevel != nil || got.Meta.ClientCapabilities.Roots != nil {
				t.Errorf("from %s: era members of _meta came back: %+v", o.Revision(), got.Meta)
			}
			if n, ok := got.Meta.ProgressToken.AsInteger(); !ok || n != 5 {
				t.Errorf("from %s: progressToken %+v", o.Revision(), got.Meta.ProgressToken)
			}
			// A _meta of era members only is left out.
			params.Meta = mcp.RequestMetaObject{ProtocolVersion: "2026-07-28"}
			b, _ = o.ParamsToOlder("tools/call", params)
			wantJSON(t, "tools/call params without _meta", b, `{"name":"t"}`)

			// subscriptionId: older revisions send notifications on the
			// session, not on subscriptions/listen streams.
			note := &mcp.ResourceUpdatedNotificationParams{URI: "file:///a", Meta: &mcp.NotificationMetaObject{SubscriptionID: mcp.RequestIdFromString("s1")}}
			b, err = o.ParamsToOlder("notifications/resources/updated", note)
			if err != nil {
				t.Fatal(err)
			}
			wantJSON(t, "notifications/resources/updated params", b, `{"uri":"file:///a"}`)
		})
	}
}

// conversionError checks that err is a *ConversionError at pointer whose
// text says want.
func conversionError(t *testing.T, err error, revision string, toOlder bool, pointer, want string) *mcp.ConversionError {
	t.Helper()
	var ce *mcp.ConversionError
	if !errors.As(err, &ce) {
		t.Fatalf("want a *ConversionError, got %T: %v", err, err)
	}
	if ce.Revision != revision || ce.ToOlder != toOlder || ce.Pointer != pointer || !strings.Contains(ce.Error(), want) {
		t.Errorf("got %#v (%v)\nwant revision %s, toOlder %v, pointer %q, a message with %q", ce, ce, revision, toOlder, pointer, want)
	}
	return ce
}

// TestOlderRefuses pins each value an older revision cannot carry: the
// target revision's schema refuses it, and the conversion fails with its
// first violation (where and why); Err holds them all.
func TestOlderRefuses(t *testing.T) {
	// A content kind: resource links are new in 2025-06-18.
	res := &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "a"}, &mcp.ResourceLink{Name: "r", URI: "file:///r"}}}
	_, err := older(t, "2025-03-26").ResultToOlder("tools/call", res)
	conversionError(t, err, "2025-03-26", true, "/content/1/type", `unknown "type" "resource_link"; want one of "text", "image", "audio", "resource"`)
	if _, err := older(t, "2025-06-18").ResultToOlder("tools/call", res); err != nil {
		t.Errorf("2025-06-18 has resource links: %v", err)
	}

	// Tool use in sampling is new in 2025-11-25.
	sample := &mcp.CreateMessageResult{Model: "m", Role: mcp.RoleAssistant, Content: &mcp.ToolUseContent{ID: "c1", Name: "f", Input: json.RawMessage(`{}`)}}
	_, err = older(t, "2025-06-18").ResultToOlder("sampling/createMessage", sample)
	conversionError(t, err, "2025-06-18", true, "/content/type", `unknown "type" "tool_use"; want one of "text", "image", "audio"`)
	// So are several content blocks in one message.
	sample.Content = mcp.CreateMessageResultContentArray{&mcp.TextContent{Text: "a"}}
	_, err = older(t, "2025-06-18").ResultToOlder("sampling/createMessage", sample)
	conversionError(t, err, "2025-06-18", true, "/content", `expected object, got array`)

	// URL elicitation is new in 2025-11-25, which also wants an
	// elicitationId that 2026-07-28 dropped (the input request's key
	// serves): the runtime puts one in the value's unknown members.
	url := &mcp.ElicitRequestURLParams{Message: "sign in", URL: "https://example.com/a"}
	_, err = older(t, "2025-06-18").ParamsToOlder("elicitation/create", url)
	conversionError(t, err, "2025-06-18", true, "", `missing required member "requestedSchema"`)
	_, err = older(t, "2025-11-25").ParamsToOlder("elicitation/create", url)
	conversionError(t, err, "2025-11-25", true, "", `missing required member "elicitationId"`)
	url.Extra = mcp.Members{{Name: "elicitationId", Value: json.RawMessage(`"el-1"`)}}
	b, err := older(t, "2025-11-25").ParamsToOlder("elicitation/create", url)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "URL elicitation", b, `{"mode":"url","message":"sign in","url":"https://example.com/a","elicitationId":"el-1"}`)

	// Titled enums in elicitation forms are new in 2025-11-25; 2025-06-18
	// reads one as a string schema whose members it does not know, which
	// its schema allows: the client asks for any string, and the server's
	// check of the answer against requestedSchema refuses others.
	form := &mcp.ElicitRequestFormParams{Message: "pick", RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
		Properties: map[string]mcp.PrimitiveSchemaDefinition{"size": &mcp.TitledSingleSelectEnumSchema{OneOf: []mcp.TitledSingleSelectEnumSchemaOneOfItem{{Const: "s", Title: "Small"}}}}}}
	b, err = older(t, "2025-06-18").ParamsToOlder("elicitation/create", form)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "titled enum for 2025-06-18", b, `{"message":"pick","requestedSchema":{"properties":{"size":{"oneOf":[{"const":"s","title":"Small"}],"type":"string"}},"type":"object"}}`)

	// A multi-select answer (an array) is new in 2025-11-25.
	answer := &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept, Content: map[string]mcp.ElicitResultContentValue{"tags": {Kind: mcp.KindArray, Arr: []string{"x"}}}}
	_, err = older(t, "2025-06-18").ResultToOlder("elicitation/create", answer)
	conversionError(t, err, "2025-06-18", true, "/content/tags", `expected string or integer or boolean, got array`)

	// An array of structured content is new in 2026-07-28: 2025-11-25's
	// schema does not accept it (its violations come with the error);
	// 2025-03-26, which has no structuredContent, keeps it among the
	// result's unknown members.
	res = &mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: json.RawMessage(`[1,2]`)}
	_, err = older(t, "2025-11-25").ResultToOlder("tools/call", res)
	ce := conversionError(t, err, "2025-11-25", true, "/structuredContent", `expected object, got array`)
	var ve *mcp.ValidationError
	if !errors.As(ce, &ve) || len(ve.Violations) != 1 || ve.Violations[0].Pointer != "/structuredContent" {
		t.Errorf("want the violation at /structuredContent, got %v", ce.Err)
	}
	b, err = older(t, "2025-03-26").ResultToOlder("tools/call", res)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "structuredContent in 2025-03-26", b, `{"content":[],"structuredContent":[1,2]}`)

	// From an older revision: 2025-11-25 lets a task's cancellation leave
	// out requestId, which 2026-07-28 requires.
	_, err = older(t, "2025-11-25").ParamsFromOlder("notifications/cancelled", []byte(`{"reason":"task cancelled"}`))
	conversionError(t, err, "2025-11-25", false, "", `missing required member "requestId"`)
}

// TestOlderExtra pins that members the other revision does not declare
// travel, as JSON, in the unknown members of the types that keep them,
// both ways.
func TestOlderExtra(t *testing.T) {
	o := older(t, "2025-03-26")
	// structuredContent and a resource link's absence aside, 2025-03-26's
	// CallToolResult keeps unknown members.
	res := &mcp.CallToolResult{ResultType: mcp.ResultTypeComplete, Content: []mcp.ContentBlock{&mcp.TextContent{Text: "a"}}, StructuredContent: json.RawMessage(`{"t":1}`)}
	b, err := o.ResultToOlder("tools/call", res)
	if err != nil {
		t.Fatal(err)
	}
	v, err := o.ResultFromOlder("tools/call", b)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.(*mcp.CallToolResult); string(got.StructuredContent) != `{"t":1}` || len(got.Extra) != 0 {
		t.Errorf("structuredContent came back as %s, extra %v", got.StructuredContent, got.Extra)
	}
	// A 2025-11-25 tools/call with a task: 2026-07-28 has no task member;
	// the handler finds it in Extra, and it goes back as it came.
	o = older(t, "2025-11-25")
	v, err = o.ParamsFromOlder("tools/call", []byte(`{"name":"t","task":{"ttl":5}}`))
	if err != nil {
		t.Fatal(err)
	}
	p := v.(*mcp.CallToolRequestParams)
	if task, ok := p.Extra.Get("task"); !ok || string(task) != `{"ttl":5}` {
		t.Errorf("task in Extra: %s, %v", task, ok)
	}
	b, err = o.ParamsToOlder("tools/call", p)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "tools/call params", b, `{"name":"t","task":{"ttl":5}}`)
	// Values: the capabilities initialize carries.
	caps := &mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{ListChanged: new(true)}, Extensions: map[string]mcp.JSONObject{"io.example/x": mcp.JSONObject(`{}`)}}
	x, err := o.ToOlder("ServerCapabilities", caps)
	if err != nil {
		t.Fatal(err)
	}
	back, err := o.FromOlder("ServerCapabilities", x)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, caps) {
		t.Errorf("ServerCapabilities came back as %+v", back)
	}
	if l, err := o.ToOlder("LoggingLevel", mcp.LoggingLevelWarning); err != nil || string(l) != `"warning"` {
		t.Errorf("ToOlder(LoggingLevelWarning) = %s, %v", l, err)
	}
	if _, err := o.ToOlder("LoggingLevel", mcp.LoggingLevel("loud")); err == nil {
		t.Error(`ToOlder(LoggingLevel("loud")): no error`)
	}
}

// TestOlderBadInput: what an older peer sends is checked against its own
// schema, and the errors are this package's; a value of the wrong type or
// a method the table does not carry is a *ConversionError.
func TestOlderBadInput(t *testing.T) {
	o := older(t, "2025-06-18")
	_, err := o.ParamsFromOlder("tools/call", []byte(`{"name":5}`))
	var ve *mcp.ValidationError
	if !errors.As(err, &ve) || ve.Violations[0].Pointer != "/name" {
		t.Errorf("want this package's *ValidationError at /name, got %T %v", err, err)
	}
	_, err = o.ParamsFromOlder("tools/call", []byte(`{"name":`))
	var se *mcp.SyntaxError
	if !errors.As(err, &se) {
		t.Errorf("want this package's *SyntaxError, got %T %v", err, err)
	}
	_, err = o.ParamsFromOlder("tools/call", nil)
	if !errors.As(err, &ve) {
		t.Errorf("absent params of tools/call: want a *ValidationError, got %T %v", err, err)
	}
	_, err = o.ParamsToOlder("tools/call", &mcp.ListToolsResult{})
	conversionError(t, err, "2025-06-18", true, "", "want *CallToolRequestParams, got *mcp20260728.ListToolsResult")
	_, err = o.ParamsFromOlder("server/discover", []byte(`{}`))
	conversionError(t, err, "2025-06-18", false, "", `method "server/discover" is not carried by both revisions`)
	_, err = o.ResultToOlder("notifications/progress", nil)
	conversionError(t, err, "2025-06-18", true, "", "is a notification")
	_, err = o.ToOlder("Tool", 42)
	conversionError(t, err, "2025-06-18", true, "", "a value of type int has no JSON form")
	_, err = o.ToOlder("NoSuchDefinition", &mcp.Tool{Name: "t"})
	conversionError(t, err, "2025-06-18", true, "", `2025-06-18 has no definition "NoSuchDefinition"`)
}

// TestOlderNil: nil values, typed or not, are no values: they convert to
// none (and the target's schema says whether that will do), never panic.
func TestOlderNil(t *testing.T) {
	o := older(t, "2025-11-25")
	var form *mcp.ElicitRequestFormParams
	_, err := o.ParamsToOlder("elicitation/create", form)
	var ce *mcp.ConversionError
	if !errors.As(err, &ce) {
		t.Errorf("a nil branch as params: %v", err)
	}
	res := &mcp.CallToolResult{Content: []mcp.ContentBlock{nil, (*mcp.TextContent)(nil)}}
	_, err = o.ResultToOlder("tools/call", res)
	if !errors.As(err, &ce) || ce.Err == nil {
		t.Errorf("nil content blocks: %v", err)
	}
	if v, err := o.ToOlder("Tool", (*mcp.Tool)(nil)); err != nil || v != nil {
		t.Errorf("ToOlder of a nil *Tool: %s, %v", v, err)
	}
	if b, err := o.ParamsToOlder("tools/list", nil); b != nil || err != nil {
		t.Errorf("absent params: %s, %v", b, err)
	}
}

// TestOlderMutatedMessages feeds the hand-written older messages with each
// member removed or replaced by values of every JSON kind, at every depth:
// the conversions either refuse, or convert and come back the same; they
// never panic.
func TestOlderMutatedMessages(t *testing.T) {
	kinds := []any{nil, false, json.Number("0"), json.Number("-1.5"), "", "x", []any{}, []any{"a"}, map[string]any{}, map[string]any{"type": "text", "text": "t"}}
	tried, converted := 0, 0
	for _, o := range mcp.OlderRevisions {
		data, err := os.ReadFile(filepath.Join("testdata", "older", o.Revision()+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var msgs olderMessages
		if err := json.Unmarshal(data, &msgs); err != nil {
			t.Fatal(err)
		}
		for method, m := range msgs {
			for _, set := range []struct {
				docs []json.RawMessage
				up   func(string, []byte) (any, error)
				down func(string, any) ([]byte, error)
			}{{m.Params, o.ParamsFromOlder, o.ParamsToOlder}, {m.Result, o.ResultFromOlder, o.ResultToOlder}} {
				for _, doc := range set.docs {
					for _, mutated := range mutations(t, doc, kinds) {
						tried++
						func() {
							defer func() {
								if r := recover(); r != nil {
									t.Fatalf("%s %s: panic on %s: %v", o.Revision(), method, mutated, r)
								}
							}()
							v, err := set.up(method, mutated)
							if err != nil {
								return
							}
							back, err := set.down(method, v)
							if err != nil {
								return
							}
							converted++
							sameJSON(t, o.Revision()+" "+method+" (mutated)", mutated, back, false)
						}()
					}
				}
			}
		}
	}
	t.Logf("%d mutated messages, %d convert there and back", tried, converted)
	if converted == 0 || tried < 1000 {
		t.Errorf("%d mutated messages, %d convert", tried, converted)
	}
}

// mutations returns doc with each member of each object (at any depth)
// removed, and replaced by each of kinds.
func mutations(t *testing.T, doc []byte, kinds []any) [][]byte {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var root any
	if err := d.Decode(&root); err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	emit := func() {
		b, err := json.Marshal(root)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				delete(v, k)
				emit()
				for _, kind := range kinds {
					v[k] = kind
					emit()
				}
				v[k] = x
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(root)
	return out
}
