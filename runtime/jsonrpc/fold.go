package jsonrpc

import (
	"reflect"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// A member of params that spells one of the members its type declares in
// another case ("Name" beside or instead of tools/call's "name", "_META"
// for "_meta") is refused: a peer that matches names case-insensitively,
// as encoding/json does, would read it as the declared member, and two
// parsers would read one message two ways (a gateway in front checking
// "name", the server running "Name"). Only the top level of params is the
// protocol's; what is inside a member (a tool's arguments) is not looked
// at, where "name" and "Name" may be two properties.

// foldInfo is what the check needs of a params type: the JSON names of
// its declared members and where its undeclared members are kept.
type foldInfo struct {
	names          []string
	minLen, maxLen int
	extra          int // index of the codec.Members field, or -1
}

var foldInfos sync.Map // reflect.Type -> *foldInfo

var membersType = reflect.TypeFor[codec.Members]()

// foldInfoOf returns the foldInfo of the struct type t.
func foldInfoOf(t reflect.Type) *foldInfo {
	if fi, ok := foldInfos.Load(t); ok {
		return fi.(*foldInfo)
	}
	fi := &foldInfo{extra: -1}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type == membersType && f.Tag.Get("json") == "-" {
			fi.extra = i
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		fi.names = append(fi.names, name)
		if fi.minLen == 0 || len(name) < fi.minLen {
			fi.minLen = len(name)
		}
		fi.maxLen = max(fi.maxLen, len(name))
	}
	foldInfos.Store(t, fi)
	return fi
}

// foldedParamsMember returns a member of the decoded params p that its
// type does not declare but that spells a declared one in another case,
// and that declared name; "", "" when there is none.
func foldedParamsMember(p Params) (string, string) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return "", ""
	}
	v = v.Elem()
	fi := foldInfoOf(v.Type())
	if fi.extra < 0 || len(fi.names) == 0 {
		return "", ""
	}
	extra := v.Field(fi.extra).Addr().Interface().(*codec.Members)
	for _, m := range *extra {
		// A name that folds to one of n bytes has n to 3n bytes (the
		// Kelvin sign, 3 bytes, folds to k).
		if len(m.Name) < fi.minLen || len(m.Name) > 3*fi.maxLen {
			continue
		}
		for _, name := range fi.names {
			if strings.EqualFold(m.Name, name) {
				return m.Name, name
			}
		}
	}
	return "", ""
}

// foldedParamsError is the invalid params error of a member of params
// that spells the declared member name in another case.
func foldedParamsError(member, name string) error {
	return &RPCError{Code: CodeInvalidParams, Message: "invalid params: member " + codec.Quote(member) + " differs from " + codec.Quote(name) + " only in case"}
}
