package mcpotel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

type rig struct {
	tel    *Telemetry
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
}

func newRig(t *testing.T, opts Options) *rig {
	t.Helper()
	r := &rig{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	r.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans))
	opts.TracerProvider = r.tp
	opts.MeterProvider = sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader))
	tel, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	r.tel = tel
	return r
}

func (r *rig) span(t *testing.T, kind trace.SpanKind, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	for _, s := range r.spans.Ended() {
		if s.SpanKind() == kind && s.Name() == name && s.InstrumentationScope().Name == ScopeName {
			return s
		}
	}
	t.Fatalf("no %v span %q among %d", kind, name, len(r.spans.Ended()))
	return nil
}

// attrs renders a span's attributes as key -> value text.
func attrs(kvs []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

func wantAttrs(t *testing.T, what string, got []attribute.KeyValue, want map[string]string) {
	t.Helper()
	g := attrs(got)
	if !maps.Equal(g, want) {
		keys := slices.Sorted(maps.Keys(g))
		t.Errorf("%s attributes:\n got %v\nwant %v\n(keys %v)", what, g, want, keys)
	}
}

const sessionID = "8267461134f24305af708e66b8eda71a"

// exchange runs one operation from client to server the way the runtime's
// middleware does: the client starts its span (injecting _meta), the
// server starts its own from the params it received under serverCtx,
// answers, and both end.
func (r *rig) exchange(clientCtx, serverCtx context.Context, ev Event, result json.RawMessage, rpcErr *RPCError) {
	cev := ev
	cev.Direction = Sent
	_, cop := r.tel.Start(clientCtx, &cev)
	sev := ev
	sev.Direction, sev.Params = Received, cev.Params
	_, sop := r.tel.Start(serverCtx, &sev)
	sev.Result, sev.Error = result, rpcErr
	sop.End(&sev)
	cev.Result, cev.Error = result, rpcErr
	cop.End(&cev)
}

var initParams = json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)
var weatherParams = json.RawMessage(`{"name":"get-weather","arguments":{"location":"San Francisco?","date":"2025-10-01"}}`)
var weatherResult = json.RawMessage(`{"content":[{"type":"text","text":"sunny"}],"structuredContent":{"temperature_range":{"high":75,"low":60},"conditions":"sunny"}}`)

// Examples / Stdio transport / Initialize.
func TestExampleStdioInitialize(t *testing.T) {
	r := newRig(t, Options{})
	r.exchange(context.Background(), context.Background(), Event{Method: "initialize", ID: json.RawMessage(`1`), Params: initParams,
		SessionID: sessionID, ProtocolVersion: "2025-06-18", Transport: Stdio}, json.RawMessage(`{"protocolVersion":"2025-06-18"}`), nil)
	want := map[string]string{
		"jsonrpc.request.id":   "1",
		"mcp.method.name":      "initialize",
		"mcp.session.id":       sessionID,
		"mcp.protocol.version": "2025-06-18",
		"network.transport":    "pipe",
	}
	c := r.span(t, trace.SpanKindClient, "initialize")
	s := r.span(t, trace.SpanKindServer, "initialize")
	wantAttrs(t, "client", c.Attributes(), want)
	wantAttrs(t, "server", s.Attributes(), want)
	if c.Status().Code != codes.Unset || s.Status().Code != codes.Unset {
		t.Errorf("status %v / %v, want Unset", c.Status(), s.Status())
	}
	if s.Parent().SpanID() != c.SpanContext().SpanID() || s.SpanContext().TraceID() != c.SpanContext().TraceID() {
		t.Errorf("server span's parent is %v, want the client span %v", s.Parent().SpanID(), c.SpanContext().SpanID())
	}
	if len(s.Links()) != 0 {
		t.Errorf("server span links %v; stdio has no ambient span", s.Links())
	}
}

