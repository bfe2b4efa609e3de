// Package cli is the mcpgen command: flag parsing, finding schemas, and the
// only code that writes files.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/mcpgen/mcpgen/schema"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitStale = 1 // --check found differences; validate found invalid documents
	ExitUsage = 2 // bad usage, bad schema, I/O failure
)

// Env is what a run sees of the outside world.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Locator        *schema.Locator
}

// Main runs mcpgen with the process's environment and returns the exit code.
func Main(args []string) int {
	return Run(context.Background(), args, Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Locator: schema.NewLocator(),
	})
}

const usage = `mcpgen turns a Model Context Protocol JSON schema into a Go package.

Usage:
  mcpgen generate --revision R [--schema PATH|URL] --out DIR [--package NAME] [--protocol-version V] [--config mcpgen.json] [--check] [--strict]
  mcpgen generate --all [--out DIR] [--check] [--strict]
  mcpgen diff --from R1 --to R2 [--format text|markdown|json] [--descriptions] [--from-schema PATH|URL] [--to-schema PATH|URL]
  mcpgen validate (--revision R | --schema PATH|URL) [--type DEFINITION] FILE...
  mcpgen check [--revision R|all] [--format text|json|junit|sarif] [--timeout D] URL | -- COMMAND [ARGS...]
  mcpgen proxy [--listen stdio|HOST:PORT] [--strict] [--cache-bytes N] URL | -- COMMAND [ARGS...]
  mcpgen revisions
  mcpgen pin --revision R --schema PATH|URL [--url URL] [--protocol-version V] [--no-generate]

Commands:
  generate    write (or, with --check, compare) the Go package of a revision
  diff        print what changed for a Go user between two revisions
  validate    check JSON documents against a revision's schema with its generated validators
  check       check a running MCP server against the requirements of the revision it negotiates
  proxy       serve clients of any revision and forward to a server of any revision, checking every message
  revisions   list the pinned revisions: package, sha256, upstream URL, whether embedded
  pin         add a revision to a checkout of mcpgen (schema, pin, generated package)

Run 'mcpgen COMMAND --help' for a command's flags.
`

// usageError is bad usage: it exits 2 and reminds of the usage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// exitError carries an exit code other than 2 for a failure.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

// A Command is a subcommand added to mcpgen by a package of its own
// (Register).
type Command func(ctx context.Context, args []string, env Env) error

// commands are the subcommands added with Register.
var commands = map[string]Command{}

// Register adds a subcommand, from the init of its package. The commands
// that speak MCP (check) link the generated packages, so they live in
// packages of their own (internal/cli/checkcmd) that cmd/mcpgen imports
// and the generate path (internal/cmd/mcpgen-generate) does not: generating
// never needs the generated packages to compile.
func Register(name string, run Command) { commands[name] = run }

// NewFlags returns the flag set of a registered command. It, Parse,
// UsageError and ExitError are the CLI's conventions for a registered
// command: its flag set, its parsing (--help), bad usage (exit 2, with the
// usage reminder) and another exit code (err, if not nil, is printed on
// stderr).
func NewFlags(name string, env Env) *pflag.FlagSet { return newFlags(name, env) }

// Parse parses a registered command's flags; true means --help was shown.
func Parse(fs *pflag.FlagSet, args []string, env Env, synopsis string) (bool, error) {
	return parse(fs, args, env, synopsis)
}

// UsageError is bad usage of a registered command: exit 2.
func UsageError(msg string) error { return &usageError{msg} }

// ExitError ends a registered command with code, printing err if not nil.
func ExitError(code int, err error) error {
	if err == nil {
		err = errors.New("")
	}
	return &exitError{code: code, err: err}
}

// Run runs one mcpgen command line and returns the exit code.
func Run(ctx context.Context, args []string, env Env) int {
	err := dispatch(ctx, args, env)
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(env.Stderr, ee.err)
		}
		return ee.code
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(env.Stderr, "mcpgen: %s\nRun 'mcpgen --help' for usage.\n", ue.msg)
		return ExitUsage
	}
	var se schema.Errors
	if errors.As(err, &se) {
		for _, d := range se {
			fmt.Fprintln(env.Stderr, d)
		}
		return ExitUsage
	}
	fmt.Fprintf(env.Stderr, "mcpgen: %v\n", err)
	return ExitUsage
}

func dispatch(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return &exitError{code: ExitUsage}
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(env.Stdout, usage)
		return nil
	case "generate":
		return runGenerate(ctx, args[1:], env)
	case "diff":
		return runDiff(ctx, args[1:], env)
	case "validate":
		return runValidate(ctx, args[1:], env)
	case "check":
		if run, ok := commands["check"]; ok {
			return run(ctx, args[1:], env)
		}
		return &usageError{"this build of mcpgen generates only (internal/cmd/mcpgen-generate, which make generate runs); mcpgen check is in cmd/mcpgen"}
	case "proxy":
		if run, ok := commands["proxy"]; ok {
			return run(ctx, args[1:], env)
		}
		return &usageError{"this build of mcpgen generates only (internal/cmd/mcpgen-generate, which make generate runs); mcpgen proxy is in cmd/mcpgen"}
	case "revisions":
		return runRevisions(args[1:], env)
	case "pin":
		return runPin(ctx, args[1:], env)
	}
	return &usageError{fmt.Sprintf("unknown command %q (want generate, diff, validate, check, proxy, revisions or pin)", args[0])}
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(name string, env Env) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	return fs
}

// parse parses flags; --help prints the defaults and stops.
func parse(fs *pflag.FlagSet, args []string, env Env, synopsis string) (bool, error) {
	fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			printHelp(fs, env, synopsis)
			return true, nil
		}
		return false, &usageError{err.Error()}
	}
	if h, _ := fs.GetBool("help"); h {
		printHelp(fs, env, synopsis)
		return true, nil
	}
	if fs.NArg() > 0 && fs.Name() != "validate" && fs.Name() != "check" && fs.Name() != "proxy" {
		return false, &usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	return false, nil
}

func printHelp(fs *pflag.FlagSet, env Env, synopsis string) {
	fmt.Fprintf(env.Stdout, "Usage:\n  %s\n\nFlags:\n%s", synopsis, fs.FlagUsages())
}

func runRevisions(args []string, env Env) error {
	fs := newFlags("revisions", env)
	if done, err := parse(fs, args, env, "mcpgen revisions"); done || err != nil {
		return err
	}
	for _, p := range schema.Pins {
		where := "embedded"
		if _, ok := schema.Embedded(p.Revision); !ok {
			where = "not embedded"
		}
		fmt.Fprintf(env.Stdout, "%s  %s  %s  %s  %s\n", p.Revision, p.Package(), where, p.SHA256, p.URL)
	}
	return nil
}

// printWarnings writes schema warnings to stderr.
func printWarnings(env Env, warns []*schema.Diagnostic) {
	for _, w := range warns {
		fmt.Fprintf(env.Stderr, "%s: %s: warning: %s\n", w.File, orRoot(w.Pointer), w.Message)
	}
}

func orRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
