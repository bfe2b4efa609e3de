package schema

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Source is the bytes of one revision's schema and where they came from.
type Source struct {
	Revision string
	Data     []byte
	Origin   string // file path or URL
	Pin      *Pin   // nil when the revision is not pinned
	// Downloaded is set when the bytes came from the network; the caller
	// may then store them in the cache (CachePath).
	Downloaded bool
	// Embedded is set when the bytes are the copy compiled into mcpgen.
	Embedded bool
}

// Locator finds a revision's schema. The zero value reads the copies
// embedded in mcpgen and nothing from the environment; NewLocator adds the
// environment's schema directory, cache and download setting.
type Locator struct {
	// SchemaDir is a directory with <revision>/schema.json files
	// ($MCPGEN_SCHEMA_DIR).
	SchemaDir string
	// NoEmbedded skips the copies of the pinned revisions compiled into
	// mcpgen (for tests of the other sources).
	NoEmbedded bool
	// CacheDir holds schemas downloaded earlier, as <revision>/schema.json.
	CacheDir string
	// Offline forbids downloads.
	Offline bool
	// Get fetches a URL; nil means net/http with a timeout.
	Get func(ctx context.Context, url string) ([]byte, error)
}

// NewLocator returns a Locator configured from the environment:
// MCPGEN_SCHEMA_DIR, the user cache directory (os.UserCacheDir()/mcpgen), and
// MCPGEN_OFFLINE=1 to forbid downloads.
func NewLocator() *Locator {
	l := &Locator{SchemaDir: os.Getenv("MCPGEN_SCHEMA_DIR"), Offline: os.Getenv("MCPGEN_OFFLINE") == "1"}
	if dir, err := os.UserCacheDir(); err == nil {
		l.CacheDir = filepath.Join(dir, "mcpgen")
	}
	return l
}

// CachePath is where a downloaded revision is cached.
func (l *Locator) CachePath(revision string) string {
	if l.CacheDir == "" {
		return ""
	}
	return filepath.Join(l.CacheDir, revision, "schema.json")
}

// UpstreamURL is where a revision that mcpgen has not pinned is downloaded
// from: its schema.json on the main branch of the upstream repository.
func UpstreamURL(revision string) string {
	return "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/main/schema/" + revision + "/schema.json"
}

// Locate finds the schema of revision. explicit is the --schema flag (a path
// or an http(s) URL), or "". The search order is: explicit; SchemaDir; the
// copy embedded in mcpgen (pinned revisions); CacheDir; a download (from
// the pinned URL, or UpstreamURL for a revision mcpgen has not pinned). A
// pinned revision's bytes must match its sha256 wherever they come from.
func (l *Locator) Locate(ctx context.Context, revision, explicit string) (*Source, error) {
	pin, pinned := Lookup(revision)
	var pp *Pin
	if pinned {
		pp = &pin
	}
	check := func(src *Source) (*Source, error) {
		src.Revision, src.Pin = revision, pp
		if pinned {
			if err := pin.Verify(src.Origin, src.Data); err != nil {
				return nil, err
			}
		}
		return src, nil
	}
	if explicit != "" {
		src, err := l.read(ctx, explicit)
		if err != nil {
			return nil, err
		}
		return check(src)
	}
	if !ValidRevisionName(revision) {
		return nil, fmt.Errorf("%q is not a revision name (pinned: %s); give a schema with --schema PATH|URL",
			revision, strings.Join(Revisions(), ", "))
	}
	var tried []string
	readDir := func(dir string) (*Source, error) {
		path := filepath.Join(dir, revision, "schema.json")
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			tried = append(tried, path)
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return check(&Source{Data: data, Origin: path})
	}
	if l.SchemaDir != "" {
		if src, err := readDir(l.SchemaDir); src != nil || err != nil {
			return src, err
		}
	}
	if !l.NoEmbedded {
		if data, ok := Embedded(revision); ok {
			return check(&Source{Data: data, Origin: "mcpgen's embedded copy of " + revision, Embedded: true})
		}
	}
	if l.CacheDir != "" {
		if src, err := readDir(l.CacheDir); src != nil || err != nil {
			return src, err
		}
	}
	url := pin.URL
	if !pinned {
		url = UpstreamURL(revision)
	}
	if l.Offline {
		where := ""
		if len(tried) > 0 {
			where = "it is not in " + strings.Join(tried, " or ") + ", and "
		}
		if !pinned {
			return nil, fmt.Errorf("revision %s is not pinned (pinned: %s); %sdownloads are off (MCPGEN_OFFLINE=1): give its schema with --schema PATH|URL",
				revision, strings.Join(Revisions(), ", "), where)
		}
		return nil, fmt.Errorf("revision %s: no schema found; %sdownloads are off (MCPGEN_OFFLINE=1): set MCPGEN_SCHEMA_DIR or pass --schema",
			revision, where)
	}
	src, err := l.read(ctx, url)
	if err != nil {
		if !pinned {
			err = fmt.Errorf("revision %s is not pinned (pinned: %s), and %w; give its schema with --schema PATH|URL",
				revision, strings.Join(Revisions(), ", "), err)
		}
		if len(tried) > 0 {
			return nil, fmt.Errorf("%w (also looked in %s)", err, strings.Join(tried, ", "))
		}
		return nil, err
	}
	src.Downloaded = true
	return check(src)
}

func (l *Locator) read(ctx context.Context, ref string) (*Source, error) {
	if strings.HasPrefix(ref, "http://") || strings.HasPrefix(ref, "https://") {
		get := l.Get
		if get == nil {
			get = httpGet
		}
		data, err := get(ctx, ref)
		if err != nil {
			return nil, fmt.Errorf("%s: download failed: %w", ref, err)
		}
		return &Source{Data: data, Origin: ref}, nil
	}
	data, err := os.ReadFile(ref)
	if err != nil {
		return nil, err
	}
	return &Source{Data: data, Origin: ref}, nil
}

// maxSchemaSize bounds a download: the largest MCP schema is under 200 KB.
const maxSchemaSize = 64 << 20

func httpGet(ctx context.Context, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %s", resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxSchemaSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxSchemaSize {
		return nil, fmt.Errorf("larger than %d bytes", maxSchemaSize)
	}
	return data, nil
}
