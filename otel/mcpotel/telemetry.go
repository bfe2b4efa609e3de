package mcpotel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/protocol"
	"github.com/mcpgen/mcpgen/runtime/spec"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer and meter.
const ScopeName = "github.com/mcpgen/mcpgen/otel/mcpotel"

// Direction says which side of an operation an Event describes.
type Direction int

const (
	// Sent: this peer sent the request or notification (a client's
	// request, or a server's own request such as sampling/createMessage).
	// Span kind CLIENT; mcp.client.operation.duration.
	Sent Direction = iota + 1
	// Received: this peer received it and handles it. Span kind SERVER;
	// mcp.server.operation.duration.
	Received
)

// Transport is the MCP transport.
type Transport string

const (
	Stdio Transport = "stdio"
	HTTP  Transport = "http"
)

// RPCError is a JSON-RPC error response's error.
type RPCError struct {
	Code    int64
	Message string
}

// Event is one MCP operation as the runtime's middleware sees it.
type Event struct {
	Direction Direction
	Method    string
	// ID is the request's JSON id (nil for a notification; "null" is
	// not recorded).
	ID     json.RawMessage
	Params json.RawMessage
	// Outcome: the result, a JSON-RPC error response, or a local failure
	// (timeout, cancellation, a broken connection) with no response.
	Result json.RawMessage
	Error  *RPCError
	Err    error

	SessionID       string // Mcp-Session-Id; "" outside a session
	ProtocolVersion string
	Transport       Transport
	// HTTPVersion is network.protocol.version over HTTP ("1.1", "2").
	HTTPVersion string
	// The peer: server.address/port when Sent, client.address/port when
	// Received; empty when unknown.
	PeerAddress string
	PeerPort    int

	// Start and End; zero means now (at Start and End).
	Start, End time.Time
}

// Options configure Telemetry. The zero value uses the global providers
// and W3C Trace Context plus Baggage.
type Options struct {
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	// Propagator reads and writes params._meta; nil means TraceContext
	// and Baggage (not the global propagator, which is a no-op unless
	// the application sets one).
	Propagator propagation.TextMapPropagator
	// RecordToolPayloads records gen_ai.tool.call.arguments and
	// gen_ai.tool.call.result on tools/call spans (Opt-In: they may hold
	// sensitive data).
	RecordToolPayloads bool
	// ResourceURIInSpanName makes mcp.resource.uri the span name's target
	// (Opt-In: high cardinality).
	ResourceURIInSpanName bool
	// ResourceURIOnMetrics adds mcp.resource.uri to the operation
	// duration metrics (Opt-In).
	ResourceURIOnMetrics bool
}

// Telemetry records MCP spans and metrics.
type Telemetry struct {
	opts   Options
	tracer trace.Tracer
	meter  metric.Meter
	prop   propagation.TextMapPropagator
	clientOp, serverOp,
	clientSess, serverSess metric.Float64Histogram
	// sessions are the server's sessions being timed.
	sessions sync.Map
}

// New returns a Telemetry.
func New(opts Options) (*Telemetry, error) {
	tp, mp := opts.TracerProvider, opts.MeterProvider
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	t := &Telemetry{opts: opts, tracer: tp.Tracer(ScopeName), prop: opts.Propagator}
	if t.prop == nil {
		t.prop = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	}
	m := mp.Meter(ScopeName)
	t.meter = m
	var err error
	hist := func(name, desc string) metric.Float64Histogram {
		if err != nil {
			return nil
		}
		var h metric.Float64Histogram
		h, err = m.Float64Histogram(name, metric.WithUnit(MetricUnit), metric.WithDescription(desc),
			metric.WithExplicitBucketBoundaries(DurationBuckets...))
		return h
	}
	t.clientOp = hist(MetricClientOperationDuration, "Time from sending an MCP request or notification to its response or acknowledgement.")
	t.serverOp = hist(MetricServerOperationDuration, "Time from receiving an MCP request or notification to sending its result or acknowledgement.")
	t.clientSess = hist(MetricClientSessionDuration, "Duration of an MCP session seen by the client.")
	t.serverSess = hist(MetricServerSessionDuration, "Duration of an MCP session seen by the server.")
	if err != nil {
		return nil, err
	}
	return t, nil
}