// Examples / Stdio transport / Tool call, under an agent span.
func TestExampleStdioToolCall(t *testing.T) {
	for _, payloads := range []bool{false, true} {
		t.Run(fmt.Sprint("payloads=", payloads), func(t *testing.T) {
			r := newRig(t, Options{RecordToolPayloads: payloads})
			agentCtx, agent := r.tp.Tracer("agent").Start(context.Background(), "invoke_agent weather-forecast-agent")
			r.exchange(agentCtx, context.Background(), Event{Method: "tools/call", ID: json.RawMessage(`3`), Params: weatherParams,
				SessionID: sessionID, ProtocolVersion: "2025-06-18", Transport: Stdio}, weatherResult, nil)
			agent.End()
			want := map[string]string{
				"gen_ai.operation.name": "execute_tool",
				"gen_ai.tool.name":      "get-weather",
				"jsonrpc.request.id":    "3",
				"mcp.method.name":       "tools/call",
				"mcp.session.id":        sessionID,
				"mcp.protocol.version":  "2025-06-18",
				"network.transport":     "pipe",
			}
			c := r.span(t, trace.SpanKindClient, "tools/call get-weather")
			s := r.span(t, trace.SpanKindServer, "tools/call get-weather")
			if c.Parent().SpanID() != agent.SpanContext().SpanID() {
				t.Error("the client span is not the agent span's child")
			}
			if s.Parent().SpanID() != c.SpanContext().SpanID() {
				t.Error("the server span is not the client span's child")
			}
			for _, sp := range []sdktrace.ReadOnlySpan{c, s} {
				got := attrs(sp.Attributes())
				if payloads {
					if !strings.Contains(got["gen_ai.tool.call.arguments"], "San Francisco?") ||
						!strings.Contains(got["gen_ai.tool.call.result"], "temperature_range") {
						t.Errorf("%v payloads: %v", sp.SpanKind(), got)
					}
					for _, kv := range sp.Attributes() {
						if kv.Key == KeyToolArguments && kv.Value.Type() != attribute.MAP {
							t.Errorf("arguments recorded as %v, want a map (structured)", kv.Value.Type())
						}
					}
					delete(got, "gen_ai.tool.call.arguments")
					delete(got, "gen_ai.tool.call.result")
				}
				if !maps.Equal(got, want) {
					t.Errorf("%v attributes:\n got %v\nwant %v", sp.SpanKind(), got, want)
				}
				if sp.Status().Code != codes.Unset {
					t.Errorf("status %v", sp.Status())
				}
			}
		})
	}
}

// httpHop is the HTTP instrumentation of the examples: an HTTP client
// span under the MCP client span, its context carried in headers to an
// HTTP server span. It returns the server side's context (the ambient
// context of the MCP server span) and the HTTP server span.
func (r *rig) httpHop(clientCtx context.Context) (context.Context, trace.Span, trace.Span) {
	tr := r.tp.Tracer("net/http")
	cctx, hc := tr.Start(clientCtx, "POST", trace.WithSpanKind(trace.SpanKindClient))
	h := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(cctx, h)
	sctx, hs := tr.Start(propagation.TraceContext{}.Extract(context.Background(), h), "POST", trace.WithSpanKind(trace.SpanKindServer))
	return sctx, hc, hs
}

// Examples / Streamable HTTP / Initialize and Tool call.
func TestExampleStreamableHTTP(t *testing.T) {
	cases := []struct {
		name, span string
		ev         Event
		result     json.RawMessage
		want       map[string]string
	}{{
		name: "initialize", span: "initialize",
		ev:     Event{Method: "initialize", ID: json.RawMessage(`1`), Params: initParams},
		result: json.RawMessage(`{"protocolVersion":"2025-06-18"}`),
		// The example's client span also lists mcp.request.id "1": no
		// such attribute exists in the registry or the span's table
		// (jsonrpc.request.id is the one), so it is not recorded.
		want: map[string]string{"jsonrpc.request.id": "1", "mcp.method.name": "initialize"},
	}, {
		name: "tool call", span: "tools/call get-weather",
		ev:     Event{Method: "tools/call", ID: json.RawMessage(`3`), Params: weatherParams},
		result: weatherResult,
		want: map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get-weather",
			"jsonrpc.request.id": "3", "mcp.method.name": "tools/call"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Options{})
			maps.Copy(tc.want, map[string]string{"mcp.session.id": sessionID, "mcp.protocol.version": "2025-06-18",
				"network.protocol.name": "http", "network.protocol.version": "2", "network.transport": "tcp"})
			ev := tc.ev
			ev.Direction, ev.SessionID, ev.ProtocolVersion, ev.Transport, ev.HTTPVersion = Sent, sessionID, "2025-06-18", HTTP, "2"
			cctx, cop := r.tel.Start(context.Background(), &ev)
			serverCtx, hc, hs := r.httpHop(cctx)
			sev := ev
			sev.Direction = Received
			_, sop := r.tel.Start(serverCtx, &sev)
			sev.Result = tc.result
			sop.End(&sev)
			hs.End()
			hc.End()
			ev.Result = tc.result
			cop.End(&ev)

			c := r.span(t, trace.SpanKindClient, tc.span)
			s := r.span(t, trace.SpanKindServer, tc.span)
			wantAttrs(t, "client", c.Attributes(), tc.want)
			wantAttrs(t, "server", s.Attributes(), tc.want)
			if s.Parent().SpanID() != c.SpanContext().SpanID() {
				t.Errorf("the MCP server span's parent is %v, want the MCP client span", s.Parent().SpanID())
			}
			if l := s.Links(); len(l) != 1 || l[0].SpanContext.SpanID() != hs.SpanContext().SpanID() {
				t.Errorf("the MCP server span links %v, want the HTTP server span %v", l, hs.SpanContext().SpanID())
			}
			if c.Status().Code != codes.Unset || s.Status().Code != codes.Unset {
				t.Error("status not Unset")
			}
		})
	}
}

