# The MCP schemas are read from here (see README: "Where the schemas come from").
MCPGEN_SCHEMA_DIR ?= ../shared/mcp-spec/schema
export MCPGEN_SCHEMA_DIR
GO ?= go

.PHONY: all generate test check vet interop

all: check

# Regenerate generated/ from the pinned schemas.
generate:
	$(GO) run ./cmd/mcpgen generate --all

# The test command (README, .ci/run).
test:
	$(GO) vet ./...
	$(GO) test ./...

# Everything a change must pass: generated/ is up to date, vet, tests.
check:
	$(GO) run ./cmd/mcpgen generate --all --check
	$(MAKE) test

# Interoperability tests: examples/discover-server against the official Go
# SDK client and raw JSON-RPC (interop/ is a module of its own, so that the
# main module does not depend on the SDK).
interop:
	cd interop && $(GO) vet ./... && $(GO) test ./...
