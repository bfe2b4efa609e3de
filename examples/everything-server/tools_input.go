package main

import (
	"context"
	"maps"
	"slices"
	"strings"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Tools that ask the client for input with multi round-trip requests
// (basic/patterns/mrtr.mdx): the first call answers with an input-required
// result, the client retries with the answers (and the requestState, which
// the dispatcher seals and checks), and the tool completes. mcp.Ask reads
// the answers a retry brought and asks for the ones still missing.

func addInputTools(s *mcp.Server) {
	mcp.AddTool(s, tool("test_input_required_result_elicitation", "Asks for the user's name, then greets them."),
		callGreetByName)
	mcp.AddTool(s, tool("test_input_required_result_sampling", "Asks the client's model a question and returns its answer."),
		callAskModel)
	mcp.AddTool(s, tool("test_input_required_result_list_roots", "Asks for the client's roots and lists them."),
		callListRoots)
	mcp.AddTool(s, tool("test_input_required_result_request_state", "Asks for a confirmation and keeps its progress in requestState."),
		callWithState)
	mcp.AddTool(s, tool("test_input_required_result_multiple_inputs", "Asks for a name, a model completion and the client's roots at once."),
		callMultipleInputs)
	mcp.AddTool(s, tool("test_input_required_result_multi_round", "Asks for a name, then a favorite color, in two rounds."),
		callMultiRound)
	mcp.AddTool(s, tool("test_input_required_result_tampered_state", "Asks for a confirmation with a requestState; a retry whose requestState was altered is refused."),
		callWithState)
	mcp.AddTool(s, tool("test_input_required_result_capabilities", "Asks only for the kinds of input the client declared it can give."),
		callByCapabilities)
	mcp.AddTool(s, tool("test_sampling", "Asks the client's model to answer prompt and returns the answer."),
		callSampling)
	mcp.AddTool(s, tool("test_elicitation", "Asks the user for their user name and email address, with message."),
		callElicitation)
	mcp.AddTool(s, tool("test_elicitation_sep1034_defaults", "Asks the user for a form whose fields have default values (SEP-1034)."),
		elicitForm[sep1034Form]("Please review your profile (the fields have defaults)"))
	mcp.AddTool(s, tool("test_elicitation_sep1330_enums", "Asks the user to choose from every kind of enum field (SEP-1330)."),
		elicitForm[sep1330Form]("Please choose from the options"))
}

func callGreetByName(_ context.Context, p *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
	in := mcp.Ask(p.InputResponses)
	answer := in.Elicit("user_name", mcp.Form[nameForm]("What is your name?"))
	if err := in.Err(); err != nil {
		return nil, err
	}
	n, _, err := mcp.FormValue[nameForm](answer)
	if err != nil {
		return nil, err
	}
	if n.Name != "" {
		return mcp.TextResult("Hello, " + n.Name + "!"), nil
	}
	return mcp.TextResult("Hello, whoever you are!"), nil
}

func callAskModel(_ context.Context, p *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
	in := mcp.Ask(p.InputResponses)
	answer := in.CreateMessage("capital_question", ask("What is the capital of France?", 100))
	if err := in.Err(); err != nil {
		return nil, err
	}
	return mcp.TextResult("The model answered: " + sampled(answer)), nil
}

func callListRoots(_ context.Context, p *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
	in := mcp.Ask(p.InputResponses)
	roots := in.ListRoots("client_roots")
	if err := in.Err(); err != nil {
		return nil, err
	}
	var uris []string
	for _, r := range roots.Roots {
		uris = append(uris, r.URI)
	}
	return mcp.TextResult("The client's roots: " + strings.Join(uris, ", ")), nil
}

// answersIn are the answers of p's retry when it carries the requestState
// state (the dispatcher passes it on only if the client returned it
// unaltered), and none otherwise: a retry without it starts again.
func answersIn(p *mcp.CallToolRequestParams, state string) mcp.InputResponses {
	if p.GetRequestState() != state {
		return nil
	}
	return p.InputResponses
}

// callWithState asks for a confirmation, remembering in requestState that
// it did.
func callWithState(_ context.Context, p *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
	const state = "awaiting-confirmation"
	in := mcp.Ask(answersIn(p, state))
	in.State = new(state)
	answer := in.Elicit("confirm", mcp.Form[okForm]("Do you confirm?"))
	if err := in.Err(); err != nil {
		return nil, err
	}
	c, _, err := mcp.FormValue[okForm](answer)
	if err != nil {
		return nil, err
	}
	if c.OK {
		return mcp.TextResult("state-ok: confirmed"), nil
	}
	return mcp.TextResult("state-ok: not confirmed"), nil
}

// callMultipleInputs asks for three answers at once; a retry that brings
// some of them is asked again for the rest only.
func callMultipleInputs(_ context.Context, p *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
	const state = "multiple"
	in := mcp.Ask(answersIn(p, state))
	in.State = new(state)
	name := in.Elicit("user_name", mcp.Form[nameForm]("What is your name?"))
	greeting := in.CreateMessage("greeting", ask("Generate a greeting", 50))
	roots := in.ListRoots("client_roots")
	if err := in.Err(); err != nil {
		return nil, err
	}
	n, _, err := mcp.FormValue[nameForm](name)
	if err != nil {
		return nil, err
	}
	return mcp.TextResult("name: " + jsonText(n.Name) + "; greeting: " + sampled(greeting) +
		"; roots: " + jsonText(len(roots.Roots))), nil
}

// callMultiRound asks for a name, then, in a second round whose
// requestState carries the name, for a color.
func callMultiRound(_ context.Context, p *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
	askColor := mcp.Form[colorForm]("Step 2: What is your favorite color?")
	if name, ok := strings.CutPrefix(p.GetRequestState(), "round-2:"); ok {
		in := mcp.Ask(p.InputResponses)
		in.State = p.RequestState
		answer := in.Elicit("step2", askColor)
		if err := in.Err(); err != nil {
			return nil, err
		}
		c, _, err := mcp.FormValue[colorForm](answer)
		if err != nil {
			return nil, err
		}
		return mcp.TextResult(name + "'s favorite color is " + c.Color + "."), nil
	}
	in := mcp.Ask(answersIn(p, "round-1"))
	in.State = new("round-1")
	answer := in.Elicit("step1", mcp.Form[nameForm]("Step 1: What is your name?"))
	if err := in.Err(); err != nil {
		return nil, err
	}
	n, _, err := mcp.FormValue[nameForm](answer)
	if err != nil {
		return nil, err
	}
	next := mcp.Ask(nil)
	next.State = new("round-2:" + n.Name)
	next.Elicit("step2", askColor)
	return nil, next.Err()
}

// callByCapabilities asks only for what the request's client capabilities
// cover: asking for more would be refused (-32021).
func callByCapabilities(_ context.Context, p *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
	if len(p.InputResponses) > 0 {
		got := slices.Sorted(maps.Keys(p.InputResponses))
		return mcp.TextResult("Received: " + strings.Join(got, ", ")), nil
	}
	caps := p.Meta.ClientCapabilities
	in := mcp.Ask(nil)
	if caps.Elicitation != nil {
		in.Elicit("user_name", mcp.Form[nameForm]("What is your name?"))
	}
	if caps.Sampling != nil {
		in.CreateMessage("greeting", ask("Generate a greeting", 50))
	}
	if caps.Roots != nil {
		in.ListRoots("client_roots")
	}
	if err := in.Err(); err != nil {
		return nil, err
	}
	return mcp.TextResult("The client declared no capability to give input; nothing to ask."), nil
}

type samplingArgs struct {
	Prompt string `json:"prompt" jsonschema:"The prompt for the model"`
}

func callSampling(_ context.Context, p *mcp.CallToolRequestParams, args samplingArgs) (*mcp.CallToolResult, error) {
	in := mcp.Ask(p.InputResponses)
	answer := in.CreateMessage("completion", ask(args.Prompt, 100))
	if err := in.Err(); err != nil {
		return nil, err
	}
	return mcp.TextResult("LLM response: " + sampled(answer)), nil
}

type elicitationArgs struct {
	Message string `json:"message" jsonschema:"The message to show the user"`
}

func callElicitation(_ context.Context, p *mcp.CallToolRequestParams, args elicitationArgs) (*mcp.CallToolResult, error) {
	in := mcp.Ask(p.InputResponses)
	answer := in.Elicit("user_info", mcp.Form[userInfo](args.Message))
	if err := in.Err(); err != nil {
		return nil, err
	}
	return mcp.TextResult("User response: action=" + string(answer.Action) + ", content=" + jsonText(answer.Content)), nil
}

// The forms of SEP-1034 and SEP-1330, as the conformance scenarios give
// them, from struct tags: every kind of field with a default, and every
// kind of enum (titled, untitled, legacy enumNames, multiple choice). No
// field is required.
type sep1034Form struct {
	Name     string  `json:"name,omitempty" jsonschema:"User name" mcp:"default=John Doe"`
	Age      int64   `json:"age,omitempty" jsonschema:"User age" mcp:"default=30"`
	Score    float64 `json:"score,omitempty" jsonschema:"User score" mcp:"default=95.5"`
	Status   string  `json:"status,omitempty" jsonschema:"User status" mcp:"enum=active|inactive|pending,default=active"`
	Verified bool    `json:"verified,omitempty" jsonschema:"Verification status" mcp:"default=true"`
}

type sep1330Form struct {
	UntitledSingle string   `json:"untitledSingle,omitempty" jsonschema:"Choose an option" mcp:"enum=option1|option2|option3"`
	TitledSingle   string   `json:"titledSingle,omitempty" jsonschema:"Choose a titled option" mcp:"enum=value1|value2|value3,titles=First Option|Second Option|Third Option"`
	LegacyEnum     string   `json:"legacyEnum,omitempty" jsonschema:"Choose a legacy option" mcp:"enum=opt1|opt2|opt3,enumNames=Option One|Option Two|Option Three"`
	UntitledMulti  []string `json:"untitledMulti,omitempty" jsonschema:"Choose multiple options" mcp:"enum=option1|option2|option3"`
	TitledMulti    []string `json:"titledMulti,omitempty" jsonschema:"Choose multiple titled options" mcp:"enum=value1|value2|value3,titles=First Choice|Second Choice|Third Choice"`
}

// elicitForm is a tool that asks the user to fill in the form of T's
// fields (mcp.Form) and reports what came back.
func elicitForm[T any](message string) func(context.Context, *mcp.CallToolRequestParams, none) (*mcp.CallToolResult, error) {
	f := mcp.Form[T](message)
	return func(_ context.Context, p *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
		in := mcp.Ask(p.InputResponses)
		answer := in.Elicit("form", f)
		if err := in.Err(); err != nil {
			return nil, err
		}
		return mcp.TextResult("Elicitation completed: action=" + string(answer.Action) + ", content=" + jsonText(answer.Content)), nil
	}
}
