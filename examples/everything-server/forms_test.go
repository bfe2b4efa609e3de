package main

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestFormSchemas: the forms of test_elicitation_sep1034_defaults and
// test_elicitation_sep1330_enums, derived from struct tags, ask the client
// for exactly the schemas the conformance scenarios give (these were the
// server's hand-written schemas before the tags could say as much), and
// the client's answer is the request's requestedSchema as the server sends
// it.
func TestFormSchemas(t *testing.T) {
	_, d := newTestServer(t)
	for name, want := range map[string]string{
		"test_elicitation_sep1034_defaults": `{"type":"object","properties":{` +
			`"name":{"type":"string","description":"User name","default":"John Doe"},` +
			`"age":{"type":"integer","description":"User age","default":30},` +
			`"score":{"type":"number","description":"User score","default":95.5},` +
			`"status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},` +
			`"verified":{"type":"boolean","description":"Verification status","default":true}}}`,
		"test_elicitation_sep1330_enums": `{"type":"object","properties":{` +
			`"untitledSingle":{"type":"string","description":"Choose an option","enum":["option1","option2","option3"]},` +
			`"titledSingle":{"type":"string","description":"Choose a titled option","oneOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},` +
			`"legacyEnum":{"type":"string","description":"Choose a legacy option","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},` +
			`"untitledMulti":{"type":"array","description":"Choose multiple options","items":{"type":"string","enum":["option1","option2","option3"]}},` +
			`"titledMulti":{"type":"array","description":"Choose multiple titled options","items":{"anyOf":[{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},{"const":"value3","title":"Third Choice"}]}}}}`,
	} {
		r := call(t, d, "tools/call", `{`+meta(allCaps)+`,"name":"`+name+`","arguments":{}}`)
		var v struct {
			InputRequests map[string]struct {
				Method string `json:"method"`
				Params struct {
					Mode            string          `json:"mode"`
					RequestedSchema json.RawMessage `json:"requestedSchema"`
				} `json:"params"`
			} `json:"inputRequests"`
		}
		if r.Error != nil || json.Unmarshal(r.Result, &v) != nil {
			t.Fatalf("%s: %+v %s", name, r.Error, r.Result)
		}
		form, ok := v.InputRequests["form"]
		if !ok || form.Method != "elicitation/create" {
			t.Fatalf("%s: no elicitation/create under \"form\": %s", name, r.Result)
		}
		var got, exp any
		if err := json.Unmarshal(form.Params.RequestedSchema, &got); err != nil {
			t.Fatalf("%s: requestedSchema: %v", name, err)
		}
		if err := json.Unmarshal([]byte(want), &exp); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, exp) {
			t.Errorf("%s: requestedSchema\n%s\nwant (as JSON)\n%s", name, form.Params.RequestedSchema, want)
		}
	}
}
