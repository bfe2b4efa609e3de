package check

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/check/wire"
)

const serverInfoKey = "io.modelcontextprotocol/serverInfo"

// checkResult judges a result: against its method's result definition
// in every revision, and by the rules of results, caching and _meta in
// 2026-07-28.
func (r *run) checkResult(q *req, x *wire.Exchange, res json.RawMessage) {
	mi, known := r.rev.requests[q.method]
	if !r.modern {
		if known && mi.newResult != nil {
			r.validateWith(q.step, x, res, "/result", mi.newResult(), nil)
		} else {
			r.validate(q.step, x, res, "/result", []string{"Result"}, nil)
		}
		return
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(res, &obj) != nil || obj == nil {
		r.validate(q.step, x, res, "/result", []string{"Result"}, nil)
		return
	}
	rtRaw, hasRT := obj["resultType"]
	var rt string
	_ = json.Unmarshal(rtRaw, &rt)
	if hasRT {
		r.pass("result-type-present")
	} else {
		r.failf("result-type-present", q.step, x, "a %s result without resultType", q.method)
		rt = "complete" // as clients read it
	}
	switch {
	case rt == "complete" || rt == "input_required":
		r.pass("result-type-known")
	case rt == "task" && q.method == "tools/call" && r.declaresExtension("io.modelcontextprotocol/tasks"):
		r.pass("result-type-known")
		return // a CreateTaskResult: the tasks extension's
	default:
		r.failf("result-type-known", q.step, x, "resultType %s", orNull(rtRaw))
	}
	claimed := func(v violation) bool {
		m := v.member()
		return m == "resultType" || (mi.cacheable && (m == "ttlMs" || m == "cacheScope"))
	}
	switch {
	case rt == "input_required" && (!known || !mi.inputRequired):
		r.failf("input-required-where-allowed", q.step, x, "%s answered with an input_required result", q.method)
	case rt == "input_required":
		r.pass("input-required-where-allowed")
		r.validate(q.step, x, res, "/result", []string{"InputRequiredResult"}, claimed)
		ir, hasIR := obj["inputRequests"]
		_, hasRS := obj["requestState"]
		if hasIR || hasRS {
			r.pass("input-required-shape")
		} else {
			r.failf("input-required-shape", q.step, x, "an input_required result with neither inputRequests nor requestState")
		}
		var reqs map[string]json.RawMessage
		if hasIR && json.Unmarshal(ir, &reqs) == nil && len(reqs) > 0 {
			r.failf("input-requests-declared", q.step, x, "inputRequests %s to a client that declared no capabilities", wire.Snip(ir, 120))
		} else {
			r.pass("input-requests-declared")
		}
		_, ttl := obj["ttlMs"]
		_, scope := obj["cacheScope"]
		if ttl || scope {
			r.failf("cache-none-on-input-required", q.step, x, "an input_required result with caching hints (ttlMs or cacheScope)")
		} else {
			r.pass("cache-none-on-input-required")
		}
	case known && mi.newResult != nil:
		r.validateWith(q.step, x, res, "/result", mi.newResult(), claimed)
		if mi.cacheable {
			r.cacheHints(q, x, obj)
		}
	default:
		r.validate(q.step, x, res, "/result", []string{"Result"}, claimed)
	}
	var meta map[string]json.RawMessage
	_ = json.Unmarshal(obj["_meta"], &meta)
	if _, ok := meta[serverInfoKey]; ok {
		r.pass("server-info-in-meta")
	} else {
		r.failf("server-info-in-meta", q.step, x, "a %s result without _meta[%q]", q.method, serverInfoKey)
	}
}

// cacheHints judges ttlMs and cacheScope of a complete cacheable result.
func (r *run) cacheHints(q *req, x *wire.Exchange, obj map[string]json.RawMessage) {
	var problems []string
	ttl, hasTTL := obj["ttlMs"]
	n, isInt := integer(ttl)
	switch {
	case !hasTTL:
		problems = append(problems, "no ttlMs")
	case !isInt:
		problems = append(problems, "ttlMs "+string(ttl)+" is not an integer")
	case n < 0:
		r.failf("cache-ttl-nonnegative", q.step, x, "ttlMs %s", ttl)
	default:
		r.pass("cache-ttl-nonnegative")
	}
	scopeRaw, hasScope := obj["cacheScope"]
	var scope string
	_ = json.Unmarshal(scopeRaw, &scope)
	switch {
	case !hasScope:
		problems = append(problems, "no cacheScope")
	case scope != "public" && scope != "private":
		problems = append(problems, "cacheScope "+string(scopeRaw)+" is not \"public\" or \"private\"")
	}
	if len(problems) > 0 {
		r.failf("cache-hints-present", q.step, x, "a complete %s result with %s", q.method, strings.Join(problems, " and "))
	} else {
		r.pass("cache-hints-present")
	}
}

// integer reads a JSON integer (1.0 is one too).
func integer(b json.RawMessage) (int64, bool) {
	s := strings.TrimSpace(string(b))
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// declared reports whether the server declares capability name.
func (r *run) declared(name string) bool {
	_, ok := r.caps[name]
	return ok
}

// capFlag reports whether capability name has flag set to true.
func (r *run) capFlag(name, flag string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(r.caps[name], &m) != nil {
		return false
	}
	return string(m[flag]) == "true"
}

func (r *run) declaresExtension(name string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(r.caps["extensions"], &m) != nil {
		return false
	}
	_, ok := m[name]
	return ok
}
