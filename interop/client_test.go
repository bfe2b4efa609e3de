package interop

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/generated/mcp20250326"
	"github.com/mcpgen/mcpgen/generated/mcp20250618"
	"github.com/mcpgen/mcpgen/generated/mcp20251125"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/interop/sdkservers"
)

// The generated client (generated/mcp20260728's Client) against servers
// written with other SDKs, and against the project's everything-server:
// the official Go SDK v1.8.0 and mcp-go v1.2.1 servers of package
// sdkservers over stdio (CommandTransport: the client starts the server
// process) and over Streamable HTTP, and examples/everything-server over
// both. Each run connects (server/discover), lists, calls a tool, answers
// a multi round-trip elicitation, mirrors an x-mcp-header argument into
// its Mcp-Param header (which every one of these servers checks), reads a
// resource and gets a prompt.

const (
	sdkServerPkg  = "github.com/mcpgen/mcpgen/interop/sdkservers/cmd/sdkserver"
	everythingPkg = "github.com/mcpgen/mcpgen/examples/everything-server"
)

// Built by TestMain.
var sdkServerBin, everythingBin string

// nameGiver answers elicitations with a name.
type nameGiver struct{ mcp.UnimplementedClientHandler }

func (nameGiver) Elicit(ctx context.Context, p mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	return &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept, Content: map[string]mcp.ElicitResultContentValue{
		"name":     mcp.ElicitResultContentValueFromString("Ada"),
		"username": mcp.ElicitResultContentValueFromString("ada"),
		"email":    mcp.ElicitResultContentValueFromString("ada@example.com"),
	}}, nil
}

var clientOptions = mcp.ClientOptions{
	ClientInfo:   mcp.Implementation{Name: "mcpgen-interop", Version: "1.0.0"},
	Capabilities: mcp.ClientCapabilities{Elicitation: &mcp.ClientCapabilitiesElicitation{Form: &mcp.ClientCapabilitiesElicitationForm{}}},
}

// sdkChecks are the calls made against the servers of package sdkservers.
func sdkChecks(t *testing.T, c *mcp.Client, wantServer string) {
	t.Helper()
	ctx := testContext(t)
	if v := c.ProtocolVersion(); v != "2026-07-28" {
		t.Errorf("ProtocolVersion = %q", v)
	}
	if si := c.ServerInfo(); si == nil || si.Name != wantServer {
		t.Errorf("ServerInfo = %+v, want %s", si, wantServer)
	}
	tools, err := c.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
	}
	for _, n := range []string{"add", "greet", "region"} {
		if !names[n] {
			t.Errorf("tools/list lacks %s: %v", n, names)
		}
	}
	callWant(t, c, "add", `{"a":2,"b":3}`, "5")
	callWant(t, c, "greet", `{}`, "Hello, Ada!")
	callWant(t, c, "region", `{"region":"eu-west"}`, "region eu-west")
	res, err := c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "test://hello"})
	if err != nil {
		t.Fatal(err)
	}
	if tc, _ := res.Contents[0].(*mcp.TextResourceContents); tc == nil || tc.Text != "hello world" {
		t.Errorf("resources/read: %+v", res.Contents)
	}
	pr, err := c.GetPrompt(ctx, &mcp.GetPromptRequestParams{Name: "greeting", Arguments: map[string]string{"name": "Ada"}})
	if err != nil {
		t.Fatal(err)
	}
	if tc, _ := pr.Messages[0].Content.(*mcp.TextContent); tc == nil || tc.Text != "Hello, Ada" {
		t.Errorf("prompts/get: %+v", pr.Messages)
	}
}

// callWant calls a tool and checks its one text.
func callWant(t *testing.T, c *mcp.Client, name, args, want string) {
	t.Helper()
	res, err := c.CallTool(testContext(t), &mcp.CallToolRequestParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("tools/call %s: no content", name)
	}
	tc, _ := res.Content[0].(*mcp.TextContent)
	if tc == nil || res.GetIsError() || !strings.Contains(tc.Text, want) {
		b, _ := json.Marshal(res.Content)
		t.Errorf("tools/call %s: %s (isError %v), want %q", name, b, res.GetIsError(), want)
	}
}

func TestClientGoSDKStdio(t *testing.T) {
	cmd := exec.Command(sdkServerBin, "-sdk", "go-sdk")
	c, err := mcp.Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, nameGiver{}, clientOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sdkChecks(t, c, "go-sdk-server")
}

func TestClientGoSDKHTTP(t *testing.T) {
	s := sdkservers.GoSDK()
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: true})
	hs := httptest.NewServer(h)
	defer hs.Close()
	c, err := mcp.Connect(testContext(t), &mcp.HTTPTransport{URL: hs.URL}, nameGiver{}, clientOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sdkChecks(t, c, "go-sdk-server")
}

