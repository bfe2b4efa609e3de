package interop

import (
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"sync"
	"testing"
	"time"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The Go clients of the matrix: go-sdk v1.8.0 (default: server/discover
// first; pinned with ClientSessionOptions.ProtocolVersion) and mcp-go
// v1.2.1 (default: server/discover first, falling back to initialize).

// goSDKLegs are the go-sdk legs: the pin, and the version it must get.
var goSDKLegs = []struct{ name, pin, want string }{
	{"default", "", "2026-07-28"},
	{"pin-2025-11-25", "2025-11-25", "2025-11-25"},
	{"pin-2025-06-18", "2025-06-18", "2025-06-18"},
}

func TestMatrixGoSDK(t *testing.T) {
	for _, leg := range goSDKLegs {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(leg.name+"/"+transport, func(t *testing.T) {
				t.Parallel()
				checkLeg(t, goSDKLeg(t, leg.pin, transport), leg.want)
			})
		}
	}
}

// recorder collects what a client's handlers are given.
type recorder struct {
	mu            sync.Mutex
	logs, levels  []string
	elicitMessage string
	elicitFields  []string
}

func (r *recorder) log(level string, data any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.levels = append(r.levels, level)
	r.logs = append(r.logs, logData(data))
}

func (r *recorder) elicited(message string, schema any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.elicitMessage = message
	r.elicitFields = schemaFields(schema)
}

// fill copies what the handlers got into res, once the log messages came
// (a notification may be handled after the response it preceded).
func (r *recorder) fill(ctx context.Context, res *legResult) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	poll(ctx, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return len(r.logs) >= len(wantLogs)
	})
	time.Sleep(50 * time.Millisecond) // an extra message would have come by now
	r.mu.Lock()
	defer r.mu.Unlock()
	res.Logs, res.LogLevels = r.logs, r.levels
	res.ElicitMessage, res.ElicitFields = r.elicitMessage, r.elicitFields
}

func goSDKLeg(t *testing.T, pin, transport string) legResult {
	ctx := testContext(t)
	// The wire: over stdio, a wrapper of the SDK's connection; over HTTP,
	// below the SDK (see httpWire).
	wire, hwire := new(wireLog), new(httpWire)
	var tr sdk.Transport
	switch transport {
	case "stdio":
		cmd, _ := stdioCommand(t, ctx)
		tr = recordingTransport{Transport: &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, log: wire}
	case "http":
		tr = &sdk.StreamableClientTransport{Endpoint: sharedEverythingURL(t), MaxRetries: -1, HTTPClient: &http.Client{Transport: hwire}}
	}
	rec := new(recorder)
	client := sdk.NewClient(&sdk.Implementation{Name: "interop-matrix-go-sdk", Version: "1.0.0"}, &sdk.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) {
			rec.log(string(req.Params.Level), req.Params.Data)
		},
		ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			rec.elicited(req.Params.Message, req.Params.RequestedSchema)
			return &sdk.ElicitResult{Action: "accept", Content: elicitAnswer}, nil
		},
	})
	var opts *sdk.ClientSessionOptions
	if pin != "" {
		opts = &sdk.ClientSessionOptions{ProtocolVersion: pin}
	}
	cs, err := client.Connect(ctx, tr, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	res := legResult{Transport: transport, SessionID: cs.ID()}
	if ir := cs.InitializeResult(); ir != nil {
		res.ProtocolVersion = ir.ProtocolVersion
		if ir.ServerInfo != nil {
			res.ServerName = ir.ServerInfo.Name
		}
	}
	modern := res.ProtocolVersion >= "2026-07-28"

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	for _, tool := range tools.Tools {
		res.Tools = append(res.Tools, tool.Name)
	}
	res.SimpleText = goSDKCall(t, ctx, cs, &sdk.CallToolParams{Name: simpleTextTool, Arguments: map[string]any{}})
	rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: staticTextURI})
	if err != nil {
		t.Fatalf("ReadResource: %v", err)
	}
	if len(rr.Contents) > 0 {
		res.ResourceText = rr.Contents[0].Text
	}
	pr, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: simplePrompt})
	if err != nil {
		t.Fatalf("GetPrompt: %v", err)
	}
	if len(pr.Messages) > 0 {
		if tc, ok := pr.Messages[0].Content.(*sdk.TextContent); ok {
			res.PromptText = tc.Text
		}
	}

	// Log messages: the level is set per request in 2026-07-28 (the
	// io.modelcontextprotocol/logLevel _meta key), by logging/setLevel
	// before.
	logCall := &sdk.CallToolParams{Name: loggingTool, Arguments: map[string]any{}}
	if modern {
		logCall.Meta = sdk.Meta{sdk.MetaKeyLogLevel: "info"}
	} else if err := cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatalf("SetLoggingLevel: %v", err)
	}
	res.LoggingText = goSDKCall(t, ctx, cs, logCall)

	// The elicitation: an input-required result that the SDK's multi
	// round-trip middleware fulfils (2026-07-28), or an elicitation/create
	// request from the server (before).
	res.ElicitText = goSDKCall(t, ctx, cs, &sdk.CallToolParams{Name: elicitTool, Arguments: map[string]any{"message": elicitMessage}})
	rec.fill(ctx, &res)
	if transport == "http" {
		hwire.fill(&res)
		return res
	}
	sent, recv := wire.messages()
	res.Wire = true
	for _, m := range sent {
		if m.Method != "" {
			res.ClientMethods = append(res.ClientMethods, m.Method)
		}
	}
	for _, m := range recv {
		if m.Method != "" && m.ID != nil {
			res.ServerRequests = append(res.ServerRequests, m.Method)
		}
	}
	return res
}

