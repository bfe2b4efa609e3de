package main

import (
	"context"
	"strconv"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Prompts: a simple one, one with arguments, one that embeds a resource,
// one with an image, and one that asks the client for input before it can
// be built (a multi round-trip request, as tools make them).

type prompt struct {
	def mcp.Prompt
	get func(p *mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error)
}

func (p prompt) name() string { return p.def.Name }

func definePrompt(def string, get func(*mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error)) prompt {
	return prompt{def: decode[mcp.Prompt](def), get: get}
}

func messages(ms ...mcp.PromptMessage) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{Messages: ms}
}

func allPrompts() []prompt {
	return []prompt{
		definePrompt(`{"name":"test_simple_prompt","description":"A prompt without arguments."}`,
			func(*mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error) {
				return messages(message(mcp.RoleUser, text("This is a simple prompt for testing."))), nil
			}),
		definePrompt(`{"name":"test_prompt_with_arguments","description":"A prompt with two required arguments.","arguments":[{"name":"arg1","description":"First test argument","required":true},{"name":"arg2","description":"Second test argument","required":true}]}`,
			func(p *mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error) {
				return messages(message(mcp.RoleUser, text("Prompt with arguments: arg1='"+p.Arguments["arg1"]+"', arg2='"+p.Arguments["arg2"]+"'"))), nil
			}),
		definePrompt(`{"name":"test_prompt_with_embedded_resource","description":"A prompt that embeds the resource it is given.","arguments":[{"name":"resourceUri","description":"URI of the resource to embed","required":true}]}`,
			func(p *mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error) {
				uri := p.Arguments["resourceUri"]
				return messages(
					message(mcp.RoleUser, embeddedText(uri, "text/plain", "Embedded resource content for testing.")),
					message(mcp.RoleUser, text("Please process the embedded resource above.")),
				), nil
			}),
		definePrompt(`{"name":"test_prompt_with_image","description":"A prompt with an image."}`,
			func(*mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error) {
				return messages(
					message(mcp.RoleUser, image(pngPixel, "image/png")),
					message(mcp.RoleUser, text("Please analyze the image above.")),
				), nil
			}),
		definePrompt(`{"name":"test_input_required_result_prompt","description":"Asks the client what context to use, then builds the prompt from it."}`,
			func(p *mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error) {
				if a, ok := answerTo(p.InputResponses, "user_context"); ok {
					c, _ := a.accepted()
					ctx, _ := c["context"].(string)
					return messages(message(mcp.RoleUser, text("Use this context: "+strconv.Quote(ctx)))), nil
				}
				return nil, ask("", map[string]string{"user_context": elicitation("What context should the prompt use?",
					`{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}`)})
			}),
	}
}

var transientPrompt = definePrompt(`{"name":"test_transient_prompt","description":"Comes and goes with test_trigger_prompt_change."}`,
	func(*mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error) {
		return messages(message(mcp.RoleUser, text("Still here."))), nil
	})

func (s *server) ListPrompts(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListPromptsResult, error) {
	var defs []mcp.Prompt
	for _, p := range s.prompts.list() {
		defs = append(defs, p.def)
	}
	return &mcp.ListPromptsResult{Prompts: defs, TTLMs: (10 * time.Second).Milliseconds(), CacheScope: mcp.CacheScopePublic}, nil
}

func (s *server) GetPrompt(_ context.Context, p *mcp.GetPromptRequestParams) (*mcp.GetPromptResult, error) {
	pr, ok := s.prompts.get(p.Name)
	if !ok {
		return nil, &mcp.RPCError{Code: mcp.CodeInvalidParams, Message: "unknown prompt " + strconv.Quote(p.Name)}
	}
	for _, a := range pr.def.Arguments {
		if a.Required != nil && *a.Required && p.Arguments[a.Name] == "" {
			return nil, &mcp.RPCError{Code: mcp.CodeInvalidParams, Message: "prompt " + strconv.Quote(p.Name) + " needs the argument " + strconv.Quote(a.Name)}
		}
	}
	return pr.get(p)
}
