package e2e

import (
	"bufio"
	"context"
	"encoding/json"

	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/replicas/internal/testinfra"
)

// Three replicas (real processes) sharing one redis-server, behind nginx,
// all started on free ports of 127.0.0.1 by the test and stopped by it:
// a task created on one replica is answered, polled and cancelled through
// the others; a listener on one hears an update made through another; a
// legacy session keeps its replica through nginx, and starts over when
// the replica dies; a replica killed with SIGKILL leaves its tasks
// reported failed; a Redis restart is survived without restarting the
// replicas.

type cluster struct {
	redis    *testinfra.Redis
	nginx    *testinfra.Nginx
	replicas []*testinfra.Proc
	urls     []string // each replica's MCP endpoint
	url      string   // nginx's
}

var names = []string{"r1", "r2", "r3"}

func startCluster(t testing.TB) *cluster { return startClusterN(t, len(names)) }

// startClusterN starts Redis, the first n replicas and nginx in front of them.
func startClusterN(t testing.TB, n int) *cluster {
	t.Helper()
	c := &cluster{redis: testinfra.StartRedis(t, testinfra.RedisOptions{AppendOnly: true})}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var reps []testinfra.Replica
	for _, name := range names[:n] {
		addr := testinfra.Addr(testinfra.FreePort(t))
		p := testinfra.StartProc(t, "replica-"+name, t.TempDir(),
			[]string{"REPLICA_NAME=" + name, "REPLICA_ADDR=" + addr, "REPLICA_REDIS=" + c.redis.Addr}, exe)
		if err := p.WaitTCP(addr, 10*time.Second, nil); err != nil {
			t.Fatal(err)
		}
		c.replicas = append(c.replicas, p)
		c.urls = append(c.urls, "http://"+addr+"/mcp")
		reps = append(reps, testinfra.Replica{Addr: addr, Prefix: name + "."})
	}
	c.nginx = testinfra.StartNginx(t, testinfra.NginxOptions{Replicas: reps, FailTimeout: 2 * time.Second})
	c.url = c.nginx.URL + "/mcp"
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range c.replicas {
				t.Logf("%s:\n%s", p.Name, p.Tail(30))
			}
		}
	})
	return c
}

var client = &http.Client{Timeout: 10 * time.Second}

const caps = `{"extensions":{"io.modelcontextprotocol/tasks":{}},"elicitation":{}}`

func meta() string {
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
}

// msg is a JSON-RPC response as the tests read it.
type msg struct {
	Result json.RawMessage
	Error  *struct {
		Code    int64
		Message string
	}
	Method string
	Params json.RawMessage
}

type reply struct {
	status   int
	header   http.Header
	msg      msg
	upstream string
}

var nextID int

// call sends a 2026-07-28 request to url and reads its JSON response.
func call(t testing.TB, url, method, name, params string) reply {
	t.Helper()
	resp := post(t, context.Background(), url, method, name, params, nil)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, header: resp.Header, upstream: resp.Header.Get("X-Upstream")}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// The response is the last data line of the stream.
		for _, line := range strings.Split(string(b), "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				b = []byte(d)
			}
		}
	}
	if err := json.Unmarshal(b, &r.msg); err != nil {
		t.Fatalf("%s via %s: %d %s: %v", method, url, resp.StatusCode, b, err)
	}
	return r
}

func post(t testing.TB, ctx context.Context, url, method, name, params string, hdr map[string]string) *http.Response {
	t.Helper()
	nextID++
	body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(nextID) + `,"method":"` + method + `","params":` + params + `}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if hdr == nil {
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", method)
		if name != "" {
			req.Header.Set("Mcp-Name", name)
		}
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	c := client
	if ctx != context.Background() {
		c = &http.Client{} // streams: ctx bounds them
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s via %s: %v", method, url, err)
	}
	return resp
}

func toolCall(t testing.TB, url, tool, args string) reply {
	t.Helper()
	return call(t, url, "tools/call", tool, `{`+meta()+`,"name":"`+tool+`","arguments":`+args+`}`)
}

func taskReq(t *testing.T, url, method, id, extra string) reply {
	t.Helper()
	return call(t, url, method, id, `{`+meta()+`,"taskId":"`+id+`"`+extra+`}`)
}

type taskView struct {
	TaskID        string                     `json:"taskId"`
	Status        string                     `json:"status"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	Result        *struct {
		Content []struct{ Text string }
	} `json:"result"`
	Error *struct {
		Code    int64
		Message string
	} `json:"error"`
}

