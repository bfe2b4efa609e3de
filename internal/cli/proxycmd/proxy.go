// Package proxycmd is the mcpgen proxy subcommand (internal/proxy), registered with
// internal/cli by its init: only a build that imports it links the generated package.
package proxycmd

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/cli"
	"github.com/mcpgen/mcpgen/internal/proxy"
	"github.com/mcpgen/mcpgen/runtime/protocol"
	"github.com/spf13/pflag"
)

func init() { cli.Register("proxy", runProxy) }

// A Plugin adds to mcpgen proxy what needs a module of its own (the main
// module depends on the standard library and pflag only): a main in that
// module registers it with AddPlugin and runs the proxy command
// (replicas/cmd/mcpgen-proxy adds --redis, a cache shared through
// Redis). A Plugin adds its flags to a run's flag set and returns the
// function that, once they are parsed, changes the proxy's Options (a
// Cache, Middleware, OnCache, the upstream transport's Client); the
// function that one returns, if not nil, is called when the proxy has
// closed. An error ends the run with exit 2.
type Plugin func(fs *pflag.FlagSet) func(ctx context.Context, opts *proxy.Options) (closeFn func(), err error)

var plugins []Plugin

// AddPlugin registers p for every later run of the proxy command. Call it
// before cli.Main, from one goroutine.
func AddPlugin(p Plugin) { plugins = append(plugins, p) }

const proxySynopsis = "mcpgen proxy [--listen stdio|HOST:PORT] [--strict] [--cache-bytes N] [flags] URL | -- COMMAND [ARGS...]"

