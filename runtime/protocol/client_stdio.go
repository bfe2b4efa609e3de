package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// This file is the client's side of the stdio transport
// (basic/transports/stdio.mdx): newline-delimited messages over a server
// process's standard streams, or over any byte stream, and of any
// jsonrpc.Stream a Transport of one's own connects, served by the same
// connection core as a server's Serve.

// Transport is how a Client reaches its server: a *CommandTransport (a
// server process it starts, over stdio), a *StreamTransport (any
// io.ReadWriteCloser carrying newline-delimited messages), an
// *HTTPTransport (Streamable HTTP), or a transport of one's own (an
// in-process pipe, a WebSocket, a test double): Connect returns a stream
// of messages to one server, which the client serves (the server's
// requests and notifications reach the client's handlers) and closes when
// it is closed.
type Transport interface {
	Connect(ctx context.Context) (jsonrpc.Stream, error)
}

// CommandTransport starts a server process and talks to it over its
// standard input and output. Close ends it as stdio.mdx says: it closes
// the server's input, waits for it to exit, then terminates it (SIGTERM,
// then SIGKILL) if it does not.
//
// A server of an earlier revision may exit when it receives the
// server/discover probe of a 2026-07-28 client, or right after answering
// it (an unknown method before initialize). When the process ends during
// the version negotiation of a client whose package converts to older
// revisions (mcpgen generate --serve-older), the client starts the command
// once more and opens with the initialize handshake at the newest of them,
// without a probe: a copy of Command (Path, Args, Env, Dir, ExtraFiles,
// SysProcAttr, WaitDelay and a Stderr of the caller's) that is not bound
// to the context of an exec.CommandContext (Close ends it all the same).
// Command is left as it is: it names the first process.
type CommandTransport struct {
	// Command is the server to start. Its Stdin and Stdout must be nil: the
	// transport connects them. A nil Stderr keeps the last 4 KiB the server
	// writes there, for the error that reports an unexpected exit.
	Command *exec.Cmd
	// CloseTimeout is how long Close waits for the server to exit once its
	// input is closed, and again after SIGTERM; 0 means 5 seconds.
	CloseTimeout time.Duration
}

// StreamTransport talks to a server over a connection that carries
// newline-delimited JSON-RPC messages both ways (the stdio framing): a
// pipe, a socket, a process the caller manages. Close closes Conn.
type StreamTransport struct {
	Conn io.ReadWriteCloser
}

// Connect starts the command; the stream's Close ends it (see
// CommandTransport).
func (t *CommandTransport) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	cmd := t.Command
	switch {
	case cmd == nil:
		return nil, errors.New("mcp: CommandTransport: Command is nil")
	case cmd.Process != nil:
		return nil, errors.New("mcp: CommandTransport: the command has been started already")
	case cmd.Stdin != nil || cmd.Stdout != nil:
		return nil, errors.New("mcp: CommandTransport: the command's Stdin and Stdout must be nil; the transport connects them")
	}
	return t.start(cmd)
}

// restart starts a copy of the command, whose first process has ended
// (see CommandTransport).
func (t *CommandTransport) restart() (jsonrpc.Stream, error) {
	old := t.Command
	cmd := &exec.Cmd{Path: old.Path, Args: old.Args, Env: old.Env, Dir: old.Dir, ExtraFiles: old.ExtraFiles, SysProcAttr: old.SysProcAttr, WaitDelay: old.WaitDelay}
	if _, ours := old.Stderr.(*tailBuffer); !ours {
		cmd.Stderr = old.Stderr
	}
	return t.start(cmd)
}

