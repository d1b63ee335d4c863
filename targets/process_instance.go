package targets

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"slices"
	"sync"
	"time"
)

// processInstance is one running process of a Process target.
type processInstance struct {
	lifecycle // done is closed once cmd.Wait returned
	cmd       *exec.Cmd
	stopGrace time.Duration
	killWait  time.Duration

	tree    *procTree // the processes of the instance; nil when treeErr
	treeErr error

	leftMu sync.Mutex
	left   []string // what Stop had to kill
}

var (
	_ Instance         = (*processInstance)(nil)
	_ ExposureChecker  = (*processInstance)(nil)
	_ LeftoverReporter = (*processInstance)(nil)
	_ LogCursor        = (*processInstance)(nil)
)

// launch starts cmd, its process to be found again by markers (see
// laneMarkers), and returns once it has started.
func (i *processInstance) launch(cmd *exec.Cmd, markers []string) error {
	i.cmd = cmd
	started := make(chan error, 1)
	go i.run(markers, started)
	return <-started
}

// run starts the process and waits for it, on a goroutine locked to its OS
// thread from before the start until the process has been reaped.
//
// The parent-death signal (setProcAttr) fires when the thread that started
// the process ends, not when the harness does (prctl(2); go.dev/issue/27505).
// Go ends a thread when a goroutine locked to it returns without
// unlocking, which any code in the harness may do, and an unlocked
// goroutine may be running on such a thread when it starts a process.
// Locked here, the thread runs nothing but this goroutine, which is blocked
// in Wait while the process runs, so the thread cannot end before the
// process does; it is unlocked, and given back to the runtime, once the
// process has been reaped and its signal no longer matters. This costs one
// thread per running process, which Wait's blocking system call costs
// anyway; a single spawning thread for all processes would need package
// state and a queue, and its thread would be just as busy.
func (i *processInstance) run(markers []string, started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := i.cmd.Start(); err != nil {
		started <- err
		return
	}
	// Read the start time before Wait can reap the process.
	i.tree, i.treeErr = newProcTree(i.cmd.Process.Pid, true, markers)
	started <- nil
	_ = i.cmd.Wait()
	close(i.done)
}

// exitStatus describes the exit; call it once done is closed.
func (i *processInstance) exitStatus() *ExitError {
	status, code := "unknown status", -1
	if st := i.cmd.ProcessState; st != nil {
		status, code = st.String(), st.ExitCode()
	}
	return exitErrorOf(status, code, i.logs)
}

// Exposed returns the addresses beyond loopback that the process or one of
// its descendants listens on; see ExposureChecker.
func (i *processInstance) Exposed(ctx context.Context) ([]string, error) {
	if i.stopped.Load() {
		return nil, fmt.Errorf("exposed %s: %w", i.name, ErrStopped)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("exposed %s: %w", i.name, err)
	}
	if i.treeErr != nil {
		return nil, fmt.Errorf("exposed %s: %w", i.name, i.treeErr)
	}
	addrs, err := i.tree.exposed()
	if err != nil {
		return addrs, fmt.Errorf("exposed %s: %w", i.name, err)
	}
	return addrs, nil
}

// Leftovers returns what Stop had to kill; see LeftoverReporter.
func (i *processInstance) Leftovers() []string {
	i.leftMu.Lock()
	defer i.leftMu.Unlock()
	return slices.Clone(i.left)
}

// stop ends the process group, then every process of the instance that
// outlived it, keeping those as leftovers. It returns an error only when
// a process could not be ended.
func (i *processInstance) stop(ctx context.Context) error {
	if i.tree == nil {
		return i.endGroup(ctx)
	}
	i.tree.remember() // before the root's death leaves its children to the harness
	err := i.endGroup(ctx)
	left, sweepErr := i.tree.sweep(i.killWait)
	i.leftMu.Lock()
	i.left = left
	i.leftMu.Unlock()
	if sweepErr != nil {
		sweepErr = fmt.Errorf("stop %s: %w", i.name, sweepErr)
	}
	return errors.Join(err, sweepErr)
}

// endGroup sends SIGTERM to the process group, waits up to the stop grace
// (or until ctx ends), then sends SIGKILL. It returns an error only when
// the process could not be ended.
func (i *processInstance) endGroup(ctx context.Context) error {
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
