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
// -replica, it is one replica (the launcher starts itself so).
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
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
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
	watch := flag.Bool("watch", false, "the replica publishes the watched resource's updates (one replica does)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if *replica != "" {
		err = runReplica(ctx, *replica, *listen, *redisAddr, *watch)
	} else {
		err = runCluster(ctx, *addr)
	}
	if err != nil {
		log.Fatal(err)
	}
}

// runReplica serves examples/everything-server with its tasks and
// notifications in Redis until ctx ends.
func runReplica(ctx context.Context, name, addr, redisAddr string, watch bool) error {
	logger := log.New(os.Stderr, "everything-server "+name+": ", log.LstdFlags|log.Lmicroseconds)
	key, err := hex.DecodeString(os.Getenv("EVERYTHING_STATE_KEY"))
	if err != nil || len(key) < 16 {
		return errors.New("EVERYTHING_STATE_KEY must be the requestState key the replicas share, in hex")
	}
	rdb := redis.NewClient(replicas.ClientOptions(redisAddr))
	defer rdb.Close()
	s := newServer(logger.Printf)
	s.tasks = mcp.NewTaskStore(mcp.TaskStoreOptions{TTL: time.Hour, PollInterval: 500 * time.Millisecond,
		Shared: replicas.NewTasks(rdb, replicas.Options{}), Replica: name, Lease: 3 * time.Second})
	opts := s.options()
	opts.RequestStateKeys = [][]byte{key}
	d := mcp.NewServerDispatcher(s, opts)

	// What the hub publishes goes on the bus; what the bus carries, from
	// any replica, the hub delivers here.
	bus := replicas.NewBus(rdb, replicas.Options{})
	defer bus.Close()
	ch, err := bus.Subscribe(ctx)
	if err != nil {
		return err
	}
	// The method names the change (the list of the tool or prompt that
	// comes and goes, which every replica adds or removes as on says, or
	// the update of the resource whose uri the params carry).
	s.hub.forward = func(e event) {
		params, _ := json.Marshal(busEvent{URI: e.uri, On: e.on})
		if err := bus.Publish(context.Background(), protocol.BusMessage{Method: e.method, Params: params}); err != nil {
			logger.Printf("publish %s: %v", e.method, err)
		}
	}
	go func() {
		for m := range ch {
			if m.Gap {
				continue // a list change says what the set becomes, an update is a hint: the next one will do
			}
			var p busEvent
			if m.Params != nil {
				json.Unmarshal(m.Params, &p)
			}
			s.hub.deliver(event{method: m.Method, uri: p.URI, on: p.On})
		}
	}()
	if watch {
		go s.watch(ctx)
	}

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
	for i, name := range []string{"r1", "r2", "r3"} {
		a, err := freeAddr()
		if err != nil {
			return err
		}
		args := []string{exe, "-replica", name, "-listen", a, "-redis", redisAddr}
		if i == 0 {
			args = append(args, "-watch")
		}
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
	if err := os.WriteFile(nconf, []byte(testinfra.NginxConfig(addr, ndir, testinfra.NginxOptions{Replicas: reps})), 0o644); err != nil {
		return err
	}
	ng, err := start("nginx", ndir, nil, testinfra.Program("nginx"), "-p", ndir, "-c", nconf, "-e", filepath.Join(ndir, "error.log"))
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
