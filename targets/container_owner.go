package targets

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
	tc "github.com/testcontainers/testcontainers-go"
)

// The labels every container the harness starts carries: which harness
// process started it, so that a later harness can remove it once that
// process is gone (docker ps --filter label=dev.toolcert.pid lists them).
const (
	// labelRun is a random ID of the harness process, the same on every
	// container it starts.
	labelRun = "dev.toolcert.run"
	// labelPid is the harness's pid.
	labelPid = "dev.toolcert.pid"
	// labelPidStart is the start time of that process, so that another
	// process that later got its pid is not taken for it ("" where
	// unknown).
	labelPidStart = "dev.toolcert.pid-start"
	// labelPidSpace names where that pid means something: the boot and the
	// pid namespace of the harness on Linux, the host's name elsewhere.
	// Containers of another space (a harness on another host sharing the
	// engine, or in another container) are never judged, nor any when
	// this space is unknown ("").
	labelPidSpace = "dev.toolcert.pid-space"
)

// containerLabels returns the labels of the containers of o.
func containerLabels(o owner) map[string]string {
	return map[string]string{
		labelRun:      o.run,
		labelPid:      strconv.Itoa(o.pid),
		labelPidStart: o.start,
		labelPidSpace: o.space,
	}
}

// labelledOwner returns the owner that the labels of a container name; its
// pid is 0 when they name none.
func labelledOwner(labels map[string]string) owner {
	pid, _ := strconv.Atoi(labels[labelPid])
	return owner{run: labels[labelRun], pid: pid, start: labels[labelPidStart], space: labels[labelPidSpace]}
}

// removeOrphans removes the containers that a harness process of this pid
// space, no longer running, started and left: a harness killed with
// SIGKILL runs no code to remove them, and nothing else does when Ryuk is
// disabled. Containers of a process still running, or of another pid
// space, are left alone. It returns the IDs it removed; a container that
// another harness removes meanwhile is not an error.
func removeOrphans(ctx context.Context, cli *tc.DockerClient) ([]string, error) {
	space := harnessOwner().space
	if space == "" {
		return nil, nil // whose pids these are cannot be told
	}
	list, err := cli.ContainerList(ctx, client.ContainerListOptions{
		All: true, Filters: make(client.Filters).Add("label", labelPidSpace+"="+space),
	})
	if err != nil {
		return nil, fmt.Errorf("list containers of earlier runs: %w", err)
	}
	var removed []string
	var errs []error
	for _, c := range list.Items {
		left := labelledOwner(c.Labels)
		if !left.gone(space) {
			continue
		}
		_, err := cli.ContainerRemove(ctx, c.ID, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
		switch {
		case err == nil:
			removed = append(removed, c.ID)
		case !cerrdefs.IsNotFound(err) && !cerrdefs.IsConflict(err):
			errs = append(errs, fmt.Errorf("remove container %.12s left by process %d: %w", c.ID, left.pid, err))
		}
	}
	return removed, errors.Join(errs...)
}
