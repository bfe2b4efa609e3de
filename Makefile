# The pinned MCP schemas are embedded in mcpgen (schema/revisions); set
# MCPGEN_SCHEMA_DIR only to read them from somewhere else (see
# docs/generating.md: "Where the schemas come from").
GO ?= go

.PHONY: all generate api test test-short check vet bench bench-http bench-client bench-keywords bench-compile interop interop-deps interop-hydra conformance conformance-replicas conformance-deps

all: check

# Regenerate generated/ from the pinned schemas, with mcpgen-generate: mcpgen
# without `mcpgen check` (the only command that links the generated
# packages; see ARCHITECTURE.md), so this works even when generated/ is
# stale, broken or absent.
generate:
	$(GO) run ./internal/cmd/mcpgen-generate generate --all

# Rewrite api/, the listing of every exported name of every public package
# (internal/apicheck), after a change to the surface that is meant;
# TestAPI, part of go test ./..., fails with a diff until then.
api:
	$(GO) test -count=1 -run '^TestAPI$$' ./internal/apicheck -update

# staticcheck.conf (at the root, so for every module) turns on ST1016 and
# ST1020-ST1022 beside the default checks.
STATICCHECK = honnef.co/go/tools/cmd/staticcheck@v0.8.2

# Modules of their own beside mcpgen's, so that mcpgen's module and the
# generated packages do not depend on what they import: the authorization
# package (auth/: golang.org/x/oauth2, go-jose; docs/authorization.md), the
# conformance suite's client, which uses it (examples/everything-client),
# and their interoperability tests (auth/interop: the generated packages of
# every revision, the Go blocks of docs/authorization.md, and Ory Hydra,
# a tool of that module).
AUTH_MODULES = auth examples/everything-client auth/interop

# The replicas module (replicas/: go-redis, and the otel module for the
# replicas' OTLP export): the Redis task store and bus that replicas share
# (docs/replicas.md). Its tests start redis-server, redis-sentinel and
# nginx (Debian packages; .ci/run installs them) on 127.0.0.1 and fail
# when they are missing.
REPLICA_MODULES = replicas

# The OpenTelemetry instrumentation (otel/: go.opentelemetry.io/otel, its
# SDK and OTLP/HTTP exporters; docs/telemetry.md), a module of its own for
# the same reason. Its tests build examples/everything-server with the
# instrumentation added and trace a call across the two processes, and run
# otel/cmd/everything-server against an OTLP receiver of their own.
OTEL_MODULES = otel

# The test command (README, .ci/run): gofmt, vet and staticcheck (on mcpgen,
# on every generated package and on the modules above), the tests (with
# internal/doccheck: every Go block of README.md and docs/ compiles), the
# interoperability tests, and go vet and the side-by-side tests of the
# programs of bench/sidebyside, which docs/serving.md, docs/server.md and
# docs/client.md show (token counts against go-sdk's, the docs showing them
# as they are, the programs answering alike; doccheck checks that the text
# is theirs; their module, bench/, builds them).
test: interop-deps
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt -l reports:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) test -timeout 25m ./...
	@for m in $(AUTH_MODULES) $(REPLICA_MODULES) $(OTEL_MODULES); do \
		echo "cd $$m && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./..."; \
		(cd $$m && $(GO) vet ./... && $(GO) run $(STATICCHECK) ./...) || exit 1; \
	done
	MCPGEN_API_ALL=1 $(GO) test -count=1 -run '^TestAPI$$' ./internal/apicheck
	cd auth && $(GO) test -race ./... && $(GO) test -count=1 -run Bounded .
	cd examples/everything-client && $(GO) test ./...
	cd auth/interop && $(GO) test -skip '^TestHydra' ./...
	cd replicas && $(GO) test ./...
	cd otel && $(GO) test -race ./...
	cd interop && $(GO) vet ./... && MCPGEN_INTEROP_TS=1 $(GO) test ./...
	cd bench && $(GO) vet ./sidebyside/... && $(GO) test -count=1 -run SideBySide .

# The daily loop (README): gofmt -l and mcpgen's own tests under -short.
# -short samples the long tests: TestDifferential and TestGolden's builds
# run one slice of their cases, TestKeywordsDifferential one small batch
# (internal/testenv: MCPGEN_SAMPLE=k/n picks slice k of n, default 0/8;
# MCPGEN_SAMPLE=all runs every case), and the tests that build whole
# modules skip. make test is the full command, and what CI runs.
test-short:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt -l reports:"; echo "$$unformatted"; exit 1; fi
	$(GO) test -short -timeout 15m ./...

