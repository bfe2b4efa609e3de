package check

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// client connects with mcpgen's generated client (the 2026-07-28
// package, which speaks every revision through its conversions) and
// reads the lists, to say whether mcpgen's own client accepts the server.
func (ck *checker) client() string {
	if context.Cause(ck.ctx) != nil {
		return ""
	}
	ck.progress("mcpgen's generated client")
	ctx, cancel := context.WithTimeout(ck.ctx, 6*ck.o.Limits.Timeout)
	defer cancel()
	var t mcp.Transport
	if ck.t.Kind == "http" {
		t = &mcp.HTTPTransport{URL: ck.t.URL, Header: ck.o.Header.Clone(), MaxReconnects: 1, MaxMessageBytes: int(ck.o.Limits.MaxBytes)}
	} else {
		cmd := exec.CommandContext(ctx, ck.t.Command[0], ck.t.Command[1:]...)
		cmd.WaitDelay = time.Second
		t = &mcp.CommandTransport{Command: cmd, CloseTimeout: 2 * time.Second}
	}
	c, err := mcp.Connect(ctx, t, nil, mcp.ClientOptions{
		ClientInfo:     mcp.Implementation{Name: "mcpgen-check", Version: ck.o.Version},
		NoCache:        true,
		ProbeTimeout:   ck.o.Limits.Timeout,
		RequestTimeout: ck.o.Limits.Timeout,
	})
	if err != nil {
		return "mcpgen's client could not connect: " + err.Error()
	}
	defer c.Close()
	caps := c.ServerCapabilities()
	var tools, prompts, resources int
	var failed []string
	if caps != nil && caps.Tools != nil {
		var cursor *string
		for range 10 {
			res, err := c.ListTools(ctx, &mcp.PaginatedRequestParams{Cursor: cursor})
			if err != nil {
				failed = append(failed, "tools/list: "+err.Error())
				break
			}
			tools += len(res.Tools)
			if cursor = res.NextCursor; cursor == nil {
				break
			}
		}
	}
	if caps != nil && caps.Prompts != nil {
		if res, err := c.ListPrompts(ctx, &mcp.PaginatedRequestParams{}); err != nil {
			failed = append(failed, "prompts/list: "+err.Error())
		} else {
			prompts = len(res.Prompts)
		}
	}
	if caps != nil && caps.Resources != nil {
		if res, err := c.ListResources(ctx, &mcp.PaginatedRequestParams{}); err != nil {
			failed = append(failed, "resources/list: "+err.Error())
		} else {
			resources = len(res.Resources)
		}
	}
	s := fmt.Sprintf("mcpgen's client connected at %s and listed %d tools, %d prompts (first page), %d resources (first page)", c.ProtocolVersion(), tools, prompts, resources)
	for _, f := range failed {
		s += "; " + f
	}
	return s
}
