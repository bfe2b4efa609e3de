module github.com/mcpgen/mcpgen/replicas

go 1.26.0

// A module of its own so that go-redis stays out of mcpgen's module: the
// runtime defines the interfaces (protocol.SharedTasks, protocol.Bus) and
// this module implements them on Redis.
replace github.com/mcpgen/mcpgen => ..

require (
	github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000
	github.com/redis/go-redis/v9 v9.23.0
	github.com/spf13/pflag v1.1.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)
