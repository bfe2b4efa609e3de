package main

import (
	"context"
	"strconv"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Prompts: a simple one, one with arguments, one that embeds a resource,
// one with an image, and one that asks the client for input before it can
// be built (a multi round-trip request, as tools make them). AddPrompt
// derives a prompt's arguments from a struct, and prompts/get refuses a
// call without the required ones.

// prompt is a prompt's definition: its name and description.
func prompt(name, description string) mcp.Prompt {
	return mcp.Prompt{Name: name, Description: &description}
}

type promptArgs struct {
	Arg1 string `json:"arg1" jsonschema:"First test argument"`
	Arg2 string `json:"arg2" jsonschema:"Second test argument"`
}

type embedArgs struct {
	ResourceURI string `json:"resourceUri" jsonschema:"URI of the resource to embed"`
}

func addPrompts(s *mcp.Server) {
	mcp.AddPrompt(s, prompt("test_simple_prompt", "A prompt without arguments."),
		func(context.Context, *mcp.GetPromptRequestParams, none) (*mcp.GetPromptResult, error) {
			return mcp.PromptResult(mcp.UserMessage(mcp.Text("This is a simple prompt for testing."))), nil
		})
	mcp.AddPrompt(s, prompt("test_prompt_with_arguments", "A prompt with two required arguments."),
		func(_ context.Context, _ *mcp.GetPromptRequestParams, in promptArgs) (*mcp.GetPromptResult, error) {
			return mcp.PromptResult(mcp.UserMessage(mcp.Text("Prompt with arguments: arg1='" + in.Arg1 + "', arg2='" + in.Arg2 + "'"))), nil
		})
	mcp.AddPrompt(s, prompt("test_prompt_with_embedded_resource", "A prompt that embeds the resource it is given."),
		func(_ context.Context, _ *mcp.GetPromptRequestParams, in embedArgs) (*mcp.GetPromptResult, error) {
			return mcp.PromptResult(
				mcp.UserMessage(mcp.EmbeddedText(in.ResourceURI, "text/plain", "Embedded resource content for testing.")),
				mcp.UserMessage(mcp.Text("Please process the embedded resource above.")),
			), nil
		})
	mcp.AddPrompt(s, prompt("test_prompt_with_image", "A prompt with an image."),
		func(context.Context, *mcp.GetPromptRequestParams, none) (*mcp.GetPromptResult, error) {
			return mcp.PromptResult(
				mcp.UserMessage(mcp.Image(pngPixel, "image/png")),
				mcp.UserMessage(mcp.Text("Please analyze the image above.")),
			), nil
		})
	mcp.AddPrompt(s, prompt("test_input_required_result_prompt", "Asks the client what context to use, then builds the prompt from it."),
		func(_ context.Context, p *mcp.GetPromptRequestParams, _ none) (*mcp.GetPromptResult, error) {
			in := mcp.Ask(p.InputResponses)
			answer := in.Elicit("user_context", mcp.Form[contextForm]("What context should the prompt use?"))
			if err := in.Err(); err != nil {
				return nil, err
			}
			c, _, err := mcp.FormValue[contextForm](answer)
			if err != nil {
				return nil, err
			}
			return mcp.PromptResult(mcp.UserMessage(mcp.Text("Use this context: " + strconv.Quote(c.Context)))), nil
		})
}

// setPrompt adds test_transient_prompt (on) or removes it, unless the set
// is so already; the set tells the clients.
func (s *server) setPrompt(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	const name = "test_transient_prompt"
	if s.transientPrompt == on {
		return
	}
	if s.transientPrompt = on; !on {
		s.RemovePrompts(name)
		return
	}
	mcp.AddPrompt(s, prompt(name, "Comes and goes with test_trigger_prompt_change."),
		func(context.Context, *mcp.GetPromptRequestParams, none) (*mcp.GetPromptResult, error) {
			return mcp.PromptResult(mcp.UserMessage(mcp.Text("Still here."))), nil
		})
}
