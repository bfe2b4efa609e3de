package gen_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

// TestDefinitionsKeepTheirNames adds definitions named like the package's
// own API (the tool set's Server, the runtime's Stream, the prompt helpers
// UserMessage and AssistantMessage, and more) to a pinned revision: the
// package generates, builds and passes go vet, the definitions keep their
// names, and the package's names give way as docs/generating.md says
// (MCPServer; the runtime's Stream not re-exported). Without the extra
// definitions the package's names are the usual ones.
func TestDefinitionsKeepTheirNames(t *testing.T) {
	data, ok := schema.Embedded("2025-06-18")
	if !ok {
		t.Fatal("no embedded 2025-06-18 schema")
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	defs := doc["definitions"].(map[string]any)
	added := []string{"Server", "Stream", "UserMessage", "AssistantMessage", "Tools", "Session", "MethodInfo", "ValidationError", "KindString", "Members", "ProtocolVersion", "Client"}
	for _, n := range added {
		defs[n] = map[string]any{"type": "object", "description": "A definition named " + n + ".", "properties": map[string]any{"name": map[string]any{"type": "string"}}}
	}
	collided, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	opts := func() gen.Options {
		return gen.Options{Package: "mcp", Revision: "2025-06-18", Source: gen.SourceInfo{URL: "schema.json", SHA256: schema.SHA256(collided)}}
	}
	files, warns, err := gen.Generate("schema.json", collided, opts())
	if err != nil {
		t.Fatalf("a schema with definitions named like the package's API is refused: %v", err)
	}
	for _, n := range added {
		decl := regexp.MustCompile(`(?m)^type ` + n + ` struct \{\n(\s*//.*\n)*\s*Name \*string`)
		if !decl.Match(files["types.go"]) {
			t.Errorf("the definition %s is not the type %s of types.go", n, n)
		}
	}
	for _, want := range []struct{ file, re string }{
		{"tools.go", `(?m)^type MCPServer struct \{`},
		{"tools.go", `(?m)^func MCPUserMessage\(`},
		{"tools.go", `(?m)^func MCPAssistantMessage\(`},
		{"dispatch.go", `(?m)^type MCPMethodInfo struct`},
		{"doc.go", `(?m)^const MCPProtocolVersion = "2025-06-18"$`},
		{"client.go", `(?m)^type MCPClient struct`},
	} {
		if !regexp.MustCompile(want.re).Match(files[want.file]) {
			t.Errorf("%s has no %s", want.file, want.re)
		}
	}
	rt := string(files["runtime.go"])
	for _, n := range []string{"Stream", "Session", "ValidationError", "KindString", "Members"} {
		if strings.Contains(rt, "\t"+n+" = ") {
			t.Errorf("runtime.go re-exports %s, which a definition has", n)
		}
	}
	var said []string
	for _, w := range warns {
		said = append(said, w.Error())
	}
	for _, n := range []string{"MCPServer", "MCPUserMessage", "the runtime's Stream"} {
		if !strings.Contains(strings.Join(said, "\n"), n) {
			t.Errorf("no warning names %s; warnings:\n%s", n, strings.Join(said, "\n"))
		}
	}

	// It compiles and passes go vet.
	dir := t.TempDir()
	writeGo(t, filepath.Join(dir, "mcp"), files)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(testenv.GoMod(t, "ownnames.test")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the package does not pass go vet: %v\n%s", err, out)
	}

	// The pinned revision as it is keeps the usual names.
	plain, _, err := gen.Generate("schema.json", data, gen.Options{Package: "mcp", Revision: "2025-06-18", Source: gen.SourceInfo{URL: "schema.json", SHA256: schema.SHA256(data)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct{ file, re string }{
		{"tools.go", `(?m)^type Server struct \{`},
		{"tools.go", `(?m)^func UserMessage\(`},
		{"runtime.go", `(?m)^\tStream += jsonrpc\.Stream$`},
		{"doc.go", `(?m)^const ProtocolVersion = "2025-06-18"$`},
		{"client.go", `(?m)^type Client struct`},
	} {
		if !regexp.MustCompile(want.re).Match(plain[want.file]) {
			t.Errorf("without the extra definitions, %s has no %s", want.file, want.re)
		}
	}
	if strings.Contains(string(plain["tools.go"]), "MCPServer") {
		t.Error("without the extra definitions, the package still renames its Server")
	}
}
