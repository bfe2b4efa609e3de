package schema

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseKeepsOrderAndNumbers(t *testing.T) {
	v, err := Parse([]byte(`{"b": 1.50, "a": [12345678901234567890, -0.0], "c": {"x": null}}`))
	if err != nil {
		t.Fatal(err)
	}
	if v.Members[0].Name != "b" || v.Members[1].Name != "a" {
		t.Errorf("member order lost: %s", v.JSON())
	}
	if got := v.Get("a").Items[0].Num; got != "12345678901234567890" {
		t.Errorf("number text = %q", got)
	}
	if got := v.Get("c").Get("x").Pointer; got != "/c/x" {
		t.Errorf("pointer = %q", got)
	}
	if NumberCmp("1.50", "1.5") != 0 || NumberCmp("2", "10") >= 0 || !IsInteger("2.0") || IsInteger("2.5") {
		t.Error("number comparison")
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a": 1, "a": 2}`, `line 1, column 10: duplicate member "a" in object at the top level`},
		{"{\n  \"a\": [1,\n  }", "line 3, column 3: invalid character '}' looking for beginning of value"},
		{`{} x`, "unexpected data after the top-level value"},
		{``, "unexpected end of JSON input"},
		{strings.Repeat("[", 10002) + strings.Repeat("]", 10002), "nesting deeper than 10000"},
	} {
		_, err := Parse([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%.20q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestLoadResolvesAndWarns(t *testing.T) {
	doc, err := Load("s.json", []byte(`{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {
		"A": {"type": "object", "properties": {"b": {"$ref": "#/definitions/B"}, "c": {"$ref": "#/definitions/A/properties/b"}}},
		"B": {"type": "string", "format": "uri", "x-vendor": true}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Draft != Draft07 || len(doc.Defs) != 2 {
		t.Fatalf("draft %v, %d definitions", doc.Draft, len(doc.Defs))
	}
	a := doc.Def("A")
	if a.Prop("b").Ref != doc.Def("B") || a.Prop("c").Ref != a.Prop("b") {
		t.Error("$ref to a definition and to a nested pointer must resolve to those nodes")
	}
	if len(doc.Warnings) != 1 || doc.Warnings[0].Error() != `s.json: /definitions/B/x-vendor: unknown keyword "x-vendor" is not supported; it is not enforced` {
		t.Errorf("warnings = %v", doc.Warnings)
	}
}

func TestPackageName(t *testing.T) {
	if got := PackageName("2026-07-28"); got != "mcp20260728" {
		t.Errorf("PackageName = %q", got)
	}
	if got := PackageName("Draft-X"); got != "mcpdraftx" {
		t.Errorf("PackageName = %q", got)
	}
}

// TestLocatorOrder checks where a revision's schema comes from: --schema,
// then the schema directory, then the cache, then a download; every
// source must match the pin. (The embedded copy, which comes between the
// schema directory and the cache, is turned off here: TestEmbeddedOrder.)
func TestLocatorOrder(t *testing.T) {
	pin, _ := Lookup("2026-07-28")
	good := []byte("pretend schema")
	pinned := Pin{Revision: pin.Revision, URL: pin.URL, SHA256: SHA256(good)}
	// Swap the pin for one whose bytes the test controls.
	for i := range Pins {
		if Pins[i].Revision == pin.Revision {
			saved := Pins[i]
			Pins[i] = pinned
			defer func() { Pins[i] = saved }()
		}
	}
	downloads := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		downloads++
		w.Write(good)
	}))
	defer srv.Close()
	get := func(ctx context.Context, url string) ([]byte, error) {
		resp, err := http.Get(srv.URL)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		buf := make([]byte, 100)
		n, _ := resp.Body.Read(buf)
		return buf[:n], nil
	}
	tmp := t.TempDir()
	schemaDir, cacheDir := filepath.Join(tmp, "schemas"), filepath.Join(tmp, "cache")
	l := &Locator{SchemaDir: schemaDir, CacheDir: cacheDir, Get: get, NoEmbedded: true}
	ctx := context.Background()

	src, err := l.Locate(ctx, pin.Revision, "")
	if err != nil || !src.Downloaded || downloads != 1 || string(src.Data) != string(good) {
		t.Fatalf("download: %v %+v", err, src)
	}
	// The caller caches it; then the cache is used, not the network.
	os.MkdirAll(filepath.Dir(l.CachePath(pin.Revision)), 0o755)
	os.WriteFile(l.CachePath(pin.Revision), good, 0o644)
	if src, err := l.Locate(ctx, pin.Revision, ""); err != nil || src.Downloaded || src.Origin != l.CachePath(pin.Revision) {
		t.Errorf("cache: %v %+v", err, src)
	}
	// The schema directory comes before the cache, and must match the pin.
	os.MkdirAll(filepath.Join(schemaDir, pin.Revision), 0o755)
	os.WriteFile(filepath.Join(schemaDir, pin.Revision, "schema.json"), []byte("tampered"), 0o644)
	_, err = l.Locate(ctx, pin.Revision, "")
	var hm *HashMismatchError
	if !errors.As(err, &hm) || hm.Got != SHA256([]byte("tampered")) || hm.Want != SHA256(good) {
		t.Errorf("a tampered schema directory file: %v", err)
	}
	// --schema comes first; for a pinned revision it must match too.
	explicit := filepath.Join(tmp, "explicit.json")
	os.WriteFile(explicit, good, 0o644)
	if src, err := l.Locate(ctx, pin.Revision, explicit); err != nil || src.Origin != explicit {
		t.Errorf("--schema: %v %+v", err, src)
	}
	// An unpinned revision is downloaded from the upstream main branch
	// (and takes any bytes); offline, it needs --schema.
	if src, err := l.Locate(ctx, "2099-01-01", ""); err != nil || !src.Downloaded || src.Pin != nil || src.Origin != UpstreamURL("2099-01-01") {
		t.Errorf("unpinned without --schema: %v %+v", err, src)
	}
	if _, err := (&Locator{Offline: true}).Locate(ctx, "2099-01-01", ""); err == nil || !strings.Contains(err.Error(), "is not pinned") || !strings.Contains(err.Error(), "--schema") {
		t.Errorf("unpinned, offline, without --schema: %v", err)
	}
	if src, err := l.Locate(ctx, "2099-01-01", explicit); err != nil || src.Pin != nil {
		t.Errorf("unpinned with --schema: %v %+v", err, src)
	}
	// Offline: no download.
	off := &Locator{Offline: true, NoEmbedded: true}
	if _, err := off.Locate(ctx, pin.Revision, ""); err == nil || !strings.Contains(err.Error(), "downloads are off") {
		t.Errorf("offline: %v", err)
	}
	if downloads != 2 {
		t.Errorf("%d downloads, want 2", downloads)
	}
}

// TestEmbeddedOrder checks that the copy embedded in mcpgen comes after
// --schema and the schema directory, and before the cache and the network.
func TestEmbeddedOrder(t *testing.T) {
	const rev = "2026-07-28"
	tmp := t.TempDir()
	cache := filepath.Join(tmp, "cache")
	os.MkdirAll(filepath.Join(cache, rev), 0o755)
	os.WriteFile(filepath.Join(cache, rev, "schema.json"), []byte("stale cache"), 0o644)
	l := &Locator{CacheDir: cache, Offline: true, Get: func(context.Context, string) ([]byte, error) {
		t.Error("a pinned revision must not be downloaded")
		return nil, errors.New("no network")
	}}
	src, err := l.Locate(context.Background(), rev, "")
	if err != nil || !src.Embedded || src.Pin == nil || src.Pin.Verify("", src.Data) != nil {
		t.Fatalf("embedded: %v %+v", err, src)
	}
	dir := filepath.Join(tmp, "schemas")
	os.MkdirAll(filepath.Join(dir, rev), 0o755)
	os.WriteFile(filepath.Join(dir, rev, "schema.json"), src.Data, 0o644)
	l.SchemaDir = dir
	if src, err := l.Locate(context.Background(), rev, ""); err != nil || src.Embedded || src.Origin != filepath.Join(dir, rev, "schema.json") {
		t.Errorf("the schema directory comes first: %v %+v", err, src)
	}
	if _, err := l.Locate(context.Background(), "../x", ""); err == nil || !strings.Contains(err.Error(), "not a revision name") {
		t.Errorf("a path as a revision name: %v", err)
	}
}

// TestEmbeddedPins checks the pin list and the embedded schemas: every pin
// has its file with exactly the pinned bytes, every file has a pin, and
// the list is what FormatPins writes (so mcpgen pin leaves no diff noise).
func TestEmbeddedPins(t *testing.T) {
	if len(Pins) < 5 {
		t.Fatalf("%d pins, want the five published revisions at least", len(Pins))
	}
	for _, p := range Pins {
		data, ok := Embedded(p.Revision)
		if !ok {
			t.Errorf("%s: not embedded", p.Revision)
			continue
		}
		if err := p.Verify("embedded", data); err != nil {
			t.Error(err)
		}
	}
	dirs, err := fs.Glob(EmbeddedFS(), "revisions/*/schema.json")
	if err != nil || len(dirs) != len(Pins) {
		t.Errorf("%d embedded schemas for %d pins (%v)", len(dirs), len(Pins), err)
	}
	raw, _ := fs.ReadFile(EmbeddedFS(), PinsFile)
	if got := FormatPins(Pins); string(got) != string(raw) {
		t.Errorf("%s is not in the form FormatPins writes:\n%s", PinsFile, got)
	}
	// The first published revisions are pinned to these bytes for good.
	want := map[string]string{
		"2024-11-05": "61cea2392d4f284092d09bc84b9ac488c0d5618ac2b38a56942fc5b99fd960ce",
		"2025-03-26": "e720669548c8100a4282c49e580efd6ddf7f28899ea786fc8db251dbdb356131",
		"2025-06-18": "af845e7e5b9d27107d1690f0936022546177a1403e63ffb11470135b296a2e01",
		"2025-11-25": "268a5f82ba70fd7e4b6dc4aa1e64f116f74b4d0edcb69dc046829c79dd4e97e7",
		"2026-07-28": "ef70b61f99b6d2e5e3b46863822eab08dff6a45bedc7a08914e0e5b133f40203",
	}
	for rev, sum := range want {
		if p, ok := Lookup(rev); !ok || p.SHA256 != sum {
			t.Errorf("%s: pin %+v, want sha256 %s", rev, p, sum)
		}
	}
}

func TestParsePinsErrors(t *testing.T) {
	ok := `{"revision":"2026-07-28","url":"u","sha256":"` + strings.Repeat("a", 64) + `"}`
	for _, c := range []struct{ in, want string }{
		{`{}`, "cannot unmarshal object"},
		{`[{"revision":"../x","url":"u","sha256":"` + strings.Repeat("a", 64) + `"}]`, `revision "../x" is not a valid revision name`},
		{`[{"revision":"2026-07-28","sha256":"` + strings.Repeat("a", 64) + `"}]`, "no url"},
		{`[{"revision":"2026-07-28","url":"u","sha256":"ABC"}]`, "is not 64 lowercase hex digits"},
		{`[` + ok + `,` + ok + `]`, "must be sorted and unique"},
	} {
		if _, err := ParsePins([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParsePins(%s) = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestHTTPGetErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	l := &Locator{}
	_, err := l.Locate(context.Background(), "2099-01-01", srv.URL+"/schema.json")
	if err == nil || !strings.Contains(err.Error(), "download failed: HTTP 404 Not Found") {
		t.Errorf("404: %v", err)
	}
}
