package conformance

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// CommandTransport: the client starts the server as a process and talks
// to it over its standard streams (basic/transports/stdio.mdx). The server
// is this test binary, run again with MCPGEN_TEST_SERVER set.

func TestMain(m *testing.M) {
	switch os.Getenv("MCPGEN_TEST_SERVER") {
	case "":
		os.Exit(m.Run())
	case "tools":
		// The tool server over stdio, until its input ends.
		if err := newToolServer().Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "crash":
		// Answers the probe, then dies at the first call.
		fmt.Fprintln(os.Stderr, "crash server starting")
		buf := make([]byte, 4096)
		n, _ := os.Stdin.Read(buf)
		id := strings.SplitN(strings.SplitN(string(buf[:n]), `"id":`, 2)[1], ",", 2)[0]
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", id, discoverResult)
		os.Stdin.Read(buf)
		fmt.Fprintln(os.Stderr, "giving up: out of coffee")
		os.Exit(3)
	case "stubborn":
		// Serves, but ignores the end of its input and SIGTERM.
		go newToolServer().Serve(context.Background(), os.Stdin, os.Stdout)
		for {
			time.Sleep(time.Hour)
		}
	}
}

func serverCommand(kind string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MCPGEN_TEST_SERVER="+kind)
	return cmd
}

func TestClientCommand(t *testing.T) {
	before := runtime.NumGoroutine()
	c, err := mcp.Connect(context.Background(), &mcp.CommandTransport{Command: serverCommand("tools")}, nil, mcp.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkClient(t, c)
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v (the server exits when its input closes)", err)
	}
	waitGoroutines(t, before)
}

func TestClientCommandCrash(t *testing.T) {
	before := runtime.NumGoroutine()
	c, err := mcp.Connect(context.Background(), &mcp.CommandTransport{Command: serverCommand("crash")}, nil, mcp.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListTools(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "out of coffee") {
		t.Errorf("a crashed server: %v, want its exit status and the end of its stderr", err)
	}
	c.Close()
	waitGoroutines(t, before)
}

func TestClientCommandStubborn(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM")
	}
	before := runtime.NumGoroutine()
	tr := &mcp.CommandTransport{Command: serverCommand("stubborn"), CloseTimeout: 100 * time.Millisecond}
	c, err := mcp.Connect(context.Background(), tr, nil, mcp.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The stubborn server does not ignore SIGTERM (Go's default exits on
	// it), so Close ends at the second step.
	start := time.Now()
	err = c.Close()
	if err == nil || !strings.Contains(err.Error(), "SIGTERM") {
		t.Errorf("Close: %v, want the escalation reported", err)
	}
	if d := time.Since(start); d < 100*time.Millisecond || d > 5*time.Second {
		t.Errorf("Close took %v", d)
	}
	if tr.Command.ProcessState == nil {
		t.Error("the process was not waited for")
	}
	waitGoroutines(t, before)
	// A command that cannot start, and a command used twice.
	if _, err := mcp.Connect(context.Background(), &mcp.CommandTransport{Command: exec.Command("/nonexistent/server")}, nil, mcp.ClientOptions{}); err == nil {
		t.Error("a missing program connected")
	}
	if _, err := mcp.Connect(context.Background(), tr, nil, mcp.ClientOptions{}); err == nil || !strings.Contains(err.Error(), "started already") {
		t.Errorf("a command started twice: %v", err)
	}
}
