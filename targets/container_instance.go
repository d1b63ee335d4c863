package targets

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
	tc "github.com/testcontainers/testcontainers-go"
)

// signalWait bounds one call to the Docker engine that sends a signal.
const signalWait = 5 * time.Second

// containerInstance is one running container of a Container target.
type containerInstance struct {
	lifecycle  // done is closed once the container no longer runs
	ctr        *tc.DockerContainer
	cli        *tc.DockerClient
	stopGrace  time.Duration
	removeWait time.Duration
	logsWait   time.Duration

	watch    context.Context // ends wait and follow
	unwatch  context.CancelFunc
	logsDone chan struct{} // closed once the log stream ended
	exitCode int64         // set before done is closed
	waitErr  error         // set before done is closed
}

var (
	_ Instance        = (*containerInstance)(nil)
	_ ExposureChecker = (*containerInstance)(nil)
	_ LogCursor       = (*containerInstance)(nil)
)

func newContainerInstance(t *Container, cli *tc.DockerClient, ctr *tc.DockerContainer, base string) *containerInstance {
	watch, unwatch := context.WithCancel(context.Background())
	i := &containerInstance{
		lifecycle:  newLifecycle(t.String(), base),
		ctr:        ctr,
		cli:        cli,
		stopGrace:  t.cfg.stopGrace,
		removeWait: t.cfg.removeWait,
		logsWait:   t.cfg.logsWait,
		watch:      watch,
		unwatch:    unwatch,
		logsDone:   make(chan struct{}),
	}
	i.exitError, i.halt = i.exitStatus, i.stop
	return i
}

// shortID returns the container's ID as docker ps shows it.
func (i *containerInstance) shortID() string {
	id := i.ctr.GetContainerID()
	return id[:min(12, len(id))]
}

// wait waits for the container to stop running, records its exit code and
// closes done.
func (i *containerInstance) wait() {
	defer close(i.done)
	res := i.cli.ContainerWait(i.watch, i.ctr.GetContainerID(), client.ContainerWaitOptions{
		Condition: container.WaitConditionNotRunning,
	})
	select {
	case r := <-res.Result:
		i.exitCode = r.StatusCode
		if r.Error != nil && r.Error.Message != "" {
			i.waitErr = errors.New(r.Error.Message)
		}
	case err := <-res.Error:
		i.waitErr = err
	}
}

// follow copies the container's standard output and error into logs until
// the container ends or Stop.
func (i *containerInstance) follow() {
	defer close(i.logsDone)
	rc, err := i.cli.ContainerLogs(i.watch, i.ctr.GetContainerID(), client.ContainerLogsOptions{
		ShowStdout: true, ShowStderr: true, Follow: true,
	})
	if err != nil {
		fmt.Fprintf(i.logs, "[toolcert: cannot follow the container's logs: %v]\n", err)
		return
	}
	defer rc.Close()
	_, _ = stdcopy.StdCopy(i.logs, i.logs, rc)
}

// settleLogs waits, briefly, for the log stream of an ended container to
// deliver its last bytes.
func (i *containerInstance) settleLogs() { await(i.logsDone, i.logsWait) }

// await waits until ch is closed or d has passed.
func await(ch <-chan struct{}, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}

// exitStatus describes the exit; call it once done is closed.
func (i *containerInstance) exitStatus() *ExitError {
	i.settleLogs()
	status, code := fmt.Sprintf("exit status %d", i.exitCode), int(i.exitCode)
	if i.waitErr != nil {
		status, code = fmt.Sprintf("unknown status (container %s: %v)", i.shortID(), i.waitErr), -1
	}
	return exitErrorOf(status, code, i.logs)
}

// Exposed returns where the container's processes listen beyond loopback;
// see ExposureChecker. The container is on the host's network, so its
// listeners are the host's; its processes are found from its first one
// (the pid the engine reports), once /proc shows that this pid is the
// container's.
func (i *containerInstance) Exposed(ctx context.Context) ([]string, error) {
	tree, err := i.procs(ctx)
	if err != nil {
		return nil, fmt.Errorf("exposed %s: %w", i.name, err)
	}
	addrs, err := tree.exposed()
	if err != nil {
		return addrs, fmt.Errorf("exposed %s: %w", i.name, err)
	}
	return addrs, nil
}

// listenNote says where the container's processes listen when not at
// want, the address it was given in variable name (see listenNote); ""
// when that cannot be told.
func (i *containerInstance) listenNote(ctx context.Context, want, name string) string {
	tree, err := i.procs(ctx)
	if err != nil {
		return ""
	}
	return listenNote(tree, want, name)
}

// procs returns the tree of the container's processes on this host.
func (i *containerInstance) procs(ctx context.Context) (*procTree, error) {
	if i.stopped.Load() {
		return nil, ErrStopped
	}
	res, err := i.cli.ContainerInspect(ctx, i.ctr.GetContainerID(), client.ContainerInspectOptions{})
	if err != nil {
		return nil, fmt.Errorf("inspect container %s: %w", i.shortID(), err)
	}
	st := res.Container.State
	if st == nil || !st.Running || st.Pid <= 0 {
		return nil, fmt.Errorf("container %s is not running", i.shortID())
	}
	return containerTree(st.Pid, res.Container.ID)
}

// stop sends SIGTERM to the container, waits up to the stop grace (or
// until ctx ends), then kills and removes it, within a bounded time even
// when ctx is already done. It returns an error only when the container
// could not be removed.
func (i *containerInstance) stop(ctx context.Context) error {
	if !i.exited() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), signalWait)
		_, _ = i.cli.ContainerKill(sctx, i.ctr.GetContainerID(), client.ContainerKillOptions{Signal: "SIGTERM"})
		cancel()
		grace := time.NewTimer(i.stopGrace)
		defer grace.Stop()
		select {
		case <-i.done:
		case <-grace.C:
		case <-ctx.Done():
		}
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), i.removeWait)
	defer cancel()
	err := i.ctr.Terminate(rctx, tc.StopTimeout(0))
	i.settleLogs()
	i.unwatch()
	await(i.done, i.logsWait) // wait returns once its request is cancelled
	_ = i.cli.Close()
	if err != nil {
		return fmt.Errorf("stop %s: remove container %s: %w", i.name, i.shortID(), err)
	}
	return nil
}
