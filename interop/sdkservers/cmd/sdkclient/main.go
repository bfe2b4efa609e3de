// Command sdkclient is a client built with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk v1.8.0) that starts a server
// process and talks to it over stdio at the protocol version -version: it
// prints the negotiated version and the tools the server lists, then calls
// the tool "add" with a=2 and b=3 and prints its text. internal/downstream
// runs it against the server a downstream module builds from
// docs/first-server.md, at 2025-06-18 and 2025-11-25.
//
//	sdkclient -version 2025-06-18 ./server [ARG...]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	version := flag.String("version", "", "the protocol version to ask for (empty: go-sdk's default)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: sdkclient [-version V] COMMAND [ARG...]")
		os.Exit(2)
	}
	if err := run(*version, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "sdkclient:", err)
		os.Exit(1)
	}
}

func run(version string, command []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Stderr = os.Stderr
	c := sdk.NewClient(&sdk.Implementation{Name: "sdkclient", Version: "1.8.0"}, nil)
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return err
	}
	defer cs.Close()
	fmt.Println("protocol version:", cs.InitializeResult().ProtocolVersion)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return err
	}
	var names []string
	for _, t := range tools.Tools {
		names = append(names, t.Name)
	}
	fmt.Println("tools:", strings.Join(names, " "))
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "add", Arguments: map[string]any{"a": 2, "b": 3}})
	if err != nil {
		return err
	}
	for _, c := range res.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			fmt.Println("add:", t.Text)
		}
	}
	return nil
}
