package testinfra

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/replicas/deploy"
)

// TestDocsShowTheTestsConfig: docs/replicas.md shows deploy/nginx.conf
// whole, the file the tests run nginx with, and the Redis and Sentinel
// settings they use.
func TestDocsShowTheTestsConfig(t *testing.T) {
	b, err := os.ReadFile("../../../docs/replicas.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if !strings.Contains(doc, "```nginx\n"+deploy.NginxConf+"```\n") {
		t.Error("docs/replicas.md does not show replicas/deploy/nginx.conf whole (in a ```nginx block)")
	}
	// The tests' config is the file with their addresses.
	conf := NginxConfig(DocListen, NginxOptions{Replicas: DocReplicas})
	if want := strings.Replace(deploy.NginxConf, "        location / {\n", "        location / {\n            add_header X-Upstream $upstream_addr always;\n", 1); conf != want {
		t.Errorf("NginxConfig with the documented replicas is not deploy/nginx.conf:\n%s", conf)
	}
	for _, line := range strings.Split(RedisConfig(6379, "/tmp", RedisOptions{AppendOnly: true}), "\n") {
		if strings.HasPrefix(line, "appendonly") || strings.HasPrefix(line, "maxmemory") || strings.HasPrefix(line, "save") || strings.HasPrefix(line, "bind") {
			if !strings.Contains(doc, line+"\n") {
				t.Errorf("docs/replicas.md lacks the Redis setting %q", line)
			}
		}
	}
	for _, line := range strings.Split(SentinelConfig(26379, "/var/lib/redis", "mcp", "10.0.0.5:6379", 5000e6), "\n") {
		if strings.HasPrefix(line, "sentinel ") && !strings.Contains(doc, line+"\n") {
			t.Errorf("docs/replicas.md lacks the Sentinel setting %q", line)
		}
	}
}

// TestNginxConfValid: nginx -t passes on deploy/nginx.conf as it is, and
// on the tests' version of it.
func TestNginxConfValid(t *testing.T) {
	bin := program("nginx")
	Need(t, bin)
	for name, conf := range map[string]string{
		"deploy/nginx.conf": deploy.NginxConf,
		"the tests'":        NginxConfig("127.0.0.1:8081", NginxOptions{Replicas: []Replica{{"127.0.0.1:3001", "a."}, {"127.0.0.1:3002", "b."}}}),
	} {
		dir := t.TempDir()
		PrepareNginxDir(dir)
		path := filepath.Join(dir, "nginx.conf")
		if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "-t", "-p", dir, "-c", path, "-e", filepath.Join(dir, "error.log")).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "test is successful") {
			t.Errorf("nginx -t on %s: %v\n%s", name, err, out)
		}
	}
}
