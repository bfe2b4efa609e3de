package otlpenv

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel"
)

// TestEnabled: which signals each variable turns on, and that
// OTEL_SDK_DISABLED=true turns them off.
func TestEnabled(t *testing.T) {
	for _, tc := range []struct {
		all, traces, metrics, disabled string
		wantT, wantM                   bool
	}{
		{"", "", "", "", false, false},
		{"http://127.0.0.1:4318", "", "", "", true, true},
		{"", "http://127.0.0.1:4318/v1/traces", "", "", true, false},
		{"", "", "http://127.0.0.1:4318/v1/metrics", "", false, true},
		{"http://127.0.0.1:4318", "", "", "true", false, false},
		{"http://127.0.0.1:4318", "", "", " TRUE ", false, false},
		{"http://127.0.0.1:4318", "", "", "false", true, true},
	} {
		t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", tc.all)
		t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", tc.traces)
		t.Setenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", tc.metrics)
		t.Setenv("OTEL_SDK_DISABLED", tc.disabled)
		if tr, m := Enabled(); tr != tc.wantT || m != tc.wantM {
			t.Errorf("%+v: Enabled() = %v, %v", tc, tr, m)
		}
	}
}

// TestSetupNothing: without an endpoint Setup installs no provider, and
// its shutdown does nothing.
func TestSetupNothing(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "")
	tp, mp := otel.GetTracerProvider(), otel.GetMeterProvider()
	shutdown, err := Setup(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	if otel.GetTracerProvider() != tp || otel.GetMeterProvider() != mp {
		t.Error("Setup installed a provider without an endpoint")
	}
	if err := shutdown(context.Background()); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}
