package cli

import (
	"bytes"
	"context"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/schema"
)

const generateSynopsis = `mcpgen generate --revision R [--schema PATH|URL] --out DIR [--package NAME] [--config mcpgen.json] [--check] [--strict]
  mcpgen generate --all [--out DIR] [--check] [--strict]`

// job is one package to generate.
type job struct {
	revision, schemaRef, out, pkg string
}

func runGenerate(ctx context.Context, args []string, env Env) error {
	fs := newFlags("generate", env)
	revision := fs.String("revision", "", "MCP revision to generate, e.g. 2026-07-28 (see 'mcpgen revisions')")
	schemaRef := fs.String("schema", "", "read the schema from this file or http(s) URL instead of looking it up")
	out := fs.String("out", "", "output directory of the package (with --all: the parent directory, default \"generated\")")
	pkg := fs.String("package", "", "Go package name (default: mcp and the revision without dashes)")
	all := fs.Bool("all", false, "generate every pinned revision, each into OUT/<package>")
	check := fs.Bool("check", false, "compare with the files on disk instead of writing; exit 1 when they differ")
	strict := fs.Bool("strict", false, "treat warnings (unknown keywords, unknown formats) as errors")
	configPath := fs.String("config", "", "read customisations from this JSON file (see README: mcpgen.json)")
	renames := fs.StringArray("rename", nil, "give a definition another Go name: DEFINITION=GoName (repeatable)")
	externals := fs.StringArray("external", nil, "use an existing Go type for a definition: DEFINITION=import/path.Type (repeatable)")
	noValidators := fs.Bool("no-validators", false, "leave out Validate and the validation code (needs --no-dispatcher)")
	noDispatcher := fs.Bool("no-dispatcher", false, "leave out the method table, handlers and dispatchers")
	if done, err := parse(fs, args, env, generateSynopsis); done || err != nil {
		return err
	}
	var cfg *config
	if *configPath != "" {
		c, err := readConfig(*configPath)
		if err != nil {
			return err
		}
		cfg = c
	}
	var custom gen.Options
	if err := cfg.apply(&custom, *renames, *externals, *noValidators, *noDispatcher); err != nil {
		return err
	}
	var jobs []job
	switch {
	case *all:
		if *revision != "" || *schemaRef != "" || *pkg != "" {
			return &usageError{"--all generates every pinned revision; it does not combine with --revision, --schema or --package"}
		}
		if custom.Rename != nil || custom.External != nil || custom.NoValidators || custom.NoDispatcher {
			return &usageError{"--all generates this repository's generated/; customisations apply to one revision (--revision)"}
		}
		dir := *out
		if dir == "" {
			dir = "generated"
		}
		for _, p := range schema.Pins {
			jobs = append(jobs, job{revision: p.Revision, out: filepath.Join(dir, p.Package()), pkg: p.Package()})
		}
	default:
		if *revision == "" {
			return &usageError{"generate needs --revision (or --all)"}
		}
		if *out == "" {
			return &usageError{"generate needs --out DIR"}
		}
		name := *pkg
		if name == "" {
			name = schema.PackageName(*revision)
		}
		if !token.IsIdentifier(name) || token.IsKeyword(name) {
			return &usageError{fmt.Sprintf("--package %q is not a valid Go package name", name)}
		}
		jobs = append(jobs, job{revision: *revision, schemaRef: *schemaRef, out: *out, pkg: name})
	}
	// Generate the packages concurrently (each writes its messages to a
	// buffer, printed in order), then check or write them in order.
	type result struct {
		files  gen.Files
		err    error
		stderr bytes.Buffer
	}
	results := make([]*result, len(jobs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, j := range jobs {
		results[i] = &result{}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			r := results[i]
			jenv := env
			jenv.Stderr = &r.stderr
			r.files, r.err = generateOne(ctx, j, *strict, custom, jenv)
		}()
	}
	wg.Wait()
	stale := 0
	for i, j := range jobs {
		env.Stderr.Write(results[i].stderr.Bytes())
		files, err := results[i].files, results[i].err
		if err != nil {
			return err
		}
		if *check {
			diffs, err := compareDir(j.out, files)
			if err != nil {
				return err
			}
			if len(diffs) > 0 {
				stale++
				fmt.Fprintf(env.Stderr, "mcpgen: %s is stale (%s); run mcpgen generate to update it:\n", j.out, plural(len(diffs), "file differs", "files differ"))
				for _, d := range diffs {
					fmt.Fprintf(env.Stderr, "  %s\n", d)
				}
			}
			continue
		}
		if err := writeDir(j.out, files); err != nil {
			return err
		}
	}
	if stale > 0 {
		return &exitError{code: ExitStale}
	}
	return nil
}

// generateOne finds the schema of a job and generates its files.
func generateOne(ctx context.Context, j job, strict bool, custom gen.Options, env Env) (gen.Files, error) {
	src, err := locate(ctx, env, j.revision, j.schemaRef)
	if err != nil {
		return nil, err
	}
	sum := schema.SHA256(src.Data)
	opts := gen.Options{Package: j.pkg, Revision: j.revision, Source: gen.SourceInfo{URL: src.Origin, SHA256: sum}}
	if src.Pin != nil {
		opts = gen.PinnedOptions(*src.Pin)
		opts.Package = j.pkg
	}
	opts.Rename, opts.External = custom.Rename, custom.External
	opts.NoValidators, opts.NoDispatcher = custom.NoValidators, custom.NoDispatcher
	opts.Strict = strict
	files, warns, err := gen.Generate(src.Origin, src.Data, opts)
	printWarnings(env, warns)
	return files, err
}

// locate finds the schema of a revision (explicit is a --schema flag, or
// ""), says so when the revision is not pinned, and caches a download.
func locate(ctx context.Context, env Env, revision, explicit string) (*schema.Source, error) {
	src, err := env.Locator.Locate(ctx, revision, explicit)
	if err != nil {
		return nil, err
	}
	if src.Pin == nil {
		fmt.Fprintf(env.Stderr, "mcpgen: revision %s is not pinned; %s has sha256 %s (add it to schema/pins.go to pin it)\n", revision, src.Origin, schema.SHA256(src.Data))
	}
	if src.Downloaded {
		if path := env.Locator.CachePath(revision); path != "" {
			if err := writeFileAtomic(path, src.Data); err != nil {
				fmt.Fprintf(env.Stderr, "mcpgen: warning: could not cache the schema: %v\n", err)
			}
		}
	}
	return src, nil
}

// isGenerated reports whether a file on disk was written by mcpgen.
func isGenerated(name string, data []byte) bool {
	if strings.HasSuffix(name, ".go") {
		return bytes.HasPrefix(data, []byte("// "+gen.Header))
	}
	return name == "README.md" && bytes.Contains(data, []byte("Do not edit: regenerate instead."))
}

// compareDir lists how dir differs from files.
func compareDir(dir string, files gen.Files) ([]string, error) {
	var diffs []string
	for _, name := range files.Names() {
		old, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case os.IsNotExist(err):
			diffs = append(diffs, "missing: "+name)
		case err != nil:
			return nil, err
		case !bytes.Equal(old, files[name]):
			added, removed := lineDelta(old, files[name])
			diffs = append(diffs, fmt.Sprintf("changed: %s (+%d -%d lines)", name, added, removed))
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || files[e.Name()] != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err == nil && isGenerated(e.Name(), data) {
			diffs = append(diffs, "extra: "+e.Name()+" (generated by mcpgen, no longer produced)")
		}
	}
	return diffs, nil
}

// lineDelta counts lines only in b (added) and only in a (removed), as
// multisets: a summary, not a diff.
func lineDelta(a, b []byte) (added, removed int) {
	count := map[string]int{}
	for _, l := range strings.Split(string(a), "\n") {
		count[l]++
	}
	for _, l := range strings.Split(string(b), "\n") {
		if count[l] > 0 {
			count[l]--
		} else {
			added++
		}
	}
	for _, n := range count {
		removed += n
	}
	return added, removed
}

// writeDir writes files into dir. Everything is written to a temporary
// directory next to dir first, so a failure leaves dir as it was; then the
// files are renamed into place and generated files that are no longer
// produced are removed. Files mcpgen did not write are left alone.
func writeDir(dir string, files gen.Files) error {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("cannot create the output directory: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, ".mcpgen-*")
	if err != nil {
		return fmt.Errorf("cannot write the output directory %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp)
	for _, name := range files.Names() {
		if err := os.WriteFile(filepath.Join(tmp, name), files[name], 0o644); err != nil {
			return fmt.Errorf("cannot write the output directory %s: %w", dir, err)
		}
	}
	if fi, err := os.Stat(dir); os.IsNotExist(err) {
		if err := os.Rename(tmp, dir); err != nil {
			return fmt.Errorf("cannot create %s: %w", dir, err)
		}
		return nil
	} else if err != nil {
		return err
	} else if !fi.IsDir() {
		return fmt.Errorf("output %s exists and is not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || files[e.Name()] != nil {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if data, err := os.ReadFile(path); err == nil && isGenerated(e.Name(), data) {
			if err := os.Remove(path); err != nil {
				return err
			}
		}
	}
	for _, name := range files.Names() {
		if err := os.Rename(filepath.Join(tmp, name), filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("cannot write %s: %w", filepath.Join(dir, name), err)
		}
	}
	return nil
}

// writeFileAtomic writes a file through a temporary file and a rename.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
