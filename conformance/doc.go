// Package conformance runs the generated packages on the official MCP
// examples and on real messages, and compares their verdicts with the
// reference validator.
//
// It has tests only, no API.
package conformance
