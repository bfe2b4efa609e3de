package interop

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/check"
	"github.com/mcpgen/mcpgen/interop/sdkservers"
)

// The example servers of the SDKs mcpgen check is run against, built
// from the module cache at the versions go.mod pins.
const (
	goSDKConformancePkg = "github.com/modelcontextprotocol/go-sdk/conformance/everything-server"
	goSDKEverythingPkg  = "github.com/modelcontextprotocol/go-sdk/examples/server/everything"
	mcpGoEverythingPkg  = "github.com/mark3labs/mcp-go/examples/everything"
	mcpGoConformancePkg = "github.com/mark3labs/mcp-go/examples/conformance"
)

var exampleBins sync.Map // package -> *exampleBin

type exampleBin struct {
	once sync.Once
	path string
	err  error
}

// exampleBinary builds pkg once, next to the binaries TestMain builds.
func exampleBinary(t *testing.T, pkg string) string {
	t.Helper()
	v, _ := exampleBins.LoadOrStore(pkg, &exampleBin{})
	b := v.(*exampleBin)
	b.once.Do(func() {
		b.path = filepath.Join(filepath.Dir(serverBin), strings.ReplaceAll(strings.TrimPrefix(pkg, "github.com/"), "/", "-"))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if out, err := exec.CommandContext(ctx, "go", "build", "-mod=readonly", "-o", b.path, pkg).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// freeAddr returns a loopback address nothing listens on (for a server
// that cannot report the port the system chose).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// startHTTP starts argv (with env) and waits until addr accepts
// connections; the process is killed when the test ends.
func startHTTP(t *testing.T, addr string, env []string, argv ...string) {
	t.Helper()
	var stderr logBuffer
	cmd := exec.CommandContext(testContext(t), argv[0], argv[1:]...)
	cmd.Env = append(cmd.Environ(), env...)
	cmd.Stderr = &stderr
	cmd.SysProcAttr = procAttr()
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	for deadline := time.Now().Add(20 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not listen on %s: %v\n%s", argv[0], addr, err, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func serveTest(t *testing.T, h http.Handler) string {
	t.Helper()
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return hs.URL
}

// checkTargets are the servers mcpgen check runs against, each with the
// rules it reports as not passing ("REVISION fail ID", "REVISION warn
// ID") in every revision the server serves (--revision all). Why each one fails is
// in FINDINGS.md ("mcpgen check against the SDKs' servers").
var checkTargets = []struct {
	name   string
	target func(t *testing.T) check.Target
	want   []string
}{
	{"go-sdk sdkserver stdio", func(t *testing.T) check.Target {
		return check.Target{Command: []string{sdkServerBin, "-sdk", "go-sdk"}}
	}, []string{
		"2024-11-05 warn parse-error-32700",
		"2025-03-26 warn parse-error-32700",
		"2025-06-18 warn logging-invalid-level-32602",
		"2025-06-18 warn parse-error-32700",
		"2025-06-18 warn resource-not-found-32002",
		"2025-11-25 warn logging-invalid-level-32602",
		"2025-11-25 warn parse-error-32700",
		"2025-11-25 warn resource-not-found-32002",
		"2026-07-28 fail meta-missing-version-32602",
		"2026-07-28 fail unsupported-version-32022",
		"2026-07-28 warn loglevel-invalid-32602",
		"2026-07-28 warn parse-error-32700",
	}},
	{"mcp-go sdkserver stdio", func(t *testing.T) check.Target {
		return check.Target{Command: []string{sdkServerBin, "-sdk", "mcp-go"}}
	}, []string{
		"2026-07-28 fail meta-missing-version-32602",
		"2026-07-28 fail unsupported-version-32022",
		"2026-07-28 warn loglevel-invalid-32602",
	}},
	{"go-sdk sdkserver http stateless", func(t *testing.T) check.Target {
		s := sdkservers.GoSDK()
		return check.Target{URL: serveTest(t, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: true}))}
	}, []string{
		"2024-11-05 fail unknown-method-32601",
		"2024-11-05 warn parse-error-32700",
		"2025-03-26 fail unknown-method-32601",
		"2025-03-26 warn parse-error-32700",
		"2025-06-18 fail origin-foreign-403",
		"2025-06-18 fail unknown-method-32601",
		"2025-06-18 warn logging-invalid-level-32602",
		"2025-06-18 warn parse-error-32700",
		"2025-06-18 warn resource-not-found-32002",
		"2025-11-25 fail origin-foreign-403",
		"2025-11-25 fail unknown-method-32601",
		"2025-11-25 warn logging-invalid-level-32602",
		"2025-11-25 warn parse-error-32700",
		"2025-11-25 warn resource-not-found-32002",
		"2025-11-25 warn sse-priming-event",
		"2026-07-28 fail header-base64-decoded",
		"2026-07-28 fail origin-foreign-403",
		"2026-07-28 fail unsupported-version-32022",
		"2026-07-28 warn loglevel-invalid-32602",
		"2026-07-28 warn parse-error-32700",
		"2026-07-28 warn sse-x-accel-buffering",
	}},
	{"go-sdk sdkserver http sessions", func(t *testing.T) check.Target {
		s := sdkservers.GoSDK()
		return check.Target{URL: serveTest(t, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))}
	}, []string{
		"2024-11-05 fail unknown-method-32601",
		"2024-11-05 warn parse-error-32700",
		"2025-03-26 fail unknown-method-32601",
		"2025-03-26 warn parse-error-32700",
		"2025-06-18 fail origin-foreign-403",
		"2025-06-18 fail unknown-method-32601",
		"2025-06-18 warn logging-invalid-level-32602",
		"2025-06-18 warn parse-error-32700",
		"2025-06-18 warn resource-not-found-32002",
		"2025-11-25 fail origin-foreign-403",
		"2025-11-25 fail unknown-method-32601",
		"2025-11-25 warn logging-invalid-level-32602",
		"2025-11-25 warn parse-error-32700",
		"2025-11-25 warn resource-not-found-32002",
		"2025-11-25 warn sse-priming-event",
		"2026-07-28 fail discover-lists-served-version",
		"2026-07-28 warn sse-x-accel-buffering",
	}},
	{"mcp-go sdkserver http stateless", func(t *testing.T) check.Target {
		return check.Target{URL: serveTest(t, mcpgoserver.NewStreamableHTTPServer(sdkservers.MCPGo(), mcpgoserver.WithStateLess(true)))}
	}, []string{
		"2025-06-18 fail origin-foreign-403",
		"2025-11-25 fail origin-foreign-403",
		"2026-07-28 fail origin-foreign-403",
		"2026-07-28 fail unsupported-version-32022",
		"2026-07-28 warn loglevel-invalid-32602",
		"2026-07-28 warn sse-x-accel-buffering",
	}},
	{"mcp-go sdkserver http sessions", func(t *testing.T) check.Target {
		return check.Target{URL: serveTest(t, mcpgoserver.NewStreamableHTTPServer(sdkservers.MCPGo()))}
	}, []string{
		"2025-06-18 fail origin-foreign-403",
		"2025-06-18 fail session-terminated-404",
		"2025-06-18 warn session-required-400",
		"2025-11-25 fail origin-foreign-403",
		"2025-11-25 fail session-terminated-404",
		"2025-11-25 warn session-required-400",
		"2026-07-28 fail origin-foreign-403",
		"2026-07-28 fail unsupported-version-32022",
		"2026-07-28 warn loglevel-invalid-32602",
		"2026-07-28 warn sse-x-accel-buffering",
	}},
	{"go-sdk conformance/everything-server stdio", func(t *testing.T) check.Target {
		return check.Target{Command: []string{exampleBinary(t, goSDKConformancePkg)}}
	}, []string{
		"2024-11-05 warn parse-error-32700",
		"2025-03-26 warn parse-error-32700",
		"2025-06-18 warn logging-invalid-level-32602",
		"2025-06-18 warn parse-error-32700",
		"2025-06-18 warn resource-not-found-32002",
		"2025-11-25 warn logging-invalid-level-32602",
		"2025-11-25 warn parse-error-32700",
		"2025-11-25 warn resource-not-found-32002",
		"2026-07-28 fail input-requests-declared",
		"2026-07-28 fail meta-missing-version-32602",
		"2026-07-28 fail unsupported-version-32022",
		"2026-07-28 warn loglevel-invalid-32602",
		"2026-07-28 warn parse-error-32700",
	}},
	{"go-sdk conformance/everything-server http", func(t *testing.T) check.Target {
		addr := freeAddr(t)
		startHTTP(t, addr, nil, exampleBinary(t, goSDKConformancePkg), "-http", addr)
		return check.Target{URL: "http://" + addr + "/"}
	}, []string{
		"2024-11-05 fail unknown-method-32601",
		"2024-11-05 warn parse-error-32700",
		"2025-03-26 fail unknown-method-32601",
		"2025-03-26 warn parse-error-32700",
		"2025-06-18 fail origin-foreign-403",
		"2025-06-18 fail unknown-method-32601",
		"2025-06-18 warn logging-invalid-level-32602",
		"2025-06-18 warn parse-error-32700",
		"2025-06-18 warn resource-not-found-32002",
		"2025-11-25 fail origin-foreign-403",
		"2025-11-25 fail unknown-method-32601",
		"2025-11-25 warn logging-invalid-level-32602",
		"2025-11-25 warn parse-error-32700",
		"2025-11-25 warn resource-not-found-32002",
		"2025-11-25 warn sse-priming-event",
		"2026-07-28 fail header-base64-decoded",
		"2026-07-28 fail input-requests-declared",
		"2026-07-28 fail origin-foreign-403",
		"2026-07-28 fail unsupported-version-32022",
		"2026-07-28 warn loglevel-invalid-32602",
		"2026-07-28 warn parse-error-32700",
		"2026-07-28 warn sse-x-accel-buffering",
	}},
	{"go-sdk examples/server/everything stdio", func(t *testing.T) check.Target {
		return check.Target{Command: []string{exampleBinary(t, goSDKEverythingPkg)}}
	}, []string{
		"2024-11-05 warn parse-error-32700",
		"2025-03-26 warn parse-error-32700",
		"2025-06-18 warn logging-invalid-level-32602",
		"2025-06-18 warn parse-error-32700",
		"2025-06-18 warn resource-not-found-32002",
		"2025-11-25 warn logging-invalid-level-32602",
		"2025-11-25 warn parse-error-32700",
		"2025-11-25 warn resource-not-found-32002",
		"2025-11-25 warn tool-names-format",
		"2026-07-28 fail meta-missing-version-32602",
		"2026-07-28 fail unsupported-version-32022",
		"2026-07-28 warn loglevel-invalid-32602",
		"2026-07-28 warn parse-error-32700",
		"2026-07-28 warn tool-names-format",
	}},
	{"go-sdk examples/server/everything http", func(t *testing.T) check.Target {
		addr := freeAddr(t)
		startHTTP(t, addr, nil, exampleBinary(t, goSDKEverythingPkg), "-http", addr)
		return check.Target{URL: "http://" + addr + "/"}
	}, []string{
		"2024-11-05 fail unknown-method-32601",
		"2024-11-05 warn parse-error-32700",
		"2025-03-26 fail unknown-method-32601",
		"2025-03-26 warn parse-error-32700",
		"2025-06-18 fail origin-foreign-403",
		"2025-06-18 fail unknown-method-32601",
		"2025-06-18 warn logging-invalid-level-32602",
		"2025-06-18 warn parse-error-32700",
		"2025-06-18 warn resource-not-found-32002",
		"2025-11-25 fail origin-foreign-403",
		"2025-11-25 fail unknown-method-32601",
		"2025-11-25 warn logging-invalid-level-32602",
		"2025-11-25 warn parse-error-32700",
		"2025-11-25 warn resource-not-found-32002",
		"2025-11-25 warn sse-priming-event",
		"2025-11-25 warn tool-names-format",
		"2026-07-28 fail discover-lists-served-version",
		"2026-07-28 warn sse-x-accel-buffering",
	}},
	{"mcp-go examples/everything stdio", func(t *testing.T) check.Target {
		return check.Target{Command: []string{exampleBinary(t, mcpGoEverythingPkg)}}
	}, []string{
		"2026-07-28 fail meta-missing-version-32602",
		"2026-07-28 fail unsupported-version-32022",
		"2026-07-28 warn loglevel-invalid-32602",
	}},
	{"mcp-go examples/conformance http", func(t *testing.T) check.Target {
		addr := freeAddr(t)
		startHTTP(t, addr, []string{"CONFORMANCE_ADDR=" + addr}, exampleBinary(t, mcpGoConformancePkg))
		return check.Target{URL: "http://" + addr + "/mcp"}
	}, []string{
		"2025-06-18 fail origin-foreign-403",
		"2025-06-18 fail session-terminated-404",
		"2025-06-18 warn session-required-400",
		"2025-11-25 fail origin-foreign-403",
		"2025-11-25 fail session-terminated-404",
		"2025-11-25 warn session-required-400",
		"2026-07-28 fail origin-foreign-403",
		"2026-07-28 fail unsupported-version-32022",
		"2026-07-28 warn loglevel-invalid-32602",
		"2026-07-28 warn sse-x-accel-buffering",
	}},
}

// TestCheckSDKServers runs mcpgen check against the servers of go-sdk
// v1.8.0 and mcp-go v1.2.1 and compares what it reports with what the
// servers are known to do; each report, written as --format sarif and
// junit, validates against the SARIF 2.1.0 schema and reads back through
// a JUnit report parser (checkReportFormats).
func TestCheckSDKServers(t *testing.T) {
	schema := sarifSchema(t)
	for _, c := range checkTargets {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			o := check.DefaultOptions()
			o.Limits.Timeout = 3 * time.Second
			o.Quiet = 300 * time.Millisecond
			o.Deadline = 2 * time.Minute
			o.Revision = "all"
			start := time.Now()
			rep, err := check.Run(testContext(t), c.target(t), o)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rep.Runs {
				for _, f := range r.Findings {
					got = append(got, r.Revision+" "+string(f.Status)+" "+f.Rule)
				}
			}
			sort.Strings(got)
			got = slices.Compact(got)
			want := slices.Clone(c.want)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				var b strings.Builder
				rep.WriteText(&b, false)
				t.Errorf("reported %q, want %q\n%s", got, want, b.String())
			}
			checkReportFormats(t, rep, schema)
			var revs []string
			for _, r := range rep.Runs {
				revs = append(revs, r.Revision)
			}
			t.Logf("%s in %s: %v; %s", revs, time.Since(start).Round(time.Millisecond), rep.Summary, rep.Client)
		})
	}
}