func view(t *testing.T, r reply) taskView {
	t.Helper()
	if r.msg.Error != nil {
		t.Fatalf("error %d %s (status %d)", r.msg.Error.Code, r.msg.Error.Message, r.status)
	}
	var v taskView
	if err := json.Unmarshal(r.msg.Result, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// await polls tasks/get through url until the task has status.
func await(t *testing.T, url, id, status string) taskView {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		v := view(t, taskReq(t, url, "tasks/get", id, ""))
		if v.Status == status {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s: %s, want %s", id, v.Status, status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestTaskAcrossReplicas(t *testing.T) {
	c := startCluster(t)
	a, b, cc := c.urls[0], c.urls[1], c.urls[2]

	// Created on r1, asked on r2, answered on r3, polled through nginx.
	v := view(t, toolCall(t, a, "ask", `{}`))
	if v.TaskID == "" {
		t.Fatalf("not a task: %+v", v)
	}
	g := await(t, b, v.TaskID, "input_required")
	if g.InputRequests["go"] == nil {
		t.Fatalf("inputRequests on r2: %v", g.InputRequests)
	}
	if r := taskReq(t, cc, "tasks/update", v.TaskID, `,"inputResponses":{"go":{"action":"accept","content":{"word":"yes"}}}`); r.msg.Error != nil {
		t.Fatalf("tasks/update on r3: %+v", r.msg.Error)
	}
	g = await(t, c.url, v.TaskID, "completed")
	if g.Result == nil || len(g.Result.Content) != 1 || g.Result.Content[0].Text != "yes (ran on r1)" {
		t.Errorf("result %+v", g.Result)
	}
	// Polled round robin through nginx: every replica answers alike.
	seen := map[string]bool{}
	for range 6 {
		r := taskReq(t, c.url, "tasks/get", v.TaskID, "")
		seen[r.upstream] = true
		if view(t, r).Status != "completed" {
			t.Errorf("through %s: %+v", r.upstream, view(t, r))
		}
	}
	if len(seen) != 3 {
		t.Errorf("nginx sent six polls to %d replicas, want 3 (round robin): %v", len(seen), seen)
	}

	// Created on r2, cancelled on r1: cancelled everywhere.
	s := view(t, toolCall(t, b, "spin", `{}`))
	if r := taskReq(t, a, "tasks/cancel", s.TaskID, ""); r.msg.Error != nil {
		t.Fatalf("tasks/cancel on r1: %+v", r.msg.Error)
	}
	for _, u := range c.urls {
		if g := view(t, taskReq(t, u, "tasks/get", s.TaskID, "")); g.Status != "cancelled" {
			t.Errorf("after cancel: %s", g.Status)
		}
	}
	// An unknown task is unknown everywhere.
	if r := taskReq(t, c.url, "tasks/get", "nope", ""); r.msg.Error == nil || r.msg.Error.Code != -32602 {
		t.Errorf("unknown task: %+v", r.msg)
	}
}

// events reads the data lines of an SSE response into a channel.
func events(resp *http.Response) <-chan string {
	ch := make(chan string, 64)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			// The priming event of a 2025-11-25 stream has no data.
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.TrimSpace(d) != "" {
				ch <- d
			}
		}
	}()
	return ch
}

func nextEvent(t *testing.T, ch <-chan string, what string) msg {
	t.Helper()
	for {
		select {
		case d, ok := <-ch:
			if !ok {
				t.Fatalf("the stream ended before %s", what)
			}
			var m msg
			if err := json.Unmarshal([]byte(d), &m); err != nil {
				t.Fatalf("%s: %v in %s", what, err, d)
			}
			return m
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s within 10s", what)
		}
	}
}

func listen(t *testing.T, url, uri string) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	resp := post(t, ctx, url, "subscriptions/listen", "", `{`+meta()+`,"notifications":{"resourceSubscriptions":["`+uri+`"]}}`, nil)
	t.Cleanup(func() { resp.Body.Close() })
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("subscriptions/listen: %d %s", resp.StatusCode, b)
	}
	ch := events(resp)
	if m := nextEvent(t, ch, "the acknowledgement"); m.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("first message %+v, want the acknowledgement", m)
	}
	return ch
}

