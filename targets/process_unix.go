//go:build unix

package targets

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup makes the command lead its own process group, so that Stop
// reaches the processes it starts too.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminateGroup sends SIGTERM to the process group led by p.
func terminateGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGTERM)
}

// killGroup sends SIGKILL to the process group led by p, and to p itself.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