# Everything a change must pass: generated/ is up to date, vet, tests.
check:
	$(GO) run ./internal/cmd/mcpgen-generate generate --all --check
	$(MAKE) test

# Benchmarks (bench/, a module of its own): first its tests (lossless round
# trips, every anchor decodes what it claims, the two dispatchers answer
# alike, the tool set accepts what its schema does, the side-by-side with
# go-sdk), then the corpus and tool-set benchmarks (BenchmarkToolArgs:
# mcpgen's argument checking against jsonschema-go's), the dispatcher
# benchmarks (mcpgen's ServerDispatcher.Handle against the go-sdk server,
# and BenchmarkDispatchMiddleware: its tools/call with no middleware and
# with pass-through middleware;
# BenchmarkClient, the generated client against the go-sdk client, and
# BenchmarkKeywords*, Validate on internal/kwexample's documents against
# jsonschema v5, run with the corpus benchmarks),
# the HTTP benchmarks
# (tools/call over loopback HTTP against mcpgen's handler and the go-sdk's
# StreamableHTTPHandler, 1, 16 and 256 clients) and the generator
# benchmarks BENCH_COUNT times each, the generator's scaling cases
# (BenchmarkScale*: a 100k-value enum, a 10k-deep $ref chain, 1k-deep
# nesting, 20k definitions, each next to a tenth of it) SCALE_COUNT times
# (one run of the largest takes about half a minute), then a Markdown table of the medians
# (bench/cmd/table). The raw output is left in bench/bench.out.
BENCH_COUNT ?= 5
SCALE_COUNT ?= 3
bench:
	cd bench && $(GO) test -count=1 .
	cd bench && { $(GO) test -run '^$$' -bench . -skip '^Benchmark(Generate|Scale|Dispatch|HTTP)' -count $(BENCH_COUNT) . ; echo $$? > bench.rc; } | tee bench.out && exit $$(cat bench.rc)
	cd bench && { $(GO) test -run '^$$' -bench '^BenchmarkDispatch(Middleware)?$$' -count $(BENCH_COUNT) . ; echo $$? > bench.rc; } | tee -a bench.out && exit $$(cat bench.rc)
	cd bench && { $(GO) test -run '^$$' -bench '^BenchmarkHTTP$$' -count $(BENCH_COUNT) . ; echo $$? > bench.rc; } | tee -a bench.out && exit $$(cat bench.rc)
	cd bench && { $(GO) test -run '^$$' -bench '^BenchmarkGenerate' -benchtime 3x -count $(BENCH_COUNT) . ; echo $$? > bench.rc; } | tee -a bench.out && exit $$(cat bench.rc)
	cd bench && { $(GO) test -run '^$$' -bench '^BenchmarkScale' -benchtime 1x -count $(SCALE_COUNT) -timeout 60m . ; echo $$? > bench.rc; } | tee -a bench.out && exit $$(cat bench.rc)
	cd bench && $(GO) run ./cmd/table bench.out

# What building a server costs with no build cache (bench/cmd/compile):
# the README's adder and examples/everything-server, each against the same
# server on go-sdk v1.8.0, COMPILE_RUNS builds of each (alternating), every
# build from a fresh copy of a cache holding only the prebuilt standard
# library; wall time, peak RSS, lines of non-std Go compiled, the ratios,
# the adder's targets. First the tool's own test on a tiny module; the
# table is left in bench/bench-compile.out. Takes a few minutes.
COMPILE_RUNS ?= 3
bench-compile:
	cd bench && $(GO) test -count=1 -run '^TestCompileCost' .
	cd bench && { $(GO) run ./cmd/compile -runs $(COMPILE_RUNS) ; echo $$? > bench.rc; } | tee bench-compile.out && exit $$(cat bench.rc)

# The HTTP benchmarks alone (BenchmarkHTTP), their table in bench/bench-http.out.
bench-http:
	cd bench && $(GO) test -count=1 -run '^TestHTTPEquivalent$$' .
	cd bench && { $(GO) test -run '^$$' -bench '^BenchmarkHTTP$$' -count $(BENCH_COUNT) . ; echo $$? > bench.rc; } | tee bench-http.out && exit $$(cat bench.rc)
	cd bench && $(GO) run ./cmd/table bench-http.out

