package conformance

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// TestGeneratedTypesArePlainData: no data type of a generated package (the
// types of types.go, the exported types of the runtime) has an unexported
// field, so ==, reflect.DeepEqual and go-cmp see everything a value holds.
// The dispatchers, the HTTP handler, the task store, a peer's Session, the
// client's Cache, the conversion tables of older revisions (Older) and the
// message in flight a Middleware sees (Call: it carries how the rest of
// the chain serves or sends it) are not data; they keep their state to
// themselves.
func TestGeneratedTypesArePlainData(t *testing.T) {
	notData := map[string]bool{"HTTPHandler": true, "TaskStore": true, "Session": true, "Cache": true, "Older": true, "Call": true}
	dirs, err := filepath.Glob("../generated/mcp*")
	if err != nil || len(dirs) < 5 {
		t.Fatalf("generated packages: %v %v", dirs, err)
	}
	structs := 0
	check := func(fset *token.FileSet, f *ast.File, only map[string]bool) {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok || (only != nil && !only[ts.Name.Name]) || notData[ts.Name.Name] {
				return false
			}
			structs++
			for _, fl := range st.Fields.List {
				for _, name := range fl.Names {
					if !name.IsExported() {
						t.Errorf("%s: %s has the unexported field %s", fset.Position(name.Pos()), ts.Name.Name, name.Name)
					}
				}
				if len(fl.Names) == 0 {
					t.Errorf("%s: %s embeds a field", fset.Position(fl.Pos()), ts.Name.Name)
				}
			}
			return false
		})
	}
	// The runtime's types a generated package re-exports (runtime.go:
	// type X = codec.X) are part of its API too.
	reexported := map[string]bool{}
	for _, dir := range dirs {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, filepath.Join(dir, "types.go"), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		check(fset, f, nil)
		rf, err := parser.ParseFile(fset, filepath.Join(dir, "runtime.go"), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(rf, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && ts.Assign.IsValid() {
				reexported[ts.Name.Name] = true
			}
			return true
		})
	}
	for _, pkg := range []string{"../runtime/codec", "../runtime/protocol"} {
		files, err := filepath.Glob(filepath.Join(pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			check(fset, f, reexported)
		}
	}
	if structs < 500 {
		t.Errorf("only %d struct types seen", structs)
	}
}

