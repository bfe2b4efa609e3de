package mcpotel_test

import (
	"bytes"
	"context"
	"testing"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/otel/mcpotel"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// benchCall is a 2026-07-28 tools/call, as a client sends it (with the
// client's trace context in _meta, which the SDK case continues).
const benchCall = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get-weather","arguments":{"location":"San Francisco?","date":"2025-10-01"},` +
	`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},"io.modelcontextprotocol/clientCapabilities":{},` +
	`"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}`

// telemetryCases are the servers BenchmarkTelemetry times: without
// telemetry (Off: no middleware, the dispatcher as BenchmarkDispatch has
// it), with mcpotel on no-op providers (Noop: the price of the middleware
// and of reading the message when nothing records), and with the SDK
// recording every span (to an in-memory recorder) and the histograms
// (SDK).
func telemetryCases(tb testing.TB) []struct {
	name string
	d    *mcp.ServerDispatcher
} {
	noop, err := mcpotel.New(mcpotel.Options{TracerProvider: tracenoop.NewTracerProvider(), MeterProvider: metricnoop.NewMeterProvider()})
	if err != nil {
		tb.Fatal(err)
	}
	rec := tracetest.NewSpanRecorder()
	sdk, err := mcpotel.New(mcpotel.Options{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)),
		MeterProvider:  sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader())),
	})
	if err != nil {
		tb.Fatal(err)
	}
	return []struct {
		name string
		d    *mcp.ServerDispatcher
	}{
		{"Off", newWeatherServer()},
		{"Noop", newWeatherServer(noop.Middleware())},
		{"SDK", newWeatherServer(sdk.Middleware())},
	}
}

// BenchmarkTelemetry: tools/call through ServerDispatcher.Handle with
// telemetry off, with a no-op provider, and with the SDK recording
// (bench/RESULTS.md, "Telemetry").
func BenchmarkTelemetry(b *testing.B) {
	msg := []byte(benchCall)
	for _, c := range telemetryCases(b) {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			if resp := c.d.Handle(ctx, msg); !bytes.Contains(resp, []byte(`sunny in San Francisco?`)) {
				b.Fatalf("the answer: %s", resp)
			}
			b.ReportAllocs()
			for b.Loop() {
				c.d.Handle(ctx, msg)
			}
		})
	}
}

// TestTelemetryOffAllocs: a server without telemetry allocates for a
// tools/call what the same server with an empty middleware list does,
// and the telemetry cases answer the same bytes.
func TestTelemetryOffAllocs(t *testing.T) {
	msg := []byte(benchCall)
	ctx := context.Background()
	cases := telemetryCases(t)
	want := cases[0].d.Handle(ctx, msg)
	for _, c := range cases[1:] {
		if got := c.d.Handle(ctx, msg); !bytes.Equal(got, want) {
			t.Errorf("%s answers %s, Off %s", c.name, got, want)
		}
	}
	off := testing.AllocsPerRun(100, func() { cases[0].d.Handle(ctx, msg) })
	empty := newWeatherServer([]mcp.Middleware{}...)
	if e := testing.AllocsPerRun(100, func() { empty.Handle(ctx, msg) }); e != off {
		t.Errorf("allocations per tools/call: %v with an empty middleware list, %v without", e, off)
	}
	noop := testing.AllocsPerRun(100, func() { cases[1].d.Handle(ctx, msg) })
	t.Logf("allocations per tools/call: off %v, no-op provider %v", off, noop)
}
