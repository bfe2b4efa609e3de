package emit

import (
	"cmp"
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
	// Typed says what calls.go has (typedDoc), or "".
	Typed string
}

// typedDoc is the package comment's sentences on the typed calls.
func typedDoc(t *ir.TypedCalls) string {
	if t == nil {
		return ""
	}
	var parts []string
	if len(t.Lists) > 0 {
		var iters []string
		for _, l := range t.Lists {
			iters = append(iters, "Client."+l.Iter)
		}
		parts = append(parts, strings.Join(iters, ", ")+" range over the pages of the server's lists")
	}
	if t.Call != "" {
		s := "Client." + t.Call + " calls a tool with a Go value for its arguments"
		if t.CallAs != "" {
			s += ", and " + t.CallAs + " decodes its structured output into a Go value after checking it against the tool's outputSchema"
		}
		parts = append(parts, s)
	}
	if t.Read != "" {
		parts = append(parts, "Client."+t.Read+" reads a resource by its URI")
	}
	if len(t.Asks) > 0 {
		var fs []string
		for _, a := range t.Asks {
			fs = append(fs, a.Func)
		}
		parts = append(parts, "a handler asks its client with "+strings.Join(fs, ", ")+" (typed requests)")
	}
	if t.Asker != "" {
		parts = append(parts, "a handler asks its client for input with an "+t.Asker+" ("+t.AskFunc+"), which writes multi round-trip requests as calls")
	}
	if len(t.Notifies) > 0 {
		parts = append(parts, "the Send functions send the server's notifications from a handler, with typed params")
	}
	if len(parts) == 0 {
		return ""
	}
	s := parts[0]
	for i, p := range parts[1:] {
		if i == len(parts)-2 {
			s += "; and " + p
		} else {
			s += "; " + p
		}
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
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
	if pkg.Protocol != nil {
		d.Typed = typedDoc(pkg.Protocol.Typed)
	}
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
	if v := e.pkg.ProtocolVersion; v != "" && v != e.pkg.Revision {
		f.Comment(e.pkg.Own("ProtocolVersion") + " is the protocolVersion this package announces and accepts: the schema's, revision " + e.pkg.Revision + ", given with --protocol-version.")
	} else if e.pkg.MCP {
		f.Comment("ProtocolVersion is the MCP revision this package implements.")
	} else {
		f.Comment("ProtocolVersion is the revision of the schema this package implements.")
	}
	f.Const().Add(e.own("ProtocolVersion")).Op("=").Lit(cmp.Or(e.pkg.ProtocolVersion, e.pkg.Revision))
	return f, nil
}

func renderReadme(pkg *ir.Package) ([]byte, error) {
	return templates.Render("readme", newDocData(pkg))
}
