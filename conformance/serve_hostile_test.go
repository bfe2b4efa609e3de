package conformance

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Serve against a hostile or careless peer (issue 14): slow notifications,
// shutdown with handlers still running, pipelined floods, ids that are
// equal by value, several messages on one line.

// TestServeSlowNotification: a notification whose handler is slow does not
// hold up requests on the same connection; notifications are still handled
// in order.
func TestServeSlowNotification(t *testing.T) {
	release := make(chan struct{})
	got := make(chan string, 8)
	s := toolsServer()
	s.onCancelled = func(_ context.Context, p *mcp.CancelledNotificationParams) error {
		b, _ := p.RequestID.MarshalJSON()
		got <- string(b)
		if string(b) == `"slow"` {
			<-release
		}
		return nil
	}
	c := startServe(t, newServer(s, mcp.ServerOptions{}))
	c.send(notification("notifications/cancelled", `{"requestId":"slow"}`))
	if id := <-got; id != `"slow"` {
		t.Fatalf("first notification handled: %s", id)
	}
	// The slow handler is running: requests are answered meanwhile, and
	// so is one whose params carry 100,000 extra members.
	c.send(notification("notifications/cancelled", `{"requestId":"next"}`))
	c.send(request(`1`, "tools/list", `{`+meta+`}`))
	checkResult(t, []byte(c.next()), "1", listToolsResult)
	big := string(membersObject(meta+`,"name":"big"`, 100_000, ""))
	c.send(request(`2`, "tools/call", big))
	checkResult(t, []byte(c.next()), "2", `{`+resultMeta+`,"content":[{"type":"text","text":"big"}],"resultType":"complete"}`)
	select {
	case id := <-got:
		t.Fatalf("notification %s was handled while the one before it was running", id)
	default:
	}
	close(release)
	select {
	case id := <-got:
		if id != `"next"` {
			t.Errorf("second notification handled: %s", id)
		}
	case <-time.After(wait):
		t.Fatal("the second notification was not handled")
	}
}

// TestServeShutdownGrace: a handler that ignores its context does not keep
// Serve from returning once the grace period has passed, at the end of the
// input or when ctx is done; what it writes later is dropped.
func TestServeShutdownGrace(t *testing.T) {
	for _, how := range []string{"EOF", "ctx"} {
		t.Run(how, func(t *testing.T) {
			started := make(chan struct{})
			release := make(chan struct{})
			finished := make(chan struct{})
			s := toolsServer()
			s.callTool = func(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				if p.Name == "stuck" {
					close(started)
					<-release // ignores ctx
					defer close(finished)
				}
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
			}
			c := startServe(t, newServer(s, mcp.ServerOptions{ShutdownGrace: 50 * time.Millisecond}))
			c.send(request(`1`, "tools/call", `{`+meta+`,"name":"stuck"}`))
			<-started
			c.send(request(`2`, "tools/call", `{`+meta+`,"name":"quick"}`))
			checkResult(t, []byte(c.next()), "2", "")
			var err error
			var rest []string
			if how == "EOF" {
				rest, err = c.closeAndWait()
			} else {
				c.cancel()
				select {
				case err = <-c.done:
					c.done <- err
				case <-time.After(wait):
					t.Fatal("Serve did not return after the grace period")
				}
				for l := range c.lines {
					rest = append(rest, l)
				}
			}
			if err != nil {
				// Being stopped (Ctrl-C) is how a server ends, not an error.
				t.Errorf("Serve = %v, want nil", err)
			}
			if len(rest) != 0 {
				t.Errorf("output after the end = %q, want none", rest)
			}
			close(release)
			<-finished // its write, after Serve returned, must not panic or reach the output
		})
	}
}

// TestServeEOFAnswersPipelined: requests read before the end of the input
// are all answered, also beyond MaxInFlight (they start after others finish).
func TestServeEOFAnswersPipelined(t *testing.T) {
	const n = 1000
	c := startServe(t, newServer(toolsServer(), mcp.ServerOptions{}))
	var b strings.Builder
	for i := range n {
		b.WriteString(request(strconv.Itoa(i), "tools/list", `{`+meta+`}`))
		b.WriteByte('\n')
	}
	io.WriteString(c.in, b.String())
	rest, err := c.closeAndWait()
	if err != nil {
		t.Errorf("Serve = %v", err)
	}
	got := byID(t, rest)
	if len(rest) != n || len(got) != n {
		t.Fatalf("%d responses for %d ids, want %d", len(rest), len(got), n)
	}
	for i := range n {
		checkResult(t, []byte(got[strconv.Itoa(i)]), strconv.Itoa(i), listToolsResult)
	}
}

