package jsonrpc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// This file serves a dispatcher over a stream of messages: newline-delimited
// JSON-RPC messages, as the MCP stdio transport defines them (Serve), or
// any Stream (ServeStream).

// MaxMessageSize bounds one message read from a connection (64 MiB).
const MaxMessageSize = 64 << 20

// Stream carries whole JSON-RPC messages both ways, each a message or a
// batch without framing: a transport of one's own (an in-process pipe, a
// WebSocket, a message queue, a test double). NewLineStream is MCP's stdio
// framing as a Stream.
type Stream interface {
	// Read returns the next message. It returns io.EOF once the peer has
	// ended the stream, an error wrapping ErrTooLong for a message it
	// skipped for its size (the connection answers it, or fails the
	// request of its own that it may answer, and reads on), and
	// ctx's error once ctx is done (the connection stops reading then).
	Read(ctx context.Context) ([]byte, error)
	// Write sends one message. The connection does not call it
	// concurrently and does not keep msg; ctx ends when the connection
	// does.
	Write(ctx context.Context, msg []byte) error
	// Close ends the stream; a Read or Write blocked on it returns.
	Close() error
}

// ErrTooLong is what a Stream's Read returns (wrapped) for a message
// longer than it accepts, which it skipped; a message longer than
// MaxMessageSize is skipped by the connection too.
var ErrTooLong = fmt.Errorf("message longer than %d bytes", MaxMessageSize)

// NewLineStream returns MCP's stdio framing as a Stream: one message per
// line, read from r and written to w; a line that holds several messages
// one after the other is split into them. Close closes c (nil: nothing).
// A Read blocked on r cannot be interrupted (an io.Reader has no way to):
// it returns when r does.
func NewLineStream(r io.Reader, w io.Writer, c io.Closer) Stream {
	return &lineStream{r: bufio.NewReaderSize(r, 64<<10), w: w, c: c}
}

// lineStream is NewLineStream's Stream.
type lineStream struct {
	r       *bufio.Reader
	w       io.Writer
	c       io.Closer
	pending [][]byte // messages of the last line not yet returned
	err     error    // the error that ended the input, once pending is empty
}

func (s *lineStream) Read(context.Context) ([]byte, error) {
	for {
		if len(s.pending) > 0 {
			msg := s.pending[0]
			s.pending[0] = nil
			s.pending = s.pending[1:]
			return msg, nil
		}
		if s.err != nil {
			return nil, s.err
		}
		line, err := readLine(s.r)
		if errors.Is(err, ErrTooLong) {
			return nil, err
		}
		if msg, ok := singleMessage(line); ok {
			// The common case: one message on the line.
			s.pending = append(s.pending[:0], msg)
		} else {
			s.pending = splitMessages(line)
		}
		s.err = err
	}
}

func (s *lineStream) Write(_ context.Context, msg []byte) error {
	_, err := s.w.Write(append(msg, '\n'))
	return err
}

func (s *lineStream) Close() error {
	if s.c == nil {
		return nil
	}
	return s.c.Close()
}

// The defaults of the limits Serve puts on one connection; the generated
// ServerOptions and ClientOptions document them.
const (
	defaultShutdownGrace = 5 * time.Second
	// StopWait is how long Serve, once its context is done, lets the
	// handlers end by themselves after Dispatcher.Stopping, before it
	// cancels their contexts.
	StopWait           = 250 * time.Millisecond
	defaultMaxInFlight = 64
	defaultMaxBuffered = 16 << 20
	// messageOverhead is what a buffered message counts toward the
	// buffered bytes beyond its own size: the bookkeeping of a queued
	// message, so that many tiny messages are bounded too.
	messageOverhead = 256
)

// Limits bound one connection; zero values mean the defaults.
type Limits struct {
	// Grace is how long a connection that is shutting down waits for its
	// running handlers; negative means not at all.
	Grace time.Duration
	// MaxInFlight is how many requests (and batches) are handled at once.
	MaxInFlight int
	// MaxBuffered is how many bytes of messages (read, not yet finished
	// with) a connection holds before it stops reading.
	MaxBuffered int
	// RequestTimeout bounds a request sent to the peer; zero means
	// DefaultRequestTimeout, negative no limit.
	RequestTimeout time.Duration
	// MaxResult bounds the response to a request (the whole message, in
	// bytes) that carries a result, on any transport: a longer one is not
	// sent, the request is answered with what Dispatcher.TooLarge gives
	// or an internal error. Zero means MaxMessageSize (what a peer that
	// reads with the default limit takes); negative, no limit.
	MaxResult int
}

