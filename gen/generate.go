package gen

import (
	"github.com/mcpgen/mcpgen/schema"
)

// Generate runs the whole pipeline for one schema document: load and
// resolve it, build the IR, emit the files. file names the document in
// messages. Warnings come back even when generation fails.
func Generate(file string, data []byte, opts Options, load schema.Options) (Files, []*schema.Diagnostic, error) {
	doc, err := schema.Load(file, data, load)
	if err != nil {
		return nil, nil, err
	}
	pkg, warns, err := Build(doc, opts)
	warns = append(doc.Warnings, warns...)
	if err != nil {
		return nil, warns, err
	}
	if load.Strict && len(warns) > 0 {
		return nil, warns, strictErrors(warns)
	}
	files, err := Emit(pkg)
	if err != nil {
		return nil, warns, err
	}
	return files, warns, nil
}

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
// revision with its default package name.
func PinnedOptions(p schema.Pin) Options {
	return Options{Package: p.Package(), Revision: p.Revision,
		Source: SourceInfo{URL: p.URL, SHA256: p.SHA256, Pinned: true}}
}
