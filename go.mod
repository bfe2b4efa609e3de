module github.com/mcpgen/mcpgen

go 1.26

// The conformance suite (npm) installs into conformance/suite/node_modules.
ignore ./conformance/suite/node_modules

require (
	github.com/dave/jennifer v1.7.1
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
	github.com/spf13/pflag v1.1.0
)
