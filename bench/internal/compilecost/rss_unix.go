//go:build unix

package compilecost

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS is the largest resident set of the process or of any
// descendant it waited for, which is what GNU time's %M reports: wait4's
// rusage of the go command counts the compile and link processes it ran.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes
	}
	return int64(ru.Maxrss) << 10 // KiB
}
