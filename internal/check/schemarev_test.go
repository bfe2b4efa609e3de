package check

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/check/fixture"
	"github.com/mcpgen/mcpgen/schema"
)

// TestCheckSchema checks a server against a schema given to the check
// (Options.Schema) rather than the generated package: with the pinned
// 2026-07-28 schema itself the clean fixture passes every rule; with a
// copy whose Tool requires a member the fixture does not send, the check
// reports schema-valid at each listed tool and nothing else, so the given
// schema is the one the messages are validated against. Without
// --revision, or with a protocol version and no schema, it is a setup error.
func TestCheckSchema(t *testing.T) {
	pinned, ok := schema.Embedded("2026-07-28")
	if !ok {
		t.Fatal("2026-07-28 is not embedded")
	}
	var doc map[string]any
	if err := json.Unmarshal(pinned, &doc); err != nil {
		t.Fatal(err)
	}
	tool := doc["$defs"].(map[string]any)["Tool"].(map[string]any)
	tool["required"] = append(tool["required"].([]any), "checkSchemaMember")
	stricter, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name   string
		schema []byte
		want   []string
	}{
		{"pinned", pinned, nil},
		{"stricter", stricter, []string{"schema-valid"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := testOptions()
			o.Revision = "2026-07-28"
			o.Schema, o.SchemaOrigin = tc.schema, tc.name+".json"
			rep, err := Run(context.Background(), fixtureTarget(t, fixture.Config{Revision: "2026-07-28"}, "http"), o)
			if err != nil {
				t.Fatal(err)
			}
			np := notPassing(rep)
			if got := keys(np); !slices.Equal(got, tc.want) {
				t.Fatalf("reported %q, want %q\n%v", got, tc.want, np)
			}
			for _, m := range np["schema-valid"] {
				if !strings.Contains(m, "/tools/") || !strings.Contains(m, "checkSchemaMember") {
					t.Errorf("schema-valid at %s, want a listed tool without checkSchemaMember", m)
				}
			}
			if rep.Schema != tc.name+".json" || len(rep.Runs) != 1 || rep.Runs[0].Revision != "2026-07-28" {
				t.Errorf("report: schema %q, %d runs", rep.Schema, len(rep.Runs))
			}
		})
	}

	for _, tc := range []struct {
		revision, version string
		schema            []byte
		want              string
	}{
		{"", "", pinned, "needs --revision"},
		{"all", "", pinned, "needs --revision"},
		{"2026-07-28", "DRAFT-1", nil, "needs the schema"},
		{"2026-07-28", "", []byte(`{"type": "object"}`), "no definitions"},
	} {
		o := testOptions()
		o.Revision, o.ProtocolVersion, o.Schema = tc.revision, tc.version, tc.schema
		_, err := Run(context.Background(), Target{URL: "http://127.0.0.1:1/mcp"}, o)
		var se *SetupError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, tc.want) {
			t.Errorf("revision %q, version %q: %v, want a setup error saying %q", tc.revision, tc.version, err, tc.want)
		}
	}
}
