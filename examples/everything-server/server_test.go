package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// These tests drive the server through its dispatcher, without the
// conformance suite (make conformance runs that): every definition is
// valid, every interactive tool asks for input the dispatcher accepts,
// subscriptions and tasks work end to end.

const allCaps = `{"elicitation":{},"sampling":{},"roots":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`

func meta(caps string) string {
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func newTestServer(t *testing.T) (*server, *mcp.ServerDispatcher) {
	t.Helper()
	s := newServer(slog.New(slog.NewTextHandler(t.Output(), nil)))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.close(ctx); err != nil {
			t.Error(err)
		}
	})
	return s, mcp.NewServerDispatcher(s, s.options())
}

func call(t *testing.T, d *mcp.ServerDispatcher, method, params string) reply {
	t.Helper()
	b := d.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
	var r reply
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v in %s", method, err, b)
	}
	return r
}

func TestDefinitions(t *testing.T) {
	_, d := newTestServer(t)
	seen := map[string]bool{}
	for _, list := range []string{"tools/list", "prompts/list", "resources/list", "resources/templates/list"} {
		r := call(t, d, list, `{`+meta(`{}`)+`}`)
		if r.Error != nil {
			t.Fatalf("%s: %s", list, r.Error.Message)
		}
		var v struct {
			Tools   []struct{ Name string } `json:"tools"`
			Prompts []struct{ Name string } `json:"prompts"`
		}
		if err := json.Unmarshal(r.Result, &v); err != nil {
			t.Fatal(err)
		}
		for _, n := range append(v.Tools, v.Prompts...) {
			if seen[list+n.Name] {
				t.Errorf("%s lists %s twice", list, n.Name)
			}
			seen[list+n.Name] = true
		}
	}
	// What the conformance scenarios call, by area.
	for _, name := range []string{
		"test_simple_text", "test_tool_with_progress", "test_missing_capability", "test_trigger_prompt_change",
		"test_input_required_result_multi_round", "json_schema_2020_12_tool", "test_x_mcp_header",
		"greet", "slow_compute", "failing_job", "protocol_error_job", "confirm_delete", "multi_input", "test_tool_with_task",
	} {
		if !seen["tools/list"+name] {
			t.Errorf("tools/list lacks %s", name)
		}
	}
	for _, name := range []string{"test_simple_prompt", "test_prompt_with_arguments", "test_prompt_with_embedded_resource", "test_prompt_with_image", "test_input_required_result_prompt"} {
		if !seen["prompts/list"+name] {
			t.Errorf("prompts/list lacks %s", name)
		}
	}
}

// TestInteractiveTools: each tool that asks for input asks for something
// the dispatcher lets through (a valid InputRequiredResult).
func TestInteractiveTools(t *testing.T) {
	_, d := newTestServer(t)
	for _, name := range []string{
		"test_input_required_result_elicitation", "test_input_required_result_sampling", "test_input_required_result_list_roots",
		"test_input_required_result_request_state", "test_input_required_result_multiple_inputs", "test_input_required_result_multi_round",
		"test_input_required_result_tampered_state", "test_input_required_result_capabilities", "test_sampling", "test_elicitation",
		"test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums", "test_missing_capability", "test_streaming_elicitation",
	} {
		args := `{}`
		switch name {
		case "test_sampling":
			args = `{"prompt":"hi"}`
		case "test_elicitation":
			args = `{"message":"who?"}`
		}
		r := call(t, d, "tools/call", `{`+meta(allCaps)+`,"name":"`+name+`","arguments":`+args+`}`)
		var v struct {
			ResultType    string                     `json:"resultType"`
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
		}
		if r.Error != nil || json.Unmarshal(r.Result, &v) != nil || v.ResultType != "input_required" || len(v.InputRequests) == 0 {
			t.Errorf("%s: %+v %s", name, r.Error, r.Result)
		}
	}
	// Without the capability the tool needs, a -32021.
	if r := call(t, d, "tools/call", `{`+meta(`{}`)+`,"name":"test_missing_capability"}`); r.Error == nil || r.Error.Code != -32021 {
		t.Errorf("test_missing_capability without sampling: %+v", r)
	}
}

