//lint:file-ignore U1000 the runtime is for generated code; gen/rt alone does not use all of it

package rt

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// This file serves a dispatcher over a stream of newline-delimited JSON-RPC
// messages, as the MCP stdio transport defines it.

// MaxMessageSize bounds one message read by Serve (64 MiB).
const MaxMessageSize = 64 << 20

// rpcConn is one connection being served.
type rpcConn struct {
	d        *rpcDispatcher
	out      io.Writer
	wmu      sync.Mutex
	mu       sync.Mutex
	inflight map[string]context.CancelCauseFunc
}

// errCancelledByPeer is the cause of a request context cancelled by a
// notifications/cancelled message: the response is then not sent, as the
// specification requires.
var errCancelledByPeer = errors.New("cancelled by the peer")

// notifierKey is the context key of the notifier a handler's
// notifications go to: the connection (stdio) or the HTTP exchange.
type notifierKey struct{}

// notifier sends a message to the peer a request came from.
type notifier interface {
	notify(msg []byte) error
}

// serve reads messages from in until it ends or ctx is done, handles each
// request in its own goroutine, and writes the responses to out, one per
// line. A notifications/cancelled message cancels the context of the
// request it names. When ctx is done, serve cancels the requests in flight,
// waits for them and returns ctx.Err(); a read blocked on in is left behind
// (an io.Reader cannot be interrupted).
func (d *rpcDispatcher) serve(ctx context.Context, in io.Reader, out io.Writer) error {
	c := &rpcConn{d: d, out: out, inflight: map[string]context.CancelCauseFunc{}}
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	ctx = context.WithValue(ctx, notifierKey{}, notifier(c))
	var wg sync.WaitGroup
	type read struct {
		line []byte
		err  error
	}
	lines := make(chan read)
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(r)
			select {
			case lines <- read{line, err}:
			case <-ctx.Done():
				return
			}
			if err != nil && !errors.Is(err, errTooLong) {
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			wg.Wait()
			return ctx.Err()
		case l := <-lines:
			switch {
			case errors.Is(l.err, errTooLong):
				// The rest of the line was skipped: answer and go on.
				c.write(d.errorResponse(nil, CodeInvalidRequest, "invalid request: "+l.err.Error(), nil))
				continue
			case len(bytes.TrimSpace(l.line)) > 0:
				c.dispatch(ctx, &wg, l.line)
			}
			if l.err != nil {
				wg.Wait()
				if l.err == io.EOF {
					return nil
				}
				return l.err
			}
		}
	}
}

// errTooLong is a line longer than MaxMessageSize; readLine has skipped it.
var errTooLong = fmt.Errorf("message longer than %d bytes", MaxMessageSize)

// readLine reads one line without its newline, up to MaxMessageSize.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > MaxMessageSize {
			// Drop the rest of the oversized line.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
				return nil, err
			}
			return nil, errTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return line, err
		}
	}
}

func (c *rpcConn) dispatch(ctx context.Context, wg *sync.WaitGroup, msg []byte) {
	if bytes.TrimLeft(msg, " \t\r")[0] == '[' {
		// A batch (or an array where the revision has none): answered as a
		// whole by handle, concurrently like a request.
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp := c.d.handle(ctx, msg); resp != nil {
				c.write(resp)
			}
		}()
		return
	}
	env, errResp := c.d.readEnvelope(msg)
	if errResp != nil {
		c.write(errResp)
		return
	}
	if env.id == nil && env.method == "notifications/cancelled" {
		c.cancel(env.params)
	}
	if env.id == nil {
		// Notifications are handled in order.
		if resp := c.d.handle(ctx, msg); resp != nil {
			c.write(resp)
		}
		return
	}
	key := string(env.id)
	rctx, cancel := context.WithCancelCause(ctx)
	c.mu.Lock()
	c.inflight[key] = cancel
	c.mu.Unlock()
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			c.mu.Lock()
			delete(c.inflight, key)
			c.mu.Unlock()
			cancel(nil)
		}()
		resp := c.d.handle(rctx, msg)
		if errors.Is(context.Cause(rctx), errCancelledByPeer) {
			c.d.log("mcp: request %s was cancelled by the peer; not answering it", key)
			return
		}
		if resp != nil {
			c.write(resp)
		}
	}()
}

// cancel cancels the in-flight request named by a notifications/cancelled
// params object.
func (c *rpcConn) cancel(params []byte) {
	if params == nil {
		return
	}
	var d decoder
	d.initShared(params)
	if !d.object() {
		return
	}
	for first := true; d.member(&first); {
		if d.key != "requestId" {
			d.skip()
			continue
		}
		d.peek()
		id := d.raw()
		c.mu.Lock()
		cancel := c.inflight[string(id)]
		c.mu.Unlock()
		if cancel != nil {
			cancel(errCancelledByPeer)
		}
		return
	}
}

func (c *rpcConn) notify(msg []byte) error { return c.write(msg) }

func (c *rpcConn) write(msg []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.out.Write(append(msg, '\n')); err != nil {
		c.d.log("mcp: write: %v", err)
		return err
	}
	return nil
}

// SendNotification sends a notification to the peer the handler's context
// belongs to: on a connection served by Serve, a line on it; on a request
// served over HTTP, an event of the request's response stream (the
// response becomes a stream of Server-Sent Events at the first
// notification). params may be nil. It fails once the request has been
// answered or cancelled, and over HTTP when the client does not accept
// text/event-stream.
func SendNotification(ctx context.Context, method string, params interface {
	AppendJSON([]byte) ([]byte, error)
}) error {
	n, _ := ctx.Value(notifierKey{}).(notifier)
	if n == nil {
		return errors.New("mcp: SendNotification: the context does not belong to a request served by Serve or over HTTP")
	}
	e := encoder{buf: make([]byte, 0, 128)}
	e.buf = append(e.buf, `{"jsonrpc":"2.0","method":`...)
	e.string(method)
	if params != nil {
		b, err := params.AppendJSON(append(e.buf, `,"params":`...))
		if err != nil {
			return err
		}
		e.buf = b
	}
	e.buf = append(e.buf, '}')
	return n.notify(e.buf)
}
