package interop

// Tests that talk newline-delimited JSON-RPC to the server process
// directly, without the SDK, for what a well-behaved client never sends.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// rawServer is a server process driven over its stdin and stdout.
type rawServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    chan message // every stdout line, closed at EOF
	stderr *logBuffer
	// stray lists the messages read while waiting for another one.
	stray []message
	// waited is closed once close has reaped the process.
	waited chan struct{}
}

// startRaw starts the server with env added to its environment.
func startRaw(t *testing.T, ctx context.Context, env ...string) *rawServer {
	t.Helper()
	s := &rawServer{t: t, out: make(chan message, 64), stderr: new(logBuffer), waited: make(chan struct{})}
	s.cmd = serverCommand(ctx, s.stderr, env...)
	var err error
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", serverBin, err)
	}
	go func() {
		defer close(s.out)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
		for sc.Scan() {
			m, err := parseMessage(sc.Bytes())
			if err != nil {
				// stdio.mdx: the server MUST NOT write anything to its
				// stdout that is not a valid MCP message.
				t.Errorf("server wrote a line that is not a JSON-RPC message (%v): %q", err, sc.Text())
				continue
			}
			s.out <- m
		}
	}()
	t.Cleanup(func() {
		s.stdin.Close()
		select {
		case <-s.waited:
		default:
			// The test ended early: kill the process and reap it.
			s.cmd.Process.Kill()
			for range s.out {
			}
			s.cmd.Wait()
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	return s
}

// send writes one message (one line) to the server's stdin.
func (s *rawServer) send(line string) {
	s.t.Helper()
	if strings.Contains(line, "\n") {
		s.t.Fatalf("a message must not contain a newline: %q", line)
	}
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		s.t.Fatalf("writing to the server: %v", err)
	}
}

// next returns the next message the server writes.
func (s *rawServer) next(ctx context.Context) message {
	s.t.Helper()
	select {
	case m, ok := <-s.out:
		if !ok {
			s.t.Fatalf("the server closed its stdout; stderr:\n%s", s.stderr.String())
		}
		return m
	case <-ctx.Done():
		s.t.Fatalf("no message from the server: %v", ctx.Err())
	}
	panic("unreachable")
}

// call sends a request and returns the response whose id is id (JSON);
// other messages read meanwhile go to s.stray.
func (s *rawServer) call(ctx context.Context, id, line string) message {
	s.t.Helper()
	s.send(line)
	for {
		m := s.next(ctx)
		if m.hasID(id) {
			return m
		}
		s.stray = append(s.stray, m)
	}
}

// close closes stdin (the stdio shutdown signal), reads what the server
// still writes until it closes stdout, and checks that it exits with status
// 0. It returns every message read since the last call: the strays and the
// rest.
func (s *rawServer) close(ctx context.Context) []message {
	s.t.Helper()
	if err := s.stdin.Close(); err != nil {
		s.t.Fatalf("closing stdin: %v", err)
	}
	msgs := s.stray
	s.stray = nil
	for {
		select {
		case m, ok := <-s.out:
			if ok {
				msgs = append(msgs, m)
				continue
			}
		case <-ctx.Done():
			s.t.Fatalf("the server did not close stdout after stdin was closed: %v", ctx.Err())
		}
		break
	}
	errc := make(chan error, 1)
	go func() { errc <- s.cmd.Wait() }()
	select {
	case err := <-errc:
		close(s.waited)
		if err != nil {
			s.t.Errorf("server exit: %v; stderr:\n%s", err, s.stderr.String())
		}
	case <-ctx.Done():
		s.t.Fatalf("the server did not exit after stdin was closed: %v", ctx.Err())
	}
	return msgs
}

// checkError checks an error response: its id, and its error code.
func checkError(t *testing.T, m message, id string, code int64) {
	t.Helper()
	if !m.hasID(id) {
		t.Errorf("response id = %s, want %s: %s", m.ID, id, m.Line)
	}
	if m.Result != nil {
		t.Errorf("error response has a result: %s", m.Line)
	}
	if m.Error == nil {
		t.Fatalf("got %s, want an error with code %d", m.Line, code)
	}
	if m.Error.Code != code {
		t.Errorf("error code = %d, want %d: %s", m.Error.Code, code, m.Line)
	}
	if m.Error.Message == "" {
		t.Errorf("error message is empty: %s", m.Line)
	}
	if !jsonEqual([]byte(m.Members["jsonrpc"]), []byte(`"2.0"`)) {
		t.Errorf(`"jsonrpc" is not "2.0": %s`, m.Line)
	}
}

// checkAdd checks the response to tools/call add with a=40, b=2.
func checkAdd(t *testing.T, m message, id string) {
	t.Helper()
	if !m.hasID(id) || m.Error != nil || m.Result == nil {
		t.Fatalf("got %s, want the result of tools/call add with id %s", m.Line, id)
	}
	checkJSON(t, "result.content", member(m.Result, "content"), `[{"type":"text","text":`+quote(addText)+`}]`)
	checkJSON(t, "result.structuredContent", member(m.Result, "structuredContent"), `{"sum":42}`)
	checkJSON(t, "result.resultType", member(m.Result, "resultType"), `"complete"`)
}

func addRequest(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"add","arguments":{"a":40,"b":2},"_meta":` + metaJSON(protocolVersion) + `}}`
}

// TestRawCancel cancels an in-flight tools/call with notifications/cancelled.
// stdio.mdx ("Cancellation"): servers SHOULD stop work on a cancelled
// request and MUST NOT send any further messages for it; cancellation.mdx:
// unknown request ids SHOULD be ignored, and notifications are never
// answered (basic/index.mdx).
func TestRawCancel(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := startRaw(t, ctx, sleepEnv)

	s.send(`{"jsonrpc":"2.0","id":"cancel-me","method":"tools/call","params":{"name":"sleep","arguments":{"ms":600000},"_meta":` + metaJSON(protocolVersion) + `}}`)
	s.stderr.waitFor(t, ctx, `sleep "cancel-me": started`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"cancel-me","reason":"interop test"}}`)
	// The handler saw the cancellation and stopped (it would otherwise
	// sleep for ten minutes, and the server would not exit below).
	s.stderr.waitFor(t, ctx, `sleep "cancel-me": cancelled`)

	// A cancellation naming no in-flight request is ignored.
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"never-sent"}}`)

	// The server goes on serving.
	checkAdd(t, s.call(ctx, `"after"`, addRequest(`"after"`)), `"after"`)

	for _, m := range s.close(ctx) {
		if m.hasID(`"cancel-me"`) {
			t.Errorf("the server answered the cancelled request; stdio.mdx: servers MUST NOT send any further messages for a cancelled request: %s", m.Line)
		} else {
			t.Errorf("unexpected message: %s", m.Line)
		}
	}
}

// TestRawCancelCompleted cancels a request that has already been answered:
// the server may ignore it (cancellation.mdx, "Behavior Requirements") and
// must not answer the notification.
func TestRawCancelCompleted(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := startRaw(t, ctx, sleepEnv)
	checkAdd(t, s.call(ctx, `7`, addRequest(`7`)), `7`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"too late"}}`)
	checkAdd(t, s.call(ctx, `8`, addRequest(`8`)), `8`)
	for _, m := range s.close(ctx) {
		t.Errorf("unexpected message: %s", m.Line)
	}
}

