package schema

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMetaschemasPinned checks the embedded metaschemas against their pins:
// every file under metaschemas/ is pinned and every pin has its file, the
// bytes have the pinned sha256, and each document's own "$id" is the URI it is pinned by.
func TestMetaschemasPinned(t *testing.T) {
	files := map[string]bool{}
	err := fs.WalkDir(metaschemaFS, "metaschemas", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files[p] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(metaschemaPins) {
		t.Errorf("%d embedded files, %d pins", len(files), len(metaschemaPins))
	}
	for _, p := range metaschemaPins {
		file := metaschemaFile(p.URI)
		if !files[file] {
			t.Errorf("%s: pinned, but %s is not embedded", p.URI, file)
			continue
		}
		disk, err := os.ReadFile(filepath.FromSlash(file))
		if err != nil {
			t.Fatal(err)
		}
		if got := SHA256(disk); got != p.SHA256 {
			t.Errorf("%s: sha256 %s, pinned %s", file, got, p.SHA256)
		}
		data, ok, err := EmbeddedMetaschema(p.URI + "#")
		if err != nil || !ok {
			t.Fatalf("EmbeddedMetaschema(%s#) = %v, %v", p.URI, ok, err)
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		id, _ := doc["$id"].(string)
		if strings.TrimSuffix(id, "#") != p.URI {
			t.Errorf("%s: its id is %q, pinned as %s", file, id, p.URI)
		}
	}
	if _, ok, err := EmbeddedMetaschema("https://json-schema.org/draft/2020-12/nothing"); ok || err != nil {
		t.Errorf("an unknown URI: %v, %v", ok, err)
	}
}

// TestMetaschemaRefOffline resolves a $ref to each standard metaschema
// with downloads forbidden (a download fails the test): the reference
// reads mcpgen's copy, reported as embedded, and the definition typed by it
// has the metaschema's keywords as members.
func TestMetaschemaRefOffline(t *testing.T) {
	noNet := func(ctx context.Context, url string) ([]byte, error) {
		t.Errorf("downloaded %s", url)
		return nil, os.ErrPermission
	}
	for _, tc := range []struct{ dialect, ref, member string }{
		{"http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema#", "definitions"},
		{"https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema", "$schema"},
		{"https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/meta/validation", "maxLength"},
		{"https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2019-09/schema", "$recursiveRef"},
	} {
		doc := `{"$schema": "` + tc.dialect + `", "properties": {"s": {"$ref": "` + tc.ref + `"}}}`
		var got []*Retrieved
		d, err := LoadWith("x.json", []byte(doc), RefOptions{Offline: true, Download: true, Get: noNet,
			Retrieved: func(r *Retrieved) { got = append(got, r) }})
		if err != nil {
			t.Errorf("$ref %s: %v", tc.ref, err)
			continue
		}
		if len(got) == 0 || got[0].URI != strings.TrimSuffix(tc.ref, "#") || !got[0].Embedded || got[0].Downloaded {
			t.Errorf("$ref %s: retrieved %+v", tc.ref, got)
		}
		for _, r := range got {
			if !r.Embedded {
				t.Errorf("$ref %s: %s was not mcpgen's copy", tc.ref, r.URI)
			}
		}
		s := d.Node("/properties/s")
		if s == nil || s.Ref == nil {
			t.Fatalf("$ref %s: no reference at /properties/s", tc.ref)
		}
		if !hasProperty(s.Ref, tc.member, map[*Schema]bool{}) {
			t.Errorf("$ref %s: its target has no property %q", tc.ref, tc.member)
		}
	}
}

// hasProperty reports whether s, or a schema its allOf and references
// reach, declares the property name.
func hasProperty(s *Schema, name string, seen map[*Schema]bool) bool {
	if s == nil || seen[s] {
		return false
	}
	seen[s] = true
	for _, p := range s.Properties {
		if p.Name == name {
			return true
		}
	}
	for _, sub := range s.AllOf {
		if hasProperty(sub, name, seen) {
			return true
		}
	}
	return hasProperty(s.Ref, name, seen)
}

// TestMetaschemaRefMapFirst checks that a --ref-map entry for a metaschema's
// URI is read instead of mcpgen's copy, and that a copy whose bytes are not
// the pinned ones is refused.
func TestMetaschemaRefMapFirst(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "meta.json")
	if err := os.WriteFile(own, []byte(`{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"mine": {"type": "string"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := []byte(`{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"s": {"$ref": "http://json-schema.org/draft-07/schema#"}}}`)
	d, err := LoadWith("x.json", doc, RefOptions{Map: map[string]string{"http://json-schema.org/draft-07/schema": own}})
	if err != nil {
		t.Fatal(err)
	}
	if s := d.Node("/properties/s"); s == nil || !hasProperty(s.Ref, "mine", map[*Schema]bool{}) {
		t.Errorf("the mapped copy was not read")
	}
	if len(d.Retrieved) != 1 || d.Retrieved[0].Embedded {
		t.Errorf("retrieved %+v", d.Retrieved)
	}

	for i := range metaschemaPins {
		if metaschemaPins[i].URI == "http://json-schema.org/draft-07/schema" {
			defer func(s string) { metaschemaPins[i].SHA256 = s }(metaschemaPins[i].SHA256)
			metaschemaPins[i].SHA256 = strings.Repeat("0", 64)
		}
	}
	_, err = Load("x.json", doc)
	if err == nil || !strings.Contains(err.Error(), "sha256 mismatch") {
		t.Errorf("a copy that is not the pinned one: %v", err)
	}
}
