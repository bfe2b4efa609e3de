package protocol

import "fmt"

// OneOption returns the options given to a constructor of a generated
// package whose options parameter is variadic (Connect(ctx, t, h) or
// Connect(ctx, t, h, opts)): the zero T when none are given, the one given
// otherwise. More than one is an error that names fn, not a silent choice
// between them.
func OneOption[T any](fn string, opts []T) (T, error) {
	var o T
	switch len(opts) {
	case 0:
		return o, nil
	case 1:
		return opts[0], nil
	}
	return o, fmt.Errorf("mcp: %s: %d options values given, at most one", fn, len(opts))
}

// MustOneOption is OneOption for a constructor without an error result
// (NewHTTPHandler): more than one options value is a programming error, and
// it panics with OneOption's error, as AddTool does for a tool it cannot add.
func MustOneOption[T any](fn string, opts []T) T {
	o, err := OneOption(fn, opts)
	if err != nil {
		panic(err)
	}
	return o
}