// target is what the convention's span name puts after the method: the
// tool or prompt name.
type target struct {
	tool, prompt, uri string
}

func targetOf(method string, params json.RawMessage) target {
	var t target
	switch method {
	case spec.MethodCallTool:
		t.tool = jsonString(codec.Lookup(params, "name"))
	case spec.MethodGetPrompt:
		t.prompt = jsonString(codec.Lookup(params, "name"))
	}
	if resourceMethods[method] {
		t.uri = jsonString(codec.Lookup(params, "uri"))
	}
	return t
}

// jsonString is the JSON string raw as a string of its own (attributes
// outlive the message), or "" when raw is not a string.
func jsonString(raw []byte) string {
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	s, ok := protocol.HeaderText(raw)
	if !ok {
		return ""
	}
	return strings.Clone(s)
}

// requestID is jsonrpc.request.id: a string id as it is, a number as
// written; "" for none or null.
func requestID(id json.RawMessage) string {
	id = bytes.TrimSpace(id)
	if len(id) == 0 || string(id) == "null" {
		return ""
	}
	if id[0] == '"' {
		return jsonString(id)
	}
	return string(id)
}

// Operation is a span in progress.
type Operation struct {
	t      *Telemetry
	span   trace.Span
	ev     Event
	tg     target
	start  time.Time
	common []attribute.KeyValue // attributes shared by span and metric
	// hasID and hasPeer: jsonrpc.request.id and server.address were
	// known at Start (a request sent learns its id and its server as it
	// is sent: End records them then).
	hasID, hasPeer bool
}

// transportAttrs are network.* (and mcp.protocol.version).
func transportAttrs(ev *Event) []attribute.KeyValue {
	var a []attribute.KeyValue
	if ev.ProtocolVersion != "" {
		a = append(a, KeyProtocolVersion.String(ev.ProtocolVersion))
	}
	switch ev.Transport {
	case Stdio:
		a = append(a, KeyNetworkTransport.String(TransportPipe))
	case HTTP:
		a = append(a, KeyNetworkTransport.String(TransportTCP), KeyNetworkProtoName.String(ProtocolHTTP))
		if ev.HTTPVersion != "" {
			a = append(a, KeyNetworkProtoVer.String(ev.HTTPVersion))
		}
	}
	return a
}

// Start begins ev's span. When Sent, the span's context is injected into
// ev.Params' _meta (ev.Params is replaced: send the new params). When
// Received, the parent is the context extracted from ev.Params' _meta if
// there is one, and the span links the ambient span of ctx (the HTTP
// server span, say); otherwise the parent is ctx's span. The returned
// context carries the span (and the received baggage): the handler's spans
// are its children.
func (t *Telemetry) Start(ctx context.Context, ev *Event) (context.Context, *Operation) {
	start := ev.Start
	if start.IsZero() {
		start = time.Now()
	}
	tg := targetOf(ev.Method, ev.Params)
	name := ev.Method
	switch {
	case tg.tool != "":
		name += " " + tg.tool
	case tg.prompt != "":
		name += " " + tg.prompt
	case t.opts.ResourceURIInSpanName && tg.uri != "":
		name += " " + tg.uri
	}
	common := []attribute.KeyValue{KeyMethodName.String(ev.Method)}
	if tg.tool != "" {
		common = append(common, KeyToolName.String(tg.tool))
	}
	if tg.prompt != "" {
		common = append(common, KeyPromptName.String(tg.prompt))
	}
	if ev.Method == spec.MethodCallTool {
		common = append(common, KeyOperationName.String(OperationExecuteTool))
	}
	attrs := append([]attribute.KeyValue(nil), common...)
	id := requestID(ev.ID)
	if id != "" {
		attrs = append(attrs, KeyRequestID.String(id))
	}
	if tg.uri != "" {
		attrs = append(attrs, KeyResourceURI.String(tg.uri))
	}
	if t.opts.RecordToolPayloads && ev.Method == spec.MethodCallTool {
		if a := codec.Lookup(ev.Params, "arguments"); a != nil {
			attrs = append(attrs, attribute.KeyValue{Key: KeyToolArguments, Value: jsonValue(a)})
		}
	}
	opts := []trace.SpanStartOption{trace.WithTimestamp(start)}
	if ev.Direction == Received {
		opts = append(opts, trace.WithSpanKind(trace.SpanKindServer))
		if ev.PeerAddress != "" {
			attrs = append(attrs, KeyClientAddress.String(ev.PeerAddress))
			if ev.PeerPort > 0 {
				attrs = append(attrs, KeyClientPort.Int(ev.PeerPort))
			}
		}
		ambient := trace.SpanContextFromContext(ctx)
		if parent := ExtractParams(ctx, t.prop, ev.Params); trace.SpanContextFromContext(parent).IsRemote() && !trace.SpanContextFromContext(parent).Equal(ambient) {
			if ambient.IsValid() {
				opts = append(opts, trace.WithLinks(trace.Link{SpanContext: ambient}))
			}
			ctx = parent
		}
	} else {
		opts = append(opts, trace.WithSpanKind(trace.SpanKindClient))
		if ev.PeerAddress != "" {
			a := []attribute.KeyValue{KeyServerAddress.String(ev.PeerAddress)}
			if ev.PeerPort > 0 {
				a = append(a, KeyServerPort.Int(ev.PeerPort))
			}
			attrs = append(attrs, a...)
			common = append(common, a...)
		}
	}
	opts = append(opts, trace.WithAttributes(attrs...))
	ctx, span := t.tracer.Start(ctx, name, opts...)
	if ev.Direction == Sent {
		if p, err := InjectParams(ctx, t.prop, ev.Params); err == nil {
			ev.Params = p
		}
	}
	return ctx, &Operation{t: t, span: span, ev: *ev, tg: tg, start: start, common: common,
		hasID: id != "", hasPeer: ev.Direction == Sent && ev.PeerAddress != ""}
}

