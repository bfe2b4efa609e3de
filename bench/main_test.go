package bench

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestMain prints the load average before and after the run: the
// benchmarks time wall-clock time, so a busy machine shows in them, and
// cmd/table reports these lines. A process started by
// BenchmarkHostilePeakRSS runs its server instead.
func TestMain(m *testing.M) {
	if impl := os.Getenv(hostileServerEnv); impl != "" {
		// A server process of BenchmarkHostilePeakRSS.
		serveHostileProcess(impl)
		os.Exit(0)
	}
	loadavg("start")
	code := m.Run()
	loadavg("end")
	os.Exit(code)
}

func loadavg(when string) {
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("loadavg-%s: %s\n", when, strings.TrimSpace(string(b)))
	}
}
