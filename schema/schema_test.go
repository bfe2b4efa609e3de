package schema

import (
	"context"
	"errors"
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
// source must match the pin.
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
	l := &Locator{SchemaDir: schemaDir, CacheDir: cacheDir, Get: get}
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
	// An unpinned revision needs --schema, and takes any bytes.
	if _, err := l.Locate(ctx, "2099-01-01", ""); err == nil || !strings.Contains(err.Error(), "is not pinned") {
		t.Errorf("unpinned without --schema: %v", err)
	}
	if src, err := l.Locate(ctx, "2099-01-01", explicit); err != nil || src.Pin != nil {
		t.Errorf("unpinned with --schema: %v %+v", err, src)
	}
	// Offline: no download.
	off := &Locator{Offline: true}
	if _, err := off.Locate(ctx, pin.Revision, ""); err == nil || !strings.Contains(err.Error(), "downloads are off") {
		t.Errorf("offline: %v", err)
	}
	if downloads != 1 {
		t.Errorf("%d downloads, want 1", downloads)
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
