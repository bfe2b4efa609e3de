// Command everything-replicas is examples/everything-server as a service
// of three replicas: a redis-server, three everything-server replicas that
// keep their tasks and notifications in it (replicas.NewTasks,
// replicas.NewBus) and name their sessions r1., r2., r3., and nginx in
// front of them, configured as docs/replicas.md shows. It is how the
// conformance suite runs through nginx (make conformance-replicas).
//
// The server's files are those of examples/everything-server (symbolic
// links: one server, two ways to run it; TestLinks checks the set); this
// file replaces its main.go.
//
//	everything-replicas -http 127.0.0.1:0
//
// starts everything on 127.0.0.1 (free ports; port 0 for nginx means one
// too), logs "listening on http://ADDR/mcp" with nginx's address once all
// of it serves, and stops all of it on SIGINT or SIGTERM. Run with
// -replica, it is one replica (the launcher starts itself so; so does a
// deployment, docs/replicas.md):
//
//	EVERYTHING_STATE_KEY=<hex> everything-replicas -replica r1 -listen 10.0.0.1:3001 -redis 127.0.0.1:6379
//	EVERYTHING_STATE_KEY=<hex> everything-replicas -replica r1 -listen 10.0.0.1:3001 \
//		-sentinel 10.0.0.5:26379,10.0.0.6:26379,10.0.0.7:26379 -sentinel-master mcp -sync-replicas 1
package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/replicas"
	"github.com/mcpgen/mcpgen/replicas/internal/testinfra"
	"github.com/mcpgen/mcpgen/runtime/protocol"
	"github.com/redis/go-redis/v9"
)

func main() {
	addr := flag.String("http", "127.0.0.1:0", "serve at http://`ADDR`/mcp through nginx")
	replica := flag.String("replica", "", "run one replica with this `NAME`")
	listen := flag.String("listen", "", "the replica's `ADDR`")
	redisAddr := flag.String("redis", "", "the Redis `ADDR` the replica uses")
	sentinels := flag.String("sentinel", "", "the Redis Sentinel `ADDRS` (comma-separated) that name the primary, instead of -redis")
	master := flag.String("sentinel-master", "mcp", "the `NAME` of the primary the sentinels watch")
	syncReplicas := flag.Int("sync-replicas", 0, "acknowledge a change once `N` Redis replicas have it (WAIT; 1 with Sentinel)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if *replica != "" {
		var rdb redis.UniversalClient
		switch {
		case *sentinels != "":
			rdb = redis.NewFailoverClient(replicas.FailoverOptions(*master, strings.Split(*sentinels, ",")))
		case *redisAddr != "":
			rdb = redis.NewClient(replicas.ClientOptions(*redisAddr))
		default:
			log.Fatal("-replica needs -redis or -sentinel")
		}
		err = runReplica(ctx, *replica, *listen, rdb, replicas.Options{SyncReplicas: *syncReplicas})
		rdb.Close()
	} else {
		err = runCluster(ctx, *addr)
	}
	if err != nil {
		log.Fatal(err)
	}
}

