// Package templates holds the prose mcpgen puts in its output: the package
// documentation of each generated package and its README, and the report of
// `mcpgen diff` (diff.tmpl). The Go code itself is emitted with jennifer;
// these templates only fill in text.
package templates

import (
	"bytes"
	"embed"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

var all = template.Must(template.New("").ParseFS(files, "*.tmpl"))

// Render executes the named template with data.
func Render(name string, data any) ([]byte, error) {
	var buf bytes.Buffer
	if err := all.ExecuteTemplate(&buf, name, data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
