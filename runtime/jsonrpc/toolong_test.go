package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestReadLineKeepsHead: a line above the limit is ErrTooLong with its
// first bytes (at most tooLongHead) and the limit, whether it went over
// in the reader's first buffer or after pieces were gathered; the next
// line comes back whole.
func TestReadLineKeepsHead(t *testing.T) {
	for _, tc := range []struct{ size, max int }{{5000, 1000}, {300 << 10, 200 << 10}, {100, 50}} {
		head := `{"jsonrpc":"2.0","id":7,"result":"`
		line := head + strings.Repeat("x", tc.size-len(head)-2) + `"}`
		br := bufio.NewReaderSize(strings.NewReader(line+"\n"+`{"next":1}`+"\n"), 64<<10)
		got, err := readLineMax(br, tc.max)
		var tl *tooLongError
		if got != nil || !errors.Is(err, ErrTooLong) || !errors.As(err, &tl) {
			t.Fatalf("%d bytes over %d: %d bytes, %v; want a tooLongError", tc.size, tc.max, len(got), err)
		}
		want := line[:min(len(line), tooLongHead)]
		if string(tl.head) != want || tl.limit != tc.max {
			t.Errorf("%d bytes over %d: head %.60q (%d bytes), limit %d; want %.60q (%d bytes), %d", tc.size, tc.max, tl.head, len(tl.head), tl.limit, want, len(want), tc.max)
		}
		if next, err := readLineMax(br, tc.max); string(next) != `{"next":1}` || err != nil {
			t.Errorf("%d bytes over %d: then %q, %v", tc.size, tc.max, next, err)
		}
	}
}

