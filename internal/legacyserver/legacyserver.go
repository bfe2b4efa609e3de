// Package legacyserver is a small MCP server on the generated packages of
// the revisions with the initialize handshake (2025-11-25 and 2025-06-18),
// written the way a user would: its tools ask the client for input
// (SendRequest), log (Log), report progress (SendProgress) and poll their
// stream (CloseSSEStream), and the runtime does the rest (sessions,
// logging/setLevel, subscriptions, cancellation). The behaviour tests in
// conformance/ drive it in process; interop/legacyserver serves it to other
// SDKs' clients over stdio and HTTP.
package legacyserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// Versions are the protocol versions New serves.
var Versions = []string{"2025-11-25", "2025-06-18"}

// WatchedURI is the resource clients subscribe to.
const WatchedURI = "test://watched"

// Hooks let a test see into and steer the tools; nil channels are not used.
type Hooks struct {
	// Started receives the name of a blocking tool (block, chatty) once it
	// runs.
	Started chan string
	// Release lets a blocking tool go on.
	Release chan struct{}
	// AfterCancel receives what SendNotification and Log returned when the
	// block tool tried them after its context ended.
	AfterCancel chan [2]error
}

// Options configure New.
type Options struct {
	// Hooks, if set, let a test steer the blocking tools.
	Hooks *Hooks
	// RequestTimeout is the dispatcher's option of that name.
	RequestTimeout time.Duration
	// Logger is the dispatcher's option of that name.
	Logger *slog.Logger
}

// HTTPConfig is the part of the revision's HTTPOptions the tests set.
type HTTPConfig struct {
	Stateless           bool
	MaxSessions         int
	MaxPerClient        int
	SessionIdleTimeout  time.Duration
	SessionHistoryBytes int
	PollAfter           time.Duration
	PollRetry           time.Duration
	KeepAlive           time.Duration
}

// Server is the server of one revision: its dispatcher's methods.
type Server struct {
	Version string
	// Handle, Serve, Broadcast and NotifyResourceUpdated are the
	// dispatcher's methods.
	Handle                func(ctx context.Context, msg []byte) []byte
	Serve                 func(ctx context.Context, r io.Reader, w io.Writer) error
	Broadcast             func(method string, params json.RawMessage) (int, error)
	NotifyResourceUpdated func(uri string) int
	// HTTP returns the revision's NewHTTPHandler.
	HTTP func(HTTPConfig) http.Handler
}

// New returns the server of version (one of Versions).
func New(version string, opts Options) (*Server, error) {
	switch version {
	case "2025-11-25":
		return new20251125(opts), nil
	case "2025-06-18":
		return new20250618(opts), nil
	}
	return nil, fmt.Errorf("legacyserver: no server for %q; have %v", version, Versions)
}

// toolsJSON is the tools/list answer of both revisions.
const toolsJSON = `{"tools":[
{"name":"echo","description":"Returns its text.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}},
{"name":"elicit","description":"Asks the user for a name (elicitation/create) and greets it.","inputSchema":{"type":"object","properties":{"message":{"type":"string"}}}},
{"name":"sample","description":"Asks the client's model (sampling/createMessage).","inputSchema":{"type":"object","properties":{"prompt":{"type":"string"}}}},
{"name":"roots","description":"Lists the client's roots (roots/list).","inputSchema":{"type":"object"}},
{"name":"log","description":"Logs at debug, info, warning and error.","inputSchema":{"type":"object"}},
{"name":"progress","description":"Reports progress 1, 2, 3 of 3.","inputSchema":{"type":"object"}},
{"name":"block","description":"Waits until released or cancelled.","inputSchema":{"type":"object"}},
{"name":"chatty","description":"Logs, waits until released, logs again and answers.","inputSchema":{"type":"object"}},
{"name":"poll","description":"Ends its stream's connection (SSE polling), then logs and answers.","inputSchema":{"type":"object"}}
]}`

// rawJSON is params for SendRequest.
type rawJSON []byte

func (r rawJSON) AppendJSON(b []byte) ([]byte, error) { return append(b, r...), nil }

// rawResult receives a result as JSON.
type rawResult struct{ json.RawMessage }

func (r *rawResult) UnmarshalJSON(b []byte) error {
	r.RawMessage = append(r.RawMessage[:0], b...)
	return nil
}

// api is the revision's runtime helpers.
type api struct {
	sendRequest func(ctx context.Context, method string, params rawJSON, result *rawResult) error
	log         func(ctx context.Context, level, logger string, data any) error
	progress    func(ctx context.Context, progress, total float64, message string) error
	notify      func(ctx context.Context, method string, params rawJSON) error
	closeStream func(ctx context.Context, retry time.Duration) error
}

