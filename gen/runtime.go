package gen

import (
	"bytes"
	"embed"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"strings"
)

// The runtime is ordinary Go in gen/rt, tested there, and copied into every
// generated package (which may import only the standard library) with its
// package clause changed.
//
//go:embed rt/*.go
var runtimeFS embed.FS

// runtimeFiles returns the runtime sources for package pkg, named
// rt_<file>.go. The rpc*.go files (the JSON-RPC layer) come only with a
// dispatcher.
func runtimeFiles(pkg string, rpc bool) (Files, error) {
	names, err := fs.Glob(runtimeFS, "rt/*.go")
	if err != nil {
		return nil, err
	}
	out := Files{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") || (!rpc && strings.HasPrefix(path.Base(name), "rpc")) {
			continue
		}
		src, err := runtimeFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("runtime %s: %w", name, err)
		}
		f.Name.Name = pkg
		var buf bytes.Buffer
		buf.WriteString("// " + Header + "\n\n")
		if err := format.Node(&buf, fset, f); err != nil {
			return nil, fmt.Errorf("runtime %s: %w", name, err)
		}
		b, err := format.Source(buf.Bytes())
		if err != nil {
			return nil, fmt.Errorf("runtime %s: %w", name, err)
		}
		out["rt_"+path.Base(name)] = b
	}
	return out, nil
}
