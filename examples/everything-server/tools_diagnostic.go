package main

import (
	"context"
	"encoding/json"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Tools that show how a stateless (2026-07-28) server behaves: it asks for
// capabilities the client did not declare with an error, never sends
// requests of its own on a response stream (it asks with an input-required
// result instead), logs only when asked to, and announces list changes on
// subscriptions.

func diagnosticTools() []tool {
	return []tool{
		defineTool(`{"name":"test_missing_capability","description":"Needs the client's sampling capability: without it the call fails with MissingRequiredClientCapabilityError (-32021); with it, the tool asks for a completion.","inputSchema":`+noArgs+`}`,
			callMissingCapability),
		defineTool(`{"name":"test_streaming_elicitation","description":"Asks the user a question. A stateless server sends no elicitation request on the response stream: it answers with an input-required result.","inputSchema":`+noArgs+`}`,
			callStreamingElicitation),
		defineTool(`{"name":"test_logging_tool","description":"Sends log messages only if the request asks for them (io.modelcontextprotocol/logLevel).","inputSchema":`+noArgs+`}`,
			callWithLogging),
		defineTool(`{"name":"test_trigger_tool_change","description":"Adds or removes the tool test_transient_tool, which notifies subscribers of tool list changes.","inputSchema":`+noArgs+`}`,
			func(_ context.Context, s *server, _ *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				s.toggleTransientTool()
				return toolResult(text("The tool list changed.")), nil
			}),
		defineTool(`{"name":"test_trigger_prompt_change","description":"Adds or removes the prompt test_transient_prompt, which notifies subscribers of prompt list changes.","inputSchema":`+noArgs+`}`,
			func(_ context.Context, s *server, _ *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				s.toggleTransientPrompt()
				return toolResult(text("The prompt list changed.")), nil
			}),
	}
}

// toggleTransientTool adds test_transient_tool, or removes it if the set
// has it; the set announces the change.
func (s *server) toggleTransientTool() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.transientTool {
		s.RemoveTools("test_transient_tool")
	} else {
		mcp.AddTool(s, mcp.Tool{Name: "test_transient_tool", Description: new("Comes and goes with test_trigger_tool_change.")},
			func(context.Context, *mcp.CallToolRequestParams, struct{}) (*mcp.CallToolResult, error) {
				return mcp.TextResult("Still here."), nil
			})
	}
	s.transientTool = !s.transientTool
}

func callMissingCapability(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if p.Meta.ClientCapabilities.Sampling == nil {
		return nil, mcp.RequireClientCapabilities(json.RawMessage(`{"sampling":{}}`))
	}
	if a, ok := answerTo(p.InputResponses, "completion"); ok {
		return toolResult(text("The client's model said: " + a.sampledText())), nil
	}
	return nil, mcp.NeedInput(mcp.InputRequiredResult{InputRequests: decode[mcp.InputRequests](`{"completion":` + samplingRequest("Say hello.", 50) + `}`)})
}

func callStreamingElicitation(_ context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	if a, ok := answerTo(p.InputResponses, "answer"); ok {
		if c, ok := a.accepted(); ok {
			return toolResult(text("You answered: " + jsonText(c))), nil
		}
		return toolResult(text("You did not answer (" + a.Action + ").")), nil
	}
	return nil, mcp.NeedInput(mcp.InputRequiredResult{InputRequests: decode[mcp.InputRequests](`{"answer":` +
		elicitation("Do you want to continue?", `{"type":"object","properties":{"continue":{"type":"boolean"}},"required":["continue"]}`) + `}`)})
}

// elicitation is a form elicitation request, as JSON.
func elicitation(message, schema string) string {
	return `{"method":"elicitation/create","params":{"mode":"form","message":` + jsonText(message) + `,"requestedSchema":` + schema + `}}`
}

// samplingRequest is a sampling request for one user message, as JSON.
func samplingRequest(prompt string, maxTokens int) string {
	return `{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":` +
		jsonText(prompt) + `}}],"maxTokens":` + jsonText(maxTokens) + `}}`
}

// rootsRequest is a roots/list request, as JSON.
const rootsRequest = `{"method":"roots/list","params":{}}`