// End ends the span with ev's outcome and records the operation's
// duration. ev is the Event given to Start with the outcome filled in; the
// session id and protocol version may have become known meanwhile (an
// initialize response), and are recorded then.
func (op *Operation) End(ev *Event) {
	end := ev.End
	if end.IsZero() {
		end = time.Now()
	}
	span := op.span
	var spanAttrs []attribute.KeyValue
	if !op.hasID {
		if id := requestID(ev.ID); id != "" {
			spanAttrs = append(spanAttrs, KeyRequestID.String(id))
		}
	}
	if op.ev.Direction == Sent && !op.hasPeer && ev.PeerAddress != "" {
		a := []attribute.KeyValue{KeyServerAddress.String(ev.PeerAddress)}
		if ev.PeerPort > 0 {
			a = append(a, KeyServerPort.Int(ev.PeerPort))
		}
		spanAttrs = append(spanAttrs, a...)
		op.common = append(op.common, a...)
	}
	metricAttrs := append([]attribute.KeyValue(nil), op.common...)
	if ev.SessionID != "" {
		spanAttrs = append(spanAttrs, KeySessionID.String(ev.SessionID))
	}
	ta := transportAttrs(ev)
	spanAttrs = append(spanAttrs, ta...)
	metricAttrs = append(metricAttrs, ta...)
	if op.t.opts.ResourceURIOnMetrics && op.tg.uri != "" {
		metricAttrs = append(metricAttrs, KeyResourceURI.String(op.tg.uri))
	}
	errType, code, desc := outcome(ev)
	if code != "" {
		spanAttrs = append(spanAttrs, KeyRPCStatusCode.String(code))
		metricAttrs = append(metricAttrs, KeyRPCStatusCode.String(code))
	}
	if errType != "" {
		spanAttrs = append(spanAttrs, KeyErrorType.String(errType))
		metricAttrs = append(metricAttrs, KeyErrorType.String(errType))
		span.SetStatus(codes.Error, desc)
	}
	if op.t.opts.RecordToolPayloads && ev.Method == spec.MethodCallTool && errType == "" && len(ev.Result) > 0 {
		spanAttrs = append(spanAttrs, attribute.KeyValue{Key: KeyToolResult, Value: jsonValue(ev.Result)})
	}
	span.SetAttributes(spanAttrs...)
	span.End(trace.WithTimestamp(end))
	h := op.t.serverOp
	if op.ev.Direction == Sent {
		h = op.t.clientOp
	}
	h.Record(context.Background(), end.Sub(op.start).Seconds(), metric.WithAttributes(metricAttrs...))
}

