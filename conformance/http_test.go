package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The generated 2026-07-28 server over Streamable HTTP (NewHTTPHandler)
// and its multi round-trip requests with sealed requestState, over HTTP
// (two replicas behind a round-robin proxy) and over stdio. Values are
// built from JSON where the generated API offers a choice, so that these
// tests read the wire, not the Go shape of unions.

// fromJSON decodes js into a new T; t may be nil in handlers, where a
// failure panics (and the dispatcher answers an internal error).
func fromJSON[T any, P interface {
	*T
	UnmarshalJSON([]byte) error
}](t *testing.T, js string) *T {
	v := P(new(T))
	if err := v.UnmarshalJSON([]byte(js)); err != nil {
		if t == nil {
			panic(fmt.Sprintf("%s: %v", js, err))
		}
		t.Helper()
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// bookServer is a tool that needs two rounds of input: a form elicitation
// for a name, then the client's roots. It records which replica served
// each round.
type bookServer struct {
	mcp.UnimplementedServerHandler
	replica string
	rounds  *[]string
	mu      *sync.Mutex
	tools   []mcp.Tool
}

func (s *bookServer) ListTools(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	return &mcp.ListToolsResult{Tools: s.tools, TTLMs: 60_000, CacheScope: mcp.CacheScopePublic}, nil
}

func (s *bookServer) CallTool(_ context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	state := ""
	if p.RequestState != nil {
		state = *p.RequestState
	}
	s.mu.Lock()
	*s.rounds = append(*s.rounds, s.replica+":"+state)
	s.mu.Unlock()
	answers := map[string]json.RawMessage{}
	if p.InputResponses != nil {
		b, err := json.Marshal(p.InputResponses)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &answers); err != nil {
			return nil, err
		}
	}
	var ir *mcp.InputRequiredResult
	switch {
	case state == "":
		ir = fromJSON[mcp.InputRequiredResult](nil, `{"resultType":"input_required","inputRequests":{"who":{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"]}}}},"requestState":"need-name"}`)
	case state == "need-name":
		var who struct {
			Content struct{ Name string } `json:"content"`
		}
		if err := json.Unmarshal(answers["who"], &who); err != nil || who.Content.Name == "" {
			return nil, fmt.Errorf("no name in %s", answers["who"])
		}
		ir = fromJSON[mcp.InputRequiredResult](nil, `{"resultType":"input_required","inputRequests":{"dirs":{"method":"roots/list"}},"requestState":`+quote("need-roots:"+who.Content.Name)+`}`)
	case strings.HasPrefix(state, "need-roots:"):
		var roots struct {
			Roots []struct{ URI string } `json:"roots"`
		}
		if err := json.Unmarshal(answers["dirs"], &roots); err != nil || len(roots.Roots) == 0 {
			return nil, fmt.Errorf("no roots in %s", answers["dirs"])
		}
		return fromJSON[mcp.CallToolResult](nil, `{"resultType":"complete","content":[{"type":"text","text":`+quote("booked for "+strings.TrimPrefix(state, "need-roots:")+" in "+roots.Roots[0].URI)+`}]}`), nil
	default:
		return nil, fmt.Errorf("unknown state %q", state)
	}
	return nil, mcp.NeedInput(*ir)
}

const (
	httpMetaCaps = `{"elicitation":{"form":{}},"roots":{}}`
	bookTool     = `{"name":"book","inputSchema":{"type":"object","properties":{"city":{"type":"string","x-mcp-header":"City"},"seats":{"type":"integer","x-mcp-header":"Seats"}}}}`
)

func newBookServer(t *testing.T, replica string, rounds *[]string, mu *sync.Mutex, keys [][]byte) *httptest.Server {
	s := &bookServer{replica: replica, rounds: rounds, mu: mu, tools: []mcp.Tool{*fromJSON[mcp.Tool](t, bookTool)}}
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: serverInfo, RequestStateKeys: keys})
	srv := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	t.Cleanup(srv.Close)
	return srv
}

// httpCall posts a tools/call of book and returns the HTTP status and the
// response.
func httpCall(t *testing.T, endpoint string, id int, params string, headers map[string]string) (int, response) {
	t.Helper()
	body := request(fmt.Sprint(id), "tools/call", params)
	r, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("MCP-Protocol-Version", "2026-07-28")
	r.Header.Set("Mcp-Method", "tools/call")
	r.Header.Set("Mcp-Name", "book")
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q: %s", ct, b)
	}
	return resp.StatusCode, parseResponse(t, b)
}

// answer builds the inputResponses for the inputRequests of an
// InputRequiredResult.
func answer(t *testing.T, result json.RawMessage) (responses, state string) {
	t.Helper()
	var ir struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	if err := json.Unmarshal(result, &ir); err != nil || ir.ResultType != "input_required" {
		t.Fatalf("not an InputRequiredResult: %s", result)
	}
	var parts []string
	for k, req := range ir.InputRequests {
		var r struct{ Method string }
		json.Unmarshal(req, &r)
		switch r.Method {
		case "elicitation/create":
			parts = append(parts, quote(k)+`:{"action":"accept","content":{"name":"Ada"}}`)
		case "roots/list":
			parts = append(parts, quote(k)+`:{"roots":[{"uri":"file:///home/ada"}]}`)
		default:
			t.Fatalf("unexpected input request %s", req)
		}
	}
	return "{" + strings.Join(parts, ",") + "}", ir.RequestState
}

