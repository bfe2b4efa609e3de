package gen

import (
	"embed"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"strings"
	"sync"
)

// The runtime is ordinary Go in gen/rt, tested there, and copied into every
// generated package (which may import only the standard library) with its
// package clause changed.
//
//go:embed rt/*.go
var runtimeFS embed.FS

// runtimeSource is one runtime file, parsed once: its bytes and where the
// package name sits in them.
type runtimeSource struct {
	name    string // rt_<file>.go
	rpc     bool   // part of the JSON-RPC layer
	tools   bool   // part of the tool set
	src     []byte
	nameOff int // offset of the package name ("rt")
}

var runtimeSources = sync.OnceValues(func() ([]runtimeSource, error) {
	names, err := fs.Glob(runtimeFS, "rt/*.go")
	if err != nil {
		return nil, err
	}
	var out []runtimeSource
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := runtimeFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.PackageClauseOnly)
		if err != nil {
			return nil, fmt.Errorf("runtime %s: %w", name, err)
		}
		base := path.Base(name)
		out = append(out, runtimeSource{
			name:    "rt_" + base,
			rpc:     strings.HasPrefix(base, "rpc"),
			tools:   strings.HasPrefix(base, "tools"),
			src:     src,
			nameOff: fset.Position(f.Name.Pos()).Offset,
		})
	}
	return out, nil
})

// runtimeFiles returns the runtime sources for package pkg, named
// rt_<file>.go. The rpc*.go files (the JSON-RPC layer) come only with a
// dispatcher, the tools*.go files only with a tool set. The sources are
// gofmt's form (a test checks), and so are the copies: only the package
// name changes.
func runtimeFiles(pkg string, rpc, tools bool) (Files, error) {
	srcs, err := runtimeSources()
	if err != nil {
		return nil, err
	}
	out := Files{}
	for _, r := range srcs {
		if (r.rpc && !rpc) || (r.tools && !tools) {
			continue
		}
		var b []byte
		b = append(b, "// "+Header+"\n\n"...)
		b = append(b, r.src[:r.nameOff]...)
		b = append(b, pkg...)
		b = append(b, r.src[r.nameOff+len("rt"):]...)
		out[r.name] = b
	}
	return out, nil
}