func TestErrors(t *testing.T) {
	r := newRig(t, Options{})
	base := Event{ProtocolVersion: "2026-07-28", Transport: HTTP, HTTPVersion: "1.1"}

	ev := base
	ev.Method, ev.ID, ev.Params = "tools/call", json.RawMessage(`"req-7"`), json.RawMessage(`{"name":"broken"}`)
	r.exchange(context.Background(), context.Background(), ev, json.RawMessage(`{"content":[],"isError":true}`), nil)
	s := r.span(t, trace.SpanKindServer, "tools/call broken")
	got := attrs(s.Attributes())
	if got["error.type"] != "tool_error" || got["jsonrpc.request.id"] != "req-7" || s.Status().Code != codes.Error {
		t.Errorf("isError result: %v %v", got, s.Status())
	}
	if _, ok := got["rpc.response.status_code"]; ok {
		t.Error("rpc.response.status_code on a result")
	}
	if _, ok := got["mcp.session.id"]; ok {
		t.Error("mcp.session.id outside a session")
	}

	ev = base
	ev.Method, ev.ID, ev.Params = "resources/read", json.RawMessage(`9`), json.RawMessage(`{"uri":"file:///nope"}`)
	r.exchange(context.Background(), context.Background(), ev, nil, &RPCError{Code: -32602, Message: "invalid params: no resource file:///nope"})
	for _, kind := range []trace.SpanKind{trace.SpanKindClient, trace.SpanKindServer} {
		s := r.span(t, kind, "resources/read") // the URI is not in the name by default
		wantAttrs(t, "resources/read error", s.Attributes(), map[string]string{
			"mcp.method.name": "resources/read", "jsonrpc.request.id": "9", "mcp.resource.uri": "file:///nope",
			"error.type": "-32602", "rpc.response.status_code": "-32602", "mcp.protocol.version": "2026-07-28",
			"network.transport": "tcp", "network.protocol.name": "http", "network.protocol.version": "1.1",
		})
		if st := s.Status(); st.Code != codes.Error || st.Description != "invalid params: no resource file:///nope" {
			t.Errorf("status %v", st)
		}
	}

	// A local timeout, and a notification (no id).
	ev = base
	ev.Direction, ev.Method, ev.ID, ev.Params = Sent, "ping", json.RawMessage(`5`), nil
	_, op := r.tel.Start(context.Background(), &ev)
	ev.Err = fmt.Errorf("mcp: ping: %w", context.DeadlineExceeded)
	op.End(&ev)
	if got := attrs(r.span(t, trace.SpanKindClient, "ping").Attributes()); got["error.type"] != "timeout" {
		t.Errorf("timeout: %v", got)
	}
	r.tel.Record(context.Background(), Event{Direction: Received, Method: "notifications/initialized", Transport: Stdio})
	if got := attrs(r.span(t, trace.SpanKindServer, "notifications/initialized").Attributes()); got["jsonrpc.request.id"] != "" || len(got) != 2 {
		t.Errorf("notification: %v", got)
	}
	if ErrorType(errors.New("x")) != "_OTHER" || ErrorType(context.Canceled) != "cancelled" {
		t.Error("ErrorType")
	}
}