func TestTaskTool(t *testing.T) {
	_, d := newTestServer(t)
	r := call(t, d, "tools/call", `{`+meta(allCaps)+`,"name":"confirm_delete","arguments":{"filename":"a.txt"}}`)
	var c struct{ TaskID string }
	if r.Error != nil || json.Unmarshal(r.Result, &c) != nil || c.TaskID == "" {
		t.Fatalf("confirm_delete: %+v %s", r.Error, r.Result)
	}
	get := `{` + meta(allCaps) + `,"taskId":"` + c.TaskID + `"}`
	poll := func(status string) json.RawMessage {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			r := call(t, d, "tasks/get", get)
			var v struct{ Status string }
			if r.Error == nil && json.Unmarshal(r.Result, &v) == nil && v.Status == status {
				return r.Result
			}
		}
		t.Fatalf("task %s did not become %s", c.TaskID, status)
		return nil
	}
	poll("input_required")
	if r := call(t, d, "tasks/update", `{`+meta(allCaps)+`,"taskId":"`+c.TaskID+`","inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}}}`); r.Error != nil {
		t.Fatal(r.Error.Message)
	}
	if res := poll("completed"); !strings.Contains(string(res), "Deleted a.txt.") {
		t.Errorf("result %s", res)
	}
	// Without the extension the same tool is refused, and slow_compute
	// answers at once.
	if r := call(t, d, "tools/call", `{`+meta(`{}`)+`,"name":"confirm_delete","arguments":{"filename":"a.txt"}}`); r.Error == nil || r.Error.Code != -32021 {
		t.Errorf("confirm_delete without the extension: %+v", r)
	}
	if r := call(t, d, "tools/call", `{`+meta(`{}`)+`,"name":"slow_compute","arguments":{"seconds":0.01,"label":"x"}}`); r.Error != nil || !strings.Contains(string(r.Result), "x: computed") {
		t.Errorf("slow_compute without the extension: %+v %s", r.Error, r.Result)
	}
}

// TestSubscription: over HTTP, a subscription is acknowledged, hears of a
// tool list change, and ends with a result when the server shuts down.
func TestSubscription(t *testing.T) {
	s, d := newTestServer(t)
	srv := httptest.NewServer(mcp.NewHTTPHandler(d))
	t.Cleanup(srv.Close)
	body := `{"jsonrpc":"2.0","id":"sub-1","method":"subscriptions/listen","params":{` + meta(`{}`) + `,"notifications":{"toolsListChanged":true,"resourcesListChanged":true}}}`
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "text/event-stream", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				events <- data
			}
		}
		close(events)
	}()
	next := func() string {
		t.Helper()
		select {
		case e, ok := <-events:
			if !ok {
				t.Fatal("the stream ended")
			}
			return e
		case <-time.After(5 * time.Second):
			t.Fatal("no event")
		}
		return ""
	}
	ack := next()
	// The set grants what it sends (the resource list may change too) and
	// leaves out what it does not: the prompt list was not asked for.
	if !strings.Contains(ack, `"method":"notifications/subscriptions/acknowledged"`) || !strings.Contains(ack, `"io.modelcontextprotocol/subscriptionId":"sub-1"`) ||
		!strings.Contains(ack, `"toolsListChanged":true`) || !strings.Contains(ack, `"resourcesListChanged":true`) || strings.Contains(ack, "promptsListChanged") {
		t.Errorf("acknowledgement %s", ack)
	}
	if r := call(t, d, "tools/call", `{`+meta(`{}`)+`,"name":"test_trigger_tool_change"}`); r.Error != nil {
		t.Fatal(r.Error.Message)
	}
	if e := next(); !strings.Contains(e, `"method":"notifications/tools/list_changed"`) || !strings.Contains(e, `"sub-1"`) {
		t.Errorf("list change %s", e)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.close(ctx); err != nil {
		t.Fatal(err)
	}
	if e := next(); !strings.Contains(e, `"id":"sub-1"`) || !strings.Contains(e, `"result"`) {
		t.Errorf("closing event %s", e)
	}
}