// ResultLimit is MaxResult with its default: the most bytes a response
// with a result may have, or 0 for no limit.
func (l Limits) ResultLimit() int {
	switch {
	case l.MaxResult == 0:
		return MaxMessageSize
	case l.MaxResult < 0:
		return 0
	}
	return l.MaxResult
}

// WithDefaults returns l with the defaults in place of zero values.
func (l Limits) WithDefaults() Limits {
	switch {
	case l.Grace == 0:
		l.Grace = defaultShutdownGrace
	case l.Grace < 0:
		l.Grace = 0
	}
	if l.MaxInFlight <= 0 {
		l.MaxInFlight = defaultMaxInFlight
	}
	if l.MaxBuffered <= 0 {
		l.MaxBuffered = defaultMaxBuffered
	}
	return l
}

// Conn is one connection over a Stream, a server's or a client's: the
// dispatcher that handles what the peer sends, and the peer.
type Conn struct {
	d *Dispatcher
	s Stream
	// wctx is the context of writes; it ends when the connection does.
	wctx    context.Context
	wcancel context.CancelFunc
	// peer is the other end: the requests sent to it, and the protocol's
	// state about it.
	peer *Peer
	// wmu orders writes, and makes a request's cancellation and the
	// check that nothing more about it is written one step.
	wmu sync.Mutex
	// closed is set (under wmu) when serve returns: later writes, from
	// handlers that outlived the grace period, are dropped.
	closed bool
	mu     sync.Mutex
	// calls are the requests read and not yet answered, by the value of
	// their id (IDKey), so that the Cancel notification finds them and a
	// second request with the same id is refused.
	calls map[string]*rpcCall
}

// rpcCall is one message waiting to be handled or being handled.
type rpcCall struct {
	msg          []byte
	notification bool
	id           []byte // a request's id as read
	key          string // IDKey(id); "" for a notification or a batch
	cost         int    // what it counts toward the buffered bytes
	// ctx is the context of a request or batch; cancel cancels it.
	ctx    context.Context
	cancel context.CancelCauseFunc
	// answered is set (under the connection's wmu) once the response is
	// written or dropped: nothing about the request goes out after it.
	answered bool
}

// connLink is the link of a request (or, with a nil call, of a
// notification) read by serve: its messages are lines of the connection.
type connLink struct {
	c    *Conn
	call *rpcCall
	RequestProgress
}

func (l *connLink) Notify(msg []byte) error    { return l.c.writeFor(l.call, msg, false) }
func (l *connLink) Peer() *Peer                { return l.c.peer }
func (l *connLink) Dispatcher() *Dispatcher    { return l.c.d }
func (l *connLink) HTTPRequest() *http.Request { return nil }

// ErrConnClosed is what a write returns after Serve has returned.
var ErrConnClosed = errors.New("jsonrpc: the connection is closed (Serve has returned)")

// serveRead is one message read by readStream, or the error that ends
// (or, for ErrTooLong, interrupts) the input.
type serveRead struct {
	msg []byte
	err error
}

// Serve reads messages from in until it ends or ctx is done, handles
// requests concurrently, and writes the responses to out, one per line.
//
// The Cancel notification cancels the context of the request it names
// (found by the value of its id), and that request gets no response.
// Notifications are handled one at a time, in order, on a goroutine of
// their own, so that a slow one does not hold up requests. At most
// MaxInFlight requests are handled at once; later ones wait in order, and
// once MaxBuffered bytes of messages wait or are being handled, Serve stops
// reading until some finish (back-pressure on the peer).
//
// When in ends (or fails, or ctx is done), Serve cancels the contexts of
// all handlers with the read error (io.EOF) or ctx's cause, still handles
// the requests it has read, writes every response that is ready within the
// grace period, and returns: nil at the end of in or when ctx is done, or
// the read error. A read blocked on in is left behind (an io.Reader cannot
// be interrupted), and so are handlers that ignore their context past the
// grace period; what they write later is dropped. Requests sent to the
// peer and still waiting fail then.
func (d *Dispatcher) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return d.NewConn(NewLineStream(in, out, nil)).Serve(ctx)
}

