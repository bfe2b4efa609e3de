package main

import (
	"context"
	"strconv"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The tools that return each kind of content, report a tool error, or
// send notifications (progress, log messages) before their result.

func contentTools() []tool {
	return []tool{
		defineTool(`{"name":"test_simple_text","description":"Returns a simple text response.","inputSchema":`+noArgs+`}`,
			func(context.Context, *server, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				return toolResult(text("This is a simple text response for testing.")), nil
			}),
		defineTool(`{"name":"test_image_content","description":"Returns a PNG image.","inputSchema":`+noArgs+`}`,
			func(context.Context, *server, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				return toolResult(image(pngPixel, "image/png")), nil
			}),
		defineTool(`{"name":"test_audio_content","description":"Returns a WAV audio clip.","inputSchema":`+noArgs+`}`,
			func(context.Context, *server, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				return toolResult(audio(wavSilence, "audio/wav")), nil
			}),
		defineTool(`{"name":"test_embedded_resource","description":"Returns an embedded text resource.","inputSchema":`+noArgs+`}`,
			func(context.Context, *server, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				return toolResult(embeddedText("test://embedded-resource", "text/plain", "This is an embedded resource content.")), nil
			}),
		defineTool(`{"name":"test_multiple_content_types","description":"Returns text, an image and an embedded resource.","inputSchema":`+noArgs+`}`,
			func(context.Context, *server, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				return toolResult(
					text("Multiple content types test:"),
					image(pngPixel, "image/png"),
					embeddedText("test://mixed-content-resource", "application/json", `{"test":"data","value":123}`),
				), nil
			}),
		defineTool(`{"name":"test_error_handling","description":"Always fails with a tool error (isError), not a protocol error.","inputSchema":`+noArgs+`}`,
			func(context.Context, *server, *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
				return toolError("This tool intentionally returns an error for testing"), nil
			}),
		defineTool(`{"name":"test_tool_with_progress","description":"Reports progress (0, 50, 100 of 100) when the request has a progressToken, then returns.","inputSchema":`+noArgs+`}`,
			callWithProgress),
		defineTool(`{"name":"test_tool_with_logging","description":"Sends three log messages at info level, if the request asks for log messages (io.modelcontextprotocol/logLevel), then returns.","inputSchema":`+noArgs+`}`,
			callWithLogging),
	}
}

func callWithProgress(ctx context.Context, _ *server, p *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	token := p.Meta.ProgressToken
	if !token.IsZero() {
		total := 100.0
		for i, v := range []float64{0, 50, 100} {
			if i > 0 {
				if err := sleep(ctx, 50*time.Millisecond); err != nil {
					return nil, err
				}
			}
			msg := "step " + strconv.Itoa(i+1) + " of 3"
			if err := mcp.SendNotification(ctx, mcp.MethodProgressNotification, &mcp.ProgressNotificationParams{
				ProgressToken: token, Progress: v, Total: &total, Message: &msg,
			}); err != nil {
				return nil, err
			}
		}
	}
	return toolResult(text("Progress test completed")), nil
}

// callWithLogging sends its messages with mcp.Log, which sends those the
// client asked for: in 2026-07-28 with the request's
// _meta["io.modelcontextprotocol/logLevel"] (none without it), in the
// older revisions with logging/setLevel.
func callWithLogging(ctx context.Context, _ *server, _ *mcp.CallToolRequestParams) (*mcp.CallToolResult, error) {
	for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return nil, err
			}
		}
		if err := mcp.Log(ctx, mcp.LoggingLevelInfo, "everything-server", msg); err != nil {
			return nil, err
		}
	}
	return toolResult(text("Logging test completed")), nil
}
