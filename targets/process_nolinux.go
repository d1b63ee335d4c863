//go:build unix && !linux

package targets

import (
	"os/exec"
	"syscall"
)

// setProcAttr makes the command lead its own process group, so that Stop
// reaches the processes it starts too. There is no parent-death signal
// here: a process outlives a harness killed with SIGKILL.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
