package conformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp20250326"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Serve over pipes: the MCP stdio transport (basic/transports/stdio.mdx).

// wait bounds how long a test waits for something that should happen
// at once; it only elapses when the test fails, so it is generous (a
// loaded 2-core CI machine runs the packages' tests in parallel).
const wait = 10 * time.Second

type serveable interface {
	Serve(context.Context, io.Reader, io.Writer) error
}

var errServeReturned = errors.New("the dispatcher's Serve returned")

// conn is a dispatcher being served over a pair of pipes.
type conn struct {
	t      *testing.T
	in     *io.PipeWriter // what the test writes: the server's stdin
	lines  chan string    // the server's stdout, line by line
	done   chan error     // Serve's result
	cancel context.CancelFunc
}

func startServe(t *testing.T, d serveable) *conn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &conn{t: t, in: inW, lines: make(chan string, 1024), done: make(chan error, 1), cancel: cancel}
	go func() {
		err := d.Serve(ctx, inR, outW)
		inR.CloseWithError(errServeReturned) // unblock writers
		outW.Close()
		c.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		select {
		case <-c.done:
		case <-time.After(wait):
			t.Error("Serve did not return after its input was closed")
		}
	})
	return c
}

// send writes messages, each followed by a newline.
func (c *conn) send(msgs ...string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, strings.Join(msgs, "\n")+"\n"); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// next returns the next line the server writes.
func (c *conn) next() string {
	c.t.Helper()
	return c.nextWithin(wait)
}

// nextWithin is next with another bound on the wait, for inputs that take
// long to read (it bounds a hang; it measures nothing).
func (c *conn) nextWithin(d time.Duration) string {
	c.t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			// The output ends when Serve returns.
			err := <-c.done
			c.done <- err
			c.t.Fatalf("Serve returned (%v) while a response was expected", err)
		}
		return l
	case <-time.After(d):
		c.t.Fatal("no response")
	}
	return ""
}

// closeAndWait closes the input, waits for Serve and returns what it still
// wrote.
func (c *conn) closeAndWait() (rest []string, err error) {
	c.t.Helper()
	c.in.Close()
	select {
	case err = <-c.done:
		c.done <- err
	case <-time.After(wait):
		c.t.Fatal("Serve did not return at the end of its input")
	}
	for l := range c.lines {
		rest = append(rest, l)
	}
	return rest, err
}

// byID indexes response lines by their raw id.
func byID(t *testing.T, lines []string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, l := range lines {
		r := parseResponse(t, []byte(l))
		m[r.id] = l
	}
	return m
}

func TestServeConcurrent(t *testing.T) {
	arrived := make(chan string, 2)
	release := make(chan struct{})
	s := toolsServer()
	s.callTool = func(_ context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		arrived <- p.Name
		<-release
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
	}
	c := startServe(t, newServer(s, mcp.ServerOptions{}))
	c.send(request(`1`, "tools/call", `{`+meta+`,"name":"slow1"}`), request(`2`, "tools/call", `{`+meta+`,"name":"slow2"}`))
	for range 2 {
		select {
		case <-arrived:
		case <-time.After(wait):
			t.Fatal("the second request did not start while the first was running")
		}
	}
	// While both are blocked, a third request is answered.
	c.send(request(`3`, "tools/list", `{`+meta+`}`))
	checkResult(t, []byte(c.next()), "3", listToolsResult)
	close(release)
	got := byID(t, []string{c.next(), c.next()})
	for _, id := range []string{"1", "2"} {
		checkResult(t, []byte(got[id]), id, `{`+resultMeta+`,"content":[],"resultType":"complete"}`)
	}
	rest, err := c.closeAndWait()
	if err != nil || len(rest) != 0 {
		t.Errorf("Serve = %v, extra output %q", err, rest)
	}
}