// TestServeCancelByValue: notifications/cancelled names a request by the
// value of its id, however either is spelled.
func TestServeCancelByValue(t *testing.T) {
	cases := []struct{ id, cancel string }{
		{`1e2`, `100`},
		{`100`, `1E+2`},
		{`100.0`, `100`},
		{`12345678901234567890123`, `1.2345678901234567890123e22`},
		{`-7`, `-7.00`},
		{`"\u0041"`, `"A"`},
		{`"A"`, `"\u0041"`},
		{`"é\/"`, `"\u00e9/"`},
	}
	started := make(chan string, 1)
	stopped := make(chan error, 1)
	s := toolsServer()
	s.callTool = func(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		started <- p.Name
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		stopped <- context.Cause(ctx)
		return nil, ctx.Err()
	}
	c := startServe(t, newServer(s, mcp.ServerOptions{}))
	for _, tc := range cases {
		c.send(request(tc.id, "tools/call", `{`+meta+`,"name":"wait"}`))
		<-started
		// Near misses do not cancel it: once the request after them is
		// answered, Serve has seen them.
		c.send(notification("notifications/cancelled", `{"requestId":"100"}`),
			notification("notifications/cancelled", `{"requestId":101}`),
			notification("notifications/cancelled", `{"requestId":"a"}`),
			request(`"probe"`, "tools/list", `{`+meta+`}`))
		checkResult(t, []byte(c.next()), `"probe"`, listToolsResult)
		select {
		case cause := <-stopped:
			t.Fatalf("request %s stopped (cause %v) before it was cancelled", tc.id, cause)
		default:
		}
		c.send(notification("notifications/cancelled", `{"requestId":`+tc.cancel+`}`))
		select {
		case cause := <-stopped:
			if cause == nil || cause == context.DeadlineExceeded {
				t.Errorf("request %s, cancelled as %s: handler stopped with cause %v", tc.id, tc.cancel, cause)
			}
		case <-time.After(2 * wait):
			t.Fatalf("cancelling %s did not cancel request %s", tc.cancel, tc.id)
		}
	}
	c.send(request(`"end"`, "tools/list", `{`+meta+`}`))
	rest, err := c.closeAndWait()
	if err != nil {
		t.Errorf("Serve = %v", err)
	}
	// Only the last request is answered: the cancelled ones get nothing.
	if len(rest) != 1 {
		t.Fatalf("output = %q, want one response", rest)
	}
	checkResult(t, []byte(rest[0]), `"end"`, listToolsResult)
}

// TestServeDuplicateID: a request whose id (by value) belongs to a request
// still in progress is refused with -32600; the first is answered, and
// once it is the id may be used again.
func TestServeDuplicateID(t *testing.T) {
	started := make(chan string, 4)
	release := make(chan struct{})
	s := toolsServer()
	s.callTool = func(_ context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		started <- p.Name
		<-release
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: p.Name}}}, nil
	}
	c := startServe(t, newServer(s, mcp.ServerOptions{}))
	c.send(request(`7`, "tools/call", `{`+meta+`,"name":"first"}`))
	c.send(request(`"x"`, "tools/call", `{`+meta+`,"name":"firstx"}`))
	<-started
	<-started
	for _, dup := range []string{`7`, `7.0`, `70e-1`, `"x"`, `"\u0078"`} {
		c.send(request(dup, "tools/call", `{`+meta+`,"name":"second"}`))
		checkError(t, []byte(c.next()), want{dup, -32600, "invalid request: the id is already used by a request in progress", ""})
	}
	close(release)
	got := byID(t, []string{c.next(), c.next()})
	checkResult(t, []byte(got["7"]), "7", `{`+resultMeta+`,"content":[{"type":"text","text":"first"}],"resultType":"complete"}`)
	checkResult(t, []byte(got[`"x"`]), `"x"`, `{`+resultMeta+`,"content":[{"type":"text","text":"firstx"}],"resultType":"complete"}`)
	// Answered: the id is free again.
	c.send(request(`7`, "tools/call", `{`+meta+`,"name":"again"}`))
	checkResult(t, []byte(c.next()), "7", `{`+resultMeta+`,"content":[{"type":"text","text":"again"}],"resultType":"complete"}`)
	if n := len(started); n != 1 {
		t.Errorf("%d handler calls after the first two, want 1 (the refused ones must not run)", n)
	}
}

