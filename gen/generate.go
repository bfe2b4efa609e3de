package gen

import (
	"cmp"
	"fmt"

	"github.com/mcpgen/mcpgen/gen/emit"
	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/schema"
)

// Generate runs the whole pipeline for one schema document: load and
// resolve every document up front (the schema, what its references bring
// in, and each older revision's of opts.Older, built first), build the IR
// and emit the files. file names the document in messages. Warnings come
// back even when generation fails; with opts.Strict they are the errors
// instead.
func Generate(file string, data []byte, opts Options) (Files, []*schema.Diagnostic, error) {
	doc, err := schema.LoadWith(file, data, opts.Refs)
	if err != nil {
		return nil, nil, err
	}
	older := loadOlder(opts.Older)
	pkg, warns, err := build(doc, opts, older)
	warns = append(doc.Warnings, warns...)
	if err != nil {
		return nil, warns, err
	}
	if opts.Strict && len(warns) > 0 {
		return nil, nil, strictErrors(warns)
	}
	files, err := emit.Emit(pkg)
	if err != nil {
		return nil, warns, err
	}
	return files, warns, nil
}

// Build turns a loaded schema into the IR of its Go package. Errors are
// schema.Errors naming the file and JSON pointer of each problem;
// warnings come back separately.
//
// The older revisions of Options.Older are loaded and built first; Generate
// loads every document (the schema, the documents its references bring
// in, the older revisions') before it builds anything.
func Build(doc *schema.Document, opts Options) (*ir.Package, []*schema.Diagnostic, error) {
	return build(doc, opts, loadOlder(opts.Older))
}

// olderRev is an older revision loaded and built before the revision
// being generated (loadOlder): its schema and IR, or why it is neither.
type olderRev struct {
	Older
	doc *schema.Document
	pkg *ir.Package
	err *schema.Diagnostic
}

// loadOlder loads the schema of each older revision and builds its IR (for
// its methods), before the newer revision is built: the builder reads
// what they are and loads or builds nothing itself. An older revision that
// does not load or build is kept with the error, which the builder
// reports with the newer revision's.
func loadOlder(olders []Older) []*olderRev {
	out := make([]*olderRev, len(olders))
	for i, o := range olders {
		r := &olderRev{Older: o}
		out[i] = r
		rev := o.Options.Revision
		doc, err := schema.LoadWith(o.File, o.Data, o.Options.Refs)
		if err != nil {
			r.err = &schema.Diagnostic{File: o.File, Message: fmt.Sprintf("older revision %s: %v", rev, err)}
			continue
		}
		opts := o.Options
		opts.Older = nil
		pkg, _, err := build(doc, opts, nil) // its warnings are the older package's own
		if err != nil {
			r.err = &schema.Diagnostic{File: o.File, Message: fmt.Sprintf("older revision %s does not generate: %v", rev, err)}
			continue
		}
		r.doc, r.pkg = doc, pkg
	}
	return out
}

// strictErrors turns warnings into the errors of strict mode; this is the
// one place strict mode acts.
func strictErrors(warns []*schema.Diagnostic) error {
	var errs schema.Errors
	for _, w := range warns {
		c := *w
		c.Message += " (error in strict mode)"
		errs = append(errs, &c)
	}
	return errs
}

// PinnedOptions are the options `mcpgen generate` uses for a pinned
// revision with its default package name; the command the package
// documents is the one that regenerates this repository's generated/ (its
// packages import each other for the conversions; mcpgen generate sets
// its own for other output).
func PinnedOptions(p schema.Pin) Options {
	return Options{Package: p.Package(), Revision: p.Revision, ProtocolVersion: p.ProtocolVersion,
		Source:  ir.SourceInfo{URL: cmp.Or(p.URL, p.File), SHA256: p.SHA256, Pinned: true},
		Command: "mcpgen generate --all --out generated"}
}

// PinnedServeOlder says which pinned revisions `mcpgen generate --all`
// gives conversions to older revisions (each generated beside it), and to
// which: the newest serves the clients of the three before it. `mcpgen
// generate --revision R` gives R the same conversions unless told
// otherwise (--serve-older, --newest-only): a revision without an
// initialize handshake reaches the peers of the older ones only through
// them.
var PinnedServeOlder = map[string][]string{
	"2026-07-28": {"2025-11-25", "2025-06-18", "2025-03-26"},
}

// Files is generated output: file name -> contents.
type Files = emit.Files

// Header is the first line of every generated Go file.
const Header = emit.Header
