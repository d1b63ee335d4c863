package reference

import (
	"github.com/toolcert/toolcert/adapters/internal/pipeline"
)

// Version is the adapter_version of the reference adapter's audit events.
const Version = pipeline.Version

// Config is everything the reference adapter needs to run: UpstreamURL,
// Listen, AuditFile, PolicyFile (or a parsed Policy), Limits, MaxAttempts,
// Deadline, ReadTimeout, Freshness and FutureSkew, which [ConfigFromEnv]
// reads from their TOOLCERT_* variables, and the audit events' Version and
// the clock Now (`go doc ./adapters/internal/pipeline Config` documents each
// field). Start from [DefaultConfig] or [ConfigFromEnv]; a zero field takes
// its default in [New], except UpstreamURL, which is required.
type Config = pipeline.Config

// DefaultConfig returns the defaults of docs/protocol.md, listening on
// 127.0.0.1:8080, with no upstream URL.
func DefaultConfig() Config { return pipeline.DefaultConfig() }

// ConfigFromEnv returns DefaultConfig changed by the TOOLCERT_* variables of
// docs/protocol.md that getenv returns non-empty (pass os.Getenv). Every
// malformed variable is reported, e.g. `TOOLCERT_MAX_BYTES: want a positive
// integer, got "x"`.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	return pipeline.ConfigFromEnv(getenv)
}

// ErrNoUpstream is returned by [New] when Config.UpstreamURL is empty.
var ErrNoUpstream = pipeline.ErrNoUpstream

// ErrNegative is returned by [New] when a limit, count or duration of the
// Config is negative.
var ErrNegative = pipeline.ErrNegative
