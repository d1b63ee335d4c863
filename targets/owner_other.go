//go:build !linux

package targets

import (
	"errors"
	"os"
	"runtime"
	"syscall"
)

// processStart returns "": start times are read from /proc.
func processStart(int) string { return "" }

// pidSpace names this host; "" when it has no name.
func pidSpace() string {
	if host, _ := os.Hostname(); host != "" {
		return runtime.GOOS + " " + host
	}
	return ""
}

// processRuns reports whether process pid runs; start is not checked.
func processRuns(pid int, _ string) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	defer p.Release()
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}
