package protocol_test

// The Server of a generated package beyond its tools: resources,
// templates, prompts, pages, removal, the capabilities it declares, and
// the changes it announces to clients of every revision.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

type rpcReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func call2026(t *testing.T, d *mcp.ServerDispatcher, method, params string) rpcReply {
	t.Helper()
	if params == "" {
		params = `{` + meta2026 + `}`
	} else {
		params = `{` + meta2026 + `,` + params + `}`
	}
	b := d.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
	var r rpcReply
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v in %s", method, err, b)
	}
	return r
}

type greetArgs struct {
	Name  string `json:"name" jsonschema:"who to greet"`
	Times *int   `json:"times"`
	Tone  string `json:"tone,omitempty"`
}

func newSetServer() *mcp.Server {
	s := &mcp.Server{}
	mcp.AddResource(s, mcp.Resource{URI: "file:///readme", Name: "readme"}, func(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
		return mcp.TextResource(p.URI, "text/plain", "hello"), nil
	})
	mcp.AddResourceTemplate(s, mcp.ResourceTemplate{URITemplate: "users://all/{id}/profile", Name: "profile"}, func(_ context.Context, p *mcp.ReadResourceRequestParams, vars map[string]string) (*mcp.ReadResourceResult, error) {
		return mcp.TextResource(p.URI, "", "user "+vars["id"]+" fields "+vars["fields"]), nil
	})
	// RFC 6570 puts expressions anywhere: in the authority, and the query.
	mcp.AddResourceTemplate(s, mcp.ResourceTemplate{URITemplate: "db://{table}/rows{/id}{?limit,order}", Name: "rows"}, func(_ context.Context, p *mcp.ReadResourceRequestParams, vars map[string]string) (*mcp.ReadResourceResult, error) {
		return mcp.TextResource(p.URI, "", "table "+vars["table"]+" id "+vars["id"]+" limit "+vars["limit"]), nil
	})
	mcp.AddPrompt(s, mcp.Prompt{Name: "greet"}, func(_ context.Context, _ *mcp.GetPromptRequestParams, in greetArgs) (*mcp.GetPromptResult, error) {
		n := 1
		if in.Times != nil {
			n = *in.Times
		}
		return mcp.PromptResult(mcp.UserMessage(mcp.Text(strings.Repeat("hi "+in.Name+" ", n)))), nil
	})
	return s
}

// TestRequireCapabilities: the typed form of RequireClientCapabilities
// lists the capabilities in the error's data, as the JSON form does.
func TestRequireCapabilities(t *testing.T) {
	err := mcp.RequireCapabilities(mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}, Extensions: map[string]mcp.JSONObject{"x.example/e": mcp.JSONObject(`{}`)}})
	var re *mcp.RPCError
	if !errors.As(err, &re) || re.Code != -32021 || string(re.Data) != `{"requiredCapabilities":{"extensions":{"x.example/e":{}},"sampling":{}}}` {
		t.Errorf("RequireCapabilities: %v %s", err, re.Data)
	}
	if err := mcp.RequireCapabilities(mcp.ClientCapabilities{Extensions: map[string]mcp.JSONObject{"x": mcp.JSONObject(`{`)}}); err == nil || errors.As(err, &re) && re.Code == -32021 {
		t.Errorf("capabilities that are not JSON: %v", err)
	}
}