// TestDecodedEqualsLiteral: a decoded value and the literal that says the
// same are equal, with == where Go allows it and reflect.DeepEqual
// everywhere (interop/ shows go-cmp's cmp.Diff on the same values).
func TestDecodedEqualsLiteral(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/logLevel":"info"},"name":"add","arguments":{"a":1}}}`
	var got mcp.CallToolRequest
	if err := mcp.UnmarshalAndValidate([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	want := mcp.CallToolRequest{
		ID: mcp.RequestIdFromInteger(7),
		Params: mcp.CallToolRequestParams{
			Meta: mcp.RequestMetaObject{
				ProtocolVersion:    mcp.ProtocolVersion,
				ClientCapabilities: mcp.ClientCapabilities{Roots: &mcp.ClientCapabilitiesRoots{}},
				LogLevel:           new(mcp.LoggingLevelInfo),
			},
			Name:      "add",
			Arguments: json.RawMessage(`{"a":1}`),
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded %+v\nwant    %+v", got, want)
	}
	if got.ID != mcp.RequestIdFromInteger(7) || got.ID == mcp.RequestIdFromString("7") {
		t.Errorf("RequestId == : %+v", got.ID)
	}

	res := `{"content":[{"type":"text","text":"3"},{"type":"image","data":"aGk=","mimeType":"image/png"}],"isError":false,"resultType":"complete"}`
	var r mcp.CallToolResult
	if err := mcp.UnmarshalAndValidate([]byte(res), &r); err != nil {
		t.Fatal(err)
	}
	wantR := mcp.CallToolResult{
		Content: []mcp.ContentBlock{
			&mcp.TextContent{Text: "3"},
			&mcp.ImageContent{Data: "aGk=", MIMEType: "image/png"},
		},
		IsError:    new(false),
		ResultType: mcp.ResultTypeComplete,
	}
	if !reflect.DeepEqual(r, wantR) {
		t.Errorf("decoded %+v\nwant    %+v", r, wantR)
	}
	if b, _ := wantR.MarshalJSON(); string(b) != `{"content":[{"text":"3","type":"text"},{"data":"aGk=","mimeType":"image/png","type":"image"}],"isError":false,"resultType":"complete"}` {
		t.Errorf("literal encodes as %s", b)
	}
}

// TestMissingRequiredReportedWhenDecoding: an absent required member is a
// decoding error at the object's pointer, with the keyword "required".
func TestMissingRequiredReportedWhenDecoding(t *testing.T) {
	cases := []struct {
		name string
		into interface{ UnmarshalJSON([]byte) error }
		in   string
		want []mcp.Violation
	}{
		{"top level", new(mcp.TextContent), `{"type":"text"}`,
			[]mcp.Violation{{Pointer: "", Keyword: "required", Message: `missing required member "text"`}}},
		{"const member", new(mcp.TextContent), `{"text":"x"}`,
			[]mcp.Violation{{Pointer: "", Keyword: "required", Message: `missing required member "type"`}}},
		{"in a union in an array", new(mcp.CallToolResult), `{"resultType":"complete","content":[{"type":"text","text":"a"},{"type":"image","data":""}]}`,
			[]mcp.Violation{{Pointer: "/content/1", Keyword: "required", Message: `missing required member "mimeType"`}}},
		{"two members and a type error", new(mcp.Implementation), `{"title":5}`,
			[]mcp.Violation{
				{Pointer: "/title", Keyword: "type", Message: "expected string, got number"},
				{Pointer: "", Keyword: "required", Message: `missing required member "name"`},
				{Pointer: "", Keyword: "required", Message: `missing required member "version"`},
			}},
	}
	for _, c := range cases {
		err := c.into.UnmarshalJSON([]byte(c.in))
		var verr *mcp.ValidationError
		if !errors.As(err, &verr) {
			t.Errorf("%s: %v, want a *ValidationError", c.name, err)
			continue
		}
		if !reflect.DeepEqual(verr.Violations, c.want) {
			t.Errorf("%s: violations %+v\nwant %+v", c.name, verr.Violations, c.want)
		}
	}
	// UnmarshalAndValidate reports the missing member and what Validate
	// finds under the same object.
	var req mcp.CallToolRequest
	err := mcp.UnmarshalAndValidate([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"x","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}}`), &req)
	if err == nil || !strings.Contains(err.Error(), `/params: missing required member "name"`) || !strings.Contains(err.Error(), `"loud" is not one of`) {
		t.Errorf("UnmarshalAndValidate: %v", err)
	}
}

// TestNilUnion: a nil union where one is required is reported by Validate,
// and encoding leaves it out (a member) or writes null (an element),
// without panicking.
func TestNilUnion(t *testing.T) {
	p := mcp.PromptMessage{Role: mcp.RoleUser}
	err := p.Validate()
	if err == nil || err.Error() != `invalid: /: missing required member "content" (required)` {
		t.Errorf("Validate: %v", err)
	}
	if b, err := p.MarshalJSON(); err != nil || string(b) != `{"role":"user"}` {
		t.Errorf("MarshalJSON: %s %v", b, err)
	}
	r := mcp.CallToolResult{ResultType: mcp.ResultTypeComplete, Content: []mcp.ContentBlock{&mcp.TextContent{Text: "a"}, nil}}
	err = r.Validate()
	if err == nil || !strings.Contains(err.Error(), "/content/1: no value") {
		t.Errorf("Validate: %v", err)
	}
	if b, err := json.Marshal(r); err != nil || string(b) != `{"content":[{"text":"a","type":"text"},null],"resultType":"complete"}` {
		t.Errorf("json.Marshal: %s %v", b, err)
	}
	var id mcp.RequestId
	if err := id.Validate(); err == nil {
		t.Errorf("the zero RequestId is valid")
	}
	if err := (mcp.RequestId{Kind: mcp.KindBoolean}).Validate(); err == nil || !strings.Contains(err.Error(), "holds a boolean, want string or integer") {
		t.Errorf("RequestId of the wrong kind: %v", err)
	}
}

// TestGetters: an optional scalar has a getter that is safe on a nil
// receiver and a nil field.
func TestGetters(t *testing.T) {
	var r *mcp.CallToolResult
	if r.GetIsError() {
		t.Error("nil result: GetIsError = true")
	}
	r = &mcp.CallToolResult{}
	if r.GetIsError() {
		t.Error("absent isError: GetIsError = true")
	}
	r.IsError = new(true)
	if !r.GetIsError() {
		t.Error("isError true: GetIsError = false")
	}
	var meta *mcp.RequestMetaObject
	if meta.GetLogLevel() != "" {
		t.Error("nil _meta: GetLogLevel not empty")
	}
	if got := (&mcp.RequestMetaObject{LogLevel: new(mcp.LoggingLevelDebug)}).GetLogLevel(); got != mcp.LoggingLevelDebug {
		t.Errorf("GetLogLevel = %q", got)
	}
}

// TestOpenCapabilities: a capability the schema leaves open is a struct
// that keeps what it is sent.
func TestOpenCapabilities(t *testing.T) {
	caps := mcp.ServerCapabilities{Logging: &mcp.ServerCapabilitiesLogging{}, Completions: &mcp.ServerCapabilitiesCompletions{}}
	if b, err := caps.MarshalJSON(); err != nil || string(b) != `{"completions":{},"logging":{}}` {
		t.Errorf("MarshalJSON: %s %v", b, err)
	}
	var got mcp.ServerCapabilities
	if err := mcp.UnmarshalAndValidate([]byte(`{"logging":{"level":"x"}}`), &got); err != nil {
		t.Fatal(err)
	}
	if got.Logging == nil || string(got.Logging.Extra["level"]) != `"x"` {
		t.Errorf("logging: %+v", got.Logging)
	}
	// 2026-07-28's JSONObject allows no floats: the member is checked.
	if err := mcp.UnmarshalAndValidate([]byte(`{"logging":{"level":1.5}}`), &got); err == nil {
		t.Error("a float in an open capability was accepted")
	}
}
