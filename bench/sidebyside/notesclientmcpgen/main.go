// Command notesclientmcpgen is the mcpgen half of the everyday client
// side-by-side: it starts the server given on its command line, lists its
// tools, calls "add" with typed arguments and reads a resource, printing
// each answer. TestEverydaySideBySide compares it with the go-sdk half.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

type AddArgs struct {
	A int64 `json:"a"`
	B int64 `json:"b"`
}

func main() {
	ctx := context.Background()
	c, err := mcp.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(os.Args[1], os.Args[2:]...)}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	for t, err := range c.Tools(ctx) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(t.Name)
	}
	res, err := c.Call(ctx, "add", AddArgs{A: 40, B: 2})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text())
	r, err := c.Read(ctx, "notes://today")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Text())
}