// goSDKCall calls a tool and returns its first text.
func goSDKCall(t *testing.T, ctx context.Context, cs *sdk.ClientSession, p *sdk.CallToolParams) string {
	t.Helper()
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		t.Fatalf("CallTool %s: %v", p.Name, err)
	}
	if res.IsError {
		b, _ := json.Marshal(res.Content)
		t.Errorf("CallTool %s: isError: %s", p.Name, b)
	}
	if len(res.Content) == 0 {
		t.Fatalf("CallTool %s: no content", p.Name)
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("CallTool %s: content %T", p.Name, res.Content[0])
	}
	return tc.Text
}

// mcpGoLegs are the mcp-go legs: the default (server/discover first), and
// one more than the issue asks, pinned to 2025-11-25 (WithProtocolVersion:
// initialize only).
var mcpGoLegs = []struct{ name, pin, want string }{
	{"default", "", "2026-07-28"},
	{"pin-2025-11-25", "2025-11-25", "2025-11-25"},
}

func TestMatrixMCPGo(t *testing.T) {
	for _, leg := range mcpGoLegs {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(leg.name+"/"+transport, func(t *testing.T) {
				t.Parallel()
				checkLeg(t, mcpGoLeg(t, leg.pin, transport), leg.want)
			})
		}
	}
}

// mcpGoElicitor answers elicitations for mcp-go's client.
type mcpGoElicitor struct{ rec *recorder }

func (e mcpGoElicitor) Elicit(_ context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	e.rec.elicited(req.Params.Message, req.Params.RequestedSchema)
	return &mcpgo.ElicitationResult{ElicitationResponse: mcpgo.ElicitationResponse{Action: mcpgo.ElicitationResponseActionAccept, Content: elicitAnswer}}, nil
}

