package schema

import (
	"embed"
	"fmt"
	"strings"
)

// The standard metaschemas, offline (docs/references.md): a "$ref" to the
// metaschema of draft-07, 2019-09 or 2020-12 (or to one of the vocabulary
// metaschemas of the last two, under meta/) resolves to the
// copy compiled into mcpgen, never to a download, as the reference
// validator (github.com/santhosh-tekuri/jsonschema) resolves them. A
// --ref-map entry for the URI still comes first. The copies are pinned:
// metaschemaPins lists every one by its URI with the sha256 of its bytes,
// and one whose bytes differ is refused (metaschemas/README.md says where
// they come from).

//go:embed metaschemas/draft-07 metaschemas/draft
var metaschemaFS embed.FS

// metaschemaPins are the embedded metaschemas: the URI a reference names
// (no fragment) and the sha256 of the file. The file is the URI's path
// under metaschemas/.
var metaschemaPins = []struct{ URI, SHA256 string }{
	{"http://json-schema.org/draft-07/schema", "943da3dc9a29dbfbd325aec2ca01cfd6304a1cd53fde2c9775bcca6523f6410e"},
	{"https://json-schema.org/draft/2019-09/meta/applicator", "c18c9d8880297184560f6d82a2fc035211630474d1b2547feaccf221b9786211"},
	{"https://json-schema.org/draft/2019-09/meta/content", "03d8e25955252927e34016e03f51297475ace9de4551839d1b54c9f5736ff6d6"},
	{"https://json-schema.org/draft/2019-09/meta/core", "a3dfd7891bc6ec4a0147289bc99de4cec2a84ff542b2edfac6de95f402907503"},
	{"https://json-schema.org/draft/2019-09/meta/format", "708bad3c6cee27e8c0d5cbf26e41eef6f1c56fec5f91b0eaa471ef2fc521d463"},
	{"https://json-schema.org/draft/2019-09/meta/meta-data", "a72a0fbc2272d9effcc71a159f9c92f0ef4417c0f1677f515767de77b5238a0a"},
	{"https://json-schema.org/draft/2019-09/meta/validation", "e1a3128accd99efc4cc198545479eae1548ce303a96810c1a0a28f022f0489a2"},
	{"https://json-schema.org/draft/2019-09/schema", "9591bb2cf00ab32193870cb6a2ca4c32ae89e254af154f4e971c61a6ee82da03"},
	{"https://json-schema.org/draft/2020-12/meta/applicator", "3b4baccc121371207bcb2d3137b9b93a251b2029df85ecda0ca625ecd1ab9b30"},
	{"https://json-schema.org/draft/2020-12/meta/content", "3be161f2e963fbb8f09a756cc3b02adbe5375fe71020b959213e2b58e92f5886"},
	{"https://json-schema.org/draft/2020-12/meta/core", "ea945e11e766783c05ef2bda8958ef2b64746430b6b7475c1915babbd6c01264"},
	{"https://json-schema.org/draft/2020-12/meta/format-annotation", "59cb0d1d59c430d5d691f4712dc2b4d09ba6dafcb90f7ce14b8f11b07340a6c6"},
	{"https://json-schema.org/draft/2020-12/meta/format-assertion", "4c45dfbf72b09ec8b0cd6c8086c259bd4b1d68b86138d886e8191fc0189270b8"},
	{"https://json-schema.org/draft/2020-12/meta/meta-data", "e070588fd8fac3a0b4bed1dbe1f576ccdb2e32ade3b46bd590150d0b15506859"},
	{"https://json-schema.org/draft/2020-12/meta/unevaluated", "cd2e94b6154c7ab9ee90f8bfa8d8addf9f6ae75a58fc090099605401303653cb"},
	{"https://json-schema.org/draft/2020-12/meta/validation", "000831f2fffd6927b25f9d601e6f0cc6bc8d51ed6c967d63c1449d1f76f8568a"},
	{"https://json-schema.org/draft/2020-12/schema", "0080fa14a942b09f436c55257d1e379c5cb2551f732e678fa06e8009fb7c2582"},
}

// EmbeddedMetaschema returns mcpgen's copy of the standard metaschema with
// the URI uri (its fragment, if any, is ignored), and whether there is
// one. Its bytes are checked against their pinned sha256.
func EmbeddedMetaschema(uri string) ([]byte, bool, error) {
	uri, _, _ = strings.Cut(uri, "#")
	for _, p := range metaschemaPins {
		if p.URI != uri {
			continue
		}
		file := metaschemaFile(p.URI)
		data, err := metaschemaFS.ReadFile(file)
		if err != nil {
			return nil, false, fmt.Errorf("the embedded metaschema %s: %v", uri, err)
		}
		if got := SHA256(data); got != p.SHA256 {
			return nil, false, fmt.Errorf("the embedded metaschema %s (%s): sha256 mismatch: pinned %s, got %s", uri, file, p.SHA256, got)
		}
		return data, true, nil
	}
	return nil, false, nil
}

// metaschemaFile is where the metaschema of a pinned URI is embedded.
func metaschemaFile(uri string) string {
	_, path, _ := strings.Cut(uri, "://json-schema.org/")
	return "metaschemas/" + path
}

// MetaschemaURIs lists the URIs of the embedded metaschemas.
func MetaschemaURIs() []string {
	var out []string
	for _, p := range metaschemaPins {
		out = append(out, p.URI)
	}
	return out
}
