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
}

// Locator finds a revision's schema. The zero value reads nothing from the
// environment; NewLocator fills it from the process environment.
type Locator struct {
	// SchemaDir is a directory with <revision>/schema.json files
	// ($MCPGEN_SCHEMA_DIR).
	SchemaDir string
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

// Locate finds the schema of revision. explicit is the --schema flag (a path
// or an http(s) URL), or "". The search order is: explicit; SchemaDir;
// CacheDir; a download from the pinned URL. A pinned revision's bytes must
// match its sha256 wherever they come from. An unpinned revision needs
// explicit.
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
	if !pinned {
		return nil, fmt.Errorf("revision %q is not pinned (pinned: %s); give its schema with --schema PATH|URL",
			revision, strings.Join(Revisions(), ", "))
	}
	var tried []string
	for _, dir := range []string{l.SchemaDir, l.CacheDir} {
		if dir == "" {
			continue
		}
		path := filepath.Join(dir, revision, "schema.json")
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			tried = append(tried, path)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return check(&Source{Data: data, Origin: path})
	}
	if l.Offline {
		return nil, fmt.Errorf("revision %s: no schema found (looked in %s) and downloads are off (MCPGEN_OFFLINE=1); set MCPGEN_SCHEMA_DIR or pass --schema",
			revision, strings.Join(tried, ", "))
	}
	src, err := l.read(ctx, pin.URL)
	if err != nil {
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
