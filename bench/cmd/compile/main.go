// Command compile measures what building mcpgen's servers costs someone
// with no build cache, against the same servers written with go-sdk
// v1.8.0, and prints a Markdown table (`make bench-compile` runs it in
// bench/; see bench/internal/compilecost for the method):
//
//   - the README's adder (one tool, stdio): bench/sidebyside/mcpgen against
//     bench/sidebyside/gosdk, with issue 21's targets (at most 2x go-sdk's
//     wall time and peak RSS, at most 100k lines of non-std Go);
//   - examples/everything-server against go-sdk's conformance
//     everything-server, without a target.
//
// Every target is built inside the bench module, whose go.mod requires
// go-sdk v1.8.0 and points mcpgen at the repository (replace => ../):
// go-sdk's conformance server is a main package of the go-sdk module, so
// `go build github.com/modelcontextprotocol/go-sdk/conformance/everything-server`
// builds it from the module cache, with the dependency versions the bench
// module selects (for the packages it uses, those go-sdk's own go.mod
// requires). Progress goes to standard error.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/mcpgen/mcpgen/bench/internal/compilecost"
)

func main() {
	runs := flag.Int("runs", 3, "builds per target (the table shows the best)")
	flag.Parse()
	pairs := []compilecost.Pair{
		{
			Name:   "adder (README: one tool, stdio)",
			MCPGen: compilecost.Target{Label: "mcpgen (bench/sidebyside/mcpgen)", Pkg: "./sidebyside/mcpgen"},
			GoSDK:  compilecost.Target{Label: "go-sdk v1.8.0 (bench/sidebyside/gosdk)", Pkg: "./sidebyside/gosdk"},
			Limits: &compilecost.Limits{Wall: 2, RSS: 2, Lines: 100000},
		},
		{
			Name:   "everything-server",
			MCPGen: compilecost.Target{Label: "mcpgen (examples/everything-server)", Pkg: "github.com/mcpgen/mcpgen/examples/everything-server"},
			GoSDK:  compilecost.Target{Label: "go-sdk v1.8.0 (conformance/everything-server)", Pkg: "github.com/modelcontextprotocol/go-sdk/conformance/everything-server"},
		},
	}
	rep, err := compilecost.Run(compilecost.Config{Runs: *runs, Log: os.Stderr}, pairs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "compile:", err)
		os.Exit(1)
	}
	compilecost.Write(os.Stdout, rep)
}