// runReplica serves examples/everything-server with its tasks and
// notifications in Redis until ctx ends.
func runReplica(ctx context.Context, name, addr string, rdb redis.UniversalClient, ropts replicas.Options) error {
	logger := log.New(os.Stderr, "everything-server "+name+": ", log.LstdFlags|log.Lmicroseconds)
	key, err := hex.DecodeString(os.Getenv("EVERYTHING_STATE_KEY"))
	if err != nil || len(key) < 16 {
		return errors.New("EVERYTHING_STATE_KEY must be the requestState key the replicas share, in hex (at least 16 bytes)")
	}
	s := newServer(slog.New(slog.NewTextHandler(os.Stderr, nil)).With("replica", name))
	s.tasks = mcp.NewTaskStore(mcp.TaskStoreOptions{TTL: time.Hour, PollInterval: 500 * time.Millisecond,
		Shared: replicas.NewTasks(rdb, ropts), Replica: name, Lease: 3 * time.Second})
	opts, flush, err := withTelemetry(s.options())
	if err != nil {
		return err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := flush(ctx); err != nil {
			logger.Printf("telemetry: %v", err)
		}
	}()
	opts.RequestStateKeys = [][]byte{key}
	d := mcp.NewServerDispatcher(s, opts)

	// What the hub publishes goes on the bus; what the bus carries, from
	// any replica, the hub delivers here.
	bus := replicas.NewBus(rdb, ropts)
	defer bus.Close()
	st := &sharedLists{s: s, bus: bus, logf: logger.Printf}
	ch, err := st.start(ctx)
	if err != nil {
		return err
	}
	s.hub.forward = st.forward
	go st.follow(ctx, ch)
	// Every replica can publish the watched resource's updates; the one
	// that holds the lead in Redis does, and another takes over within
	// a few seconds when it stops.
	go st.watch(ctx, name)

	h := mcp.NewHTTPHandler(d, mcp.HTTPOptions{SessionIDPrefix: name + ".", ClientAddress: forwardedFor})
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := h.NewServer(addr)
	srv.Handler = mux
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	logger.Printf("replica serving http://%s/mcp", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.close(shutdown); err != nil {
		return err
	}
	return srv.Shutdown(shutdown)
}

// forwardedFor is the client's address behind nginx, which appends it to
// X-Forwarded-For (docs/replicas.md), for MaxSessionsPerClient.
func forwardedFor(r *http.Request) string {
	xff := r.Header.Values("X-Forwarded-For")
	if len(xff) == 0 {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		return host
	}
	last := xff[len(xff)-1]
	return strings.TrimSpace(last[strings.LastIndexByte(last, ',')+1:])
}

// busEvent is the params of a bus message: an event of the hub.
type busEvent struct {
	URI string `json:"uri,omitempty"`
	On  bool   `json:"on,omitempty"`
}

// sharedLists keeps the lists that change at run time (the tool and the
// prompt that come and go) the same on every replica: a change is
// Bus.SetState (stored and published in one step, or the call that made it
// fails), and a replica applies the shared state when it starts and after
// a gap of its bus, and every newer change the bus brings.
type sharedLists struct {
	s    *server
	bus  *replicas.Bus
	logf func(string, ...any)

	mu      sync.Mutex
	applied int64 // the version of the state applied last
}

// stateName is the name in the shared state of a list's change.
var stateName = map[string]string{
	mcp.MethodToolListChangedNotification:   "transientTool",
	mcp.MethodPromptListChangedNotification: "transientPrompt",
}

// start subscribes, then applies the shared state (so that nothing
// changed meanwhile is missed), trying until Redis answers or ctx ends:
// the replica serves the same lists as the others from its first request.
func (l *sharedLists) start(ctx context.Context) (<-chan protocol.BusMessage, error) {
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		ch, err := l.bus.Subscribe(ctx)
		if err == nil {
			if err = l.catchUp(ctx); err == nil {
				return ch, nil
			}
		}
		l.logf("waiting for Redis: %v", err)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// catchUp applies the shared state. Newer, older (Redis lost what it
// had) or of the same version: its values are the truth, even at the
// version applied (a change whose write a failover lost, read from the
// old primary's stream, and another made since on the new one may share
// a version). Applying a list as it is changes nothing.
func (l *sharedLists) catchUp(ctx context.Context) error {
	vals, v, err := l.bus.State(ctx)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for method, name := range stateName {
		l.s.hub.deliver(event{method: method, on: vals[name] == "1"})
	}
	l.applied = v
	return nil
}

// forward sends a change to every replica: a list change as shared
// state, a resource update as a message.
func (l *sharedLists) forward(e event) error {
	params, _ := json.Marshal(busEvent{URI: e.uri, On: e.on})
	m := protocol.BusMessage{Method: e.method, Params: params}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if name, ok := stateName[e.method]; ok {
		value := "0"
		if e.on {
			value = "1"
		}
		_, err := l.bus.SetState(ctx, name, value, m)
		return err
	}
	return l.bus.Publish(ctx, m)
}

// follow applies what the bus brings until it closes: a list change newer
// than the state applied, every resource update; after a gap, the shared
// state (read again until Redis answers).
func (l *sharedLists) follow(ctx context.Context, ch <-chan protocol.BusMessage) {
	for m := range ch {
		if m.Gap {
			// Tried every 200 ms at most, as the bus's reader does: the
			// messages wait meanwhile, so the replica applies them
			// within 1 s of Redis (TestSentinelFaults).
			for wait := 50 * time.Millisecond; l.catchUp(ctx) != nil && ctx.Err() == nil; wait = min(2*wait, 200*time.Millisecond) {
				time.Sleep(wait)
			}
			continue
		}
		var p busEvent
		if m.Params != nil {
			json.Unmarshal(m.Params, &p)
		}
		if v := replicas.MessageStateVersion(m); v > 0 {
			l.mu.Lock()
			newer := v > l.applied
			if newer {
				l.applied = v
				l.s.hub.deliver(event{method: m.Method, on: p.On})
			}
			l.mu.Unlock()
			if !newer {
				// One this replica has, or Redis lost its state and
				// counts again: the state says which.
				l.catchUp(ctx)
			}
			continue
		}
		l.s.hub.deliver(event{method: m.Method, uri: p.URI, on: p.On})
	}
}

// leadTerm is how long the lead to publish the watched resource's updates
// lasts unless renewed (every second).
const leadTerm = 3 * time.Second

// watch publishes the watched resource's update every watchedPeriod while
// this replica holds the lead for it, until ctx ends.
func (l *sharedLists) watch(ctx context.Context, name string) {
	var leading atomic.Bool
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			ok, err := l.bus.Lead(ctx, "watch", name, leadTerm)
			if err != nil && ctx.Err() == nil {
				l.logf("lead: %v", err)
			}
			leading.Store(ok)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	t := time.NewTicker(watchedPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if leading.Load() {
				if err := l.s.hub.publish(event{method: mcp.MethodResourceUpdatedNotification, uri: watchedURI}); err != nil {
					l.logf("publish the watched resource's update: %v", err)
				}
			}
		}
	}
}

// proc is a process the launcher started.
type proc struct {
	name string
	cmd  *exec.Cmd
	done chan error
}

func start(name, dir string, env []string, argv ...string) (*proc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	// Children die with the launcher, however it ends.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	return p, nil
}

func (p *proc) stop() {
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
	}
}

