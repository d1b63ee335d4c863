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
