# The MCP schemas are read from here (see README: "Where the schemas come from").
MCPGEN_SCHEMA_DIR ?= ../shared/mcp-spec/schema
export MCPGEN_SCHEMA_DIR
GO ?= go

.PHONY: all generate test check vet

all: check

# Regenerate generated/ from the pinned schemas. The bootstrap tag builds
# mcpgen without the packages it generates (only `mcpgen validate` uses
# them), so this works even when generated/ does not compile.
generate:
	$(GO) run -tags mcpgen_bootstrap ./cmd/mcpgen generate --all

# The test command (README, .ci/run).
test:
	$(GO) vet ./...
	$(GO) test ./...

# Everything a change must pass: generated/ is up to date, vet, tests.
check:
	$(GO) run -tags mcpgen_bootstrap ./cmd/mcpgen generate --all --check
	$(MAKE) test
