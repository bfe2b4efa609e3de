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

const generateSynopsis = `mcpgen generate --revision R [--schema PATH|URL] --out DIR [--package NAME] [--protocol-version V] [--serve-older R1,R2,... | --newest-only] [--config mcpgen.json] [--formats assert|annotate] [--root-name NAME] [--ref-map URI=FILE] [--download-refs] [--check] [--strict]
  mcpgen generate --all [--out DIR] [--check] [--strict]`

// job is one package to generate.
type job struct {
	revision, schemaRef, out, pkg string
	// older are the older revisions this one converts to and from
	// (--serve-older): their schemas are read, not generated.
	older []job
	// own: the customisations apply (the package the flags name, not one
	// generated for --serve-older).
	own bool
}

// generateFlags are the flags of mcpgen generate.
type generateFlags struct {
	revision, schemaRef, out, pkg string
	all, check, strict            bool
	serveOlder                    []string
	// newestOnly (--newest-only) turns off the older revisions a
	// revision without an initialize handshake serves by default.
	newestOnly bool
	custom     gen.Options // renames, external types, what to leave out
	// The customisation flags as given, for the command line the package
	// documents.
	configPath                 string
	renames, externals         []string
	noValidators, noDispatcher bool
	rootName, formats          string
	refMaps                    []string
	downloadRefs               bool
	// protocolVersion is --protocol-version (or the config's).
	protocolVersion string
}

// runGenerate is mcpgen generate: read the flags, decide the packages to
// generate, generate them, then check or write them.
func runGenerate(ctx context.Context, args []string, env Env) error {
	fl, done, err := parseGenerateFlags(args, env)
	if done || err != nil {
		return err
	}
	jobs, err := generateJobs(fl)
	if err != nil {
		return err
	}
	results := generateAll(ctx, jobs, fl, env)
	return checkOrWrite(jobs, results, fl.check, env)
}

// parseGenerateFlags reads the flags and the --config file.
func parseGenerateFlags(args []string, env Env) (fl generateFlags, done bool, err error) {
	fs := newFlags("generate", env)
	fs.StringVar(&fl.revision, "revision", "", "MCP revision to generate, e.g. 2026-07-28 (see 'mcpgen revisions'); it names the package and, unless --protocol-version says otherwise, is the protocolVersion it speaks")
	fs.StringVar(&fl.protocolVersion, "protocol-version", "", "the protocolVersion the package announces and accepts (default: the revision's name; give it for a draft)")
	fs.StringVar(&fl.schemaRef, "schema", "", "read the schema from this file or http(s) URL instead of looking it up")
	fs.StringVar(&fl.out, "out", "", "output directory of the package (with --all: the parent directory, default \"generated\")")
	fs.StringVar(&fl.pkg, "package", "", "Go package name (default: mcp and the revision without dashes)")
	fs.BoolVar(&fl.all, "all", false, "generate every pinned revision, each into OUT/<package>")
	fs.BoolVar(&fl.check, "check", false, "compare with the files on disk instead of writing; exit 1 when they differ")
	fs.BoolVar(&fl.strict, "strict", false, "treat warnings (unknown keywords, unknown formats) as errors")
	configPath := fs.String("config", "", "read customisations from this JSON file (see docs/generating.md in mcpgen: mcpgen.json)")
	renames := fs.StringArray("rename", nil, "give a definition another Go name: DEFINITION=GoName (repeatable)")
	externals := fs.StringArray("external", nil, "use an existing Go type for a definition: DEFINITION=import/path.Type (repeatable)")
	noValidators := fs.Bool("no-validators", false, "leave out Validate and the validation code (needs --no-dispatcher)")
	noDispatcher := fs.Bool("no-dispatcher", false, "leave out the method table, handlers and dispatchers")
	fs.StringVar(&fl.rootName, "root-name", "", "the Go name of the schema's root, when the root is a type (default: its title, else its file name, with a warning)")
	formats := fs.String("formats", "", "assert (the default) checks \"format\"; annotate leaves it an annotation (not for the pinned MCP revisions, which assert)")
	refMaps := fs.StringArray("ref-map", nil, "read the document a $ref names by URI from a local file: URI=FILE, or URI/=DIR/ for every URI under it (repeatable)")
	fs.BoolVar(&fl.downloadRefs, "download-refs", false, "download the http(s) documents a $ref names that --ref-map does not cover, into the user cache, printing their sha256 (never with MCPGEN_OFFLINE=1)")
	serveOlder := fs.StringSlice("serve-older", nil, "serve the peers of these older revisions: the conversions between their messages and this revision's, R1,R2,... (default for a pinned revision without an initialize handshake: every older revision it converts to)")
	fs.BoolVar(&fl.newestOnly, "newest-only", false, "serve the peers of --revision only: no conversions to older revisions")
	if done, err := parse(fs, args, env, generateSynopsis); done || err != nil {
		return fl, done, err
	}
	var cfg *config
	if *configPath != "" {
		c, err := readConfig(*configPath)
		if err != nil {
			return fl, false, err
		}
		cfg = c
	}
	fl.configPath, fl.renames, fl.externals = *configPath, *renames, *externals
	fl.noValidators, fl.noDispatcher, fl.formats = *noValidators, *noDispatcher, *formats
	err = cfg.apply(&fl.custom, *renames, *externals, *noValidators, *noDispatcher, *formats)
	fl.refMaps = *refMaps
	if err == nil {
		err = cfg.applyRefMap(&fl.custom, *configPath, *refMaps)
	}
	fl.serveOlder = *serveOlder
	if len(fl.serveOlder) == 0 && cfg != nil {
		fl.serveOlder = cfg.ServeOlder
	}
	if fl.newestOnly && len(*serveOlder) > 0 {
		return fl, false, &usageError{"--newest-only and --serve-older contradict each other: give one"}
	}
	if fl.newestOnly {
		fl.serveOlder = nil
	}
	if fl.protocolVersion == "" && cfg != nil {
		fl.protocolVersion = cfg.ProtocolVersion
	}
	return fl, false, err
}

