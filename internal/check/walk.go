package check

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/check/wire"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// tool is a listed tool and where it was listed.
type tool struct {
	name          string
	raw           json.RawMessage
	input, output json.RawMessage
	// at is the pointer of the tool in its page's response
	// (/result/tools/3), step the page's step.
	at, step string
	x        *wire.Exchange
}

// prompt is a listed prompt.
type prompt struct {
	name     string
	required bool // it has a required argument
}

// listOutcome is how a list's first page was answered.
type listOutcome int

const (
	listNone   listOutcome = iota // no answer
	listResult                    // a result
	listError                     // an error
)

// page is one page of a list.
type page struct {
	step  string
	x     *wire.Exchange
	items []json.RawMessage
}

// list walks every page of a list method (at most MaxPages), judging
// pagination and the cacheScope of the pages.
func (r *run) list(method, key, label string) ([]page, listOutcome, *rpcError) {
	var pages []page
	seen := map[string]bool{}
	cursor := ""
	firstScope := ""
	for n := 1; ; n++ {
		if n > r.ck.o.MaxPages {
			r.note("%s: stopped after %d pages (--max-pages)", method, r.ck.o.MaxPages)
			break
		}
		members := ""
		if n > 1 {
			members = `"cursor":` + strconv.Quote(cursor)
		}
		step := fmt.Sprintf("%s%s page %d", method, label, n)
		x := r.send(req{step: step, method: method, params: r.params(members)})
		p, ok := parseResponse(x.Response)
		if !ok || x.Response == nil {
			if n == 1 {
				return nil, listNone, nil
			}
			break
		}
		if p.Error != nil {
			if n == 1 {
				return nil, listError, p.Error
			}
			break
		}
		var res struct {
			Next       *string         `json:"nextCursor"`
			CacheScope *string         `json:"cacheScope"`
			ResultType string          `json:"resultType"`
			Items      json.RawMessage `json:"-"`
		}
		_ = json.Unmarshal(p.Result, &res)
		var obj map[string]json.RawMessage
		_ = json.Unmarshal(p.Result, &obj)
		var items []json.RawMessage
		_ = json.Unmarshal(obj[key], &items)
		pages = append(pages, page{step: step, x: x, items: items})
		if r.modern && res.ResultType != "input_required" && res.CacheScope != nil {
			switch {
			case n == 1:
				firstScope = *res.CacheScope
			case *res.CacheScope != firstScope:
				r.failf("cache-scope-same-pages", step, x, "cacheScope %q, but page 1 had %q", *res.CacheScope, firstScope)
			default:
				r.pass("cache-scope-same-pages")
			}
		}
		if res.Next == nil {
			r.pass("pagination-terminates")
			break
		}
		if r.paged == nil {
			r.paged = map[string]string{}
		}
		r.paged[method] = *res.Next
		if seen[*res.Next] {
			r.failf("pagination-terminates", step, x, "nextCursor %q was followed already: the list never ends", *res.Next)
			break
		}
		seen[*res.Next] = true
		cursor = *res.Next
	}
	return pages, listResult, nil
}

// capsKnown reports whether the run knows the server's capabilities.
func (r *run) capsKnown() bool { return r.caps != nil }

// walk reads what the capabilities declare: every list, the resources
// and the prompts without required arguments; what is not declared
// must be refused.
func (r *run) walk() {
	for _, l := range []struct{ cap, method, key string }{
		{"tools", "tools/list", "tools"},
		{"prompts", "prompts/list", "prompts"},
		{"resources", "resources/list", "resources"},
	} {
		if r.dead != nil {
			return
		}
		declared := r.declared(l.cap)
		if r.capsKnown() && !declared {
			x := r.send(req{step: l.method + " (" + l.cap + " not declared)", method: l.method, params: r.params("")})
			r.expectRefused(l.method+" ("+l.cap+" not declared)", x, l.cap)
			continue
		}
		pages, outcome, rerr := r.list(l.method, l.key, "")
		if r.capsKnown() {
			switch outcome {
			case listResult:
				r.pass("capabilities-agree")
			case listError:
				r.failf("capabilities-agree", l.method+" page 1", pages0(pages), "%s is declared, but %s was answered with error %s %q", l.cap, l.method, string(rerr.Code), rerr.Message)
			}
		}
		switch l.cap {
		case "tools":
			r.collectTools(pages)
			if r.modern && outcome == listResult {
				again, _, _ := r.list(l.method, l.key, " (again)")
				r.deterministic(pages, again)
			}
		case "prompts":
			for _, pg := range pages {
				for _, it := range pg.items {
					var p struct {
						Name      string `json:"name"`
						Arguments []struct {
							Required bool `json:"required"`
						} `json:"arguments"`
					}
					_ = json.Unmarshal(it, &p)
					req := slices.ContainsFunc(p.Arguments, func(a struct {
						Required bool `json:"required"`
					}) bool {
						return a.Required
					})
					r.prompts = append(r.prompts, prompt{name: p.Name, required: req})
				}
			}
		case "resources":
			for _, pg := range pages {
				for _, it := range pg.items {
					var res struct {
						URI string `json:"uri"`
					}
					_ = json.Unmarshal(it, &res)
					r.resources = append(r.resources, res.URI)
				}
			}
			if outcome == listResult {
				r.list("resources/templates/list", "resourceTemplates", "")
			}
		}
	}
	if r.capsKnown() && !r.declared("completions") && r.dead == nil {
		params := r.params(`"ref":{"type":"ref/prompt","name":"mcpgen-check-none"},"argument":{"name":"x","value":""}`)
		x := r.send(req{step: "completion/complete (completions not declared)", method: spec.MethodComplete, params: params})
		r.expectRefused("completion/complete (completions not declared)", x, "completions")
	}
	r.checkTools()
	for i, u := range r.resources {
		if i >= r.ck.o.MaxReads || r.dead != nil {
			break
		}
		r.send(req{step: "resources/read " + u, method: "resources/read", params: r.params(`"uri":` + strconv.Quote(u))})
	}
	n := 0
	for _, p := range r.prompts {
		if p.required {
			continue
		}
		if n >= r.ck.o.MaxGets || r.dead != nil {
			break
		}
		n++
		r.send(req{step: "prompts/get " + p.name, method: "prompts/get", params: r.params(`"name":` + strconv.Quote(p.name) + `,"arguments":{}`)})
	}
}

