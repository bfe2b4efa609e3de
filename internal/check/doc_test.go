package check

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the rules table of docs/check.md")

const (
	rulesBegin = "<!-- rules table: "
	rulesEnd   = "<!-- end of the rules table -->"
)

// TestRulesDoc keeps the rules table of docs/check.md equal to the
// catalogue (mcpgen check --list-rules --format markdown).
func TestRulesDoc(t *testing.T) {
	const path = "../../docs/check.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(doc, []byte(rulesBegin))
	j := bytes.Index(doc, []byte(rulesEnd))
	if i < 0 || j < i {
		t.Fatalf("%s has no rules table between %q and %q", path, rulesBegin, rulesEnd)
	}
	i += bytes.IndexByte(doc[i:], '\n') + 1
	var want bytes.Buffer
	if err := WriteRules(&want, "markdown"); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(doc[i:j], want.Bytes()) {
		return
	}
	if *update {
		out := append(append(append([]byte(nil), doc[:i]...), want.Bytes()...), doc[j:]...)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got := strings.Split(string(doc[i:j]), "\n")
	for n, l := range strings.Split(want.String(), "\n") {
		if n >= len(got) || got[n] != l {
			t.Fatalf("the rules table of %s is stale (run go test ./internal/check -run TestRulesDoc -update); line %d:\n got: %s\nwant: %s", path, n+1, at(got, n), l)
		}
	}
	t.Fatalf("the rules table of %s is stale (run go test ./internal/check -run TestRulesDoc -update)", path)
}

func at(l []string, n int) string {
	if n < len(l) {
		return l[n]
	}
	return "(end of table)"
}
