package protocol_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp20250618"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

type profile struct {
	Name      string `json:"name" jsonschema:"Your name"`
	Age       int64  `json:"age,omitempty" mcp:"minimum=0,maximum=150"`
	Color     string `json:"color,omitempty" mcp:"enum=red|green"`
	Subscribe bool   `json:"subscribe"`
}

// TestForm: Form derives a form's requestedSchema from a struct as AddTool
// derives a tool's inputSchema (without additionalProperties), and
// FormValue reads an accepted answer back into the struct, checked.
func TestForm(t *testing.T) {
	f := mcp.Form[profile]("Who are you?")
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	b, err := f.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"message":"Who are you?"`, `"name":{"description":"Your name","type":"string"}`,
		`"age":{"maximum":150,"minimum":0,"type":"integer"}`, `"color":{"enum":["red","green"],"type":"string"}`,
		`"subscribe":{"type":"boolean"}`, `"required":["name","subscribe"]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("Form: %s lacks %s", b, want)
		}
	}
	if strings.Contains(string(b), "additionalProperties") {
		t.Errorf("Form: %s has additionalProperties", b)
	}

	answer := func(action mcp.ElicitResultAction, content map[string]mcp.ElicitResultContentValue) *mcp.ElicitResult {
		return &mcp.ElicitResult{Action: action, Content: content}
	}
	v, ok, err := mcp.FormValue[profile](answer(mcp.ElicitResultActionAccept, map[string]mcp.ElicitResultContentValue{
		"name": mcp.ElicitResultContentValueFromString("Ann"), "age": mcp.ElicitResultContentValueFromInteger(30),
		"subscribe": mcp.ElicitResultContentValueFromBoolean(true),
	}))
	if err != nil || !ok || v != (profile{Name: "Ann", Age: 30, Subscribe: true}) {
		t.Errorf("FormValue: %+v %v %v", v, ok, err)
	}
	// Members the struct does not declare are left out (a form's schema
	// allows them): an answer may fill two forms at once.
	v, ok, err = mcp.FormValue[profile](answer(mcp.ElicitResultActionAccept, map[string]mcp.ElicitResultContentValue{
		"name": mcp.ElicitResultContentValueFromString("Cy"), "subscribe": mcp.ElicitResultContentValueFromBoolean(false),
		"confirm": mcp.ElicitResultContentValueFromBoolean(true),
	}))
	if err != nil || !ok || v != (profile{Name: "Cy"}) {
		t.Errorf("FormValue with a member the struct lacks: %+v %v %v", v, ok, err)
	}
	for _, a := range []mcp.ElicitResultAction{mcp.ElicitResultActionDecline, mcp.ElicitResultActionCancel} {
		if v, ok, err := mcp.FormValue[profile](answer(a, nil)); ok || err != nil || v != (profile{}) {
			t.Errorf("FormValue of %s: %+v %v %v", a, v, ok, err)
		}
	}
	if _, ok, err := mcp.FormValue[profile](nil); ok || err != nil {
		t.Errorf("FormValue(nil): %v %v", ok, err)
	}
	for content, want := range map[string]map[string]mcp.ElicitResultContentValue{
		`missing required member "subscribe"`: {"name": mcp.ElicitResultContentValueFromString("Ann")},
		`maximum`: {"name": mcp.ElicitResultContentValueFromString("Ann"), "subscribe": mcp.ElicitResultContentValueFromBoolean(false),
			"age": mcp.ElicitResultContentValueFromInteger(200)},
	} {
		_, ok, err := mcp.FormValue[profile](answer(mcp.ElicitResultActionAccept, want))
		var re *mcp.RPCError
		if ok || !errors.As(err, &re) || re.Code != mcp.CodeInvalidParams || !strings.Contains(err.Error(), content) {
			t.Errorf("FormValue of %v: %v %v, want invalid params with %q", want, ok, err, content)
		}
	}

	// 2025-06-18's params are the form's (no url mode yet).
	old := mcp20250618.Form[profile]("Who are you?")
	if err := old.Validate(); err != nil || len(old.RequestedSchema.Properties) != 4 || len(old.RequestedSchema.Required) != 2 {
		t.Errorf("2025-06-18 Form: %+v %v", old.RequestedSchema, err)
	}
	if v, ok, err := mcp20250618.FormValue[profile](&mcp20250618.ElicitResult{Action: mcp20250618.ElicitResultActionAccept,
		Content: map[string]mcp20250618.ElicitResultContentValue{"name": {Kind: mcp20250618.KindString, Str: "Bo"}, "subscribe": {Kind: mcp20250618.KindBoolean}}}); err != nil || !ok || v.Name != "Bo" {
		t.Errorf("2025-06-18 FormValue: %+v %v %v", v, ok, err)
	}

	// A struct a form cannot hold.
	type nested struct {
		Address struct {
			City string `json:"city"`
		} `json:"address"`
	}
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "form of protocol_test.nested") || !strings.Contains(s, "requestedSchema") {
			t.Errorf("Form of a nested struct: %v", r)
		}
	}()
	mcp.Form[nested]("?")
}
