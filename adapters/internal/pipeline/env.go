package pipeline

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// ConfigFromEnv returns DefaultConfig changed by the TOOLCERT_* variables of
// docs/protocol.md that getenv returns non-empty (pass os.Getenv). Every
// malformed variable is reported, e.g. `TOOLCERT_MAX_BYTES: want a positive
// integer, got "x"`.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := DefaultConfig()
	e := envReader{getenv: getenv}
	e.str(protocol.VarUpstreamURL, &c.UpstreamURL)
	e.str(protocol.VarListen, &c.Listen)
	e.str(protocol.VarAuditFile, &c.AuditFile)
	e.str(protocol.VarPolicyFile, &c.PolicyFile)
	if n, ok := e.positive(protocol.VarMaxBytes); ok {
		c.Limits.MaxBytes = n
	}
	if n, ok := e.positive(protocol.VarMaxDepth); ok {
		c.Limits.MaxDepth = int(n)
	}
	if n, ok := e.positive(protocol.VarMaxAttempts); ok {
		c.MaxAttempts = int(n)
	}
	e.duration(protocol.VarDeadline, &c.Deadline)
	e.duration(protocol.VarReadTimeout, &c.ReadTimeout)
	e.duration(protocol.VarFreshness, &c.Freshness)
	e.duration(protocol.VarFutureSkew, &c.FutureSkew)
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