func TestServeCancelled(t *testing.T) {
	started := make(chan string, 4)
	stopped := make(chan error, 4)
	cancelled := make(chan string, 4)
	s := toolsServer()
	s.callTool = func(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		started <- p.Name
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		stopped <- ctx.Err()
		return nil, ctx.Err()
	}
	s.onCancelled = func(_ context.Context, p *mcp.CancelledNotificationParams) error {
		b, _ := p.RequestID.MarshalJSON()
		cancelled <- string(b)
		return nil
	}
	c := startServe(t, newServer(s, mcp.ServerOptions{}))
	for _, id := range []string{`"w"`, `5`} {
		c.send(request(id, "tools/call", `{`+meta+`,"name":"wait"}`))
		<-started
		// Unknown ids are ignored.
		c.send(notification("notifications/cancelled", `{"requestId":"nope"}`))
		c.send(notification("notifications/cancelled", `{"requestId":`+id+`,"reason":"user"}`))
		select {
		case err := <-stopped:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("request %s: handler context error %v, want context.Canceled", id, err)
			}
		case <-time.After(wait):
			t.Fatalf("notifications/cancelled did not cancel request %s", id)
		}
		for _, want := range []string{`"nope"`, id} {
			if got := <-cancelled; got != want {
				t.Errorf("OnCancelled got requestId %s, want %s", got, want)
			}
		}
	}
	// The connection goes on.
	c.send(request(`6`, "tools/list", `{`+meta+`}`))
	rest, err := c.closeAndWait()
	if err != nil {
		t.Errorf("Serve = %v", err)
	}
	got := byID(t, rest)
	checkResult(t, []byte(got["6"]), "6", listToolsResult)
	// stdio.mdx, Cancellation: servers "MUST NOT send any further messages
	// for" a cancelled request. See DISPATCH_FINDINGS.md.
	for _, id := range []string{`"w"`, `5`} {
		if l, ok := got[id]; ok {
			t.Errorf("a response was sent for cancelled request %s: %s", id, l)
		}
	}
}

func TestServeLines(t *testing.T) {
	t.Run("one response per line", func(t *testing.T) {
		c := startServe(t, newServer(toolsServer(), mcp.ServerOptions{}))
		// Three requests in one write, with CRLF and blank lines between.
		c.send(request(`1`, "tools/list", `{`+meta+`}`) + "\r\n\n   \n" +
			request(`"two"`, "tools/call", `{`+meta+`,"name":"a\nb"}`) + "\n\t\n" +
			request(`3`, "nope", ""))
		got := byID(t, []string{c.next(), c.next(), c.next()})
		checkResult(t, []byte(got["1"]), "1", listToolsResult)
		checkResult(t, []byte(got[`"two"`]), `"two"`, `{`+resultMeta+`,"content":[{"type":"text","text":"a\nb"}],"resultType":"complete"}`)
		checkError(t, []byte(got["3"]), want{"3", -32601, "method not found", ""})
		// Notifications and responses get no line.
		c.send(notification("notifications/cancelled", `{"requestId":99}`), `{"jsonrpc":"2.0","id":1,"result":{}}`)
		rest, err := c.closeAndWait()
		if err != nil || len(rest) != 0 {
			t.Errorf("Serve = %v, extra output %q", err, rest)
		}
	})
	t.Run("last line without newline", func(t *testing.T) {
		c := startServe(t, newServer(toolsServer(), mcp.ServerOptions{}))
		io.WriteString(c.in, request(`1`, "tools/list", `{`+meta+`}`))
		rest, err := c.closeAndWait()
		if err != nil || len(rest) != 1 {
			t.Fatalf("Serve = %v, output %q", err, rest)
		}
		checkResult(t, []byte(rest[0]), "1", listToolsResult)
	})
}

func TestServeMalformedLinesContinue(t *testing.T) {
	c := startServe(t, newServer(toolsServer(), mcp.ServerOptions{}))
	c.send("garbage")
	checkError(t, []byte(c.next()), want{noID, -32700, "parse error: ", ""})
	c.send(`{"jsonrpc":"2.0","id":1,"method"`)
	checkError(t, []byte(c.next()), want{noID, -32700, "parse error: ", ""})
	c.send("{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"tools/list\"}")
	checkError(t, []byte(c.next()), want{noID, -32700, "parse error: ", ""})
	c.send(`42`)
	checkError(t, []byte(c.next()), want{noID, -32600, "invalid request: ", ""})
	c.send(`{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}`)
	checkError(t, []byte(c.next()), want{noID, -32600, `invalid request: duplicate member "method"`, ""})
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":5}`)
	checkError(t, []byte(c.next()), want{"2", -32600, `invalid request: "params" must be an object`, ""})
	c.send(`[` + request(`3`, "tools/list", `{`+meta+`}`) + `]`)
	checkError(t, []byte(c.next()), want{noID, -32600, "invalid request: ", ""})
	c.send(request(`4`, "tools/list", `{`+meta+`}`))
	checkResult(t, []byte(c.next()), "4", listToolsResult)
	if rest, err := c.closeAndWait(); err != nil || len(rest) != 0 {
		t.Errorf("Serve = %v, extra output %q", err, rest)
	}
}