func TestPromptSpanAndURIOptIn(t *testing.T) {
	r := newRig(t, Options{ResourceURIInSpanName: true, ResourceURIOnMetrics: true})
	r.exchange(context.Background(), context.Background(), Event{Method: "prompts/get", ID: json.RawMessage(`2`),
		Params: json.RawMessage(`{"name":"analyze-code"}`), Transport: Stdio}, json.RawMessage(`{"messages":[]}`), nil)
	got := attrs(r.span(t, trace.SpanKindServer, "prompts/get analyze-code").Attributes())
	if got["gen_ai.prompt.name"] != "analyze-code" || got["gen_ai.operation.name"] != "" {
		t.Errorf("prompt: %v", got)
	}
	r.exchange(context.Background(), context.Background(), Event{Method: "resources/subscribe", ID: json.RawMessage(`4`),
		Params: json.RawMessage(`{"uri":"file:///a"}`), Transport: Stdio}, json.RawMessage(`{}`), nil)
	r.span(t, trace.SpanKindClient, "resources/subscribe file:///a")
	var rm metricdata.ResourceMetrics
	r.reader.Collect(context.Background(), &rm)
	found := false
	for _, p := range histogram(t, rm, MetricServerOperationDuration).DataPoints {
		if v, ok := p.Attributes.Value(KeyResourceURI); ok && v.AsString() == "file:///a" {
			found = true
		}
	}
	if !found {
		t.Error("mcp.resource.uri missing from the metric with the opt-in")
	}
}

func histogram(t *testing.T, rm metricdata.ResourceMetrics, name string) metricdata.Histogram[float64] {
	t.Helper()
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				if m.Unit != MetricUnit {
					t.Errorf("%s unit %q", name, m.Unit)
				}
				h, ok := m.Data.(metricdata.Histogram[float64])
				if !ok {
					t.Fatalf("%s is a %T", name, m.Data)
				}
				return h
			}
		}
	}
	t.Fatalf("no metric %s", name)
	return metricdata.Histogram[float64]{}
}

func keysOf(s attribute.Set) []string {
	var k []string
	for _, kv := range s.ToSlice() {
		k = append(k, string(kv.Key))
	}
	sort.Strings(k)
	return k
}

func TestMetrics(t *testing.T) {
	r := newRig(t, Options{})
	ev := Event{Method: "tools/call", ID: json.RawMessage(`3`), Params: weatherParams, SessionID: sessionID,
		ProtocolVersion: "2025-06-18", Transport: HTTP, HTTPVersion: "1.1", PeerAddress: "mcp.example.com", PeerPort: 443}
	r.exchange(context.Background(), context.Background(), ev, json.RawMessage(`{"content":[],"isError":true}`), nil)
	start := time.Now().Add(-3 * time.Second)
	r.tel.StartSession(Sent, Event{Transport: HTTP, HTTPVersion: "1.1", ProtocolVersion: "2025-06-18", PeerAddress: "mcp.example.com", PeerPort: 443, Start: start}).End(start.Add(3*time.Second), nil)
	ss := r.tel.StartSession(Received, Event{Transport: Stdio, Start: start})
	ss.SetProtocolVersion("2025-11-25")
	ss.End(start.Add(1500*time.Millisecond), errors.New("broken pipe"))

	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		// No jsonrpc.request.id, mcp.session.id, client.* on metrics;
		// server.* only on the client's.
		MetricClientOperationDuration: {"error.type", "gen_ai.operation.name", "gen_ai.tool.name", "mcp.method.name", "mcp.protocol.version",
			"network.protocol.name", "network.protocol.version", "network.transport", "server.address", "server.port"},
		MetricServerOperationDuration: {"error.type", "gen_ai.operation.name", "gen_ai.tool.name", "mcp.method.name", "mcp.protocol.version",
			"network.protocol.name", "network.protocol.version", "network.transport"},
		MetricClientSessionDuration: {"mcp.protocol.version", "network.protocol.name", "network.protocol.version", "network.transport", "server.address", "server.port"},
		MetricServerSessionDuration: {"error.type", "mcp.protocol.version", "network.transport"},
	}
	for name, keys := range want {
		h := histogram(t, rm, name)
		if len(h.DataPoints) != 1 {
			t.Fatalf("%s: %d points", name, len(h.DataPoints))
		}
		p := h.DataPoints[0]
		if !slices.Equal(p.Bounds, DurationBuckets) {
			t.Errorf("%s bounds %v", name, p.Bounds)
		}
		if got := keysOf(p.Attributes); !slices.Equal(got, keys) {
			t.Errorf("%s attributes %v, want %v", name, got, keys)
		}
		if name == MetricServerSessionDuration {
			if v, _ := p.Attributes.Value(KeyErrorType); v.AsString() != "_OTHER" || p.Sum != 1.5 {
				t.Errorf("session: %v sum %v", v, p.Sum)
			}
		}
		if name == MetricClientSessionDuration && p.Sum != 3 {
			t.Errorf("client session sum %v", p.Sum)
		}
	}
	if !slices.Equal(DurationBuckets, []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}) {
		t.Error("buckets")
	}
}

