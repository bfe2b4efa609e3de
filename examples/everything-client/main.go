// Command everything-client is an MCP client built on the generated
// 2026-07-28 package's Client, the way any client would be: it connects
// to a server, lists what it offers and calls it. Against a server of an
// earlier revision the Client talks that revision through the package's
// conversions, and this code stays the same. It is the client the official
// MCP conformance suite (@modelcontextprotocol/conformance) tests in `make
// conformance`.
//
//	everything-client [-scenario NAME] SERVER_URL
//
// The suite starts it once per scenario with the server's URL as its
// argument and the scenario's name in MCP_CONFORMANCE_SCENARIO (and, for
// some scenarios, what to call in MCP_CONFORMANCE_CONTEXT, a JSON object):
// that is how its harness tells a client what to do, and the only thing
// this program reads from it. Without a scenario it connects, lists the
// server's tools, resources and prompts and prints them.
//
// Its requests go through an auth.Transport (github.com/mcpgen/mcpgen/auth,
// see docs/authorization.md): a server that answers 401 is authorized
// with OAuth 2.1 as basic/authorization says, which the suite's auth/...
// scenarios test. For those, MCP_CONFORMANCE_CONTEXT may carry the
// client's credentials. It is a module of its own, so that mcpgen's module
// does not depend on the auth package's dependencies.
//
// It exits 0 when everything it did succeeded, 1 otherwise (with the error
// on standard error).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"
	"strings"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

func main() {
	scenario := flag.String("scenario", os.Getenv("MCP_CONFORMANCE_SCENARIO"), "what to do (the conformance suite's scenario name)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: everything-client [-scenario NAME] SERVER_URL")
		os.Exit(2)
	}
	logger := log.New(os.Stderr, "everything-client: ", log.LstdFlags|log.Lmicroseconds)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := run(ctx, flag.Arg(0), *scenario, os.Getenv("MCP_CONFORMANCE_CONTEXT"), logger); err != nil {
		logger.Printf("%s: %v", *scenario, err)
		os.Exit(1)
	}
}

