package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpgen "github.com/mcpgen/mcpgen/generated/mcp20260728"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The HTTP benchmarks: tools/call of "add" (the dispatcher benchmarks'
// tool and handler work, dispatch_test.go) over loopback HTTP/1.1, against
// mcpgen's handler (mcpgen.NewHTTPHandler) and the go-sdk v1.8.0's
// StreamableHTTPHandler in stateless mode, each in a net/http server with
// the same settings, in this process. C clients (1, 16, 256), each on a
// keep-alive connection of its own, send the same request over and over
// until b.N requests are answered; the clients are raw HTTP/1.1 (a
// prepared request written, the response's status, headers and body read
// and checked), so that the servers' work dominates.
//
// Both servers answer with application/json: the go-sdk with JSONResponse
// set (its default is an SSE stream per request, which costs it more).
// Before timing, each server's response is checked to be equivalent to the
// other's (sameResponse), and every timed response is checked for status
// 200 and the sum.
//
// Reported per benchmark: ns/op (wall time over requests: the inverse of
// throughput), req/s, p50-µs and p99-µs (the latency of each request as
// its client saw it), cpu-ns/op (the process's CPU time per request,
// clients included), B/op and allocs/op (process-wide, clients included;
// the clients allocate next to nothing).

var httpClients = []int{1, 16, 256}

// The request the clients send: ToolsCall of the dispatcher benchmarks,
// with the 2026-07-28 headers.
var httpBody = func() string {
	for _, r := range dispRequests {
		if r.name == "ToolsCall" {
			return r.msg
		}
	}
	panic("no ToolsCall request")
}()

// newHTTPServer serves h at /mcp on a loopback port.
func newHTTPServer(h http.Handler) (addr string, stop func(), err error) {
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(ln)
	}()
	return ln.Addr().String(), func() { srv.Close(); <-done }, nil
}

var httpServers = []struct {
	name string
	make func() http.Handler
}{
	{"Mcpgen", func() http.Handler {
		return mcpgen.NewHTTPHandler(newMcpgenDispatcher(), mcpgen.HTTPOptions{})
	}},
	{"GoSDK", func() http.Handler {
		s := newGoSDKServer()
		return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	}},
}

// rawClient is one keep-alive HTTP/1.1 connection.
type rawClient struct {
	conn net.Conn
	r    *bufio.Reader
	req  []byte
	body []byte
}

func dialRaw(addr string) (*rawClient, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	req := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\n" +
		"Content-Type: application/json\r\n" +
		"Accept: application/json, text/event-stream\r\n" +
		"MCP-Protocol-Version: 2026-07-28\r\n" +
		"Mcp-Method: tools/call\r\n" +
		"Mcp-Name: add\r\n" +
		"Content-Length: " + strconv.Itoa(len(httpBody)) + "\r\n\r\n" + httpBody
	return &rawClient{conn: c, r: bufio.NewReaderSize(c, 16<<10), req: []byte(req)}, nil
}

// roundTrip sends the request and reads the response; the body it returns
// is reused by the next call.
func (c *rawClient) roundTrip() (status int, contentType string, body []byte, err error) {
	if _, err := c.conn.Write(c.req); err != nil {
		return 0, "", nil, err
	}
	line, err := c.r.ReadSlice('\n')
	if err != nil {
		return 0, "", nil, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, "", nil, fmt.Errorf("bad status line %q", line)
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, "", nil, err
	}
	length, chunked := -1, false
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return 0, "", nil, err
		}
		if len(line) <= 2 {
			break
		}
		k, v, _ := bytes.Cut(line, []byte(":"))
		v = bytes.TrimSpace(v)
		switch {
		case asciiEqualFold(k, "Content-Length"):
			length, err = strconv.Atoi(string(v))
			if err != nil {
				return 0, "", nil, err
			}
		case asciiEqualFold(k, "Transfer-Encoding"):
			chunked = bytes.EqualFold(v, []byte("chunked"))
		case asciiEqualFold(k, "Content-Type"):
			contentType = string(v)
		}
	}
	c.body = c.body[:0]
	switch {
	case chunked:
		for {
			line, err := c.r.ReadSlice('\n')
			if err != nil {
				return 0, "", nil, err
			}
			size, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 16, 64)
			if err != nil {
				return 0, "", nil, err
			}
			if size == 0 {
				if _, err := c.r.ReadSlice('\n'); err != nil {
					return 0, "", nil, err
				}
				break
			}
			n := len(c.body)
			c.body = slices.Grow(c.body, int(size))[:n+int(size)]
			if _, err := io.ReadFull(c.r, c.body[n:]); err != nil {
				return 0, "", nil, err
			}
			if _, err := c.r.Discard(2); err != nil {
				return 0, "", nil, err
			}
		}
	case length >= 0:
		c.body = slices.Grow(c.body, length)[:length]
		if _, err := io.ReadFull(c.r, c.body); err != nil {
			return 0, "", nil, err
		}
	default:
		return 0, "", nil, errors.New("a response without a length")
	}
	return status, contentType, c.body, nil
}

