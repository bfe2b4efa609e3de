package main

import (
	"context"
	"strconv"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The tools that return each kind of content, report a tool error, or
// send notifications (progress, log messages) before their result.

func addContentTools(s *mcp.Server) {
	mcp.AddTool(s, tool("test_simple_text", "Returns a simple text response."),
		func(context.Context, *mcp.CallToolRequestParams, none) (*mcp.CallToolResult, error) {
			return mcp.TextResult("This is a simple text response for testing."), nil
		})
	mcp.AddTool(s, tool("test_image_content", "Returns a PNG image."),
		func(context.Context, *mcp.CallToolRequestParams, none) (*mcp.CallToolResult, error) {
			return result(mcp.Image(pngPixel, "image/png")), nil
		})
	mcp.AddTool(s, tool("test_audio_content", "Returns a WAV audio clip."),
		func(context.Context, *mcp.CallToolRequestParams, none) (*mcp.CallToolResult, error) {
			return result(mcp.Audio(wavSilence, "audio/wav")), nil
		})
	mcp.AddTool(s, tool("test_embedded_resource", "Returns an embedded text resource."),
		func(context.Context, *mcp.CallToolRequestParams, none) (*mcp.CallToolResult, error) {
			return result(mcp.EmbeddedText("test://embedded-resource", "text/plain", "This is an embedded resource content.")), nil
		})
	mcp.AddTool(s, tool("test_multiple_content_types", "Returns text, an image and an embedded resource."),
		func(context.Context, *mcp.CallToolRequestParams, none) (*mcp.CallToolResult, error) {
			return result(
				mcp.Text("Multiple content types test:"),
				mcp.Image(pngPixel, "image/png"),
				mcp.EmbeddedText("test://mixed-content-resource", "application/json", `{"test":"data","value":123}`),
			), nil
		})
	mcp.AddTool(s, tool("test_error_handling", "Always fails with a tool error (isError), not a protocol error."),
		func(context.Context, *mcp.CallToolRequestParams, none) (*mcp.CallToolResult, error) {
			return mcp.ErrorResult("This tool intentionally returns an error for testing"), nil
		})
	mcp.AddTool(s, tool("test_tool_with_progress", "Reports progress (0, 50, 100 of 100) when the request has a progressToken, then returns."),
		callWithProgress)
	mcp.AddTool(s, tool("test_tool_with_logging", "Sends three log messages at info level, if the request asks for log messages (io.modelcontextprotocol/logLevel), then returns."),
		callWithLogging)
}

// result is a tool result with the content blocks.
func result(content ...mcp.ContentBlock) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: content}
}

// callWithProgress reports progress with mcp.SendProgress, which sends
// nothing when the request has no progressToken.
func callWithProgress(ctx context.Context, _ *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
	for i, v := range []float64{0, 50, 100} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return nil, err
			}
		}
		if err := mcp.SendProgress(ctx, v, 100, "step "+strconv.Itoa(i+1)+" of 3"); err != nil {
			return nil, err
		}
	}
	return mcp.TextResult("Progress test completed"), nil
}

// callWithLogging sends its messages with mcp.Log, which sends those the
// client asked for: in 2026-07-28 with the request's
// _meta["io.modelcontextprotocol/logLevel"] (none without it), in the
// older revisions with logging/setLevel.
func callWithLogging(ctx context.Context, _ *mcp.CallToolRequestParams, _ none) (*mcp.CallToolResult, error) {
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
	return mcp.TextResult("Logging test completed"), nil
}
