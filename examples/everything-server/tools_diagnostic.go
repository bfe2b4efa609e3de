package main

import (
	"context"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Tools that show how a stateless (2026-07-28) server behaves: it asks for
// capabilities the client did not declare with an error, never sends
// requests of its own on a response stream (it asks with an input-required
// result instead), logs only when asked to, and announces list changes on
// subscriptions.

func (s *server) addDiagnosticTools() {
	mcp.AddTool(s, tool("test_missing_capability", "Needs the client's sampling capability: without it the call fails with MissingRequiredClientCapabilityError (-32021); with it, the tool asks for a completion."),
		callMissingCapability)
	mcp.AddTool(s, tool("test_streaming_elicitation", "Asks the user a question. A stateless server sends no elicitation request on the response stream: it answers with an input-required result."),
		callStreamingElicitation)
	mcp.AddTool(s, tool("test_logging_tool", "Sends log messages only if the request asks for them (io.modelcontextprotocol/logLevel)."),
		callWithLogging)
	mcp.AddTool(s, tool("test_trigger_tool_change", "Adds or removes the tool test_transient_tool, which notifies subscribers of tool list changes."),
		func(context.Context, *mcp.CallToolRequestParams, none) (*mcp.CallToolResult, error) {
			s.mu.Lock()
			on := !s.transientTool
			s.mu.Unlock()
			// A change that cannot reach the other replicas is not made:
			// the call fails (retryable), it does not answer success.
			if err := s.hub.publish(event{method: mcp.MethodToolListChangedNotification, on: on}); err != nil {
				return nil, err
			}
			return mcp.TextResult("The tool list changed."), nil
		})
	mcp.AddTool(s, tool("test_trigger_prompt_change", "Adds or removes the prompt test_transient_prompt, which notifies subscribers of prompt list changes."),
		func(context.Context, *mcp.CallToolRequestParams, none) (*mcp.CallToolResult, error) {
			s.mu.Lock()
			on := !s.transientPrompt
			s.mu.Unlock()
			// A change that cannot reach the other replicas is not made:
			// the call fails (retryable), it does not answer success.
			if err := s.hub.publish(event{method: mcp.MethodPromptListChangedNotification, on: on}); err != nil {
				return nil, err
			}
			return mcp.TextResult("The prompt list changed."), nil
		})
}

// setTool adds test_transient_tool (on) or removes it, unless the set is
// so already; the set tells the clients.
func (s *server) setTool(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	const name = "test_transient_tool"
	if s.transientTool == on {
		return
	}
	if s.transientTool = on; !on {
		s.RemoveTools(name)
		return
	}
	mcp.AddTool(s, tool(name, "Comes and goes with test_trigger_tool_change."),
		func(context.Context, *mcp.CallToolRequestParams, none) (*mcp.CallToolResult, error) {
			return mcp.TextResult("Still here."), nil
		})
}

func callMissingCapability(_ context.Context, p *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
	if p.Meta.ClientCapabilities.Sampling == nil {
		return nil, mcp.RequireCapabilities(mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}})
	}
	in := mcp.Ask(p.InputResponses)
	answer := in.CreateMessage("completion", ask("Say hello.", 50))
	if err := in.Err(); err != nil {
		return nil, err
	}
	return mcp.TextResult("The client's model said: " + sampled(answer)), nil
}

func callStreamingElicitation(_ context.Context, p *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
	in := mcp.Ask(p.InputResponses)
	answer := in.Elicit("answer", mcp.Form[goOnForm]("Do you want to continue?"))
	if err := in.Err(); err != nil {
		return nil, err
	}
	c, ok, err := mcp.FormValue[goOnForm](answer)
	if err != nil {
		return nil, err
	}
	if ok {
		return mcp.TextResult("You answered: " + jsonText(c)), nil
	}
	return mcp.TextResult("You did not answer (" + string(answer.Action) + ")."), nil
}