func TestClientMCPGoStdio(t *testing.T) {
	cmd := exec.Command(sdkServerBin, "-sdk", "mcp-go")
	c, err := mcp.Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, nameGiver{}, clientOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sdkChecks(t, c, "mcp-go-server")
}

func TestClientMCPGoHTTP(t *testing.T) {
	hs := httptest.NewServer(mcpgoserver.NewStreamableHTTPServer(sdkservers.MCPGo(), mcpgoserver.WithStateLess(true)))
	defer hs.Close()
	c, err := mcp.Connect(testContext(t), &mcp.HTTPTransport{URL: hs.URL}, nameGiver{}, clientOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sdkChecks(t, c, "mcp-go-server")
}

// everythingChecks are the calls made against examples/everything-server.
func everythingChecks(t *testing.T, c *mcp.Client) {
	t.Helper()
	ctx := testContext(t)
	if si := c.ServerInfo(); si == nil || si.Name == "" {
		t.Errorf("ServerInfo = %+v", si)
	}
	if _, err := c.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	callWant(t, c, "test_simple_text", `{}`, "This is a simple text response for testing.")
	callWant(t, c, "test_input_required_result_elicitation", `{}`, "Hello, Ada!")
	callWant(t, c, "test_x_mcp_header", `{"region":"eu-west"}`, "eu-west")
	if _, err := c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "test://static-text"}); err != nil {
		t.Error(err)
	}
	if _, err := c.GetPrompt(ctx, &mcp.GetPromptRequestParams{Name: "test_simple_prompt"}); err != nil {
		t.Error(err)
	}
}

