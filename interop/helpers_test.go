package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// serverPkg is the example server under test; go.mod lists it as a tool,
// so that it resolves through the replace directive to ../.
const serverPkg = "github.com/mcpgen/mcpgen/examples/discover-server"

// protocolVersion is the only version the example server supports.
const protocolVersion = "2026-07-28"

// Values the example server is configured with (examples/discover-server).
const (
	serverName         = "discover-server"
	serverVersion      = "1.0.0"
	serverInstructions = "Call the add tool to add two integers."
	discoverTTLMs      = 3600000 // DiscoverTTL: time.Hour
	toolsTTLMs         = 300000  // tools/list ttlMs: 5 minutes
	// addText is the text content of add's answer for 40 and 2: the JSON
	// of its structured result (AddStructuredTool).
	addText  = `{"sum":42}`
	sleepEnv = "DISCOVER_SERVER_SLEEP=1"
)

// testTimeout bounds every test; each one starts its own server process.
const testTimeout = 60 * time.Second

// serverBin is the path of the example server, built by TestMain.
var serverBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcpgen-interop-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "interop:", err)
		os.Exit(1)
	}
	serverBin = filepath.Join(dir, "discover-server")
	legacyBin = filepath.Join(dir, "legacyserver")
	sdkServerBin = filepath.Join(dir, "sdkserver")
	everythingBin = filepath.Join(dir, "everything-server")
	for _, b := range []struct{ bin, pkg string }{
		{serverBin, serverPkg}, {legacyBin, legacyPkg}, {sdkServerBin, sdkServerPkg}, {everythingBin, everythingPkg},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		out, err := exec.CommandContext(ctx, "go", "build", "-buildvcs=false", "-o", b.bin, b.pkg).CombinedOutput()
		cancel()
		if err != nil {
			fmt.Fprintf(os.Stderr, "interop: go build %s: %v\n%s", b.pkg, err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	stopEverythingHTTP()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testContext returns a context that ends with the test or after testTimeout.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// serverCommand returns the command that runs the server; the process is
// killed when ctx ends (at the latest when the test ends).
func serverCommand(ctx context.Context, stderr *logBuffer, env ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, serverBin)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = stderr
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// logBuffer collects a process's stderr; it is safe for concurrent use.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor waits until s has been written, or fails the test when ctx ends.
func (l *logBuffer) waitFor(t *testing.T, ctx context.Context, s string) {
	t.Helper()
	if err := poll(ctx, func() bool { return strings.Contains(l.String(), s) }); err != nil {
		t.Fatalf("server stderr never said %q (%v); stderr:\n%s", s, err, l.String())
	}
}

// poll calls cond every 10ms until it is true or ctx ends.
func poll(ctx context.Context, cond func() bool) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}

// message is one JSON-RPC message as it went over the wire.
type message struct {
	Line    string                     // the message's JSON text
	Members map[string]json.RawMessage // its top-level members
	ID      json.RawMessage            // nil when there is no "id" member
	Method  string
	Params  json.RawMessage
	Result  json.RawMessage
	Error   *rpcError
}

type rpcError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// parseMessage decodes a JSON-RPC message; it fails unless line is a
// JSON object.
func parseMessage(line []byte) (message, error) {
	m := message{Line: string(line)}
	if err := json.Unmarshal(line, &m.Members); err != nil {
		return m, err
	}
	if m.Members == nil {
		return m, fmt.Errorf("not a JSON object")
	}
	m.ID = m.Members["id"]
	m.Params = m.Members["params"]
	m.Result = m.Members["result"]
	if raw, ok := m.Members["method"]; ok {
		if err := json.Unmarshal(raw, &m.Method); err != nil {
			return m, fmt.Errorf("method: %v", err)
		}
	}
	if raw, ok := m.Members["error"]; ok {
		m.Error = new(rpcError)
		if err := json.Unmarshal(raw, m.Error); err != nil {
			return m, fmt.Errorf("error: %v", err)
		}
	}
	return m, nil
}

// hasID reports whether the message's id is the JSON value id.
func (m message) hasID(id string) bool {
	return m.ID != nil && jsonEqual(m.ID, []byte(id))
}

// jsonEqual reports whether a and b are the same JSON value (member order
// and whitespace aside); invalid JSON is equal to nothing.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// member returns the value at a path of object members in raw JSON, or nil.
func member(raw json.RawMessage, path ...string) json.RawMessage {
	for _, name := range path {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return nil
		}
		v, ok := obj[name]
		if !ok {
			return nil
		}
		raw = v
	}
	return raw
}

// checkJSON fails the test unless got is the JSON value want.
func checkJSON(t *testing.T, what string, got json.RawMessage, want string) {
	t.Helper()
	if !jsonEqual(got, []byte(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

// metaJSON is the _meta every 2026-07-28 request must carry
// (basic/index.mdx, "Per-request protocol fields").
func metaJSON(version string) string {
	return `{"io.modelcontextprotocol/protocolVersion":` + quote(version) +
		`,"io.modelcontextprotocol/clientInfo":{"name":"interop-raw","version":"0.0.1"}` +
		`,"io.modelcontextprotocol/clientCapabilities":{}}`
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