func bookParams(responses, state string) string {
	p := `{` + metaWith(`"2026-07-28"`, httpMetaCaps) + `,"name":"book","arguments":{"city":"Paris"}`
	if responses != "" {
		p += `,"inputResponses":` + responses + `,"requestState":` + quote(state)
	}
	return p + "}"
}

// TestHTTPReplicasMRTR: two replicas that share a key, behind a
// round-robin reverse proxy, complete a three-round request whose rounds
// land on different replicas; a replica with another key refuses the
// state, and so does a replica given a tampered one.
func TestHTTPReplicasMRTR(t *testing.T) {
	var mu sync.Mutex
	var rounds []string
	key := [][]byte{[]byte("a shared key of 32 bytes, really")}
	a := newBookServer(t, "A", &rounds, &mu, key)
	b := newBookServer(t, "B", &rounds, &mu, key)
	stranger := newBookServer(t, "C", &rounds, &mu, [][]byte{[]byte("another key of 32 bytes, indeed!")})
	var targets []*url.URL
	for _, s := range []*httptest.Server{a, b} {
		u, _ := url.Parse(s.URL)
		targets = append(targets, u)
	}
	var next atomic.Int64
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(targets[int(next.Add(1)-1)%len(targets)])
	}})
	defer proxy.Close()
	city := map[string]string{"Mcp-Param-City": "Paris"}

	status, r := httpCall(t, proxy.URL, 1, bookParams("", ""), city)
	if status != 200 || r.err != nil {
		t.Fatalf("round 1: %d %s", status, r.raw)
	}
	responses, state := answer(t, r.result)
	if state == "need-name" || state == "" {
		t.Fatalf("the requestState went out unsealed: %q", state)
	}
	// The stranger (another key) and a tampered state are refused.
	status, r = httpCall(t, stranger.URL, 2, bookParams(responses, state), city)
	if status != 400 || r.err == nil || r.err.Code != -32602 || !strings.Contains(r.err.Message, "requestState") {
		t.Errorf("a replica with another key: %d %s", status, r.raw)
	}
	// Alter the signature's first character (every bit of it counts).
	dot := strings.IndexByte(state, '.')
	tampered := state[:dot+1] + map[bool]string{true: "A", false: "B"}[state[dot+1] != 'A'] + state[dot+2:]
	status, r = httpCall(t, proxy.URL, 3, bookParams(responses, tampered), city)
	if status != 400 || r.err == nil || r.err.Code != -32602 {
		t.Errorf("a tampered state: %d %s", status, r.raw)
	}
	next.Add(1) // the tampered retry took a turn: round two goes to B

	status, r = httpCall(t, proxy.URL, 4, bookParams(responses, state), city)
	if status != 200 || r.err != nil {
		t.Fatalf("round 2: %d %s", status, r.raw)
	}
	responses, state = answer(t, r.result)
	status, r = httpCall(t, proxy.URL, 5, bookParams(responses, state), city)
	if status != 200 || r.err != nil {
		t.Fatalf("round 3: %d %s", status, r.raw)
	}
	var res struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(r.result, &res); err != nil || len(res.Content) != 1 || res.Content[0].Text != "booked for Ada in file:///home/ada" {
		t.Errorf("final result: %s", r.result)
	}
	mu.Lock()
	defer mu.Unlock()
	want := "A: B:need-name A:need-roots:Ada"
	if got := strings.Join(rounds, " "); got != want {
		t.Errorf("rounds %q, want %q (the refused retries never reach a handler)", got, want)
	}
}

// TestHTTPGeneratedHeaders: the generated handler enforces the tool's
// x-mcp-header annotations, which it reads from the server's own
// tools/list.
func TestHTTPGeneratedHeaders(t *testing.T) {
	var mu sync.Mutex
	var rounds []string
	srv := newBookServer(t, "A", &rounds, &mu, nil)
	cases := []struct {
		headers map[string]string
		args    string
		code    int64
	}{
		{map[string]string{"Mcp-Param-City": "Paris"}, `{"city":"Paris"}`, 0},
		{map[string]string{"Mcp-Param-City": "Paris", "Mcp-Param-Seats": "2.0"}, `{"city":"Paris","seats":2}`, 0},
		{map[string]string{"Mcp-Param-City": "=?base64?UGFyaXM=?="}, `{"city":"Paris"}`, 0},
		{nil, `{"city":"Paris"}`, -32020},
		{map[string]string{"Mcp-Param-City": "Lyon"}, `{"city":"Paris"}`, -32020},
		{map[string]string{"Mcp-Param-City": "Paris", "Mcp-Name": "other"}, `{"city":"Paris"}`, -32020},
		{map[string]string{"Mcp-Param-City": "Paris", "MCP-Protocol-Version": "2025-11-25"}, `{"city":"Paris"}`, -32022},
	}
	for i, c := range cases {
		params := `{` + metaWith(`"2026-07-28"`, httpMetaCaps) + `,"name":"book","arguments":` + c.args + `}`
		status, r := httpCall(t, srv.URL, i, params, c.headers)
		switch {
		case c.code == 0 && (status != 200 || r.err != nil):
			t.Errorf("%v: %d %s", c.headers, status, r.raw)
		case c.code != 0 && (status != 400 || r.err == nil || r.err.Code != c.code):
			t.Errorf("%v: %d %s, want 400 with %d", c.headers, status, r.raw, c.code)
		}
	}
}

