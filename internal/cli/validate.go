package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen/schema"
)

// validator is what `mcpgen validate` needs of a generated package.
type validator interface {
	UnmarshalJSON([]byte) error
	Validate() error
}

// registry is one generated package: its definitions and its
// UnmarshalAndValidate.
type registry struct {
	newValue func(string) (validator, bool)
	check    func([]byte, validator) error
}

const validateSynopsis = "mcpgen validate --revision R [--type DEFINITION] FILE... (- reads standard input)"

func runValidate(args []string, env Env) error {
	fs := newFlags("validate", env)
	revision := fs.String("revision", "", "MCP revision whose schema the documents must follow (see 'mcpgen revisions')")
	typ := fs.String("type", "JSONRPCMessage", "definition each document must be an instance of")
	if done, err := parse(fs, args, env, validateSynopsis); done || err != nil {
		return err
	}
	if *revision == "" {
		return &usageError{"validate needs --revision"}
	}
	reg, ok := registries[*revision]
	if !ok {
		if len(registries) == 0 {
			return &usageError{"this mcpgen was built with -tags mcpgen_bootstrap and cannot validate"}
		}
		return &usageError{fmt.Sprintf("validate knows the pinned revisions (%s), not %q", strings.Join(schema.Revisions(), ", "), *revision)}
	}
	newValue := reg.newValue
	if _, ok := newValue(*typ); !ok {
		return &usageError{fmt.Sprintf("revision %s has no definition %q", *revision, *typ)}
	}
	files := fs.Args()
	if len(files) == 0 {
		return &usageError{"validate needs at least one FILE (or - for standard input)"}
	}
	invalid := 0
	for _, name := range files {
		var data []byte
		var err error
		if name == "-" {
			data, err = io.ReadAll(env.Stdin)
			name = "<stdin>"
		} else {
			data, err = os.ReadFile(name)
		}
		if err != nil {
			return err
		}
		v, _ := newValue(*typ)
		problems := problemsOf(reg.check(data, v))
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
		return &exitError{code: ExitStale, err: fmt.Errorf("mcpgen: %s of %d not valid %s (revision %s)", plural(invalid, "document", "documents"), len(files), *typ, *revision)}
	}
	return nil
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

// wrapNew and wrapCheck adapt a generated package to registry.
func wrapNew[V validator](f func(string) (V, bool)) func(string) (validator, bool) {
	return func(def string) (validator, bool) { return f(def) }
}

func wrapCheck(f func([]byte, interface {
	UnmarshalJSON([]byte) error
	Validate() error
}) error) func([]byte, validator) error {
	return func(b []byte, v validator) error { return f(b, v) }
}
