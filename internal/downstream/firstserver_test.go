package downstream

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// fence is a fenced block of a Markdown file: its language and its text.
type fence struct{ lang, text string }

// fences returns the fenced blocks of a Markdown file, in order.
func fences(t *testing.T, path string) []fence {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []fence
	var cur *fence
	for line := range strings.Lines(string(b)) {
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &fence{lang: strings.TrimSpace(strings.TrimPrefix(line, "```"))}
		case cur != nil && strings.TrimSpace(line) == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.text += line
		}
	}
	return out
}

// TestFirstServer follows docs/first-server.md from an empty module, with
// the commands and files the page shows and nothing else: the install
// commands for a clone (which the README shows too), the go:generate line,
// the server and the client. Clients of go-sdk at 2025-06-18 and
// 2025-11-25 and the page's client (2026-07-28) use the server; the page's
// client calls go-sdk's and mcp-go's default Streamable HTTP servers (the
// peers are built from the interop module).
func TestFirstServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a separate module")
	}
	root := testenv.ModuleRoot(t)
	const doc = "docs/first-server.md"
	blocks := fences(t, filepath.Join(root, doc))
	var install string
	var gofiles []string
	for _, b := range blocks {
		switch {
		case b.lang == "sh" && strings.Contains(b.text, "go mod edit -tool"):
			install = b.text
		case b.lang == "go":
			gofiles = append(gofiles, b.text)
		}
	}
	if install == "" || len(gofiles) != 3 {
		t.Fatalf("%s: want the install commands for a clone and 3 Go files (gen.go, main.go, client/main.go), have %q and %d", doc, install, len(gofiles))
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```sh\n"+install+"```") {
		t.Errorf("README.md does not show the install commands of %s:\n%s", doc, install)
	}
	if !strings.Contains(string(readme), "("+doc+")") {
		t.Errorf("README.md does not link %s", doc)
	}

	dir := t.TempDir()
	mod := filepath.Join(dir, "hello")
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(mod, 0o755)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MCPGEN_SCHEMA_DIR=") && !strings.HasPrefix(kv, "GOFLAGS=") {
			env = append(env, kv)
		}
	}
	env = append(env, "GOWORK=off", "MCPGEN_OFFLINE=1")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	run := func(dir string, name string, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, out)
		}
		return string(out)
	}
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(mod, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The peers, from the interop module (go-sdk v1.8.0, mcp-go v1.2.1).
	run(filepath.Join(root, "interop"), "go", "build", "-o", bin+string(filepath.Separator), "./sdkservers/cmd/sdkclient", "./sdkservers/cmd/sdkserver")

	// 1. The module, and mcpgen as its tool: the commands as written, the
	// clone being this repository.
	run(mod, "go", "mod", "init", "example.com/hello")
	for line := range strings.Lines(install) {
		args := strings.Fields(strings.ReplaceAll(line, "../mcpgen", root))
		if len(args) == 0 {
			continue
		}
		run(mod, args[0], args[1:]...)
	}
	// 2. The package.
	write("gen.go", gofiles[0])
	run(mod, "go", "generate", "./...")
	docgo, err := os.ReadFile(filepath.Join(mod, "mcp", "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(docgo), "// Revisions served: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26.") {
		t.Errorf("mcp/doc.go does not say it serves the four revisions:\n%.1200s", docgo)
	}
	// 3 and 4. The server and the client.
	write("main.go", gofiles[1])
	write("client/main.go", gofiles[2])
	run(mod, "go", "build", "-o", filepath.Join(bin, "hello"), ".")
	run(mod, "go", "build", "-o", filepath.Join(bin, "hello-client"), "./client")
	run(mod, "go", "vet", "./...")

	hello, client := filepath.Join(bin, "hello"), filepath.Join(bin, "hello-client")
	for _, v := range []string{"2025-06-18", "2025-11-25"} {
		got := run(mod, filepath.Join(bin, "sdkclient"), "-version", v, hello)
		if want := "protocol version: " + v + "\ntools: add\nadd: 5\n"; got != want {
			t.Errorf("go-sdk's client at %s against the server printed:\n%s\nwant:\n%s", v, got, want)
		}
	}
	if got, want := run(mod, client, hello), "tool: add\nadd: 5\n"; got != want {
		t.Errorf("the client (2026-07-28) against the server printed:\n%s\nwant:\n%s", got, want)
	}

	// The client against the SDKs' default Streamable HTTP servers.
	listening := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+/mcp)`)
	for _, sdk := range []string{"go-sdk", "mcp-go"} {
		srv := exec.CommandContext(ctx, filepath.Join(bin, "sdkserver"), "-sdk", sdk, "-http", "127.0.0.1:0", "-lifetime", "2m")
		stderr, err := srv.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		url := ""
		sc := bufio.NewScanner(stderr)
		for url == "" && sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				url = m[1]
			}
		}
		go func() {
			for sc.Scan() {
			}
		}()
		if url == "" {
			srv.Process.Kill()
			srv.Wait()
			t.Fatalf("%s's server did not say where it listens", sdk)
		}
		got := run(mod, client, url)
		srv.Process.Kill()
		srv.Wait()
		if want := "tool: add\ntool: greet\ntool: region\nadd: 5\n"; got != want {
			t.Errorf("the client against %s's default HTTP server printed:\n%s\nwant:\n%s", sdk, got, want)
		}
	}
}
