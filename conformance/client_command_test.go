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
	case "early":
		// Exits before reading anything.
		fmt.Fprintln(os.Stderr, "early server: no config file")
		os.Exit(4)
	case "early-closed":
		// Closes its input, then exits after the client has written.
		os.Stdin.Close()
		fmt.Fprintln(os.Stderr, "early server: closed its input")
		time.Sleep(200 * time.Millisecond)
		os.Exit(5)
	case "early-silent":
		// Reads the probe, then exits without answering or a word.
		buf := make([]byte, 4096)
		os.Stdin.Read(buf)
		os.Exit(6)
	case "early-orphan":
		// Leaves a process holding its standard output open, and exits
		// before reading: the client's write fails (broken pipe) while
		// its read does not end.
		child := serverCommand("sleeper")
		child.Stdout = os.Stdout
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		fmt.Fprintln(os.Stderr, "early server: left a child behind")
		os.Exit(7)
	case "sleeper":
		time.Sleep(3 * time.Second)
		os.Exit(0)
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

// TestClientCommandEarlyExit: a server that exits before it answers the
// first request (before the client writes, after it, having closed its
// input first, with or without a word on stderr) is reported with its
// exit status and the end of its stderr, once, whatever the write or the
// read that noticed it.
func TestClientCommandEarlyExit(t *testing.T) {
	for _, c := range []struct {
		kind, status, stderr string
	}{
		{"early", "exit status 4", "early server: no config file"},
		{"early-closed", "exit status 5", "early server: closed its input"},
		{"early-silent", "exit status 6", ""},
		{"early-orphan", "exit status 7", "early server: left a child behind"},
	} {
		for _, delay := range []time.Duration{0, 300 * time.Millisecond} {
			cmd := serverCommand(c.kind)
			if delay > 0 {
				// Let the server exit before the client's first write.
				tr := &delayedStart{cmd: cmd, delay: delay}
				_, err := mcp.Connect(context.Background(), tr, nil, mcp.ClientOptions{})
				checkEarlyExit(t, c.kind+" (exited first)", err, c.status, c.stderr)
				continue
			}
			_, err := mcp.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil, mcp.ClientOptions{})
			checkEarlyExit(t, c.kind, err, c.status, c.stderr)
		}
	}
}

func checkEarlyExit(t *testing.T, what string, err error, status, stderr string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: connected", what)
		return
	}
	msg := err.Error()
	if !strings.Contains(msg, status) || strings.Contains(msg, "broken pipe") || strings.Count(msg, "exited") != 1 {
		t.Errorf("%s: %v, want the exit status %q once and no write error", what, err, status)
	}
	if stderr != "" && strings.Count(msg, stderr) != 1 {
		t.Errorf("%s: %v, want the stderr %q once", what, err, stderr)
	}
}

// delayedStart is a CommandTransport whose Connect waits after starting
// the server, so that the server is gone before the first write.
type delayedStart struct {
	cmd   *exec.Cmd
	delay time.Duration
}

func (d *delayedStart) Connect(ctx context.Context) (mcp.Stream, error) {
	s, err := (&mcp.CommandTransport{Command: d.cmd}).Connect(ctx)
	if err == nil {
		time.Sleep(d.delay)
	}
	return s, err
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
