// Command toolcert certifies that an adapter between an upstream tool and an
// LLM agent lets nothing rejected reach the agent. Run `toolcert help`.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := interruptible(context.Background())
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// interruptible returns a context that the first SIGINT or SIGTERM ends,
// its cause an interruption naming the signal; the first signal stops the
// run cleanly, a second one ends toolcert at once (the signals go back to
// their default action). The caller must call stop when done.
func interruptible(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			signal.Stop(signals)
			cancel(interruption{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(signals)
		close(done)
		cancel(context.Canceled)
	}
}

// interruption is the cause of a run a signal ended. The signal's sender
// is not known: the kernel tells it to a handler installed with
// SA_SIGINFO (si_pid), but Go's runtime, which installs the handler,
// passes on the signal alone, and a signalfd needs the signal blocked in
// every thread, which Go never lets a program do for SIGINT and SIGTERM
// (they are never blocked on the threads it starts). Every process of
// toolcert's user may send it, an adapter run as a process included.
type interruption struct{ sig os.Signal }

func (i interruption) Error() string {
	name := i.sig.String()
	switch i.sig {
	case os.Interrupt:
		name = "SIGINT"
	case syscall.SIGTERM:
		name = "SIGTERM"
	}
	return fmt.Sprintf("%s received; toolcert cannot tell which process sent it: its operator, a CI runner's cancel, "+
		"or any process of its user, an adapter run as a process included", name)
}
