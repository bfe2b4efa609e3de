package testinfra

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/replicas/deploy"
)

// NginxOptions configure StartNginx.
type NginxOptions struct {
	// Replicas are the replicas behind nginx.
	Replicas []Replica
	// FailTimeout is how long a replica that failed is left out (nginx
	// fail_timeout, with max_fails=1). Zero means 2s.
	FailTimeout time.Duration
}

// Replica is one replica behind nginx: its address and the
// HTTPOptions.SessionIDPrefix it gives its sessions.
type Replica struct {
	Addr   string // host:port
	Prefix string // like "r1." (letters, digits and dots)
}

// Nginx is an nginx started for a test.
type Nginx struct {
	*Proc
	Port int
	Addr string
	URL  string // http://127.0.0.1:port
	Conf string
}

// NginxUpstreams is the part of the configuration that names the
// replicas: the round-robin group mcp, a group per replica (its server
// first, the others as backups), and the map from Mcp-Session-Id to the
// group that serves it (the variable $mcp_upstream).
func NginxUpstreams(replicas []Replica, fail string) string {
	var b strings.Builder
	b.WriteString("    upstream mcp {\n")
	for _, r := range replicas {
		fmt.Fprintf(&b, "        server %s %s;\n", r.Addr, fail)
	}
	b.WriteString("        keepalive 32;\n    }\n")
	for i, r := range replicas {
		fmt.Fprintf(&b, "    upstream mcp_%d {\n        server %s %s;\n", i+1, r.Addr, fail)
		for j, o := range replicas {
			if j != i {
				fmt.Fprintf(&b, "        server %s backup;\n", o.Addr)
			}
		}
		b.WriteString("        keepalive 8;\n    }\n")
	}
	b.WriteString("    map $http_mcp_session_id $mcp_upstream {\n        default mcp;\n")
	for i, r := range replicas {
		fmt.Fprintf(&b, "        ~^%s mcp_%d;\n", strings.ReplaceAll(r.Prefix, ".", `\.`), i+1)
	}
	b.WriteString("    }\n")
	return b.String()
}

// DocReplicas are the replicas deploy/nginx.conf names.
var DocReplicas = []Replica{{"10.0.0.1:3001", "r1."}, {"10.0.0.2:3001", "r2."}, {"10.0.0.3:3001", "r3."}}

// DocListen is where deploy/nginx.conf listens.
const DocListen = "127.0.0.1:8080"

// NginxConfig is the nginx.conf the tests run with: deploy/nginx.conf (the
// file docs/replicas.md shows) with the tests' replicas, fail_timeout and
// listen address in place of its own, and a header X-Upstream naming the
// replica that answered, for the tests' assertions. Its relative paths
// are under nginx's prefix (NginxArgs).
func NginxConfig(listen string, opts NginxOptions) string {
	ft := opts.FailTimeout
	if ft <= 0 {
		ft = 2 * time.Second
	}
	conf := deploy.NginxConf
	doc := NginxUpstreams(DocReplicas, "max_fails=1 fail_timeout=2s")
	if !strings.Contains(conf, doc) {
		panic("testinfra: deploy/nginx.conf does not name the replicas NginxUpstreams(DocReplicas) does")
	}
	fail := fmt.Sprintf("max_fails=1 fail_timeout=%ds", int(ft.Seconds()+0.5))
	conf = strings.Replace(conf, doc, NginxUpstreams(opts.Replicas, fail), 1)
	conf = strings.Replace(conf, "listen "+DocListen+";", "listen "+listen+";", 1)
	conf = strings.Replace(conf, "        location / {\n", "        location / {\n            add_header X-Upstream $upstream_addr always;\n", 1)
	return conf
}

// NginxArgs are nginx's arguments to run conf in the foreground as one
// process (so that killing it leaves nothing) with its prefix, and so its
// logs, pid file and temporary files, in dir.
func NginxArgs(dir, conf string) []string {
	return []string{"-p", dir, "-c", conf, "-e", filepath.Join(dir, "error.log"), "-g", "daemon off; master_process off;"}
}

// PrepareNginxDir makes the temporary directories nginx.conf names in dir,
// reachable by nginx's worker (another user when run as root).
func PrepareNginxDir(dir string) {
	os.Chmod(dir, 0o755)
	os.Chmod(filepath.Dir(dir), 0o755)
	for _, d := range []string{"client_body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		os.MkdirAll(filepath.Join(dir, d), 0o777)
	}
}

// Program finds a program in PATH or in the sbin directories.
func Program(name string) string { return program(name) }

// StartNginx starts nginx on a free port in front of opts.Upstreams and
// waits until it serves /nginx-health. It runs as one process in the
// foreground (master_process off), so that killing it leaves nothing.
func StartNginx(t testing.TB, opts NginxOptions) *Nginx {
	t.Helper()
	bin := program("nginx")
	Need(t, bin)
	dir := t.TempDir()
	PrepareNginxDir(dir)
	port := FreePort(t)
	conf := NginxConfig(Addr(port), opts)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	n := &Nginx{Port: port, Addr: Addr(port), URL: "http://" + Addr(port), Conf: path}
	n.Proc = StartProc(t, "nginx", dir, nil, append([]string{bin}, NginxArgs(dir, path)...)...)
	err := n.WaitTCP(n.Addr, 10*time.Second, func(c net.Conn) error {
		fmt.Fprintf(c, "GET /nginx-health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			return err
		}
		if !strings.Contains(line, " 200 ") {
			return fmt.Errorf("health: %q", strings.TrimSpace(line))
		}
		return nil
	})
	if err != nil {
		b, _ := os.ReadFile(filepath.Join(dir, "error.log"))
		t.Fatalf("%v\nerror.log:\n%s", err, b)
	}
	return n
}

// AccessLog returns nginx's access log.
func (n *Nginx) AccessLog() string {
	b, _ := os.ReadFile(filepath.Join(filepath.Dir(n.Conf), "access.log"))
	return string(b)
}
