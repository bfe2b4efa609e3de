package testenv

import (
	"bytes"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// RuntimePackages are the packages of mcpgen's runtime, which generated
// code imports.
var RuntimePackages = []string{
	"github.com/mcpgen/mcpgen/runtime/codec",
	"github.com/mcpgen/mcpgen/runtime/protocol",
}

var exportFiles = sync.OnceValues(func() (map[string]string, error) {
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, RuntimePackages...)
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export: %v: %s", err, stderr.Bytes())
	}
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, file, ok := strings.Cut(line, "\t")
		if ok && file != "" {
			m[path] = file
		}
	}
	return m, nil
})

// Importer returns a types.Importer for type-checking generated code: it
// reads the export data of the standard library and of mcpgen's runtime
// packages from the build cache (built by `go list -export`, once per
// process). It is safe for concurrent use.
func Importer() (types.Importer, error) {
	files, err := exportFiles()
	if err != nil {
		return nil, err
	}
	lookup := func(path string) (io.ReadCloser, error) {
		f, ok := files[path]
		if !ok {
			return nil, fmt.Errorf("testenv: no export data for %q (only the runtime and what it imports)", path)
		}
		return os.Open(f)
	}
	return &lockedImporter{imp: importer.ForCompiler(token.NewFileSet(), "gc", lookup), fallback: importer.Default()}, nil
}

type lockedImporter struct {
	mu       sync.Mutex
	imp      types.Importer
	fallback types.Importer
}

func (l *lockedImporter) Import(path string) (*types.Package, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p, err := l.imp.Import(path)
	if err != nil {
		if p2, err2 := l.fallback.Import(path); err2 == nil {
			return p2, nil
		}
	}
	return p, err
}