func mcpGoLeg(t *testing.T, pin, transport string) legResult {
	ctx := testContext(t)
	rec := new(recorder)
	hwire := new(httpWire) // the wire over HTTP; over stdio it is not recorded
	var tr mcpgotransport.Interface
	switch transport {
	case "stdio":
		cmd, _ := stdioCommand(t, ctx)
		stdio := mcpgotransport.NewStdioWithOptions(cmd.Path, nil, nil, mcpgotransport.WithCommandFunc(
			func(context.Context, string, []string, []string) (*exec.Cmd, error) { return cmd, nil }))
		tr = stdio
	case "http":
		h, err := mcpgotransport.NewStreamableHTTP(sharedEverythingURL(t), mcpgotransport.WithHTTPBasicClient(&http.Client{Transport: hwire}))
		if err != nil {
			t.Fatal(err)
		}
		tr = h
	}
	opts := []mcpgoclient.ClientOption{mcpgoclient.WithElicitationHandler(mcpGoElicitor{rec})}
	if pin != "" {
		opts = append(opts, mcpgoclient.WithProtocolVersion(pin))
	}
	c := mcpgoclient.NewClient(tr, opts...)
	if err := c.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	c.OnNotification(func(n mcpgo.JSONRPCNotification) {
		if n.Method != "notifications/message" {
			return
		}
		b, _ := json.Marshal(n.Params)
		var p struct {
			Level string `json:"level"`
			Data  any    `json:"data"`
		}
		json.Unmarshal(b, &p)
		rec.log(p.Level, p.Data)
	})
	var init mcpgo.InitializeRequest
	init.Params.ClientInfo = mcpgo.Implementation{Name: "interop-matrix-mcp-go", Version: "1.0.0"}
	init.Params.Capabilities.Elicitation = &mcpgo.ElicitationCapability{}
	ir, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatalf("Initialize: %v", err)
	}
	res := legResult{ProtocolVersion: ir.ProtocolVersion, ServerName: ir.ServerInfo.Name, Transport: transport, SessionID: c.GetSessionId()}

	tools, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	for _, tool := range tools.Tools {
		res.Tools = append(res.Tools, tool.Name)
	}
	res.SimpleText = mcpGoCall(t, ctx, c, simpleTextTool, map[string]any{})
	var rr mcpgo.ReadResourceRequest
	rr.Params.URI = staticTextURI
	rres, err := c.ReadResource(ctx, rr)
	if err != nil {
		t.Fatalf("ReadResource: %v", err)
	}
	if len(rres.Contents) > 0 {
		if tc, ok := rres.Contents[0].(mcpgo.TextResourceContents); ok {
			res.ResourceText = tc.Text
		}
	}
	var gp mcpgo.GetPromptRequest
	gp.Params.Name = simplePrompt
	pres, err := c.GetPrompt(ctx, gp)
	if err != nil {
		t.Fatalf("GetPrompt: %v", err)
	}
	if len(pres.Messages) > 0 {
		if tc, ok := pres.Messages[0].Content.(mcpgo.TextContent); ok {
			res.PromptText = tc.Text
		}
	}
	// mcp-go's SetLevel sends logging/setLevel before 2026-07-28 and
	// afterwards puts the level in every request's _meta.
	var sl mcpgo.SetLevelRequest
	sl.Params.Level = mcpgo.LoggingLevelInfo
	if err := c.SetLevel(ctx, sl); err != nil {
		t.Fatalf("SetLevel: %v", err)
	}
	res.LoggingText = mcpGoCall(t, ctx, c, loggingTool, map[string]any{})
	res.ElicitText = mcpGoCall(t, ctx, c, elicitTool, map[string]any{"message": elicitMessage})
	rec.fill(ctx, &res)
	if transport == "http" {
		hwire.fill(&res)
	}
	return res
}

func mcpGoCall(t *testing.T, ctx context.Context, c *mcpgoclient.Client, name string, args map[string]any) string {
	t.Helper()
	var req mcpgo.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("CallTool %s: %v", name, err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("CallTool %s: no content", name)
	}
	tc, ok := res.Content[0].(mcpgo.TextContent)
	if !ok {
		t.Fatalf("CallTool %s: content %T", name, res.Content[0])
	}
	if res.IsError {
		t.Errorf("CallTool %s: isError: %s", name, tc.Text)
	}
	return tc.Text
}