// ServeStream is Serve over a Stream: it reads messages from s until s
// ends or ctx is done, and writes the responses to s. It does not close s.
func (d *Dispatcher) ServeStream(ctx context.Context, s Stream) error {
	return d.NewConn(s).Serve(ctx)
}

// NewConn returns a connection over s, with its peer; Serve reads its
// input. A client makes one, starts Serve in a goroutine and sends its
// requests with Peer().Call.
func (d *Dispatcher) NewConn(s Stream) *Conn {
	c := &Conn{d: d, s: s, calls: map[string]*rpcCall{}}
	c.wctx, c.wcancel = context.WithCancel(context.Background())
	c.peer = NewPeer(d, func(msg []byte) error { return c.write(msg) })
	if d.Protocol != nil {
		d.Protocol.Opened(d, c.peer)
	}
	return c
}

// Peer returns the connection's peer.
func (c *Conn) Peer() *Peer { return c.peer }

// Serve serves the connection until its stream ends or ctx is done; see
// Dispatcher.Serve. It does not close the stream.
func (c *Conn) Serve(ctx context.Context) error {
	d := c.d
	lim := d.Limits.WithDefaults()
	if d.Protocol != nil {
		defer d.Protocol.Closed(d, c.peer)
	}
	defer c.peer.Close(ErrConnClosed)
	// hctx is the parent of every handler's context. It has ctx's values
	// but not its end: when ctx is done, the loop below cancels the
	// handlers (after Dispatcher.Stopping has let them end by themselves).
	hctx, stopHandlers := context.WithCancelCause(WithLink(context.WithoutCancel(ctx), &connLink{c: c}))
	defer stopHandlers(nil)
	defer c.close()

	stop := make(chan struct{})
	defer close(stop)
	reads := make(chan serveRead)
	rctx, stopReading := context.WithCancel(context.Background())
	defer stopReading()
	go readStream(rctx, c.s, reads, stop)

	// Handlers report to done, or give up once serve has returned.
	done := make(chan *rpcCall)
	notes := make(chan *rpcCall)
	notesDone := make(chan *rpcCall)
	go c.notificationLoop(hctx, notes, notesDone, stop)

	var (
		pending  []*rpcCall // requests and batches waiting for a slot, in order
		queued   []*rpcCall // notifications waiting for notificationLoop
		noting   bool       // notificationLoop has one
		inFlight int
		buffered int
		ending   bool
		endErr   error
		graceC   <-chan time.Time
		stopC    <-chan time.Time // after Stopping: cancel the handlers then
		ctxDone  = ctx.Done()
	)
	end := func(cause, err error) {
		ending, endErr = true, err
		ctxDone = nil
		stopHandlers(cause)
		graceC = time.After(lim.Grace)
	}
	for {
		for inFlight < lim.MaxInFlight && len(pending) > 0 {
			call := pending[0]
			pending[0] = nil
			pending = pending[1:]
			if errors.Is(context.Cause(call.ctx), ErrCancelledByPeer) {
				// Cancelled before it started: it gets no response.
				c.forget(call)
				call.cancel(nil)
				buffered -= call.cost
				d.LogAttrs(slog.LevelDebug, "jsonrpc: a request was cancelled by the peer; not answering it", slog.String(LogKeyRequestID, codec.Clip(string(call.id), codec.MaxQuoted)))
				continue
			}
			inFlight++
			go c.run(call, done, stop)
		}
		if ending && inFlight == 0 && len(pending) == 0 && len(queued) == 0 && !noting {
			return endErr
		}
		var readC <-chan serveRead
		if !ending && buffered < lim.MaxBuffered {
			readC = reads
		}
		var noteC chan<- *rpcCall
		var next *rpcCall
		if !noting && len(queued) > 0 {
			noteC, next = notes, queued[0]
		}
		select {
		case r := <-readC:
			switch {
			case r.msg != nil:
				if call := c.accept(hctx, r.msg); call != nil {
					buffered += call.cost
					if call.notification {
						queued = append(queued, call)
					} else {
						pending = append(pending, call)
					}
				}
			case errors.Is(r.err, ErrTooLong):
				// The rest of the line was skipped: answer (or fail the
				// request it answers) and go on.
				c.tooLong(r.err)
			case r.err == io.EOF:
				end(io.EOF, nil)
			default:
				end(r.err, r.err)
			}
		case call := <-done:
			inFlight--
			buffered -= call.cost
		case noteC <- next:
			queued[0] = nil
			queued = queued[1:]
			noting = true
		case call := <-notesDone:
			noting = false
			buffered -= call.cost
		case <-ctxDone:
			// Being stopped is how a server ends (Ctrl-C): not an error.
			if d.Stopping == nil || inFlight == 0 {
				end(context.Cause(ctx), nil)
				break
			}
			// Ask the handlers that do not end by themselves to end
			// (their results are still written), and stop reading.
			ending, ctxDone = true, nil
			d.Stopping()
			stopC = time.After(StopWait)
		case <-stopC:
			stopC = nil
			end(context.Cause(ctx), nil)
		case <-graceC:
			d.LogAttrs(slog.LevelWarn, "jsonrpc: Serve returns with requests still running after the shutdown grace period", slog.Int("running", inFlight), slog.Int("not_started", len(pending)))
			return endErr
		}
	}
}

