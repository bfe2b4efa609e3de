package main

import (
	"context"
	"sort"
	"strings"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Tools that ask the client for input with multi round-trip requests
// (basic/patterns/mrtr.mdx): the first call answers with an input-required
// result, the client retries with the answers (and the requestState, which
// the dispatcher seals and checks), and the tool completes.

// ask answers a request with an input-required result: the input requests
// (JSON by key) and, if state is not empty, a requestState that comes back
// with the retry.
func ask(state string, requests map[string]string) error {
	keys := make([]string, 0, len(requests))
	for k := range requests {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonText(k) + ":" + requests[k])
	}
	b.WriteByte('}')
	r := mcp.InputRequiredResult{InputRequests: decode[mcp.InputRequests](b.String())}
	if state != "" {
		r.RequestState = &state
	}
	return mcp.NeedInput(r)
}

// stateOf is the requestState a retry brought back ("" on a first call).
func stateOf(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

const (
	nameSchema  = `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`
	okSchema    = `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`
	colorSchema = `{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}`
)

func inputTools() []tool {
	return []tool{
		defineTool(`{"name":"test_input_required_result_elicitation","description":"Asks for the user's name, then greets them.","inputSchema":`+noArgs+`}`,
			callGreetByName),
		defineTool(`{"name":"test_input_required_result_sampling","description":"Asks the client's model a question and returns its answer.","inputSchema":`+noArgs+`}`,
			callAskModel),
		defineTool(`{"name":"test_input_required_result_list_roots","description":"Asks for the client's roots and lists them.","inputSchema":`+noArgs+`}`,
			callListRoots),
		defineTool(`{"name":"test_input_required_result_request_state","description":"Asks for a confirmation and keeps its progress in requestState.","inputSchema":`+noArgs+`}`,
			callWithState),
		defineTool(`{"name":"test_input_required_result_multiple_inputs","description":"Asks for a name, a model completion and the client's roots at once.","inputSchema":`+noArgs+`}`,
			callMultipleInputs),
		defineTool(`{"name":"test_input_required_result_multi_round","description":"Asks for a name, then a favorite color, in two rounds.","inputSchema":`+noArgs+`}`,
			callMultiRound),
		defineTool(`{"name":"test_input_required_result_tampered_state","description":"Asks for a confirmation with a requestState; a retry whose requestState was altered is refused.","inputSchema":`+noArgs+`}`,
			callWithState),
		defineTool(`{"name":"test_input_required_result_capabilities","description":"Asks only for the kinds of input the client declared it can give.","inputSchema":`+noArgs+`}`,
			callByCapabilities),
		defineTool(`{"name":"test_sampling","description":"Asks the client's model to answer prompt and returns the answer.","inputSchema":{"type":"object","properties":{"prompt":{"type":"string","description":"The prompt for the model"}},"required":["prompt"]}}`,
			callSampling),
		defineTool(`{"name":"test_elicitation","description":"Asks the user for their user name and email address, with message.","inputSchema":{"type":"object","properties":{"message":{"type":"string","description":"The message to show the user"}},"required":["message"]}}`,
			callElicitation),
		defineTool(`{"name":"test_elicitation_sep1034_defaults","description":"Asks the user for a form whose fields have default values (SEP-1034).","inputSchema":`+noArgs+`}`,
			elicitForm("Please review your profile (the fields have defaults)", sep1034Schema)),
		defineTool(`{"name":"test_elicitation_sep1330_enums","description":"Asks the user to choose from every kind of enum field (SEP-1330).","inputSchema":`+noArgs+`}`,
			elicitForm("Please choose from the options", sep1330Schema)),
	}
}

func callGreetByName(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if a, ok := answerTo(p.InputResponses, "user_name"); ok {
		if c, ok := a.accepted(); ok {
			if name, ok := c["name"].(string); ok {
				return toolResult(text("Hello, " + name + "!")), nil
			}
		}
		return toolResult(text("Hello, whoever you are!")), nil
	}
	// A first call, or a retry without the answer (such as one that
	// answered something else): ask (again).
	return nil, ask("", map[string]string{"user_name": elicitation("What is your name?", nameSchema)})
}

func callAskModel(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if a, ok := answerTo(p.InputResponses, "capital_question"); ok {
		return toolResult(text("The model answered: " + a.sampledText())), nil
	}
	return nil, ask("", map[string]string{"capital_question": samplingRequest("What is the capital of France?", 100)})
}

func callListRoots(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if a, ok := answerTo(p.InputResponses, "client_roots"); ok {
		var uris []string
		for _, r := range a.Roots {
			uris = append(uris, r.URI)
		}
		return toolResult(text("The client's roots: " + strings.Join(uris, ", "))), nil
	}
	return nil, ask("", map[string]string{"client_roots": rootsRequest})
}

// callWithState asks for a confirmation, remembering in requestState that
// it did; the dispatcher gives the state back only if the client returned
// it unaltered.
func callWithState(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if stateOf(p.RequestState) == "awaiting-confirmation" {
		if a, ok := answerTo(p.InputResponses, "confirm"); ok {
			if c, ok := a.accepted(); ok && c["ok"] == true {
				return toolResult(text("state-ok: confirmed")), nil
			}
			return toolResult(text("state-ok: not confirmed")), nil
		}
	}
	return nil, ask("awaiting-confirmation", map[string]string{"confirm": elicitation("Do you confirm?", okSchema)})
}

func callMultipleInputs(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	requests := map[string]string{
		"user_name":    elicitation("What is your name?", nameSchema),
		"greeting":     samplingRequest("Generate a greeting", 50),
		"client_roots": rootsRequest,
	}
	if stateOf(p.RequestState) == "multiple" {
		// Ask again only for what is still missing.
		for k := range requests {
			if _, ok := answerTo(p.InputResponses, k); ok {
				delete(requests, k)
			}
		}
		if len(requests) == 0 {
			name, _ := answerTo(p.InputResponses, "user_name")
			greeting, _ := answerTo(p.InputResponses, "greeting")
			roots, _ := answerTo(p.InputResponses, "client_roots")
			c, _ := name.accepted()
			return toolResult(text("name: " + jsonText(c["name"]) + "; greeting: " + greeting.sampledText() +
				"; roots: " + jsonText(len(roots.Roots)))), nil
		}
	}
	return nil, ask("multiple", requests)
}

func callMultiRound(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	state := stateOf(p.RequestState)
	switch {
	case state == "round-1":
		if a, ok := answerTo(p.InputResponses, "step1"); ok {
			c, _ := a.accepted()
			name, _ := c["name"].(string)
			// The state carries the name to the next round.
			return nil, ask("round-2:"+name, map[string]string{"step2": elicitation("Step 2: What is your favorite color?", colorSchema)})
		}
	case strings.HasPrefix(state, "round-2:"):
		if a, ok := answerTo(p.InputResponses, "step2"); ok {
			c, _ := a.accepted()
			color, _ := c["color"].(string)
			return toolResult(text(strings.TrimPrefix(state, "round-2:") + "'s favorite color is " + color + ".")), nil
		}
		return nil, ask(state, map[string]string{"step2": elicitation("Step 2: What is your favorite color?", colorSchema)})
	}
	return nil, ask("round-1", map[string]string{"step1": elicitation("Step 1: What is your name?", nameSchema)})
}

// callByCapabilities asks only for what the request's client capabilities
// cover: asking for more would be refused (-32021).
func callByCapabilities(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if len(p.InputResponses) > 0 {
		var got []string
		for k := range p.InputResponses {
			got = append(got, k)
		}
		sort.Strings(got)
		return toolResult(text("Received: " + strings.Join(got, ", "))), nil
	}
	caps := p.Meta.ClientCapabilities
	requests := map[string]string{}
	if caps.Elicitation != nil {
		requests["user_name"] = elicitation("What is your name?", nameSchema)
	}
	if caps.Sampling != nil {
		requests["greeting"] = samplingRequest("Generate a greeting", 50)
	}
	if caps.Roots != nil {
		requests["client_roots"] = rootsRequest
	}
	if len(requests) == 0 {
		return toolResult(text("The client declared no capability to give input; nothing to ask.")), nil
	}
	return nil, ask("", requests)
}

func callSampling(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	var in struct {
		Prompt string `json:"prompt"`
	}
	if r := args(p, &in); r != nil {
		return r, nil
	}
	if a, ok := answerTo(p.InputResponses, "completion"); ok {
		return toolResult(text("LLM response: " + a.sampledText())), nil
	}
	return nil, ask("", map[string]string{"completion": samplingRequest(in.Prompt, 100)})
}

func callElicitation(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	var in struct {
		Message string `json:"message"`
	}
	if r := args(p, &in); r != nil {
		return r, nil
	}
	if a, ok := answerTo(p.InputResponses, "user_info"); ok {
		return toolResult(text("User response: action=" + a.Action + ", content=" + jsonText(a.Content))), nil
	}
	return nil, ask("", map[string]string{"user_info": elicitation(in.Message,
		`{"type":"object","properties":{"username":{"type":"string","description":"User's response"},"email":{"type":"string","description":"User's email address"}},"required":["username","email"]}`)})
}

const sep1034Schema = `{"type":"object","properties":{` +
	`"name":{"type":"string","description":"User name","default":"John Doe"},` +
	`"age":{"type":"integer","description":"User age","default":30},` +
	`"score":{"type":"number","description":"User score","default":95.5},` +
	`"status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},` +
	`"verified":{"type":"boolean","description":"Verification status","default":true}}}`

const sep1330Schema = `{"type":"object","properties":{` +
	`"untitledSingle":{"type":"string","description":"Choose an option","enum":["option1","option2","option3"]},` +
	`"titledSingle":{"type":"string","description":"Choose a titled option","oneOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},` +
	`"legacyEnum":{"type":"string","description":"Choose a legacy option","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},` +
	`"untitledMulti":{"type":"array","description":"Choose multiple options","items":{"type":"string","enum":["option1","option2","option3"]}},` +
	`"titledMulti":{"type":"array","description":"Choose multiple titled options","items":{"anyOf":[{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},{"const":"value3","title":"Third Choice"}]}}}}`

// elicitForm is a tool that asks the user to fill in a form and reports
// what came back.
func elicitForm(message, schema string) func(context.Context, *server, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	return func(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
		if a, ok := answerTo(p.InputResponses, "form"); ok {
			return toolResult(text("Elicitation completed: action=" + a.Action + ", content=" + jsonText(a.Content))), nil
		}
		return nil, ask("", map[string]string{"form": elicitation(message, schema)})
	}
}