// TestStdioMRTR: the same protection over stdio (Serve): the sealed state
// round-trips, a tampered one and answers of the wrong kind are refused.
func TestStdioMRTR(t *testing.T) {
	var mu sync.Mutex
	var rounds []string
	s := &bookServer{replica: "S", rounds: &rounds, mu: &mu}
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: serverInfo})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx, inR, outW) }()
	defer func() {
		cancel()
		inW.Close()
		outR.Close()
		<-done
	}()
	lines := bufio.NewReader(outR)
	call := func(id int, params string) response {
		t.Helper()
		if _, err := io.WriteString(inW, request(fmt.Sprint(id), "tools/call", params)+"\n"); err != nil {
			t.Fatal(err)
		}
		line, err := lines.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		return parseResponse(t, line[:len(line)-1])
	}
	r := call(1, bookParams("", ""))
	responses, state := answer(t, r.result)
	if r := call(2, bookParams(responses, state+"x")); r.err == nil || r.err.Code != -32602 {
		t.Errorf("tampered: %s", r.raw)
	}
	if r := call(3, bookParams(`{"who":{"roots":[]}}`, state)); r.err == nil || r.err.Code != -32602 || !strings.Contains(r.err.Message, "who") {
		t.Errorf("an answer of the wrong kind: %s", r.raw)
	}
	if r := call(4, bookParams(`{"who":{"action":"accept","content":{"name":""}}}`, state)); r.err == nil || r.err.Code != -32602 || !strings.Contains(r.err.Message, "requestedSchema") {
		t.Errorf("content that breaks the requestedSchema: %s", r.raw)
	}
	// Answers without the state the server issued reach the handler
	// with no state: it asks again.
	if r := call(5, strings.Replace(bookParams(responses, state), `,"requestState":`+quote(state), "", 1)); r.err != nil || !strings.Contains(string(r.result), `"input_required"`) {
		t.Errorf("inputResponses without requestState: %s", r.raw)
	}
	r = call(6, bookParams(responses, state))
	if r.err != nil {
		t.Fatalf("round 2: %s", r.raw)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(rounds, " "); got != "S: S: S:need-name" {
		t.Errorf("rounds %q", got)
	}
}

func TestExtensionMethods(t *testing.T) {
	d := newServer(toolsServer(), mcp.ServerOptions{ExtensionMethods: map[string]mcp.ExtensionMethod{
		"tasks/get": func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{"taskId":` + string(rtMember(params, "taskId")) + `,"status":"working"}`), nil
		},
		"tasks/bad": func(context.Context, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`[1]`), nil
		},
		"tasks/fail": func(context.Context, json.RawMessage) (json.RawMessage, error) {
			return nil, &mcp.RPCError{Code: -32602, Message: "unknown task"}
		},
	}})
	checkResult(t, handle(d, request(`1`, "tasks/get", `{`+meta+`,"taskId":"t1"}`)), "1", `{"taskId":"t1","status":"working"}`)
	checkError(t, handle(d, request(`2`, "tasks/get", `{`+metaWith(`"1999-01-01"`, `{}`)+`,"taskId":"t1"}`)), want{"2", -32022, "unsupported protocol version", "*"})
	checkError(t, handle(d, request(`3`, "tasks/bad", `{`+meta+`}`)), want{"3", -32603, "internal error: the extension method \"tasks/bad\" returned a result that is not a JSON object", ""})
	checkError(t, handle(d, request(`4`, "tasks/fail", `{`+meta+`}`)), want{"4", -32602, "unknown task", ""})
	checkResult(t, handle(d, request(`5`, "tools/list", `{`+meta+`}`)), "5", listToolsResult)
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "tools/call") {
			t.Errorf("an extension named like a method of the revision: %v", p)
		}
	}()
	newServer(toolsServer(), mcp.ServerOptions{ExtensionMethods: map[string]mcp.ExtensionMethod{
		"tools/call": func(context.Context, json.RawMessage) (json.RawMessage, error) { return nil, nil },
	}})
}

// rtMember returns the raw member name of a JSON object.
func rtMember(obj json.RawMessage, name string) json.RawMessage {
	var m map[string]json.RawMessage
	json.Unmarshal(obj, &m)
	return m[name]
}
