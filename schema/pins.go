package schema

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
)

// The pinned revisions ship inside mcpgen: revisions/pins.json lists them
// (revision, upstream URL, sha256) and revisions/<revision>/schema.json
// holds each one's bytes, as published upstream (revisions/README.md says
// where from, revisions/LICENSE under which license). `mcpgen pin` adds a
// revision to both.
//
//go:embed revisions/pins.json revisions/*/schema.json
var embedded embed.FS

// PinsFile is the path of the pin list inside this package's directory.
const PinsFile = "revisions/pins.json"

// Pin identifies one published MCP schema revision: where it lives upstream
// and the sha256 of its bytes. mcpgen reads a pinned revision only if the
// bytes match.
type Pin struct {
	Revision string `json:"revision"` // e.g. "2026-07-28"
	// URL is where the schema was published; File the name of the local
	// file it was pinned from when there is no URL (one of the two).
	URL    string `json:"url,omitempty"`
	File   string `json:"file,omitempty"`
	SHA256 string `json:"sha256"` // hex
	// ProtocolVersion is the protocolVersion the revision speaks, when
	// its name is not that version (a draft's); "" means Revision.
	ProtocolVersion string `json:"protocolVersion,omitempty"`
}

// IsDateRevision reports whether a revision's name is a date
// (YYYY-MM-DD), as MCP's released revisions are: then it is also the
// protocolVersion the revision speaks.
func IsDateRevision(name string) bool {
	if len(name) != 10 || name[4] != '-' || name[7] != '-' {
		return false
	}
	for i, c := range name {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Package is the Go package name mcpgen gives the revision by default.
func (p Pin) Package() string { return PackageName(p.Revision) }

// PackageName is the default Go package name for a revision: "mcp" and the
// revision without dashes ("2026-07-28" -> "mcp20260728").
func PackageName(revision string) string {
	b := []byte("mcp")
	for i := 0; i < len(revision); i++ {
		c := revision[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z':
			b = append(b, c)
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		}
	}
	return string(b)
}

// Pins lists every pinned revision, oldest first.
var Pins = mustParsePins()

// mustParsePins reads the embedded pin list. The file is compiled into
// mcpgen and a test checks it, so a malformed one is a broken build.
func mustParsePins() []Pin {
	data, err := embedded.ReadFile(PinsFile)
	if err != nil {
		panic("mcpgen: " + err.Error())
	}
	pins, err := ParsePins(data)
	if err != nil {
		panic("mcpgen: schema/" + PinsFile + ": " + err.Error())
	}
	return pins
}

// revisionName is what a revision may be called: it becomes a directory
// name and, through PackageName, a Go package name.
var revisionName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ValidRevisionName reports whether name can name a revision.
func ValidRevisionName(name string) bool {
	return revisionName.MatchString(name) && len(PackageName(name)) > len("mcp")
}

// ParsePins decodes a pin list and checks it: every revision named once,
// with a valid name, a URL and a hex sha256, sorted oldest (smallest)
// first.
func ParsePins(data []byte) ([]Pin, error) {
	var pins []Pin
	if err := json.Unmarshal(data, &pins); err != nil {
		return nil, err
	}
	for i, p := range pins {
		switch {
		case !ValidRevisionName(p.Revision):
			return nil, fmt.Errorf("pin %d: revision %q is not a valid revision name", i, p.Revision)
		case p.URL == "" && p.File == "":
			return nil, fmt.Errorf("pin %d (%s): no url and no file", i, p.Revision)
		case len(p.SHA256) != 64 || strings.Trim(p.SHA256, "0123456789abcdef") != "":
			return nil, fmt.Errorf("pin %d (%s): sha256 %q is not 64 lowercase hex digits", i, p.Revision, p.SHA256)
		case i > 0 && pins[i-1].Revision >= p.Revision:
			return nil, fmt.Errorf("pin %d (%s): revisions must be sorted and unique (after %s)", i, p.Revision, pins[i-1].Revision)
		}
	}
	return pins, nil
}

// FormatPins encodes a pin list as ParsePins reads it.
func FormatPins(pins []Pin) []byte {
	data, _ := json.MarshalIndent(pins, "", "  ") // strings only: cannot fail
	return append(data, '\n')
}

// Lookup returns the pin of a revision.
func Lookup(revision string) (Pin, bool) {
	for _, p := range Pins {
		if p.Revision == revision {
			return p, true
		}
	}
	return Pin{}, false
}

// Revisions lists the pinned revision names, oldest first.
func Revisions() []string {
	var r []string
	for _, p := range Pins {
		r = append(r, p.Revision)
	}
	return r
}

// Embedded returns the copy of a pinned revision's schema compiled into
// mcpgen, and whether there is one.
func Embedded(revision string) ([]byte, bool) {
	if !ValidRevisionName(revision) {
		return nil, false
	}
	data, err := embedded.ReadFile("revisions/" + revision + "/schema.json")
	return data, err == nil
}

// EmbeddedFS is the embedded pin list and schemas, as revisions/pins.json
// and revisions/<revision>/schema.json.
func EmbeddedFS() fs.FS { return embedded }

// SHA256 returns the hex sha256 of data.
func SHA256(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// HashMismatchError says that bytes read for a pinned revision are not the
// pinned ones.
type HashMismatchError struct {
	Revision string
	Source   string
	Want     string
	Got      string
}

func (e *HashMismatchError) Error() string {
	return fmt.Sprintf("%s: sha256 mismatch for revision %s: pinned %s, got %s", e.Source, e.Revision, e.Want, e.Got)
}

// Verify checks data against the pin.
func (p Pin) Verify(source string, data []byte) error {
	if got := SHA256(data); got != p.SHA256 {
		return &HashMismatchError{Revision: p.Revision, Source: source, Want: p.SHA256, Got: got}
	}
	return nil
}
