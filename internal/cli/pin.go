package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/schema"
)

const pinSynopsis = "mcpgen pin --revision R --schema PATH|URL [--url URL] [--protocol-version V] [--no-generate]"

// modulePath is the module mcpgen pin works in.
const modulePath = "github.com/mcpgen/mcpgen"

// runPin adds a revision to a checkout of mcpgen: it copies the schema into
// schema/revisions/<R>/, records its URL (or file name) and sha256 in
// schema/revisions/pins.json, and regenerates generated/ (with the mcpgen
// built from the checkout, so that it embeds the new pin). With
// --no-generate the checkout builds as it is (nothing lists the
// generated packages); make generate writes the new one later.
func runPin(ctx context.Context, args []string, env Env) error {
	fs := newFlags("pin", env)
	revision := fs.String("revision", "", "name of the revision to pin, e.g. 2027-01-15")
	schemaRef := fs.String("schema", "", "the revision's schema.json: a file or an http(s) URL")
	url := fs.String("url", "", "the upstream URL to record (default: --schema when it is a URL; a local file is recorded by its name and sha256)")
	protocolVersion := fs.String("protocol-version", "", "the protocolVersion the revision speaks, recorded with the pin (default: the revision's name; give it for a draft)")
	noGenerate := fs.Bool("no-generate", false, "only record the pin; do not regenerate generated/")
	if done, err := parse(fs, args, env, pinSynopsis); done || err != nil {
		return err
	}
	switch {
	case *revision == "":
		return &usageError{"pin needs --revision"}
	case !schema.ValidRevisionName(*revision):
		return &usageError{fmt.Sprintf("--revision %q is not a valid revision name (letters, digits, '.', '_', '-')", *revision)}
	case *schemaRef == "":
		return &usageError{"pin needs --schema PATH|URL"}
	}
	root, err := findCheckout()
	if err != nil {
		return err
	}
	src, err := (&schema.Locator{Get: env.Locator.Get}).Locate(ctx, "", *schemaRef)
	if err != nil {
		return err
	}
	sum := schema.SHA256(src.Data)
	pinsPath := filepath.Join(root, "schema", filepath.FromSlash(schema.PinsFile))
	old, err := os.ReadFile(pinsPath)
	if err != nil {
		return err
	}
	pins, err := schema.ParsePins(old)
	if err != nil {
		return fmt.Errorf("%s: %w", pinsPath, err)
	}
	for _, p := range pins {
		if p.Revision == *revision {
			if p.SHA256 == sum {
				fmt.Fprintf(env.Stdout, "mcpgen: revision %s is already pinned with sha256 %s\n", *revision, sum)
				return nil
			}
			return fmt.Errorf("revision %s is already pinned with sha256 %s; %s has sha256 %s (a published revision does not change: remove the old pin from %s by hand if it must)",
				*revision, p.SHA256, src.Origin, sum, pinsPath)
		}
	}
	// The schema must generate before it is pinned.
	opts := gen.Options{Package: schema.PackageName(*revision), Revision: *revision, ProtocolVersion: *protocolVersion,
		Source: gen.SourceInfo{URL: src.Origin, SHA256: sum, Pinned: true}}
	if *protocolVersion == "" && !schema.IsDateRevision(*revision) {
		fmt.Fprintf(env.Stderr, "mcpgen: warning: revision %q is not a date; its package will announce and accept protocolVersion %q (give the version the schema speaks with --protocol-version)\n", *revision, *revision)
	}
	_, warns, err := gen.Generate(src.Origin, src.Data, opts)
	printWarnings(env, warns)
	if err != nil {
		return err
	}
	pin := schema.Pin{Revision: *revision, URL: *url, SHA256: sum, ProtocolVersion: *protocolVersion}
	if pin.URL == "" {
		if strings.HasPrefix(src.Origin, "https://") || strings.HasPrefix(src.Origin, "http://") {
			pin.URL = src.Origin
		} else {
			pin.File = filepath.Base(src.Origin) // a local file: its name, with the sha256
		}
	}
	recorded := cmp.Or(pin.URL, "file "+pin.File)
	pins = append(pins, pin)
	slices.SortFunc(pins, func(a, b schema.Pin) int { return strings.Compare(a.Revision, b.Revision) })
	var revs []string
	for _, p := range pins {
		revs = append(revs, p.Revision)
	}
	// Nothing in mcpgen's own code lists the revisions (validate reads the
	// embedded schemas), so the checkout builds whether or not generated/
	// is regenerated next.
	writes := []struct {
		path string
		data []byte
	}{
		{filepath.Join(root, "schema", "revisions", *revision, "schema.json"), src.Data},
		{pinsPath, schema.FormatPins(pins)}, // last: the pin exists only once its files do
	}
	for _, w := range writes {
		if err := writeFileAtomic(w.path, w.data); err != nil {
			return err
		}
	}
	fmt.Fprintf(env.Stdout, "mcpgen: pinned %s (sha256 %s, %s)\n", *revision, sum, recorded)
	if *noGenerate {
		fmt.Fprintf(env.Stdout, "mcpgen: run make generate to write generated/%s\n", schema.PackageName(*revision))
		return nil
	}
	cmd := exec.CommandContext(ctx, "go", "run", "./internal/cmd/mcpgen-generate", "generate", "--all")
	cmd.Dir, cmd.Stdout, cmd.Stderr = root, env.Stdout, env.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("regenerating generated/ (go run ./cmd/mcpgen generate --all in %s): %w", root, err)
	}
	fmt.Fprintf(env.Stdout, "mcpgen: wrote generated/%s", schema.PackageName(*revision))
	if i := slices.Index(revs, *revision); i > 0 {
		fmt.Fprintf(env.Stdout, "; review the changes with: go run ./cmd/mcpgen diff --from %s --to %s", revs[i-1], *revision)
	}
	fmt.Fprintln(env.Stdout)
	return nil
}

// findCheckout returns the root of the mcpgen checkout holding the working
// directory.
func findCheckout() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if bytes.HasPrefix(data, []byte("module "+modulePath+"\n")) {
				return dir, nil
			}
			return "", fmt.Errorf("mcpgen pin works in a checkout of %s; %s is another module", modulePath, filepath.Join(dir, "go.mod"))
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("mcpgen pin works in a checkout of %s; there is no go.mod above %s", modulePath, wd)
		}
	}
}
