package schema

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// How references resolve (docs/references.md):
//
//   - Every document, and every subschema with an "$id" ("id" in
//     draft-04), is a schema resource with an absolute URI: the "$id"
//     resolved against the base URI around it. A document read from disk
//     has the base file:///its/absolute/path; one given as bytes alone has
//     file:///NAME.
//   - "$anchor", "$dynamicAnchor" (2020-12) and a fragment-only "$id"
//     (draft-06 and -07: "$id": "#foo"; draft-04's "id") name a subschema
//     of their resource by a plain fragment (#foo).
//   - A "$ref" resolves against the base URI of the node that holds it
//     (2020-12: its own "$id" first; earlier drafts ignore an "$id" next to
//     "$ref"). The resource is looked up among the documents loaded so
//     far; a URI no loaded document has is read from RefOptions: the map,
//     then a file beside the document (file: URIs), then, for http(s) and
//     only when allowed, a download. The fragment is a JSON pointer into
//     the resource or one of its anchors. The standard metaschemas
//     (draft-07, 2019-09, 2020-12) come from mcpgen's pinned copies when the map
//     does not give them (metaschemas.go).
//   - "$dynamicRef" resolves the same way (the static target). When its
//     fragment is a plain name and the static target has a $dynamicAnchor
//     of that name, the validators resolve it again at run time: to the
//     first resource of the dynamic scope (the outermost) with a
//     $dynamicAnchor of that name (Schema.Dynamic, Resource.Dynamic).

// RefOptions say where the documents a schema refers to come from.
type RefOptions struct {
	// Dir is the directory of the schema file. A reference to another
	// file is read from disk, relative to the file that holds the
	// reference; "" reads no file (the reference is an error that says
	// so).
	Dir string
	// Map gives local copies of documents by URI: a key names one
	// document's URI (its fragment, if any, is ignored), or ends in "/"
	// and maps every URI under it to the same relative path under its
	// value (a directory). Values are file paths.
	Map map[string]string
	// Download allows an http(s) reference the map does not cover to be
	// read from CacheDir or downloaded with Get; never when Offline.
	Download bool
	Offline  bool
	// CacheDir holds downloads (CachePath); the caller stores what was
	// downloaded (Document.Retrieved) there.
	CacheDir string
	// Get fetches a URL; nil means net/http with a timeout.
	Get func(ctx context.Context, url string) ([]byte, error)
	// BaseURI is the URI the schema was read from when it is not a file
	// (--schema URL): relative references resolve against it.
	BaseURI string
	// Retrieved, when set, is told of every document a reference brings
	// in, as it is read (Document.Retrieved lists them too).
	Retrieved func(*Retrieved)
}

// RefCachePath is where a downloaded reference is kept under cacheDir:
// refs/ and the hex sha256 of its URI, with .json.
func RefCachePath(cacheDir, uri string) string {
	sum := sha256.Sum256([]byte(uri))
	return filepath.Join(cacheDir, "refs", hex.EncodeToString(sum[:])+".json")
}

// Retrieved is a document besides the schema that a reference brought in.
type Retrieved struct {
	URI    string // the URI references name it by (no fragment)
	File   string // the file it was read from, as messages name it
	SHA256 string // of its bytes
	// Downloaded is set when the bytes came from the network; Data holds
	// them so that the caller can store them in the cache. Cached is set
	// when they came from the cache, Embedded when they are mcpgen's copy
	// of a standard metaschema.
	Downloaded, Cached, Embedded bool
	Data                         []byte
}

// srcDoc is one document the loader reads: the schema, or a document a
// reference brought in.
type srcDoc struct {
	file   string // name in messages
	prefix string // of the pointers of its nodes: "" for the schema, else file + "#"
	uri    string // the URI it was retrieved by
	path   string // OS path when read from disk
	root   *Value
	draft  Draft
}

// resource is a schema resource of a loaded document.
type resource struct {
	uri     string
	doc     *srcDoc
	root    *Value
	anchors map[string]*Value // $anchor, $dynamicAnchor, "$id": "#name"
	dynamic map[string]*Value // $dynamicAnchor
	model   *Resource
}

// Resource is a schema resource, as the validators of dynamic references
// need it.
type Resource struct {
	URI string // absolute, no fragment
	// Dynamic are its $dynamicAnchors that some bookended $dynamicRef
	// names, by name (nil when none).
	Dynamic map[string]*Schema
}

// DynamicRef says that a node's reference ($dynamicRef) is resolved again
// at run time: Schema.Ref is its static target, and the validators use
// instead the outermost resource of the dynamic scope whose
// Resource.Dynamic has Name, when there is one.
type DynamicRef struct {
	Name string
}

