package gen

import (
	"embed"
	"fmt"
	"go/ast"
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
	tasks   bool   // the exported API of the tasks extension
	tools   bool   // part of the tool set
	convert bool   // the conversions to older revisions
	src     []byte
	nameOff int      // offset of the package name ("rt")
	names   []string // its package-level declarations
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
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("runtime %s: %w", name, err)
		}
		base := path.Base(name)
		out = append(out, runtimeSource{
			name:    "rt_" + base,
			rpc:     strings.HasPrefix(base, "rpc"),
			tasks:   strings.HasPrefix(base, "tasks"),
			tools:   strings.HasPrefix(base, "tools"),
			convert: strings.HasPrefix(base, "convert"),
			src:     src,
			nameOff: fset.Position(f.Name.Pos()).Offset,
			names:   declNames(f),
		})
	}
	return out, nil
})

// runtimeFiles returns the runtime sources for package pkg, named
// rt_<file>.go. The rpc*.go files (the JSON-RPC layer) come only with a
// dispatcher, the tasks*.go files (the tasks extension's exported API)
// only with a server dispatcher that serves the extension, the tools*.go
// files only with a tool set, the convert*.go files only with conversions
// to older revisions. The sources are gofmt's form (a test checks),
// and so are the copies: only the package name changes.
func runtimeFiles(pkg string, rpc, tasks, tools, convert bool) (Files, error) {
	srcs, err := runtimeSources()
	if err != nil {
		return nil, err
	}
	out := Files{}
	for _, r := range srcs {
		if r.rpc && !rpc || r.tasks && !tasks || r.tools && !tools || r.convert && !convert {
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

// runtimeNames lists the package-level names the runtime declares (types,
// functions, variables, constants; exported or not), with the JSON-RPC
// layer's when rpc is set, the tasks extension's when tasks is set, the
// tool set's when tools is set and the conversions' when convert is set.
func runtimeNames(rpc, tasks, tools, convert bool) ([]string, error) {
	srcs, err := runtimeSources()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, r := range srcs {
		if r.rpc && !rpc || r.tasks && !tasks || r.tools && !tools || r.convert && !convert {
			continue
		}
		names = append(names, r.names...)
	}
	return names, nil
}

// declNames lists the package-level names a file declares.
func declNames(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name != "_" {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	return names
}