// TestStdio: without -http the server speaks stdio.
func TestStdio(t *testing.T) {
	_, d := newTestServer(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx, inR, outW) }()
	fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":7,"method":"server/discover","params":{%s}}`+"\n", meta(`{}`))
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, `"io.modelcontextprotocol/tasks":{}`) || !strings.Contains(line, `"id":7`) {
		t.Errorf("discover over stdio: %s", line)
	}
	cancel()
	inW.Close()
	<-done
}

// TestChangesConverge: a change says what the set becomes, so applying it
// twice (a replica that hears it again) changes nothing more, and a replica
// that missed one agrees again at the next.
func TestChangesConverge(t *testing.T) {
	s, d := newTestServer(t)
	count := func() int {
		t.Helper()
		r := call(t, d, "tools/list", `{`+meta(`{}`)+`}`)
		return strings.Count(string(r.Result), `"name":"test_transient_tool"`)
	}
	on := event{method: mcp.MethodToolListChangedNotification, on: true}
	off := event{method: mcp.MethodToolListChangedNotification}
	for _, step := range []struct {
		e    event
		want int
	}{{on, 1}, {on, 1}, {off, 0}, {off, 0}, {on, 1}} {
		s.apply(step.e)
		if n := count(); n != step.want {
			t.Fatalf("after %+v: test_transient_tool listed %d times, want %d", step.e, n, step.want)
		}
	}
	s.apply(event{method: mcp.MethodPromptListChangedNotification, on: true})
	s.apply(event{method: mcp.MethodPromptListChangedNotification, on: true})
	if r := call(t, d, "prompts/list", `{`+meta(`{}`)+`}`); strings.Count(string(r.Result), `"test_transient_prompt"`) != 1 {
		t.Errorf("prompts/list: %s", r.Result)
	}
}

// TestMultiInputAnswers: multi_input completes when both of its forms are
// answered one at a time, each answer carrying the members of both forms
// (as the conformance suite answers them: a form's schema allows members it
// does not name).
func TestMultiInputAnswers(t *testing.T) {
	_, d := newTestServer(t)
	r := call(t, d, "tools/call", `{`+meta(allCaps)+`,"name":"multi_input"}`)
	var c struct{ TaskID string }
	if r.Error != nil || json.Unmarshal(r.Result, &c) != nil || c.TaskID == "" {
		t.Fatalf("multi_input: %+v %s", r.Error, r.Result)
	}
	get := `{` + meta(allCaps) + `,"taskId":"` + c.TaskID + `"}`
	wait := func(ok func(status string, pending int) bool) json.RawMessage {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			r := call(t, d, "tasks/get", get)
			var v struct {
				Status        string
				InputRequests map[string]json.RawMessage
			}
			if r.Error == nil && json.Unmarshal(r.Result, &v) == nil && ok(v.Status, len(v.InputRequests)) {
				return r.Result
			}
		}
		t.Fatalf("task %s did not get there", c.TaskID)
		return nil
	}
	wait(func(s string, n int) bool { return s == "input_required" && n == 2 })
	both := `{"action":"accept","content":{"name":"Ann","confirm":true}}`
	for _, key := range []string{"name", "confirm"} {
		if r := call(t, d, "tasks/update", `{`+meta(allCaps)+`,"taskId":"`+c.TaskID+`","inputResponses":{"`+key+`":`+both+`}}`); r.Error != nil {
			t.Fatal(r.Error.Message)
		}
	}
	res := wait(func(s string, _ int) bool { return s == "completed" || s == "failed" })
	if !strings.Contains(string(res), "name: Ann; confirmed: true") {
		t.Errorf("result %s", res)
	}
}
