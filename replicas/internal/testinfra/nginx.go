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

// NginxHTTPConfig is the http{} block of the tests' nginx.conf (and the
// one docs/replicas.md shows): requests without Mcp-Session-Id
// (2026-07-28, initialize) go round robin; a request naming a legacy
// session goes to the replica whose prefix begins the id, or, when that
// replica is down, to another, which answers 404 (the client starts a new
// session). tempDir holds nginx's temporary files.
func NginxHTTPConfig(listen string, tempDir string, opts NginxOptions) string {
	ft := opts.FailTimeout
	if ft <= 0 {
		ft = 2 * time.Second
	}
	fail := fmt.Sprintf("max_fails=1 fail_timeout=%ds", int(ft.Seconds()+0.5))
	var b strings.Builder
	b.WriteString("http {\n")
	b.WriteString(`    log_format mcp '$remote_addr "$request" $status upstream=$upstream_addr '
                   'session="$http_mcp_session_id" method="$http_mcp_method" rt=$request_time';
`)
	fmt.Fprintf(&b, "    access_log %s mcp;\n", filepath.Join(tempDir, "access.log"))
	for _, d := range []string{"client_body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		fmt.Fprintf(&b, "    %s_temp_path %s;\n", d, filepath.Join(tempDir, d))
	}
	b.WriteString(NginxUpstreams(opts.Replicas, fail))
	b.WriteString(`    server {
        listen ` + listen + `;
        client_max_body_size 4m;
        client_body_buffer_size 4m;
        location = /nginx-health {
            access_log off;
            return 200 "ok\n";
        }
        location / {
            proxy_pass http://$mcp_upstream;
            # HTTP/1.1 with keep-alive to the replicas.
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            # SSE: pass every event on at once, keep quiet streams open
            # (the runtime sends a comment line every 25s), no caching.
            proxy_buffering off;
            proxy_cache off;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
            proxy_connect_timeout 2s;
            # Failover: a replica that refuses the connection or answers
            # 502/503 is left out and the request goes to the next one. A
            # POST already sent is not sent again (nginx's default for
            # non-idempotent requests): the tool may have run.
            proxy_next_upstream error timeout http_502 http_503;
            proxy_next_upstream_tries 3;
            proxy_next_upstream_timeout 10s;
            add_header X-Upstream $upstream_addr always;
        }
    }
}
`)
	return b.String()
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

// NginxConfig is a whole nginx.conf: one process in the foreground
// (master_process off, so that killing it leaves nothing), its pid file,
// logs and temporary files in dir, and NginxHTTPConfig.
func NginxConfig(listen, dir string, opts NginxOptions) string {
	return fmt.Sprintf(`daemon off;
master_process off;
worker_processes 1;
pid %s;
error_log %s info;
events {
    worker_connections 1024;
}
%s`, filepath.Join(dir, "nginx.pid"), filepath.Join(dir, "error.log"), NginxHTTPConfig(listen, dir, opts))
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
	conf := NginxConfig(Addr(port), dir, opts)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	n := &Nginx{Port: port, Addr: Addr(port), URL: "http://" + Addr(port), Conf: path}
	n.Proc = StartProc(t, "nginx", dir, nil, bin, "-p", dir, "-c", path, "-e", filepath.Join(dir, "error.log"))
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
