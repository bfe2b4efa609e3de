package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/replicas/internal/testinfra"
)

// The test binary, run with EVERYTHING_REPLICAS_ARGS set, is the command
// with those arguments (a replica): real processes, so that kill -9 kills
// one.
func TestMain(m *testing.M) {
	if args := os.Getenv("EVERYTHING_REPLICAS_ARGS"); args != "" {
		os.Args = append(os.Args[:1], strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type faultCluster struct {
	redis    *testinfra.Redis
	nginx    *testinfra.Nginx
	replicas []*testinfra.Proc
	urls     []string
	url      string
}

func startFaultCluster(t *testing.T) *faultCluster {
	c := &faultCluster{redis: testinfra.StartRedis(t, testinfra.RedisOptions{AppendOnly: true})}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 32)
	rand.Read(key)
	var reps []testinfra.Replica
	for _, name := range []string{"r1", "r2", "r3"} {
		addr := testinfra.Addr(testinfra.FreePort(t))
		p := testinfra.StartProc(t, name, t.TempDir(), []string{
			"EVERYTHING_STATE_KEY=" + hex.EncodeToString(key),
			"EVERYTHING_REPLICAS_ARGS=-replica " + name + " -listen " + addr + " -redis " + c.redis.Addr,
		}, exe)
		if err := p.WaitTCP(addr, 20*time.Second, nil); err != nil {
			t.Fatal(err)
		}
		c.replicas = append(c.replicas, p)
		c.urls = append(c.urls, "http://"+addr+"/mcp")
		reps = append(reps, testinfra.Replica{Addr: addr, Prefix: name + "."})
	}
	c.nginx = testinfra.StartNginx(t, testinfra.NginxOptions{Replicas: reps})
	c.url = c.nginx.URL + "/mcp"
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range c.replicas {
				t.Logf("%s:\n%s", p.Name, p.Tail(20))
			}
		}
	})
	return c
}

var faultClient = &http.Client{Timeout: 10 * time.Second}

const faultMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// answer is a response as the test reads it.
type answer struct {
	status     int
	retryAfter string
	err        string // transport error
	Result     json.RawMessage
	Error      *struct {
		Code    int64
		Message string
		Data    json.RawMessage
	}
}

// ok reports whether the request succeeded.
func (a answer) ok() bool { return a.err == "" && a.status == 200 && a.Error == nil }

// retryable reports whether a failure says to try again: 503 with
// Retry-After and retryAfterMs in the error's data.
func (a answer) retryable() bool {
	return a.status == 503 && a.retryAfter != "" && a.Error != nil && strings.Contains(string(a.Error.Data), `"retryAfterMs"`)
}

func (a answer) String() string {
	if a.err != "" {
		return a.err
	}
	if a.Error != nil {
		return fmt.Sprintf("%d %d %s", a.status, a.Error.Code, a.Error.Message)
	}
	return fmt.Sprintf("%d %s", a.status, a.Result)
}

var rpcID atomic.Int64

