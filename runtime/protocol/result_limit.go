package protocol

import (
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// A result longer than the dispatcher's Limits.MaxResult (the generated
// ServerOptions.MaxResultBytes) is not sent: the peer's reader would
// refuse it, or drop the connection over it. A tools/call is answered
// with a tool error that says so instead, which the client (and its
// model) reads as the outcome of the call; another request gets the
// dispatcher's internal error.

// taskResultRoom is what a task's result leaves of MaxResult for the
// task around it in the answer to tasks/get.
const taskResultRoom = 4 << 10

// maxKeptMeta bounds the _meta of a tool result that the tool error
// replacing it keeps (the server's serverInfo, say).
const maxKeptMeta = 16 << 10

// ToolResultTooLargeText is the text of the tool error that answers a
// tools/call whose result is size bytes long, more than max.
func ToolResultTooLargeText(size, max int) string {
	return "tool result too large: the result is " + strconv.Itoa(size) + " bytes long; this server sends results of at most " + strconv.Itoa(max)
}

// tooLarge is the dispatcher's TooLarge: a tool error for tools/call.
func (c *Core) tooLarge(env *jsonrpc.Envelope, result []byte, max int) jsonrpc.Result {
	if env.Method != spec.MethodCallTool {
		return nil
	}
	return toolResultTooLarge(result, max, c.Modern)
}

// toolResultTooLarge is the CallToolResult that replaces result, longer
// than max: a tool error of ToolResultTooLargeText, with result's _meta
// when it is short, and resultType "complete" in a modern revision.
func toolResultTooLarge(result []byte, max int, modern bool) jsonrpc.RawResult {
	e := codec.Encoder{Buf: make([]byte, 0, 256)}
	e.Buf = append(e.Buf, '{')
	if meta := codec.Lookup(result, spec.MemberMeta); len(meta) > 0 && len(meta) <= maxKeptMeta && meta[0] == '{' {
		e.Buf = append(e.Buf, `"_meta":`...)
		e.Buf = append(e.Buf, meta...)
		e.Buf = append(e.Buf, ',')
	}
	e.Buf = append(e.Buf, `"content":[{"type":"text","text":`...)
	e.Str(ToolResultTooLargeText(len(result), max))
	e.Buf = append(e.Buf, `}],"isError":true`...)
	if modern {
		e.Buf = append(e.Buf, `,"resultType":"complete"`...)
	}
	e.Buf = append(e.Buf, '}')
	return jsonrpc.RawResult(e.Buf)
}
