package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// TestRegenerateCommand generates a package with every kind of flag and
// checks that its doc.go and README name the exact command, on one line,
// and that running that command (with --check) finds the package up to
// date: the documented command regenerates it.
func TestRegenerateCommand(t *testing.T) {
	schemas := testenv.SchemaDir(t)
	dir := t.TempDir()
	schemaPath := filepath.Join(dir, "my schema.json")
	if err := os.WriteFile(schemaPath, []byte(`{"$defs": {
		"Tool": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
		"Info": {"type": "object", "properties": {"v": {"type": "string"}}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "mcpgen.json")
	if err := os.WriteFile(cfg, []byte(`{"rename": {"Info": "Details"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	cases := []struct {
		name string
		args []string
		want string // the command, quoted for a shell
	}{
		{"every flag", []string{"generate", "--revision", "draft-1", "--schema", schemaPath, "--out", out, "--package", "tools",
			"--config", cfg, "--rename", "Tool=Utility", "--no-dispatcher", "--no-validators", "--strict"},
			"mcpgen generate --revision draft-1 --schema '" + schemaPath + "' --out " + out + " --package tools --config " + cfg +
				" --rename Tool=Utility --no-validators --no-dispatcher --strict"},
		{"default package", []string{"generate", "--revision", "draft-1", "--schema", schemaPath, "--out", out},
			"mcpgen generate --revision draft-1 --schema '" + schemaPath + "' --out " + out + " --package mcpdraft1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if code, _, stderr := run(t, schemas, c.args...); code != 0 {
				t.Fatalf("generate: exit %d\n%s", code, stderr)
			}
			doc, err := os.ReadFile(filepath.Join(out, "doc.go"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(doc), "\n//\t"+c.want+"\n") {
				t.Errorf("doc.go does not give the command on one line:\n%s\nwant:\n%s", doc, c.want)
			}
			readme, err := os.ReadFile(filepath.Join(out, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(readme), "```sh\n"+c.want+"\n```") {
				t.Errorf("README.md does not give the command:\n%s\nwant:\n%s", readme, c.want)
			}
			// Run the command as a shell would split it (the schema path is
			// the one quoted word).
			args := strings.Fields(strings.Replace(c.want, "'"+schemaPath+"'", "SCHEMA", 1))[1:]
			for i, a := range args {
				if a == "SCHEMA" {
					args[i] = schemaPath
				}
			}
			if code, _, stderr := run(t, schemas, append(args, "--check")...); code != 0 {
				t.Errorf("the documented command with --check: exit %d\n%s", code, stderr)
			}
		})
	}
}