func rpc(url, method, name, params string) answer {
	body := `{"jsonrpc":"2.0","id":` + strconv.FormatInt(rpcID.Add(1), 10) + `,"method":"` + method + `","params":{` + faultMeta + params + `}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := faultClient.Do(req)
	if err != nil {
		return answer{err: err.Error()}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After")}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(b), "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				b = []byte(d)
			}
		}
	}
	if err := json.Unmarshal(b, &a); err != nil {
		a.err = fmt.Sprintf("status %d: %s", resp.StatusCode, b)
	}
	return a
}

func callTool(url, tool, args string) answer {
	return rpc(url, "tools/call", tool, `,"name":"`+tool+`","arguments":`+args)
}

// toolNames lists the tools of the replica at url, sorted.
func toolNames(url string) (string, error) {
	a := rpc(url, "tools/list", "", "")
	if !a.ok() {
		return "", fmt.Errorf("tools/list: %v", a)
	}
	var r struct{ Tools []struct{ Name string } }
	json.Unmarshal(a.Result, &r)
	var names []string
	for _, tl := range r.Tools {
		names = append(names, tl.Name)
	}
	sort.Strings(names)
	return strings.Join(names, ","), nil
}

func hasTransient(list string) bool { return strings.Contains(list, "test_transient_tool") }

// agreeWithin waits until every replica lists the transient tool as want
// (or, with any, all the same way), and returns how long that took.
func (c *faultCluster) agreeWithin(t *testing.T, want bool, limit time.Duration, any ...bool) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		agree := true
		for i, u := range c.urls {
			l, err := toolNames(u)
			if err != nil || hasTransient(l) != want {
				if err == nil && i == 0 && len(any) > 0 {
					want = hasTransient(l)
					continue
				}
				agree = false
				break
			}
		}
		if agree {
			return time.Since(start)
		}
		if time.Since(start) > limit {
			for _, u := range c.urls {
				l, err := toolNames(u)
				t.Logf("%s: %v %v", u, hasTransient(l), err)
			}
			t.Fatalf("the replicas do not agree on the tool list (transient tool %v) within %v", want, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// trigger toggles the transient tool through url; it reports the answer
// and what the list became when it succeeded.
func (c *faultCluster) trigger(t *testing.T, url string) (answer, bool) {
	l, _ := toolNames(c.urls[0])
	a := callTool(url, "test_trigger_tool_change", `{}`)
	return a, !hasTransient(l)
}

// listenTools opens a subscriptions/listen stream for tool list changes
// on url and returns its events.
func listenTools(t *testing.T, url string) <-chan string {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	body := `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{` + faultMeta + `,"notifications":{"toolsListChanged":true}}}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan string, 64)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				ch <- d
			}
		}
	}()
	select {
	case d := <-ch:
		if !strings.Contains(d, "notifications/subscriptions/acknowledged") {
			t.Fatalf("first event %s", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no acknowledgement")
	}
	return ch
}

// wantListChanged waits for a tools list_changed on ch.
func wantListChanged(t *testing.T, ch <-chan string, after string) {
	t.Helper()
	for {
		select {
		case d, ok := <-ch:
			if !ok {
				t.Fatalf("the listen stream ended before the list change %s", after)
			}
			if strings.Contains(d, "notifications/tools/list_changed") {
				return
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no tools list_changed within 5s %s", after)
		}
	}
}

// load is clients calling a tool and running tasks through nginx; it
// records every failure with its time.
type load struct {
	url  string
	stop chan struct{}
	wg   sync.WaitGroup

	mu       sync.Mutex
	calls    int
	tasks    int
	failures []failure
	lost     []string // tasks acknowledged that ended failed or cancelled
}

type failure struct {
	at        time.Time
	what      string
	retryable bool
}

func (l *load) fail(what string, a answer) {
	l.mu.Lock()
	l.failures = append(l.failures, failure{time.Now(), what + ": " + a.String(), a.retryable()})
	l.mu.Unlock()
}

func startLoad(url string, clients int) *load {
	l := &load{url: url, stop: make(chan struct{})}
	for i := range clients {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for n := 0; ; n++ {
				select {
				case <-l.stop:
					return
				default:
				}
				if i%2 == 0 {
					a := callTool(url, "greet", `{"name":"x"}`)
					l.mu.Lock()
					l.calls++
					l.mu.Unlock()
					if !a.ok() {
						l.fail("greet", a)
						time.Sleep(50 * time.Millisecond)
					}
					continue
				}
				l.task()
			}
		}()
	}
	return l
}

// task creates a short task and polls it to its end.
func (l *load) task() {
	a := callTool(l.url, "slow_compute", `{"seconds":0.3,"label":"load"}`)
	if !a.ok() {
		l.fail("create task", a)
		time.Sleep(50 * time.Millisecond)
		return
	}
	var v struct{ TaskID, Status string }
	json.Unmarshal(a.Result, &v)
	l.mu.Lock()
	l.tasks++
	l.mu.Unlock()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		g := rpc(l.url, "tasks/get", v.TaskID, `,"taskId":"`+v.TaskID+`"`)
		if !g.ok() {
			l.fail("tasks/get", g)
			continue
		}
		var s struct {
			Status string
			Error  *struct{ Message string }
		}
		json.Unmarshal(g.Result, &s)
		switch s.Status {
		case "completed":
			return
		case "failed", "cancelled":
			l.mu.Lock()
			l.lost = append(l.lost, fmt.Sprintf("%s %s %+v", v.TaskID, s.Status, s.Error))
			l.mu.Unlock()
			return
		}
	}
	l.mu.Lock()
	l.lost = append(l.lost, v.TaskID+" still running after 30s")
	l.mu.Unlock()
}

func (l *load) end() {
	close(l.stop)
	l.wg.Wait()
}