// TestServeSeveralMessagesOnOneLine: the stdio transport puts one message
// on a line; a line with several ({...}{...}) gets each answered.
func TestServeSeveralMessagesOnOneLine(t *testing.T) {
	c := startServe(t, newServer(toolsServer(), mcp.ServerOptions{}))
	list := func(id string) string { return request(id, "tools/list", `{`+meta+`}`) }
	c.send(list(`1`) + list(`2`) + list(`3`))
	got := byID(t, []string{c.next(), c.next(), c.next()})
	for _, id := range []string{"1", "2", "3"} {
		checkResult(t, []byte(got[id]), id, listToolsResult)
	}
	// Whitespace between, a notification among them, braces in strings.
	c.send(" " + list(`4`) + "\t" + notification("notifications/cancelled", `{"requestId":"}{"}`) +
		request(`"}{\""`, "tools/call", `{`+meta+`,"name":"{[}]\\\"{"}`) + " ")
	got = byID(t, []string{c.next(), c.next()})
	checkResult(t, []byte(got["4"]), "4", listToolsResult)
	checkResult(t, []byte(got[`"}{\""`]), `"}{\""`, `{`+resultMeta+`,"content":[{"type":"text","text":"{[}]\\\"{"}],"resultType":"complete"}`)
	// A good message then garbage: the message is answered, the garbage
	// gets a parse error; an unclosed message runs to the end of the line.
	for _, tc := range []struct{ id, rest string }{{`5`, `garbage`}, {`6`, `{"jsonrpc":"2.0","id":7,`}} {
		c.send(list(tc.id) + tc.rest)
		a, b := c.next(), c.next()
		if strings.Contains(a, `"error"`) {
			a, b = b, a
		}
		checkResult(t, []byte(a), tc.id, listToolsResult)
		checkError(t, []byte(b), want{noID, -32700, "parse error: ", ""})
	}
	if rest, err := c.closeAndWait(); err != nil || len(rest) != 0 {
		t.Errorf("Serve = %v, extra output %q", err, rest)
	}
}

// countingReader counts what Serve has read and checks, at every read, that
// it holds no more than it may: what it read, less what it has answered,
// is within bound.
type countingReader struct {
	r        io.Reader
	read     atomic.Int64
	last     atomic.Int64 // time of the last read, UnixNano
	answered *atomic.Int64
	reqLen   int64
	bound    int64
	excess   atomic.Int64 // the largest overshoot seen
	reads    int
	peakHeap uint64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.last.Store(time.Now().UnixNano())
	held := c.read.Add(int64(n)) - c.answered.Load()*c.reqLen
	if over := held - c.bound; over > c.excess.Load() {
		c.excess.Store(over)
	}
	if c.reads++; c.reads%16 == 0 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		c.peakHeap = max(c.peakHeap, ms.HeapInuse+ms.StackInuse)
	}
	return n, err
}

// answerWriter takes Serve's output: each Write is one response line.
type answerWriter struct {
	mu       sync.Mutex
	answered *atomic.Int64
	seen     []bool
	bad      []string
}

func (w *answerWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := -1, error(nil)
	if _, rest, ok := bytes.Cut(p, []byte(`"id":"r`)); ok && len(rest) >= 6 {
		n, err = strconv.Atoi(string(rest[:6]))
	}
	switch {
	case n < 0 || err != nil || n >= len(w.seen) || w.seen[n] || !bytes.Contains(p, []byte(`"result"`)):
		if len(w.bad) < 5 {
			w.bad = append(w.bad, string(p))
		}
	default:
		w.seen[n] = true
	}
	w.answered.Add(1)
	return len(p), nil
}

