package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
	"github.com/mcpgen/mcpgen/internal/proxy"
)

// The npm packages of interop/ts these tests run (pinned by its
// package-lock.json; make interop-deps installs them).
const (
	inspectorCLI     = "ts/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
	serverEverything = "ts/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
)

// needNPM skips (or, with MCPGEN_INTEROP_TS, fails) a test whose npm
// packages are not installed, and returns the absolute paths of the Node
// binary and of files.
func needNPM(t *testing.T, files ...string) (string, []string) {
	t.Helper()
	var abs []string
	for _, f := range append([]string{nodeBin}, files...) {
		if _, err := os.Stat(f); err != nil {
			if os.Getenv("MCPGEN_INTEROP_TS") != "" {
				t.Fatalf("%s is not installed (%v): run npm ci in interop/ts", f, err)
			}
			t.Skipf("%s is not installed (%v): make interop installs it (npm ci in interop/ts)", f, err)
		}
		a, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		abs = append(abs, a)
	}
	return abs[0], abs[1:]
}

// wire counts the JSON-RPC messages that crossed one hop, each way: "in"
// is what the side the proxy serves or calls sent to it, "out" what it
// got back. It is safe for concurrent use.
type wire struct {
	mu sync.Mutex
	// requests, notifications, results and errors by direction.
	in, out struct{ requests, notifications, results, errors int }
	// methods are the methods of the requests and notifications sent in.
	methods []string
	// initAsked and initAnswered are the protocolVersion of the
	// initialize requests and of their results; headers the
	// MCP-Protocol-Version headers of the HTTP requests after them.
	initAsked, initAnswered, headers []string
}

type tally = struct{ requests, notifications, results, errors int }

// count classifies the messages of one JSON text (a message or a batch).
func (w *wire) count(t *tally, in bool, text []byte) {
	text = bytes.TrimSpace(text)
	if len(text) == 0 {
		return
	}
	var batch []json.RawMessage
	if text[0] == '[' {
		if json.Unmarshal(text, &batch) != nil {
			return
		}
	} else {
		batch = []json.RawMessage{text}
	}
	for _, raw := range batch {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
			Result *struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		switch {
		case m.Method != "" && m.ID != nil:
			t.requests++
		case m.Method != "":
			t.notifications++
		case m.Result != nil:
			t.results++
		case m.Error != nil:
			t.errors++
		}
		if m.Method != "" && in {
			w.methods = append(w.methods, m.Method)
		}
		if m.Method == "initialize" {
			w.initAsked = append(w.initAsked, m.Params.ProtocolVersion)
		}
		if !in && m.Result != nil && m.Result.ProtocolVersion != "" {
			w.initAnswered = append(w.initAnswered, m.Result.ProtocolVersion)
		}
	}
}

// countStream counts the messages of a response body: JSON, or the data
// of each event of an SSE stream.
func (w *wire) countStream(t *tally, in bool, contentType string, body []byte) {
	if !strings.HasPrefix(contentType, "text/event-stream") {
		w.count(t, in, body)
		return
	}
	var data bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if d, ok := strings.CutPrefix(line, "data:"); ok {
			data.WriteString(strings.TrimPrefix(d, " "))
			data.WriteByte('\n')
		} else if line == "" {
			w.count(t, in, data.Bytes())
			data.Reset()
		}
	}
	w.count(t, in, data.Bytes())
}

// teeWriter keeps what a handler writes, and flushes as it asks.
type teeWriter struct {
	http.ResponseWriter
	buf bytes.Buffer
}

func (tw *teeWriter) Write(p []byte) (int, error) {
	tw.buf.Write(p)
	return tw.ResponseWriter.Write(p)
}

func (tw *teeWriter) Flush() { http.NewResponseController(tw.ResponseWriter).Flush() }

func (tw *teeWriter) Unwrap() http.ResponseWriter { return tw.ResponseWriter }

// handler counts the messages of every HTTP exchange h serves; a stream
// is counted when its handler returns.
func (w *wire) handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(rw, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		tw := &teeWriter{ResponseWriter: rw}
		h.ServeHTTP(tw, r)
		w.mu.Lock()
		defer w.mu.Unlock()
		w.count(&w.in, true, body)
		if v := r.Header.Get("MCP-Protocol-Version"); v != "" {
			w.headers = append(w.headers, v)
		}
		w.countStream(&w.out, false, tw.Header().Get("Content-Type"), tw.buf.Bytes())
	})
}

// snapshot returns the counts.
func (w *wire) snapshot() (in, out tally, methods, asked, answered, headers []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.in, w.out, slices.Clone(w.methods), slices.Clone(w.initAsked), slices.Clone(w.initAnswered), slices.Clone(w.headers)
}

