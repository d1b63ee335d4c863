package reference

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// ConfigFromEnv returns DefaultConfig changed by the TOOLCERT_* variables of
// docs/protocol.md that getenv returns non-empty (pass os.Getenv). Every
// malformed variable is reported, e.g. `TOOLCERT_MAX_BYTES: want a positive
// integer, got "x"`.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := DefaultConfig()
	e := envReader{getenv: getenv}
	e.str("TOOLCERT_UPSTREAM_URL", &c.UpstreamURL)
	e.str("TOOLCERT_LISTEN", &c.Listen)
	e.str("TOOLCERT_AUDIT_FILE", &c.AuditFile)
	e.str("TOOLCERT_POLICY_FILE", &c.PolicyFile)
	if n, ok := e.positive("TOOLCERT_MAX_BYTES"); ok {
		c.Limits.MaxBytes = n
	}
	if n, ok := e.positive("TOOLCERT_MAX_DEPTH"); ok {
		c.Limits.MaxDepth = int(n)
	}
	if n, ok := e.positive("TOOLCERT_MAX_ATTEMPTS"); ok {
		c.MaxAttempts = int(n)
	}
	e.duration("TOOLCERT_DEADLINE", &c.Deadline)
	e.duration("TOOLCERT_READ_TIMEOUT", &c.ReadTimeout)
	e.duration("TOOLCERT_FRESHNESS", &c.Freshness)
	e.duration("TOOLCERT_FUTURE_SKEW", &c.FutureSkew)
	if err := errors.Join(e.errs...); err != nil {
		return c, fmt.Errorf("config from environment: %w", err)
	}
	return c, nil
}

// envReader reads variables and collects their errors.
type envReader struct {
	getenv func(string) string
	errs   []error
}

// str sets *dst to the variable when it is set.
func (e *envReader) str(name string, dst *string) {
	if v := e.getenv(name); v != "" {
		*dst = v
	}
}

// positive parses the variable as a positive integer that fits an int32.
func (e *envReader) positive(name string) (int64, bool) {
	v := e.getenv(name)
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil || n <= 0 {
		e.errs = append(e.errs, fmt.Errorf("%s: want a positive integer, got %q", name, v))
		return 0, false
	}
	return n, true
}

// duration parses the variable as a positive Go duration ("400ms", "2s").
func (e *envReader) duration(name string, dst *time.Duration) {
	v := e.getenv(name)
	if v == "" {
		return
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		e.errs = append(e.errs, fmt.Errorf("%s: want a positive duration such as 400ms or 2s, got %q", name, v))
		return
	}
	*dst = d
}