# The validation-keyword benchmarks alone (BenchmarkKeywords*: a schema
# using the keywords beyond the MCP schemas', internal/kwexample), their
# table in bench/bench-keywords.out.
bench-keywords:
	cd bench && $(GO) test -count=1 -run '^TestKeywordsAgree$$' .
	cd bench && { $(GO) test -run '^$$' -bench '^BenchmarkKeywords' -count $(BENCH_COUNT) . ; echo $$? > bench.rc; } | tee bench-keywords.out && exit $$(cat bench.rc)
	cd bench && $(GO) run ./cmd/table bench-keywords.out

# The client benchmarks alone (BenchmarkClient: a tools/call round trip
# through the generated client and the go-sdk client against the same
# server, over stdio framing and over HTTP), their table in
# bench/bench-client.out.
bench-client:
	cd bench && $(GO) test -count=1 -run '^TestClientCallers$$' .
	cd bench && { $(GO) test -run '^$$' -bench '^BenchmarkClient$$' -count $(BENCH_COUNT) . ; echo $$? > bench.rc; } | tee bench-client.out && exit $$(cat bench.rc)
	cd bench && $(GO) run ./cmd/table bench-client.out

# Interoperability tests (interop/ is a module of its own, so that the main
# module does not depend on the SDKs): examples/discover-server and
# examples/everything-server against the official Go SDK client, mcp-go's
# client, raw JSON-RPC and the official TypeScript client (the matrix of
# issue 10, interop/matrix*_test.go); the generated client against servers
# of those SDKs. MCPGEN_INTEROP_TS=1 makes a missing TypeScript client a
# failure instead of a skip.
interop: interop-deps
	cd interop && $(GO) vet ./... && MCPGEN_INTEROP_TS=1 $(GO) test ./...

# The auth module against a real authorization server, Ory Hydra v2.3.0
# (auth/interop, TestHydra*): the tests build Hydra, the tool of
# auth/interop/go.mod, with the sqlite tags (cgo: this needs a C compiler;
# about 2 minutes on 2 cores the first time, then cached by go.sum in the
# user's cache directory), run it with in-memory storage on 127.0.0.1 and
# examples/everything-server behind auth.ResourceServer, and get tokens by
# authorization code + PKCE (login and consent through Hydra's admin API),
# dynamic registration, client credentials and private_key_jwt. A missing
# tool fails the tests; nothing skips. .ci/run runs it.
interop-hydra:
	cd auth/interop && $(GO) test -count=1 -timeout 30m -run '^TestHydra' ./...

# npm ci installs the official TypeScript client and a Node binary pinned
# by interop/ts/package-lock.json, only when the lock file changed since
# the last install (this needs the npm registry).
INTEROP_TS = interop/ts
interop-deps:
	@if ! cmp -s $(INTEROP_TS)/package-lock.json $(INTEROP_TS)/node_modules/.mcpgen-installed-lock; then \
		echo "cd $(INTEROP_TS) && npm ci"; \
		(cd $(INTEROP_TS) && npm ci --no-audit --no-fund --loglevel=error) && \
		cp $(INTEROP_TS)/package-lock.json $(INTEROP_TS)/node_modules/.mcpgen-installed-lock; \
	fi

# The official MCP conformance suite against examples/everything-server
# (docs/conformance.md). npm ci installs the suite and a Node binary
# pinned by conformance/suite/package-lock.json (again only when the lock
# file changed since the last install); conformance/suite (a Go program)
# builds and starts the server on 127.0.0.1, runs the scenarios 2026-07-28
# requires plus the unscored ones, stops the server and prints a table; then
# it builds examples/everything-client (a module of its own) and runs the
# client scenarios of 2026-07-28 and 2025-11-25 with it (the suite starts it
# once per scenario), the authorization ones (auth/...) included.
SUITE = conformance/suite
conformance: conformance-deps
	$(GO) run ./$(SUITE)

# The same server scenarios through nginx against three replicas of
# examples/everything-server sharing Redis (replicas/cmd/everything-replicas,
# which starts redis-server, the replicas and nginx on 127.0.0.1;
# docs/replicas.md): tasks and subscriptions round robin, legacy sessions
# routed by their id's prefix. The client scenarios do not involve the
# server and are left to make conformance.
conformance-replicas: conformance-deps
	$(GO) run ./$(SUITE) -server ./replicas/cmd/everything-replicas -client-requirements ''

conformance-deps:
	@if ! cmp -s $(SUITE)/package-lock.json $(SUITE)/node_modules/.mcpgen-installed-lock; then \
		echo "cd $(SUITE) && npm ci"; \
		(cd $(SUITE) && npm ci --no-audit --no-fund --loglevel=error) && \
		cp $(SUITE)/package-lock.json $(SUITE)/node_modules/.mcpgen-installed-lock; \
	fi
