package check

import (
	"errors"

	mcp20241105 "github.com/mcpgen/mcpgen/generated/mcp20241105"
	mcp20250326 "github.com/mcpgen/mcpgen/generated/mcp20250326"
	mcp20250618 "github.com/mcpgen/mcpgen/generated/mcp20250618"
	mcp20251125 "github.com/mcpgen/mcpgen/generated/mcp20251125"
	mcp20260728 "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The generated package of each revision, as the checker uses it: its
// validators (NewValue, UnmarshalAndValidate and the violations of its
// ValidationError) and its method table (Methods). Only exported API of
// the generated packages is used here.

// value is what a generated package's NewValue returns.
type value interface {
	UnmarshalJSON([]byte) error
	Validate() error
}

// violation is one schema violation (a generated package's Violation).
type violation struct{ pointer, keyword, message string }

// method is one entry of a package's Methods.
type method struct {
	cacheable, inputRequired bool
	newParams, newResult     func() value
}

// revision is one generated package, or a schema given to check
// (schemaRevision).
type revision struct {
	// name is the protocolVersion spoken on the wire; rules is the pinned
	// revision whose rules and exchanges apply (the same but for a schema
	// given with a protocolVersion of its own).
	name, rules string
	newValue    func(string) (value, bool)
	check       func([]byte, value) error
	// violations lists the violations of a ValidationError; false for
	// any other error (a SyntaxError).
	violations func(error) ([]violation, bool)
	requests   map[string]method // client to server
	notes      map[string]method // server to client notifications
}

func wrapFunc[V value](f func() V) func() value {
	if f == nil {
		return nil
	}
	return func() value { return f() }
}

func (r *revision) add(name string, notification, fromClient, cacheable, inputRequired bool, params, result func() value) {
	m := method{cacheable: cacheable, inputRequired: inputRequired, newParams: params, newResult: result}
	switch {
	case fromClient && !notification:
		r.requests[name] = m
	case !fromClient && notification:
		r.notes[name] = m
	}
}

func newRevision(name string) *revision {
	return &revision{name: name, rules: name, requests: map[string]method{}, notes: map[string]method{}}
}

// revisions are the packages by revision, newest first.
var revisions = []*revision{rev20260728(), rev20251125(), rev20250618(), rev20250326(), rev20241105()}

func revisionOf(name string) *revision {
	for _, r := range revisions {
		if r.name == name {
			return r
		}
	}
	return nil
}

func rev20260728() *revision {
	r := newRevision(mcp20260728.ProtocolVersion)
	r.newValue = func(d string) (value, bool) { return mcp20260728.NewValue(d) }
	r.check = func(b []byte, v value) error { return mcp20260728.UnmarshalAndValidate(b, v) }
	r.violations = func(err error) ([]violation, bool) {
		var ve *mcp20260728.ValidationError
		if !errors.As(err, &ve) {
			return nil, false
		}
		out := make([]violation, len(ve.Violations))
		for i, v := range ve.Violations {
			out[i] = violation{v.Pointer, v.Keyword, v.Message}
		}
		return out, true
	}
	for _, m := range mcp20260728.Methods {
		r.add(m.Name, m.Notification, m.FromClient, m.Cacheable, m.InputRequired, wrapFunc(m.NewParams), wrapFunc(m.NewResult))
	}
	return r
}

func rev20251125() *revision {
	r := newRevision(mcp20251125.ProtocolVersion)
	r.newValue = func(d string) (value, bool) { return mcp20251125.NewValue(d) }
	r.check = func(b []byte, v value) error { return mcp20251125.UnmarshalAndValidate(b, v) }
	r.violations = func(err error) ([]violation, bool) {
		var ve *mcp20251125.ValidationError
		if !errors.As(err, &ve) {
			return nil, false
		}
		out := make([]violation, len(ve.Violations))
		for i, v := range ve.Violations {
			out[i] = violation{v.Pointer, v.Keyword, v.Message}
		}
		return out, true
	}
	for _, m := range mcp20251125.Methods {
		r.add(m.Name, m.Notification, m.FromClient, m.Cacheable, m.InputRequired, wrapFunc(m.NewParams), wrapFunc(m.NewResult))
	}
	return r
}

func rev20250618() *revision {
	r := newRevision(mcp20250618.ProtocolVersion)
	r.newValue = func(d string) (value, bool) { return mcp20250618.NewValue(d) }
	r.check = func(b []byte, v value) error { return mcp20250618.UnmarshalAndValidate(b, v) }
	r.violations = func(err error) ([]violation, bool) {
		var ve *mcp20250618.ValidationError
		if !errors.As(err, &ve) {
			return nil, false
		}
		out := make([]violation, len(ve.Violations))
		for i, v := range ve.Violations {
			out[i] = violation{v.Pointer, v.Keyword, v.Message}
		}
		return out, true
	}
	for _, m := range mcp20250618.Methods {
		r.add(m.Name, m.Notification, m.FromClient, m.Cacheable, m.InputRequired, wrapFunc(m.NewParams), wrapFunc(m.NewResult))
	}
	return r
}

func rev20250326() *revision {
	r := newRevision(mcp20250326.ProtocolVersion)
	r.newValue = func(d string) (value, bool) { return mcp20250326.NewValue(d) }
	r.check = func(b []byte, v value) error { return mcp20250326.UnmarshalAndValidate(b, v) }
	r.violations = func(err error) ([]violation, bool) {
		var ve *mcp20250326.ValidationError
		if !errors.As(err, &ve) {
			return nil, false
		}
		out := make([]violation, len(ve.Violations))
		for i, v := range ve.Violations {
			out[i] = violation{v.Pointer, v.Keyword, v.Message}
		}
		return out, true
	}
	for _, m := range mcp20250326.Methods {
		r.add(m.Name, m.Notification, m.FromClient, m.Cacheable, m.InputRequired, wrapFunc(m.NewParams), wrapFunc(m.NewResult))
	}
	return r
}

func rev20241105() *revision {
	r := newRevision(mcp20241105.ProtocolVersion)
	r.newValue = func(d string) (value, bool) { return mcp20241105.NewValue(d) }
	r.check = func(b []byte, v value) error { return mcp20241105.UnmarshalAndValidate(b, v) }
	r.violations = func(err error) ([]violation, bool) {
		var ve *mcp20241105.ValidationError
		if !errors.As(err, &ve) {
			return nil, false
		}
		out := make([]violation, len(ve.Violations))
		for i, v := range ve.Violations {
			out[i] = violation{v.Pointer, v.Keyword, v.Message}
		}
		return out, true
	}
	for _, m := range mcp20241105.Methods {
		r.add(m.Name, m.Notification, m.FromClient, m.Cacheable, m.InputRequired, wrapFunc(m.NewParams), wrapFunc(m.NewResult))
	}
	return r
}
