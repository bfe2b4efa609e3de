package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// UpstreamCommit is the commit of github.com/modelcontextprotocol/modelcontextprotocol
// that the pinned schemas come from.
const UpstreamCommit = "b0f60ba5409db7a6582440a7b473cc0398890f15"

// Pin identifies one published MCP schema revision: where it lives upstream
// and the sha256 of its bytes. mcpgen reads a pinned revision only if the
// bytes match.
type Pin struct {
	Revision string // e.g. "2026-07-28"
	URL      string
	SHA256   string // hex
	Draft    Draft
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

func upstream(rev string) string {
	return "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/" +
		UpstreamCommit + "/schema/" + rev + "/schema.json"
}

// Pins lists every pinned revision, oldest first.
var Pins = []Pin{
	{"2024-11-05", upstream("2024-11-05"), "61cea2392d4f284092d09bc84b9ac488c0d5618ac2b38a56942fc5b99fd960ce", Draft07},
	{"2025-03-26", upstream("2025-03-26"), "e720669548c8100a4282c49e580efd6ddf7f28899ea786fc8db251dbdb356131", Draft07},
	{"2025-06-18", upstream("2025-06-18"), "af845e7e5b9d27107d1690f0936022546177a1403e63ffb11470135b296a2e01", Draft07},
	{"2025-11-25", upstream("2025-11-25"), "268a5f82ba70fd7e4b6dc4aa1e64f116f74b4d0edcb69dc046829c79dd4e97e7", Draft202012},
	{"2026-07-28", upstream("2026-07-28"), "ef70b61f99b6d2e5e3b46863822eab08dff6a45bedc7a08914e0e5b133f40203", Draft202012},
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