// waitReady waits until addr accepts a connection and check (if any)
// passes on it, or p exits, or 20 seconds pass.
func waitReady(p *proc, addr string, check func(net.Conn) error) error {
	deadline := time.Now().Add(20 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		select {
		case err := <-p.done:
			return fmt.Errorf("%s exited: %v", p.name, err)
		default:
		}
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.SetDeadline(time.Now().Add(2 * time.Second))
			if check != nil {
				err = check(c)
			}
			c.Close()
			if err == nil {
				return nil
			}
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("%s is not ready at %s: %v", p.name, addr, last)
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// runCluster starts Redis, three replicas and nginx, says where nginx
// listens, and stops them all when ctx ends.
func runCluster(ctx context.Context, addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host != "127.0.0.1" {
		return fmt.Errorf("-http %q: want 127.0.0.1:PORT", addr)
	}
	if port == "0" {
		if addr, err = freeAddr(); err != nil {
			return err
		}
	}
	dir, err := os.MkdirTemp("", "everything-replicas-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var procs []*proc
	defer func() {
		for i := len(procs) - 1; i >= 0; i-- {
			procs[i].stop()
		}
	}()

	redisAddr, err := freeAddr()
	if err != nil {
		return err
	}
	_, rp, _ := net.SplitHostPort(redisAddr)
	redisPort, _ := strconv.Atoi(rp)
	conf := filepath.Join(dir, "redis.conf")
	if err := os.WriteFile(conf, []byte(testinfra.RedisConfig(redisPort, dir, testinfra.RedisOptions{AppendOnly: true})), 0o644); err != nil {
		return err
	}
	rs, err := start("redis-server", dir, nil, testinfra.Program("redis-server"), conf)
	if err != nil {
		return err
	}
	procs = append(procs, rs)
	if err := waitReady(rs, redisAddr, func(c net.Conn) error {
		c.Write([]byte("PING\r\n"))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err == nil && !strings.HasPrefix(line, "+PONG") {
			err = fmt.Errorf("PING: %q", line)
		}
		return err
	}); err != nil {
		return err
	}

	exe, err := os.Executable()
	if err != nil {
		return err
	}
	key := make([]byte, 32)
	rand.Read(key)
	env := []string{"EVERYTHING_STATE_KEY=" + hex.EncodeToString(key)}
	var reps []testinfra.Replica
	for _, name := range []string{"r1", "r2", "r3"} {
		a, err := freeAddr()
		if err != nil {
			return err
		}
		args := []string{exe, "-replica", name, "-listen", a, "-redis", redisAddr}
		p, err := start(name, dir, env, args...)
		if err != nil {
			return err
		}
		procs = append(procs, p)
		if err := waitReady(p, a, nil); err != nil {
			return err
		}
		reps = append(reps, testinfra.Replica{Addr: a, Prefix: name + "."})
	}

	ndir := filepath.Join(dir, "nginx")
	os.MkdirAll(ndir, 0o755)
	testinfra.PrepareNginxDir(ndir)
	nconf := filepath.Join(ndir, "nginx.conf")
	if err := os.WriteFile(nconf, []byte(testinfra.NginxConfig(addr, testinfra.NginxOptions{Replicas: reps})), 0o644); err != nil {
		return err
	}
	ng, err := start("nginx", ndir, nil, append([]string{testinfra.Program("nginx")}, testinfra.NginxArgs(ndir, nconf)...)...)
	if err != nil {
		return err
	}
	procs = append(procs, ng)
	if err := waitReady(ng, addr, func(c net.Conn) error {
		fmt.Fprintf(c, "GET /nginx-health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
		line, err := bufio.NewReader(c).ReadString('\n')
		if err == nil && !strings.Contains(line, " 200 ") {
			err = fmt.Errorf("health: %q", line)
		}
		return err
	}); err != nil {
		b, _ := os.ReadFile(filepath.Join(ndir, "error.log"))
		return fmt.Errorf("%v\n%s", err, b)
	}
	log.Printf("everything-replicas: listening on http://%s/mcp (nginx; replicas %v; redis %s)", addr, reps, redisAddr)
	select {
	case <-ctx.Done():
		return nil
	case err := <-rs.done:
		return fmt.Errorf("redis-server exited: %v", err)
	case err := <-ng.done:
		return fmt.Errorf("nginx exited: %v", err)
	}
}
