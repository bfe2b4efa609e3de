package checkcmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/check"
	"github.com/mcpgen/mcpgen/internal/check/fixture"
	"github.com/mcpgen/mcpgen/internal/cli"
	"github.com/mcpgen/mcpgen/schema"
)

// The test binary is also the fixture server of mcpgen check: with the
// first argument "mcpgen-check-fixture" it serves stdio.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "mcpgen-check-fixture" {
		os.Exit(fixture.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// runStdin runs an mcpgen command line, this package's check registered.
func runStdin(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Locator: &schema.Locator{Offline: true}}
	code := cli.Run(context.Background(), args, env)
	return code, out.String(), errb.String()
}

func fixtureURL(t *testing.T, c fixture.Config) string {
	t.Helper()
	h, err := fixture.Handler(c)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func TestCheckUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check"}, "check needs a URL"},
		{[]string{"check", "http://127.0.0.1:1/", "extra"}, `unexpected argument "extra"`},
		{[]string{"check", "http://127.0.0.1:1/", "--", "cmd"}, "not both"},
		{[]string{"check", "--format", "xml", "http://127.0.0.1:1/"}, `--format "xml"`},
		{[]string{"check", "--fail-on", "may", "http://127.0.0.1:1/"}, `--fail-on "may"`},
		{[]string{"check", "--call", "a=[1]", "http://127.0.0.1:1/"}, "ARGS a JSON object"},
		{[]string{"check", "--header", "nocolon", "http://127.0.0.1:1/"}, "'NAME: VALUE'"},
		{[]string{"check", "--revision", "2030-01-01", "http://127.0.0.1:1/"}, `not "2030-01-01"`},
		{[]string{"check", "ftp://example.com/"}, "not an http:// or https:// URL"},
		{[]string{"check", "--", "/nonexistent/mcp-server"}, "cannot start /nonexistent/mcp-server"},
		{[]string{"check", "--schema", "../../../schema/revisions/2026-07-28/schema.json", "http://127.0.0.1:1/"}, "--schema needs --revision R"},
		{[]string{"check", "--protocol-version", "DRAFT-1", "--revision", "2026-07-28", "http://127.0.0.1:1/"}, "--protocol-version needs --schema"},
		{[]string{"check", "--schema", "/nonexistent/schema.json", "--revision", "2026-07-28", "http://127.0.0.1:1/"}, "/nonexistent/schema.json"},
	} {
		code, out, errOut := runStdin(t, "", c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 saying %q", c.args, code, out, errOut, c.want)
		}
	}
}

// TestCheckUnreachable: nothing listening is exit 2 with the reason.
func TestCheckUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	ln.Close()
	code, out, errOut := runStdin(t, "", "check", "--timeout", "2s", url)
	if code != 2 || !strings.Contains(errOut, "mcpgen: check: cannot check "+url) || !strings.Contains(errOut, "connection refused") || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestCheckListRules(t *testing.T) {
	code, out, _ := runStdin(t, "", "check", "--list-rules", "--format", "markdown")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, r := range check.Rules {
		if !strings.Contains(out, "| `"+r.ID+"` |") {
			t.Errorf("the table has no row for %s", r.ID)
		}
	}
	code, out, _ = runStdin(t, "", "check", "--list-rules", "--format", "json")
	var rules []struct{ Rule string }
	if code != 0 || json.Unmarshal([]byte(out), &rules) != nil || len(rules) != len(check.Rules) {
		t.Errorf("--format json: exit %d, %d rules", code, len(rules))
	}
}

