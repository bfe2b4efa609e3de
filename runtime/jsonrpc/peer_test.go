package jsonrpc

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// wire records what an outbound sends and lets a test answer it.
type wire struct {
	mu   sync.Mutex
	msgs []string
	sent chan string
	err  error // what send returns, if set
}

func newWire() *wire { return &wire{sent: make(chan string, 16)} }

func (w *wire) send(msg []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.msgs = append(w.msgs, string(msg))
	w.sent <- string(msg)
	return nil
}

func (w *wire) next(t *testing.T) string {
	t.Helper()
	select {
	case m := <-w.sent:
		return m
	case <-time.After(2 * time.Second):
		t.Fatal("nothing sent")
	}
	return ""
}

const testCancel, testCancelID = "notifications/cancelled", "requestId"

type callResult struct {
	result []byte
	err    error
}

func startCall(o *outbound, ctx context.Context, w *wire, method string, params []byte, timeout time.Duration) chan callResult {
	done := make(chan callResult, 1)
	go func() {
		r, err := o.call(ctx, w.send, nil, testCancel, testCancelID, method, params, timeout)
		done <- callResult{r, err}
	}()
	return done
}

func wantDone(t *testing.T, done chan callResult) callResult {
	t.Helper()
	select {
	case r := <-done:
		return r
	case <-time.After(2 * time.Second):
		t.Fatal("the call did not return")
	}
	return callResult{}
}

func TestOutboundResultAndError(t *testing.T) {
	var o outbound
	w := newWire()
	done := startCall(&o, context.Background(), w, "roots/list", nil, 0)
	if got := w.next(t); got != `{"jsonrpc":"2.0","id":1,"method":"roots/list"}` {
		t.Fatalf("sent %s", got)
	}
	done2 := startCall(&o, context.Background(), w, "elicitation/create", []byte(`{"message":"hi"}`), 0)
	if got := w.next(t); got != `{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"message":"hi"}}` {
		t.Fatalf("sent %s", got)
	}
	// Answered out of order, with ids spelled otherwise.
	if !o.deliver([]byte(`{"jsonrpc":"2.0","id":2e0,"error":{"code":-32601,"message":"nope","data":{"x":1}}}`)) {
		t.Fatal("the error response was not delivered")
	}
	if !o.deliver([]byte(`{"jsonrpc":"2.0","result":{"roots":[]},"id":1.0}`)) {
		t.Fatal("the result was not delivered")
	}
	if r := wantDone(t, done); r.err != nil || string(r.result) != `{"roots":[]}` {
		t.Errorf("call 1 = %s, %v", r.result, r.err)
	}
	r := wantDone(t, done2)
	var re *RPCError
	if !errors.As(r.err, &re) || re.Code != -32601 || re.Message != "nope" || string(re.Data) != `{"x":1}` {
		t.Errorf("call 2 = %s, %v", r.result, r.err)
	}
	// A second response to the same id, and one to an id never sent, go
	// nowhere.
	for _, msg := range []string{`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","id":77,"result":{}}`, `{"jsonrpc":"2.0","id":"1","result":{}}`} {
		if o.deliver([]byte(msg)) {
			t.Errorf("delivered %s", msg)
		}
	}
	if n := o.waiting(); n != 0 {
		t.Errorf("%d calls still wait", n)
	}
}

func TestOutboundMalformedResponses(t *testing.T) {
	for _, tc := range []struct{ resp, want string }{
		{`{"jsonrpc":"2.0","id":1}`, "neither result nor error"},
		{`{"jsonrpc":"2.0","id":1,"error":"bad"}`, "malformed error"},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}`, "malformed error code"},
		{`{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}`, "malformed error"},
	} {
		var o outbound
		w := newWire()
		done := startCall(&o, context.Background(), w, "ping", nil, 0)
		w.next(t)
		if !o.deliver([]byte(tc.resp)) {
			t.Fatalf("%s not delivered", tc.resp)
		}
		r := wantDone(t, done)
		var re *RPCError
		if !errors.As(r.err, &re) || re.Code != CodeInternalError || !strings.Contains(re.Message, tc.want) {
			t.Errorf("%s: %v, want an internal error saying %q", tc.resp, r.err, tc.want)
		}
	}
}

func TestOutboundCancelAndTimeout(t *testing.T) {
	var o outbound
	w := newWire()
	ctx, cancel := context.WithCancel(context.Background())
	done := startCall(&o, ctx, w, "sampling/createMessage", []byte(`{}`), -1)
	w.next(t)
	cancel()
	if r := wantDone(t, done); !errors.Is(r.err, context.Canceled) {
		t.Errorf("cancelled call = %v", r.err)
	}
	if got := w.next(t); !strings.HasPrefix(got, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":`) {
		t.Errorf("after cancel sent %s", got)
	}
	if o.deliver([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)) {
		t.Error("a response after the cancellation was delivered")
	}

	done = startCall(&o, context.Background(), w, "ping", nil, 20*time.Millisecond)
	w.next(t)
	r := wantDone(t, done)
	if !errors.Is(r.err, context.DeadlineExceeded) || !strings.Contains(r.err.Error(), `"ping"`) {
		t.Errorf("timed out call = %v", r.err)
	}
	if got := w.next(t); !strings.Contains(got, `"requestId":2,"reason":"timed out after 20ms"`) {
		t.Errorf("after the timeout sent %s", got)
	}

	// The cancellation goes through its own function when given one.
	other := newWire()
	ctx, cancel = context.WithCancel(context.Background())
	go func() { w.next(t); cancel() }()
	if _, err := o.call(ctx, w.send, other.send, testCancel, testCancelID, "ping", nil, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("call = %v", err)
	}
	if got := other.next(t); !strings.Contains(got, `"requestId":3`) {
		t.Errorf("cancellation sent %s", got)
	}
}

func TestOutboundCloseAndSendFailure(t *testing.T) {
	var o outbound
	w := newWire()
	done := startCall(&o, context.Background(), w, "ping", nil, 0)
	w.next(t)
	closed := errors.New("gone")
	o.close(closed)
	if r := wantDone(t, done); !errors.Is(r.err, closed) {
		t.Errorf("pending call after close = %v", r.err)
	}
	if _, err := o.call(context.Background(), w.send, nil, testCancel, testCancelID, "ping", nil, 0); !errors.Is(err, closed) {
		t.Errorf("call after close = %v", err)
	}

	var o2 outbound
	w.err = errors.New("broken pipe")
	if _, err := o2.call(context.Background(), w.send, nil, testCancel, testCancelID, "ping", nil, 0); !errors.Is(err, w.err) {
		t.Errorf("call with a failing send = %v", err)
	}
	if n := o2.waiting(); n != 0 {
		t.Errorf("%d calls wait after a failed send", n)
	}
	if _, err := o2.call(context.Background(), w.send, nil, testCancel, testCancelID, "ping", []byte(`[1]`), 0); err == nil || !strings.Contains(err.Error(), "JSON object") {
		t.Errorf("array params: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := o2.call(ctx, w.send, nil, testCancel, testCancelID, "ping", nil, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("call with a done context: %v", err)
	}
}
