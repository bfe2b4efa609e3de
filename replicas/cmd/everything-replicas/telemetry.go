package main

import (
	"context"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/otel/mcpotel"
	"github.com/mcpgen/mcpgen/otel/otlpenv"
)

// withTelemetry puts mcpotel's middleware first in a replica's middleware
// when the environment names an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT,
// read by otlpenv.Setup, as otel/cmd/everything-server does), and returns
// the function that flushes what was recorded, which the replica calls
// before it exits. Without an endpoint it changes nothing.
func withTelemetry(o mcp.ServerOptions) (mcp.ServerOptions, func(context.Context) error, error) {
	if traces, metrics := otlpenv.Enabled(); !traces && !metrics {
		return o, func(context.Context) error { return nil }, nil
	}
	shutdown, err := otlpenv.Setup(context.Background(), "everything-server")
	if err != nil {
		return o, nil, err
	}
	tel, err := mcpotel.New(mcpotel.Options{})
	if err != nil {
		shutdown(context.Background())
		return o, nil, err
	}
	o.Middleware = append([]mcp.Middleware{tel.Middleware()}, o.Middleware...)
	return o, shutdown, nil
}