// TestCheckFixture runs the command against the fixture: clean is exit 0
// (text and JSON, over HTTP and stdio), a broken MUST exit 1, a broken
// SHOULD exit 0 unless --fail-on should.
func TestCheckFixture(t *testing.T) {
	quick := []string{"--timeout", "3s", "--no-client"}
	code, out, errOut := runStdin(t, "", append(append([]string{"check"}, quick...), fixtureURL(t, fixture.Config{}))...)
	if code != 0 || !strings.Contains(out, "2026-07-28: 0 MUST failed, 0 SHOULD warned") {
		t.Errorf("clean over HTTP: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runStdin(t, "", append(append([]string{"check", "--format", "json"}, quick...), fixtureURL(t, fixture.Config{Revision: "2025-11-25"}))...)
	var rep check.Report
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || rep.Format != "mcpgen-check/1" || len(rep.Runs) != 1 || rep.Runs[0].Revision != "2025-11-25" || rep.Summary.ExitCode != 0 {
		t.Errorf("clean 2025-11-25 as JSON: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	code, out, errOut = runStdin(t, "", append(append([]string{"check"}, quick...), "--", os.Args[0], "mcpgen-check-fixture", "-revision", "2025-06-18")...)
	if code != 0 || !strings.Contains(out, "2025-06-18: 0 MUST failed, 0 SHOULD warned") {
		t.Errorf("clean over stdio: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runStdin(t, "", append(append([]string{"check"}, quick...), fixtureURL(t, fixture.Config{Break: "allow-origin"}))...)
	if code != 1 || !strings.Contains(out, "MUST   FAIL  origin-foreign-403") || !strings.Contains(out, "1 MUST failed") {
		t.Errorf("allow-origin: exit %d\n%s%s", code, out, errOut)
	}
	// The same broken MUST in the CI formats, with the same exit code.
	broken := fixtureURL(t, fixture.Config{Break: "allow-origin"})
	code, out, errOut = runStdin(t, "", append(append([]string{"check", "--format", "sarif"}, quick...), broken)...)
	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
				Level  string `json:"level"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &sarif); code != 1 || err != nil || sarif.Version != "2.1.0" || len(sarif.Runs) != 1 || !slices.ContainsFunc(sarif.Runs[0].Results, func(r struct {
		RuleID string `json:"ruleId"`
		Level  string `json:"level"`
	}) bool {
		return r.RuleID == "origin-foreign-403" && r.Level == "error"
	}) {
		t.Errorf("allow-origin as SARIF: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	code, out, errOut = runStdin(t, "", append(append([]string{"check", "--format", "junit"}, quick...), broken)...)
	if code != 1 || !strings.HasPrefix(out, "<?xml") || !strings.Contains(out, `<testcase name="origin-foreign-403" classname="mcpgen.check.2026-07-28">`) || !strings.Contains(out, `type="MUST"`) {
		t.Errorf("allow-origin as JUnit: exit %d\n%s%s", code, out, errOut)
	}
	url := fixtureURL(t, fixture.Config{Break: "allow-host"})
	code, out, errOut = runStdin(t, "", append(append([]string{"check"}, quick...), url)...)
	if code != 0 || !strings.Contains(out, "SHOULD WARN  host-foreign-rejected") {
		t.Errorf("allow-host: exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = runStdin(t, "", append(append([]string{"check", "--fail-on", "should"}, quick...), url)...)
	if code != 1 {
		t.Errorf("allow-host --fail-on should: exit %d\n%s", code, errOut)
	}
	code, _, errOut = runStdin(t, "", append(append([]string{"check", "--progress"}, quick...), fixtureURL(t, fixture.Config{}))...)
	if code != 0 || !strings.Contains(errOut, "check: 2026-07-28 server/discover\n") {
		t.Errorf("--progress: exit %d, stderr %q", code, errOut)
	}
}

// TestCheckHelpDoc keeps the help of docs/check.md equal to the command's.
func TestCheckHelpDoc(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/check.md")
	if err != nil {
		t.Fatal(err)
	}
	code, help, _ := runStdin(t, "", "check", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	begin := "<!-- help: "
	i := strings.Index(string(doc), begin)
	j := strings.Index(string(doc), "<!-- end of help -->")
	if i < 0 || j < i {
		t.Fatal("docs/check.md has no help block")
	}
	block := string(doc[i:j])
	block = block[strings.Index(block, "```\n")+4 : strings.LastIndex(block, "```")]
	if block != help {
		t.Errorf("docs/check.md shows another help than mcpgen check --help:\n%s\nwant:\n%s", block, help)
	}
}