func wantUpdated(t *testing.T, ch <-chan string, uri string) time.Time {
	t.Helper()
	m := nextEvent(t, ch, "notifications/resources/updated")
	if m.Method != "notifications/resources/updated" || !strings.Contains(string(m.Params), `"uri":"`+uri+`"`) {
		t.Fatalf("got %+v, want resources/updated for %s", m, uri)
	}
	return time.Now()
}

func TestListenerHearsOtherReplica(t *testing.T) {
	c := startCluster(t)
	onA := listen(t, c.urls[0], "test://x")
	viaNginx := listen(t, c.url, "test://x")
	start := time.Now()
	if r := toolCall(t, c.urls[2], "touch", `{"uri":"test://x"}`); r.msg.Error != nil || r.status != 200 {
		t.Fatalf("touch on r3: %d %+v", r.status, r.msg.Error)
	}
	at := wantUpdated(t, onA, "test://x")
	wantUpdated(t, viaNginx, "test://x")
	t.Logf("published on r3, delivered on r1 in %v", at.Sub(start))
	// Another resource's update is not sent to these listeners.
	toolCall(t, c.urls[1], "touch", `{"uri":"test://other"}`)
	toolCall(t, c.urls[1], "touch", `{"uri":"test://x"}`)
	wantUpdated(t, onA, "test://x")
}

// legacy is a 2025-11-25 client of one session.
type legacy struct {
	t   *testing.T
	url string
	sid string
}

