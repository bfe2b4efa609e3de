package mcpotel_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/otel/mcpotel"
	"go.opentelemetry.io/otel/trace"
)

// everythingBinary builds examples/everything-server with mcpotel's
// middleware added the way an application adds it: a copy of its sources
// in a module of its own, main.go's one NewServerDispatcher call given
// withTelemetry(opts) (testdata/everything_telemetry.go.txt), which
// writes the server's spans to $MCPOTEL_SPANS as they end. The server is
// otherwise the repository's own: a change to that line fails the test
// instead of silently testing something else.
var everything struct {
	once sync.Once
	bin  string
	err  error
	out  []byte
}

func everythingBinary(t *testing.T) string {
	t.Helper()
	everything.once.Do(func() {
		dir, err := os.MkdirTemp("", "mcpotel-everything-")
		if err != nil {
			everything.err = err
			return
		}
		everything.bin, everything.out, everything.err = buildEverything(dir)
	})
	if everything.err != nil {
		t.Fatalf("building everything-server with telemetry: %v\n%s", everything.err, everything.out)
	}
	return everything.bin
}

func buildEverything(dir string) (string, []byte, error) {
	otelDir, err := filepath.Abs("..")
	if err != nil {
		return "", nil, err
	}
	repo := filepath.Dir(otelDir)
	src := filepath.Join(repo, "examples", "everything-server")
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil || len(files) == 0 {
		return "", nil, fmt.Errorf("no Go files in %s (%v)", src, err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return "", nil, err
		}
		if filepath.Base(f) == "main.go" {
			const call = "mcp.NewServerDispatcher(s, opts)"
			if n := bytes.Count(b, []byte(call)); n != 1 {
				return "", nil, fmt.Errorf("examples/everything-server/main.go has %d calls %q, want 1: update TestEverythingServerTrace", n, call)
			}
			b = bytes.Replace(b, []byte(call), []byte("mcp.NewServerDispatcher(s, withTelemetry(opts))"), 1)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			return "", nil, err
		}
	}
	tel, err := os.ReadFile("testdata/everything_telemetry.go.txt")
	if err != nil {
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "zz_telemetry.go"), tel, 0o644); err != nil {
		return "", nil, err
	}
	// The module: this module's requirements (and go.sum), and the two
	// modules of the repository replaced by their directories.
	mod, err := os.ReadFile(filepath.Join(otelDir, "go.mod"))
	if err != nil {
		return "", nil, err
	}
	text := string(mod)
	text = strings.Replace(text, "module github.com/mcpgen/mcpgen/otel", "module everythingotel", 1)
	text = strings.Replace(text, "replace github.com/mcpgen/mcpgen => ../", "replace github.com/mcpgen/mcpgen => "+repo+"\n\nreplace github.com/mcpgen/mcpgen/otel => "+otelDir+"\n\nrequire github.com/mcpgen/mcpgen/otel v0.0.0-00010101000000-000000000000", 1)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(text), 0o644); err != nil {
		return "", nil, err
	}
	sum, err := os.ReadFile(filepath.Join(otelDir, "go.sum"))
	if err != nil {
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		return "", nil, err
	}
	bin := filepath.Join(dir, "everything-server")
	cmd := exec.Command("go", "build", "-buildvcs=false", "-mod=mod", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return bin, out, err
}

// exportedSpan is a line of the server's span file.
type exportedSpan struct {
	Name, Kind, Trace, Span, Parent, Status string
	ParentRemote                            bool
	Attributes                              map[string]string
}

func readSpans(t *testing.T, path string) []exportedSpan {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var spans []exportedSpan
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var s exportedSpan
		if err := json.Unmarshal(line, &s); err != nil {
			t.Fatalf("a line of the span file: %v: %s", err, line)
		}
		spans = append(spans, s)
	}
	return spans
}

