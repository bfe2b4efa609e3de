package wire

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts the server in a process group of its own (so that
// what it starts is stopped with it) that gets SIGKILL when mcpgen dies.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// signalGroup sends sig to the server's process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, sig)
	}
}
