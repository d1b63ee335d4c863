package browsertest

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

func TestExecPathWithoutBrowser(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := ExecPath(); !errors.Is(err, ErrNoBrowser) {
		t.Errorf("ExecPath with an empty PATH: %v, want ErrNoBrowser", err)
	}
}

func TestProcStatReadsItself(t *testing.T) {
	state, pgid, ok := procStat(os.Getpid())
	if !ok {
		t.Skip("no /proc here")
	}
	if want := syscall.Getpgrp(); state == "" || pgid != want {
		t.Errorf("procStat(self) = %q, %d; want a state and process group %d", state, pgid, want)
	}
}