func TestClientEverythingServerStdio(t *testing.T) {
	c, err := mcp.Connect(testContext(t), &mcp.CommandTransport{Command: exec.Command(everythingBin)}, nameGiver{}, clientOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	everythingChecks(t, c)
}

func TestClientEverythingServerHTTP(t *testing.T) {
	ctx := testContext(t)
	stderr := &logBuffer{}
	cmd := exec.CommandContext(ctx, everythingBin, "-http", "127.0.0.1:0")
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	}()
	stderr.waitFor(t, ctx, "listening on ")
	log := stderr.String()
	url := strings.Fields(log[strings.Index(log, "listening on ")+len("listening on "):])[0]
	c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: url}, nameGiver{}, clientOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	everythingChecks(t, c)
	// A client of the handshake era is served by the same process (issue
	// 10): initialize at 2025-11-25, a session, the same handlers.
	lc, err := mcp20251125.Connect(ctx, &mcp20251125.HTTPTransport{URL: url}, nil, mcp20251125.ClientOptions{})
	if err != nil {
		t.Fatalf("a 2025-11-25 client: %v", err)
	}
	defer lc.Close()
	if v := lc.ProtocolVersion(); v != "2025-11-25" {
		t.Errorf("a 2025-11-25 client: ProtocolVersion = %q", v)
	}
	res, err := lc.CallTool(ctx, &mcp20251125.CallToolRequestParams{Name: "test_simple_text", Arguments: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatalf("a 2025-11-25 client: tools/call: %v", err)
	}
	if tc, _ := res.Content[0].(*mcp20251125.TextContent); tc == nil || tc.Text != "This is a simple text response for testing." {
		t.Errorf("a 2025-11-25 client: tools/call: %+v", res.Content)
	}
	// The generated clients of 2025-06-18 and 2025-03-26: the same process,
	// the same handlers, each at its own revision.
	c0618, err := mcp20250618.Connect(ctx, &mcp20250618.HTTPTransport{URL: url}, nil, mcp20250618.ClientOptions{})
	if err != nil {
		t.Fatalf("a 2025-06-18 client: %v", err)
	}
	defer c0618.Close()
	if v := c0618.ProtocolVersion(); v != "2025-06-18" {
		t.Errorf("a 2025-06-18 client: ProtocolVersion = %q", v)
	}
	r0618, err := c0618.CallTool(ctx, &mcp20250618.CallToolRequestParams{Name: "test_simple_text", Arguments: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatalf("a 2025-06-18 client: tools/call: %v", err)
	}
	if len(r0618.Content) != 1 {
		t.Fatalf("a 2025-06-18 client: tools/call: %+v", r0618.Content)
	}
	if tc, _ := r0618.Content[0].(*mcp20250618.TextContent); tc == nil || tc.Text != "This is a simple text response for testing." {
		t.Errorf("a 2025-06-18 client: tools/call: %+v", r0618.Content)
	}
	c0326, err := mcp20250326.Connect(ctx, &mcp20250326.HTTPTransport{URL: url}, nil, mcp20250326.ClientOptions{})
	if err != nil {
		t.Fatalf("a 2025-03-26 client: %v", err)
	}
	defer c0326.Close()
	if v := c0326.ProtocolVersion(); v != "2025-03-26" {
		t.Errorf("a 2025-03-26 client: ProtocolVersion = %q", v)
	}
	r0326, err := c0326.ReadResource(ctx, &mcp20250326.ReadResourceRequestParams{URI: "test://static-text"})
	if err != nil {
		t.Fatalf("a 2025-03-26 client: resources/read: %v", err)
	}
	if len(r0326.Contents) != 1 {
		t.Errorf("a 2025-03-26 client: resources/read: %+v", r0326.Contents)
	}
}

// The client of the handshake era (generated/mcp20251125) against the
// same SDK servers with sessions: initialize, the session header, the
// server's elicitation/create request answered on a POST.

type legacyNameGiver struct {
	mcp20251125.UnimplementedClientHandler
}

func (legacyNameGiver) Elicit(ctx context.Context, p mcp20251125.ElicitRequestParams) (*mcp20251125.ElicitResult, error) {
	return &mcp20251125.ElicitResult{Action: mcp20251125.ElicitResultActionAccept,
		Content: map[string]mcp20251125.ElicitResultContentValue{"name": mcp20251125.ElicitResultContentValueFromString("Ada")}}, nil
}

func legacyChecks(t *testing.T, url string) {
	t.Helper()
	ctx := testContext(t)
	c, err := mcp20251125.Connect(ctx, &mcp20251125.HTTPTransport{URL: url}, legacyNameGiver{}, mcp20251125.ClientOptions{
		Capabilities: mcp20251125.ClientCapabilities{Elicitation: &mcp20251125.ClientCapabilitiesElicitation{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if v := c.ProtocolVersion(); v != "2025-11-25" {
		t.Errorf("ProtocolVersion = %q", v)
	}
	for _, tc := range []struct{ name, args, want string }{
		{"add", `{"a":2,"b":3}`, "5"},
		{"greet", `{}`, "Hello, Ada!"},
	} {
		res, err := c.CallTool(ctx, &mcp20251125.CallToolRequestParams{Name: tc.name, Arguments: json.RawMessage(tc.args)})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if text, _ := res.Content[0].(*mcp20251125.TextContent); text == nil || text.Text != tc.want {
			t.Errorf("%s: %+v, want %q", tc.name, res.Content[0], tc.want)
		}
	}
	res, err := c.ReadResource(ctx, &mcp20251125.ReadResourceRequestParams{URI: "test://hello"})
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := res.Contents[0].(*mcp20251125.TextResourceContents); text == nil || text.Text != "hello world" {
		t.Errorf("resources/read: %+v", res.Contents[0])
	}
}

func TestClientLegacyGoSDKHTTP(t *testing.T) {
	s := sdkservers.GoSDK()
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	defer hs.Close()
	legacyChecks(t, hs.URL)
}

func TestClientLegacyMCPGoHTTP(t *testing.T) {
	hs := httptest.NewServer(mcpgoserver.NewStreamableHTTPServer(sdkservers.MCPGo()))
	defer hs.Close()
	legacyChecks(t, hs.URL)
}

// The 2026-07-28 client against servers that speak the handshake era: it
// falls back to initialize and talks through its package's conversions,
// with the same code as against a 2026-07-28 server.

func fallbackChecks(t *testing.T, c *mcp.Client) {
	t.Helper()
	if v := c.ProtocolVersion(); v == "2026-07-28" {
		t.Errorf("ProtocolVersion = %q, want a revision of the handshake era", v)
	}
	callWant(t, c, "add", `{"a":2,"b":3}`, "5")
	callWant(t, c, "greet", `{}`, "Hello, Ada!")
	res, err := c.ReadResource(testContext(t), &mcp.ReadResourceRequestParams{URI: "test://hello"})
	if err != nil {
		t.Fatal(err)
	}
	if tc, _ := res.Contents[0].(*mcp.TextResourceContents); tc == nil || tc.Text != "hello world" {
		t.Errorf("resources/read: %+v", res.Contents)
	}
}

func TestClientFallbackGoSDKHTTP(t *testing.T) {
	s := sdkservers.GoSDK()
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	defer hs.Close()
	c, err := mcp.Connect(testContext(t), &mcp.HTTPTransport{URL: hs.URL}, nameGiver{}, clientOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	t.Logf("go-sdk with sessions: protocol version %s", c.ProtocolVersion())
	fallbackChecks(t, c)
}

func TestClientFallbackLegacyServer(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2025-06-18"} {
		cmd := exec.Command(legacyBin, "-version", version)
		c, err := mcp.Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, nameGiver{}, clientOptions)
		if err != nil {
			t.Fatal(err)
		}
		if v := c.ProtocolVersion(); v != version {
			t.Errorf("ProtocolVersion = %q, want %s", v, version)
		}
		callWant(t, c, "echo", `{"text":"hi"}`, "hi")
		callWant(t, c, "elicit", `{}`, "Hello, Ada!")
		c.Close()
	}
}