func TestServerResourcesAndPrompts(t *testing.T) {
	s := newSetServer()
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "t", Version: "1"}})

	r := call2026(t, d, "resources/read", `"uri":"file:///readme"`)
	if r.Error != nil || !strings.Contains(string(r.Result), `"text":"hello"`) || !strings.Contains(string(r.Result), `"cacheScope":"private"`) {
		t.Errorf("read readme: %s %+v (want the text, and cacheScope private by default)", r.Result, r.Error)
	}
	r = call2026(t, d, "resources/read", `"uri":"users://all/42/profile"`)
	if r.Error != nil || !strings.Contains(string(r.Result), `user 42 fields `) {
		t.Errorf("read template: %s %+v", r.Result, r.Error)
	}
	r = call2026(t, d, "resources/read", `"uri":"db://t1/rows/7?limit=5"`)
	if r.Error != nil || !strings.Contains(string(r.Result), `table t1 id 7 limit 5`) {
		t.Errorf("read the authority template: %s %+v", r.Result, r.Error)
	}
	r = call2026(t, d, "resources/read", `"uri":"users://all/4/2/profile"`)
	if r.Error == nil || r.Error.Code != -32602 || string(r.Error.Data) != `{"uri":"users://all/4/2/profile"}` {
		t.Errorf("unknown resource: %s %+v, want -32602 with the uri", r.Result, r.Error)
	}
	r = call2026(t, d, "resources/templates/list", "")
	if r.Error != nil || !strings.Contains(string(r.Result), `"uriTemplate":"users://all/{id}/profile"`) || !strings.Contains(string(r.Result), `"uriTemplate":"db://{table}/rows{/id}{?limit,order}"`) || !strings.Contains(string(r.Result), `"cacheScope":"public"`) {
		t.Errorf("templates/list: %s %+v", r.Result, r.Error)
	}

	r = call2026(t, d, "prompts/list", "")
	want := `"arguments":[{"description":"who to greet","name":"name","required":true},{"name":"times"},{"name":"tone"}]`
	if r.Error != nil || !strings.Contains(string(r.Result), want) {
		t.Errorf("prompts/list: %s %+v, want %s", r.Result, r.Error, want)
	}
	r = call2026(t, d, "prompts/get", `"name":"greet","arguments":{"name":"Ann","times":"2"}`)
	if r.Error != nil || !strings.Contains(string(r.Result), `"text":"hi Ann hi Ann "`) || !strings.Contains(string(r.Result), `"role":"user"`) {
		t.Errorf("prompts/get: %s %+v", r.Result, r.Error)
	}
	for args, msg := range map[string]string{
		`{}`:                        `missing required argument "name"`,
		`{"name":"a","x":"1"}`:      `unknown argument "x"`,
		`{"name":"a","times":"no"}`: `argument "times": "no" is not an integer`,
	} {
		r = call2026(t, d, "prompts/get", `"name":"greet","arguments":`+args)
		if r.Error == nil || r.Error.Code != -32602 || !strings.Contains(r.Error.Message, msg) {
			t.Errorf("prompts/get %s: %+v, want invalid params with %q", args, r.Error, msg)
		}
	}
	r = call2026(t, d, "prompts/get", `"name":"nope"`)
	if r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("unknown prompt: %+v", r.Error)
	}

	// Capabilities from what the set holds.
	r = call2026(t, d, "server/discover", "")
	for _, c := range []string{`"tools":{"listChanged":true}`, `"resources":{"listChanged":true,"subscribe":true}`, `"prompts":{"listChanged":true}`} {
		if !strings.Contains(string(r.Result), c) {
			t.Errorf("discover: %s lacks %s", r.Result, c)
		}
	}
	empty := mcp.NewServerDispatcher(&mcp.Server{}, mcp.ServerOptions{})
	r = call2026(t, empty, "server/discover", "")
	if strings.Contains(string(r.Result), `"resources"`) || strings.Contains(string(r.Result), `"prompts"`) || !strings.Contains(string(r.Result), `"tools"`) {
		t.Errorf("an empty set declares %s, want tools only", r.Result)
	}

	// Removal.
	s.RemoveResources("file:///readme")
	s.RemovePrompts("greet", "unknown")
	if r = call2026(t, d, "resources/read", `"uri":"file:///readme"`); r.Error == nil {
		t.Errorf("a removed resource reads: %s", r.Result)
	}
	// With no prompt left, prompts/* are method not found, as before any.
	if r = call2026(t, d, "prompts/list", ""); r.Error == nil || r.Error.Code != -32601 {
		t.Errorf("prompts/list after the last is removed: %s %+v, want method not found", r.Result, r.Error)
	}
	if r = call2026(t, empty, "resources/read", `"uri":"file:///readme"`); r.Error == nil || r.Error.Code != -32601 {
		t.Errorf("resources/read on a set without resources: %+v, want method not found", r.Error)
	}
}