// TestPeekSkipped: what the first bytes of a skipped message show.
func TestPeekSkipped(t *testing.T) {
	for _, tc := range []struct {
		head string
		kind skippedKind
		id   string
	}{
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[{"text":"xx`, skippedResponse, "7"},
		{` {"id":"a","jsonrpc":"2.0","error":{"code":1,"message":"xx`, skippedResponse, `"a"`},
		{`{"jsonrpc":"2.0","result":{"content":"xx`, skippedResponse, ""},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"p":"xx`, skippedRequest, "3"},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{"p":"xx`, skippedRequest, ""},
		{`{"jsonrpc":"2.0","id":{"x":1},"result":"xx`, skippedResponse, `{"x":1}`},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"xx`, skippedResponse, `null`},
		{`{"jsonrpc":"2.0","id":12`, skippedUnknown, ""}, // perhaps 123...
		{`{"jsonrpc":"2.0","id":12 `, skippedUnknown, "12"},
		{`[{"jsonrpc":"2.0","id":1,"result":"xx`, skippedUnknown, ""},
		{`xxxxxxxx`, skippedUnknown, ""},
		{``, skippedUnknown, ""},
	} {
		kind, id := peekSkipped([]byte(tc.head))
		if kind != tc.kind || string(id) != tc.id {
			t.Errorf("%s: kind %d, id %s; want %d, %s", tc.head, kind, id, tc.kind, tc.id)
		}
	}
}

// chanStream is a Stream whose reads a test gives and whose writes it
// receives.
type chanStream struct {
	reads   chan serveRead
	written chan string
}

func (s *chanStream) Read(ctx context.Context) ([]byte, error) {
	select {
	case r := <-s.reads:
		return r.msg, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *chanStream) Write(_ context.Context, msg []byte) error {
	s.written <- string(msg)
	return nil
}

func (s *chanStream) Close() error { return nil }

// TestConnSkippedResponse: a response skipped for its size fails the
// request it answers at once, with an error naming the limit, and the
// other requests go on; one whose id comes too late to be read fails
// every request waiting; a skipped message of unknown kind fails them
// too, and is answered; a skipped request fails none. The connection
// serves on throughout, and writes nothing to the peer for a response.
func TestConnSkippedResponse(t *testing.T) {
	for _, client := range []bool{true, false} {
		t.Run(fmt.Sprint("client=", client), func(t *testing.T) {
			testConnSkippedResponse(t, client)
		})
	}
}

func testConnSkippedResponse(t *testing.T, client bool) {
	const limit = 1000
	d := &Dispatcher{Methods: map[string]*Method{}, Limits: Limits{RequestTimeout: time.Minute}}
	bad := make(chan []byte, 8)
	if client {
		d.OnBadMessage = func(_, errResp []byte) { bad <- errResp }
	}
	s := &chanStream{reads: make(chan serveRead), written: make(chan string, 32)}
	c := d.NewConn(s)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- c.Serve(ctx) }()
	defer func() {
		s.reads <- serveRead{err: errors.New("end")}
		<-served
	}()

	type answer struct {
		result json.RawMessage
		err    error
	}
	// call sends a request and returns where its answer goes, once the
	// request is written (its id is the next integer).
	call := func(want int64) chan answer {
		t.Helper()
		ch := make(chan answer, 1)
		go func() {
			r, err := c.peer.Call(ctx, nil, "m", nil)
			ch <- answer{r, err}
		}()
		select {
		case m := <-s.written:
			if want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"m"}`, want); m != want {
				t.Fatalf("wrote %s, want %s", m, want)
			}
		case <-ctx.Done():
			t.Fatal("the request was not written")
		}
		return ch
	}
	wait := func(ch chan answer) answer {
		t.Helper()
		select {
		case a := <-ch:
			return a
		case <-time.After(10 * time.Second):
			t.Fatal("no answer within 10 s")
			return answer{}
		}
	}
	pending := func(ch chan answer) {
		t.Helper()
		select {
		case a := <-ch:
			t.Fatalf("answered %s, %v; want it still waiting", a.result, a.err)
		case <-time.After(50 * time.Millisecond):
		}
	}
	skip := func(head string) { s.reads <- serveRead{err: newTooLong(limit, []byte(head))} }
	respond := func(id int) {
		s.reads <- serveRead{msg: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"n":%d}}`, id, id)}
	}
	ok := func(ch chan answer, id int) {
		t.Helper()
		if a := wait(ch); a.err != nil || string(a.result) != fmt.Sprintf(`{"n":%d}`, id) {
			t.Errorf("request %d: %s, %v; want its result", id, a.result, a.err)
		}
	}
	failed := func(ch chan answer, text string) {
		t.Helper()
		a := wait(ch)
		if a.err == nil || !errors.Is(a.err, ErrTooLong) || !strings.Contains(a.err.Error(), "longer than 1000 bytes") || !strings.Contains(a.err.Error(), text) {
			t.Errorf("answer %s, %v; want an error wrapping ErrTooLong that names the limit and says %q", a.result, a.err, text)
		}
	}

	// The response to 2 is skipped: 2 fails, 1 waits and is answered.
	a1, a2 := call(1), call(2)
	skip(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"xxxx`)
	failed(a2, "the response to this request was skipped")
	pending(a1)
	respond(1)
	ok(a1, 1)

	// A response whose id comes after its result: every waiting request
	// fails; later ones are answered.
	a3, a4 := call(3), call(4)
	skip(`{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"xxxx`)
	failed(a3, "every request waiting for a response fails")
	failed(a4, "every request waiting for a response fails")
	a5 := call(5)
	respond(5)
	ok(a5, 5)

	// A skipped request fails nothing, and is answered (a client notes
	// it instead).
	a6 := call(6)
	skip(`{"jsonrpc":"2.0","id":9,"method":"x","params":{"p":"xxxx`)
	gotErr := func(prefix string) {
		wantErr := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: ` + prefix + `message longer than 67108864 bytes"}}`
		t.Helper()
		var got string
		if client {
			select {
			case b := <-bad:
				got = string(b)
			case <-time.After(10 * time.Second):
			}
		} else {
			select {
			case got = <-s.written:
			case <-time.After(10 * time.Second):
			}
		}
		if got != wantErr {
			t.Errorf("a skipped request: %s, want %s", got, wantErr)
		}
	}
	gotErr("")
	pending(a6)
	respond(6)
	ok(a6, 6)

	// A message the stream skipped without its first bytes: the waiting
	// request fails, and the message is answered.
	a7 := call(7)
	s.reads <- serveRead{err: fmt.Errorf("frame 3: %w", ErrTooLong)}
	a := wait(a7)
	if a.err == nil || !errors.Is(a.err, ErrTooLong) || !strings.Contains(a.err.Error(), "longer than 67108864 bytes") {
		t.Errorf("a message of unknown kind skipped: %s, %v; want an error wrapping ErrTooLong that names the limit", a.result, a.err)
	}
	gotErr("frame 3: ")

	// A skipped response to no waiting request is dropped.
	a8 := call(8)
	skip(`{"jsonrpc":"2.0","id":40,"result":"xxxx`)
	skip(`{"jsonrpc":"2.0","id":"8","result":"xxxx`)
	skip(`{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"xxxx`)
	pending(a8)
	respond(8)
	ok(a8, 8)
	select {
	case m := <-s.written:
		t.Errorf("wrote %s", m)
	case b := <-bad:
		t.Errorf("noted %s", b)
	default:
	}
}