// inspectorUpstream serves, over HTTP on 127.0.0.1 and through w, a
// server of 2026-07-28 only with two tools: a 2025 client cannot talk to
// it directly.
func inspectorUpstream(t *testing.T, w *wire) *httptest.Server {
	t.Helper()
	s := &mcp.Server{}
	mcp.AddTool(s, mcp.Tool{Name: "test_simple_text"}, func(ctx context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		return mcp.TextResult("This is a simple text response for testing."), nil
	})
	desc := "Echoes its message"
	mcp.AddTool(s, mcp.Tool{Name: "echo", Description: &desc}, func(ctx context.Context, p *mcp.CallToolRequestParams, in struct {
		Message string `json:"message" jsonschema:"what to echo"`
	}) (*mcp.CallToolResult, error) {
		return mcp.TextResult("Echo: " + in.Message), nil
	})
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "modern-only", Version: "1"}, OnlyThisRevision: true})
	return httptest.NewServer(w.handler(mcp.NewHTTPHandler(d, mcp.HTTPOptions{})))
}

// inspector runs the Inspector's CLI mode once against url and returns
// what it printed (--format json: {"result": ...}).
func inspector(t *testing.T, node, cli, url string, args ...string) json.RawMessage {
	t.Helper()
	var stdout bytes.Buffer
	stderr := new(logBuffer)
	argv := append([]string{cli, "--cli", url, "--transport", "http", "--format", "json"}, args...)
	cmd := exec.CommandContext(testContext(t), node, argv...)
	// The Inspector keeps a catalog and secrets under $HOME/.mcp-inspector.
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "MCP_CATALOG_PATH=", "NO_COLOR=1")
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	cmd.SysProcAttr = procAttr()
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		t.Fatalf("inspector %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	var out struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || out.Result == nil {
		t.Fatalf("inspector %s printed %q (%v)\nstderr: %s", strings.Join(args, " "), stdout.String(), err, stderr.String())
	}
	return out.Result
}

// TestProxyInspectorToModernOnly: the MCP Inspector's CLI
// (@modelcontextprotocol/inspector 2.12.0, --cli) lists and calls the
// tools of a 2026-07-28-only server through mcpgen's proxy (HTTP both
// sides), at 2025-11-25 and at 2025-06-18.
//
// The Inspector cannot be told a protocol version: its CLI's only
// version setting is --protocol-era (legacy, the default: the
// initialize handshake; auto and modern: 2026-07-28's server/discover),
// and in the legacy era its SDK client (@modelcontextprotocol/client
// 2.3.1) always asks initialize for 2025-11-25 and goes on at whatever
// version of its own list the server answers. So the version is the
// proxy's answer: each client's own (2025-11-25), or with
// --initialize-version 2025-06-18 (Options.InitializeVersions)
// 2025-06-18. The test records what crossed each hop and checks the
// version asked, the version answered and the MCP-Protocol-Version
// header of every request after the handshake.
//
// Every message crossing the proxy is validated: the tap checked each
// message the Inspector sent, each result that went back to it and each
// result the upstream sent, and its summary reports no violation.
func TestProxyInspectorToModernOnly(t *testing.T) {
	node, files := needNPM(t, inspectorCLI)
	for _, version := range []string{"2025-11-25", "2025-06-18"} {
		t.Run(version, func(t *testing.T) {
			var down, up wire
			us := inspectorUpstream(t, &up)
			defer us.Close()
			opts := proxy.Options{Upstream: &mcp.HTTPTransport{URL: us.URL}, Cache: proxy.NewMemoryStore(0)}
			if version != "2025-11-25" {
				opts.InitializeVersions = []string{version}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			p, err := proxy.New(ctx, opts)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			ps := httptest.NewServer(down.handler(mcp.NewHTTPHandler(p.Dispatcher(), mcp.HTTPOptions{})))
			url := ps.URL + "/mcp"

			var list struct {
				Tools []struct {
					Name        string         `json:"name"`
					Description string         `json:"description"`
					InputSchema map[string]any `json:"inputSchema"`
				} `json:"tools"`
			}
			if err := json.Unmarshal(inspector(t, node, files[0], url, "--method", "tools/list"), &list); err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
			}
			if !slices.Equal(names, []string{"test_simple_text", "echo"}) {
				t.Errorf("tools %v", names)
			} else if props, _ := list.Tools[1].InputSchema["properties"].(map[string]any); list.Tools[1].Description != "Echoes its message" || props["message"] == nil {
				t.Errorf("echo: %+v", list.Tools[1])
			}
			type callResult struct {
				Content []struct {
					Type, Text string
				} `json:"content"`
				IsError bool `json:"isError"`
			}
			for _, c := range []struct {
				args []string
				want string
			}{
				{[]string{"--tool-name", "test_simple_text"}, "This is a simple text response for testing."},
				{[]string{"--tool-name", "echo", "--tool-arg", "message=through the proxy"}, "Echo: through the proxy"},
			} {
				var res callResult
				if err := json.Unmarshal(inspector(t, node, files[0], url, append([]string{"--method", "tools/call"}, c.args...)...), &res); err != nil {
					t.Fatal(err)
				}
				if res.IsError || len(res.Content) != 1 || res.Content[0].Type != "text" || res.Content[0].Text != c.want {
					t.Errorf("tools/call %v: %+v, want the text %q", c.args, res, c.want)
				}
			}

			// Stop everything, so that every exchange has been counted.
			ps.Close()
			p.Close()
			us.Close()
			din, dout, methods, asked, answered, headers := down.snapshot()
			uin, uout, umethods, _, _, _ := up.snapshot()
			t.Logf("downstream: Inspector sent %+v %v, got %+v; upstream: proxy sent %+v %v, got %+v", din, methods, dout, uin, umethods, uout)
			t.Logf("%s", p.Tap().Summary())
			if !slices.Equal(asked, []string{"2025-11-25", "2025-11-25", "2025-11-25"}) || !slices.Equal(answered, []string{version, version, version}) {
				t.Errorf("initialize asked for %v, answered %v; want 3 x 2025-11-25 answered %s", asked, answered, version)
			}
			for _, h := range headers {
				if h != version {
					t.Errorf("MCP-Protocol-Version headers %v, want %s", headers, version)
					break
				}
			}
			if p.UpstreamVersion() != mcp.ProtocolVersion {
				t.Errorf("upstream %q", p.UpstreamVersion())
			}
			checkAccount(t, p.Tap(), din, dout, uout)
		})
	}
}