// TestServeOversizedLine: a line longer than MaxMessageSize is answered
// with an error and the connection goes on. See DISPATCH_FINDINGS.md.
func TestServeOversizedLine(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 64 MiB")
	}
	c := startServe(t, newServer(toolsServer(), mcp.ServerOptions{}))
	head := request(`1`, "tools/list", `{`+meta+`,"pad":"`)
	big := make([]byte, 0, mcp.MaxMessageSize+64)
	big = append(big, head...)
	big = append(big, bytes.Repeat([]byte{'a'}, mcp.MaxMessageSize-len(head))...)
	big = append(big, `"}}`+"\n"...)
	big = append(big, request(`2`, "tools/list", `{`+meta+`}`)+"\n"...)
	wrote := make(chan error, 1)
	go func() { _, err := c.in.Write(big); wrote <- err }()
	// 64 MiB through a pipe on a loaded 2-core machine takes seconds.
	first := c.nextWithin(time.Minute)
	r := parseResponse(t, []byte(first))
	if r.err == nil || (r.err.Code != -32600 && r.err.Code != -32700) || (r.hasID && r.id != "null") {
		t.Errorf("oversized line answered with %s, want -32600 or -32700 without an id", first)
	}
	checkResult(t, []byte(c.next()), "2", listToolsResult)
	if err := <-wrote; err != nil {
		t.Errorf("writing after the oversized line: %v", err)
	}
	if rest, err := c.closeAndWait(); err != nil || len(rest) != 0 {
		t.Errorf("Serve = %v, extra output %q", err, rest)
	}
}

// TestServeEOFCancelsInFlight: at the end of the input Serve cancels the
// contexts of the handlers still running (the cause is io.EOF), writes their
// responses and returns (issue 14; stdio.mdx, Shutdown: the client closes
// the server's input and waits for it to exit).
func TestServeEOFCancelsInFlight(t *testing.T) {
	started := make(chan struct{})
	causes := make(chan error, 1)
	s := toolsServer()
	s.callTool = func(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		close(started)
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		causes <- context.Cause(ctx)
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
	}
	c := startServe(t, newServer(s, mcp.ServerOptions{}))
	c.send(request(`1`, "tools/call", `{`+meta+`,"name":"slow"}`))
	<-started
	rest, err := c.closeAndWait()
	if err != nil {
		t.Errorf("Serve = %v, want nil at EOF", err)
	}
	if cause := <-causes; cause != io.EOF {
		t.Errorf("the handler's context cause = %v, want io.EOF", cause)
	}
	if len(rest) != 1 {
		t.Fatalf("output after EOF = %q, want the one response", rest)
	}
	checkResult(t, []byte(rest[0]), "1", `{`+resultMeta+`,"content":[],"resultType":"complete"}`)
}

// TestServeReturnsWhenContextDone: Serve runs "until r ends or ctx is
// done"; an idle connection must not keep it (DISPATCH_FINDINGS.md), and
// being stopped is not an error: Serve returns nil.
func TestServeReturnsWhenContextDone(t *testing.T) {
	c := startServe(t, newServer(toolsServer(), mcp.ServerOptions{}))
	c.send(request(`1`, "tools/list", `{`+meta+`}`))
	c.next()
	c.cancel()
	select {
	case err := <-c.done:
		c.done <- err
		if err != nil {
			t.Errorf("Serve = %v, want nil", err)
		}
	case <-time.After(500 * time.Millisecond):
		t.Error("Serve did not return when its context was cancelled (it waits for the next input line)")
	}
}

// TestServeBatches20250326: 2025-03-26 allows JSON-RPC batches, and Serve
// is its stdio transport; Handle answers them but Serve must too. See
// DISPATCH_FINDINGS.md.
func TestServeBatches20250326(t *testing.T) {
	d := mcp20250326.NewServerDispatcher(legacy0326{}, mcp20250326.ServerOptions{})
	c := startServe(t, d)
	c.send(`[` + request(`1`, "ping", "") + `,` + request(`2`, "ping", "") + `]`)
	checkBatch(t, []byte(c.next()), isResult("1", `{}`), isResult("2", `{}`))
}

func TestServeSendNotification(t *testing.T) {
	s := toolsServer()
	s.callTool = func(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		err := mcp.SendNotification(ctx, mcp.MethodLoggingMessageNotification,
			&mcp.LoggingMessageNotificationParams{Level: mcp.LoggingLevelInfo, Data: json.RawMessage(`"working"`)})
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
	}
	c := startServe(t, newServer(s, mcp.ServerOptions{}))
	c.send(request(`1`, "tools/call", `{`+meta+`,"name":"t"}`))
	if got := c.next(); !jsonEqual([]byte(got), []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"working","level":"info"}}`)) {
		t.Errorf("notification = %s", got)
	}
	checkResult(t, []byte(c.next()), "1", `{`+resultMeta+`,"content":[],"resultType":"complete"}`)
	// Outside Serve there is no connection to send on.
	d := newServer(s, mcp.ServerOptions{})
	r := parseResponse(t, handle(d, request(`2`, "tools/call", `{`+meta+`,"name":"t"}`)))
	if r.err == nil || r.err.Code != -32603 || !strings.Contains(r.err.Message, "SendNotification") {
		t.Errorf("SendNotification outside Serve: %s", r.raw)
	}
}