func TestMetaPropagation(t *testing.T) {
	prop := propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ts, _ := trace.ParseTraceState("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE")
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, TraceState: ts})
	bag, _ := baggage.Parse("userId=alice,serverNode=DF%2028,isProduction=false")
	ctx := baggage.ContextWithBaggage(trace.ContextWithSpanContext(context.Background(), sc), bag)

	meta := map[string]any{"progressToken": 7.0}
	Inject(ctx, prop, meta)
	if meta[MetaTraceparent] != "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" ||
		meta[MetaTracestate] != "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE" || meta["progressToken"] != 7.0 {
		t.Fatalf("injected %v", meta)
	}
	if b, _ := meta[MetaBaggage].(string); !strings.Contains(b, "userId=alice") || !strings.Contains(b, "serverNode=DF%2028") {
		t.Fatalf("baggage %q", b)
	}
	// Through JSON, as it travels.
	params, err := InjectParams(ctx, prop, json.RawMessage(`{"name":"get-weather","_meta":{"progressToken":"p1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Name string         `json:"name"`
		Meta map[string]any `json:"_meta"`
	}
	json.Unmarshal(params, &back)
	if back.Name != "get-weather" || back.Meta["progressToken"] != "p1" || back.Meta[MetaTraceparent] == nil {
		t.Fatalf("params after inject: %s", params)
	}
	got := ExtractParams(context.Background(), prop, params)
	gsc := trace.SpanContextFromContext(got)
	if gsc.TraceID() != tid || gsc.SpanID() != sid || !gsc.IsRemote() || gsc.TraceState().String() != ts.String() {
		t.Fatalf("extracted %v", gsc)
	}
	if baggage.FromContext(got).Member("serverNode").Value() != "DF 28" {
		t.Fatalf("baggage %v", baggage.FromContext(got))
	}
	// No params, no _meta: a new object with _meta; nothing to inject: as is.
	if p, _ := InjectParams(ctx, prop, nil); !strings.Contains(string(p), `"_meta":{"baggage"`) {
		t.Fatalf("empty params: %s", p)
	}
	if p, _ := InjectParams(context.Background(), prop, json.RawMessage(`{"a":1}`)); string(p) != `{"a":1}` {
		t.Fatalf("nothing to inject: %s", p)
	}
	// A malformed traceparent is ignored.
	bad := ExtractParams(context.Background(), prop, json.RawMessage(`{"_meta":{"traceparent":"00-zz-yy-01"}}`))
	if trace.SpanContextFromContext(bad).IsValid() {
		t.Fatal("a malformed traceparent was accepted")
	}
}

// The server's spans carry the client's trace id when, and only when, the
// client sent one; without one the server span's parent is the ambient
// span, with no link.
func TestServerTraceIDOnlyFromClient(t *testing.T) {
	r := newRig(t, Options{})
	cev := Event{Direction: Sent, Method: "tools/list", ID: json.RawMessage(`1`), Transport: Stdio}
	_, cop := r.tel.Start(context.Background(), &cev)
	cop.End(&cev)
	client := r.span(t, trace.SpanKindClient, "tools/list")

	r.tel.Record(context.Background(), Event{Direction: Received, Method: "tools/list", ID: json.RawMessage(`1`), Params: cev.Params, Transport: Stdio})
	r.tel.Record(context.Background(), Event{Direction: Received, Method: "prompts/list", ID: json.RawMessage(`2`), Params: json.RawMessage(`{}`), Transport: Stdio})
	ambientCtx, ambient := r.tp.Tracer("net/http").Start(context.Background(), "POST", trace.WithSpanKind(trace.SpanKindServer))
	r.tel.Record(ambientCtx, Event{Direction: Received, Method: "resources/list", ID: json.RawMessage(`3`), Transport: HTTP})
	ambient.End()

	with := r.span(t, trace.SpanKindServer, "tools/list")
	without := r.span(t, trace.SpanKindServer, "prompts/list")
	underHTTP := r.span(t, trace.SpanKindServer, "resources/list")
	if with.SpanContext().TraceID() != client.SpanContext().TraceID() {
		t.Error("the server span lacks the client's trace id")
	}
	if without.SpanContext().TraceID() == client.SpanContext().TraceID() || without.Parent().IsValid() {
		t.Error("a server span without _meta context has the client's trace or a parent")
	}
	if underHTTP.Parent().SpanID() != ambient.SpanContext().SpanID() || len(underHTTP.Links()) != 0 {
		t.Error("without _meta the ambient span is the parent, not a link")
	}
}