// TestServeBoundedUnderLoad: 100,000 pipelined slow requests. The first
// handlers block until Serve has stopped reading (or has read more than it
// may hold); then all run. Serve never runs more than MaxInFlight handlers
// at once, never holds much more than MaxBufferedBytes of requests it has
// not answered, its heap stays bounded, and every request is answered.
func TestServeBoundedUnderLoad(t *testing.T) {
	const (
		n           = 100_000
		maxInFlight = 32
		maxBuffered = 256 << 10
	)
	var inFlight, peak atomic.Int64
	gate := make(chan struct{})
	s := toolsServer()
	s.callTool = func(_ context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		now := inFlight.Add(1)
		for old := peak.Load(); now > old && !peak.CompareAndSwap(old, now); old = peak.Load() {
		}
		<-gate
		time.Sleep(50 * time.Microsecond)
		inFlight.Add(-1)
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
	}
	d := newServer(s, mcp.ServerOptions{MaxInFlight: maxInFlight, MaxBufferedBytes: maxBuffered})
	line := func(i int) string {
		return request(fmt.Sprintf(`"r%06d"`, i), "tools/call", `{`+meta+`,"name":"slow"}`) + "\n"
	}
	reqLen := int64(len(line(0)))
	var answered atomic.Int64
	pr, pw := io.Pipe()
	// What Serve may hold beyond the answered requests: the buffered
	// messages (up to the bound, plus the one that crosses it), the one
	// the reader is handing over, its 64 KiB buffer, and the few responses
	// written but not yet counted as done.
	in := &countingReader{r: pr, answered: &answered, reqLen: reqLen,
		bound: maxBuffered + 64<<10 + 4*reqLen}
	out := &answerWriter{answered: &answered, seen: make([]bool, n)}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	go func() {
		var b strings.Builder
		for i := range n {
			b.WriteString(line(i))
			if i%256 == 255 || i == n-1 {
				if _, err := io.WriteString(pw, b.String()); err != nil {
					return
				}
				b.Reset()
			}
		}
		pw.Close()
	}()
	served := make(chan error, 1)
	go func() { served <- d.Serve(context.Background(), in, out) }()
	// Open the gate once every slot is taken and reading has stopped for a
	// while (or went too far). The pause only decides when the test goes
	// on; it cannot make a Serve that reads too much pass.
	var readAtGate int64
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		quiet := time.Since(time.Unix(0, in.last.Load())) > 100*time.Millisecond
		if r := in.read.Load(); r > in.bound || (quiet && peak.Load() == maxInFlight) || time.Now().After(deadline) {
			readAtGate = r
			break
		}
	}
	close(gate)
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve = %v", err)
		}
	case <-time.After(2 * time.Minute):
		pr.CloseWithError(errServeReturned)
		t.Fatalf("Serve did not finish: %d of %d answered", answered.Load(), n)
	}
	if p := peak.Load(); p != maxInFlight {
		t.Errorf("at most %d handlers ran at once, want MaxInFlight (%d)", p, maxInFlight)
	}
	if x := in.excess.Load(); x > 0 {
		t.Errorf("Serve read %d bytes more than it may hold unanswered (%d)", x, in.bound)
	}
	// While the handlers were blocked, Serve kept reading (requests wait
	// for a slot) until the bound: each request counts its size plus 256
	// bytes (ServerOptions.MaxBufferedBytes).
	if least := (maxBuffered/(reqLen+256) - 1) * reqLen; readAtGate < least {
		t.Errorf("Serve read %d bytes while its handlers were blocked, want at least %d", readAtGate, least)
	}
	if len(out.bad) > 0 {
		t.Errorf("unexpected responses: %q", out.bad)
	}
	missing := 0
	for _, ok := range out.seen {
		if !ok {
			missing++
		}
	}
	if missing > 0 || answered.Load() != n {
		t.Errorf("%d responses, %d requests unanswered, want %d answered", answered.Load(), missing, n)
	}
	// 100,000 requests are 20 MB; a goroutine each would be 800 MB more.
	grown := int64(in.peakHeap) - int64(before.HeapInuse+before.StackInuse)
	t.Logf("read %d bytes while blocked; peak heap and stacks grew by %.1f MB", readAtGate, float64(grown)/(1<<20))
	if grown > 64<<20 {
		t.Errorf("heap and stacks grew by %d MB while serving", grown>>20)
	}
}
