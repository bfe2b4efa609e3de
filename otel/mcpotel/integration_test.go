package mcpotel_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/otel/mcpotel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// side is one process's telemetry: its own providers and in-memory
// exporters, as a client and a server in different processes have.
type side struct {
	tel    *mcpotel.Telemetry
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
}

func newSide(t *testing.T, opts mcpotel.Options) *side {
	t.Helper()
	s := &side{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	s.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(s.spans))
	opts.TracerProvider = s.tp
	opts.MeterProvider = sdkmetric.NewMeterProvider(sdkmetric.WithReader(s.reader))
	tel, err := mcpotel.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	s.tel = tel
	return s
}

func (s *side) span(t *testing.T, kind trace.SpanKind, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	var names []string
	for _, sp := range s.spans.Ended() {
		if sp.SpanKind() == kind && sp.Name() == name {
			return sp
		}
		names = append(names, sp.SpanKind().String()+" "+sp.Name())
	}
	t.Fatalf("no %v span %q; the spans: %q", kind, name, names)
	return nil
}

func (s *side) metric(t *testing.T, name string) metricdata.Histogram[float64] {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := s.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				h, ok := m.Data.(metricdata.Histogram[float64])
				if !ok {
					t.Fatalf("%s is a %T", name, m.Data)
				}
				if m.Unit != "s" {
					t.Errorf("%s: unit %q", name, m.Unit)
				}
				return h
			}
		}
	}
	return metricdata.Histogram[float64]{}
}

func attrMap(kvs []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

type weatherArgs struct {
	Location string `json:"location"`
	Date     string `json:"date"`
}

func newWeatherServer(mw ...mcp.Middleware) *mcp.ServerDispatcher {
	d := mcp.NewServerDispatcher(&mcp.Server{}, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "weather", Version: "1"}, Middleware: mw})
	mcp.AddTool(d, mcp.Tool{Name: "get-weather"}, func(ctx context.Context, p *mcp.CallToolRequestParams, in weatherArgs) (*mcp.CallToolResult, error) {
		return mcp.TextResult("sunny in " + in.Location), nil
	})
	mcp.AddTool(d, mcp.Tool{Name: "broken"}, func(ctx context.Context, p *mcp.CallToolRequestParams, in struct{}) (*mcp.CallToolResult, error) {
		r := mcp.TextResult("it broke")
		r.IsError = new(true)
		return r, nil
	})
	return d
}

var weatherArgsJSON = json.RawMessage(`{"location":"San Francisco?","date":"2025-10-01"}`)

// caller is a generated client of either revision, as the test needs it.
type caller interface {
	call(ctx context.Context, tool string, args json.RawMessage) (isError bool, err error)
	version() string
	close() error
}

type client2026 struct{ c *mcp.Client }

func (c client2026) call(ctx context.Context, tool string, args json.RawMessage) (bool, error) {
	r, err := c.c.CallTool(ctx, &mcp.CallToolRequestParams{Name: tool, Arguments: args})
	if err != nil {
		return false, err
	}
	return r.GetIsError(), nil
}
func (c client2026) version() string { return c.c.ProtocolVersion() }
func (c client2026) close() error    { return c.c.Close() }

type client2025 struct{ c *mcp20251125.Client }

func (c client2025) call(ctx context.Context, tool string, args json.RawMessage) (bool, error) {
	r, err := c.c.CallTool(ctx, &mcp20251125.CallToolRequestParams{Name: tool, Arguments: args})
	if err != nil {
		return false, err
	}
	return r.GetIsError(), nil
}
func (c client2025) version() string { return c.c.ProtocolVersion() }
func (c client2025) close() error    { return c.c.Close() }

// connect connects a client of revision rev (2026-07-28, or 2025-11-25:
// served through the server's conversions) over t.
func connect(t *testing.T, ctx context.Context, rev string, tr mcp.Transport, mw []mcp.Middleware) caller {
	t.Helper()
	switch rev {
	case mcp.ProtocolVersion:
		c, err := mcp.Connect(ctx, tr, nil, mcp.ClientOptions{Middleware: mw})
		if err != nil {
			t.Fatal(err)
		}
		return client2026{c}
	case mcp20251125.ProtocolVersion:
		c, err := mcp20251125.Connect(ctx, tr, nil, mcp20251125.ClientOptions{Middleware: mw})
		if err != nil {
			t.Fatal(err)
		}
		return client2025{c}
	}
	t.Fatalf("no client of %s", rev)
	return nil
}

