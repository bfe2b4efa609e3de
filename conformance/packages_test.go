package conformance

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp20241105"
	"github.com/mcpgen/mcpgen/generated/mcp20250326"
	"github.com/mcpgen/mcpgen/generated/mcp20250618"
	"github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// value is what every generated package's NewValue returns.
type value interface {
	MarshalJSON() ([]byte, error)
	UnmarshalJSON([]byte) error
	AppendJSON([]byte) ([]byte, error)
	Validate() error
}

// pkg is one generated package seen through its registry.
type pkg struct {
	revision    string
	version     string
	definitions []string
	newValue    func(string) (value, bool)
}

func wrapPkg[V value](f func(string) (V, bool)) func(string) (value, bool) {
	return func(def string) (value, bool) { return f(def) }
}

// packages lists every generated package; this file imports them all, so
// they must compile.
var packages = []pkg{
	{"2024-11-05", mcp20241105.ProtocolVersion, mcp20241105.Definitions, wrapPkg(mcp20241105.NewValue)},
	{"2025-03-26", mcp20250326.ProtocolVersion, mcp20250326.Definitions, wrapPkg(mcp20250326.NewValue)},
	{"2025-06-18", mcp20250618.ProtocolVersion, mcp20250618.Definitions, wrapPkg(mcp20250618.NewValue)},
	{"2025-11-25", mcp20251125.ProtocolVersion, mcp20251125.Definitions, wrapPkg(mcp20251125.NewValue)},
	{"2026-07-28", mcp20260728.ProtocolVersion, mcp20260728.Definitions, wrapPkg(mcp20260728.NewValue)},
}

// TestEveryDefinitionEncodesAndDecodes encodes the zero value of every
// definition of every package, decodes the result into a fresh value and
// encodes that again: the two encodings must match, so what a package
// writes it can read back.
func TestEveryDefinitionEncodesAndDecodes(t *testing.T) {
	for _, p := range packages {
		if p.version != p.revision {
			t.Errorf("ProtocolVersion = %q, want %q", p.version, p.revision)
		}
		if len(p.definitions) < 50 {
			t.Errorf("%s: only %d definitions", p.revision, len(p.definitions))
		}
		for _, def := range p.definitions {
			v, ok := p.newValue(def)
			if !ok {
				t.Errorf("%s: NewValue(%q) = false for a listed definition", p.revision, def)
				continue
			}
			first, err := v.AppendJSON(nil)
			if err != nil {
				t.Errorf("%s %s: encoding the zero value: %v", p.revision, def, err)
				continue
			}
			w, _ := p.newValue(def)
			if err := w.UnmarshalJSON(first); err != nil {
				// A zero value may be invalid (an empty union holds no
				// branch and encodes as null; a required union member
				// without a branch is left out), but then Validate says
				// so, and it must never be malformed JSON.
				if v.Validate() != nil && (bytes.Equal(first, []byte("null")) || isValidationError(err)) {
					continue
				}
				t.Errorf("%s %s: decoding %s: %v", p.revision, def, first, err)
				continue
			}
			second, err := w.AppendJSON(nil)
			if err != nil || !bytes.Equal(first, second) {
				t.Errorf("%s %s: re-encoding changed %s to %s (%v)", p.revision, def, first, second, err)
			}
		}
		if _, ok := p.newValue("NoSuchDefinition"); ok {
			t.Errorf("%s: NewValue accepts an unknown name", p.revision)
		}
	}
}

// isValidationError reports whether err is a generated package's
// *ValidationError (each package declares its own).
func isValidationError(err error) bool {
	t := reflect.TypeOf(err)
	return t.Kind() == reflect.Pointer && t.Elem().Name() == "ValidationError"
}
