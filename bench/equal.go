package bench

import (
	"encoding/json"
	"math/big"
	"strconv"
)

type jsonNumber = json.Number

// JSONEqual reports whether two JSON documents hold the same value:
// object members in any order, numbers by exact decimal value. It is
// written here rather than taken from mcpgen so that the round-trip check
// does not trust the code it checks.
func JSONEqual(a, b []byte) (bool, error) {
	va, err := DecodeNumber(a)
	if err != nil {
		return false, err
	}
	vb, err := DecodeNumber(b)
	if err != nil {
		return false, err
	}
	return valueEqual(va, vb), nil
}

func valueEqual(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case jsonNumber:
		bn, ok := b.(jsonNumber)
		return ok && numberEqual(string(a), string(bn))
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !valueEqual(a[i], bs[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !valueEqual(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}

func numberEqual(a, b string) bool {
	ra, ok1 := new(big.Rat).SetString(a)
	rb, ok2 := new(big.Rat).SetString(b)
	if !ok1 || !ok2 {
		return a == b
	}
	return ra.Cmp(rb) == 0
}

// Leaves flattens a decoded document into JSON-pointer -> scalar (numbers
// as exact rationals in lowest terms), for measuring how much of a
// document an SDK type keeps.
func Leaves(v any) map[string]string {
	out := map[string]string{}
	leaves(v, "", out)
	return out
}

func leaves(v any, ptr string, out map[string]string) {
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			out[ptr] = "[]"
		}
		for i, it := range v {
			leaves(it, ptr+"/"+itoa(i), out)
		}
	case map[string]any:
		if len(v) == 0 {
			out[ptr] = "{}"
		}
		for k, it := range v {
			leaves(it, ptr+"/"+k, out)
		}
	case jsonNumber:
		if r, ok := new(big.Rat).SetString(string(v)); ok {
			out[ptr] = "n:" + r.RatString()
		} else {
			out[ptr] = "n:" + string(v)
		}
	case string:
		out[ptr] = "s:" + v
	case bool:
		if v {
			out[ptr] = "true"
		} else {
			out[ptr] = "false"
		}
	case nil:
		out[ptr] = "null"
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
