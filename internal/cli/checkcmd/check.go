// Package checkcmd is mcpgen check, a command that speaks MCP: it links the
// generated packages (through internal/check), so it is a package of its
// own that cmd/mcpgen adds to the CLI (cli.Register) and the generate path
// (internal/cmd/mcpgen-generate, make generate) leaves out. See
// ARCHITECTURE.md ("What the generator links").
package checkcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime/debug"
	"strings"

	"github.com/mcpgen/mcpgen/internal/check"
	"github.com/mcpgen/mcpgen/internal/cli"
)

const checkSynopsis = "mcpgen check [--revision R|all] [--schema PATH|URL [--protocol-version V]] [--format text|json|junit|sarif] [--timeout D] [flags] URL | -- COMMAND [ARGS...]"

// runCheck is mcpgen check: the server at URL (Streamable HTTP) or the
// command after -- (stdio) against the rules of the revision it
// negotiates (internal/check). Exit 0: no MUST failed; 1: one did (or a
// rule could not be judged); 2: bad usage, or no check could be made.
func init() { cli.Register("check", runCheck) }

func runCheck(ctx context.Context, args []string, env cli.Env) error {
	fs := cli.NewFlags("check", env)
	revision := fs.String("revision", "", "revision to check: one, or all of those the server serves (default: the one it negotiates, as mcpgen's client does)")
	format := fs.String("format", "text", "output: text, json, junit (JUnit XML) or sarif (SARIF 2.1.0); with --list-rules text, json or markdown")
	timeout := fs.Duration("timeout", check.DefaultOptions().Limits.Timeout, "how long each request may take")
	deadline := fs.Duration("deadline", check.DefaultOptions().Deadline, "how long the whole check may take")
	headers := fs.StringArray("header", nil, "send the header `'NAME: VALUE'` with every HTTP request (such as Authorization); repeatable")
	second := fs.StringArray("second-principal-header", nil, "a second principal's `'NAME: VALUE'` (another Authorization), sent in place of --header to compare the public results of server/discover and the lists; repeatable")
	calls := fs.StringArray("call", nil, "call a tool: `TOOL=ARGS`, ARGS a JSON object (tools are never called otherwise); repeatable")
	failOn := fs.String("fail-on", "must", "what exits 1: must (a MUST failed) or should (a SHOULD warned too)")
	maxPages := fs.Int("max-pages", check.DefaultOptions().MaxPages, "pages read of each list")
	maxReads := fs.Int("max-reads", check.DefaultOptions().MaxReads, "listed resources read")
	maxGets := fs.Int("max-gets", check.DefaultOptions().MaxGets, "prompts without required arguments got")
	maxBytes := fs.Int64("max-bytes", check.DefaultOptions().Limits.MaxBytes, "largest message accepted, in bytes")
	originCheck := fs.Bool("origin-check", false, "send the foreign Origin and Host probes to a URL that is not loopback too")
	progress := fs.Bool("progress", false, "report each step on standard error (the default when it is a terminal)")
	verbose := fs.Bool("verbose", false, "list the rules that passed or were skipped, and keep whole messages")
	noClient := fs.Bool("no-client", false, "skip the last step, in which mcpgen's generated client connects")
	listRules := fs.Bool("list-rules", false, "print the rules and exit")
	schemaRef := fs.String("schema", "", "validate the server's messages against this schema (a file or an http(s) URL: any revision or draft, no pin needed) instead of the pinned revision's; needs --revision R, whose exchanges and rules apply")
	protocolVersion := fs.String("protocol-version", "", "with --schema: the protocolVersion the schema speaks, sent on the wire (default: --revision)")
	if done, err := cli.Parse(fs, args, env, checkSynopsis); done || err != nil {
		return err
	}
	if *listRules {
		if *format != "text" && *format != "json" && *format != "markdown" {
			return cli.UsageError(fmt.Sprintf("--format %q: want text, json or markdown", *format))
		}
		return check.WriteRules(env.Stdout, *format)
	}
	if *format != "text" && *format != "json" && *format != "junit" && *format != "sarif" {
		return cli.UsageError(fmt.Sprintf("--format %q: want text, json, junit or sarif", *format))
	}
	if *failOn != "must" && *failOn != "should" {
		return cli.UsageError(fmt.Sprintf("--fail-on %q: want must or should", *failOn))
	}
	if *timeout <= 0 || *deadline <= 0 {
		return cli.UsageError("--timeout and --deadline must be positive")
	}
	var t check.Target
	rest := fs.Args()
	switch dash := fs.ArgsLenAtDash(); {
	case dash == 0 && len(rest) > 0:
		t.Command = rest
	case dash > 0:
		return cli.UsageError(fmt.Sprintf("unexpected argument %q before --: check a URL or -- COMMAND, not both", rest[0]))
	case dash < 0 && len(rest) == 1:
		t.URL = rest[0]
	case len(rest) == 0:
		return cli.UsageError("check needs a URL, or -- and the command that runs the server")
	default:
		return cli.UsageError(fmt.Sprintf("unexpected argument %q (a command goes after --)", rest[1]))
	}
	o := check.DefaultOptions()
	o.Revision = *revision
	o.Limits.Timeout = *timeout
	o.Limits.MaxBytes = *maxBytes
	o.Deadline = *deadline
	o.FailOnShould = *failOn == "should"
	o.MaxPages, o.MaxReads, o.MaxGets = *maxPages, *maxReads, *maxGets
	o.OriginCheck = *originCheck
	o.Verbose = *verbose
	o.NoClient = *noClient
	o.Version = mcpgenVersion()
	if *protocolVersion != "" && *schemaRef == "" {
		return cli.UsageError("--protocol-version needs --schema (the schema that speaks it)")
	}
	if *schemaRef != "" {
		if *revision == "" || *revision == "all" {
			return cli.UsageError("--schema needs --revision R: the pinned revision whose exchanges and rules apply")
		}
		src, err := env.Locator.Locate(ctx, "", *schemaRef)
		if err != nil {
			return err
		}
		o.Schema, o.SchemaOrigin, o.ProtocolVersion = src.Data, src.Origin, *protocolVersion
	}
	if len(*headers) > 0 {
		o.Header = http.Header{}
		for _, h := range *headers {
			k, v, ok := strings.Cut(h, ":")
			if !ok || strings.TrimSpace(k) == "" {
				return cli.UsageError(fmt.Sprintf("--header %q: want 'NAME: VALUE'", h))
			}
			o.Header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		}
	}
	if len(*second) > 0 {
		o.SecondHeader = http.Header{}
		for _, h := range *second {
			k, v, ok := strings.Cut(h, ":")
			if !ok || strings.TrimSpace(k) == "" {
				return cli.UsageError(fmt.Sprintf("--second-principal-header %q: want 'NAME: VALUE'", h))
			}
			o.SecondHeader.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		}
	}
	for _, c := range *calls {
		name, a, _ := strings.Cut(c, "=")
		if a == "" {
			a = "{}"
		}
		var obj map[string]json.RawMessage
		if name == "" || json.Unmarshal([]byte(a), &obj) != nil || obj == nil {
			return cli.UsageError(fmt.Sprintf("--call %q: want TOOL=ARGS, ARGS a JSON object", c))
		}
		o.Calls = append(o.Calls, check.Call{Tool: name, Args: json.RawMessage(a)})
	}
	if *progress || isTerminal(env.Stderr) {
		o.Progress = func(s string) { fmt.Fprintf(env.Stderr, "check: %s\n", s) }
	}
	rep, err := check.Run(ctx, t, o)
	var se *check.SetupError
	if errors.As(err, &se) {
		return fmt.Errorf("check: %s", se.Msg)
	}
	if err != nil {
		return err
	}
	switch *format {
	case "json":
		err = rep.WriteJSON(env.Stdout)
	case "junit":
		err = rep.WriteJUnit(env.Stdout)
	case "sarif":
		err = rep.WriteSARIF(env.Stdout)
	default:
		rep.WriteText(env.Stdout, *verbose)
	}
	if err != nil {
		return err
	}
	if rep.Summary.ExitCode != 0 {
		return cli.ExitError(rep.Summary.ExitCode, nil)
	}
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// mcpgenVersion is the module version mcpgen was built at ("devel" in a
// checkout).
func mcpgenVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
