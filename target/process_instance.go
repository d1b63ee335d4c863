package target

import (
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// processInstance is one running process of a Process target.
type processInstance struct {
	cmd       *exec.Cmd
	name      string
	base      string
	logs      *tailBuffer
	probe     *http.Client
	stopGrace time.Duration
	killWait  time.Duration

	done    chan struct{} // closed once cmd.Wait returned
	stopped atomic.Bool

	stopOnce sync.Once
	stopErr  error
}

var _ Instance = (*processInstance)(nil)

// wait reaps the process and closes done; cmd.ProcessState is set after.
func (i *processInstance) wait() {
	_ = i.cmd.Wait()
	close(i.done)
}

// exited reports whether the process has exited.
func (i *processInstance) exited() bool {
	select {
	case <-i.done:
		return true
	default:
		return false
	}
}

// exitError describes the exit; call it once done is closed.
func (i *processInstance) exitError() *ExitError {
	e := &ExitError{Status: "unknown status", ExitCode: -1, Tail: i.logs.last(errorTailBytes)}
	if st := i.cmd.ProcessState; st != nil {
		e.Status = st.String()
		e.ExitCode = st.ExitCode()
	}
	return e
}

// URL returns the base URL.
func (i *processInstance) URL() string { return i.base }

// Logs returns the tail of the process's standard output and error.
func (i *processInstance) Logs() string { return i.logs.String() }

// Alive returns an *ExitError when the process has exited, ErrStopped after
// Stop, or the health check's result.
func (i *processInstance) Alive(ctx context.Context) error {
	return alive(ctx, i.name, i.stopped.Load(), i.done, i.exitError, i.probe, i.base)
}

// Stop sends SIGTERM to the process group, waits up to the stop grace (or
// until ctx ends), then sends SIGKILL. It returns an error only when the
// process could not be ended.
func (i *processInstance) Stop(ctx context.Context) error {
	i.stopOnce.Do(func() {
		i.stopped.Store(true)
		i.stopErr = i.stop(ctx)
		i.probe.CloseIdleConnections()
	})
	return i.stopErr
}

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