// accept reads a message's envelope and returns what is to be handled: a
// request or batch (with its own context), a notification (without), or
// nil when the message is answered (or dropped) at once.
func (c *Conn) accept(hctx context.Context, msg []byte) *rpcCall {
	cost := len(msg) + messageOverhead
	if msg[0] == '[' {
		// A batch (or an array where the revision has none): answered as a
		// whole by handle, like a request.
		call := &rpcCall{msg: msg, cost: cost}
		call.ctx, call.cancel = context.WithCancelCause(hctx)
		call.ctx = WithLink(call.ctx, &connLink{c: c, call: call})
		return call
	}
	d := c.d
	env, errResp := d.ReadEnvelope(msg)
	switch {
	case errResp != nil:
		if d.OnBadMessage != nil {
			d.OnBadMessage(msg, errResp)
			return nil
		}
		c.write(errResp)
		return nil
	case env.Response && env.Method == "":
		d.Handle(hctx, msg) // OnResponse
		return nil
	case env.ID == nil:
		if d.Cancel != "" && env.Method == d.Cancel {
			c.cancel(env.Params)
		}
		if d.Protocol != nil {
			d.Protocol.Read(d, c.peer, &env)
		}
		return &rpcCall{msg: msg, notification: true, cost: cost}
	}
	call := &rpcCall{msg: msg, id: env.ID, key: IDKey(env.ID), cost: cost}
	call.ctx, call.cancel = context.WithCancelCause(hctx)
	call.ctx = WithLink(call.ctx, &connLink{c: c, call: call})
	c.mu.Lock()
	_, dup := c.calls[call.key]
	if !dup {
		c.calls[call.key] = call
	}
	c.mu.Unlock()
	if dup {
		call.cancel(nil)
		// basic/index.mdx (2026-07-28): the request ID "MUST NOT match
		// the ID of any other request the sender has issued and not yet
		// received a response for"; the two could not be told apart
		// (cancellation, responses), so the second is refused.
		c.write(d.ErrorResponse(env.ID, CodeInvalidRequest, "invalid request: the id is already used by a request in progress", nil))
		return nil
	}
	return call
}

// run handles a request or batch and writes its response, unless the peer
// cancelled it, then reports to done.
func (c *Conn) run(call *rpcCall, done chan<- *rpcCall, stop <-chan struct{}) {
	resp := c.d.Handle(call.ctx, call.msg)
	// The id is free again before the response goes out: the peer may
	// reuse it as soon as it reads the response.
	c.forget(call)
	if err := c.writeFor(call, resp, true); errors.Is(err, ErrRequestDone) {
		c.d.LogAttrs(slog.LevelDebug, "jsonrpc: a request was cancelled by the peer; not answering it", slog.String(LogKeyRequestID, codec.Clip(string(call.id), codec.MaxQuoted)))
	}
	call.cancel(nil)
	select {
	case done <- call:
	case <-stop:
	}
}