// run connects to url and does what the scenario asks.
func run(ctx context.Context, url, scenario, scenarioContext string, logger *log.Logger) error {
	h := &handler{scenario: scenario, logf: logger.Printf}
	opts := mcp.ClientOptions{
		ClientInfo: mcp.Implementation{Name: "mcpgen-everything-client", Version: "1.0.0"},
		Logger:     slog.New(slog.NewTextHandler(logger.Writer(), nil)),
	}
	switch scenario {
	case "sep-2322-client-request-state", "elicitation-sep1034-client-defaults":
		opts.Capabilities.Elicitation = &mcp.ClientCapabilitiesElicitation{Form: &mcp.ClientCapabilitiesElicitationForm{}}
	}
	tr, err := authTransport(url, scenario, scenarioContext, logger)
	if err != nil {
		return err
	}
	opts.AuthContext = tr.AuthContext()
	c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: url, Client: tr.Client()}, h, opts)
	if err != nil {
		return err
	}
	defer c.Close()
	logger.Printf("connected: protocol version %s, server %+v", c.ProtocolVersion(), c.ServerInfo())

	switch scenario {
	case "tools_call":
		return callTool(ctx, c, "add_numbers", map[string]int{"a": 5, "b": 3}, logger)
	case "sep-2322-client-request-state":
		for _, name := range []string{"test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"} {
			if err := callTool(ctx, c, name, nil, logger); err != nil {
				return err
			}
		}
		return nil
	case "elicitation-sep1034-client-defaults":
		if _, err := c.ListTools(ctx, nil); err != nil {
			return err
		}
		return callTool(ctx, c, "test_client_elicitation_defaults", nil, logger)
	case "sse-retry":
		if _, err := c.ListTools(ctx, nil); err != nil {
			return err
		}
		return callTool(ctx, c, "test_reconnection", nil, logger)
	case "http-standard-headers":
		return firstOfEach(ctx, c, logger)
	case "http-custom-headers":
		var sc struct {
			ToolCalls []struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"toolCalls"`
		}
		if err := json.Unmarshal([]byte(scenarioContext), &sc); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
		if _, err := c.ListTools(ctx, nil); err != nil {
			return err
		}
		for _, tc := range sc.ToolCalls {
			if err := callTool(ctx, c, tc.Name, tc.Arguments, logger); err != nil {
				return err
			}
		}
		return nil
	case "http-invalid-tool-headers":
		// The Client drops the tools whose x-mcp-header annotations are
		// invalid; call the ones it kept.
		for t, err := range c.Tools(ctx) {
			if err != nil {
				return err
			}
			if err := callTool(ctx, c, t.Name, map[string]string{"region": "us-west1"}, logger); err != nil {
				return err
			}
		}
		return nil
	case "json-schema-2020-12-preservation":
		for t, err := range c.Tools(ctx) {
			if err != nil {
				return err
			}
			if t.Name == "json_schema_2020_12_tool" {
				return callTool(ctx, c, "json_schema_echo", map[string]any{"schema": &t.InputSchema}, logger)
			}
		}
		return errors.New("the server has no json_schema_2020_12_tool")
	default:
		if strings.HasPrefix(scenario, "auth/") {
			// The authorization scenarios: list the tools and call each
			// (a call may need more scopes than the list: step-up).
			for t, err := range c.Tools(ctx) {
				if err != nil {
					return err
				}
				if err := callTool(ctx, c, t.Name, nil, logger); err != nil {
					return err
				}
			}
			return nil
		}
		// initialize, request-metadata, json-schema-ref-no-deref, and no
		// scenario: connect and list the tools.
		for t, err := range c.Tools(ctx) {
			if err != nil {
				return err
			}
			logger.Printf("tool %s", t.Name)
		}
		return nil
	}
}

// callTool calls a tool with args (any value that encodes as a JSON
// object, or nil for none) and logs its result; a tool error (isError) is
// logged, not returned.
func callTool(ctx context.Context, c *mcp.Client, name string, args any, logger *log.Logger) error {
	res, err := c.Call(ctx, name, args)
	if err != nil {
		return fmt.Errorf("tools/call %s: %w", name, err)
	}
	logger.Printf("%s: %s (isError: %v)", name, res.Text(), res.GetIsError())
	return nil
}

// firstOfEach lists tools, resources and prompts and uses the first of
// each: a call, a read, a get.
func firstOfEach(ctx context.Context, c *mcp.Client, logger *log.Logger) error {
	for t, err := range c.Tools(ctx) {
		if err != nil {
			return err
		}
		if err := callTool(ctx, c, t.Name, nil, logger); err != nil {
			return err
		}
		break
	}
	for r, err := range c.Resources(ctx) {
		if err != nil {
			return err
		}
		if _, err := c.Read(ctx, r.URI); err != nil {
			return err
		}
		break
	}
	for p, err := range c.Prompts(ctx) {
		if err != nil {
			return err
		}
		if _, err := c.GetPrompt(ctx, &mcp.GetPromptRequestParams{Name: p.Name}); err != nil {
			return err
		}
		break
	}
	return nil
}

// handler answers what servers ask of the client.
type handler struct {
	mcp.UnimplementedClientHandler
	scenario string
	logf     func(format string, args ...any)
}

// Elicit accepts. For a form that asks for a confirmation (a boolean
// "confirmed"), it confirms; otherwise it submits nothing of its own, and
// the Client fills in the form's defaults.
func (h *handler) Elicit(ctx context.Context, p mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	res := &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept, Content: map[string]mcp.ElicitResultContentValue{}}
	if form, ok := p.(*mcp.ElicitRequestFormParams); ok {
		h.logf("elicitation: %s", form.Message)
		if prop, ok := form.RequestedSchema.Properties["confirmed"]; ok {
			if _, isBool := prop.(*mcp.BooleanSchema); isBool {
				res.Content["confirmed"] = mcp.ElicitResultContentValueFromBoolean(true)
			}
		}
	}
	return res, nil
}

func (h *handler) OnLoggingMessage(ctx context.Context, p *mcp.LoggingMessageNotificationParams) error {
	h.logf("log %s: %s", p.Level, p.Data)
	return nil
}

func (h *handler) OnProgress(ctx context.Context, p *mcp.ProgressNotificationParams) error {
	h.logf("progress %v", p.Progress)
	return nil
}
