// Package emit writes the Go files of a generated package from the
// intermediate representation (package ir), with jennifer: the types and
// their JSON methods, validation, the dispatchers, the typed client and the
// glue to the runtime (runtime/protocol, runtime/codec). Emit returns the
// files in memory (Files, file name to formatted source); it reads only the
// IR, never the schema, and decides no names.
package emit
