package main

// otel/cmd/everything-server is examples/everything-server (its files are
// symbolic links: one server, built here in the otel module so that the
// main module imports nothing of OpenTelemetry; TestLinks checks the set)
// with this file added: when OTEL_EXPORTER_OTLP_ENDPOINT (or a signal's
// own endpoint) is set, the server records mcpotel's spans and metrics and
// exports them over OTLP/HTTP (otlpenv.Setup), and flushes them when it
// exits. Without it, the server is the example as it is.
//
//	OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 go run ./cmd/everything-server -http 127.0.0.1:3001

import (
	"context"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/otel/mcpotel"
	"github.com/mcpgen/mcpgen/otel/otlpenv"
)

func init() { instrument = withOTLP }

// withOTLP puts mcpotel's middleware first in the server's middleware
// (so that it times the others too), on the providers otlpenv.Setup
// installs, when the environment names an OTLP endpoint.
func withOTLP(o mcp.ServerOptions) (mcp.ServerOptions, func(context.Context) error, error) {
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
