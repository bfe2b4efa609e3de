package testinfra

import (
	"os"
	"strings"
	"testing"
)

// TestDocsShowTheTestsConfig: docs/replicas.md shows the nginx and Redis
// configuration these tests run with.
func TestDocsShowTheTestsConfig(t *testing.T) {
	b, err := os.ReadFile("../../../docs/replicas.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	reps := []Replica{{"10.0.0.1:3001", "r1."}, {"10.0.0.2:3001", "r2."}, {"10.0.0.3:3001", "r3."}}
	if up := NginxUpstreams(reps, "max_fails=1 fail_timeout=2s"); !strings.Contains(doc, up) {
		t.Errorf("docs/replicas.md does not show the upstreams the tests use:\n%s", up)
	}
	conf := NginxHTTPConfig("127.0.0.1:8080", "/tmp", NginxOptions{Replicas: reps})
	loc := conf[strings.Index(conf, "        location / {"):]
	for _, line := range strings.Split(loc, "\n") {
		if strings.Contains(line, "X-Upstream") || strings.TrimSpace(line) == "" {
			continue // a header for the tests' assertions
		}
		if !strings.Contains(doc, line+"\n") {
			t.Errorf("docs/replicas.md lacks the line %q of the tests' nginx config", line)
		}
	}
	for _, line := range strings.Split(RedisConfig(6379, "/tmp", RedisOptions{AppendOnly: true}), "\n") {
		if strings.HasPrefix(line, "appendonly") || strings.HasPrefix(line, "maxmemory") || strings.HasPrefix(line, "save") || strings.HasPrefix(line, "bind") {
			if !strings.Contains(doc, line+"\n") {
				t.Errorf("docs/replicas.md lacks the Redis setting %q", line)
			}
		}
	}
}
