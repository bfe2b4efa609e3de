package conformance

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	mcp20241105 "github.com/mcpgen/mcpgen/generated/mcp20241105"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// metaAccess is the one way to read and write a member of _meta, whatever
// the Go type of a message's _meta.
type metaAccess interface {
	MetaValue(key string) (json.RawMessage, bool)
	SetMetaValue(key string, value json.RawMessage) error
}

// TestMetaAccess: MetaValue and SetMetaValue read and write one member of
// _meta alike on each shape _meta has (raw JSON, a named raw type, a struct
// by pointer and by value), typed members included.
func TestMetaAccess(t *testing.T) {
	for _, c := range []struct {
		name string
		msg  metaAccess
		// typed is a member the Go type of _meta declares, with a value
		// it can hold and one it cannot ("" when it declares none).
		typed, good, bad string
	}{
		{"CallToolResult (*ResultMetaObject)", &mcp.CallToolResult{}, "io.modelcontextprotocol/serverInfo", `{"name":"s","version":"1"}`, `"s"`},
		{"CallToolRequestParams (RequestMetaObject)", &mcp.CallToolRequestParams{Name: "t"}, "io.modelcontextprotocol/logLevel", `"info"`, `7`},
		{"Tool (MetaObject)", &mcp.Tool{Name: "t"}, "", "", ""},
		{"2024-11-05 CallToolResult (json.RawMessage)", &mcp20241105.CallToolResult{}, "", "", ""},
		{"2024-11-05 RequestParams (*RequestParamsMeta)", &mcp20241105.RequestParams{}, "progressToken", `"tok"`, `true`},
	} {
		m := c.msg
		if v, ok := m.MetaValue("com.example/trace"); ok || v != nil {
			t.Errorf("%s: an empty _meta has %s", c.name, v)
		}
		if err := m.SetMetaValue("com.example/trace", json.RawMessage(`{"id":"a"}`)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if err := m.SetMetaValue("com.example/n", json.RawMessage(`1`)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if err := m.SetMetaValue("com.example/trace", json.RawMessage(`{"id":"b"}`)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if v, ok := m.MetaValue("com.example/trace"); !ok || string(v) != `{"id":"b"}` {
			t.Errorf("%s: trace %s %v", c.name, v, ok)
		}
		if err := m.SetMetaValue("com.example/n", nil); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, ok := m.MetaValue("com.example/n"); ok {
			t.Errorf("%s: a removed member is still there", c.name)
		}
		if err := m.SetMetaValue("com.example/x", json.RawMessage(`{`)); err == nil || !strings.Contains(err.Error(), "not one JSON value") {
			t.Errorf("%s: a broken value: %v", c.name, err)
		}
		if c.typed != "" {
			if err := m.SetMetaValue(c.typed, json.RawMessage(c.good)); err != nil {
				t.Errorf("%s: %s: %v", c.name, c.typed, err)
			}
			if v, ok := m.MetaValue(c.typed); !ok || string(v) != c.good {
				t.Errorf("%s: %s is %s %v, want %s", c.name, c.typed, v, ok, c.good)
			}
			if err := m.SetMetaValue(c.typed, json.RawMessage(c.bad)); err == nil {
				t.Errorf("%s: %s set to %s, which its type cannot hold", c.name, c.typed, c.bad)
			}
			if v, _ := m.MetaValue(c.typed); string(v) != c.good {
				t.Errorf("%s: a refused value changed %s to %s", c.name, c.typed, v)
			}
		}
		// The message's JSON carries what was set.
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"com.example/trace":{"id":"b"}`) {
			t.Errorf("%s: %s", c.name, b)
		}
	}
	// The typed field is the member: what SetMetaValue wrote is in it.
	p := &mcp.CallToolRequestParams{Name: "t"}
	if err := p.SetMetaValue("io.modelcontextprotocol/logLevel", json.RawMessage(`"debug"`)); err != nil || p.Meta.GetLogLevel() != mcp.LoggingLevelDebug {
		t.Errorf("logLevel: %v %q", err, p.Meta.GetLogLevel())
	}
	var nilResult *mcp.CallToolResult
	if v, ok := nilResult.MetaValue("x"); ok || v != nil {
		t.Errorf("nil result: %s", v)
	}
}

// TestEveryMetaHasAccess: in every generated package, each struct with a
// _meta member has MetaValue and SetMetaValue.
func TestEveryMetaHasAccess(t *testing.T) {
	dirs, err := filepath.Glob("../generated/mcp*")
	if err != nil || len(dirs) < 5 {
		t.Fatalf("generated packages: %v %v", dirs, err)
	}
	for _, dir := range dirs {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, filepath.Join(dir, "types.go"), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		withMeta := map[string]bool{}
		methods := map[string]map[string]bool{}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, fl := range st.Fields.List {
						if fl.Tag != nil && strings.Contains(fl.Tag.Value, `json:"_meta`) {
							withMeta[ts.Name.Name] = true
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) != 1 {
					continue
				}
				star, ok := d.Recv.List[0].Type.(*ast.StarExpr)
				if !ok {
					continue
				}
				id, ok := star.X.(*ast.Ident)
				if !ok {
					continue
				}
				if methods[id.Name] == nil {
					methods[id.Name] = map[string]bool{}
				}
				methods[id.Name][d.Name.Name] = true
			}
		}
		if len(withMeta) < 10 {
			t.Errorf("%s: only %d structs with _meta", dir, len(withMeta))
		}
		for name := range withMeta {
			if !methods[name]["MetaValue"] || !methods[name]["SetMetaValue"] {
				t.Errorf("%s: %s has _meta but not MetaValue and SetMetaValue", dir, name)
			}
		}
	}
}
