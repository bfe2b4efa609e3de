package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// The test binary, run with EVERYTHING_SERVER_ARGS set, is the command
// with those arguments: a process of its own, started with the
// environment a deployment gives it.
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv("EVERYTHING_SERVER_ARGS"); ok {
		os.Args = append(os.Args[:1], strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// receiver is an OTLP/HTTP receiver (protobuf, as the exporters send by
// default): what it was sent, decoded.
type receiver struct {
	mu      sync.Mutex
	spans   []receivedSpan
	metrics []string // metric names
	bad     []string // requests it could not read
}

type receivedSpan struct {
	name, kind, service string
	attrs               map[string]string
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body := io.Reader(r.Body)
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			rc.fail(w, r, err.Error())
			return
		}
		body = zr
	}
	b, err := io.ReadAll(io.LimitReader(body, 64<<20))
	if err != nil || r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-protobuf" {
		rc.fail(w, r, "not a protobuf POST")
		return
	}
	var resp proto.Message
	switch r.URL.Path {
	case "/v1/traces":
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			rc.fail(w, r, err.Error())
			return
		}
		rc.mu.Lock()
		for _, rs := range req.ResourceSpans {
			service := ""
			for _, kv := range rs.GetResource().GetAttributes() {
				if kv.Key == "service.name" {
					service = kv.GetValue().GetStringValue()
				}
			}
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					attrs := map[string]string{}
					for _, kv := range s.Attributes {
						attrs[kv.Key] = kv.GetValue().GetStringValue()
					}
					rc.spans = append(rc.spans, receivedSpan{s.Name, s.Kind.String(), service, attrs})
				}
			}
		}
		rc.mu.Unlock()
		resp = &coltracepb.ExportTraceServiceResponse{}
	case "/v1/metrics":
		var req colmetricpb.ExportMetricsServiceRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			rc.fail(w, r, err.Error())
			return
		}
		rc.mu.Lock()
		for _, rm := range req.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				for _, m := range sm.Metrics {
					rc.metrics = append(rc.metrics, m.Name)
				}
			}
		}
		rc.mu.Unlock()
		resp = &colmetricpb.ExportMetricsServiceResponse{}
	default:
		rc.fail(w, r, "unknown path")
		return
	}
	out, _ := proto.Marshal(resp)
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

func (rc *receiver) fail(w http.ResponseWriter, r *http.Request, why string) {
	rc.mu.Lock()
	rc.bad = append(rc.bad, r.Method+" "+r.URL.Path+": "+why)
	rc.mu.Unlock()
	http.Error(w, why, http.StatusBadRequest)
}

// span returns the span named name of the kind, if it was received.
func (rc *receiver) span(name, kind string) (receivedSpan, bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, s := range rc.spans {
		if s.name == name && s.kind == kind {
			return s, true
		}
	}
	return receivedSpan{}, false
}

func (rc *receiver) metric(name string) bool {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Contains(rc.metrics, name)
}

// startServer starts the command with -http 127.0.0.1:0 and env, and
// returns its URL and the process.
func startServer(t *testing.T, env ...string) (string, *exec.Cmd, <-chan error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), append(env, "EVERYTHING_SERVER_ARGS=-http 127.0.0.1:0")...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	urls := make(chan string, 1)
	var logMu sync.Mutex
	var log strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if _, u, ok := strings.Cut(sc.Text(), "listening on "); ok {
				urls <- u
			}
		}
		done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		if t.Failed() {
			logMu.Lock()
			t.Logf("server log:\n%s", log.String())
			logMu.Unlock()
		}
	})
	select {
	case u := <-urls:
		return u, cmd, done
	case err := <-done:
		t.Fatalf("the server exited: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("the server does not listen within 20s")
	}
	return "", nil, nil
}

// call makes one tools/call of the server at url over Streamable HTTP.
func call(t *testing.T, ctx context.Context, url, tool string) {
	t.Helper()
	c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: url}, nil, mcp.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: tool, Arguments: json.RawMessage(`{}`)}); err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
}

// stop sends SIGTERM and waits for a clean exit.
func stop(t *testing.T, cmd *exec.Cmd, done <-chan error) {
	t.Helper()
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the server's exit after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server does not exit within 20s of SIGTERM")
	}
}

