//go:build !unix

package targets

import (
	"os"
	"os/exec"
)

// setProcAttr does nothing where process groups are not available.
func setProcAttr(*exec.Cmd) {}

// terminateGroup kills p: there is no SIGTERM here.
func terminateGroup(p *os.Process) { _ = p.Kill() }

// killGroup kills p.
func killGroup(p *os.Process) { _ = p.Kill() }
