// Package gen is mcpgen's generator. Generate turns a schema (the bytes of
// a JSON Schema document and where they came from) into the files of one Go
// package, in memory; Build is its middle step, which reads the schema
// model (package schema) and makes the intermediate representation
// (package ir), deciding every Go name once and recognising the MCP
// protocol (requests, results, notifications, capabilities); package emit
// writes the Go from the IR. Options says what to generate: the package
// name, the revision, renames, existing Go types for definitions,
// older revisions to serve. Only cmd/mcpgen writes files.
package gen
