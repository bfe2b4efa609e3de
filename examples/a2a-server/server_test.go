package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/a2a-server/a2a"
)

// startAgent serves the agent on a loopback port for one test.
func startAgent(t *testing.T) *httptest.Server {
	t.Helper()
	clock := func() time.Time { return time.Date(2025, 4, 2, 16, 59, 25, 0, time.UTC) }
	srv := httptest.NewUnstartedServer(nil)
	srv.Config.Handler = newHandler(newAgent("http://"+srv.Listener.Addr().String()+"/", clock))
	srv.Config.ReadTimeout = 10 * time.Second
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// call POSTs one JSON-RPC message and returns the response body.
func call(t *testing.T, srv *httptest.Server, msg string) []byte {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Post(srv.URL+"/", "application/json", strings.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	return body
}

// result decodes a success response with the generated types: the
// response union of the schema, then the result of the method.
func result(t *testing.T, method string, body []byte) a2a.Value {
	t.Helper()
	var env struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(body, &env); err != nil || env.Result == nil {
		t.Fatalf("not a success response: %s", body)
	}
	var resp a2a.JSONRPCResponseHolder
	if err := a2a.UnmarshalAndValidate(body, &resp); err != nil {
		t.Fatalf("the response is not a valid JSONRPCResponse: %v\n%s", err, body)
	}
	v, err := a2a.DecodeResult(method, env.Result)
	if err != nil {
		t.Fatalf("%s result: %v", method, err)
	}
	if err := v.Validate(); err != nil {
		t.Fatalf("%s result: %v", method, err)
	}
	return v
}

// errorCode returns the code of an error response, checked against the
// schema's JSONRPCErrorResponse.
func errorCode(t *testing.T, body []byte) int64 {
	t.Helper()
	var e a2a.JSONRPCErrorResponse
	if err := a2a.UnmarshalAndValidate(body, &e); err != nil {
		t.Fatalf("not a valid error response: %v\n%s", err, body)
	}
	var env struct {
		Error struct {
			Code int64 `json:"code"`
		} `json:"error"`
	}
	json.Unmarshal(body, &env)
	return env.Error.Code
}

func TestAgentCard(t *testing.T) {
	srv := startAgent(t)
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(srv.URL + "/.well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var card a2a.AgentCard
	if err := a2a.UnmarshalAndValidate(body, &card); err != nil {
		t.Fatalf("the agent card is not valid: %v\n%s", err, body)
	}
	if card.URL != srv.URL+"/" || card.ProtocolVersion != "0.3.0" || len(card.Skills) != 1 || card.Capabilities.GetStreaming() {
		t.Errorf("card: %s", body)
	}
}

func TestSendAndGet(t *testing.T) {
	srv := startAgent(t)
	body := call(t, srv, `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"role":"user","kind":"message","messageId":"m1","parts":[{"kind":"text","text":"tell me a joke"}]}}}`)
	task, ok := result(t, a2a.MethodSendMessage, body).(*a2a.SendMessageSuccessResponseResultHolder)
	if !ok {
		t.Fatalf("message/send result is not the union's holder: %s", body)
	}
	tk, ok := task.Value.(*a2a.Task)
	if !ok {
		t.Fatalf("message/send answered with %T, want a task: %s", task.Value, body)
	}
	if tk.Status.State != a2a.TaskStateCompleted || len(tk.History) != 2 || len(tk.Artifacts) != 1 {
		t.Fatalf("task: %s", body)
	}
	if text := tk.Artifacts[0].Parts[0].(*a2a.TextPart).Text; text != "tell me a joke" {
		t.Errorf("artifact text %q", text)
	}

	got := call(t, srv, `{"jsonrpc":"2.0","id":"g","method":"tasks/get","params":{"id":"`+tk.ID+`","historyLength":1}}`)
	again := result(t, a2a.MethodGetTask, got).(*a2a.Task)
	if again.ID != tk.ID || len(again.History) != 1 || again.History[0].Role != a2a.MessageRoleAgent {
		t.Errorf("tasks/get with historyLength 1: %s", got)
	}
	if !bytes.Contains(got, []byte(`"id":"g"`)) {
		t.Errorf("the response does not carry the request's id: %s", got)
	}
}

// TestErrors checks the answers to what the agent does not do: each is
// A2A's error for it, a valid JSONRPCErrorResponse.
func TestErrors(t *testing.T) {
	srv := startAgent(t)
	sent := call(t, srv, `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"role":"user","kind":"message","messageId":"m1","parts":[{"kind":"text","text":"hi"}]}}}`)
	id := result(t, a2a.MethodSendMessage, sent).(*a2a.SendMessageSuccessResponseResultHolder).Value.(*a2a.Task).ID
	for _, c := range []struct {
		name, msg string
		code      int64
	}{
		{"unknown task", `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":"nope"}}`, a2a.CodeTaskNotFound},
		{"cancel a completed task", `{"jsonrpc":"2.0","id":3,"method":"tasks/cancel","params":{"id":"` + id + `"}}`, a2a.CodeTaskNotCancelable},
		{"stream", `{"jsonrpc":"2.0","id":4,"method":"message/stream","params":{"message":{"role":"user","kind":"message","messageId":"m2","parts":[{"kind":"text","text":"hi"}]}}}`, a2a.CodeUnsupportedOperation},
		{"push notifications", `{"jsonrpc":"2.0","id":5,"method":"tasks/pushNotificationConfig/get","params":{"id":"` + id + `"}}`, a2a.CodePushNotificationNotSupported},
		{"extended card", `{"jsonrpc":"2.0","id":6,"method":"agent/getAuthenticatedExtendedCard"}`, a2a.CodeAuthenticatedExtendedCardNotConfigured},
		{"file part", `{"jsonrpc":"2.0","id":7,"method":"message/send","params":{"message":{"role":"user","kind":"message","messageId":"m3","parts":[{"kind":"file","file":{"uri":"https://example.com/a.png"}}]}}}`, a2a.CodeContentTypeNotSupported},
		{"resubscribe (no result in the schema, left out)", `{"jsonrpc":"2.0","id":8,"method":"tasks/resubscribe","params":{"id":"` + id + `"}}`, a2a.CodeMethodNotFound},
		{"params missing a message", `{"jsonrpc":"2.0","id":9,"method":"message/send","params":{}}`, a2a.CodeInvalidParams},
		{"wrong kind of part", `{"jsonrpc":"2.0","id":10,"method":"message/send","params":{"message":{"role":"user","kind":"message","messageId":"m4","parts":[{"kind":"sound"}]}}}`, a2a.CodeInvalidParams},
		{"malformed JSON", `{"jsonrpc":"2.0","id":11,"method":`, a2a.CodeParseError},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := errorCode(t, call(t, srv, c.msg)); got != c.code {
				t.Errorf("code %d, want %d", got, c.code)
			}
		})
	}
}