// uncheckedOK are the messages the tap may pass unchecked: the
// upstream's notifications (a subscriptions/listen stream's
// acknowledgement), which go no further.
var uncheckedOK = map[string]bool{
	"upstream notifications/subscriptions/acknowledged params": true,
}

// checkAccount checks the tap's account of a run against what crossed
// the wire: every message the proxy received (din from its clients, uout
// from the upstream) and every result it sent down (dout) was checked
// against its side's revision schema (the initialize handshake too), or is
// one of uncheckedOK, named in the summary; none broke a rule.
func checkAccount(t *testing.T, tap *proxy.Tap, din, dout, uout tally) {
	t.Helper()
	unchecked := 0
	for k, n := range tap.Unchecked() {
		if !uncheckedOK[k] {
			t.Errorf("%d x %s not checked", n, k)
		}
		unchecked += n
	}
	crossed := din.requests + din.notifications + dout.results + uout.requests + uout.notifications + uout.results
	if got := int(tap.Checked()) + unchecked; got != crossed {
		t.Errorf("the tap accounts for %d messages (%d checked, %d not), %d crossed", got, tap.Checked(), unchecked, crossed)
	}
	if vs := tap.Violations(); len(vs) != 0 {
		t.Errorf("violations %v", vs)
	}
	sum := tap.Summary()
	if want := fmt.Sprintf("mcpgen proxy: %d messages checked, 0 violations, %d not checked;", tap.Checked(), unchecked); !strings.HasPrefix(sum, want) {
		t.Errorf("summary %q, want it to start %q", sum, want)
	}
}

// pipeConn is a child process's standard input and output as one
// connection whose lines (the stdio framing) w counts: what the proxy
// writes as "in", what the server writes as "out".
type pipeConn struct {
	w        *wire
	r        io.ReadCloser
	wc       io.WriteCloser
	inBuf    []byte
	outBuf   []byte
	mu       sync.Mutex
	closeFn  func() error
	closeOne sync.Once
	closeErr error
}

// lines counts the complete lines of *buf after appending p.
func (c *pipeConn) lines(buf *[]byte, p []byte, t *tally, in bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	*buf = append(*buf, p...)
	for {
		i := bytes.IndexByte(*buf, '\n')
		if i < 0 {
			return
		}
		c.w.mu.Lock()
		c.w.count(t, in, (*buf)[:i])
		c.w.mu.Unlock()
		*buf = (*buf)[i+1:]
	}
}

func (c *pipeConn) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.lines(&c.outBuf, p[:n], &c.w.out, false)
	return n, err
}

func (c *pipeConn) Write(p []byte) (int, error) {
	c.lines(&c.inBuf, p, &c.w.in, true)
	return c.wc.Write(p)
}

func (c *pipeConn) Close() error {
	c.closeOne.Do(func() { c.closeErr = c.closeFn() })
	return c.closeErr
}

