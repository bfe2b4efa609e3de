// Package codec is the JSON engine of the generated packages: a one-pass
// Decoder that checks a document against its schema while it fills the Go
// value, an Encoder that writes JSON as encoding/json does (without
// reflection), a Validator that collects violations with their JSON
// pointers, the format checks (date-time, email, uri, ...) and the version
// guard every generated package compiles against (EnforceVersion).
//
// Generated code calls it; a user meets its errors (*ValidationError,
// *SyntaxError) and seldom anything else. The example writes an object
// with an Encoder and reads it back with a Decoder, as generated MarshalJSON
// and UnmarshalJSON methods do.
package codec