func (c *Conn) forget(call *rpcCall) {
	if call.key == "" {
		return
	}
	c.mu.Lock()
	if c.calls[call.key] == call {
		delete(c.calls, call.key)
	}
	c.mu.Unlock()
}

// notificationLoop handles the notifications serve passes it, one at a
// time, until stop is closed.
func (c *Conn) notificationLoop(ctx context.Context, notes <-chan *rpcCall, done chan<- *rpcCall, stop <-chan struct{}) {
	for {
		select {
		case call := <-notes:
			if resp := c.d.Handle(ctx, call.msg); resp != nil {
				c.write(resp)
			}
			select {
			case done <- call:
			case <-stop:
				return
			}
		case <-stop:
			return
		}
	}
}

// cancel cancels the request named by the params of a Cancel
// notification, whether it is running or still waiting.
func (c *Conn) cancel(params []byte) {
	if params == nil {
		return
	}
	var d codec.Decoder
	d.InitShared(params)
	if !d.Object() {
		return
	}
	for first := true; d.NextMember(&first); {
		if d.Key != c.d.CancelID {
			d.Skip()
			continue
		}
		d.Peek()
		id := d.Raw()
		if !IsRequestID(id) {
			return
		}
		c.mu.Lock()
		call := c.calls[IDKey(id)]
		c.mu.Unlock()
		if call != nil {
			// Under wmu: once the cancellation is read, nothing more
			// about the request is written.
			c.wmu.Lock()
			call.cancel(ErrCancelledByPeer)
			c.wmu.Unlock()
		}
		return
	}
}

// IDKey identifies a request id (a string or an integral number, as
// IsRequestID accepts) by its value, not its spelling: "A" and "\u0041"
// are the same id, and so are 100, 1e2 and 100.0.
func IDKey(raw []byte) string {
	if raw[0] == '"' {
		d := codec.Decoder{Data: raw}
		s, _ := d.ReadStr()
		return "s" + s
	}
	n := codec.Decimal(string(raw))
	if n.Zero() {
		return "n0"
	}
	sign := ""
	if n.Neg {
		sign = "-"
	}
	return "n" + sign + n.Digits + "e" + strconv.Itoa(n.Exp)
}

func (c *Conn) write(msg []byte) error { return c.writeFor(nil, msg, false) }

// writeFor writes a message about call (nil: about no request). Nothing
// about a request goes out once it has been answered or the peer has
// cancelled it; final marks the response, or its absence (msg nil), after
// which the request counts as answered.
func (c *Conn) writeFor(call *rpcCall, msg []byte, final bool) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if call != nil {
		if call.answered || errors.Is(context.Cause(call.ctx), ErrCancelledByPeer) {
			call.answered = true
			return ErrRequestDone
		}
		if final {
			call.answered = true
		}
	}
	if msg == nil {
		return nil
	}
	if c.closed {
		return ErrConnClosed
	}
	if err := c.s.Write(c.wctx, msg); err != nil {
		c.d.LogAttrs(slog.LevelWarn, "jsonrpc: write failed", slog.String("error", err.Error()))
		return err
	}
	return nil
}

// close makes later writes fail, and ends a write blocked on the stream.
func (c *Conn) close() {
	c.wcancel()
	c.wmu.Lock()
	c.closed = true
	c.wmu.Unlock()
}

// readStream reads messages from st and sends them to reads, then the
// error that ends the input; it stops when stop is closed (ctx ends then
// too, for a Read blocked on st).
func readStream(ctx context.Context, st Stream, reads chan<- serveRead, stop <-chan struct{}) {
	send := func(r serveRead) bool {
		select {
		case reads <- r:
			return true
		case <-stop:
			return false
		}
	}
	for {
		msg, err := st.Read(ctx)
		switch {
		case errors.Is(err, ErrTooLong):
			if !send(serveRead{err: err}) {
				return
			}
			continue
		case err != nil:
			send(serveRead{err: err})
			return
		case len(msg) > MaxMessageSize:
			if !send(serveRead{err: newTooLong(MaxMessageSize, msg)}) {
				return
			}
			continue
		}
		if msg, ok := trimMessage(msg); ok && !send(serveRead{msg: msg}) {
			return
		}
	}
}