// Record is Start and End for an operation that is over (ev has Start,
// End and the outcome).
func (t *Telemetry) Record(ctx context.Context, ev Event) {
	_, op := t.Start(ctx, &ev)
	op.End(&ev)
}

// outcome is error.type, rpc.response.status_code and the status
// description of an ended operation.
func outcome(ev *Event) (errType, code, desc string) {
	switch {
	case ev.Error != nil:
		c := strconv.FormatInt(ev.Error.Code, 10)
		return c, c, ev.Error.Message
	case ev.Err != nil:
		return ErrorType(ev.Err), "", ev.Err.Error()
	case ev.Method == spec.MethodCallTool && toolError(ev.Result):
		return ErrorTypeToolError, "", ""
	}
	return "", "", ""
}

func toolError(result json.RawMessage) bool {
	return string(codec.Lookup(result, "isError")) == "true"
}

// ErrorType is the error.type of a local failure: an error that has an
// ErrorType() string method names itself; a deadline is "timeout", a
// cancellation "cancelled"; anything else "_OTHER". The list is short on
// purpose (low cardinality).
func ErrorType(err error) string {
	var named interface{ ErrorType() string }
	switch {
	case errors.As(err, &named):
		return named.ErrorType()
	case errors.Is(err, context.DeadlineExceeded):
		return ErrorTypeTimeout
	case errors.Is(err, context.Canceled):
		return ErrorTypeCancelled
	}
	return ErrorTypeOther
}

// Session times one MCP session (an HTTP session, or a stdio connection).
type Session struct {
	t     *Telemetry
	dir   Direction
	start time.Time
	ev    Event
}

// StartSession begins timing a session; ev gives the transport, the
// protocol version (if known yet) and, when Sent (the client's side), the
// server's address.
func (t *Telemetry) StartSession(dir Direction, ev Event) *Session {
	start := ev.Start
	if start.IsZero() {
		start = time.Now()
	}
	return &Session{t: t, dir: dir, start: start, ev: ev}
}

// SetProtocolVersion records the version negotiated after the session
// began.
func (s *Session) SetProtocolVersion(v string) { s.ev.ProtocolVersion = v }

// End records the session's duration; err is why it ended, nil for a
// normal end (error.type only when it ended with an error).
func (s *Session) End(at time.Time, err error) {
	if at.IsZero() {
		at = time.Now()
	}
	attrs := transportAttrs(&s.ev)
	h := s.t.serverSess
	if s.dir == Sent {
		h = s.t.clientSess
		if s.ev.PeerAddress != "" {
			attrs = append(attrs, KeyServerAddress.String(s.ev.PeerAddress))
			if s.ev.PeerPort > 0 {
				attrs = append(attrs, KeyServerPort.Int(s.ev.PeerPort))
			}
		}
	}
	if err != nil {
		attrs = append(attrs, KeyErrorType.String(ErrorType(err)))
	}
	h.Record(context.Background(), at.Sub(s.start).Seconds(), metric.WithAttributes(attrs...))
}

// jsonValue turns JSON into a structured attribute value (the convention
// asks for structured form where the SDK has it; Go's has maps and
// slices).
func jsonValue(raw json.RawMessage) attribute.Value {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return attribute.StringValue(string(raw))
	}
	return anyValue(v)
}

func anyValue(v any) attribute.Value {
	switch x := v.(type) {
	case nil:
		return attribute.Value{}
	case bool:
		return attribute.BoolValue(x)
	case string:
		return attribute.StringValue(x)
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return attribute.Int64Value(i)
		}
		f, _ := x.Float64()
		return attribute.Float64Value(f)
	case []any:
		vs := make([]attribute.Value, len(x))
		for i, e := range x {
			vs[i] = anyValue(e)
		}
		return attribute.SliceValue(vs...)
	case map[string]any:
		kvs := make([]attribute.KeyValue, 0, len(x))
		for k, e := range x {
			kvs = append(kvs, attribute.KeyValue{Key: attribute.Key(k), Value: anyValue(e)})
		}
		return attribute.MapValue(kvs...)
	}
	return attribute.StringValue("")
}