func asciiEqualFold(a []byte, b string) bool { return strings.EqualFold(string(a), b) }

// httpCheck checks a timed response: 200, JSON, the sum.
func httpCheck(status int, contentType string, body []byte) error {
	if status != 200 || contentType != "application/json" || !bytes.Contains(body, []byte(`"sum":42`)) {
		return fmt.Errorf("unexpected response: %d %s %s", status, contentType, body)
	}
	return nil
}

// TestHTTPEquivalent checks that both servers answer the benchmark's
// request alike, and like ServerDispatcher.Handle.
func TestHTTPEquivalent(t *testing.T) {
	if err := httpEquivalent(); err != nil {
		t.Fatal(err)
	}
}

func httpEquivalent() error {
	want := newMcpgenDispatcher().Handle(context.Background(), []byte(httpBody))
	for _, s := range httpServers {
		addr, stop, err := newHTTPServer(s.make())
		if err != nil {
			return err
		}
		c, err := dialRaw(addr)
		if err != nil {
			stop()
			return err
		}
		for range 2 {
			status, ct, body, err := c.roundTrip()
			if err == nil {
				err = httpCheck(status, ct, body)
			}
			if err == nil {
				err = sameResponse(want, body)
			}
			if err != nil {
				c.conn.Close()
				stop()
				return fmt.Errorf("%s: %v", s.name, err)
			}
		}
		c.conn.Close()
		stop()
	}
	return nil
}

func BenchmarkHTTP(b *testing.B) {
	if err := httpEquivalent(); err != nil {
		b.Fatal(err)
	}
	for _, s := range httpServers {
		for _, n := range httpClients {
			b.Run(fmt.Sprintf("%s/Clients%d", s.name, n), func(b *testing.B) {
				benchHTTP(b, s.make(), n)
			})
		}
	}
}

func benchHTTP(b *testing.B, h http.Handler, clients int) {
	addr, stop, err := newHTTPServer(h)
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	cs := make([]*rawClient, clients)
	for i := range cs {
		if cs[i], err = dialRaw(addr); err != nil {
			b.Fatal(err)
		}
		defer cs[i].conn.Close()
		// Warm the connection (and the server's caches) up.
		if _, _, _, err := cs[i].roundTrip(); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([][]time.Duration, clients)
	for i := range lat {
		lat[i] = make([]time.Duration, 0, b.N/clients+1)
	}
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	runtime.GC()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuNanos()
	start := time.Now()
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				t0 := time.Now()
				status, ct, body, err := c.roundTrip()
				lat[i] = append(lat[i], time.Since(t0))
				if err == nil {
					err = httpCheck(status, ct, body)
				}
				if err != nil {
					failed.CompareAndSwap(nil, &err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu := cpuNanos() - cpu0
	b.StopTimer()
	if e := failed.Load(); e != nil {
		b.Fatal(*e)
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	pct := func(p float64) float64 {
		return float64(all[min(len(all)-1, int(p*float64(len(all))))].Nanoseconds()) / 1e3
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}