// generateJobs decides the packages to generate: every pinned revision
// (--all), or the one revision the flags name.
func generateJobs(fl generateFlags) ([]job, error) {
	custom := fl.custom
	if fl.all {
		if fl.revision != "" || fl.schemaRef != "" || fl.pkg != "" || fl.protocolVersion != "" {
			return nil, &usageError{"--all generates every pinned revision; it does not combine with --revision, --schema, --package or --protocol-version"}
		}
		if custom.Rename != nil || custom.External != nil || custom.NoValidators || custom.NoDispatcher || custom.Formats == gen.FormatsAnnotate || fl.rootName != "" || len(fl.serveOlder) > 0 {
			return nil, &usageError{"--all generates this repository's generated/; customisations and --serve-older apply to one revision (--revision)"}
		}
		dir := fl.out
		if dir == "" {
			dir = "generated"
		}
		var jobs []job
		byRev := map[string]job{}
		for _, p := range schema.Pins {
			j := job{revision: p.Revision, out: filepath.Join(dir, p.Package()), pkg: p.Package()}
			byRev[p.Revision] = j
			jobs = append(jobs, j)
		}
		for i, j := range jobs {
			for _, rev := range gen.PinnedServeOlder[j.revision] {
				o, ok := byRev[rev]
				if !ok {
					return nil, fmt.Errorf("--all: revision %s serves %s, which is not pinned", j.revision, rev)
				}
				jobs[i].older = append(jobs[i].older, o)
			}
		}
		return jobs, nil
	}
	if fl.revision == "" {
		return nil, &usageError{"generate needs --revision (or --all)"}
	}
	if len(fl.serveOlder) > 0 && custom.NoDispatcher {
		return nil, &usageError{"--serve-older needs the dispatcher: it converts the params and results of methods"}
	}
	older := fl.serveOlder
	if len(older) == 0 && !fl.newestOnly && !custom.NoDispatcher && fl.schemaRef == "" {
		// A pinned revision without an initialize handshake cannot talk
		// to the clients and servers of the revisions before it on its
		// own: it serves them unless told not to.
		older = gen.PinnedServeOlder[fl.revision]
	}
	if fl.out == "" {
		return nil, &usageError{"generate needs --out DIR"}
	}
	name := fl.pkg
	if name == "" {
		name = schema.PackageName(fl.revision)
	}
	if !token.IsIdentifier(name) || token.IsKeyword(name) {
		return nil, &usageError{fmt.Sprintf("--package %q is not a valid Go package name", name)}
	}
	main := job{revision: fl.revision, schemaRef: fl.schemaRef, out: fl.out, pkg: name, own: true}
	seen := map[string]bool{}
	for _, rev := range older {
		switch {
		case rev == "":
			return nil, &usageError{"--serve-older: an empty revision"}
		case seen[rev]:
			return nil, &usageError{fmt.Sprintf("--serve-older: %s is listed twice", rev)}
		case rev >= fl.revision:
			return nil, &usageError{fmt.Sprintf("--serve-older: %s is not older than --revision %s", rev, fl.revision)}
		}
		seen[rev] = true
		pkg := schema.PackageName(rev)
		main.older = append(main.older, job{revision: rev, pkg: pkg})
	}
	return []job{main}, nil
}