// served is a server reachable over a transport.
type served struct {
	transport func() mcp.Transport
	stop      func()
	http      bool
	host      string
	port      int
}

func serveStdio(t *testing.T, d *mcp.ServerDispatcher) *served {
	var done chan error
	var srvConn net.Conn
	return &served{
		transport: func() mcp.Transport {
			c, s := net.Pipe()
			srvConn, done = s, make(chan error, 1)
			go func() { done <- d.Serve(context.Background(), s, s) }()
			return &mcp.StreamTransport{Conn: c}
		},
		stop: func() {
			if done == nil {
				return
			}
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				srvConn.Close()
				t.Error("Serve did not return after the client closed")
			}
		},
	}
}

func serveHTTP(t *testing.T, d *mcp.ServerDispatcher) *served {
	hs := httptest.NewServer(mcp.NewHTTPHandler(d, mcp.HTTPOptions{}))
	u, _ := url.Parse(hs.URL)
	port, _ := strconv.Atoi(u.Port())
	return &served{
		transport: func() mcp.Transport { return &mcp.HTTPTransport{URL: hs.URL} },
		stop:      hs.Close,
		http:      true, host: u.Hostname(), port: port,
	}
}

// TestTraceAcrossClientAndServer: a generated client and server, each
// with telemetry of its own (different providers, as in two processes),
// over stdio framing and over Streamable HTTP, for a client of 2026-07-28
// and one of 2025-11-25 (the initialize handshake, served through the
// conversions): the server's SERVER span is the child of the client's
// CLIENT span (the context went in params._meta), under the agent's span,
// with exactly the convention's attributes; tool errors and error
// responses have error.type; the operation histograms are recorded with
// the convention's attributes and buckets.
func TestTraceAcrossClientAndServer(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		for _, rev := range []string{mcp.ProtocolVersion, mcp20251125.ProtocolVersion} {
			t.Run(transport+"/"+rev, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				srv, cli := newSide(t, mcpotel.Options{}), newSide(t, mcpotel.Options{})
				d := newWeatherServer(srv.tel.Middleware())
				var s *served
				if transport == "http" {
					s = serveHTTP(t, d)
				} else {
					s = serveStdio(t, d)
				}
				c := connect(t, ctx, rev, s.transport(), []mcp.Middleware{cli.tel.Middleware()})
				if v := c.version(); v != rev {
					t.Fatalf("negotiated %s, want %s", v, rev)
				}

				agentCtx, agent := cli.tp.Tracer("agent").Start(ctx, "invoke_agent weather-forecast-agent")
				if isErr, err := c.call(agentCtx, "get-weather", weatherArgsJSON); err != nil || isErr {
					t.Fatalf("get-weather: %v %v", isErr, err)
				}
				if isErr, err := c.call(agentCtx, "broken", json.RawMessage(`{}`)); err != nil || !isErr {
					t.Fatalf("broken: isError %v, %v", isErr, err)
				}
				_, unknownErr := c.call(agentCtx, "no-such-tool", json.RawMessage(`{}`))
				var re *mcp.RPCError
				if !errors.As(unknownErr, &re) {
					t.Fatalf("no-such-tool: %v, want an error response", unknownErr)
				}
				agent.End()

				cs := cli.span(t, trace.SpanKindClient, "tools/call get-weather")
				ss := srv.span(t, trace.SpanKindServer, "tools/call get-weather")
				if cs.Parent().SpanID() != agent.SpanContext().SpanID() {
					t.Error("the client's span is not the agent span's child")
				}
				if ss.SpanContext().TraceID() != cs.SpanContext().TraceID() || ss.Parent().SpanID() != cs.SpanContext().SpanID() || !ss.Parent().IsRemote() {
					t.Errorf("the server's span (trace %s, parent %s) is not the child of the client's (trace %s, span %s)",
						ss.SpanContext().TraceID(), ss.Parent().SpanID(), cs.SpanContext().TraceID(), cs.SpanContext().SpanID())
				}
				id := attrMap(cs.Attributes())["jsonrpc.request.id"]
				if id == "" || attrMap(ss.Attributes())["jsonrpc.request.id"] != id {
					t.Errorf("request ids: client %q, server %q", id, attrMap(ss.Attributes())["jsonrpc.request.id"])
				}
				want := map[string]string{
					"gen_ai.operation.name": "execute_tool",
					"gen_ai.tool.name":      "get-weather",
					"jsonrpc.request.id":    id,
					"mcp.method.name":       "tools/call",
					"mcp.protocol.version":  rev,
					"network.transport":     "pipe",
				}
				wantServer, wantClient := maps.Clone(want), maps.Clone(want)
				if s.http {
					for _, w := range []map[string]string{wantServer, wantClient} {
						w["network.transport"], w["network.protocol.name"] = "tcp", "http"
					}
					wantServer["network.protocol.version"] = "1.1"
					host, port := hostPortOf(t, ss)
					if host != "127.0.0.1" || port == "" {
						t.Errorf("client.address %q client.port %q", host, port)
					}
					wantServer["client.address"], wantServer["client.port"] = host, port
					wantClient["server.address"], wantClient["server.port"] = s.host, strconv.Itoa(s.port)
					if rev != mcp.ProtocolVersion {
						sid := attrMap(ss.Attributes())["mcp.session.id"]
						if sid == "" {
							t.Error("no mcp.session.id on the server's span in an HTTP session")
						}
						wantServer["mcp.session.id"], wantClient["mcp.session.id"] = sid, sid
					}
				}
				if got := attrMap(ss.Attributes()); !maps.Equal(got, wantServer) {
					t.Errorf("the server's span:\n got %v\nwant %v", got, wantServer)
				}
				if got := attrMap(cs.Attributes()); !maps.Equal(got, wantClient) {
					t.Errorf("the client's span:\n got %v\nwant %v", got, wantClient)
				}
				if cs.Status().Code != codes.Unset || ss.Status().Code != codes.Unset {
					t.Errorf("status %v / %v, want Unset", cs.Status(), ss.Status())
				}

				for _, sp := range []sdktrace.ReadOnlySpan{cli.span(t, trace.SpanKindClient, "tools/call broken"), srv.span(t, trace.SpanKindServer, "tools/call broken")} {
					a := attrMap(sp.Attributes())
					if a["error.type"] != "tool_error" || a["rpc.response.status_code"] != "" || sp.Status().Code != codes.Error {
						t.Errorf("%v tools/call broken: %v, status %v; want error.type tool_error", sp.SpanKind(), a, sp.Status())
					}
				}
				code := strconv.FormatInt(re.Code, 10)
				for _, sp := range []sdktrace.ReadOnlySpan{cli.span(t, trace.SpanKindClient, "tools/call no-such-tool"), srv.span(t, trace.SpanKindServer, "tools/call no-such-tool")} {
					a := attrMap(sp.Attributes())
					if a["error.type"] != code || a["rpc.response.status_code"] != code || sp.Status().Code != codes.Error || sp.Status().Description != re.Message {
						t.Errorf("%v tools/call no-such-tool: %v, status %v; want error.type and rpc.response.status_code %s", sp.SpanKind(), a, sp.Status(), code)
					}
				}

				// The handshake's spans.
				hello := "server/discover"
				if rev != mcp.ProtocolVersion {
					hello = "initialize"
				}
				hc, hsrv := cli.span(t, trace.SpanKindClient, hello), srv.span(t, trace.SpanKindServer, hello)
				if hsrv.Parent().SpanID() != hc.SpanContext().SpanID() || attrMap(hsrv.Attributes())["mcp.protocol.version"] != rev || attrMap(hc.Attributes())["mcp.protocol.version"] != rev {
					t.Errorf("%s: the server's span %v (parent %s), the client's %v (span %s)", hello, attrMap(hsrv.Attributes()), hsrv.Parent().SpanID(), attrMap(hc.Attributes()), hc.SpanContext().SpanID())
				}

				// The operation histograms.
				for _, m := range []struct {
					side *side
					name string
					peer []string
				}{
					{srv, mcpotel.MetricServerOperationDuration, nil},
					{cli, mcpotel.MetricClientOperationDuration, []string{"server.address", "server.port"}},
				} {
					h := m.side.metric(t, m.name)
					var point *metricdata.HistogramDataPoint[float64]
					for i, p := range h.DataPoints {
						if v, _ := p.Attributes.Value("gen_ai.tool.name"); v.AsString() == "get-weather" {
							point = &h.DataPoints[i]
						}
					}
					if point == nil {
						t.Fatalf("%s: no point for get-weather among %d", m.name, len(h.DataPoints))
					}
					keys := []string{"gen_ai.operation.name", "gen_ai.tool.name", "mcp.method.name", "mcp.protocol.version", "network.transport"}
					if s.http {
						keys = append(keys, "network.protocol.name")
						if m.peer == nil {
							keys = append(keys, "network.protocol.version")
						}
						keys = append(keys, m.peer...)
					}
					sort.Strings(keys)
					var got []string
					for _, kv := range point.Attributes.ToSlice() {
						got = append(got, string(kv.Key))
					}
					if !slices.Equal(got, keys) || point.Count != 1 || !slices.Equal(point.Bounds, mcpotel.DurationBuckets) {
						t.Errorf("%s: attributes %v (want %v), count %d, bounds %v", m.name, got, keys, point.Count, point.Bounds)
					}
				}

				if err := c.close(); err != nil {
					t.Errorf("Close: %v", err)
				}
				s.stop()
				// The server's session ended with the connection (stdio) or
				// the DELETE (an HTTP session): its duration is recorded.
				if rev != mcp.ProtocolVersion || !s.http {
					deadline := time.Now().Add(5 * time.Second)
					for len(srv.metric(t, mcpotel.MetricServerSessionDuration).DataPoints) == 0 && time.Now().Before(deadline) {
						time.Sleep(20 * time.Millisecond)
					}
					h := srv.metric(t, mcpotel.MetricServerSessionDuration)
					if len(h.DataPoints) != 1 || h.DataPoints[0].Count != 1 {
						t.Fatalf("%s: %+v, want one session", mcpotel.MetricServerSessionDuration, h.DataPoints)
					}
					if v, _ := h.DataPoints[0].Attributes.Value("mcp.protocol.version"); v.AsString() != rev {
						t.Errorf("the session's mcp.protocol.version %q, want %s", v.AsString(), rev)
					}
				}
			})
		}
	}
}

