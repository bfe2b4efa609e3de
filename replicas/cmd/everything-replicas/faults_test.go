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

	"github.com/mcpgen/mcpgen/replicas"
	"github.com/mcpgen/mcpgen/replicas/internal/testinfra"
	"github.com/redis/go-redis/v9"
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
	redis    *testinfra.Redis    // the Redis, or with Sentinel the first primary
	sentinel *testinfra.Sentinel // with Sentinel
	nginx    *testinfra.Nginx
	replicas []*testinfra.Proc
	urls     []string
	url      string
}

// startFaultCluster starts three replicas and nginx in front of them, on
// one Redis, or with sentinel on a primary with two Redis replicas watched
// by redis-sentinel (master mcp, down-after 2 s), which the replicas find
// with -sentinel and write to with -sync-replicas 1.
func startFaultCluster(t *testing.T, sentinel bool) *faultCluster {
	c := &faultCluster{redis: testinfra.StartRedis(t, testinfra.RedisOptions{AppendOnly: true})}
	redises := []*testinfra.Proc{c.redis.Proc}
	redisArgs := " -redis " + c.redis.Addr
	if sentinel {
		for range 2 {
			redises = append(redises, testinfra.StartRedis(t, testinfra.RedisOptions{AppendOnly: true, ReplicaOf: c.redis.Addr}).Proc)
		}
		// down-after 2 s: with 1 s, a loaded machine that stalls the
		// promoted primary for a second made Sentinel fail over again.
		c.sentinel = testinfra.StartSentinel(t, "mcp", c.redis, 2*time.Second)
		redises = append(redises, c.sentinel.Proc)
		// Both replicas in sync with the primary (WAIT counts them), and
		// known to the sentinel.
		sc := redis.NewSentinelClient(&redis.Options{Addr: c.sentinel.Addr})
		defer sc.Close()
		pc := redis.NewClient(&redis.Options{Addr: c.redis.Addr})
		defer pc.Close()
		deadline := time.Now().Add(20 * time.Second)
		for {
			info, ierr := pc.Info(context.Background(), "replication").Result()
			reps, err := sc.Replicas(context.Background(), "mcp").Result()
			if ierr == nil && strings.Count(info, "state=online") == 2 && err == nil && len(reps) == 2 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the primary's replicas are not online, or sentinel does not see them: %q %v; %v %v", info, ierr, reps, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		redisArgs = " -sentinel " + c.sentinel.Addr + " -sentinel-master mcp -sync-replicas 1"
	}
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
			"EVERYTHING_REPLICAS_ARGS=-replica " + name + " -listen " + addr + redisArgs,
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
				t.Logf("%s:\n%s", p.Name, p.Tail(400))
			}
			for _, p := range redises {
				t.Logf("%s:\n%s", p.Name, p.Tail(30))
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

// retryable reports whether a failure says to try again: an error with
// retryAfterMs in its data, answered with 503 and Retry-After, or (when
// the response had begun as a stream) as -32603 in a 200.
func (a answer) retryable() bool {
	if a.Error == nil || !strings.Contains(string(a.Error.Data), `"retryAfterMs"`) {
		return false
	}
	return a.status == 503 && a.retryAfter != "" || a.status == 200 && a.Error.Code == -32603
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

// promptNames lists the prompts of the replica at url, sorted.
func promptNames(url string) (string, error) {
	a := rpc(url, "prompts/list", "", "")
	if !a.ok() {
		return "", fmt.Errorf("prompts/list: %v", a)
	}
	var r struct{ Prompts []struct{ Name string } }
	json.Unmarshal(a.Result, &r)
	var names []string
	for _, p := range r.Prompts {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return strings.Join(names, ","), nil
}

// samePrompts reports whether every replica lists the same prompts.
func (c *faultCluster) samePrompts() bool {
	first, err := promptNames(c.urls[0])
	if err != nil {
		return false
	}
	for _, u := range c.urls[1:] {
		if l, err := promptNames(u); err != nil || l != first {
			return false
		}
	}
	return true
}

func hasTransient(list string) bool { return strings.Contains(list, "test_transient_tool") }

// agreeWithin waits until every replica lists the transient tool as want
// (or, with any, all the same way) and the same prompts, and returns how
// long that took.
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
		if agree && c.samePrompts() {
			return time.Since(start)
		}
		if time.Since(start) > limit {
			for _, u := range c.urls {
				l, err := toolNames(u)
				p, perr := promptNames(u)
				t.Logf("%s: transient tool %v %v; prompts %s %v", u, hasTransient(l), err, p, perr)
			}
			t.Fatalf("the replicas do not agree on the lists (transient tool %v) within %v", want, limit)
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
	c := startFaultCluster(t, false)
	on := c.urls[0] // r1 stays up: the listener and the checks use it
	events := listenTools(t, on)
	if a, want := c.trigger(t, c.url); !a.ok() || !want {
		t.Fatalf("the first change: %v", a)
	}
	wantListChanged(t, events, "after the first change")
	if a := callTool(c.url, "test_trigger_prompt_change", `{}`); !a.ok() {
		t.Fatalf("the prompt change: %v", a)
	}
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
	if p, err := promptNames(c.urls[1]); err != nil || !strings.Contains(p, "test_transient_prompt") {
		t.Errorf("the restarted replica's prompts/list lacks the shared change: %q %v", p, err)
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
	if a.ok() || !a.retryable() || a.status != 503 {
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

// TestSentinelFaults: under load through nginx, the Redis primary the
// replicas find through redis-sentinel (-sentinel, -sync-replicas 1) is
// killed with SIGKILL and Sentinel promotes one of its two replicas.
// Asserted: the list changes acknowledged just before the kill are in the
// promoted Redis and every replica lists them; a change tried while there
// is no primary fails with 503 and Retry-After; a change succeeds again
// once the promotion is done, the replicas agree on every list within 1 s
// of it, and a listener on another replica hears it; failed requests
// happen only between the kill and 1 s after that recovery, all
// retryable; no acknowledged task is lost or failed.
func TestSentinelFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three Redis, redis-sentinel, nginx and three replicas, and kills the primary")
	}
	c := startFaultCluster(t, true)
	events := listenTools(t, c.urls[0])
	l := startLoad(c.url, 6)
	time.Sleep(time.Second)

	// A change of each list, acknowledged just before the primary dies.
	if a, want := c.trigger(t, c.url); !a.ok() || !want {
		t.Fatalf("the tool list change: %v (adds the tool: %v)", a, want)
	}
	if a := callTool(c.url, "test_trigger_prompt_change", `{}`); !a.ok() {
		t.Fatalf("the prompt list change: %v", a)
	}
	wantListChanged(t, events, "before the kill")
	c.agreeWithin(t, true, time.Second)
	if p, err := promptNames(c.urls[0]); err != nil || !strings.Contains(p, "test_transient_prompt") {
		t.Fatalf("after the prompt change: %q %v", p, err)
	}
	killAt := time.Now() // before the signal: a request can fail while Kill9 waits for the exit
	c.redis.Kill9()

	// No primary: a change fails with the retryable error (the dead
	// primary cannot have made it, and Sentinel waits 2 s to promote).
	time.Sleep(300 * time.Millisecond)
	if a, _ := c.trigger(t, c.url); a.ok() || !a.retryable() || a.status != 503 {
		t.Errorf("a list change with the primary dead answered %v (Retry-After %q), want 503 with Retry-After", a, a.retryAfter)
	}

	// The promotion.
	sc := redis.NewSentinelClient(&redis.Options{Addr: c.sentinel.Addr})
	defer sc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var promoted time.Duration
	var newPrimary string
	for {
		addr, err := sc.GetMasterAddrByName(ctx, "mcp").Result()
		if err == nil && addr[1] != strconv.Itoa(c.redis.Port) {
			promoted, newPrimary = time.Since(killAt), addr[1]
			break
		}
		if time.Since(killAt) > 30*time.Second {
			t.Fatalf("sentinel promotes no replica within 30s: %v %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The acknowledged changes are in the promoted Redis.
	rdb := redis.NewFailoverClient(replicas.FailoverOptions("mcp", []string{c.sentinel.Addr}))
	defer rdb.Close()
	bus := replicas.NewBus(rdb, replicas.Options{})
	defer bus.Close()
	for {
		vals, _, err := bus.State(ctx)
		if err == nil {
			for method, name := range stateName {
				if vals[name] != "1" {
					t.Errorf("the promoted Redis lost the acknowledged change of %s: state %v", method, vals)
				}
			}
			break
		}
		if time.Since(killAt) > 30*time.Second {
			t.Fatalf("the promoted Redis does not answer: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// A change succeeds again (through r2: the listener on r1 hears it
	// from the bus); the replicas agree within 1 s.
	var recoveredAt time.Time
	for {
		a := callTool(c.urls[1], "test_trigger_tool_change", `{}`)
		if a.ok() {
			recoveredAt = time.Now()
			break
		}
		if !a.retryable() {
			t.Errorf("a list change in the failover answered %v, want the retryable error", a)
		}
		if time.Since(killAt) > 30*time.Second {
			t.Fatalf("no change succeeds 30s after the kill: %v", a)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A change tried after the promotion whose WAIT failed (the other
	// Redis replica not yet following the new primary) may have been
	// made: the replicas agree, on whichever tool list.
	agree := c.agreeWithin(t, false, time.Second, true)
	wantListChanged(t, events, "after the failover")
	if p, err := promptNames(c.urls[2]); err != nil || !strings.Contains(p, "test_transient_prompt") {
		t.Errorf("after the failover r3 lists the prompts %q (%v): the acknowledged prompt change is lost", p, err)
	}
	recovered := recoveredAt.Sub(killAt)
	t.Logf("kill -9 of the primary: promoted after %v, a list change succeeded %v after the kill, all replicas agreed %v later",
		promoted.Round(time.Millisecond), recovered.Round(time.Millisecond), agree.Round(time.Millisecond))
	upEnd := recoveredAt.Add(time.Second)

	time.Sleep(2 * time.Second) // tasks created after the recovery run to their end
	l.end()
	if addr, err := sc.GetMasterAddrByName(ctx, "mcp").Result(); err != nil || addr[1] != newPrimary {
		t.Fatalf("sentinel names %v (%v) as the primary, not the one it promoted (port %s): it failed over again, the machine stalled Redis for the down-after time", addr, err, newPrimary)
	}

	l.mu.Lock()
	defer l.mu.Unlock()
	inOutage := 0
	for _, f := range l.failures {
		if f.at.Before(killAt) || !f.at.Before(upEnd) {
			t.Errorf("a failure outside the failover, at %v after the kill: %s", f.at.Sub(killAt), f.what)
			continue
		}
		inOutage++
		if !f.retryable {
			t.Errorf("a failure in the failover is not retryable: %s", f.what)
		}
	}
	for _, s := range l.lost {
		t.Errorf("an acknowledged task ended %s", s)
	}
	if l.tasks == 0 || l.calls == 0 {
		t.Fatalf("no load: %d tool calls, %d tasks", l.calls, l.tasks)
	}
	t.Logf("load: %d tool calls, %d tasks (none lost); %d requests failed, all in the failover and retryable", l.calls, l.tasks, inOutage)
}
