package testinfra

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// RedisOptions configure StartRedis.
type RedisOptions struct {
	// AppendOnly turns on the append-only file (appendfsync everysec), so
	// that what was written survives a restart: what the notes recommend
	// for tasks, which must not be lost. Without it a restart empties
	// Redis.
	AppendOnly bool
	// MaxMemory is the maxmemory setting (with maxmemory-policy
	// noeviction: Redis refuses writes rather than dropping live tasks).
	// Zero means 64mb.
	MaxMemory string
	// ReplicaOf, if set, is the address of the primary this Redis
	// replicates (replicaof).
	ReplicaOf string
}

// Redis is a redis-server started for a test.
type Redis struct {
	*Proc
	Port int
	Addr string
	Dir  string
	Conf string
}

// program finds a program in PATH or in the sbin directories (nginx is in
// /usr/sbin, which is not in every PATH).
func program(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, d := range []string{"/usr/sbin", "/usr/bin", "/sbin"} {
		if p := filepath.Join(d, name); fileExists(p) {
			return p
		}
	}
	return name
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// RedisConfig is the redis.conf the tests use (and the notes show).
func RedisConfig(port int, dir string, opts RedisOptions) string {
	mem := opts.MaxMemory
	if mem == "" {
		mem = "64mb"
	}
	aof := "appendonly no\n"
	if opts.AppendOnly {
		aof = "appendonly yes\nappendfsync everysec\n"
	}
	if opts.ReplicaOf != "" {
		host, port, _ := net.SplitHostPort(opts.ReplicaOf)
		aof += "replicaof " + host + " " + port + "\n"
	}
	return fmt.Sprintf(`bind 127.0.0.1
port %d
protected-mode yes
daemonize no
supervised no
dir %s
pidfile %s
logfile ""
save ""
%smaxmemory %s
maxmemory-policy noeviction
tcp-keepalive 60
timeout 0
`, port, dir, filepath.Join(dir, "redis.pid"), aof, mem)
}

// StartRedis starts redis-server on a free port and waits until it
// answers PING.
func StartRedis(t testing.TB, opts RedisOptions) *Redis {
	t.Helper()
	Need(t, program("redis-server"))
	dir := t.TempDir()
	port := FreePort(t)
	conf := filepath.Join(dir, "redis.conf")
	if err := os.WriteFile(conf, []byte(RedisConfig(port, dir, opts)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &Redis{Port: port, Addr: Addr(port), Dir: dir, Conf: conf}
	r.Proc = StartProc(t, "redis", dir, nil, program("redis-server"), conf)
	if err := r.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	return r
}

// WaitReady waits until Redis answers PING with PONG (not LOADING).
func (r *Redis) WaitReady(timeout time.Duration) error {
	return r.WaitTCP(r.Addr, timeout, func(c net.Conn) error {
		if _, err := c.Write([]byte("PING\r\n")); err != nil {
			return err
		}
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			return err
		}
		if !strings.HasPrefix(line, "+PONG") {
			return fmt.Errorf("PING: %q", strings.TrimSpace(line))
		}
		return nil
	})
}

// Restart stops Redis gracefully (SIGTERM: it writes its append-only file
// out) and starts it again on the same port, then waits for it; down is
// how long it stays down.
func (r *Redis) Restart(t testing.TB, down time.Duration) {
	t.Helper()
	r.Stop(10 * time.Second)
	time.Sleep(down)
	if err := r.Start(); err != nil {
		t.Fatalf("testinfra: restart redis: %v", err)
	}
	if err := r.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
}

// Crash kills Redis with SIGKILL and starts it again after down.
func (r *Redis) Crash(t testing.TB, down time.Duration) {
	t.Helper()
	r.Kill9()
	time.Sleep(down)
	if err := r.Start(); err != nil {
		t.Fatalf("testinfra: restart redis: %v", err)
	}
	if err := r.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
}

// Sentinel is a redis-sentinel started for a test.
type Sentinel struct {
	*Proc
	Addr string
}

// SentinelConfig is the sentinel.conf the tests use (docs/replicas.md
// shows it): one sentinel watching the primary at primary under the name
// master, finding it down after downAfter.
func SentinelConfig(port int, dir, master, primary string, downAfter time.Duration) string {
	host, pport, _ := net.SplitHostPort(primary)
	return fmt.Sprintf(`bind 127.0.0.1
port %d
daemonize no
dir %s
logfile ""
sentinel monitor %s %s %s 1
sentinel down-after-milliseconds %s %d
sentinel failover-timeout %s 10000
sentinel parallel-syncs %s 1
`, port, dir, master, host, pport, master, downAfter.Milliseconds(), master, master)
}

// StartSentinel starts redis-sentinel on a free port watching primary as
// master, and waits until it answers PING.
func StartSentinel(t testing.TB, master string, primary *Redis, downAfter time.Duration) *Sentinel {
	t.Helper()
	bin := program("redis-sentinel")
	Need(t, bin)
	dir := t.TempDir()
	port := FreePort(t)
	conf := filepath.Join(dir, "sentinel.conf")
	if err := os.WriteFile(conf, []byte(SentinelConfig(port, dir, master, primary.Addr, downAfter)), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Sentinel{Addr: Addr(port)}
	s.Proc = StartProc(t, "sentinel", dir, nil, bin, conf)
	r := &Redis{Proc: s.Proc, Addr: s.Addr}
	if err := r.WaitReady(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	return s
}
