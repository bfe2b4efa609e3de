// Package otlpenv sets up OpenTelemetry's SDK to export traces and metrics
// over OTLP/HTTP as the standard OTEL_* environment variables say, for
// programs that want what a collector expects without writing the SDK
// setup themselves (otel/cmd/everything-server, docs/telemetry.md).
//
// Setup exports a signal when its endpoint is set:
// OTEL_EXPORTER_OTLP_ENDPOINT (both signals, at /v1/traces and
// /v1/metrics under it), OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
// OTEL_EXPORTER_OTLP_METRICS_ENDPOINT (one signal, the URL as it is).
// OTEL_SDK_DISABLED=true turns both off. The exporters read the other
// OTEL_EXPORTER_OTLP_* variables themselves (headers, timeout,
// compression, certificates); the span processor the OTEL_BSP_* ones and
// the metric reader OTEL_METRIC_EXPORT_INTERVAL and
// OTEL_METRIC_EXPORT_TIMEOUT; the resource OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES.
package otlpenv

import (
	"context"
	"errors"
	"os"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

// Setup installs, as the global providers (otel.SetTracerProvider,
// otel.SetMeterProvider), a TracerProvider that batches spans to an
// OTLP/HTTP exporter and a MeterProvider that sends metrics to one
// periodically, each when the environment names its endpoint; and W3C
// Trace Context and Baggage as the global propagator. service is the
// service.name unless OTEL_SERVICE_NAME says another.
//
// The function it returns flushes what was recorded and stops the
// providers: call it before the program exits. When no endpoint is set,
// Setup installs nothing and that function does nothing.
func Setup(ctx context.Context, service string) (shutdown func(context.Context) error, err error) {
	var stops []func(context.Context) error
	shutdown = func(ctx context.Context) error {
		var errs []error
		for _, stop := range stops {
			errs = append(errs, stop(ctx))
		}
		return errors.Join(errs...)
	}
	traces, metrics := Enabled()
	if !traces && !metrics {
		return shutdown, nil
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(service)))
	if err != nil {
		return nil, err
	}
	// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over service.
	if env, err := resource.New(ctx, resource.WithFromEnv()); err == nil {
		if merged, err := resource.Merge(res, env); err == nil {
			res = merged
		}
	}
	if traces {
		exp, err := otlptracehttp.New(ctx)
		if err != nil {
			return nil, err
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
		otel.SetTracerProvider(tp)
		stops = append(stops, tp.Shutdown)
	}
	if metrics {
		exp, err := otlpmetrichttp.New(ctx)
		if err != nil {
			shutdown(ctx)
			return nil, err
		}
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)), sdkmetric.WithResource(res))
		otel.SetMeterProvider(mp)
		stops = append(stops, mp.Shutdown)
	}
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return shutdown, nil
}

// Enabled reports which signals Setup exports: those the environment
// gives an endpoint (OTEL_EXPORTER_OTLP_ENDPOINT both,
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and OTEL_EXPORTER_OTLP_METRICS_ENDPOINT
// one each), none when OTEL_SDK_DISABLED is true.
func Enabled() (traces, metrics bool) {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return false, false
	}
	all := os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
	return all || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "",
		all || os.Getenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT") != ""
}
