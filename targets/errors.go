package targets

import (
	"errors"
	"fmt"
)

// Sentinel errors a caller can branch on with errors.Is.
var (
	// ErrNotReady means the target did not answer GET /healthz with 200
	// before the ready timeout.
	ErrNotReady = errors.New("target not ready")
	// ErrStopped means the instance was used after Stop.
	ErrStopped = errors.New("target stopped")
	// ErrTimeout means a call to the target took longer than the client's
	// timeout or the caller's deadline. Errors that wrap it also wrap
	// context.DeadlineExceeded.
	ErrTimeout = errors.New("target timed out")
	// ErrConnection means no complete response was read: the connection
	// was refused, reset or closed early, or the response was not valid
	// HTTP. The Output returned with it holds whatever was read.
	ErrConnection = errors.New("target connection failed")
	// ErrEmptyCommand means a command line held no words.
	ErrEmptyCommand = errors.New("empty command")
	// ErrUnsupportedSyntax means a command line used shell syntax that
	// SplitCommand refuses: substitutions, variables, pipelines, lists,
	// redirections, assignments, tilde or brace expansion.
	ErrUnsupportedSyntax = errors.New("unsupported shell syntax")
)

// ExitError reports that a target process exited: before it became ready,
// or while the harness still needed it. Use errors.As to read it.
type ExitError struct {
	// Status is the process state as the OS reports it, e.g.
	// "exit status 3" or "signal: killed".
	Status string
	// ExitCode is the exit code, or -1 when a signal ended the process.
	ExitCode int
	// Tail is the end of what the process printed (at most errorTailBytes).
	Tail string
}

// Error returns the status and the output tail.
func (e *ExitError) Error() string {
	return fmt.Sprintf("target process exited: %s; %s", e.Status, describeTail(e.Tail))
}