// result is what generating one job gave: its files or error, and the
// messages it printed.
type result struct {
	files  gen.Files
	err    error
	stderr bytes.Buffer
}

// generateAll generates the jobs concurrently; each writes its messages
// to a buffer, printed in order later.
func generateAll(ctx context.Context, jobs []job, fl generateFlags, env Env) []*result {
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
			r.files, r.err = generateOne(ctx, j, fl, jenv)
		}()
	}
	wg.Wait()
	return results
}

// checkOrWrite prints each job's messages; when every job generated, it
// compares their files with the disk (check) or writes them, in order.
// The first error stops it: a failed job writes nothing, nor does any
// other.
func checkOrWrite(jobs []job, results []*result, check bool, env Env) error {
	for _, r := range results {
		env.Stderr.Write(r.stderr.Bytes())
		if r.err != nil {
			return r.err
		}
	}
	stale := 0
	for i, j := range jobs {
		files := results[i].files
		if check {
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
func generateOne(ctx context.Context, j job, fl generateFlags, env Env) (gen.Files, error) {
	if !j.own {
		// An older package of --serve-older: no customisations.
		fl = generateFlags{out: fl.out, all: fl.all, strict: fl.strict}
	}
	strict, custom := fl.strict, fl.custom
	src, err := locate(ctx, env, j.revision, j.schemaRef)
	if err != nil {
		return nil, err
	}
	if src.Pin != nil && custom.Formats == gen.FormatsAnnotate {
		return nil, &usageError{fmt.Sprintf("revision %s asserts its formats (uri, byte, ...: the MCP contract); --formats annotate is for other schemas", j.revision)}
	}
	opts := jobOptions(j, src, strict)
	opts.Rename, opts.External = custom.Rename, custom.External
	opts.NoValidators, opts.NoDispatcher = custom.NoValidators, custom.NoDispatcher
	opts.Formats = custom.Formats
	for _, o := range j.older {
		osrc, err := env.Locator.Locate(ctx, o.revision, o.schemaRef)
		if err != nil {
			return nil, err
		}
		opts.Older = append(opts.Older, gen.Older{File: osrc.Origin, Data: osrc.Data, Options: jobOptions(o, osrc, strict)})
	}
	opts.RootName = fl.rootName
	if fl.protocolVersion != "" {
		opts.ProtocolVersion = fl.protocolVersion
	}
	opts.Refs = refOptions(env, j.schemaRef, fl.custom.Refs.Map, fl.downloadRefs)
	opts.Command = regenCommand(j, fl)
	files, warns, err := gen.Generate(src.Origin, src.Data, opts)
	printWarnings(env, warns)
	// A package with a dispatcher speaks the protocol: say which version
	// it assumed for a revision whose name is not one.
	if _, speaks := files["dispatch.go"]; speaks && opts.ProtocolVersion == "" && !schema.IsDateRevision(j.revision) {
		fmt.Fprintf(env.Stderr, "mcpgen: warning: revision %q is not a date; the package announces and accepts protocolVersion %q (give the version the schema speaks with --protocol-version)\n", j.revision, j.revision)
	}
	return files, err
}

// refOptions say where the documents a schema (schemaRef: its --schema
// flag, or "") refers to come from: the files beside a schema read from
// disk, the --ref-map (and config) copies, and downloads with
// --download-refs, which are cached and reported with their sha256.
// generate and diff read schemas the same way.
func refOptions(env Env, schemaRef string, refMap map[string]string, download bool) schema.RefOptions {
	r := schema.RefOptions{Map: refMap, Download: download}
	if loc := env.Locator; loc != nil {
		r.Offline, r.CacheDir, r.Get = loc.Offline, loc.CacheDir, loc.Get
	}
	switch ref := schemaRef; {
	case strings.HasPrefix(ref, "http://") || strings.HasPrefix(ref, "https://"):
		r.BaseURI = ref
	case ref != "":
		r.Dir = filepath.Dir(ref)
	}
	r.Retrieved = func(d *schema.Retrieved) {
		switch {
		case d.Downloaded:
			where := ""
			if r.CacheDir != "" {
				path := schema.RefCachePath(r.CacheDir, d.URI)
				if err := writeFileAtomic(path, d.Data); err != nil {
					fmt.Fprintf(env.Stderr, "mcpgen: warning: could not cache %s: %v\n", d.URI, err)
				} else {
					where = ", cached in " + path
				}
			}
			fmt.Fprintf(env.Stderr, "mcpgen: downloaded %s (sha256 %s%s)\n", d.URI, d.SHA256, where)
		case d.Cached:
			fmt.Fprintf(env.Stderr, "mcpgen: read %s from the cache, %s (sha256 %s)\n", d.URI, d.File, d.SHA256)
		}
	}
	return r
}

// jobOptions are the options of a job's package before customisations.
func jobOptions(j job, src *schema.Source, strict bool) gen.Options {
	opts := gen.Options{Package: j.pkg, Revision: j.revision, Source: gen.SourceInfo{URL: canonicalPath(src.Origin), SHA256: schema.SHA256(src.Data)}}
	if src.Pin != nil {
		opts = gen.PinnedOptions(*src.Pin)
		opts.Package = j.pkg
	}
	opts.Strict = strict
	return opts
}

// canonicalPath is how a path is recorded in the generated doc.go and
// README (the schema's source, the regeneration command): cleaned, with
// forward slashes, and relative to the root of the module the working
// directory is in when it is inside it, so that --check does not depend
// on how the path was typed. A URL is kept as it is.
func canonicalPath(p string) string {
	if p == "" || strings.Contains(p, "://") {
		return p
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(filepath.Clean(p))
	}
	if root := moduleRoot(); root != "" {
		if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(filepath.Clean(p))
}

// moduleRoot is the directory of the go.mod above the working directory,
// or "".
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// regenCommand is the command line that regenerates the package of job
// j, with every flag that shapes it, on one line: what its doc.go and
// README show.
func regenCommand(j job, fl generateFlags) string {
	if fl.all {
		// generated/ is regenerated as a whole (its packages import
		// each other for the conversions).
		args := []string{"mcpgen", "generate", "--all", "--out", canonicalPath(filepath.Dir(j.out))}
		if fl.strict {
			args = append(args, "--strict")
		}
		for i, a := range args {
			args[i] = shellQuote(a)
		}
		return strings.Join(args, " ")
	}
	args := []string{"mcpgen", "generate", "--revision", j.revision}
	if j.schemaRef != "" {
		args = append(args, "--schema", canonicalPath(j.schemaRef))
	}
	args = append(args, "--out", canonicalPath(j.out), "--package", j.pkg)
	if fl.protocolVersion != "" {
		args = append(args, "--protocol-version", fl.protocolVersion)
	}
	if len(fl.serveOlder) > 0 {
		args = append(args, "--serve-older", strings.Join(fl.serveOlder, ","))
	}
	if fl.newestOnly {
		args = append(args, "--newest-only")
	}
	if fl.configPath != "" {
		args = append(args, "--config", canonicalPath(fl.configPath))
	}
	for _, r := range fl.renames {
		args = append(args, "--rename", r)
	}
	for _, x := range fl.externals {
		args = append(args, "--external", x)
	}
	if fl.rootName != "" {
		args = append(args, "--root-name", fl.rootName)
	}
	if fl.formats != "" {
		args = append(args, "--formats", fl.formats)
	}
	for _, m := range fl.refMaps {
		args = append(args, "--ref-map", m)
	}
	if fl.downloadRefs {
		args = append(args, "--download-refs")
	}
	if fl.noValidators {
		args = append(args, "--no-validators")
	}
	if fl.noDispatcher {
		args = append(args, "--no-dispatcher")
	}
	if fl.strict {
		args = append(args, "--strict")
	}
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// locate finds the schema of a revision (explicit is a --schema flag, or
// ""), says so when the revision is not pinned, and caches a download.
func locate(ctx context.Context, env Env, revision, explicit string) (*schema.Source, error) {
	src, err := env.Locator.Locate(ctx, revision, explicit)
	if err != nil {
		return nil, err
	}
	if src.Pin == nil {
		fmt.Fprintf(env.Stderr, "mcpgen: revision %s is not pinned; %s has sha256 %s (pin it with: mcpgen pin --revision %s --schema %s)\n", revision, src.Origin, schema.SHA256(src.Data), revision, src.Origin)
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

// writeDir writes the package's files into dir so that dir is never left
// half-written: the new package is written into a temporary directory
// beside dir, the entries of dir that mcpgen did not write are moved into
// it, and the two directories are swapped (dir is renamed aside, the new
// one renamed to dir, the old one removed). A failure before the swap
// leaves dir as it was, and one during it puts dir back. Generated files
// that are no longer produced go with the old directory; files of the
// same name as a generated one are replaced.
func writeDir(dir string, files gen.Files) error {
	dir = filepath.Clean(dir)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real // swap the directory a link points to, not the link
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("cannot create the output directory: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, ".mcpgen-*")
	if err != nil {
		return fmt.Errorf("cannot write the output directory %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp) // nothing left once it is renamed
	for _, name := range files.Names() {
		if err := os.WriteFile(filepath.Join(tmp, name), files[name], 0o644); err != nil {
			return fmt.Errorf("cannot write the output directory %s: %w", dir, err)
		}
	}
	mode := os.FileMode(0o755)
	fi, err := os.Stat(dir)
	switch {
	case os.IsNotExist(err):
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("output %s exists and is not a directory", dir)
	default:
		mode = fi.Mode().Perm()
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	if fi == nil {
		if err := os.Rename(tmp, dir); err != nil {
			return fmt.Errorf("cannot create %s: %w", dir, err)
		}
		return nil
	}
	kept, err := keepOwnEntries(dir, tmp, files)
	if err != nil {
		return err
	}
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil {
		moveEntries(tmp, dir, kept)
		return fmt.Errorf("cannot replace %s: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if rerr := os.Rename(old, dir); rerr == nil {
			moveEntries(tmp, dir, kept)
		}
		return fmt.Errorf("cannot replace %s (the old package is %s if it is not back): %w", dir, old, err)
	}
	return os.RemoveAll(old)
}

// keepOwnEntries moves the entries of dir that mcpgen did not write (and
// that no generated file replaces) into tmp, and returns their names; on
// failure it moves back those it moved.
func keepOwnEntries(dir, tmp string, files gen.Files) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var kept []string
	for _, e := range entries {
		name := e.Name()
		if files[name] != nil {
			continue // replaced
		}
		if !e.IsDir() {
			if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil && isGenerated(name, data) {
				continue // no longer produced
			}
		}
		if err := os.Rename(filepath.Join(dir, name), filepath.Join(tmp, name)); err != nil {
			moveEntries(tmp, dir, kept)
			return nil, fmt.Errorf("cannot write %s: moving %s aside: %w", dir, name, err)
		}
		kept = append(kept, name)
	}
	return kept, nil
}

// moveEntries renames the named entries of from into to, as far as it can
// (it puts entries back after a failure).
func moveEntries(from, to string, names []string) {
	for _, n := range names {
		os.Rename(filepath.Join(from, n), filepath.Join(to, n))
	}
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
