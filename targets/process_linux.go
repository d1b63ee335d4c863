package targets

import (
	"os/exec"
	"syscall"
)

// setProcAttr makes the command lead its own process group, so that Stop
// reaches the processes it starts too, and die with the harness: the
// kernel sends it SIGKILL when its parent dies (Pdeathsig), also when the
// harness is killed with SIGKILL and runs no code of its own. The "parent"
// is the thread that started it; processInstance.run keeps that thread for
// as long as the process runs. The processes it starts do not inherit the
// signal: the next harness kills them (sweepOrphans).
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
