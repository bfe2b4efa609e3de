// Package downstream tests mcpgen as a downstream repository uses it: a
// module of its own that records mcpgen as a tool (Go 1.24+ `go get
// -tool`), regenerates with `go generate` (with --serve-older: the older
// revisions' packages in sub-packages, and the conversions to them), and
// builds and runs a program against the output.
//
// It has tests only, no API.
package downstream