// TestFaults: under load through nginx (clients calling a tool and running
// tasks), a replica is killed with SIGKILL and restarted, then Redis is
// restarted after 4 s down (longer than the replicas' task lease, 3 s).
// Asserted: no acknowledged list change is lost and the replicas agree on
// the lists within 1 s of each recovery (the restarted replica on its
// first request); a change tried while Redis is down fails with 503 and
// Retry-After instead of answering success; the service works again
// within 1 s of Redis answering; a listener hears every change made after
// recovery; failed requests happen only inside the outage windows, those
// of the Redis outage all retryable; no task of a live replica fails (the
// long one running through the outage included).
func TestFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Redis, nginx and three replicas, and breaks them")
	}
	c := startFaultCluster(t)
	on := c.urls[0] // r1 stays up: the listener and the checks use it
	events := listenTools(t, on)
	if a, want := c.trigger(t, c.url); !a.ok() || !want {
		t.Fatalf("the first change: %v", a)
	}
	wantListChanged(t, events, "after the first change")
	c.agreeWithin(t, true, time.Second)

	l := startLoad(c.url, 6)
	time.Sleep(time.Second)

	// 1. kill -9 of r2, restarted 1 s later: it serves the shared list on
	// its first request.
	killAt := time.Now()
	c.replicas[1].Kill9()
	time.Sleep(time.Second)
	if err := c.replicas[1].Start(); err != nil {
		t.Fatal(err)
	}
	if err := c.replicas[1].WaitTCP(strings.TrimSuffix(strings.TrimPrefix(c.urls[1], "http://"), "/mcp"), 20*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	first, err := toolNames(c.urls[1])
	if err != nil || !hasTransient(first) {
		t.Errorf("the restarted replica's first tools/list lacks the shared change: %q %v", first, err)
	}
	killEnd := time.Now().Add(3 * time.Second) // nginx's fail_timeout (2s) and the lease (3s) ride over it
	time.Sleep(time.Second)

	// 2. A task that runs through the Redis outage, which is longer than
	// the lease: it is not failed.
	long := callTool(on, "slow_compute", `{"seconds":7,"label":"long"}`)
	if !long.ok() {
		t.Fatalf("long task: %v", long)
	}
	var longTask struct{ TaskID string }
	json.Unmarshal(long.Result, &longTask)

	// 3. Redis down for 4 s.
	downAt := time.Now()
	c.redis.Stop(10 * time.Second)
	time.Sleep(500 * time.Millisecond)
	a, _ := c.trigger(t, c.url)
	if a.ok() || !a.retryable() {
		t.Errorf("a list change while Redis is down answered %v (Retry-After %q), want 503 with Retry-After", a, a.retryAfter)
	}
	time.Sleep(3500 * time.Millisecond)
	if err := c.redis.Start(); err != nil {
		t.Fatal(err)
	}
	if err := c.redis.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	upAt := time.Now()
	// The change tried during the outage was not made anywhere.
	c.agreeWithin(t, true, time.Second)
	// The service works again within 1 s: a list change succeeds, the
	// replicas agree, the listener hears it.
	var recovered time.Duration
	for {
		a, want := c.trigger(t, c.url)
		if a.ok() {
			recovered = time.Since(upAt)
			// A change tried just before may have been made though its
			// answer was lost: the replicas agree, on whichever list.
			_ = want
			agree := c.agreeWithin(t, true, time.Second, true)
			t.Logf("after Redis answered PING: a change succeeded in %v, all replicas agreed %v later", recovered.Round(time.Millisecond), agree.Round(time.Millisecond))
			break
		}
		if time.Since(upAt) > 5*time.Second {
			t.Fatalf("no change succeeds 5s after Redis is back: %v", a)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if recovered > time.Second {
		t.Errorf("the service recovered %v after Redis, want within 1s", recovered)
	}
	wantListChanged(t, events, "after Redis came back")
	upEnd := upAt.Add(time.Second)

	time.Sleep(2 * time.Second) // tasks created after the recovery run to their end
	l.end()
	deadline := time.Now().Add(15 * time.Second)
	for {
		g := rpc(on, "tasks/get", longTask.TaskID, `,"taskId":"`+longTask.TaskID+`"`)
		var s struct{ Status string }
		json.Unmarshal(g.Result, &s)
		if s.Status == "completed" {
			break
		}
		if !g.ok() || s.Status != "working" || time.Now().After(deadline) {
			t.Fatalf("the task running through the outage: %v", g)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// Failures only inside the outages; those of the Redis outage
	// retryable. The kill's own failures are the requests in flight on
	// r2 (nginx does not send a POST again) and the tasks it ran.
	l.mu.Lock()
	defer l.mu.Unlock()
	inKill, inRedis := 0, 0
	for _, f := range l.failures {
		switch {
		case !f.at.Before(killAt) && f.at.Before(killEnd):
			inKill++
		case !f.at.Before(downAt) && f.at.Before(upEnd):
			inRedis++
			if !f.retryable {
				t.Errorf("a failure in the Redis outage is not retryable: %s", f.what)
			}
		default:
			t.Errorf("a failure outside the outages, at %v after the kill: %s", f.at.Sub(killAt), f.what)
		}
	}
	lostOfKilled := 0
	for _, s := range l.lost {
		if strings.Contains(s, "replica running the task stopped") {
			lostOfKilled++ // r2's own tasks
			continue
		}
		t.Errorf("a task of a live replica ended %s", s)
	}
	t.Logf("load: %d tool calls, %d tasks; failures: %d around the kill -9 (%d tasks of the killed replica failed), %d in the Redis outage (all retryable)", l.calls, l.tasks, inKill, lostOfKilled, inRedis)
}
