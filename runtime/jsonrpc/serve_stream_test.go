package jsonrpc_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// script is a Stream that reads what a test gives it and records what is
// written.
type script struct {
	reads   chan read
	written chan string
	// readCancelled is closed when a Read returns because its context
	// ended.
	readCancelled chan struct{}
}

type read struct {
	msg string
	err error
}

func newScript() *script {
	return &script{reads: make(chan read, 16), written: make(chan string, 16), readCancelled: make(chan struct{})}
}

func (s *script) Read(ctx context.Context) ([]byte, error) {
	select {
	case r := <-s.reads:
		if r.err != nil {
			return nil, r.err
		}
		return []byte(r.msg), nil
	case <-ctx.Done():
		close(s.readCancelled)
		return nil, ctx.Err()
	}
}

func (s *script) Write(_ context.Context, msg []byte) error {
	s.written <- string(msg)
	return nil
}

func (s *script) Close() error { return nil }

func (s *script) next(t *testing.T) string {
	t.Helper()
	select {
	case m := <-s.written:
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("nothing was written")
	}
	return ""
}

// TestServeStream serves a JSON-RPC method table, with no MCP in it, over
// a Stream: requests are answered, blank messages skipped, a message the
// stream skipped for its size is answered and reading goes on, the
// dispatcher's own cancellation notification cancels a request, and
// stopping Serve ends the Read blocked on the stream.
func TestServeStream(t *testing.T) {
	started := make(chan struct{})
	d := &jsonrpc.Dispatcher{
		Cancel: "$/cancelRequest", CancelID: "id",
		Methods: map[string]*jsonrpc.Method{
			"echo": {Call: func(_ context.Context, params []byte) (jsonrpc.Result, error) {
				return jsonrpc.RawResult(params), nil
			}},
			"wait": {Call: func(ctx context.Context, _ []byte) (jsonrpc.Result, error) {
				close(started)
				<-ctx.Done()
				return nil, ctx.Err()
			}},
		},
	}
	s := newScript()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- d.ServeStream(ctx, s) }()

	s.reads <- read{msg: " \n\t"}
	s.reads <- read{msg: ` {"jsonrpc":"2.0","id":1,"method":"echo","params":{"x":[1]}} `}
	if got, want := s.next(t), `{"jsonrpc":"2.0","id":1,"result":{"x":[1]}}`; got != want {
		t.Errorf("echo: %s, want %s", got, want)
	}
	s.reads <- read{err: fmt.Errorf("frame 7: %w", jsonrpc.ErrTooLong)}
	if got := s.next(t); !strings.Contains(got, `"code":-32600`) || !strings.Contains(got, "longer than") {
		t.Errorf("a skipped message: %s, want an invalid request error", got)
	}
	s.reads <- read{msg: `{"jsonrpc":"2.0","id":"w","method":"wait"}`}
	<-started
	s.reads <- read{msg: `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"w"}}`}
	s.reads <- read{msg: `{"jsonrpc":"2.0","id":2,"method":"echo","params":{}}`}
	if got, want := s.next(t), `{"jsonrpc":"2.0","id":2,"result":{}}`; got != want {
		t.Errorf("after the cancellation: %s, want %s (and nothing for the cancelled request)", got, want)
	}

	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("ServeStream = %v, want nil when stopped", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStream did not return when stopped")
	}
	select {
	case <-s.readCancelled:
	case <-time.After(5 * time.Second):
		t.Error("the Read blocked on the stream was not cancelled")
	}
	select {
	case m := <-s.written:
		t.Errorf("written after the end: %s", m)
	default:
	}
}

// TestServeStreamEnds: a stream's error ends Serve with it; its end
// (io.EOF) ends it with nil.
func TestServeStreamEnds(t *testing.T) {
	d := &jsonrpc.Dispatcher{Methods: map[string]*jsonrpc.Method{}}
	for _, tc := range []struct {
		err, want error
	}{
		{io.EOF, nil},
		{errors.New("socket reset"), errors.New("socket reset")},
	} {
		s := newScript()
		s.reads <- read{err: tc.err}
		err := d.ServeStream(context.Background(), s)
		if fmt.Sprint(err) != fmt.Sprint(tc.want) {
			t.Errorf("a stream that ends with %v: ServeStream = %v, want %v", tc.err, err, tc.want)
		}
	}
}

// TestLineStream: MCP's stdio framing as a Stream.
func TestLineStream(t *testing.T) {
	var out strings.Builder
	s := jsonrpc.NewLineStream(strings.NewReader("{\"a\":1}{\"b\":2}\n\n  [3]  \n{\"c\""), &out, nil)
	var got []string
	for {
		msg, err := s.Read(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(msg))
	}
	if want := []string{`{"a":1}`, `{"b":2}`, `[3]`, `{"c"`}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("read %q, want %q", got, want)
	}
	if err := s.Write(context.Background(), []byte(`{"d":4}`)); err != nil || out.String() != "{\"d\":4}\n" {
		t.Errorf("Write: %v, wrote %q", err, out.String())
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close with no closer: %v", err)
	}
}
