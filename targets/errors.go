package targets

import (
	"errors"
	"fmt"
	"time"
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
	// Cause is the line of the output that says why it exited
	// (FailureLine of all the output kept); "" when no line does. It is
	// the adapter's text.
	Cause string
	// Head is the start of what the process printed (its first lines, at
	// most errorHeadBytes) when Tail does not hold it; "" otherwise.
	Head string
	// Tail is the end of what the process printed (at most errorTailBytes).
	Tail string
}

// Error returns, on its first line, the status and the line of the output
// that says why (Cause, or else the output's last line); then the
// output's first lines and its tail.
func (e *ExitError) Error() string {
	msg := "target process exited (" + e.Status + ")"
	switch last := lastLine(e.Tail); {
	case e.Tail == "":
		return msg + "; it printed nothing"
	case e.Cause != "":
		msg += "; it printed: " + e.Cause
	case last != "":
		msg += "; its last line: " + last
	}
	return msg + "\n" + describeOutput(e.Head, e.Tail)
}

// exitErrorOf returns the ExitError of a process that exited with status
// and code, having printed what logs kept.
func exitErrorOf(status string, code int, logs *tailBuffer) *ExitError {
	head := logs.first()
	return &ExitError{Status: status, ExitCode: code, Cause: FailureLine(head + "\n" + logs.String()),
		Head: head, Tail: logs.last(errorTailBytes)}
}

// HealthError reports that an instance failed a health check: it gave no
// 200 to GET URL (or, for a TCP probe, accepted no connection at URL)
// within Within. It says nothing of whether the instance still runs: the
// error that wraps it does. Use errors.As to read it.
type HealthError struct {
	// URL is what was probed: the health endpoint, or the address of a
	// TCP probe.
	URL string
	// TCP reports a TCP probe: a connection was all that was asked.
	TCP bool
	// Within is how long the probe waited at most.
	Within time.Duration
	// Status is the status of the answer that was not 200, e.g. "503
	// Service Unavailable"; "" when no answer came.
	Status string
	// Err is why no answer came; nil when one came.
	Err error
}

// Error says what the probe asked, for how long, and what it got.
func (e *HealthError) Error() string {
	if e.TCP {
		return fmt.Sprintf("accepted no TCP connection at %s within %s: %v", e.URL, e.Within, e.Err)
	}
	return fmt.Sprintf("gave no 200 to GET %s within %s: %s", e.URL, e.Within, e.Reason())
}

// Reason says what the probe got: "it answered 503 Service Unavailable",
// or why no answer came.
func (e *HealthError) Reason() string {
	if e.Status != "" {
		return "it answered " + e.Status
	}
	if e.Err == nil {
		return "no answer"
	}
	return e.Err.Error()
}

// Unwrap returns Err.
func (e *HealthError) Unwrap() error { return e.Err }
