//go:build unix

package targets

import (
	"os"
	"syscall"
)

// terminateGroup sends SIGTERM to the process group led by p.
func terminateGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGTERM)
}

// killGroup sends SIGKILL to the process group led by p, and to p itself.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