// runProxy is mcpgen proxy: it serves clients of any revision on stdio or
// Streamable HTTP and forwards to the server at URL or the command after
// -- (internal/proxy). Exit 0 when it ends cleanly (the end of standard
// input, or SIGINT/SIGTERM); 1 when --strict and a message broke its
// schema; 2: bad usage, or the upstream could not be reached.
func runProxy(ctx context.Context, args []string, env cli.Env) error {
	fs := cli.NewFlags("proxy", env)
	listen := fs.String("listen", "stdio", "where clients connect: stdio, or HOST:PORT for Streamable HTTP at /mcp (a loopback address unless --public)")
	public := fs.Bool("public", false, "allow --listen on an address that is not loopback")
	strict := fs.Bool("strict", false, "refuse a message that breaks its revision's schema (default: log it and forward)")
	cacheBytes := fs.Int("cache-bytes", 64<<20, "bytes of results cached by their ttlMs and cacheScope; 0 turns the cache off")
	headers := fs.StringArray("header", nil, "send the header `'NAME: VALUE'` with every HTTP request upstream (such as Authorization); repeatable")
	timeout := fs.Duration("timeout", 5*time.Minute, "how long a forwarded request may take")
	initVersions := fs.StringArray("initialize-version", nil, "offer the clients that open with initialize this `REVISION` only (2025-11-25, 2025-06-18 or 2025-03-26); repeatable, preferred first (default: each client's own)")
	quiet := fs.Bool("quiet", false, "do not log each violation (the summary at exit stays)")
	logRequests := fs.Bool("log-requests", false, "log each request served (method, name or URI, duration, outcome) on standard error")
	maxResult := fs.Int("max-result-bytes", 0, "bound of a message from an HTTP upstream (a larger result is refused); 0 means 64 MiB")
	var configure []func(context.Context, *proxy.Options) (func(), error)
	for _, pl := range plugins {
		configure = append(configure, pl(fs))
	}
	if done, err := cli.Parse(fs, args, env, proxySynopsis); done || err != nil {
		return err
	}
	if *cacheBytes < 0 || *timeout <= 0 || *maxResult < 0 {
		return cli.UsageError("--cache-bytes and --max-result-bytes must not be negative and --timeout must be positive")
	}
	var upstream mcp.Transport
	rest := fs.Args()
	switch dash := fs.ArgsLenAtDash(); {
	case dash == 0 && len(rest) > 0:
		cmd := exec.Command(rest[0], rest[1:]...)
		cmd.Stderr = env.Stderr
		upstream = &mcp.CommandTransport{Command: cmd}
	case dash > 0:
		return cli.UsageError(fmt.Sprintf("unexpected argument %q before --: proxy a URL or -- COMMAND, not both", rest[0]))
	case dash < 0 && len(rest) == 1:
		h := http.Header{}
		for _, kv := range *headers {
			name, value, ok := strings.Cut(kv, ":")
			if !ok || strings.TrimSpace(name) == "" {
				return cli.UsageError(fmt.Sprintf("--header %q: want 'NAME: VALUE'", kv))
			}
			h.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		}
		upstream = &mcp.HTTPTransport{URL: rest[0], Header: h, MaxMessageBytes: *maxResult}
	case len(rest) == 0:
		return cli.UsageError("proxy needs an upstream: a URL, or -- and the command that runs the server")
	default:
		return cli.UsageError(fmt.Sprintf("unexpected argument %q (a command goes after --)", rest[1]))
	}
	var ln net.Listener
	if *listen != "stdio" {
		host, _, err := net.SplitHostPort(*listen)
		if err != nil {
			return cli.UsageError(fmt.Sprintf("--listen %q: want stdio or HOST:PORT", *listen))
		}
		if ip := net.ParseIP(host); !*public && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return cli.UsageError(fmt.Sprintf("--listen %q is not a loopback address (add --public to mean it)", *listen))
		}
		if ln, err = net.Listen("tcp", *listen); err != nil {
			return cli.ExitError(cli.ExitUsage, fmt.Errorf("mcpgen proxy: %w", err))
		}
		defer ln.Close()
	}
	level := slog.LevelWarn
	if *quiet {
		level = slog.LevelError
	}
	opts := proxy.Options{
		Upstream:           upstream,
		Strict:             *strict,
		Logger:             slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: level})),
		RequestTimeout:     *timeout,
		InitializeVersions: *initVersions,
	}
	if *cacheBytes > 0 {
		opts.Cache = proxy.NewMemoryStore(*cacheBytes)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	for _, c := range configure {
		closeFn, err := c(ctx, &opts)
		if err != nil {
			return cli.ExitError(cli.ExitUsage, fmt.Errorf("mcpgen proxy: %w", err))
		}
		if closeFn != nil {
			defer closeFn()
		}
	}
	if *logRequests {
		// The request log goes first, so that it times the whole request.
		rl := protocol.RequestLog(slog.New(slog.NewTextHandler(env.Stderr, nil)), opts.Principal)
		opts.Middleware = append([]mcp.Middleware{rl}, opts.Middleware...)
	}
	p, err := proxy.New(ctx, opts)
	if err != nil {
		return cli.ExitError(cli.ExitUsage, fmt.Errorf("mcpgen %w", err))
	}
	var serveErr error
	if ln == nil {
		serveErr = p.Dispatcher().Serve(ctx, env.Stdin, env.Stdout)
	} else {
		fmt.Fprintf(env.Stderr, "mcpgen proxy: serving http://%s/mcp (upstream %s)\n", ln.Addr(), p.UpstreamVersion())
		mux := http.NewServeMux()
		mux.Handle("/mcp", mcp.NewHTTPHandler(p.Dispatcher()))
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ln) }()
		select {
		case serveErr = <-done:
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			srv.Shutdown(sctx)
			cancel()
		}
		if errors.Is(serveErr, http.ErrServerClosed) {
			serveErr = nil
		}
	}
	closeErr := p.Close()
	fmt.Fprint(env.Stderr, p.Tap().Summary())
	if serveErr != nil && !errors.Is(serveErr, context.Canceled) {
		return cli.ExitError(cli.ExitUsage, fmt.Errorf("mcpgen proxy: %w", serveErr))
	}
	if closeErr != nil && ctx.Err() == nil {
		fmt.Fprintf(env.Stderr, "mcpgen proxy: closing the upstream: %v\n", closeErr)
	}
	if *strict && len(p.Tap().Violations()) > 0 {
		return cli.ExitError(cli.ExitStale, nil)
	}
	return nil
}
