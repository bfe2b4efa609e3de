package protocol_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	old "github.com/mcpgen/mcpgen/generated/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// postHuge sends a POST of size bytes of JSON to url over a connection of
// its own, with a Content-Length or chunked, without holding the body,
// and returns the response's status and body. The body is ["x...x"],
// written from piece (x's) again and again. The server may answer
// before it has read the body; what the client cannot write then is
// dropped.
func postHuge(t *testing.T, url string, header http.Header, size int, chunked bool, piece []byte) (int, string) {
	t.Helper()
	host := strings.TrimPrefix(url, "http://")
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	var head bytes.Buffer
	fmt.Fprintf(&head, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n", host)
	for k, vs := range header {
		for _, v := range vs {
			fmt.Fprintf(&head, "%s: %s\r\n", k, v)
		}
	}
	if chunked {
		head.WriteString("Transfer-Encoding: chunked\r\n\r\n")
	} else {
		fmt.Fprintf(&head, "Content-Length: %d\r\n\r\n", size)
	}
	go func() {
		// The body: ["xxx...x"], written from one reused piece.
		w := bufio.NewWriterSize(conn, 64<<10)
		w.Write(head.Bytes())
		write := func(b []byte) error {
			if chunked {
				fmt.Fprintf(w, "%x\r\n", len(b))
			}
			if _, err := w.Write(b); err != nil {
				return err
			}
			if chunked {
				_, err := w.WriteString("\r\n")
				return err
			}
			return nil
		}
		if write([]byte(`["`)) != nil {
			return
		}
		for left := size - 4; left > 0; left -= len(piece) {
			if write(piece[:min(left, len(piece))]) != nil {
				return
			}
		}
		write([]byte(`"]`))
		if chunked {
			w.WriteString("0\r\n\r\n")
		}
		w.Flush()
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(b)
}

// TestServerBodyAboveTheLimit: a 100 MiB POST to the HTTP handler, of
// 2026-07-28 and of a 2025-11-25 package (sessions), is answered 413; a
// stated Content-Length above the limit is refused unread (under 1 MiB
// allocated in all, client and server), a chunked body after the limit
// and one byte, at most twice the limit allocated plus 1 MiB.
func TestServerBodyAboveTheLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 100 MiB")
	}
	const size = 100 << 20
	modern := mcp.NewServerDispatcher(&mcp.Server{}, mcp.ServerOptions{})
	older := old.NewServerDispatcher(&old.Server{}, old.ServerOptions{})
	for _, tc := range []struct {
		name    string
		h       http.Handler
		header  http.Header
		limit   int
		chunked bool
	}{
		{"2026-07-28/length", mcp.NewHTTPHandler(modern, mcp.HTTPOptions{}), http.Header{"Mcp-Protocol-Version": {"2026-07-28"}}, 4 << 20, false},
		{"2026-07-28/chunked", mcp.NewHTTPHandler(modern, mcp.HTTPOptions{}), http.Header{"Mcp-Protocol-Version": {"2026-07-28"}}, 4 << 20, true},
		{"2026-07-28/chunked/8MiB", mcp.NewHTTPHandler(modern, mcp.HTTPOptions{MaxBodyBytes: 8 << 20}), http.Header{"Mcp-Protocol-Version": {"2026-07-28"}}, 8 << 20, true},
		{"2025-11-25/length", old.NewHTTPHandler(older, old.HTTPOptions{}), nil, 4 << 20, false},
		{"2025-11-25/chunked", old.NewHTTPHandler(older, old.HTTPOptions{}), nil, 4 << 20, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.Handle("/mcp", tc.h)
			s := httptest.NewServer(mux)
			defer s.Close()
			piece := bytes.Repeat([]byte("x"), 1<<20)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			status, body := postHuge(t, s.URL, tc.header, size, tc.chunked, piece)
			runtime.ReadMemStats(&after)
			want := "this server takes bodies of at most " + strconv.Itoa(tc.limit) + " bytes"
			if !tc.chunked {
				want = "the body has " + strconv.Itoa(size) + " bytes; this server takes at most " + strconv.Itoa(tc.limit)
			}
			if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "content too large: "+want) {
				t.Fatalf("status %d, body %.300s; want 413 saying %q", status, body, want)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%.2f MiB allocated for a body of 100 MiB, limit %d MiB", float64(alloc)/(1<<20), tc.limit>>20)
			bound := uint64(2*tc.limit + 1<<20)
			if !tc.chunked {
				bound = 1 << 20
			}
			if alloc > bound {
				t.Errorf("%d bytes allocated, want at most %d", alloc, bound)
			}
		})
	}
}
