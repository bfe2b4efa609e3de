//go:build !linux

package interop

import "syscall"

// procAttr has nothing to add where Pdeathsig does not exist; the servers
// are still killed when their test's context ends.
func procAttr() *syscall.SysProcAttr { return nil }
