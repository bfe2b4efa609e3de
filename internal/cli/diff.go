package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/internal/revdiff"
	"github.com/mcpgen/mcpgen/schema"
	"github.com/mcpgen/mcpgen/templates"
)

const diffSynopsis = `mcpgen diff --from R1 --to R2 [--format text|markdown|json] [--descriptions] [--from-schema PATH|URL] [--to-schema PATH|URL] [--ref-map URI=FILE] [--download-refs]`

// diffFormats maps --format to the template that renders the report.
var diffFormats = map[string]string{"text": "diff.text", "markdown": "diff.markdown"}

func runDiff(ctx context.Context, args []string, env Env) error {
	fs := newFlags("diff", env)
	from := fs.String("from", "", "the older revision, e.g. 2025-11-25 (see 'mcpgen revisions')")
	to := fs.String("to", "", "the newer revision, e.g. 2026-07-28")
	format := fs.String("format", "text", "output format: text, markdown or json")
	descriptions := fs.Bool("descriptions", false, "list changed descriptions and titles too")
	fromSchema := fs.String("from-schema", "", "read the --from schema from this file or http(s) URL instead of looking it up")
	toSchema := fs.String("to-schema", "", "read the --to schema from this file or http(s) URL instead of looking it up")
	refMaps := fs.StringArray("ref-map", nil, "read the document a $ref names by URI from a local file: URI=FILE, or URI/=DIR/ for every URI under it (repeatable; both schemas)")
	download := fs.Bool("download-refs", false, "download the http(s) documents a $ref names that --ref-map does not cover, as generate does")
	if done, err := parse(fs, args, env, diffSynopsis); done || err != nil {
		return err
	}
	tmpl, ok := diffFormats[*format]
	if !ok && *format != "json" {
		return &usageError{fmt.Sprintf("--format %q is not known (want text, markdown or json)", *format)}
	}
	for _, f := range []struct{ flag, rev, ref string }{{"from", *from, *fromSchema}, {"to", *to, *toSchema}} {
		if f.rev == "" {
			return &usageError{fmt.Sprintf("diff needs --%s REVISION", f.flag)}
		}
		if _, pinned := schema.Lookup(f.rev); !pinned && f.ref == "" {
			return &usageError{fmt.Sprintf("--%s: revision %q is not pinned (pinned: %s); give its schema with --%s-schema PATH|URL",
				f.flag, f.rev, strings.Join(schema.Revisions(), ", "), f.flag)}
		}
	}
	var refs gen.Options
	if err := (*config)(nil).applyRefMap(&refs, "", *refMaps); err != nil {
		return err
	}
	oldDoc, old, err := diffPackage(ctx, env, *from, *fromSchema, refs.Refs.Map, *download)
	if err != nil {
		return err
	}
	curDoc, cur, err := diffPackage(ctx, env, *to, *toSchema, refs.Refs.Map, *download)
	if err != nil {
		return err
	}
	report := revdiff.Compare(old, cur)
	report.Schema = revdiff.CompareSchemas(oldDoc, curDoc, old, cur, revdiff.SchemaOptions{Descriptions: *descriptions})
	var out []byte
	if *format == "json" {
		out, err = json.MarshalIndent(report, "", "  ")
		out = append(out, '\n')
	} else {
		out, err = templates.Render(tmpl, report)
	}
	if err != nil {
		return err
	}
	_, err = env.Stdout.Write(out)
	return err
}

// diffPackage finds, loads and builds the IR of one side of a diff. Its
// schema is read as generate reads it: the files it refers to come from
// beside it, the ref map or downloads.
func diffPackage(ctx context.Context, env Env, revision, explicit string, refMap map[string]string, download bool) (*schema.Document, *ir.Package, error) {
	src, err := locate(ctx, env, revision, explicit)
	if err != nil {
		return nil, nil, err
	}
	doc, err := schema.LoadWith(src.Origin, src.Data, refOptions(env, explicit, refMap, download))
	if err != nil {
		return nil, nil, err
	}
	printWarnings(env, doc.Warnings)
	pkg, warns, err := gen.Build(doc, gen.Options{Package: schema.PackageName(revision), Revision: revision})
	printWarnings(env, warns)
	return doc, pkg, err
}
