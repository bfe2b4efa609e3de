package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"runtime"
	"testing"

	mcpgen "github.com/mcpgen/mcpgen/generated/mcp20260728"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The client benchmarks: one tools/call round trip ("add" of 40 and 2,
// answered 42) through a client library, against the same server: the
// dispatcher benchmarks' mcpgen server (newMcpgenDispatcher), served with
// ServerDispatcher.Serve on one end of a net.Pipe, the client on the other
// end, newline-delimited JSON-RPC both ways (the stdio transport's framing).
// Each client is connected once (its server/discover probe, and for the
// go-sdk the rest of its connection start) before timing.
//
// Implementations (BenchmarkClient/<name>):
//
//	Mcpgen        the generated client: mcpgen.Connect with a
//	              StreamTransport on the pipe, then Client.CallTool with
//	              the arguments as JSON. The mcpgen side of the target.
//	GoSDK         the go-sdk v1.8.0 client: Client.Connect with an
//	              IOTransport on the pipe, then ClientSession.CallTool
//	              with the arguments as a map. The go-sdk side.
//	ServerOnly    the server's share of a round trip: a raw client writes
//	              the bytes of the request the generated client sends and
//	              reads the response line back (the dispatcher benchmarks'
//	              McpgenServePipe), for the client-only columns.
//	McpgenHTTP,   the same two clients over Streamable HTTP: the server
//	GoSDKHTTP     behind mcpgen.NewHTTPHandler in a loopback net/http
//	              server; mcpgen.HTTPTransport and the go-sdk's
//	              StreamableClientTransport.
//
// ns/op, B/op and allocs/op are process-wide (the server's goroutines count
// too); cpu-ns/op is the process's CPU time per call. Every call's result is
// checked (the text "42").

// clientArgs is the arguments of every call.
const clientArgs = `{"a":40,"b":2}`

// clientCaller makes one checked call.
type clientCaller interface {
	call(ctx context.Context) error
	close()
}

// serveOnPipe serves the mcpgen server on one end of a net.Pipe and
// returns the other end; stop ends the server.
func serveOnPipe() (client net.Conn, stop func()) {
	c, s := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		newMcpgenDispatcher().Serve(ctx, s, s)
		close(done)
	}()
	return c, func() {
		cancel()
		c.Close()
		s.Close()
		<-done
	}
}

type mcpgenCaller struct {
	c    *mcpgen.Client
	stop func()
}

func newMcpgenCaller() (clientCaller, error) {
	conn, stop := serveOnPipe()
	c, err := mcpgen.Connect(context.Background(), &mcpgen.StreamTransport{Conn: conn}, nil, mcpgen.ClientOptions{
		ClientInfo: mcpgen.Implementation{Name: "bench-client", Version: "1.0.0"},
	})
	if err != nil {
		stop()
		return nil, err
	}
	return &mcpgenCaller{c: c, stop: stop}, nil
}

func (m *mcpgenCaller) call(ctx context.Context) error {
	res, err := m.c.CallTool(ctx, &mcpgen.CallToolRequestParams{Name: "add", Arguments: json.RawMessage(clientArgs)})
	if err != nil {
		return err
	}
	if t, ok := res.Content[0].(*mcpgen.TextContent); !ok || t.Text != "42" {
		return fmt.Errorf("mcpgen client: result %+v", res.Content)
	}
	return nil
}

func (m *mcpgenCaller) close() {
	m.c.Close()
	m.stop()
}

type goSDKCaller struct {
	cs   *sdk.ClientSession
	stop func()
	args map[string]any
}

