package bench

import (
	"bufio"
	"encoding/json"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSideBySide checks the claim of the server side-by-side
// (docs/serving.md, "The same server with go-sdk"): serving a
// tool with typed arguments takes no more with mcpgen than with the
// official Go SDK. sidebyside/mcpgen and sidebyside/gosdk are the same
// stdio server (one tool, "add", its arguments a struct with
// descriptions), each written the way its library's documentation writes
// it. The test counts both (Go tokens, characters and lines, without
// comments and blank lines), checks that docs/serving.md shows both
// programs as they are and the README the mcpgen one (its server), then
// builds and runs both and checks that they answer the same calls alike.
func TestSideBySide(t *testing.T) {
	type program struct {
		name, dir string
		src       string
		tokens    int
		chars     int
		lines     int
	}
	progs := []*program{{name: "mcpgen", dir: "sidebyside/mcpgen"}, {name: "go-sdk", dir: "sidebyside/gosdk"}}
	shownIn := map[string][]string{"sidebyside/mcpgen": {"docs/serving.md", "README.md"}, "sidebyside/gosdk": {"docs/serving.md"}}
	for _, p := range progs {
		b, err := os.ReadFile(filepath.Join(p.dir, "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		i := strings.Index(src, "package main")
		if i < 0 {
			t.Fatalf("%s: no package clause", p.dir)
		}
		p.src = src[i:]
		p.tokens, p.chars, p.lines = measure(t, p.src)
		// The documentation shows the program from its type on.
		body := p.src[strings.Index(p.src, "type AddArgs"):]
		for _, doc := range shownIn[p.dir] {
			if !strings.Contains(readDoc(t, doc), body) {
				t.Errorf("%s does not show %s/main.go as it is (from `type AddArgs` to the end)", doc, p.dir)
			}
		}
	}
	m, g := progs[0], progs[1]
	t.Logf("mcpgen: %d tokens, %d characters, %d lines; go-sdk: %d tokens, %d characters, %d lines", m.tokens, m.chars, m.lines, g.tokens, g.chars, g.lines)
	if m.tokens > g.tokens {
		t.Errorf("mcpgen's program has %d tokens, go-sdk's %d", m.tokens, g.tokens)
	}
	if m.chars > g.chars {
		t.Errorf("mcpgen's program has %d characters, go-sdk's %d", m.chars, g.chars)
	}
	if m.lines > g.lines {
		t.Errorf("mcpgen's program has %d lines, go-sdk's %d", m.lines, g.lines)
	}

	// Both answer alike.
	if testing.Short() {
		t.Skip("builds two programs")
	}
	bin := t.TempDir()
	for _, p := range progs {
		out := filepath.Join(bin, filepath.Base(p.dir))
		cmd := exec.Command("go", "build", "-o", out, "./"+p.dir)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", p.dir, err, b)
		}
	}
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	calls := []struct {
		args    string
		text    string // the text content, or a prefix of it when isError
		isError bool
	}{
		{`{"a":40,"b":2}`, "42", false},
		{`{"a":"forty","b":2}`, "", true},
		{`{"a":40}`, "", true},
	}
	for _, p := range progs {
		cmd := exec.Command(filepath.Join(bin, filepath.Base(p.dir)))
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		timer := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
		lines := bufio.NewReader(out)
		for i, c := range calls {
			req := `{"jsonrpc":"2.0","id":` + string(rune('1'+i)) + `,"method":"tools/call","params":{` + meta + `,"name":"add","arguments":` + c.args + `}}` + "\n"
			if _, err := io.WriteString(in, req); err != nil {
				t.Fatal(err)
			}
			line, err := lines.ReadBytes('\n')
			if err != nil {
				t.Fatalf("%s: %v", p.name, err)
			}
			var resp struct {
				Result *struct {
					Content []struct{ Text string } `json:"content"`
					IsError bool                    `json:"isError"`
				} `json:"result"`
			}
			if err := json.Unmarshal(line, &resp); err != nil || resp.Result == nil || len(resp.Result.Content) != 1 {
				t.Errorf("%s %s: %s", p.name, c.args, line)
				continue
			}
			if resp.Result.IsError != c.isError || (!c.isError && resp.Result.Content[0].Text != c.text) {
				t.Errorf("%s %s: %s", p.name, c.args, line)
			}
			t.Logf("%s %s: %s", p.name, c.args, strings.TrimSpace(string(line)))
		}
		in.Close()
		cmd.Wait()
		timer.Stop()
	}
}

// measure counts the Go tokens (not the semicolons the scanner inserts
// at line ends), the characters and the lines of src, without comments
// and blank lines.
func measure(t *testing.T, src string) (tokens, chars, lines int) {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("main.go", -1, len(src)), []byte(src), func(pos token.Position, msg string) { t.Errorf("%s: %s", pos, msg) }, 0)
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		tokens++
	}
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "//") {
			continue
		}
		lines++
		chars += len(l)
	}
	return tokens, chars, lines
}

// TestClientSideBySide checks the client side-by-side (docs/client.md,
// "The same client with go-sdk") the same way: sidebyside/clientmcpgen and sidebyside/clientgosdk start a server,
// call its "add" tool and print the answer, each written the way its
// library's documentation writes a client. The test counts both, checks
// that docs/client.md shows them as they are (from `func main` to the
// end) and the README the mcpgen one (its client),
// and runs both against the same server (sidebyside/mcpgen): both print 42.
func TestClientSideBySide(t *testing.T) {
	type program struct {
		name, dir            string
		src                  string
		tokens, chars, lines int
	}
	progs := []*program{{name: "mcpgen", dir: "sidebyside/clientmcpgen"}, {name: "go-sdk", dir: "sidebyside/clientgosdk"}}
	shownIn := map[string][]string{"sidebyside/clientmcpgen": {"docs/client.md", "README.md"}, "sidebyside/clientgosdk": {"docs/client.md"}}
	for _, p := range progs {
		b, err := os.ReadFile(filepath.Join(p.dir, "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		p.src = src[strings.Index(src, "package main"):]
		p.tokens, p.chars, p.lines = measure(t, p.src)
		body := p.src[strings.Index(p.src, "func main"):]
		for _, doc := range shownIn[p.dir] {
			if !strings.Contains(readDoc(t, doc), body) {
				t.Errorf("%s does not show %s/main.go as it is (from `func main` to the end)", doc, p.dir)
			}
		}
	}
	m, g := progs[0], progs[1]
	t.Logf("mcpgen: %d tokens, %d characters, %d lines; go-sdk: %d tokens, %d characters, %d lines", m.tokens, m.chars, m.lines, g.tokens, g.chars, g.lines)
	if m.tokens > g.tokens || m.lines > g.lines {
		t.Errorf("mcpgen's client has %d tokens and %d lines, go-sdk's %d and %d", m.tokens, m.lines, g.tokens, g.lines)
	}
	if testing.Short() {
		t.Skip("builds three programs")
	}
	bin := t.TempDir()
	for _, dir := range []string{"sidebyside/mcpgen", m.dir, g.dir} {
		if b, err := exec.Command("go", "build", "-o", filepath.Join(bin, filepath.Base(dir)), "./"+dir).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", dir, err, b)
		}
	}
	for _, p := range progs {
		cmd := exec.Command(filepath.Join(bin, filepath.Base(p.dir)), filepath.Join(bin, "mcpgen"))
		cmd.WaitDelay = 30 * time.Second
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "42" {
			t.Errorf("%s client: %v\n%s", p.name, err, out)
		}
	}
}

// readDoc returns a file of the repository's documentation (README.md,
// docs/...), from the repository's root.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
