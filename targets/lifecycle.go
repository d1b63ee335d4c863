package targets

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/toolcert/toolcert/protocol"
)

// lifecycle is what the instances that can exit on their own (a process, a
// container) share: where they answer, their output tail, the channel
// closed when they exit, and a Stop that runs once.
type lifecycle struct {
	name   string
	base   string
	health string // the health path, "" for a TCP probe
	logs   *tailBuffer
	probe  *http.Client
	done   chan struct{} // closed once the instance no longer runs

	exitError func() *ExitError // describes the exit once done is closed
	halt      func(ctx context.Context) error

	stopped  atomic.Bool
	stopOnce sync.Once
	stopErr  error
}

// newLifecycle returns the lifecycle of an instance named name at base;
// the driver sets exitError and halt before the instance is used.
func newLifecycle(name, base string) lifecycle {
	return lifecycle{name: name, base: base, health: protocol.HealthPath, logs: newTailBuffer(logTailBytes), probe: newProbeClient(), done: make(chan struct{})}
}

// URL returns the base URL.
func (l *lifecycle) URL() string { return l.base }

// Logs returns the tail of what the instance printed.
func (l *lifecycle) Logs() string { return l.logs.String() }

// LogsSince returns what the adapter printed after mark (LogCursor).
func (l *lifecycle) LogsSince(mark int64) (string, int64) { return l.logs.since(mark) }

// exited reports whether the instance has exited.
func (l *lifecycle) exited() bool { return closed(l.done) }

// Alive returns an *ExitError when the instance has exited, ErrStopped
// after Stop, or the health check's result.
func (l *lifecycle) Alive(ctx context.Context) error {
	return alive(ctx, l.name, l.stopped.Load(), l.done, l.exitError, l.probe, l.base, l.health)
}

// Stop ends the instance with the driver's halt, once; later calls return
// the first call's error.
func (l *lifecycle) Stop(ctx context.Context) error {
	l.stopOnce.Do(func() {
		l.stopped.Store(true)
		l.stopErr = l.halt(ctx)
		l.probe.CloseIdleConnections()
	})
	return l.stopErr
}
