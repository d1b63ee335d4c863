package targets

import (
	"context"
	"fmt"
	"os/exec"
	"time"
)

// processInstance is one running process of a Process target.
type processInstance struct {
	lifecycle // done is closed once cmd.Wait returned
	cmd       *exec.Cmd
	stopGrace time.Duration
	killWait  time.Duration
}

var _ Instance = (*processInstance)(nil)

// wait reaps the process and closes done; cmd.ProcessState is set after.
func (i *processInstance) wait() {
	_ = i.cmd.Wait()
	close(i.done)
}

// exitStatus describes the exit; call it once done is closed.
func (i *processInstance) exitStatus() *ExitError {
	e := &ExitError{Status: "unknown status", ExitCode: -1, Tail: i.logs.last(errorTailBytes)}
	if st := i.cmd.ProcessState; st != nil {
		e.Status = st.String()
		e.ExitCode = st.ExitCode()
	}
	return e
}

// stop sends SIGTERM to the process group, waits up to the stop grace (or
// until ctx ends), then sends SIGKILL. It returns an error only when the
// process could not be ended.
func (i *processInstance) stop(ctx context.Context) error {
	pid := i.cmd.Process.Pid
	if !i.exited() {
		terminateGroup(i.cmd.Process)
		grace := time.NewTimer(i.stopGrace)
		defer grace.Stop()
		select {
		case <-i.done:
		case <-grace.C:
		case <-ctx.Done():
		}
	}
	// Kill the whole group, also when the leader is gone: children it left
	// behind hold its output pipes.
	killGroup(i.cmd.Process)
	killWait := time.NewTimer(i.killWait)
	defer killWait.Stop()
	select {
	case <-i.done:
		return nil
	case <-killWait.C:
		return fmt.Errorf("stop %s: process %d still running after SIGKILL", i.name, pid)
	}
}
