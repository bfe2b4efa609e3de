package interop

import "syscall"

// procAttr makes a server process get SIGKILL when the test process dies,
// so that no server outlives an interrupted test run.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