func (l *legacy) post(body string) (int, http.Header, string) {
	l.t.Helper()
	hdr := map[string]string{"MCP-Protocol-Version": "2025-11-25"}
	if l.sid != "" {
		hdr["Mcp-Session-Id"] = l.sid
	}
	var m struct{ Method string }
	json.Unmarshal([]byte(body), &m)
	req, _ := http.NewRequest(http.MethodPost, l.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		l.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func (l *legacy) open() {
	l.t.Helper()
	l.sid = ""
	status, h, body := l.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if status != 200 {
		l.t.Fatalf("initialize: %d %s", status, body)
	}
	l.sid = h.Get("Mcp-Session-Id")
	if status, _, body := l.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != 202 {
		l.t.Fatalf("initialized: %d %s", status, body)
	}
}

func TestLegacySessionThroughNginx(t *testing.T) {
	c := startCluster(t)
	l := &legacy{t: t, url: c.url}
	l.open()
	prefix, _, ok := strings.Cut(l.sid, ".")
	owner := -1
	for i, n := range names {
		if n == prefix {
			owner = i
		}
	}
	if !ok || owner < 0 {
		t.Fatalf("session id %q names no replica", l.sid)
	}
	// Every request of the session reaches its replica, although nginx
	// spreads the others round robin.
	for i := range 12 {
		status, h, body := l.post(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":{"name":"whoami","arguments":{}}}`)
		if status != 200 || !strings.Contains(body, `"text":"`+prefix+`"`) {
			t.Fatalf("request %d of the session: %d %s (via %s)", i, status, body, h.Get("X-Upstream"))
		}
	}
	// Updates published on another replica reach the session's GET
	// stream once it subscribed.
	if status, _, body := l.post(`{"jsonrpc":"2.0","id":50,"method":"resources/subscribe","params":{"uri":"test://y"}}`); status != 200 {
		t.Fatalf("resources/subscribe: %d %s", status, body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", l.sid)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	stream := events(resp)
	other := c.urls[(owner+1)%3]
	// The GET stream may not be attached yet when the first update is
	// sent; it is kept for the stream all the same.
	toolCall(t, other, "touch", `{"uri":"test://y"}`)
	wantUpdated(t, stream, "test://y")

	// The session's replica dies: nginx sends the session's next request
	// to another, which does not know it (404), and the client starts a
	// new session, on a live replica.
	c.replicas[owner].Kill9()
	status, _, body := l.post(`{"jsonrpc":"2.0","id":99,"method":"ping"}`)
	if status != 404 {
		t.Fatalf("a request of the dead replica's session: %d %s, want 404", status, body)
	}
	l.open()
	if strings.HasPrefix(l.sid, prefix+".") {
		t.Fatalf("the new session %q is on the dead replica", l.sid)
	}
	if status, _, body := l.post(`{"jsonrpc":"2.0","id":100,"method":"ping"}`); status != 200 {
		t.Fatalf("the new session: %d %s", status, body)
	}
}

func TestKill9(t *testing.T) {
	c := startCluster(t)
	// A task runs on r2; r2 is killed; the task is reported failed.
	s := view(t, toolCall(t, c.urls[1], "spin", `{}`))
	c.replicas[1].Kill9()
	killed := time.Now()
	g := await(t, c.url, s.TaskID, "failed")
	took := time.Since(killed)
	if g.Error == nil || g.Error.Code != -32603 || !strings.Contains(g.Error.Message, "replica running the task stopped") {
		t.Errorf("error %+v", g.Error)
	}
	if took > 3*lease {
		t.Errorf("reported failed %v after the kill, more than three leases", took)
	}
	t.Logf("task of the killed replica reported failed %v after kill -9 (lease %v)", took, lease)
	// nginx serves every request from the survivors.
	for i := range 6 {
		r := toolCall(t, c.url, "whoami", `{}`)
		if r.status != 200 || r.msg.Error != nil {
			t.Fatalf("request %d after the kill: %d %+v", i, r.status, r.msg.Error)
		}
		var res struct{ Content []struct{ Text string } }
		json.Unmarshal(r.msg.Result, &res)
		if len(res.Content) != 1 || res.Content[0].Text == "r2" {
			t.Fatalf("answered by %+v", res)
		}
	}
	// New tasks keep working.
	v := view(t, toolCall(t, c.url, "ask", `{}`))
	await(t, c.url, v.TaskID, "input_required")
	taskReq(t, c.url, "tasks/update", v.TaskID, `,"inputResponses":{"go":{"action":"accept","content":{"word":"still"}}}`)
	if g := await(t, c.url, v.TaskID, "completed"); g.Result == nil || !strings.HasPrefix(g.Result.Content[0].Text, "still") {
		t.Errorf("after the kill: %+v", g.Result)
	}
}

func TestRedisRestartMidRun(t *testing.T) {
	c := startCluster(t)
	v := view(t, toolCall(t, c.urls[0], "ask", `{}`))
	await(t, c.urls[1], v.TaskID, "input_required")
	onB := listen(t, c.urls[1], "test://z")
	c.redis.Restart(t, 500*time.Millisecond)
	// The replicas were not restarted: the task is still there (the
	// append-only file kept it) and is answered, the listener still hears.
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := taskReq(t, c.urls[2], "tasks/update", v.TaskID, `,"inputResponses":{"go":{"action":"accept","content":{"word":"after"}}}`)
		if r.msg.Error == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("tasks/update after the restart: %+v", r.msg.Error)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if g := await(t, c.url, v.TaskID, "completed"); g.Result == nil || g.Result.Content[0].Text != "after (ran on r1)" {
		t.Errorf("result %+v", g.Result)
	}
	toolCall(t, c.urls[0], "touch", `{"uri":"test://z"}`)
	wantUpdated(t, onB, "test://z")
}
