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
// process's standard streams, or over any byte stream, served by the same
// connection core as a server's Serve.

// CommandTransport starts a server process and talks to it over its
// standard input and output. Close ends it as stdio.mdx says: it closes
// the server's input, waits for it to exit, then terminates it (SIGTERM,
// then SIGKILL) if it does not.
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

func (t *CommandTransport) open(ctx context.Context, c *ClientCore) (clientTransport, string, error) {
	cmd := t.Command
	switch {
	case cmd == nil:
		return nil, "", errors.New("mcp: CommandTransport: Command is nil")
	case cmd.Process != nil:
		return nil, "", errors.New("mcp: CommandTransport: the command has been started already")
	case cmd.Stdin != nil || cmd.Stdout != nil:
		return nil, "", errors.New("mcp: CommandTransport: the command's Stdin and Stdout must be nil; the transport connects them")
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, "", err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, "", err
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
		return nil, "", fmt.Errorf("mcp: CommandTransport: %w", err)
	}
	// The child has its ends; the parent keeps the others.
	inR.Close()
	outW.Close()
	st := &stdioTransport{exited: make(chan struct{}), closeTimeout: t.CloseTimeout, cmd: cmd, tail: tail, in: inW, out: outR}
	go func() {
		st.waitErr = cmd.Wait()
		close(st.exited)
	}()
	st.start(c, outR, inW)
	return st, "command:" + strings.Join(cmd.Args, "\x00"), nil
}

func (t *StreamTransport) open(ctx context.Context, c *ClientCore) (clientTransport, string, error) {
	if t.Conn == nil {
		return nil, "", errors.New("mcp: StreamTransport: Conn is nil")
	}
	st := &stdioTransport{conn: t.Conn}
	st.start(c, t.Conn, t.Conn)
	return st, fmt.Sprintf("stream:%p", t.Conn), nil
}

// stdioTransport is a connection served by the connection core: requests
// go through the outbound table of its session, and what the server sends
// reaches the client's dispatcher.
type stdioTransport struct {
	rc   *jsonrpc.Conn
	stop context.CancelFunc
	done chan struct{} // closed when serve has returned
	// A command's process, and the ends of its pipes the client holds.
	cmd          *exec.Cmd
	in, out      *os.File
	exited       chan struct{} // closed when Wait has returned
	waitErr      error
	tail         *tailBuffer
	closeTimeout time.Duration
	// A stream's connection.
	conn io.ReadWriteCloser

	closing    sync.Once
	closeErr   error
	closedByUs atomic.Bool
}

func (t *stdioTransport) start(c *ClientCore, r io.Reader, w io.Writer) {
	t.rc = c.in.NewConn(w)
	t.done = make(chan struct{})
	ctx, stop := context.WithCancel(context.Background())
	t.stop = stop
	go func() {
		defer close(t.done)
		t.rc.Serve(ctx, r)
	}()
}

func (t *stdioTransport) request(ctx context.Context, r clientRequest) (json.RawMessage, error) {
	raw, err := t.rc.Peer().CallWithin(ctx, nil, nil, r.method, r.params, r.timeout)
	if err != nil && (errors.Is(err, jsonrpc.ErrConnClosed) || errors.Is(err, jsonrpc.ErrPeerClosed)) {
		return nil, t.endError()
	}
	return raw, err
}

func (t *stdioTransport) notify(ctx context.Context, r *clientRequest) error {
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

func (t *stdioTransport) started() {}

func (t *stdioTransport) peerCancelled(id []byte) {
	if key, isInt, inRange := codec.ParseInt(id); isInt && inRange && id[0] != '"' {
		t.rc.Peer().Fail(key, errPeerCancelled)
	}
}

// endError says why the connection ended, once it has.
func (t *stdioTransport) endError() error {
	select {
	case <-t.done:
	case <-time.After(time.Second):
	}
	if t.closedByUs.Load() {
		return errClientClosed
	}
	if t.cmd == nil {
		return errors.New("mcp: the server closed the connection")
	}
	select {
	case <-t.exited:
	case <-time.After(time.Second):
		return errors.New("mcp: the server closed its standard output")
	}
	msg := "mcp: the server process exited"
	if t.waitErr != nil {
		msg += " (" + t.waitErr.Error() + ")"
	}
	if t.tail != nil {
		if s := strings.TrimSpace(t.tail.String()); s != "" {
			msg += "; its standard error ends with: " + s
		}
	}
	return errors.New(msg)
}

// close ends the connection: a command's input is closed, the process
// waited for and, if it does not exit, terminated; a stream is closed.
func (t *stdioTransport) close() error {
	t.closing.Do(func() {
		t.closedByUs.Store(true)
		if t.cmd != nil {
			t.closeErr = t.endProcess()
		} else {
			t.closeErr = t.conn.Close()
		}
		select {
		case <-t.done:
		case <-time.After(time.Second):
			// Something holds the read side open (a process the server
			// started kept its output): stop reading.
			if t.out != nil {
				t.out.Close()
			}
		}
		t.stop()
		<-t.done
		if t.out != nil {
			t.out.Close()
		}
	})
	return t.closeErr
}

// endProcess closes the server's input and waits for it to exit, with
// SIGTERM and then SIGKILL after CloseTimeout each.
func (t *stdioTransport) endProcess() error {
	t.in.Close()
	wait := t.closeTimeout
	if wait <= 0 {
		wait = 5 * time.Second
	}
	select {
	case <-t.exited:
		return nil
	case <-time.After(wait):
	}
	_ = t.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-t.exited:
		return fmt.Errorf("mcp: the server did not exit within %v of its input closing; it was sent SIGTERM", wait)
	case <-time.After(wait):
	}
	_ = t.cmd.Process.Kill()
	<-t.exited
	return fmt.Errorf("mcp: the server did not exit within %v of its input closing, nor of SIGTERM; it was killed", wait)
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