func hostPortOf(t *testing.T, sp sdktrace.ReadOnlySpan) (string, string) {
	a := attrMap(sp.Attributes())
	return a["client.address"], a["client.port"]
}

// TestServerTraceOnlyWhenClientSent: a client without telemetry sends no
// trace context; the server's span then starts a trace of its own (no
// parent), and the handler's context carries the server's span.
func TestServerTraceOnlyWhenClientSent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := newSide(t, mcpotel.Options{})
	var handlerSpan trace.SpanContext
	d := mcp.NewServerDispatcher(&mcp.Server{}, mcp.ServerOptions{Middleware: []mcp.Middleware{srv.tel.Middleware()}})
	mcp.AddTool(d, mcp.Tool{Name: "who"}, func(ctx context.Context, p *mcp.CallToolRequestParams, in struct{}) (*mcp.CallToolResult, error) {
		handlerSpan = trace.SpanContextFromContext(ctx)
		return mcp.TextResult("me"), nil
	})
	s := serveStdio(t, d)
	c, err := mcp.Connect(ctx, s.transport(), nil, mcp.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cliTP := sdktrace.NewTracerProvider()
	cctx, own := cliTP.Tracer("app").Start(ctx, "app")
	if _, err := c.CallTool(cctx, &mcp.CallToolRequestParams{Name: "who", Arguments: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	own.End()
	c.Close()
	s.stop()
	ss := srv.span(t, trace.SpanKindServer, "tools/call who")
	if ss.Parent().IsValid() || ss.SpanContext().TraceID() == own.SpanContext().TraceID() {
		t.Errorf("the server's span has parent %v, trace %s; the client sent no context (its own trace is %s)", ss.Parent(), ss.SpanContext().TraceID(), own.SpanContext().TraceID())
	}
	if handlerSpan.SpanID() != ss.SpanContext().SpanID() {
		t.Errorf("the handler's context carries span %s, want the server's %s", handlerSpan.SpanID(), ss.SpanContext().SpanID())
	}
}