// TestOTLP: the command, started with OTEL_EXPORTER_OTLP_ENDPOINT naming
// an OTLP/HTTP receiver on 127.0.0.1 (this test's), serves tool calls
// over Streamable HTTP and exports the server's span of each
// (SERVER, "tools/call NAME", service.name everything-server, mcpotel's
// attributes) and the metric mcp.server.operation.duration: while it runs
// (export intervals of 100 and 200 ms), and, with intervals of a minute,
// when it exits on SIGTERM (what it recorded is flushed).
func TestOTLP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const metric = "mcp.server.operation.duration"

	t.Run("running", func(t *testing.T) {
		rc := &receiver{}
		collector := httptest.NewServer(rc)
		defer collector.Close()
		url, cmd, done := startServer(t,
			"OTEL_EXPORTER_OTLP_ENDPOINT="+collector.URL,
			"OTEL_BSP_SCHEDULE_DELAY=100",
			"OTEL_METRIC_EXPORT_INTERVAL=200",
		)
		call(t, ctx, url, "test_simple_text")
		start := time.Now()
		for {
			_, spanOK := rc.span("tools/call test_simple_text", "SPAN_KIND_SERVER")
			if spanOK && rc.metric(metric) {
				break
			}
			if time.Since(start) > 15*time.Second {
				rc.mu.Lock()
				t.Fatalf("within 15s the receiver got spans %v, metrics %v (unreadable requests: %v)", rc.spans, rc.metrics, rc.bad)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("span and metric received %v after the call", time.Since(start).Round(time.Millisecond))
		s, _ := rc.span("tools/call test_simple_text", "SPAN_KIND_SERVER")
		if s.service != "everything-server" {
			t.Errorf("service.name %q, want everything-server", s.service)
		}
		for k, want := range map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "test_simple_text", "network.transport": "tcp"} {
			if s.attrs[k] != want {
				t.Errorf("the span's %s is %q, want %q (attributes %v)", k, s.attrs[k], want, s.attrs)
			}
		}
		stop(t, cmd, done)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if len(rc.bad) > 0 {
			t.Errorf("requests the receiver could not read: %v", rc.bad)
		}
	})

	t.Run("exit", func(t *testing.T) {
		rc := &receiver{}
		collector := httptest.NewServer(rc)
		defer collector.Close()
		url, cmd, done := startServer(t,
			"OTEL_EXPORTER_OTLP_ENDPOINT="+collector.URL,
			"OTEL_SERVICE_NAME=mcp-replica",
			"OTEL_BSP_SCHEDULE_DELAY=60000",
			"OTEL_METRIC_EXPORT_INTERVAL=60000",
		)
		call(t, ctx, url, "test_error_handling")
		if _, ok := rc.span("tools/call test_error_handling", "SPAN_KIND_SERVER"); ok {
			t.Fatal("the span was exported before the interval: the test tests nothing")
		}
		stop(t, cmd, done)
		s, ok := rc.span("tools/call test_error_handling", "SPAN_KIND_SERVER")
		if !ok || !rc.metric(metric) {
			rc.mu.Lock()
			t.Fatalf("at exit the receiver got spans %v, metrics %v (unreadable requests: %v)", rc.spans, rc.metrics, rc.bad)
		}
		if s.service != "mcp-replica" {
			t.Errorf("service.name %q, want OTEL_SERVICE_NAME's mcp-replica", s.service)
		}
		if s.attrs["error.type"] != "tool_error" {
			t.Errorf("the tool error's span has error.type %q, want tool_error", s.attrs["error.type"])
		}
	})
}

// TestLinks: this directory links every file of examples/everything-server
// but its tests, so that this command is that server. A file added there
// needs a link here:
//
//	ln -s ../../../examples/everything-server/F.go otel/cmd/everything-server/F.go
func TestLinks(t *testing.T) {
	const src = "../../../examples/everything-server"
	all, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range all {
		if b := filepath.Base(f); !strings.HasSuffix(b, "_test.go") {
			want = append(want, b)
		}
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var links []string
	for _, e := range entries {
		if e.Type()&os.ModeSymlink == 0 {
			continue
		}
		target, err := os.Readlink(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if target != filepath.Join(src, e.Name()) {
			t.Errorf("%s links to %s, want %s", e.Name(), target, filepath.Join(src, e.Name()))
		}
		links = append(links, e.Name())
	}
	slices.Sort(want)
	slices.Sort(links)
	if !slices.Equal(want, links) {
		t.Errorf("links %v, want one for each of %v", links, want)
	}
}
