package bench

import (
	"encoding/json"
	"sort"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Mapping is how an SDK decodes one schema definition: the name of its
// Go type (for the report) and a function that decodes an example into a
// new value of that type.
type Mapping struct {
	Type   string
	Decode func([]byte) (any, error)
	// Encode encodes a decoded value; nil means json.Marshal.
	Encode func(any) ([]byte, error)
}

// Marshal encodes v, a value m.Decode returned.
func (m Mapping) Marshal(v any) ([]byte, error) {
	if m.Encode != nil {
		return m.Encode(v)
	}
	return json.Marshal(v)
}

// Anchor is one SDK whose types the benchmark decodes the examples with.
type Anchor struct {
	Name string
	// Map is keyed by schema definition name.
	Map map[string]Mapping
	// Fails lists definitions that the SDK has a Go type for but whose
	// examples that type cannot decode, with the type; they are left out
	// of Map (and so of the benchmarks), and the tests check that they do
	// still fail, so the report stays true.
	Fails map[string]Mapping
}

// unmarshal decodes with encoding/json into a new T.
func unmarshal[T any](name string) Mapping {
	return Mapping{Type: name, Decode: func(b []byte) (any, error) {
		v := new(T)
		if err := json.Unmarshal(b, v); err != nil {
			return nil, err
		}
		return v, nil
	}}
}

// GoSDK is github.com/modelcontextprotocol/go-sdk/mcp. It has Go types for
// payloads (params, results, content, capabilities, JSON-RPC error
// objects, ...) but not for whole JSON-RPC messages with a typed payload:
// its jsonrpc.Request and jsonrpc.Response keep params and results as
// json.RawMessage, so the …Request, …Notification and …ResultResponse
// definitions are not covered (the error responses are: their payload is
// the typed error object). It has no types for the elicitation schemas
// (ElicitParams.RequestedSchema is `any`).
var GoSDK = Anchor{
	Name: "go-sdk v1.8.0",
	Map: map[string]Mapping{
		"AudioContent":                      unmarshal[sdk.AudioContent]("mcp.AudioContent"),
		"BlobResourceContents":              unmarshal[sdk.ResourceContents]("mcp.ResourceContents"),
		"CallToolRequestParams":             unmarshal[sdk.CallToolParams]("mcp.CallToolParams"),
		"CallToolResult":                    unmarshal[sdk.CallToolResult]("mcp.CallToolResult"),
		"CancelledNotificationParams":       unmarshal[sdk.CancelledParams]("mcp.CancelledParams"),
		"ClientCapabilities":                unmarshal[sdk.ClientCapabilities]("mcp.ClientCapabilities"),
		"CompleteRequestParams":             unmarshal[sdk.CompleteParams]("mcp.CompleteParams"),
		"CompleteResult":                    unmarshal[sdk.CompleteResult]("mcp.CompleteResult"),
		"CreateMessageRequestParams":        unmarshal[sdk.CreateMessageWithToolsParams]("mcp.CreateMessageWithToolsParams"),
		"CreateMessageResult":               unmarshal[sdk.CreateMessageWithToolsResult]("mcp.CreateMessageWithToolsResult"),
		"DiscoverResult":                    unmarshal[sdk.DiscoverResult]("mcp.DiscoverResult"),
		"ElicitRequestFormParams":           unmarshal[sdk.ElicitParams]("mcp.ElicitParams"),
		"ElicitRequestURLParams":            unmarshal[sdk.ElicitParams]("mcp.ElicitParams"),
		"ElicitResult":                      unmarshal[sdk.ElicitResult]("mcp.ElicitResult"),
		"EmbeddedResource":                  unmarshal[sdk.EmbeddedResource]("mcp.EmbeddedResource"),
		"GetPromptRequestParams":            unmarshal[sdk.GetPromptParams]("mcp.GetPromptParams"),
		"GetPromptResult":                   unmarshal[sdk.GetPromptResult]("mcp.GetPromptResult"),
		"ImageContent":                      unmarshal[sdk.ImageContent]("mcp.ImageContent"),
		"InputRequests":                     unmarshal[sdk.InputRequestMap]("mcp.InputRequestMap"),
		"InputRequiredResult":               unmarshal[sdk.CallToolResult]("mcp.CallToolResult"),
		"InputResponses":                    unmarshal[sdk.InputResponseMap]("mcp.InputResponseMap"),
		"ListPromptsResult":                 unmarshal[sdk.ListPromptsResult]("mcp.ListPromptsResult"),
		"ListResourceTemplatesResult":       unmarshal[sdk.ListResourceTemplatesResult]("mcp.ListResourceTemplatesResult"),
		"ListResourcesResult":               unmarshal[sdk.ListResourcesResult]("mcp.ListResourcesResult"),
		"ListRootsResult":                   unmarshal[sdk.ListRootsResult]("mcp.ListRootsResult"),
		"ListToolsResult":                   unmarshal[sdk.ListToolsResult]("mcp.ListToolsResult"),
		"LoggingMessageNotificationParams":  unmarshal[sdk.LoggingMessageParams]("mcp.LoggingMessageParams"),
		"ModelPreferences":                  unmarshal[sdk.ModelPreferences]("mcp.ModelPreferences"),
		"PaginatedRequestParams":            unmarshal[sdk.ListToolsParams]("mcp.ListToolsParams"),
		"ProgressNotificationParams":        unmarshal[sdk.ProgressNotificationParams]("mcp.ProgressNotificationParams"),
		"ReadResourceResult":                unmarshal[sdk.ReadResourceResult]("mcp.ReadResourceResult"),
		"Resource":                          unmarshal[sdk.Resource]("mcp.Resource"),
		"ResourceLink":                      unmarshal[sdk.ResourceLink]("mcp.ResourceLink"),
		"ResourceUpdatedNotificationParams": unmarshal[sdk.ResourceUpdatedNotificationParams]("mcp.ResourceUpdatedNotificationParams"),
		"Root":                              unmarshal[sdk.Root]("mcp.Root"),
		"SamplingMessage":                   unmarshal[sdk.SamplingMessageV2]("mcp.SamplingMessageV2"),
		"ServerCapabilities":                unmarshal[sdk.ServerCapabilities]("mcp.ServerCapabilities"),
		"SubscriptionsListenResult":         unmarshal[sdk.SubscriptionsListenResult]("mcp.SubscriptionsListenResult"),
		"TextContent":                       unmarshal[sdk.TextContent]("mcp.TextContent"),
		"TextResourceContents":              unmarshal[sdk.ResourceContents]("mcp.ResourceContents"),
		"Tool":                              unmarshal[sdk.Tool]("mcp.Tool"),
		"ToolUseContent":                    unmarshal[sdk.ToolUseContent]("mcp.ToolUseContent"),

		// JSON-RPC error objects.
		"InternalError":       unmarshal[jsonrpc.Error]("jsonrpc.Error"),
		"InvalidParamsError":  unmarshal[jsonrpc.Error]("jsonrpc.Error"),
		"MethodNotFoundError": unmarshal[jsonrpc.Error]("jsonrpc.Error"),
		"ParseError":          unmarshal[jsonrpc.Error]("jsonrpc.Error"),
		// Whole JSON-RPC error responses, whose payload (the error
		// object) go-sdk types; jsonrpc.Response holds it in a field of
		// type error, so go-sdk's own DecodeMessage and EncodeMessage
		// (which use encoding/json) read and write it.
		"HeaderMismatchError":                  sdkMessage,
		"MissingRequiredClientCapabilityError": sdkMessage,
		"UnsupportedProtocolVersionError":      sdkMessage,
	},
	Fails: map[string]Mapping{
		// Its Content field is []mcp.Content, an interface that only the
		// containers' UnmarshalJSON methods fill.
		"ToolResultContent": unmarshal[sdk.ToolResultContent]("mcp.ToolResultContent"),
	},
}

// sdkMessage decodes a whole JSON-RPC message with go-sdk's jsonrpc package.
var sdkMessage = Mapping{
	Type:   "jsonrpc.Response (jsonrpc.DecodeMessage)",
	Decode: func(b []byte) (any, error) { return jsonrpc.DecodeMessage(b) },
	Encode: func(v any) ([]byte, error) { return jsonrpc.EncodeMessage(v.(jsonrpc.Message)) },
}

// MCPGo is github.com/mark3labs/mcp-go/mcp. Besides payloads it has types
// for requests and notifications (method + params, which is what its server
// decodes a whole message into; they do not keep "jsonrpc" or "id"), for
// error objects (JSONRPCErrorDetails) and error responses (JSONRPCError). Its JSONRPCResponse keeps the
// result as `any`, so the …ResultResponse definitions are not covered.
// GetPromptResult and ReadResourceResult hold interfaces that encoding/json
// cannot fill; mcp-go's own ParseGetPromptResult and ParseReadResourceResult
// (what its client uses) decode those.
var MCPGo = Anchor{
	Name: "mcp-go v1.2.1",
	Map: map[string]Mapping{
		"AudioContent":                          unmarshal[mcpgo.AudioContent]("mcp.AudioContent"),
		"BlobResourceContents":                  unmarshal[mcpgo.BlobResourceContents]("mcp.BlobResourceContents"),
		"CallToolRequest":                       unmarshal[mcpgo.CallToolRequest]("mcp.CallToolRequest"),
		"CallToolRequestParams":                 unmarshal[mcpgo.CallToolParams]("mcp.CallToolParams"),
		"CallToolResult":                        unmarshal[mcpgo.CallToolResult]("mcp.CallToolResult"),
		"CancelledNotification":                 unmarshal[mcpgo.CancelledNotification]("mcp.CancelledNotification"),
		"CancelledNotificationParams":           unmarshal[mcpgo.CancelledNotificationParams]("mcp.CancelledNotificationParams"),
		"ClientCapabilities":                    unmarshal[mcpgo.ClientCapabilities]("mcp.ClientCapabilities"),
		"CompleteRequest":                       unmarshal[mcpgo.CompleteRequest]("mcp.CompleteRequest"),
		"CompleteRequestParams":                 unmarshal[mcpgo.CompleteParams]("mcp.CompleteParams"),
		"CompleteResult":                        unmarshal[mcpgo.CompleteResult]("mcp.CompleteResult"),
		"CreateMessageRequest":                  unmarshal[mcpgo.CreateMessageRequest]("mcp.CreateMessageRequest"),
		"CreateMessageRequestParams":            unmarshal[mcpgo.CreateMessageParams]("mcp.CreateMessageParams"),
		"CreateMessageResult":                   unmarshal[mcpgo.CreateMessageResult]("mcp.CreateMessageResult"),
		"DiscoverRequest":                       unmarshal[mcpgo.DiscoverRequest]("mcp.DiscoverRequest"),
		"DiscoverResult":                        unmarshal[mcpgo.DiscoverResult]("mcp.DiscoverResult"),
		"ElicitRequest":                         unmarshal[mcpgo.ElicitationRequest]("mcp.ElicitationRequest"),
		"ElicitRequestFormParams":               unmarshal[mcpgo.ElicitationParams]("mcp.ElicitationParams"),
		"ElicitRequestURLParams":                unmarshal[mcpgo.ElicitationParams]("mcp.ElicitationParams"),
		"ElicitResult":                          unmarshal[mcpgo.ElicitationResult]("mcp.ElicitationResult"),
		"EmbeddedResource":                      unmarshal[mcpgo.EmbeddedResource]("mcp.EmbeddedResource"),
		"GetPromptRequest":                      unmarshal[mcpgo.GetPromptRequest]("mcp.GetPromptRequest"),
		"GetPromptRequestParams":                unmarshal[mcpgo.GetPromptParams]("mcp.GetPromptParams"),
		"GetPromptResult":                       parseRaw("mcp.ParseGetPromptResult", mcpgo.ParseGetPromptResult),
		"HeaderMismatchError":                   unmarshal[mcpgo.JSONRPCError]("mcp.JSONRPCError"),
		"ImageContent":                          unmarshal[mcpgo.ImageContent]("mcp.ImageContent"),
		"InputRequests":                         unmarshal[mcpgo.InputRequests]("mcp.InputRequests"),
		"InputRequiredResult":                   unmarshal[mcpgo.InputRequiredResult]("mcp.InputRequiredResult"),
		"InputResponses":                        unmarshal[mcpgo.InputResponses]("mcp.InputResponses"),
		"InternalError":                         unmarshal[mcpgo.JSONRPCErrorDetails]("mcp.JSONRPCErrorDetails"),
		"InvalidParamsError":                    unmarshal[mcpgo.JSONRPCErrorDetails]("mcp.JSONRPCErrorDetails"),
		"ListPromptsRequest":                    unmarshal[mcpgo.ListPromptsRequest]("mcp.ListPromptsRequest"),
		"ListPromptsResult":                     unmarshal[mcpgo.ListPromptsResult]("mcp.ListPromptsResult"),
		"ListResourceTemplatesRequest":          unmarshal[mcpgo.ListResourceTemplatesRequest]("mcp.ListResourceTemplatesRequest"),
		"ListResourceTemplatesResult":           unmarshal[mcpgo.ListResourceTemplatesResult]("mcp.ListResourceTemplatesResult"),
		"ListResourcesRequest":                  unmarshal[mcpgo.ListResourcesRequest]("mcp.ListResourcesRequest"),
		"ListResourcesResult":                   unmarshal[mcpgo.ListResourcesResult]("mcp.ListResourcesResult"),
		"ListRootsRequest":                      unmarshal[mcpgo.ListRootsRequest]("mcp.ListRootsRequest"),
		"ListRootsResult":                       unmarshal[mcpgo.ListRootsResult]("mcp.ListRootsResult"),
		"ListToolsRequest":                      unmarshal[mcpgo.ListToolsRequest]("mcp.ListToolsRequest"),
		"ListToolsResult":                       unmarshal[mcpgo.ListToolsResult]("mcp.ListToolsResult"),
		"LoggingMessageNotification":            unmarshal[mcpgo.LoggingMessageNotification]("mcp.LoggingMessageNotification"),
		"LoggingMessageNotificationParams":      unmarshal[mcpgo.LoggingMessageNotificationParams]("mcp.LoggingMessageNotificationParams"),
		"MethodNotFoundError":                   unmarshal[mcpgo.JSONRPCErrorDetails]("mcp.JSONRPCErrorDetails"),
		"MissingRequiredClientCapabilityError":  unmarshal[mcpgo.JSONRPCError]("mcp.JSONRPCError"),
		"ModelPreferences":                      unmarshal[mcpgo.ModelPreferences]("mcp.ModelPreferences"),
		"PaginatedRequestParams":                unmarshal[mcpgo.PaginatedParams]("mcp.PaginatedParams"),
		"ParseError":                            unmarshal[mcpgo.JSONRPCErrorDetails]("mcp.JSONRPCErrorDetails"),
		"ProgressNotification":                  unmarshal[mcpgo.ProgressNotification]("mcp.ProgressNotification"),
		"ProgressNotificationParams":            unmarshal[mcpgo.ProgressNotificationParams]("mcp.ProgressNotificationParams"),
		"PromptListChangedNotification":         unmarshal[mcpgo.PromptListChangedNotification]("mcp.PromptListChangedNotification"),
		"ReadResourceRequest":                   unmarshal[mcpgo.ReadResourceRequest]("mcp.ReadResourceRequest"),
		"ReadResourceResult":                    parseRaw("mcp.ParseReadResourceResult", mcpgo.ParseReadResourceResult),
		"Resource":                              unmarshal[mcpgo.Resource]("mcp.Resource"),
		"ResourceLink":                          unmarshal[mcpgo.ResourceLink]("mcp.ResourceLink"),
		"ResourceListChangedNotification":       unmarshal[mcpgo.ResourceListChangedNotification]("mcp.ResourceListChangedNotification"),
		"ResourceUpdatedNotification":           unmarshal[mcpgo.ResourceUpdatedNotification]("mcp.ResourceUpdatedNotification"),
		"ResourceUpdatedNotificationParams":     unmarshal[mcpgo.ResourceUpdatedNotificationParams]("mcp.ResourceUpdatedNotificationParams"),
		"Root":                                  unmarshal[mcpgo.Root]("mcp.Root"),
		"SamplingMessage":                       unmarshal[mcpgo.SamplingMessage]("mcp.SamplingMessage"),
		"ServerCapabilities":                    unmarshal[mcpgo.ServerCapabilities]("mcp.ServerCapabilities"),
		"SubscriptionsAcknowledgedNotification": unmarshal[mcpgo.SubscriptionsAcknowledgedNotification]("mcp.SubscriptionsAcknowledgedNotification"),
		"SubscriptionsListenRequest":            unmarshal[mcpgo.SubscriptionsListenRequest]("mcp.SubscriptionsListenRequest"),
		"SubscriptionsListenResult":             unmarshal[mcpgo.SubscriptionsListenResult]("mcp.SubscriptionsListenResult"),
		"TextContent":                           unmarshal[mcpgo.TextContent]("mcp.TextContent"),
		"TextResourceContents":                  unmarshal[mcpgo.TextResourceContents]("mcp.TextResourceContents"),
		"Tool":                                  unmarshal[mcpgo.Tool]("mcp.Tool"),
		"ToolListChangedNotification":           unmarshal[mcpgo.ToolListChangedNotification]("mcp.ToolListChangedNotification"),
		"ToolResultContent":                     unmarshal[mcpgo.ToolResultContent]("mcp.ToolResultContent"),
		"ToolUseContent":                        unmarshal[mcpgo.ToolUseContent]("mcp.ToolUseContent"),
		"UnsupportedProtocolVersionError":       unmarshal[mcpgo.JSONRPCError]("mcp.JSONRPCError"),
	},
}

// parseRaw adapts one of mcp-go's Parse…(*json.RawMessage) helpers.
func parseRaw[T any](name string, parse func(*json.RawMessage) (*T, error)) Mapping {
	return Mapping{Type: name, Decode: func(b []byte) (any, error) {
		raw := json.RawMessage(b)
		v, err := parse(&raw)
		if err != nil {
			return nil, err
		}
		return v, nil
	}}
}

// Covered returns the examples a has a type for, in corpus order.
func (a Anchor) Covered(corpus []Example) []Example {
	var out []Example
	for _, e := range corpus {
		if _, ok := a.Map[e.Definition]; ok {
			out = append(out, e)
		}
	}
	return out
}

// Uncovered returns the definitions of the corpus a has no type for, sorted.
func (a Anchor) Uncovered(corpus []Example) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range corpus {
		if _, ok := a.Map[e.Definition]; !ok && !seen[e.Definition] {
			seen[e.Definition] = true
			out = append(out, e.Definition)
		}
	}
	sort.Strings(out)
	return out
}

// Anchors are the SDKs compared with.
var Anchors = []*Anchor{&GoSDK, &MCPGo}