// trimMessage returns msg without the whitespace around it; ok is false
// when nothing is left.
func trimMessage(msg []byte) ([]byte, bool) {
	start, end := 0, len(msg)
	for start < end && isSpace(msg[start]) {
		start++
	}
	for end > start && isSpace(msg[end-1]) {
		end--
	}
	return msg[start:end], start < end
}

// singleMessage returns the one message a line holds, without the
// whitespace around it; ok is false when the line holds none or several
// (splitMessages then splits it).
func singleMessage(line []byte) (msg []byte, ok bool) {
	start, end := 0, len(line)
	for start < end && isSpace(line[start]) {
		start++
	}
	for end > start && isSpace(line[end-1]) {
		end--
	}
	if start == end || (line[start] != '{' && line[start] != '[') {
		return nil, false
	}
	if valueEnd(line[:end], start) != end {
		return nil, false
	}
	return line[start:end], true
}

// splitMessages returns the messages on one line without the whitespace
// around them. The stdio transport puts one message on a line, but a line
// that holds several objects or arrays one after the other ({...}{...}) is
// split where each closes, so that each is answered. Brackets are counted
// outside strings without checking the syntax, which the dispatcher does
// for each message; what does not start with a bracket, or never closes,
// runs to the end of the line.
func splitMessages(line []byte) [][]byte {
	var msgs [][]byte
	for {
		start := 0
		for start < len(line) && isSpace(line[start]) {
			start++
		}
		if start == len(line) {
			break
		}
		end := len(line)
		if c := line[start]; c == '{' || c == '[' {
			end = valueEnd(line, start)
		}
		msgs = append(msgs, line[start:end])
		line = line[end:]
	}
	if len(msgs) > 1 {
		// Each is buffered on its own: do not keep the whole line.
		for i, m := range msgs {
			msgs[i] = append([]byte(nil), m...)
		}
	}
	return msgs
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// valueEnd returns the offset just past the bracket that closes the one at
// b[start], or len(b).
func valueEnd(b []byte, start int) int {
	depth := 0
	for i := start; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(b)
}

// readLine reads one line without its newline, up to MaxMessageSize.
func readLine(r *bufio.Reader) ([]byte, error) {
	return readLineMax(r, MaxMessageSize)
}

// readLineMax reads one line without its newline, of at most max bytes
// (the newline apart). A line that fits in r's buffer costs one copy; a
// longer one is gathered in pieces that double up to 4 MiB and joined
// once, so it costs at most about twice its length in allocations, and
// a line above max at most max (plus a piece), after which the rest of
// it is read and dropped without allocating.
func readLineMax(r *bufio.Reader, max int) ([]byte, error) {
	chunk, err := r.ReadSlice('\n')
	var g lineGather
	for {
		if err == nil {
			chunk = chunk[:len(chunk)-1] // the newline
		}
		if g.total+len(chunk) > max {
			// Keep the first bytes (what the message is, and its id);
			// drop the rest of the oversized line.
			first := chunk
			if len(g.bufs) > 0 {
				first = g.bufs[0]
			}
			tl := newTooLong(max, first)
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
				return nil, err
			}
			return nil, tl
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			if g.bufs == nil {
				// The common case: the line was in r's buffer.
				return append([]byte(nil), chunk...), err
			}
			g.add(chunk)
			return g.join(), err
		}
		g.add(chunk)
		chunk, err = r.ReadSlice('\n')
	}
}

// lineGather collects the pieces of a long line: buffers that double from
// 64 KiB up to 4 MiB, joined once at the end.
type lineGather struct {
	bufs  [][]byte
	total int
}

func (g *lineGather) add(p []byte) {
	g.total += len(p)
	for len(p) > 0 {
		if n := len(g.bufs); n == 0 || len(g.bufs[n-1]) == cap(g.bufs[n-1]) {
			size := 64 << 10
			if n > 0 {
				size = min(2*cap(g.bufs[n-1]), 4<<20)
			}
			g.bufs = append(g.bufs, make([]byte, 0, size))
		}
		last := &g.bufs[len(g.bufs)-1]
		k := min(len(p), cap(*last)-len(*last))
		*last = append(*last, p[:k]...)
		p = p[k:]
	}
}

func (g *lineGather) join() []byte {
	out := make([]byte, 0, g.total)
	for _, b := range g.bufs {
		out = append(out, b...)
	}
	return out
}