// TestRawMalformedJSON sends lines that are not JSON: each gets a parse
// error (-32700), and the server goes on serving.
func TestRawMalformedJSON(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := startRaw(t, ctx)
	for _, line := range []string{
		`{"jsonrpc":"2.0","method":"tools/list","id":`, // ends before the id
		`this is not JSON`,
	} {
		s.send(line)
		m := s.next(ctx)
		if m.Error == nil || m.Error.Code != -32700 {
			t.Errorf("%q: got %s, want a parse error (-32700)", line, m.Line)
			continue
		}
		if m.Result != nil || m.Error.Message == "" {
			t.Errorf("%q: bad parse error response: %s", line, m.Line)
		}
		// The id could not be read. basic/index.mdx: the error response
		// then has no id ("id?: string | number"); the schema's
		// JSONRPCErrorResponse makes id optional and, when present, a
		// RequestId (string or integer), so null is not an MCP message.
		if m.ID != nil && !isRequestID(m.ID) {
			t.Errorf("%q: parse error response has \"id\": %s; the MCP schema allows only a string or an integer id, or none: %s", line, m.ID, m.Line)
		}
	}
	checkAdd(t, s.call(ctx, `1`, addRequest(`1`)), `1`)
	for _, m := range s.close(ctx) {
		t.Errorf("unexpected message: %s", m.Line)
	}
}

