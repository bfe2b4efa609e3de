package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/schema"
)

const validateSynopsis = "mcpgen validate (--revision R | --schema PATH|URL) [--type DEFINITION] FILE... (- reads standard input)"

// runValidate is mcpgen validate: documents against a definition of a
// pinned revision's embedded schema, or of any schema (--schema: a draft,
// no pin needed), with the runtime's own validator (codec.Schema, which
// reads the schema at run time and finds what a generated package's
// UnmarshalJSON and Validate find). It links no generated package.
func runValidate(ctx context.Context, args []string, env Env) error {
	fs := newFlags("validate", env)
	revision := fs.String("revision", "", "pinned MCP revision whose schema the documents must follow (see 'mcpgen revisions')")
	schemaRef := fs.String("schema", "", "the schema the documents must follow: a file or an http(s) URL (any revision or draft; no pin needed)")
	typ := fs.String("type", "JSONRPCMessage", "definition each document must be an instance of")
	if done, err := parse(fs, args, env, validateSynopsis); done || err != nil {
		return err
	}
	var data []byte
	var what string
	switch {
	case *revision != "" && *schemaRef != "":
		return &usageError{"validate takes --revision or --schema, not both"}
	case *schemaRef != "":
		src, err := env.Locator.Locate(ctx, "", *schemaRef)
		if err != nil {
			return err
		}
		data, what = src.Data, src.Origin
	case *revision != "":
		d, ok := schema.Embedded(*revision)
		if !ok {
			return &usageError{fmt.Sprintf("validate knows the pinned revisions (%s), not %q; give any other schema with --schema PATH|URL", strings.Join(schema.Revisions(), ", "), *revision)}
		}
		data = d
		what = "revision " + *revision
	default:
		return &usageError{"validate needs --revision R or --schema PATH|URL"}
	}
	s, err := codec.CompileSchema(data)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	pointer := ""
	for _, defs := range []string{"/$defs/", "/definitions/"} {
		if p := defs + escapePointer(*typ); s.Has(p) {
			pointer = p
			break
		}
	}
	if pointer == "" {
		return &usageError{fmt.Sprintf("%s has no definition %q", what, *typ)}
	}
	files := fs.Args()
	if len(files) == 0 {
		return &usageError{"validate needs at least one FILE (or - for standard input)"}
	}
	invalid := 0
	for _, name := range files {
		var doc []byte
		var err error
		if name == "-" {
			doc, err = io.ReadAll(env.Stdin)
			name = "<stdin>"
		} else {
			doc, err = os.ReadFile(name)
		}
		if err != nil {
			return err
		}
		problems := problemsOf(s.Validate(pointer, doc))
		if len(problems) == 0 {
			fmt.Fprintf(env.Stdout, "%s: valid %s\n", name, *typ)
			continue
		}
		invalid++
		for _, p := range problems {
			fmt.Fprintf(env.Stdout, "%s: %s\n", name, p)
		}
	}
	if invalid > 0 {
		return &exitError{code: ExitStale, err: fmt.Errorf("mcpgen: %s of %d not valid %s (%s)", plural(invalid, "document", "documents"), len(files), *typ, what)}
	}
	return nil
}

// escapePointer writes a definition name as a JSON pointer segment.
func escapePointer(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

// problemsOf lists the problems UnmarshalAndValidate found, each as
// "pointer: message (keyword)".
func problemsOf(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	if !asViolations(err, &out) {
		out = append(out, err.Error()) // a *SyntaxError: the document is not JSON
	}
	return out
}

// asViolations lists the violations of a *ValidationError of any
// generated package (each package has its own type; all unwrap to their
// violations).
func asViolations(err error, out *[]string) bool {
	u, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return false
	}
	for _, v := range u.Unwrap() {
		*out = append(*out, v.Error())
	}
	return true
}
