package main

import (
	"context"
	"strconv"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Prompts: a simple one, one with arguments, one that embeds a resource,
// one with an image, and one that asks the client for input before it can
// be built (a multi round-trip request, as tools make them).

type noPromptArgs struct{}

type twoArgs struct {
	Arg1 string `json:"arg1" jsonschema:"First test argument"`
	Arg2 string `json:"arg2" jsonschema:"Second test argument"`
}

type resourceArg struct {
	ResourceURI string `json:"resourceUri" jsonschema:"URI of the resource to embed"`
}

func user(c mcp.ContentBlock) mcp.PromptMessage { return mcp.UserMessage(c) }

func addPrompts(s *mcp.Server) {
	mcp.AddPrompt(s, mcp.Prompt{Name: "test_simple_prompt", Description: new("A prompt without arguments.")},
		func(context.Context, *mcp.GetPromptRequestParams, noPromptArgs) (*mcp.GetPromptResult, error) {
			return mcp.PromptResult(user(mcp.Text("This is a simple prompt for testing."))), nil
		})
	mcp.AddPrompt(s, mcp.Prompt{Name: "test_prompt_with_arguments", Description: new("A prompt with two required arguments.")},
		func(_ context.Context, _ *mcp.GetPromptRequestParams, in twoArgs) (*mcp.GetPromptResult, error) {
			return mcp.PromptResult(user(mcp.Text("Prompt with arguments: arg1='" + in.Arg1 + "', arg2='" + in.Arg2 + "'"))), nil
		})
	mcp.AddPrompt(s, mcp.Prompt{Name: "test_prompt_with_embedded_resource", Description: new("A prompt that embeds the resource it is given.")},
		func(_ context.Context, _ *mcp.GetPromptRequestParams, in resourceArg) (*mcp.GetPromptResult, error) {
			return mcp.PromptResult(
				user(mcp.EmbeddedText(in.ResourceURI, "text/plain", "Embedded resource content for testing.")),
				user(mcp.Text("Please process the embedded resource above.")),
			), nil
		})
	mcp.AddPrompt(s, mcp.Prompt{Name: "test_prompt_with_image", Description: new("A prompt with an image.")},
		func(context.Context, *mcp.GetPromptRequestParams, noPromptArgs) (*mcp.GetPromptResult, error) {
			return mcp.PromptResult(
				user(mcp.Image(pngBytes, "image/png")),
				user(mcp.Text("Please analyze the image above.")),
			), nil
		})
	mcp.AddPrompt(s, mcp.Prompt{Name: "test_input_required_result_prompt", Description: new("Asks the client what context to use, then builds the prompt from it.")},
		func(_ context.Context, p *mcp.GetPromptRequestParams, _ noPromptArgs) (*mcp.GetPromptResult, error) {
			if a, ok := answerTo(p.InputResponses, "user_context"); ok {
				c, _ := a.accepted()
				ctx, _ := c["context"].(string)
				return mcp.PromptResult(user(mcp.Text("Use this context: " + strconv.Quote(ctx)))), nil
			}
			return nil, ask("", map[string]string{"user_context": elicitation("What context should the prompt use?",
				`{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}`)})
		})
}

// toggleTransientPrompt adds test_transient_prompt, or removes it if the
// set has it; the set announces the change.
func (s *server) toggleTransientPrompt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.transientPrompt {
		s.RemovePrompts("test_transient_prompt")
	} else {
		mcp.AddPrompt(s, mcp.Prompt{Name: "test_transient_prompt", Description: new("Comes and goes with test_trigger_prompt_change.")},
			func(context.Context, *mcp.GetPromptRequestParams, noPromptArgs) (*mcp.GetPromptResult, error) {
				return mcp.PromptResult(user(mcp.Text("Still here."))), nil
			})
	}
	s.transientPrompt = !s.transientPrompt
}
