package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Bad input from a server: malformed JSON, a result that breaks the
// schema, a response to an id the client never sent, a stream that stops
// in the middle of a message. Each gives the call it concerns a clear
// error; the client's other calls go on working; and once the client is
// closed, no goroutine it started is left (counted with
// runtime.NumGoroutine, compared with the count before the test).

// discoverResult answers server/discover for 2026-07-28.
const discoverResult = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}`

// badReply is what the fake server answers to a tools/call whose tool
// name is the case's, as the whole line (stdio) or body (HTTP); %s is the
// request's id.
var badReplies = map[string]string{
	"malformed":     `{"jsonrpc":"2.0","id":%s,"result":{"content":[`,
	"schema":        `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","content":[{"type":"text"}]}}`,
	"wrong-id":      `{"jsonrpc":"2.0","id":9999,"result":{"resultType":"complete","content":[]}}`,
	"not-json-rpc":  `{"id":%s,"result":{}}`,
	"unknown-type":  `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"maybe","content":[]}}`,
	"error-garbage": `{"jsonrpc":"2.0","id":%s,"error":"nope"}`,
}

const goodReply = `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","content":[{"type":"text","text":"ok"}]}}`

// waitGoroutines fails the test when, within 5 seconds, the number of
// goroutines does not come back to at most before.
func waitGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("%d goroutines are left, %d before the test:\n%s", runtime.NumGoroutine(), before, buf[:n])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// fakeRequest is what the fake server reads of a request.
type fakeRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name string `json:"name"`
	} `json:"params"`
}

func callCase(c *mcp.Client, name string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: name})
	return err
}

func mustWork(t *testing.T, c *mcp.Client, after string) {
	t.Helper()
	if err := callCase(c, "good", 5*time.Second); err != nil {
		t.Fatalf("a good call after %s: %v", after, err)
	}
}

func TestClientBadInputStdio(t *testing.T) {
	before := runtime.NumGoroutine()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	var wmu sync.Mutex
	write := func(line string) {
		wmu.Lock()
		defer wmu.Unlock()
		io.WriteString(s2cW, line+"\n")
	}
	serverDone := make(chan struct{})
	go func() {
		defer close(serverDone)
		sc := bufio.NewScanner(c2sR)
		for sc.Scan() {
			var req fakeRequest
			if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
				continue // notifications/cancelled
			}
			switch {
			case req.Method == "server/discover":
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, discoverResult))
			case req.Params.Name == "good":
				write(fmt.Sprintf(goodReply, req.ID))
			case req.Params.Name == "truncated":
				// The stream stops in the middle of a message.
				io.WriteString(s2cW, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"res`, req.ID))
				s2cW.Close()
			default:
				write(strings.ReplaceAll(badReplies[req.Params.Name], "%s", string(req.ID)))
			}
		}
		s2cW.Close()
	}()
	conn := pipeConn{Reader: s2cR, WriteCloser: c2sW, r: s2cR}
	var logs logBuffer
	c, err := mcp.Connect(context.Background(), &mcp.StreamTransport{Conn: conn}, nil, mcp.ClientOptions{
		RequestTimeout: 300 * time.Millisecond,
		Logger:         logs.logger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		// On stdio a malformed line or a response to an unknown id names
		// no request: the call it was meant for gets no response, and its
		// error says what came instead.
		{"malformed", "meanwhile the server sent"},
		{"wrong-id", "a response to id 9999, which no request awaits"},
		{"not-json-rpc", `meanwhile the server sent invalid request: missing "jsonrpc": "2.0"`},
		{"schema", `the result of "tools/call": invalid: /content/0: missing required member "text"`},
		{"unknown-type", `unrecognized resultType "maybe"`},
		{"error-garbage", "malformed error"},
	} {
		err := callCase(c, tc.name, 5*time.Second)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
		mustWork(t, c, tc.name)
	}
	// The stream stops in the middle of a message: the call fails, and so
	// does every later one, saying that the server closed the connection.
	err = callCase(c, "truncated", 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "the server closed the connection") {
		t.Errorf("truncated: %v", err)
	}
	if err := callCase(c, "good", time.Second); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("a call after the server left: %v", err)
	}
	c.Close()
	<-serverDone
	waitGoroutines(t, before)
	if !strings.Contains(logs.String(), "dropped a message from the server") {
		t.Errorf("the dropped messages were not logged:\n%s", logs.String())
	}
}

func TestClientBadInputHTTP(t *testing.T) {
	before := runtime.NumGoroutine()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req fakeRequest
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &req) != nil {
			w.WriteHeader(400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch {
		case req.Method == "server/discover":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, discoverResult)
		case req.Params.Name == "good":
			fmt.Fprintf(w, goodReply, req.ID)
		case req.Params.Name == "truncated-json":
			// Content-Length promises more than comes.
			w.Header().Set("Content-Length", "500")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{`, req.ID)
		case req.Params.Name == "truncated-sse":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n")
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"res", req.ID)
		case req.Params.Name == "sse-no-response":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n")
		case req.Params.Name == "html":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(502)
			io.WriteString(w, "<html>bad gateway</html>")
		default:
			io.WriteString(w, strings.ReplaceAll(badReplies[req.Params.Name], "%s", string(req.ID)))
		}
	}))
	c, err := mcp.Connect(context.Background(), &mcp.HTTPTransport{URL: hs.URL}, nil, mcp.ClientOptions{RequestTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		{"malformed", `the server's response is not JSON: unexpected end of JSON input`},
		{"wrong-id", "the server answered with a response to id \"9999\"; the request's id is"},
		{"not-json-rpc", "not a JSON-RPC response"},
		{"schema", `the result of "tools/call": invalid: /content/0: missing required member "text"`},
		{"unknown-type", `unrecognized resultType "maybe"`},
		{"error-garbage", "malformed error"},
		{"truncated-json", "reading the response: unexpected EOF"},
		{"truncated-sse", "the response stream broke off in the middle of an event"},
		{"sse-no-response", "the server closed the response stream before the response"},
		{"html", "mcp: HTTP 502 Bad Gateway: <html>bad gateway</html>"},
	} {
		err := callCase(c, tc.name, 5*time.Second)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
		var se *mcp.HTTPStatusError
		if tc.name == "html" && (!errors.As(err, &se) || se.StatusCode != 502) {
			t.Errorf("html: %T, want *HTTPStatusError", err)
		}
		mustWork(t, c, tc.name)
	}
	c.Close()
	hs.Close()
	waitGoroutines(t, before)
}