func TestServerPages(t *testing.T) {
	s := &mcp.Server{PageSize: 2, TTL: time.Minute}
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		mcp.AddTool(s, mcp.Tool{Name: n}, func(context.Context, *mcp.CallToolRequestParams, struct{}) (*mcp.CallToolResult, error) {
			return mcp.TextResult(n), nil
		})
	}
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{})
	var names []string
	cursor := ""
	for page := 0; page < 5; page++ {
		params := ""
		if cursor != "" {
			params = `"cursor":"` + cursor + `"`
		}
		r := call2026(t, d, "tools/list", params)
		if r.Error != nil {
			t.Fatalf("tools/list: %+v", r.Error)
		}
		var v struct {
			Tools      []struct{ Name string }
			NextCursor string
			TTLMs      int64
		}
		if err := json.Unmarshal(r.Result, &v); err != nil {
			t.Fatal(err)
		}
		if v.TTLMs != 60000 {
			t.Errorf("ttlMs %d, want 60000", v.TTLMs)
		}
		if len(v.Tools) > 2 {
			t.Errorf("a page of %d tools, want at most 2", len(v.Tools))
		}
		for _, x := range v.Tools {
			names = append(names, x.Name)
		}
		if cursor = v.NextCursor; cursor == "" {
			break
		}
	}
	if strings.Join(names, "") != "abcde" {
		t.Errorf("pages list %q, want abcde", names)
	}
	if r := call2026(t, d, "tools/list", `"cursor":"x"`); r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("a bad cursor: %+v, want invalid params", r.Error)
	}
}

// TestServerAnnouncesChanges: a change while serving reaches a client of
// 2026-07-28 on its subscriptions/listen stream, and a client of an older
// revision on its session.
func TestServerAnnouncesChanges(t *testing.T) {
	s := newSetServer()
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "t", Version: "1"}})
	send, next, stop := serveLines(t, d)
	defer stop()
	send(`{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{` + meta2026 + `,"notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///readme"]}}}`)
	next(`notifications/subscriptions/acknowledged`)
	mcp.AddTool(s, mcp.Tool{Name: "late"}, func(context.Context, *mcp.CallToolRequestParams, struct{}) (*mcp.CallToolResult, error) {
		return nil, nil
	})
	line := next(`notifications/tools/list_changed`)
	if !strings.Contains(line, `"io.modelcontextprotocol/subscriptionId":"L"`) {
		t.Errorf("list_changed not tagged with the subscription: %s", line)
	}
	s.RemovePrompts("greet") // not asked for: not sent
	s.ResourceUpdated("file:///readme")
	if line = next(`notifications/`); !strings.Contains(line, `resources/updated`) || !strings.Contains(line, `"uri":"file:///readme"`) {
		t.Errorf("after an update, the stream has %s", line)
	}
	s.EndSubscriptions()
	if line = next(`"id":"L"`); !strings.Contains(line, `"result"`) {
		t.Errorf("the stream ends with %s, want its result", line)
	}
}