// isRequestID reports whether raw is a string or an integer.
func isRequestID(raw []byte) bool {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return false
	}
	switch v := v.(type) {
	case string:
		return true
	case json.Number:
		_, err := v.Int64()
		return err == nil
	}
	return false
}

// TestRawUnknownMethod sends a request and a notification of methods the
// protocol does not have: the request gets method not found (-32601), the
// notification nothing.
func TestRawUnknownMethod(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := startRaw(t, ctx)
	m := s.call(ctx, `"u1"`, `{"jsonrpc":"2.0","id":"u1","method":"no/such/method","params":{"_meta":`+metaJSON(protocolVersion)+`}}`)
	checkError(t, m, `"u1"`, -32601)
	// basic/index.mdx: the receiver of a notification MUST NOT send a response.
	s.send(`{"jsonrpc":"2.0","method":"notifications/no_such_notification","params":{}}`)
	checkAdd(t, s.call(ctx, `2`, addRequest(`2`)), `2`)
	for _, m := range s.close(ctx) {
		t.Errorf("unexpected message: %s", m.Line)
	}
}

// TestRawProtocolVersion checks the per-request protocol version and the
// required _meta fields (versioning.mdx, basic/index.mdx).
func TestRawProtocolVersion(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	s := startRaw(t, ctx)

	// An unknown version: UnsupportedProtocolVersionError listing what the
	// server supports.
	m := s.call(ctx, `1`, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":`+metaJSON("1900-01-01")+`}}`)
	checkError(t, m, `1`, -32022)
	if m.Error != nil {
		checkJSON(t, "error.data", m.Error.Data, `{"supported":["2026-07-28"],"requested":"1900-01-01"}`)
	}

	// Every request is checked on its own, not only server/discover: a
	// known legacy version on tools/call.
	m = s.call(ctx, `2`, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":`+metaJSON("2025-11-25")+`}}`)
	checkError(t, m, `2`, -32022)
	if m.Error != nil {
		checkJSON(t, "error.data", m.Error.Data, `{"supported":["2026-07-28"],"requested":"2025-11-25"}`)
	}

	// A request missing a required _meta field is malformed: -32602.
	m = s.call(ctx, `3`, `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}`)
	checkError(t, m, `3`, -32602)
	m = s.call(ctx, `4`, `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`)
	checkError(t, m, `4`, -32602)

	// The supported version works.
	m = s.call(ctx, `5`, `{"jsonrpc":"2.0","id":5,"method":"server/discover","params":{"_meta":`+metaJSON(protocolVersion)+`}}`)
	if m.Error != nil || m.Result == nil {
		t.Fatalf("server/discover: got %s, want a result", m.Line)
	}
	checkJSON(t, "result.supportedVersions", member(m.Result, "supportedVersions"), `["2026-07-28"]`)

	for _, m := range s.close(ctx) {
		t.Errorf("unexpected message: %s", m.Line)
	}
}
