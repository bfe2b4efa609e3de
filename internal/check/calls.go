package check

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/mcpgen/mcpgen/internal/check/wire"
	"github.com/mcpgen/mcpgen/schema"
)

// calls makes the tools/call requests of --call (the only ones that run
// a tool), and the header probes that need one.
func (r *run) calls() {
	for _, id := range []string{"call-structured-content", "call-param-header-validated", "call-name-header-validated"} {
		if len(r.ck.o.Calls) == 0 {
			r.skip(id, "needs --call TOOL=ARGS (the probe runs a tool)")
		}
	}
	for _, c := range r.ck.o.Calls {
		if r.dead != nil {
			return
		}
		var t *tool
		for i := range r.tools {
			if r.tools[i].name == c.Tool {
				t = &r.tools[i]
			}
		}
		if t == nil {
			r.note("--call %s: the server lists no such tool", c.Tool)
			continue
		}
		params := r.params(`"name":` + strconv.Quote(c.Tool) + `,"arguments":` + string(c.Args))
		headers := map[string]string{}
		if r.modern && r.http != nil {
			for _, h := range paramHeaders(t.input, c.Args) {
				headers[h.key] = h.value
			}
		}
		step := "tools/call " + c.Tool
		x := r.send(req{step: step, method: "tools/call", params: params, header: headers})
		r.structured(step, x, t)
		if !r.modern || r.http == nil {
			continue
		}
		mismatch := func(id, step string, h map[string]string) {
			x := r.send(req{step: step, method: "tools/call", params: params, header: h, claimCode: true, claimHTTP: true})
			p, ok := parseResponse(x.Response)
			switch {
			case x.Err != nil:
			case ok && x.Response != nil && p.Error != nil && p.Error.code() == -32020 && x.Status == http.StatusBadRequest:
				r.pass(id)
			default:
				r.failf(id, step, x, "%s, want HTTP 400 and -32020 (and the tool ran)", answerText(x))
			}
		}
		other := map[string]string{"Mcp-Name": "mcpgen-check-other"}
		for k, v := range headers {
			other[k] = v
		}
		mismatch("call-name-header-validated", step+" with Mcp-Name: mcpgen-check-other", other)
		for k := range headers {
			without := map[string]string{}
			for k2, v := range headers {
				without[k2] = v
			}
			without[k] = ""
			mismatch("call-param-header-validated", step+" without "+k, without)
			without[k] = "mcpgen-check-other"
			mismatch("call-param-header-validated", step+" with "+k+": mcpgen-check-other", without)
		}
	}
}

// structured judges structuredContent against the tool's outputSchema.
func (r *run) structured(step string, x *wire.Exchange, t *tool) {
	if t.output == nil || string(t.output) == "null" {
		return
	}
	p, ok := parseResponse(x.Response)
	if !ok || x.Response == nil || p.Result == nil {
		return
	}
	var res struct {
		ResultType        string          `json:"resultType"`
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	_ = json.Unmarshal(p.Result, &res)
	switch {
	case res.ResultType != "" && res.ResultType != "complete":
		r.note("%s: resultType %q: structuredContent not judged", step, res.ResultType)
	case res.IsError:
	case res.StructuredContent == nil:
		r.failf("call-structured-content", step, x, "tool %q has an outputSchema, but the result has no structuredContent", t.name)
	default:
		if err := validateInstance(t.output, res.StructuredContent); err != nil {
			r.failf("call-structured-content", step, x, "structuredContent does not conform to the outputSchema: %s", err)
		} else {
			r.pass("call-structured-content")
		}
	}
}

// validateInstance validates doc against a JSON Schema (2020-12 unless it
// says otherwise), fetching nothing.
func validateInstance(schemaDoc, doc []byte) error {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(u string) (io.ReadCloser, error) { return nil, errors.New("mcpgen check fetches no schema: " + u) }
	if err := c.AddResource("mcpgen-check:output.json", bytes.NewReader(schemaDoc)); err != nil {
		return err
	}
	s, err := c.Compile("mcpgen-check:output.json")
	if err != nil {
		return fmt.Errorf("the outputSchema does not compile: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if err := s.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			var leaves []string
			var walk func(*jsonschema.ValidationError)
			walk = func(e *jsonschema.ValidationError) {
				if len(e.Causes) == 0 {
					leaves = append(leaves, orRoot(e.InstanceLocation)+": "+e.Message)
				}
				for _, c := range e.Causes {
					walk(c)
				}
			}
			walk(ve)
			return errors.New(strings.Join(leaves, "; "))
		}
		return err
	}
	return nil
}

func orRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// paramHeader is one Mcp-Param header of a call.
type paramHeader struct{ key, value string }

// paramHeaders are the Mcp-Param headers a conforming client sends for
// args: one per valid x-mcp-header whose argument is present.
func paramHeaders(input, args json.RawMessage) []paramHeader {
	root, err := schema.Parse(input)
	if err != nil {
		return nil
	}
	argv, err := schema.Parse(args)
	if err != nil {
		return nil
	}
	var out []paramHeader
	var walk func(s, a *schema.Value)
	walk = func(s, a *schema.Value) {
		props := s.Get("properties")
		if props == nil || props.Kind != schema.Object || a == nil || a.Kind != schema.Object {
			return
		}
		for _, m := range props.Members {
			av := a.Get(m.Name)
			if av == nil {
				continue
			}
			if h := m.Value.Get("x-mcp-header"); h != nil && h.Kind == schema.String && isToken(h.Str) {
				var v string
				switch av.Kind {
				case schema.String:
					v = av.Str
					if !plainHeaderValue(v) {
						v = "=?base64?" + base64.StdEncoding.EncodeToString([]byte(v)) + "?="
					}
				case schema.Number:
					v = av.Num
				case schema.Bool:
					v = strconv.FormatBool(av.Bool)
				default:
					continue
				}
				out = append(out, paramHeader{key: http.CanonicalHeaderKey("Mcp-Param-" + h.Str), value: v})
			}
			walk(m.Value, av)
		}
	}
	walk(root, argv)
	return out
}

// plainHeaderValue reports whether s can be a header value as it is.
func plainHeaderValue(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || strings.HasPrefix(s, "=?base64?") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
