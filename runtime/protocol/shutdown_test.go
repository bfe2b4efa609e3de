package protocol_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// recordLog is a slog.Handler that keeps the records at Warn and above,
// and sends the url.full attribute of the others (ListenAndServe's
// "listening" record).
type recordLog struct {
	mu    *sync.Mutex
	warns *[]string
	urls  chan<- string
}

func newRecordLog() (recordLog, <-chan string) {
	urls := make(chan string, 1)
	return recordLog{mu: new(sync.Mutex), warns: new([]string), urls: urls}, urls
}

func (recordLog) Enabled(context.Context, slog.Level) bool { return true }
func (h recordLog) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		h.mu.Lock()
		*h.warns = append(*h.warns, r.Level.String()+" "+r.Message)
		h.mu.Unlock()
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "url.full" {
			h.urls <- a.Value.String()
		}
		return true
	})
	return nil
}
func (h recordLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h recordLog) WithGroup(string) slog.Handler      { return h }
func (h recordLog) Warnings() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), *h.warns...)
}

const listenRequest = `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{` + meta2026 + `,"notifications":{"toolsListChanged":true}}}`

// TestServeStopEndsListenStreams: cancelling the context of Serve (what
// a SIGTERM handler does) with a subscriptions/listen stream open ends
// the stream with its result, and Serve returns nil within a second,
// logging no warning.
func TestServeStopEndsListenStreams(t *testing.T) {
	s := newSetServer()
	log, _ := newRecordLog()
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "t", Version: "1"}, Logger: slog.New(log)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx, inR, outW); outW.Close() }()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	io.WriteString(inW, listenRequest+"\n")
	if l := <-lines; !strings.Contains(l, "notifications/subscriptions/acknowledged") {
		t.Fatalf("the stream starts with %s", l)
	}
	start := time.Now()
	cancel()
	var got []string
	for l := range lines {
		got = append(got, l)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v, want nil", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Serve did not return")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("Serve returned %v after the cancellation, want under 1s", took)
	}
	if len(got) != 1 || !strings.Contains(got[0], `"id":"L"`) || !strings.Contains(got[0], `"result"`) {
		t.Errorf("after the cancellation the server wrote %q, want the listen request's result", got)
	}
	if w := log.Warnings(); len(w) > 0 {
		t.Errorf("warnings on shutdown: %q", w)
	}
}

// TestListenAndServeStopEndsListenStreams: the same over Streamable HTTP:
// ListenAndServe returns nil within a second of its context's end with a
// subscriptions/listen stream open, which ends with its result.
func TestListenAndServeStopEndsListenStreams(t *testing.T) {
	s := newSetServer()
	log, urls := newRecordLog()
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "t", Version: "1"}, Logger: slog.New(log)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- mcp.NewHTTPHandler(d, mcp.HTTPOptions{}).ListenAndServe(ctx, "127.0.0.1:0") }()
	var url string
	select {
	case url = <-urls:
	case <-time.After(5 * time.Second):
		t.Fatal("not listening")
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(listenRequest))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"} {
		req.Header.Set(k, v)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body := bufio.NewReader(resp.Body)
	for {
		l, err := body.ReadString('\n')
		if err != nil {
			t.Fatalf("the stream ended before the acknowledgement: %v", err)
		}
		if strings.Contains(l, "notifications/subscriptions/acknowledged") {
			break
		}
	}
	start := time.Now()
	cancel()
	rest, _ := io.ReadAll(body)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ListenAndServe: %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ListenAndServe did not return")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("ListenAndServe returned %v after the cancellation, want under 1s", took)
	}
	if !strings.Contains(string(rest), `"id":"L"`) || !strings.Contains(string(rest), `"result"`) {
		t.Errorf("after the cancellation the stream had %q, want the listen request's result", rest)
	}
	if w := log.Warnings(); len(w) > 0 {
		t.Errorf("warnings on shutdown: %q", w)
	}
}
