package jsonrpc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// TestReadLineMax: lines of every length around the reader's buffer and
// the limit come back whole, read whole or in small reads; a longer one
// is ErrTooLong and the next line comes back; the last line may lack its
// newline.
func TestReadLineMax(t *testing.T) {
	const max = 100
	lens := []int{0, 1, 15, 16, 17, 31, 32, 33, 50, 99, 100, 101, 102, 200, 1000}
	var in bytes.Buffer
	for i, n := range lens {
		in.WriteString(strings.Repeat(string(rune('a'+i)), n))
		in.WriteByte('\n')
	}
	in.WriteString("end")
	for _, r := range []io.Reader{bytes.NewReader(in.Bytes()), iotest.OneByteReader(bytes.NewReader(in.Bytes()))} {
		br := bufio.NewReaderSize(r, 16)
		for i, n := range lens {
			line, err := readLineMax(br, max)
			if n > max {
				if !errors.Is(err, ErrTooLong) || line != nil {
					t.Fatalf("%d bytes: %d bytes, %v; want ErrTooLong", n, len(line), err)
				}
				continue
			}
			if want := strings.Repeat(string(rune('a'+i)), n); err != nil || string(line) != want {
				t.Fatalf("%d bytes: %q, %v", n, line, err)
			}
		}
		if line, err := readLineMax(br, max); err != io.EOF || string(line) != "end" {
			t.Errorf("last line: %q, %v; want \"end\" and io.EOF", line, err)
		}
	}
}

// repeatReader reads head, then n bytes of fill, then tail, without
// holding the n bytes.
type repeatReader struct {
	head, tail []byte
	fill       byte
	n          int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	k := 0
	if len(r.head) > 0 {
		k = copy(p, r.head)
		r.head = r.head[k:]
		return k, nil
	}
	if r.n > 0 {
		k = min(len(p), r.n)
		for i := range k {
			p[i] = r.fill
		}
		r.n -= k
		return k, nil
	}
	if len(r.tail) > 0 {
		k = copy(p, r.tail)
		r.tail = r.tail[k:]
		return k, nil
	}
	return 0, io.EOF
}

// TestServeLineAboveTheLimit: a 100 MiB line, above MaxMessageSize (64
// MiB), is answered with an error and the next message with its result;
// reading it allocates at most the limit and one piece (4 MiB) plus a
// constant, not the line: what follows the limit is read and dropped.
// A line under the limit costs at most about twice its length.
func TestServeLineAboveTheLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 100 MiB")
	}
	d := &Dispatcher{Methods: map[string]*Method{"ping": {Call: func(context.Context, []byte) (Result, error) {
		return RawResult(`{}`), nil
	}}}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const size = 100 << 20
	in := &repeatReader{
		head: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`),
		fill: 'x',
		n:    size,
		tail: []byte("\"}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n"),
	}
	var out bytes.Buffer
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := d.Serve(ctx, in, &out)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"code":-32600`) || !strings.Contains(lines[0], "message longer than 67108864 bytes") || lines[1] != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatalf("answers %q, want the too-long error and the result of id 2", lines)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("a %d MiB line above the %d MiB limit: %.1f MiB allocated", size>>20, MaxMessageSize>>20, float64(alloc)/(1<<20))
	if alloc > MaxMessageSize+8<<20 {
		t.Errorf("%d bytes allocated for a line above the limit, want at most the limit (%d) plus 8 MiB", alloc, MaxMessageSize)
	}

	// Under the limit: 32 MiB, read by readLineMax alone (the dispatcher
	// would add its own reading of the message).
	const under = 32 << 20
	br := bufio.NewReaderSize(&repeatReader{fill: 'y', n: under, tail: []byte("\n")}, 64<<10)
	runtime.GC()
	runtime.ReadMemStats(&before)
	line, err := readLineMax(br, MaxMessageSize)
	runtime.ReadMemStats(&after)
	if err != nil || len(line) != under || line[0] != 'y' || line[under-1] != 'y' {
		t.Fatalf("a line of %d bytes: %d bytes, %v", under, len(line), err)
	}
	alloc = after.TotalAlloc - before.TotalAlloc
	t.Logf("a %d MiB line under the limit: %.1f MiB allocated", under>>20, float64(alloc)/(1<<20))
	if alloc > 2*under+8<<20 {
		t.Errorf("%d bytes allocated for a line of %d, want at most twice plus 8 MiB", alloc, under)
	}
}
