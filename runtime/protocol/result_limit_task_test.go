package protocol

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// TestTaskResultAboveTheLimit: a tools/call run as a task whose result
// is longer than MaxResult (less the room for the task around it) ends
// completed with the tool error that says so, and tasks/get's answer
// stays within the limit; a result under it is kept whole.
func TestTaskResultAboveTheLimit(t *testing.T) {
	const limit = 32 << 10
	env := newTaskEnv(t, 0, time.Minute)
	env.d.Limits.MaxResult = limit
	text := func(n int) jsonrpc.Result {
		b, _ := json.Marshal(map[string]any{"content": []any{map[string]string{"type": "text", "text": strings.Repeat("x", n)}}, "resultType": "complete"})
		return jsonrpc.RawResult(b)
	}
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1000, strings.Repeat("x", 1000)},
		{40 << 10, ""},
	} {
		if tc.want == "" {
			// The result the task store encodes is text's as it is; the
			// task around it in tasks/get gets 4 KiB of the limit.
			tc.want = "tool result too large: the result is " + strconv.Itoa(len(text(tc.n).(jsonrpc.RawResult))) + " bytes long; this server sends results of at most " + strconv.Itoa(limit-4<<10)
		}
		env.run = func(context.Context) (jsonrpc.Result, error) { return text(tc.n), nil }
		id := env.create().TaskID
		env.await(id, "completed")
		resp := env.d.Handle(context.Background(), []byte(req("99", "tasks/get", `{`+metaCaps(extCaps)+`,"taskId":`+quoteJSON(id)+`}`)))
		if len(resp) > limit {
			t.Errorf("n=%d: tasks/get answered with %d bytes, above the limit %d", tc.n, len(resp), limit)
		}
		var r struct {
			Result struct {
				Result struct {
					Content []struct{ Text string }
					IsError bool `json:"isError"`
				}
			}
		}
		if err := json.Unmarshal(resp, &r); err != nil {
			t.Fatalf("n=%d: %v: %.300s", tc.n, err, resp)
		}
		res := r.Result.Result
		if len(res.Content) != 1 || res.Content[0].Text != tc.want || res.IsError != (tc.n > 1000) {
			t.Errorf("n=%d: result %.300s, want the text %.100q", tc.n, resp, tc.want)
		}
	}
}