func newGoSDKCaller() (clientCaller, error) {
	conn, stop := serveOnPipe()
	client := sdk.NewClient(&sdk.Implementation{Name: "bench-client", Version: "1.0.0"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		stop()
		return nil, err
	}
	return &goSDKCaller{cs: cs, stop: stop, args: map[string]any{"a": 40, "b": 2}}, nil
}

func (g *goSDKCaller) call(ctx context.Context) error {
	res, err := g.cs.CallTool(ctx, &sdk.CallToolParams{Name: "add", Arguments: g.args})
	if err != nil {
		return err
	}
	if len(res.Content) == 0 {
		return errors.New("go-sdk client: no content")
	}
	if t, ok := res.Content[0].(*sdk.TextContent); !ok || t.Text != "42" {
		return fmt.Errorf("go-sdk client: result %+v", res.Content)
	}
	return nil
}

func (g *goSDKCaller) close() {
	g.cs.Close()
	g.stop()
}

// serverOnly is the server's share: the raw request the generated client
// sends (captured once), written and answered over the pipe.
type serverOnly struct {
	rt  roundTripper
	req []byte
}

func newServerOnly() (clientCaller, error) {
	req, err := mcpgenRequestBytes()
	if err != nil {
		return nil, err
	}
	rt, err := newMcpgenServePipe()
	if err != nil {
		return nil, err
	}
	return &serverOnly{rt: rt, req: req}, nil
}

func (s *serverOnly) call(context.Context) error {
	resp, err := s.rt.roundTrip(s.req)
	if err != nil {
		return err
	}
	if !json.Valid(resp) {
		return fmt.Errorf("server only: %s", resp)
	}
	return nil
}

func (s *serverOnly) close() { s.rt.close() }

// mcpgenRequestBytes captures the tools/call request line the generated
// client writes.
func mcpgenRequestBytes() ([]byte, error) {
	c, s := net.Pipe()
	defer s.Close()
	lines := make(chan []byte, 4)
	go func() {
		buf := make([]byte, 64<<10)
		var acc []byte
		for {
			n, err := s.Read(buf)
			acc = append(acc, buf[:n]...)
			for {
				i := indexByte(acc, '\n')
				if i < 0 {
					break
				}
				line := append([]byte(nil), acc[:i]...)
				acc = acc[i+1:]
				lines <- line
				// Answer the probe so that Connect succeeds; the
				// tools/call is only recorded.
				var m struct {
					ID     json.RawMessage `json:"id"`
					Method string          `json:"method"`
				}
				json.Unmarshal(line, &m)
				if m.Method == "server/discover" {
					fmt.Fprintf(s, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"public"}}`+"\n", m.ID)
				}
			}
			if err != nil {
				close(lines)
				return
			}
		}
	}()
	cl, err := mcpgen.Connect(context.Background(), &mcpgen.StreamTransport{Conn: c}, nil, mcpgen.ClientOptions{
		ClientInfo: mcpgen.Implementation{Name: "bench-client", Version: "1.0.0"}, RequestTimeout: -1,
	})
	if err != nil {
		return nil, err
	}
	<-lines // the probe
	ctx, cancel := context.WithCancel(context.Background())
	go cl.CallTool(ctx, &mcpgen.CallToolRequestParams{Name: "add", Arguments: json.RawMessage(clientArgs)})
	req := <-lines
	cancel()
	cl.Close()
	return req, nil
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// Over Streamable HTTP: the same server behind mcpgen.NewHTTPHandler in a
// net/http server on loopback, each client with an http.Transport of its
// own (keep-alive).

// serveHTTPClient starts the HTTP server and returns its URL.
func serveHTTPClient() (url string, stop func(), err error) {
	addr, stop, err := newHTTPServer(mcpgen.NewHTTPHandler(newMcpgenDispatcher(), mcpgen.HTTPOptions{}))
	if err != nil {
		return "", nil, err
	}
	return "http://" + addr + "/mcp", stop, nil
}

func newMcpgenHTTPCaller() (clientCaller, error) {
	url, stop, err := serveHTTPClient()
	if err != nil {
		return nil, err
	}
	c, err := mcpgen.Connect(context.Background(), &mcpgen.HTTPTransport{URL: url}, nil, mcpgen.ClientOptions{
		ClientInfo: mcpgen.Implementation{Name: "bench-client", Version: "1.0.0"},
	})
	if err != nil {
		stop()
		return nil, err
	}
	return &mcpgenCaller{c: c, stop: stop}, nil
}

func newGoSDKHTTPCaller() (clientCaller, error) {
	url, stop, err := serveHTTPClient()
	if err != nil {
		return nil, err
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "bench-client", Version: "1.0.0"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		stop()
		return nil, err
	}
	return &goSDKCaller{cs: cs, stop: stop, args: map[string]any{"a": 40, "b": 2}}, nil
}

var clientImpls = []struct {
	name string
	make func() (clientCaller, error)
}{
	{"Mcpgen", newMcpgenCaller},
	{"GoSDK", newGoSDKCaller},
	{"ServerOnly", newServerOnly},
	{"McpgenHTTP", newMcpgenHTTPCaller},
	{"GoSDKHTTP", newGoSDKHTTPCaller},
}

// TestClientCallers checks that every caller works, before any timing.
func TestClientCallers(t *testing.T) {
	for _, impl := range clientImpls {
		c, err := impl.make()
		if err != nil {
			t.Fatalf("%s: %v", impl.name, err)
		}
		for range 3 {
			if err := c.call(context.Background()); err != nil {
				t.Errorf("%s: %v", impl.name, err)
			}
		}
		c.close()
	}
}

func BenchmarkClient(b *testing.B) {
	for _, impl := range clientImpls {
		b.Run(impl.name, func(b *testing.B) {
			c, err := impl.make()
			if err != nil {
				b.Fatal(err)
			}
			defer c.close()
			ctx := context.Background()
			if err := c.call(ctx); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			runtime.GC()
			cpu0 := cpuNanos()
			for b.Loop() {
				if err := c.call(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