// TestEverythingServerTrace: the generated client, instrumented in this
// process, calls examples/everything-server, instrumented in its own
// process, over stdio and over Streamable HTTP: the server's SERVER span
// of the tools/call is in the client's trace, the child of the client's
// CLIENT span, with the request id the client sent; a call the client
// makes without telemetry gives the server a span of a trace of its own.
func TestEverythingServerTrace(t *testing.T) {
	bin := everythingBinary(t)
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			spanFile := filepath.Join(t.TempDir(), "spans.jsonl")
			env := append(os.Environ(), "MCPOTEL_SPANS="+spanFile)
			var tr mcp.Transport
			if transport == "stdio" {
				cmd := exec.Command(bin)
				cmd.Env = env
				tr = &mcp.CommandTransport{Command: cmd}
			} else {
				tr = startEverythingHTTP(t, bin, env)
			}
			cli := newSide(t, mcpotel.Options{})
			c, err := mcp.Connect(ctx, tr, nil, mcp.ClientOptions{Middleware: []mcp.Middleware{cli.tel.Middleware()}})
			if err != nil {
				t.Fatal(err)
			}
			appCtx, app := cli.tp.Tracer("app").Start(ctx, "app")
			res, err := c.CallTool(appCtx, &mcp.CallToolRequestParams{Name: "test_simple_text", Arguments: json.RawMessage(`{}`)})
			if err != nil || res.GetIsError() {
				t.Fatalf("test_simple_text: %+v, %v", res, err)
			}
			app.End()
			if err := c.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			// And a client without telemetry.
			var plainTr mcp.Transport
			if transport == "stdio" {
				cmd := exec.Command(bin)
				cmd.Env = env
				plainTr = &mcp.CommandTransport{Command: cmd}
			} else {
				plainTr = &mcp.HTTPTransport{URL: tr.(*mcp.HTTPTransport).URL}
			}
			plain, err := mcp.Connect(ctx, plainTr, nil, mcp.ClientOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := plain.CallTool(ctx, &mcp.CallToolRequestParams{Name: "test_simple_text", Arguments: json.RawMessage(`{}`)}); err != nil {
				t.Fatal(err)
			}
			plain.Close()

			cs := cli.span(t, trace.SpanKindClient, "tools/call test_simple_text")
			id := attrMap(cs.Attributes())["jsonrpc.request.id"]
			var mine, others []exportedSpan
			for _, s := range readSpans(t, spanFile) {
				if s.Kind != "server" || s.Name != "tools/call test_simple_text" {
					continue
				}
				if s.Trace == cs.SpanContext().TraceID().String() {
					mine = append(mine, s)
				} else {
					others = append(others, s)
				}
			}
			if len(mine) != 1 || len(others) != 1 {
				t.Fatalf("the server's tools/call spans: %d in the client's trace, %d in others; want 1 and 1", len(mine), len(others))
			}
			s := mine[0]
			if s.Parent != cs.SpanContext().SpanID().String() || !s.ParentRemote || s.Attributes["jsonrpc.request.id"] != id || id == "" {
				t.Errorf("the server's span %+v: want the parent %s (remote) and the request id %s", s, cs.SpanContext().SpanID(), id)
			}
			wantTransport := map[string]string{"stdio": "pipe", "http": "tcp"}[transport]
			if s.Attributes["network.transport"] != wantTransport || s.Attributes["mcp.protocol.version"] != mcp.ProtocolVersion ||
				s.Attributes["gen_ai.tool.name"] != "test_simple_text" || s.Attributes["gen_ai.operation.name"] != "execute_tool" || s.Status != "Unset" {
				t.Errorf("the server's span attributes %v, status %s", s.Attributes, s.Status)
			}
			if o := others[0]; o.Parent != "0000000000000000" {
				t.Errorf("the span of the call without telemetry has the parent %s; the client sent no context", o.Parent)
			}
		})
	}
}

// startEverythingHTTP runs the server on 127.0.0.1 (a free port) until the
// test ends.
func startEverythingHTTP(t *testing.T, bin string, env []string) *mcp.HTTPTransport {
	t.Helper()
	cmd := exec.Command(bin, "-http", "127.0.0.1:0")
	cmd.Env = env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	addr := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`listening on (http://[^\s"]+/mcp)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case u := <-addr:
		return &mcp.HTTPTransport{URL: u}
	case <-time.After(20 * time.Second):
		t.Fatal("everything-server did not say where it listens")
	}
	return nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	if everything.bin != "" {
		os.RemoveAll(filepath.Dir(everything.bin))
	}
	os.Exit(code)
}