// TestProxyServerEverything: mcpgen's 2026-07-28 client uses npm's
// server-everything (@modelcontextprotocol/server-everything 2026.8.31, a
// server of the TypeScript SDK 1.x that speaks 2025-11-25 at the newest)
// over stdio through the proxy, HTTP on the client's side: it lists and
// calls tools (text, arguments, structured content), lists and reads a
// resource, lists and gets a prompt. Every message that crossed either hop
// was checked by the tap or is named by it, and none broke a rule.
func TestProxyServerEverything(t *testing.T) {
	node, files := needNPM(t, serverEverything)
	var down, up wire
	stderr := new(logBuffer)
	cmd := exec.CommandContext(testContext(t), node, files[0], "stdio")
	cmd.Stderr = stderr
	cmd.SysProcAttr = procAttr()
	cmd.WaitDelay = 5 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	conn := &pipeConn{w: &up, r: stdout, wc: stdin, closeFn: func() error {
		// server-everything keeps running after the end of its input
		// (its timers): SIGTERM it, as a client would.
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		for _, sig := range []os.Signal{syscall.SIGTERM, os.Kill} {
			select {
			case err := <-done:
				return err
			case <-time.After(time.Second):
				_ = cmd.Process.Signal(sig)
			}
		}
		return <-done
	}}
	defer conn.Close()

	ctx, cancel := context.WithTimeout(testContext(t), 30*time.Second)
	defer cancel()
	p, err := proxy.New(ctx, proxy.Options{Upstream: &mcp.StreamTransport{Conn: conn}, Cache: proxy.NewMemoryStore(0)})
	if err != nil {
		t.Fatalf("%v\nserver stderr: %s", err, stderr.String())
	}
	ps := httptest.NewServer(down.handler(mcp.NewHTTPHandler(p.Dispatcher(), mcp.HTTPOptions{})))
	c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: ps.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.ProtocolVersion() != mcp.ProtocolVersion || p.UpstreamVersion() != "2025-11-25" {
		t.Errorf("client at %q, upstream at %q", c.ProtocolVersion(), p.UpstreamVersion())
	}
	if info := c.ServerInfo(); info == nil || !strings.Contains(info.Name, "everything") {
		t.Errorf("serverInfo %+v", info)
	}

	var tools []string
	for tool, err := range c.Tools(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool.Name)
	}
	for _, want := range []string{"echo", "get-sum", "get-structured-content", "get-tiny-image"} {
		if !slices.Contains(tools, want) {
			t.Errorf("tools %v: no %s", tools, want)
		}
	}
	call := func(name, args string) map[string]any {
		t.Helper()
		res, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("tools/call %s: %v", name, err)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m["isError"] == true {
			t.Errorf("tools/call %s: %s", name, b)
		}
		return m
	}
	text := func(m map[string]any) string {
		c, _ := m["content"].([]any)
		if len(c) == 0 {
			return ""
		}
		s, _ := c[0].(map[string]any)["text"].(string)
		return s
	}
	if got := text(call("echo", `{"message":"through the proxy"}`)); got != "Echo: through the proxy" {
		t.Errorf("echo: %q", got)
	}
	if got := text(call("get-sum", `{"a":40,"b":2}`)); got != "The sum of 40 and 2 is 42." {
		t.Errorf("get-sum: %q", got)
	}
	sc, _ := call("get-structured-content", `{"location":"Chicago"}`)["structuredContent"].(map[string]any)
	if sc["temperature"] != 36.0 || sc["conditions"] != "Light rain / drizzle" {
		t.Errorf("get-structured-content: structuredContent %v", sc)
	}

	var uri string
	for r, err := range c.Resources(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(r.URI, "demo://resource/static/document/") {
			uri = r.URI
			break
		}
	}
	if uri == "" {
		t.Fatal("no demo://resource/static/document/ resource listed")
	}
	rr, err := c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(rr); !strings.Contains(string(b), `"uri":"`+uri+`"`) || !strings.Contains(string(b), `"text":"`) {
		t.Errorf("resources/read %s: %s", uri, b)
	}

	var prompts []string
	for pr, err := range c.Prompts(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		prompts = append(prompts, pr.Name)
	}
	if !slices.Contains(prompts, "simple-prompt") {
		t.Fatalf("prompts %v", prompts)
	}
	gp, err := c.GetPrompt(ctx, &mcp.GetPromptRequestParams{Name: "simple-prompt"})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(gp); !strings.Contains(string(b), `"text":"This is a simple prompt without arguments."`) {
		t.Errorf("prompts/get simple-prompt: %s", b)
	}

	c.Close()
	ps.Close()
	if err := p.Close(); err != nil {
		t.Logf("closing the upstream: %v", err)
	}
	din, dout, methods, _, _, _ := down.snapshot()
	uin, uout, umethods, _, _, _ := up.snapshot()
	t.Logf("downstream: client sent %+v %v, got %+v; upstream: proxy sent %+v %v, got %+v", din, methods, dout, uin, umethods, uout)
	t.Logf("%s", p.Tap().Summary())
	checkAccount(t, p.Tap(), din, dout, uout)
}
