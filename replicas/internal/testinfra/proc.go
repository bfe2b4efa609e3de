// Package testinfra starts the real parts the replica tests need,
// redis-server and nginx (Debian packages), and the replicas themselves,
// on 127.0.0.1 at free ports, with their configuration written to the
// test's temporary directory. Everything it starts is stopped by
// t.Cleanup, is killed if the test binary dies (PR_SET_PDEATHSIG), and is
// killed by a watchdog at the test's deadline (or after MaxLifetime), so
// nothing outlives a test run.
package testinfra

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// MaxLifetime bounds how long a process started here may run when the
// test has no deadline.
var MaxLifetime = 10 * time.Minute

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("testinfra: free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Proc is a process started for a test.
type Proc struct {
	Name string
	Log  string // path of the file with its stdout and stderr

	t    testing.TB
	argv []string
	env  []string
	dir  string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// StartProc starts argv[0] with argv[1:], env added to the environment,
// in dir, logging to a file in the test's temporary directory. It does
// not wait for readiness (see WaitTCP).
func StartProc(t testing.TB, name, dir string, env []string, argv ...string) *Proc {
	t.Helper()
	p := &Proc{Name: name, t: t, argv: argv, env: env, dir: dir}
	p.Log = filepath.Join(t.TempDir(), name+".log")
	if err := p.start(); err != nil {
		t.Fatalf("testinfra: start %s: %v", name, err)
	}
	t.Cleanup(func() { p.Stop(5 * time.Second) })
	return p
}

func (p *Proc) start() error {
	logf, err := os.OpenFile(p.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), p.env...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return err
	}
	done := make(chan struct{})
	p.mu.Lock()
	p.cmd, p.done, p.err = cmd, done, nil
	p.mu.Unlock()
	go func() {
		err := cmd.Wait()
		logf.Close()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(done)
	}()
	// The watchdog: a test that hangs does not leave the process behind.
	life := MaxLifetime
	if tt, ok := p.t.(*testing.T); ok {
		if d, ok := tt.Deadline(); ok {
			life = time.Until(d)
		}
	}
	go func() {
		select {
		case <-done:
		case <-time.After(life):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}()
	return nil
}

// Pid is the process id, or 0.
func (p *Proc) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// Running reports whether the process has not exited.
func (p *Proc) Running() bool {
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	select {
	case <-done:
		return false
	default:
		return true
	}
}

// Kill9 kills the process (and its process group) with SIGKILL and waits
// for it: the crash of a replica.
func (p *Proc) Kill9() {
	p.signal(syscall.SIGKILL, 10*time.Second)
}

// Stop asks the process to end (SIGTERM) and kills it after grace.
func (p *Proc) Stop(grace time.Duration) {
	if !p.signal(syscall.SIGTERM, grace) {
		p.signal(syscall.SIGKILL, 10*time.Second)
	}
}

// signal sends sig to the process group and reports whether the process
// ended within wait.
func (p *Proc) signal(sig syscall.Signal, wait time.Duration) bool {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil {
		return true
	}
	select {
	case <-done:
		return true
	default:
	}
	syscall.Kill(-cmd.Process.Pid, sig)
	select {
	case <-done:
		return true
	case <-time.After(wait):
		return false
	}
}

// Restart stops the process (SIGTERM, then SIGKILL) and starts it again
// with the same arguments.
func (p *Proc) Restart() error {
	p.Stop(5 * time.Second)
	return p.start()
}

// Start starts a stopped process again.
func (p *Proc) Start() error {
	if p.Running() {
		return fmt.Errorf("testinfra: %s is running", p.Name)
	}
	return p.start()
}

// Tail returns the last lines of the process's log, for failure messages.
func (p *Proc) Tail(n int) string {
	f, err := os.Open(p.Log)
	if err != nil {
		return ""
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	return strings.Join(lines, "\n")
}

// WaitTCP waits until addr accepts connections and check (if not nil)
// succeeds on a connection, or the process exits, or timeout passes.
func (p *Proc) WaitTCP(addr string, timeout time.Duration, check func(net.Conn) error) error {
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		if !p.Running() {
			return fmt.Errorf("testinfra: %s exited: %v\n%s", p.Name, p.err, p.Tail(20))
		}
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.SetDeadline(time.Now().Add(time.Second))
			if check != nil {
				err = check(c)
			}
			c.Close()
			if err == nil {
				return nil
			}
		}
		last = err
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("testinfra: %s not ready at %s after %v: %v\n%s", p.Name, addr, timeout, last, p.Tail(20))
}

// Addr formats 127.0.0.1:port.
func Addr(port int) string { return "127.0.0.1:" + strconv.Itoa(port) }

// Need fails the test unless every program is installed (.ci/run
// installs them with apt-get).
func Need(t testing.TB, programs ...string) {
	t.Helper()
	for _, prog := range programs {
		if _, err := exec.LookPath(prog); err != nil {
			t.Fatalf("testinfra: %s is not installed (apt-get update && apt-get install -y redis-server nginx)", prog)
		}
	}
}
