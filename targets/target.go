package targets

import "context"

// Target starts an adapter for one lane. Implementations are safe to Start
// more than once, each Start giving an independent Instance (one per lane).
type Target interface {
	// Start launches an instance wired to env and returns once it answers
	// GET /healthz with 200, or an error (wrapping ErrNotReady, or an
	// *ExitError when a process exited first) that names the target
	// ("start process ./my-adapter: ..."). The caller must call Stop on
	// the returned instance.
	Start(ctx context.Context, env Env) (Instance, error)
	// String names the target for reports, e.g. "in-process reference",
	// "process ./my-adapter --flag", "url http://127.0.0.1:8080".
	String() string
}

// Instance is one running adapter. The caller must call Stop when finished;
// Stop may be called more than once.
type Instance interface {
	// URL returns the base URL, e.g. http://127.0.0.1:43121, without a
	// trailing slash.
	URL() string
	// Alive returns nil when GET /healthz answers 200. When the adapter's
	// process has exited it returns an *ExitError with its status, the
	// line of its output that says why and its output; when the health
	// check failed otherwise, a *HealthError (what was asked, within how
	// long, what came), which an instance the harness runs says of a
	// process that still runs.
	Alive(ctx context.Context) error
	// Stop shuts the instance down within a bounded time, even when the
	// adapter does not cooperate.
	Stop(ctx context.Context) error
	// Logs returns a bounded tail (64 KiB) of what the adapter printed,
	// for evidence; "" where unknown.
	Logs() string
}

// LogCursor is an Instance whose output can be read from a mark: what the
// adapter printed during one case, for its evidence. Every instance the
// harness starts is one.
type LogCursor interface {
	// LogsSince returns what the adapter printed after it had printed
	// mark bytes (0: from its start), as far as the kept tail (64 KiB)
	// holds it, and the mark to pass next; a negative mark returns the
	// mark alone.
	LogsSince(mark int64) (string, int64)
}