// start starts cmd, whose Stdin and Stdout are nil, and returns its stream.
func (t *CommandTransport) start(cmd *exec.Cmd) (jsonrpc.Stream, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	var tail *tailBuffer
	if cmd.Stderr == nil {
		tail = &tailBuffer{max: 4 << 10}
		cmd.Stderr = tail
	}
	if cmd.WaitDelay == 0 {
		// Bounds Wait when a process the server started keeps stderr open.
		cmd.WaitDelay = time.Second
	}
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
		return nil, fmt.Errorf("mcp: CommandTransport: %w", err)
	}
	// The child has its ends; the parent keeps the others.
	inR.Close()
	outW.Close()
	cs := &commandStream{Stream: jsonrpc.NewLineStream(outR, inW, nil), exited: make(chan struct{}), closeTimeout: t.CloseTimeout, cmd: cmd, tail: tail, in: inW, out: outR}
	go func() {
		cs.waitErr = cmd.Wait()
		close(cs.exited)
	}()
	return cs, nil
}

func (t *CommandTransport) serverKey() string {
	if t.Command == nil {
		return ""
	}
	return "command:" + strings.Join(t.Command.Args, "\x00")
}

// Connect returns Conn with the stdio framing; the stream's Close closes
// Conn.
func (t *StreamTransport) Connect(context.Context) (jsonrpc.Stream, error) {
	if t.Conn == nil {
		return nil, errors.New("mcp: StreamTransport: Conn is nil")
	}
	return jsonrpc.NewLineStream(t.Conn, t.Conn, t.Conn), nil
}

func (t *StreamTransport) serverKey() string { return fmt.Sprintf("stream:%p", t.Conn) }

// commandStream is the stream of a server process: lines over its standard
// streams; Close ends the process.
type commandStream struct {
	jsonrpc.Stream
	cmd          *exec.Cmd
	in, out      *os.File      // the ends of the pipes the client holds
	exited       chan struct{} // closed when Wait has returned
	waitErr      error
	tail         *tailBuffer
	closeTimeout time.Duration
}

