package main

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/internal/textdiff"
	"github.com/mcpgen/mcpgen/schema"
)

var update = flag.Bool("update", false, "regenerate the a2a package from the A2A schema")

// The A2A schema the a2a package is generated from: a2a.json of
// a2aproject/A2A at tag v0.3.0, read from the A2A material next to the
// repository (testenv.A2ASpecDir); mcpgen does not keep a copy.
const (
	a2aURL      = "https://raw.githubusercontent.com/a2aproject/A2A/8d57eba286de756176892518a8fc39b0ac2ccefb/specification/json/a2a.json"
	a2aSHA256   = "97d6e2435336836cd1d41dffacf83a1a97902b62b826ef14ec5704db85c95f17"
	a2aRevision = "0.3.0"
	// a2aCommand is what `mcpgen generate` would record for the same
	// package, run from the repository's root.
	a2aCommand = "mcpgen generate --revision " + a2aRevision + " --schema " + a2aURL + " --out examples/a2a-server/a2a --package a2a"
)

// a2aWarnings are the warnings generating the package gives: A2A's
// tasks/resubscribe answers with a stream of message/stream results and
// has no result of its own.
var a2aWarnings = []string{
	a2aURL + `: /definitions/TaskResubscriptionRequest: request TaskResubscriptionRequest (method "tasks/resubscribe") has no result to pair it with (no TaskResubscriptionResult definition, no "result" member in a TaskResubscriptionSuccessResponse or TaskResubscriptionResponse definition), so the dispatcher leaves the method out; see "Pairing requests with results" in mcpgen's docs/other-schemas.md`,
}

// a2aSchema reads a2a.json and checks it is the version the package is
// generated from.
func a2aSchema(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testenv.A2ASpecDir(t), "a2a.json"))
	if err != nil {
		t.Fatal(err)
	}
	if sum := schema.SHA256(data); sum != a2aSHA256 {
		t.Fatalf("a2a.json has sha256 %s; the a2a package is generated from %s", sum, a2aSHA256)
	}
	return data
}

// TestA2AGeneratedUpToDate regenerates the a2a package in memory and
// compares it with the committed one (go test -update rewrites it): the
// package has a dispatcher, paired by the convention the README
// describes, and the one warning above.
func TestA2AGeneratedUpToDate(t *testing.T) {
	data := a2aSchema(t)
	files, warns, err := gen.Generate(a2aURL, data, gen.Options{Package: "a2a", Revision: a2aRevision,
		Source: gen.SourceInfo{URL: a2aURL, SHA256: a2aSHA256}, Command: a2aCommand})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.Error())
	}
	if !slices.Equal(got, a2aWarnings) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(a2aWarnings, "\n"))
	}
	if _, ok := files["dispatch.go"]; !ok {
		t.Error("no dispatch.go: the A2A schema gets no dispatcher")
	}
	dir := "a2a"
	if *update {
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := files[e.Name()]; !ok {
			t.Errorf("a2a/%s is not generated any more", e.Name())
		}
	}
	for name, b := range files {
		old, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("a2a/%s: %v (go test -update writes it)", name, err)
			continue
		}
		if d := textdiff.Unified("committed "+name, "regenerated "+name, string(old), string(b), 3, 40); d != "" {
			t.Errorf("a2a/%s is stale (go test -update):\n%s", name, d)
		}
	}
}
