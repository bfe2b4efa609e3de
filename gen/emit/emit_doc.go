package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/templates"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// docData is what the prose templates see.
type docData struct {
	Package, Revision, URL, SHA256, Command string
	Pinned, Validators, Dispatcher, MCP     bool
	Tasks                                   bool   // the server side of the tasks extension
	Client                                  bool   // the typed client (client.go)
	NoDispatcher                            string // why there is no dispatcher
	// Older are the older revisions the package converts to and from,
	// newest first; OlderList says them, OlderExample is the first's
	// variable.
	Older                   []string
	OlderList, OlderExample string
}

func newDocData(pkg *ir.Package) docData {
	cmd := pkg.Command
	switch {
	case cmd != "":
	case pkg.Source.Pinned:
		cmd = fmt.Sprintf("mcpgen generate --revision %s --out DIR --package %s", pkg.Revision, pkg.Name)
	default:
		cmd = fmt.Sprintf("mcpgen generate --revision %s --schema %s --out DIR --package %s", pkg.Revision, pkg.Source.URL, pkg.Name)
	}
	d := docData{Package: pkg.Name, Revision: pkg.Revision, URL: pkg.Source.URL, SHA256: pkg.Source.SHA256,
		Command: cmd, Pinned: pkg.Source.Pinned, Validators: pkg.Validators, Dispatcher: pkg.Protocol != nil, MCP: pkg.MCP, NoDispatcher: pkg.NoDispatcher,
		Tasks: pkg.Protocol != nil && pkg.Protocol.Tasks != nil, Client: pkg.Protocol != nil && pkg.Protocol.Client != nil}
	for _, o := range pkg.Older {
		d.Older = append(d.Older, o.Revision)
	}
	if len(pkg.Older) > 0 {
		d.OlderList = strings.Join(d.Older, ", ")
		d.OlderExample = pkg.Older[0].Var
		if pkg.Command == "" {
			d.Command += " --serve-older " + strings.Join(d.Older, ",")
		}
	}
	return d
}

// docFile is doc.go: the package comment and ProtocolVersion.
func (e *emitter) docFile() (*jen.File, error) {
	text, err := templates.Render("doc", newDocData(e.pkg))
	if err != nil {
		return nil, err
	}
	f := newFile(e.pkg.Name)
	f.PackageComment(strings.TrimRight(commentText(string(text)), "\n"))
	if e.pkg.MCP {
		f.Comment("ProtocolVersion is the MCP revision this package implements.")
	} else {
		f.Comment("ProtocolVersion is the revision of the schema this package implements.")
	}
	f.Const().Id("ProtocolVersion").Op("=").Lit(e.pkg.Revision)
	return f, nil
}

func renderReadme(pkg *ir.Package) ([]byte, error) {
	return templates.Render("readme", newDocData(pkg))
}