// Close closes the server's input and waits for it to exit, with SIGTERM
// and then SIGKILL after CloseTimeout each; then it stops reading its
// output, which a process the server started may hold open.
func (s *commandStream) Close() error {
	s.in.Close()
	defer s.out.Close()
	wait := s.closeTimeout
	if wait <= 0 {
		wait = 5 * time.Second
	}
	select {
	case <-s.exited:
		return nil
	case <-time.After(wait):
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
		return fmt.Errorf("mcp: the server did not exit within %v of its input closing; it was sent SIGTERM", wait)
	case <-time.After(wait):
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
	return fmt.Errorf("mcp: the server did not exit within %v of its input closing, nor of SIGTERM; it was killed", wait)
}

// endError says why the server's output ended: its exit status and the
// end of what it wrote to standard error.
func (s *commandStream) endError() error {
	select {
	case <-s.exited:
	case <-time.After(time.Second):
		return &ConnEndedError{Msg: "mcp: the server closed its standard output"}
	}
	msg := "mcp: the server process exited"
	if s.waitErr != nil {
		msg += " (" + s.waitErr.Error() + ")"
	}
	if s.tail != nil {
		if t := strings.TrimSpace(s.tail.String()); t != "" {
			msg += "; its standard error ends with: " + t
		}
	}
	return &ConnEndedError{Msg: msg}
}

// ConnEndedError is what a request gets when the connection to the
// server ended under it: the server closed it or, for a server process,
// exited (with its exit status and the end of its standard error). The
// client reports it as it is, once, whatever request noticed it first,
// and does not retry it in another way (such as the initialize handshake
// after a failed server/discover), except that a CommandTransport's
// process that ends during the version negotiation is started once more
// (see CommandTransport).
type ConnEndedError struct{ Msg string }

func (e *ConnEndedError) Error() string { return e.Msg }

// connEnded reports whether err says the connection ended.
func connEnded(err error) bool {
	var ce *ConnEndedError
	return errors.As(err, &ce)
}

// streamClient is a client connection over a jsonrpc.Stream, served by the
// connection core: requests go through the outbound table of its peer,
// and what the server sends reaches the client's dispatcher.
type streamClient struct {
	s    jsonrpc.Stream
	rc   *jsonrpc.Conn
	stop context.CancelFunc
	done chan struct{} // closed when Serve has returned

	closing    sync.Once
	closeErr   error
	closedByUs atomic.Bool
}

// newStreamClient serves s as c's connection.
func newStreamClient(c *ClientCore, s jsonrpc.Stream) *streamClient {
	t := &streamClient{s: s, rc: c.in.NewConn(s), done: make(chan struct{})}
	ctx, stop := context.WithCancel(context.Background())
	t.stop = stop
	go func() {
		defer close(t.done)
		t.rc.Serve(ctx)
	}()
	return t
}

func (t *streamClient) request(ctx context.Context, r clientRequest) (json.RawMessage, error) {
	peer := t.rc.Peer()
	raw, err := peer.CallWithin(ctx, func(msg []byte) error {
		if err := peer.Send(msg); err != nil {
			return &writeError{err}
		}
		return nil
	}, nil, r.method, r.params, r.timeout)
	var we *writeError
	switch {
	case errors.Is(err, jsonrpc.ErrConnClosed) || errors.Is(err, jsonrpc.ErrPeerClosed):
		return nil, t.endError()
	case errors.As(err, &we):
		// The stream failed: once the connection has ended too, say why.
		// A server process that cannot be written to has closed its
		// input, most often by exiting: wait for that (its output may be
		// held open by a process it started, so the connection's end
		// would not tell).
		if cs, ok := t.s.(*commandStream); ok {
			select {
			case <-cs.exited:
				return nil, cs.endError()
			case <-time.After(exitWait):
			}
		}
		select {
		case <-t.done:
			return nil, t.endError()
		case <-time.After(time.Second):
			return nil, fmt.Errorf("mcp: %s: %w", codec.Quote(r.method), we.err)
		}
	}
	return raw, err
}

// writeError is a request the stream failed to write.
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

func (t *streamClient) notify(ctx context.Context, r *clientRequest) error {
	e := codec.Encoder{Buf: make([]byte, 0, 64+len(r.method)+len(r.params))}
	e.Buf = append(e.Buf, `{"jsonrpc":"2.0","method":`...)
	e.Str(r.method)
	if r.params != nil {
		e.Buf = append(e.Buf, `,"params":`...)
		e.Buf = append(e.Buf, r.params...)
	}
	e.Buf = append(e.Buf, '}')
	if err := t.rc.Peer().Send(e.Buf); err != nil {
		if errors.Is(err, jsonrpc.ErrConnClosed) {
			return t.endError()
		}
		return err
	}
	return nil
}

func (t *streamClient) started() {}

// doneChan is closed when the connection has ended (ClientCore.ended).
func (t *streamClient) doneChan() <-chan struct{} { return t.done }

func (t *streamClient) peerCancelled(id []byte) {
	if key, isInt, inRange := codec.ParseInt(id); isInt && inRange && id[0] != '"' {
		t.rc.Peer().Fail(key, errPeerCancelled)
	}
}

// endError says why the connection ended, once it has.
func (t *streamClient) endError() error {
	select {
	case <-t.done:
	case <-time.After(time.Second):
	}
	if t.closedByUs.Load() {
		return errClientClosed
	}
	if cs, ok := t.s.(*commandStream); ok {
		return cs.endError()
	}
	return &ConnEndedError{Msg: "mcp: the server closed the connection"}
}

// exitWait is how long a request whose write failed waits for the server
// process to exit, to report its exit rather than the write error: more
// than the WaitDelay Connect gives the process's streams.
const exitWait = 3 * time.Second

// close closes the stream (a command's: its input is closed, the process
// waited for and, if it does not exit, terminated) and stops serving it.
func (t *streamClient) close() error {
	t.closing.Do(func() {
		t.closedByUs.Store(true)
		t.closeErr = t.s.Close()
		select {
		case <-t.done:
		case <-time.After(time.Second):
			// A Read that cannot be interrupted holds the connection
			// open: stop serving it.
		}
		t.stop()
		<-t.done
	})
	return t.closeErr
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
