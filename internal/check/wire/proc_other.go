//go:build !linux

package wire

import (
	"os"
	"os/exec"
	"syscall"
)

func setProcAttr(*exec.Cmd) {}

// signalGroup signals the server process (SIGTERM where the system has
// it, else a kill).
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	if sig == syscall.SIGKILL || cmd.Process.Signal(os.Signal(sig)) != nil {
		_ = cmd.Process.Kill()
	}
}