// callTool runs a tool and returns its text (or an error text with
// isError).
func callTool(ctx context.Context, a api, hooks *Hooks, name string, args json.RawMessage) (text string, isError bool, err error) {
	var in struct {
		Text    string `json:"text"`
		Message string `json:"message"`
		Prompt  string `json:"prompt"`
	}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &in); err != nil {
			return "bad arguments: " + err.Error(), true, nil
		}
	}
	switch name {
	case "echo":
		return in.Text, false, nil
	case "elicit":
		msg := in.Message
		if msg == "" {
			msg = "What is your name?"
		}
		params, _ := json.Marshal(map[string]any{
			"message": msg,
			"requestedSchema": map[string]any{
				"type":       "object",
				"properties": map[string]any{"name": map[string]any{"type": "string"}},
				"required":   []string{"name"},
			},
		})
		var res rawResult
		if err := a.sendRequest(ctx, "elicitation/create", params, &res); err != nil {
			return "elicitation failed: " + err.Error(), true, nil
		}
		var r struct {
			Action  string `json:"action"`
			Content struct {
				Name string `json:"name"`
			} `json:"content"`
		}
		json.Unmarshal(res.RawMessage, &r)
		if r.Action != "accept" {
			return "the user chose " + r.Action, false, nil
		}
		return "Hello, " + r.Content.Name + "!", false, nil
	case "sample":
		params, _ := json.Marshal(map[string]any{
			"messages":  []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": in.Prompt}}},
			"maxTokens": 100,
		})
		var res rawResult
		if err := a.sendRequest(ctx, "sampling/createMessage", params, &res); err != nil {
			return "sampling failed: " + err.Error(), true, nil
		}
		var r struct {
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		json.Unmarshal(res.RawMessage, &r)
		return "The model said: " + r.Content.Text, false, nil
	case "roots":
		var res rawResult
		if err := a.sendRequest(ctx, "roots/list", nil, &res); err != nil {
			return "roots/list failed: " + err.Error(), true, nil
		}
		var r struct {
			Roots []struct {
				URI string `json:"uri"`
			} `json:"roots"`
		}
		json.Unmarshal(res.RawMessage, &r)
		var uris []string
		for _, root := range r.Roots {
			uris = append(uris, root.URI)
		}
		return strings.Join(uris, " "), false, nil
	case "log":
		for _, l := range []string{"debug", "info", "warning", "error"} {
			if err := a.log(ctx, l, "legacyserver", l+" message"); err != nil {
				return "", false, err
			}
		}
		return "logged", false, nil
	case "progress":
		for i := 1; i <= 3; i++ {
			if err := a.progress(ctx, float64(i), 3, fmt.Sprintf("step %d", i)); err != nil {
				return "", false, err
			}
		}
		return "done", false, nil
	case "block":
		started(hooks, name)
		select {
		case <-release(hooks):
			return "released", false, nil
		case <-ctx.Done():
		}
		if hooks != nil && hooks.AfterCancel != nil {
			hooks.AfterCancel <- [2]error{
				a.notify(ctx, "notifications/message", rawJSON(`{"level":"error","data":"after cancel"}`)),
				a.log(ctx, "emergency", "legacyserver", "after cancel"),
			}
		}
		return "", false, ctx.Err()
	case "chatty":
		if err := a.log(ctx, "info", "legacyserver", "first"); err != nil {
			return "", false, err
		}
		started(hooks, name)
		select {
		case <-release(hooks):
		case <-ctx.Done():
			return "", false, ctx.Err()
		}
		if err := a.log(ctx, "info", "legacyserver", "second"); err != nil {
			return "", false, err
		}
		return "chatted", false, nil
	case "poll":
		if err := a.closeStream(ctx, 50*time.Millisecond); err != nil {
			return "", false, err
		}
		time.Sleep(20 * time.Millisecond)
		if err := a.log(ctx, "info", "legacyserver", "after the poll"); err != nil {
			return "", false, err
		}
		return "polled", false, nil
	}
	return "", false, errors.New("unknown tool " + name)
}

func started(h *Hooks, name string) {
	if h != nil && h.Started != nil {
		h.Started <- name
	}
}

func release(h *Hooks) <-chan struct{} {
	if h == nil {
		return nil
	}
	return h.Release
}

// resourcesJSON is the resources/list answer.
var resourcesJSON = []byte(`{"resources":[{"uri":"` + WatchedURI + `","name":"watched","mimeType":"text/plain"}]}`)

// resourceText is what WatchedURI holds.
const resourceText = "watched resource"

// textResult is a CallToolResult with one text block, as JSON.
func textResult(text string, isError bool) []byte {
	b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": isError})
	return b
}

// resourceResult is the ReadResourceResult of WatchedURI, as JSON.
func resourceResult() []byte {
	b, _ := json.Marshal(map[string]any{"contents": []any{map[string]any{"uri": WatchedURI, "mimeType": "text/plain", "text": resourceText}}})
	return b
}

// errUnknownResource answers resources/read of another URI.
func errUnknownResource(uri string) error {
	return fmt.Errorf("unknown resource %q", uri)
}