// fileURI is the URI of a file on disk.
func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

// resolveURI resolves ref against the absolute URI base.
func resolveURI(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	return b.ResolveReference(r).String(), nil
}

// splitFragment splits a URI into its part before "#" and its fragment
// (as written, not unescaped).
func splitFragment(u string) (string, string) {
	abs, frag, _ := strings.Cut(u, "#")
	return abs, frag
}

// newResource registers a resource under its URI; the first one of a URI
// keeps it.
func (l *loader) newResource(uri string, d *srcDoc, root *Value) *resource {
	r := &resource{uri: uri, doc: d, root: root, anchors: map[string]*Value{}, dynamic: map[string]*Value{}}
	if _, taken := l.resources[uri]; !taken {
		l.resources[uri] = r
		l.resourceOrder = append(l.resourceOrder, r)
	}
	return r
}

// indexDoc walks document d's schema positions, recording for every node its
// resource, and for every resource its anchors.
func (l *loader) indexDoc(d *srcDoc) {
	r := l.newResource(d.uri, d, d.root)
	l.indexNode(d, d.root, r)
}

// schemaMembers are the keywords whose value is a schema, an array of
// schemas or an object of schemas (in any draft mcpgen reads).
var (
	schemaKeywords = []string{"additionalProperties", "additionalItems", "contains", "not", "if", "then", "else",
		"propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "items"}
	schemaListKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
	schemaMapKeywords  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)

func (l *loader) indexNode(d *srcDoc, v *Value, r *resource) {
	if _, seen := l.res[v]; seen {
		return
	}
	if v.Kind != Object {
		l.res[v] = r
		return
	}
	idKey := "$id"
	if d.draft == Draft04 {
		idKey = "id"
	}
	// Before 2019-09 the keywords next to "$ref" are ignored, "$id" too.
	ignoreID := d.draft.refSiblingsIgnored() && v.Get("$ref") != nil
	if id := v.Get(idKey); id != nil && id.Kind == String && !ignoreID {
		if u, err := resolveURI(r.uri, id.Str); err == nil {
			abs, frag := splitFragment(u)
			switch {
			case v == d.root && abs != r.uri:
				// The document's own $id: its resource has both URIs.
				r.uri = abs
				if _, taken := l.resources[abs]; !taken {
					l.resources[abs] = r
				}
			case abs != r.uri:
				r = l.newResource(abs, d, v)
			}
			if frag != "" && d.draft != Draft202012 && !strings.HasPrefix(frag, "/") {
				l.addAnchor(r.anchors, frag, v)
			}
		}
	}
	l.res[v] = r
	if d.draft == Draft202012 {
		if a := v.Get("$anchor"); a != nil && a.Kind == String {
			l.addAnchor(r.anchors, a.Str, v)
		}
		if a := v.Get("$dynamicAnchor"); a != nil && a.Kind == String {
			l.addAnchor(r.anchors, a.Str, v)
			if _, dup := r.dynamic[a.Str]; !dup {
				r.dynamic[a.Str] = v
			}
		}
	}
	for _, m := range v.Members {
		switch {
		case m.Value.Kind == Array && slices.Contains(schemaListKeywords, m.Name):
			for _, it := range m.Value.Items {
				l.indexNode(d, it, r)
			}
		case m.Value.Kind == Object && slices.Contains(schemaMapKeywords, m.Name):
			for _, mm := range m.Value.Members {
				if mm.Value.Kind == Object || mm.Value.Kind == Bool {
					l.indexNode(d, mm.Value, r)
				}
			}
		case (m.Value.Kind == Object || m.Value.Kind == Bool) && slices.Contains(schemaKeywords, m.Name):
			l.indexNode(d, m.Value, r)
		}
	}
}

func (l *loader) addAnchor(anchors map[string]*Value, name string, v *Value) {
	if prev, dup := anchors[name]; dup && prev != v {
		l.errorf(v.Pointer, "anchor %q is defined twice in one schema resource (also at %s)", name, displayPointer(prev.Pointer))
		return
	}
	anchors[name] = v
}

// resourceOf is the resource of a schema value: the one the index
// recorded, else (a value reached by a JSON pointer through a keyword the
// index does not walk) the nearest indexed value above it.
func (l *loader) resourceOf(d *srcDoc, v *Value) *resource {
	if r, ok := l.res[v]; ok {
		return r
	}
	p := v.Pointer
	for p != "" {
		p = p[:strings.LastIndexByte(p, '/')]
		if pv, ok := lookupPointer(d.root, p, nil); ok {
			if r, ok := l.res[pv]; ok {
				return r
			}
		}
	}
	return l.res[d.root]
}

// target is where a reference leads.
type target struct {
	doc *srcDoc
	val *Value
	// anchor is the plain-name fragment the reference used, "" for a
	// JSON pointer.
	anchor string
	res    *resource
}

// resolve finds what the reference ref, held by the node v of the current
// document, refers to. The error is the message of a diagnostic at the
// reference.
func (l *loader) resolve(v *Value, ref string) (target, error) {
	r := l.resourceOf(l.cur, v)
	u, err := resolveURI(r.uri, ref)
	if err != nil {
		return target{}, fmt.Errorf("$ref %q is not a URI reference: %v", ref, err)
	}
	abs, frag := splitFragment(u)
	res := l.resources[abs]
	if res == nil {
		res, err = l.retrieve(abs, ref)
		if err != nil {
			return target{}, err
		}
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		name, err := url.PathUnescape(frag)
		if err != nil {
			name = frag
		}
		a, ok := res.anchors[name]
		if !ok {
			return target{}, fmt.Errorf("$ref %q does not resolve: %s has no anchor %q", ref, l.resourceName(res), name)
		}
		return target{doc: res.doc, val: a, anchor: name, res: res}, nil
	}
	val, ok := lookupPointer(res.root, frag, l.member)
	if !ok {
		return target{}, fmt.Errorf("$ref %q does not resolve: nothing at that pointer", ref)
	}
	return target{doc: res.doc, val: val, res: res}, nil
}

// resourceName names a resource in messages: its file, or its URI.
func (l *loader) resourceName(r *resource) string {
	if r.root == r.doc.root {
		if r.doc == l.docs[0] {
			return "the schema"
		}
		return r.doc.file
	}
	return fmt.Sprintf("the resource %s (%s)", r.uri, displayPointer(r.doc.prefix+r.root.Pointer))
}

// retrieve loads the document of the absolute URI abs (which no loaded
// document has), as ref (the reference as written) asked for it.
func (l *loader) retrieve(abs, ref string) (*resource, error) {
	if file, ok := l.mapped(abs); ok {
		return l.readDoc(abs, file, "", ref)
	}
	if data, ok, err := EmbeddedMetaschema(abs); err != nil {
		return nil, fmt.Errorf("$ref %q: %v", ref, err)
	} else if ok {
		return l.addDoc(abs, "mcpgen's embedded copy of "+abs, "", data, false)
	}
	u, _ := url.Parse(abs)
	switch {
	case u != nil && u.Scheme == "file":
		p := filepath.FromSlash(u.Path)
		if l.opts.Dir == "" {
			return nil, fmt.Errorf("$ref %q refers to another file, %s, and mcpgen reads other files only beside a schema it reads from disk", ref, path.Base(u.Path))
		}
		return l.readDoc(abs, p, "", ref)
	case u != nil && (u.Scheme == "http" || u.Scheme == "https"):
		return l.download(abs, ref)
	}
	return nil, fmt.Errorf("$ref %q does not resolve: no document mcpgen has read has the URI %s", ref, abs)
}

// mapped finds the local copy RefOptions.Map gives for abs: its own entry,
// else the longest directory entry (a key ending in "/") above it.
func (l *loader) mapped(abs string) (string, bool) {
	if f, ok := l.refMap[abs]; ok {
		return f, true
	}
	best := ""
	for k := range l.refMap {
		if strings.HasSuffix(k, "/") && strings.HasPrefix(abs, k) && len(k) > len(best) {
			best = k
		}
	}
	if best == "" {
		return "", false
	}
	return filepath.Join(l.refMap[best], filepath.FromSlash(strings.TrimPrefix(abs, best))), true
}

// download reads an http(s) document from the cache or the network, when
// the options allow it.
func (l *loader) download(abs, ref string) (*resource, error) {
	if !l.opts.Download || l.opts.Offline {
		why := "give mcpgen a local copy with --ref-map " + abs + "=FILE (or \"refMap\" in mcpgen.json), or let it download with --download-refs"
		if l.opts.Download {
			why = "--download-refs is given, but downloads are off (MCPGEN_OFFLINE=1): give mcpgen a local copy with --ref-map " + abs + "=FILE (or \"refMap\" in mcpgen.json)"
		}
		return nil, fmt.Errorf("$ref %q is a remote reference (%s): %s", ref, abs, why)
	}
	if l.opts.CacheDir != "" {
		cached := RefCachePath(l.opts.CacheDir, abs)
		if _, err := os.Stat(cached); err == nil {
			return l.readDoc(abs, cached, cached, ref)
		}
	}
	get := l.opts.Get
	if get == nil {
		get = httpGet
	}
	data, err := get(context.Background(), abs)
	if err != nil {
		return nil, fmt.Errorf("$ref %q: downloading %s failed: %v", ref, abs, err)
	}
	return l.addDoc(abs, abs, "", data, true)
}

// readDoc reads the document of URI abs from the file p; display names it
// in messages ("" for p relative to the schema's directory).
func (l *loader) readDoc(abs, p, display, ref string) (*resource, error) {
	if display == "" {
		display = filepath.ToSlash(p)
		if l.opts.Dir != "" {
			if dir, err := filepath.Abs(l.opts.Dir); err == nil {
				if ap, err := filepath.Abs(p); err == nil {
					if rel, err := filepath.Rel(dir, ap); err == nil {
						display = filepath.ToSlash(rel)
					}
				}
			}
		}
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("$ref %q does not resolve: there is no file %s", ref, display)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", display, err)
	}
	return l.addDoc(abs, display, p, data, false)
}

// addDoc parses and indexes a document a reference brought in.
func (l *loader) addDoc(abs, display, p string, data []byte, downloaded bool) (*resource, error) {
	if enc := unicodeEncoding(data); enc != "" {
		return nil, fmt.Errorf("%s is %s, not UTF-8", display, enc)
	}
	data = trimBOM(data)
	root, err := Parse(data)
	if err != nil {
		var pe *PosError
		if errors.As(err, &pe) && pe.Pointer != "" {
			return nil, fmt.Errorf("%s: %s: malformed JSON: %v", display, pe.Pointer, pe)
		}
		return nil, fmt.Errorf("%s: malformed JSON: %v", display, err)
	}
	if root.Kind != Object && root.Kind != Bool {
		return nil, fmt.Errorf("%s is a JSON %s, not a schema", display, root.Kind)
	}
	d := &srcDoc{file: display, prefix: display + "#", uri: abs, path: p, root: root, draft: l.docs[0].draft}
	if root.Kind == Object {
		dr, notes, _, errMsg := dialectOf(root, d.draft)
		if errMsg != "" {
			return nil, fmt.Errorf("%s: %s", display, errMsg)
		}
		for _, n := range notes {
			l.warnings = append(l.warnings, &Diagnostic{File: display, Pointer: n.ptr, Message: n.msg})
		}
		d.draft = dr
	}
	l.docs = append(l.docs, d)
	rd := &Retrieved{URI: abs, File: display, SHA256: SHA256(data), Downloaded: downloaded, Data: keepIf(downloaded, data),
		Cached:   l.opts.CacheDir != "" && p == RefCachePath(l.opts.CacheDir, abs),
		Embedded: p == "" && !downloaded}
	l.retrieved = append(l.retrieved, rd)
	if l.opts.Retrieved != nil {
		l.opts.Retrieved(rd)
	}
	prev := l.enter(d)
	l.indexDoc(d)
	l.enter(prev)
	return l.resources[abs], nil
}

func keepIf(keep bool, data []byte) []byte {
	if keep {
		return data
	}
	return nil
}

func trimBOM(data []byte) []byte {
	if len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf {
		return data[3:]
	}
	return data
}

// lookupPointer finds the value at a JSON pointer below root (fragment
// %XX escapes allowed). member, when not nil, looks up object members.
func lookupPointer(root *Value, frag string, member func(*Value, string) *Value) (*Value, bool) {
	if strings.Contains(frag, "%") {
		dec, err := unescapeFragment(frag)
		if err != nil {
			return nil, false
		}
		frag = dec
	}
	if member == nil {
		member = (*Value).Get
	}
	v := root
	if frag == "" {
		return v, true
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = UnescapePointer(tok)
		switch v.Kind {
		case Object:
			next := member(v, tok)
			if next == nil {
				return nil, false
			}
			v = next
		case Array:
			i, ok := arrayIndex(tok, len(v.Items))
			if !ok {
				return nil, false
			}
			v = v.Items[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// arrayIndex reads a JSON pointer token as an index into an array of n.
func arrayIndex(tok string, n int) (int, bool) {
	i, err := strconv.Atoi(tok)
	if err != nil || i < 0 || i >= n || strconv.Itoa(i) != tok {
		return 0, false
	}
	return i, true
}

// dynamicNames are the names of the dynamic anchors the bookended
// $dynamicRefs use, sorted.
func (l *loader) dynamicNames() []string {
	seen := map[string]bool{}
	for _, s := range l.dynamicRefs {
		if s.Dynamic != nil {
			seen[s.Dynamic.Name] = true
		}
	}
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