func pages0(p []page) *wire.Exchange {
	if len(p) == 0 {
		return nil
	}
	return p[0].x
}

// expectRefused judges the answer to a method whose capability is not
// declared: any error agrees, a result does not.
func (r *run) expectRefused(step string, x *wire.Exchange, capName string) {
	p, ok := parseResponse(x.Response)
	if !ok || x.Response == nil {
		return
	}
	if p.Result != nil {
		r.failf("capabilities-agree", step, x, "%s is not declared, but the server answered with a result", capName)
		return
	}
	r.pass("capabilities-agree")
}

func (r *run) collectTools(pages []page) {
	for _, pg := range pages {
		for i, it := range pg.items {
			var t struct {
				Name   string          `json:"name"`
				Input  json.RawMessage `json:"inputSchema"`
				Output json.RawMessage `json:"outputSchema"`
			}
			_ = json.Unmarshal(it, &t)
			r.tools = append(r.tools, tool{name: t.Name, raw: it, input: t.Input, output: t.Output,
				at: "/result/tools/" + strconv.Itoa(i), step: pg.step, x: pg.x})
		}
	}
}

// deterministic compares the names of two walks of tools/list.
func (r *run) deterministic(a, b []page) {
	names := func(ps []page) []string {
		var out []string
		for _, p := range ps {
			for _, it := range p.items {
				var t struct {
					Name string `json:"name"`
				}
				_ = json.Unmarshal(it, &t)
				out = append(out, t.Name)
			}
		}
		return out
	}
	na, nb := names(a), names(b)
	if len(b) == 0 {
		return
	}
	if slices.Equal(na, nb) {
		r.pass("tools-list-deterministic")
		return
	}
	r.failf("tools-list-deterministic", b[0].step, b[0].x, "the first walk listed %s, the second %s", short(na), short(nb))
}

func short(names []string) string {
	if len(names) > 8 {
		return "[" + strings.Join(names[:8], " ") + " ...]"
	}
	return "[" + strings.Join(names, " ") + "]"
}

// listen opens subscriptions/listen for what the capabilities say
// changes, and judges its first message.
func (r *run) listen() {
	var filter []string
	if r.capFlag("tools", "listChanged") {
		filter = append(filter, `"toolsListChanged":true`)
	}
	if r.capFlag("prompts", "listChanged") {
		filter = append(filter, `"promptsListChanged":true`)
	}
	if r.capFlag("resources", "listChanged") {
		filter = append(filter, `"resourcesListChanged":true`)
	}
	if r.capFlag("resources", "subscribe") && len(r.resources) > 0 {
		filter = append(filter, `"resourceSubscriptions":[`+strconv.Quote(r.resources[0])+`]`)
	}
	if len(filter) == 0 {
		r.skip("listen-ack-first", "no listChanged or subscribe declared")
		return
	}
	if r.dead != nil {
		return
	}
	id := r.nextID()
	key := wire.IDKey([]byte(id))
	carriesID := func(m []byte) bool {
		var n struct {
			Params struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(m, &n) != nil {
			return false
		}
		s, ok := n.Params.Meta["io.modelcontextprotocol/subscriptionId"]
		return ok && wire.IDKey(s) == key
	}
	step := "subscriptions/listen"
	x := r.send(req{step: step, method: "subscriptions/listen", id: id, params: r.params(`"notifications":{` + strings.Join(filter, ",") + `}`), until: carriesID, claimAnswer: true})
	if r.proc != nil && x.Err == nil {
		_ = r.proc.Notify(r.ck.ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`}}`))
	}
	switch {
	case x.Stopped != nil:
		var n struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(x.Stopped, &n)
		if n.Method == "notifications/subscriptions/acknowledged" {
			r.pass("listen-ack-first")
		} else {
			r.failf("listen-ack-first", step, x, "the first message of the subscription is %s, not notifications/subscriptions/acknowledged", n.Method)
		}
	case x.Response != nil:
		r.failf("listen-ack-first", step, x, "answered without an acknowledgement")
	case x.Err != nil && r.dead == nil:
		r.failf("listen-ack-first", step, x, "no acknowledgement: %s", errText(x.Err))
	}
}
