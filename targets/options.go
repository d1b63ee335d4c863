package targets

import "time"

// ProcessOption configures a Process; see NewProcess.
type ProcessOption interface{ applyProcess(*processConfig) }

// URLOption configures a URL target; see NewURL.
type URLOption interface{ applyURL(*urlConfig) }

// InProcessOption configures an InProcess target; see NewInProcess.
type InProcessOption interface{ applyInProcess(*inProcessConfig) }

// ReadyTimeoutOption is an option of every driver; see WithReadyTimeout.
type ReadyTimeoutOption struct{ d time.Duration }

// WithReadyTimeout sets how long Start waits for GET /healthz to answer 200
// (default 10 s, as docs/protocol.md states). A value <= 0 keeps the default.
func WithReadyTimeout(d time.Duration) ReadyTimeoutOption {
	return ReadyTimeoutOption{d: d}
}

func (o ReadyTimeoutOption) applyProcess(c *processConfig) {
	if o.d > 0 {
		c.readyTimeout = o.d
	}
}

func (o ReadyTimeoutOption) applyURL(c *urlConfig) {
	if o.d > 0 {
		c.readyTimeout = o.d
	}
}

func (o ReadyTimeoutOption) applyInProcess(c *inProcessConfig) {
	if o.d > 0 {
		c.readyTimeout = o.d
	}
}

// WithHealth sets the path Start polls with GET until it answers 200, and
// Alive checks (default protocol.HealthPath); "" means that the address
// accepting a TCP connection is ready enough (a tool service without a
// health endpoint). It applies to Process and URL targets.
func WithHealth(path string) HealthOption { return HealthOption{path: path} }

// HealthOption is the option WithHealth returns.
type HealthOption struct{ path string }

func (o HealthOption) applyProcess(c *processConfig) { c.health = o.path }

func (o HealthOption) applyURL(c *urlConfig) { c.health = o.path }
