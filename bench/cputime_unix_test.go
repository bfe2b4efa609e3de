//go:build unix

package bench

import "syscall"

// cpuNanos returns the CPU time (user + system) the process has used, all
// threads together (the garbage collector's workers included).
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