func TestServerAnnouncesChangesOlder(t *testing.T) {
	s := newSetServer()
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "t", Version: "1"}})
	send, next, stop := serveLines(t, d)
	defer stop()
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	next(`"id":1`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"file:///readme"}}`)
	next(`"id":2`)
	s.RemovePrompts("greet")
	next(`notifications/prompts/list_changed`)
	s.ResourceUpdated("file:///other") // not subscribed: not sent
	s.ResourceUpdated("file:///readme")
	if line := next(`notifications/`); !strings.Contains(line, `"uri":"file:///readme"`) {
		t.Errorf("after the updates, the session has %s", line)
	}
}

// serveLines serves d on pipes; next returns the next line with want,
// failing after a few seconds.
func serveLines(t *testing.T, d *mcp.ServerDispatcher) (send func(string), next func(string) string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx, inR, outW); outW.Close() }()
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send = func(msg string) {
		t.Helper()
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next = func(want string) string {
		t.Helper()
		timeout := time.After(5 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the server ended before a line with %s", want)
				}
				if strings.Contains(l, want) {
					return l
				}
			case <-timeout:
				t.Fatalf("no line with %s", want)
			}
		}
	}
	stop = func() {
		inW.Close()
		if err := <-done; err != nil {
			t.Error(err)
		}
		cancel()
	}
	return send, next, stop
}

func TestURITemplateMatch(t *testing.T) {
	for _, tc := range []struct {
		tmpl, uri string
		want      map[string]string // nil: no match
	}{
		{"test://template/{id}/data", "test://template/7/data", map[string]string{"id": "7"}},
		{"test://template/{id}/data", "test://template/7/8/data", nil},
		{"test://template/{id}/data", "test://template/a%20b/data", map[string]string{"id": "a b"}},
		{"file:///{+path}", "file:///a/b/c.txt", map[string]string{"path": "a/b/c.txt"}},
		{"api{/v,res}", "api/1/users", map[string]string{"v": "1", "res": "users"}},
		{"api{/path*}", "api/a/b", map[string]string{"path": "a/b"}},
		{"x{.ext}", "x.json", map[string]string{"ext": "json"}},
		{"s://h{?q,n}", "s://h?n=2&q=go", map[string]string{"q": "go", "n": "2"}},
		{"s://h{?q,n}", "s://h", map[string]string{}},
		{"m{;a}", "m;a=1", map[string]string{"a": "1"}},
		{"s://{a},{b}", "s://1,2", map[string]string{"a": "1", "b": "2"}},
	} {
		ut, err := protocol.ParseURITemplate(tc.tmpl)
		if err != nil {
			t.Fatalf("%s: %v", tc.tmpl, err)
		}
		got, ok := ut.Match(tc.uri)
		if tc.want == nil {
			if ok {
				t.Errorf("%s matches %s: %v, want no match", tc.tmpl, tc.uri, got)
			}
			continue
		}
		if !ok || len(got) != len(tc.want) {
			t.Errorf("%s on %s = %v %v, want %v", tc.tmpl, tc.uri, got, ok, tc.want)
			continue
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s on %s: %s = %q, want %q", tc.tmpl, tc.uri, k, got[k], v)
			}
		}
	}
	for _, bad := range []string{"a{", "a}", "{}", "{=x}", "{?q}x", "{a b}"} {
		if _, err := protocol.ParseURITemplate(bad); err == nil {
			t.Errorf("%q parses, want an error", bad)
		}
	}
}

// TestListenAndServe: one line serves a dispatcher over HTTP at /mcp, and
// the context ends it. A tool with an x-mcp-header argument is called
// without the server asking itself tools/list (the bindings come from the
// set), even with a zero TTL.
func TestListenAndServe(t *testing.T) {
	type regionArgs struct {
		Region string `json:"region" mcp:"header=Region"`
	}
	s := &mcp.Server{}
	mcp.AddTool(s, mcp.Tool{Name: "where"}, func(_ context.Context, _ *mcp.CallToolRequestParams, in regionArgs) (*mcp.CallToolResult, error) {
		return mcp.TextResult(in.Region), nil
	})
	var lists atomic.Int32
	addr := make(chan string, 1)
	h := &countingLists{Server: s, lists: &lists}
	d := mcp.NewServerDispatcher(h, mcp.ServerOptions{Logger: slog.New(urlHandler{addr})})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mcp.NewHTTPHandler(d, mcp.HTTPOptions{}).ListenAndServe(ctx, "127.0.0.1:0") }()
	var url string
	select {
	case url = <-addr:
	case <-time.After(5 * time.Second):
		t.Fatal("not listening")
	}
	if !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("listening on %s, want the /mcp endpoint", url)
	}
	for range 3 {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta2026 + `,"name":"where","arguments":{"region":"eu"}}}`
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "where", "Mcp-Param-Region": "eu"} {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), `"text":"eu"`) {
			t.Fatalf("tools/call over HTTP: %d %s", resp.StatusCode, b)
		}
	}
	if n := lists.Load(); n != 0 {
		t.Errorf("the server asked itself tools/list %d times, want 0", n)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("ListenAndServe: %v", err)
	}
}

// countingLists counts the tools/list calls its Server answers.
type countingLists struct {
	*mcp.Server
	lists *atomic.Int32
}

func (c *countingLists) ListTools(ctx context.Context, p *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	c.lists.Add(1)
	return c.Server.ListTools(ctx, p)
}

func addTool(s *mcp.Server) {
	mcp.AddTool(s, mcp.Tool{Name: "add"}, func(_ context.Context, _ *mcp.CallToolRequestParams, in addArgs) (*mcp.CallToolResult, error) {
		return mcp.TextResult("sum"), nil
	})
}

// serverWithSets is a Server with a tool, and many resources, templates
// and prompts a tools/call does not use.
func serverWithSets() *mcp.Server {
	s := &mcp.Server{}
	addTool(s)
	for i := range 100 {
		n := fmt.Sprint(i)
		mcp.AddResource(s, mcp.Resource{URI: "file:///r" + n, Name: n}, func(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
			return mcp.TextResource(p.URI, "", n), nil
		})
		mcp.AddResourceTemplate(s, mcp.ResourceTemplate{URITemplate: "file:///t" + n + "/{x}", Name: n}, func(_ context.Context, p *mcp.ReadResourceRequestParams, _ map[string]string) (*mcp.ReadResourceResult, error) {
			return mcp.TextResource(p.URI, "", n), nil
		})
		mcp.AddPrompt(s, mcp.Prompt{Name: "p" + n}, func(context.Context, *mcp.GetPromptRequestParams, struct{}) (*mcp.GetPromptResult, error) {
			return mcp.PromptResult(), nil
		})
	}
	return s
}

var callAdd = []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta2026 + `,"name":"add","arguments":{"a":1,"b":2}}}`)

// TestServerSetsCostNothing: the resources, templates and prompts of a
// Server add no allocation to a tools/call that does not use them.
func TestServerSetsCostNothing(t *testing.T) {
	toolOnly := &mcp.Server{}
	addTool(toolOnly)
	ctx := context.Background()
	measure := func(s *mcp.Server) float64 {
		d := mcp.NewServerDispatcher(s, mcp.ServerOptions{})
		if r := d.Handle(ctx, callAdd); !strings.Contains(string(r), `"text":"sum"`) {
			t.Fatalf("tools/call: %s", r)
		}
		return testing.AllocsPerRun(200, func() { d.Handle(ctx, callAdd) })
	}
	base, with := measure(toolOnly), measure(serverWithSets())
	if with > base {
		t.Errorf("tools/call allocates %v times with the other sets full, %v with the tool alone", with, base)
	}
	t.Logf("tools/call: %v allocations, with or without 300 resources, templates and prompts (%v)", base, with)
}

func BenchmarkServerToolCall(b *testing.B) {
	ctx := context.Background()
	toolOnly := &mcp.Server{}
	addTool(toolOnly)
	for _, c := range []struct {
		name string
		s    *mcp.Server
	}{{"ToolOnly", toolOnly}, {"WithSets", serverWithSets()}} {
		b.Run(c.name, func(b *testing.B) {
			d := mcp.NewServerDispatcher(c.s, mcp.ServerOptions{})
			b.ReportAllocs()
			for b.Loop() {
				d.Handle(ctx, callAdd)
			}
		})
	}
}

// urlHandler is a slog.Handler that sends the url.full attribute of the
// records it gets (ListenAndServe's "listening" record).
type urlHandler struct{ urls chan<- string }

func (urlHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h urlHandler) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "url.full" {
			h.urls <- a.Value.String()
		}
		return true
	})
	return nil
}
func (h urlHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h urlHandler) WithGroup(string) slog.Handler      { return h }

// TestTextPrompt: a prompt function answers with TextPrompt, one user
// message with the text.
func TestTextPrompt(t *testing.T) {
	s := &mcp.Server{}
	mcp.AddPrompt(s, mcp.Prompt{Name: "hi"}, func(_ context.Context, _ *mcp.GetPromptRequestParams, in struct {
		Name string `json:"name"`
	}) (*mcp.GetPromptResult, error) {
		return mcp.TextPrompt("hello " + in.Name), nil
	})
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "t", Version: "1"}})
	r := call2026(t, d, "prompts/get", `"name":"hi","arguments":{"name":"ann"}`)
	if r.Error != nil || !strings.Contains(string(r.Result), `"messages":[{"content":{"text":"hello ann","type":"text"},"role":"user"}]`) {
		t.Errorf("prompts/get: %s %+v", r.Result, r.Error)
	}
}
