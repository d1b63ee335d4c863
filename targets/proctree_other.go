//go:build !linux

package targets

import (
	"errors"
	"fmt"
	"time"
)

// procTree stands for the processes of an instance where /proc is not
// read: nothing beyond the process group is found.
type procTree struct{}

// newProcTree returns a tree that finds nothing.
func newProcTree(int, bool, []string) (*procTree, error) { return &procTree{}, nil }

// becomeSubreaper does nothing: child subreapers are Linux's.
func becomeSubreaper() error { return nil }

// remember does nothing.
func (*procTree) remember() {}

// sweep finds nothing to kill.
func (*procTree) sweep(time.Duration) ([]string, error) { return nil, nil }

// exposed cannot say where the processes listen.
func (*procTree) exposed() ([]string, error) {
	return nil, fmt.Errorf("list listening sockets: %w", errors.ErrUnsupported)
}

// listening cannot say where the processes listen.
func (*procTree) listening() ([]listenAt, error) {
	return nil, fmt.Errorf("list listening sockets: %w", errors.ErrUnsupported)
}

// containerTree cannot find a container's processes here.
func containerTree(int, string) (*procTree, error) {
	return nil, fmt.Errorf("find the container's processes: %w", errors.ErrUnsupported)
}
