package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
)

// publicAcrossPrincipals asks for server/discover and the first page of
// each list the server declares once as the principal of Options.Header
// and once as that of Options.SecondHeader (cache-public-same-for-principals):
// a result both call public must be the same for both, ttlMs and _meta
// aside, since a shared cache serves it to either.
func (r *run) publicAcrossPrincipals() {
	const id = "cache-public-same-for-principals"
	switch {
	case r.http == nil:
		return // the rule is HTTP's
	case r.ck.o.SecondHeader == nil:
		r.skip(id, "no second principal (--second-principal-header)")
		return
	}
	second := map[string]string{}
	for k := range r.ck.o.Header {
		second[http.CanonicalHeaderKey(k)] = ""
	}
	for k, v := range r.ck.o.SecondHeader {
		if len(v) > 0 {
			second[http.CanonicalHeaderKey(k)] = v[0]
		}
	}
	methods := []string{"server/discover"}
	if r.declared("tools") {
		methods = append(methods, "tools/list")
	}
	if r.declared("prompts") {
		methods = append(methods, "prompts/list")
	}
	if r.declared("resources") {
		methods = append(methods, "resources/list", "resources/templates/list")
	}
	for _, m := range methods {
		step := m + " (first principal)"
		a := r.send(req{step: step, method: m, params: r.params("")})
		pa, ok := parseResponse(a.Response)
		if !ok || pa.Result == nil {
			continue // judged by the other rules
		}
		if scopeOf(pa.Result) != "public" {
			continue
		}
		step2 := m + " (second principal)"
		b := r.send(req{step: step2, method: m, params: r.params(""), header: second})
		pb, ok := parseResponse(b.Response)
		switch {
		case !ok || b.Response == nil:
			r.errorf(id, step2, b, "no answer for the second principal")
			continue
		case pb.Error != nil:
			r.errorf(id, step2, b, "the second principal got error %s %q (HTTP %d): give --second-principal-header a principal the server serves", string(pb.Error.Code), pb.Error.Message, b.Status)
			continue
		case scopeOf(pb.Result) != "public":
			r.pass(id) // private for the second principal: not shared
			continue
		}
		ca, cb := publicPart(pa.Result), publicPart(pb.Result)
		if bytes.Equal(ca, cb) {
			r.pass(id)
			continue
		}
		r.failf(id, step2, b, "a public %s result differs between the two principals: %s for the first, %s for the second", m, snipJSON(ca), snipJSON(cb))
	}
}

// scopeOf is a result's cacheScope, "" when it has none.
func scopeOf(result json.RawMessage) string {
	var v struct {
		CacheScope string `json:"cacheScope"`
	}
	_ = json.Unmarshal(result, &v)
	return v.CacheScope
}

// publicPart is a result without ttlMs and _meta (which may differ from
// one answer to the next), as canonical JSON (object members sorted).
func publicPart(result json.RawMessage) []byte {
	var m map[string]any
	if json.Unmarshal(result, &m) != nil {
		return result
	}
	delete(m, "ttlMs")
	delete(m, "_meta")
	b, err := json.Marshal(m)
	if err != nil {
		return result
	}
	return b
}

func snipJSON(b []byte) string {
	if len(b) > 160 {
		return fmt.Sprintf("%s... (%d bytes)", b[:160], len(b))
	}
	return string(b)
}
