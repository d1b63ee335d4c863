package pipeline

import (
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// Version is the adapter_version of the reference adapter's audit events.
const Version = "reference/0.1.0"

// Config is everything the reference adapter needs to run. Start from
// [DefaultConfig] or [ConfigFromEnv]; a zero field takes its default in
// [New], except UpstreamURL, which is required.
type Config struct {
	// UpstreamURL is the base URL of the upstream (protocol.VarUpstreamURL).
	UpstreamURL string
	// Listen is the host:port Serve listens on (TOOLCERT_LISTEN).
	Listen string
	// AuditFile is the path of the audit log, appended; "" writes the
	// events to standard error (TOOLCERT_AUDIT_FILE).
	AuditFile string
	// PolicyFile is the authorization policy (TOOLCERT_POLICY_FILE), loaded
	// by [New]; see [gate.ParsePolicy]. Without it (and without Policy) the
	// four read tools are allowed to any caller and the call-side tools are
	// denied.
	PolicyFile string
	// Policy, when not nil, is used instead of PolicyFile.
	Policy *gate.Policy
	// Limits bounds one upstream body in bytes and JSON depth
	// (TOOLCERT_MAX_BYTES, TOOLCERT_MAX_DEPTH).
	Limits gate.Limits
	// MaxAttempts is the number of upstream attempts per agent call,
	// retries included (TOOLCERT_MAX_ATTEMPTS).
	MaxAttempts int
	// Deadline is the time budget of one agent call's upstream work
	// (TOOLCERT_DEADLINE).
	Deadline time.Duration
	// ReadTimeout is the longest silence while reading headers or body
	// (TOOLCERT_READ_TIMEOUT).
	ReadTimeout time.Duration
	// Freshness is the oldest acceptable observed_at (TOOLCERT_FRESHNESS).
	Freshness time.Duration
	// FutureSkew is how far in the future observed_at may be
	// (TOOLCERT_FUTURE_SKEW).
	FutureSkew time.Duration
	// Version is the adapter_version of the audit events.
	Version string
	// Now returns the current time; tests pin it.
	Now func() time.Time
}

// DefaultConfig returns the defaults of docs/protocol.md, listening on
// 127.0.0.1:8080, with no upstream URL.
func DefaultConfig() Config {
	return Config{
		Listen:      "127.0.0.1:8080",
		Limits:      gate.DefaultLimits(),
		MaxAttempts: protocol.DefaultMaxAttempts,
		Deadline:    protocol.DefaultDeadline,
		ReadTimeout: protocol.DefaultReadTimeout,
		Freshness:   protocol.DefaultFreshness,
		FutureSkew:  protocol.DefaultFutureSkew,
		Version:     Version,
		Now:         time.Now,
	}
}

// ErrNoUpstream is returned by [New] when Config.UpstreamURL is empty.
var ErrNoUpstream = errors.New("upstream url is required")

// ErrNegative is returned by [New] when a limit, count or duration of the
// Config is negative.
var ErrNegative = errors.New("config limits, counts and durations must not be negative")

// withDefaults fills every zero field from DefaultConfig and checks the
// result.
func (c Config) withDefaults() (Config, error) {
	d := DefaultConfig()
	c.Limits.MaxBytes = cmp.Or(c.Limits.MaxBytes, d.Limits.MaxBytes)
	c.Limits.MaxDepth = cmp.Or(c.Limits.MaxDepth, d.Limits.MaxDepth)
	c.Listen = cmp.Or(c.Listen, d.Listen)
	c.MaxAttempts = cmp.Or(c.MaxAttempts, d.MaxAttempts)
	c.Deadline = cmp.Or(c.Deadline, d.Deadline)
	c.ReadTimeout = cmp.Or(c.ReadTimeout, d.ReadTimeout)
	c.Freshness = cmp.Or(c.Freshness, d.Freshness)
	c.FutureSkew = cmp.Or(c.FutureSkew, d.FutureSkew)
	c.Version = cmp.Or(c.Version, d.Version)
	if c.Now == nil {
		c.Now = d.Now
	}
	if c.Limits.MaxBytes < 0 || c.Limits.MaxDepth < 0 || c.MaxAttempts < 0 ||
		c.Deadline < 0 || c.ReadTimeout < 0 || c.Freshness < 0 || c.FutureSkew < 0 {
		return c, ErrNegative
	}
	if c.UpstreamURL == "" {
		return c, ErrNoUpstream
	}
	u, err := url.Parse(c.UpstreamURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return c, fmt.Errorf("upstream url %q: want http(s)://host[:port][/path]", c.UpstreamURL)
	}
	return c, nil
}
