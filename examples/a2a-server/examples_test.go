package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/examples/a2a-server/a2a"
	"github.com/mcpgen/mcpgen/internal/reference"
	"github.com/mcpgen/mcpgen/internal/testenv"
)

// publishedExample is one JSON document of A2A's specification.md.
type publishedExample struct {
	where string // "block N" (and "event M" for a server-sent event)
	data  []byte
}

var (
	jsonBlock = regexp.MustCompile("(?s)```json\n(.*?)```")
	sseData   = regexp.MustCompile(`(?m)^\s*data:\s*`)
)

// stripComments removes the // comments the specification's examples
// carry (outside strings) to the end of their line.
func stripComments(s string) string {
	var b strings.Builder
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			if i < len(s) {
				b.WriteByte('\n')
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// publishedExamples extracts the JSON examples of specification.md: the
// ```json blocks, without the lines that are // comments (the text marks
// elisions with them), a block of server-sent events split into its events.
func publishedExamples(t *testing.T) []publishedExample {
	t.Helper()
	md, err := os.ReadFile(filepath.Join(testenv.A2ASpecDir(t), "specification.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []publishedExample
	for i, m := range jsonBlock.FindAllSubmatch(md, -1) {
		text := stripComments(string(m[1]))
		if !sseData.MatchString(text) {
			out = append(out, publishedExample{fmt.Sprintf("block %d", i+1), []byte(text)})
			continue
		}
		for j, ev := range sseData.Split(text, -1)[1:] {
			out = append(out, publishedExample{fmt.Sprintf("block %d event %d", i+1, j+1), []byte(ev)})
		}
	}
	return out
}

// responseDefs are the response definitions of the methods the examples
// call (A2A names them XSuccessResponse after the request XRequest).
var responseDefs = map[string]string{
	"message/send":                       "SendMessageSuccessResponse",
	"message/stream":                     "SendStreamingMessageSuccessResponse",
	"tasks/get":                          "GetTaskSuccessResponse",
	"tasks/cancel":                       "CancelTaskSuccessResponse",
	"tasks/pushNotificationConfig/set":   "SetTaskPushNotificationConfigSuccessResponse",
	"tasks/pushNotificationConfig/get":   "GetTaskPushNotificationConfigSuccessResponse",
	"agent/getAuthenticatedExtendedCard": "GetAuthenticatedExtendedCardSuccessResponse",
}

// TestPublishedExamples decodes and validates every JSON example of A2A's
// specification with the generated package, as the definition it is an
// instance of: a request as A2ARequest, a response as the success
// response of the request before it with the same id, the agent card and
// the task as AgentCard and Task. The verdict must be the reference
// validator's (santhosh-tekuri/jsonschema/v5 on a2a.json), and a valid
// response's result must decode as its method's result (DecodeResult).
// Many published examples break the schema (README: they leave out the
// "kind" the schema requires of a message or a task); the test logs them.
func TestPublishedExamples(t *testing.T) {
	examples := publishedExamples(t)
	if len(examples) < 15 {
		t.Fatalf("only %d examples in specification.md", len(examples))
	}
	ref, err := reference.New(a2aSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	methodOf := map[string]string{} // request id -> method, as the examples go
	kinds := map[string]int{}
	var broken []string
	for _, ex := range examples {
		t.Run(ex.where, func(t *testing.T) {
			var env struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Kind   string          `json:"kind"`
				Skills json.RawMessage `json:"skills"`
			}
			if err := json.Unmarshal(ex.data, &env); err != nil {
				// Published as it is, the example is no JSON document:
				// the generated decoder must say so too.
				var h a2a.JSONRPCResponseHolder
				var syn *a2a.SyntaxError
				if err := a2a.UnmarshalAndValidate(ex.data, &h); !errors.As(err, &syn) {
					t.Errorf("not JSON (%v), but the generated decoder says %v", err, err)
				}
				broken = append(broken, fmt.Sprintf("%s: not JSON: %v", ex.where, err))
				return
			}
			var def, method string
			switch {
			case env.Method != "":
				def = "A2ARequest"
				methodOf[string(env.ID)] = env.Method
			case env.Result != nil:
				var ok bool
				if method, ok = methodOf[string(env.ID)]; !ok {
					t.Fatalf("no request with id %s before the response", env.ID)
				}
				if def, ok = responseDefs[method]; !ok {
					t.Fatalf("a response to %s, which the test does not map to its definition", method)
				}
			case env.Skills != nil:
				def = "AgentCard"
			case env.Kind == "task":
				def = "Task"
			default:
				t.Fatalf("an example of no kind this test knows:\n%s", ex.data)
			}
			kinds[def]++
			v, ok := a2a.NewValue(def)
			if !ok {
				t.Fatalf("no type for %s", def)
			}
			err := a2a.UnmarshalAndValidate(ex.data, v)
			want, reason, rerr := ref.Validate(def, ex.data)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if (err == nil) != want {
				t.Fatalf("%s: mcpgen says %v, the reference validator says valid=%v %s\n%s", def, err, want, reason, ex.data)
			}
			if err != nil {
				broken = append(broken, fmt.Sprintf("%s (%s): %v", ex.where, def, err))
				return
			}
			if method != "" {
				r, err := a2a.DecodeResult(method, env.Result)
				if err == nil {
					err = r.Validate()
				}
				if err != nil {
					t.Errorf("the result of %s: %v", method, err)
				}
			}
		})
	}
	for _, k := range []string{"A2ARequest", "SendMessageSuccessResponse", "AgentCard", "Task"} {
		if kinds[k] == 0 {
			t.Errorf("no %s among the examples", k)
		}
	}
	t.Logf("%d examples (%v); %d break the schema, as the reference validator agrees:\n%s", len(examples), kinds, len(broken), strings.Join(broken, "\n"))
}
