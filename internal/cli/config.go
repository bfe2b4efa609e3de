package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/gen"
)

// config is mcpgen.json: the customisations of a generated package. JSON,
// so that mcpgen needs no YAML library. Example:
//
//	{
//	  "rename":     {"ContentBlock": "Content"},
//	  "external":   {"Implementation": "example.com/app/info.Info"},
//	  "emit":       ["types", "validators"],
//	  "serveOlder": ["2025-11-25", "2025-06-18"]
//	}
type config struct {
	// Rename gives definitions other Go names.
	Rename map[string]string `json:"rename"`
	// External maps definitions to existing Go types, "import/path.Type".
	External map[string]string `json:"external"`
	// Emit lists the parts to generate: "types" (always), "validators",
	// "dispatcher". Absent means all three.
	Emit []string `json:"emit"`
	// Formats is "assert" (the default: the validators check "format")
	// or "annotate" (format is an annotation, as 2020-12 has it).
	Formats string `json:"formats"`
	// ServeOlder lists older revisions whose peers the package serves
	// too, converting their messages (--serve-older, which takes
	// precedence).
	ServeOlder []string `json:"serveOlder"`
	// RefMap gives local copies of the documents a $ref names, by URI
	// (--ref-map, which takes precedence): a file, or with a URI that
	// ends in "/", a directory. Paths are relative to the config file.
	RefMap map[string]string `json:"refMap"`
	// ProtocolVersion is the protocolVersion the package speaks
	// (--protocol-version, which takes precedence).
	ProtocolVersion string `json:"protocolVersion"`
}

var emitParts = []string{"types", "validators", "dispatcher"}

// readConfig reads and checks a config file.
func readConfig(path string) (*config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c config
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %v (see \"mcpgen.json\" in mcpgen's docs/generating.md)", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: data after the JSON object", path)
	}
	for _, p := range c.Emit {
		if !slices.Contains(emitParts, p) {
			return nil, fmt.Errorf("%s: emit: unknown part %q (want %s)", path, p, strings.Join(emitParts, ", "))
		}
	}
	if c.Emit != nil && !slices.Contains(c.Emit, "types") {
		return nil, fmt.Errorf("%s: emit: \"types\" is always generated; list it", path)
	}
	if c.Formats != "" && !validFormats(c.Formats) {
		return nil, fmt.Errorf("%s: formats: %q is neither \"assert\" nor \"annotate\"", path, c.Formats)
	}
	return &c, nil
}

func validFormats(f string) bool {
	return f == string(gen.FormatsAssert) || f == string(gen.FormatsAnnotate)
}

// apply merges the config and the command-line customisations into opts.
func (c *config) apply(opts *gen.Options, renames, externals []string, noValidators, noDispatcher bool, formats string) error {
	rename := map[string]string{}
	external := map[string]gen.ExternalType{}
	if formats != "" && !validFormats(formats) {
		return &usageError{fmt.Sprintf("--formats %q: want assert or annotate", formats)}
	}
	if formats == "" && c != nil {
		formats = c.Formats
	}
	opts.Formats = gen.Formats(formats)
	if c != nil {
		for k, v := range c.Rename {
			rename[k] = v
		}
		for k, v := range c.External {
			t, err := parseExternal(v)
			if err != nil {
				return fmt.Errorf("external %s: %v", k, err)
			}
			external[k] = t
		}
		if c.Emit != nil {
			noValidators = noValidators || !slices.Contains(c.Emit, "validators")
			noDispatcher = noDispatcher || !slices.Contains(c.Emit, "dispatcher")
		}
	}
	for _, r := range renames {
		k, v, ok := strings.Cut(r, "=")
		if !ok || k == "" || v == "" {
			return &usageError{fmt.Sprintf("--rename %q: want DEFINITION=GoName", r)}
		}
		rename[k] = v
	}
	for _, r := range externals {
		k, v, ok := strings.Cut(r, "=")
		if !ok || k == "" {
			return &usageError{fmt.Sprintf("--external %q: want DEFINITION=import/path.Type", r)}
		}
		t, err := parseExternal(v)
		if err != nil {
			return &usageError{fmt.Sprintf("--external %q: %v", r, err)}
		}
		external[k] = t
	}
	for k := range rename {
		if _, ok := external[k]; ok {
			return &usageError{fmt.Sprintf("definition %s is both renamed and mapped to an external type", k)}
		}
	}
	if len(rename) > 0 {
		opts.Rename = rename
	}
	if len(external) > 0 {
		opts.External = external
	}
	opts.NoValidators, opts.NoDispatcher = noValidators, noDispatcher
	return nil
}

// applyRefMap merges the config's refMap (its paths relative to the
// config file) and the --ref-map flags into opts.Refs.Map.
func (c *config) applyRefMap(opts *gen.Options, configPath string, flags []string) error {
	m := map[string]string{}
	if c != nil {
		for k, v := range c.RefMap {
			if !filepath.IsAbs(v) {
				v = filepath.Join(filepath.Dir(configPath), v)
			}
			m[k] = v
		}
	}
	for _, f := range flags {
		k, v, ok := strings.Cut(f, "=")
		if !ok || k == "" || v == "" {
			return &usageError{fmt.Sprintf("--ref-map %q: want URI=FILE (or URI/=DIR/)", f)}
		}
		m[k] = v
	}
	if len(m) > 0 {
		opts.Refs.Map = m
	}
	return nil
}

// parseExternal splits "import/path.Type".
func parseExternal(s string) (gen.ExternalType, error) {
	i := strings.LastIndexByte(s, '.')
	if i <= 0 || i == len(s)-1 || strings.LastIndexByte(s, '/') > i {
		return gen.ExternalType{}, fmt.Errorf("%q is not import/path.Type", s)
	}
	return gen.ExternalType{ImportPath: s[:i], Name: s[i+1:]}, nil
}
