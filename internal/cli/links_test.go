package cli_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// TestGeneratePathLinksNoGeneratedCode: what make generate runs
// (internal/cmd/mcpgen-generate, and internal/cli itself) does not depend
// on any package under generated/, so regenerating works when generated/
// is stale, broken or absent; cmd/mcpgen, with check, does.
func TestGeneratePathLinksNoGeneratedCode(t *testing.T) {
	list := func(pkg string) []string {
		cmd := exec.Command("go", "list", "-deps", pkg)
		cmd.Dir = testenv.ModuleRoot(t)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		var gen []string
		for _, p := range strings.Fields(string(out)) {
			if strings.HasPrefix(p, "github.com/mcpgen/mcpgen/generated/") {
				gen = append(gen, p)
			}
		}
		return gen
	}
	for _, pkg := range []string{"./internal/cmd/mcpgen-generate", "./internal/cli"} {
		if gen := list(pkg); len(gen) > 0 {
			t.Errorf("%s links generated packages: %v", pkg, gen)
		}
	}
	if gen := list("./cmd/mcpgen"); len(gen) == 0 {
		t.Error("cmd/mcpgen links no generated package: is mcpgen check still registered?")
	}
}
