package gate

import (
	"context"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// FetchOption changes one setting of a [Fetcher].
type FetchOption func(*fetchSettings)

// fetchSettings holds every setting of a Fetcher; defaults are in
// defaultFetchSettings.
type fetchSettings struct {
	maxBytes      int64
	maxAttempts   int
	deadline      time.Duration
	readTimeout   time.Duration
	headerTimeout time.Duration
	backoff       time.Duration
	maxBackoff    time.Duration
}

// defaultFetchSettings returns the defaults of docs/protocol.md.
func defaultFetchSettings() fetchSettings {
	return fetchSettings{
		maxBytes:    protocol.DefaultMaxBytes,
		maxAttempts: protocol.DefaultMaxAttempts,
		deadline:    protocol.DefaultDeadline,
		readTimeout: protocol.DefaultReadTimeout,
		backoff:     25 * time.Millisecond,
		maxBackoff:  time.Second,
	}
}

// sane replaces values out of range by their defaults.
func (s fetchSettings) sane() fetchSettings {
	d := defaultFetchSettings()
	if s.maxBytes <= 0 {
		s.maxBytes = d.maxBytes
	}
	if s.maxAttempts <= 0 {
		s.maxAttempts = d.maxAttempts
	}
	if s.deadline <= 0 {
		s.deadline = d.deadline
	}
	if s.readTimeout <= 0 {
		s.readTimeout = d.readTimeout
	}
	if s.headerTimeout < 0 {
		s.headerTimeout = 0
	}
	if s.backoff <= 0 {
		s.backoff = d.backoff
	}
	if s.maxBackoff < s.backoff {
		s.maxBackoff = s.backoff
	}
	return s
}

// WithMaxBytes sets the byte limit on one response body (default 65536).
func WithMaxBytes(n int64) FetchOption { return func(s *fetchSettings) { s.maxBytes = n } }

// WithMaxAttempts sets the number of attempts per Get, retries included
// (default 3).
func WithMaxAttempts(n int) FetchOption { return func(s *fetchSettings) { s.maxAttempts = n } }

// WithDeadline sets the total time budget of one Get, attempts and backoff
// included (default 2s).
func WithDeadline(d time.Duration) FetchOption { return func(s *fetchSettings) { s.deadline = d } }

// WithReadTimeout sets the longest silence while connecting or reading
// headers or body (default 400ms).
func WithReadTimeout(d time.Duration) FetchOption {
	return func(s *fetchSettings) { s.readTimeout = d }
}

// WithHeaderTimeout bounds the whole wait for the response header of one
// attempt, however it dribbles in. The default, 0, leaves the header bounded
// by the read timeout (silence) and the deadline only.
func WithHeaderTimeout(d time.Duration) FetchOption {
	return func(s *fetchSettings) { s.headerTimeout = d }
}

// WithBackoff sets the wait before the first retry, doubled for each next
// one up to max (defaults 25ms and 1s).
func WithBackoff(first, max time.Duration) FetchOption {
	return func(s *fetchSettings) { s.backoff, s.maxBackoff = first, max }
}

// Get sends GET url and returns the response of the attempt that decided
// the outcome. A 200 whose body fits the byte limit returns a nil error.
// Every other outcome is a *Rejection of gate transport: status_404,
// status_429, status_4xx, status_5xx, unexpected_status, connection,
// timeout, deadline or byte_limit. Only connection faults, timeouts, 5xx and
// 429 are retried, at most the attempt limit, inside the deadline, and never
// after ctx is done. When the budget runs out while waiting to retry, the
// last attempt's outcome is returned.
func (f *Fetcher) Get(ctx context.Context, url string) (Fetched, error) {
	ctx, cancel := context.WithTimeout(ctx, f.s.deadline)
	defer cancel()
	wait := f.s.backoff
	for attempts := 1; ; attempts++ {
		out, err := f.attempt(ctx, url)
		out.Attempts = attempts
		if err == nil || !retryable(err) || attempts >= f.s.maxAttempts || !sleep(ctx, wait) {
			return out, err
		}
		wait = min(wait*2, f.s.maxBackoff)
	}
}

// retryable reports whether err is a fault worth another attempt.
func retryable(err error) bool {
	r, ok := AsRejection(err)
	if !ok || r.Gate != protocol.GateTransport {
		return false
	}
	switch r.Reason {
	case protocol.ReasonConnection, protocol.ReasonTimeout, protocol.ReasonStatus5xx, protocol.ReasonStatus429:
		return true
	}
	return false
}

// sleep waits d and reports whether ctx is still live afterwards; it
// returns false at once when ctx ends first or its deadline falls within d.
func sleep(ctx context.Context, d time.Duration) bool {
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= d {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return ctx.Err() == nil
	}
}
