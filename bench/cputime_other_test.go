//go:build !unix

package bench

// cpuNanos is not measured here; the cpu-ns/byte metric reads 0.
func cpuNanos() int64 { return 0 }
