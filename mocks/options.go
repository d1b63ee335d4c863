package mocks

import (
	"fmt"
	"net"
	"net/netip"
)

// Option configures an Upstream. Pass options to NewUpstream.
type Option func(*config)

// config holds every setting of an Upstream; defaults live in newConfig.
type config struct {
	addr            string
	maxRecordedBody int
	maxDiscard      int64
	maxEntries      int
	maxJournalBytes int64
}

// newConfig applies opts over the defaults and validates the result.
func newConfig(opts []Option) (config, error) {
	c := config{
		addr:            "127.0.0.1:0",
		maxRecordedBody: 1 << 20,
		maxDiscard:      64 << 20,
		maxEntries:      10000,
		maxJournalBytes: 64 << 20,
	}
	for _, opt := range opts {
		opt(&c)
	}
	if err := checkLoopback(c.addr); err != nil {
		return config{}, err
	}
	if c.maxRecordedBody < 0 {
		return config{}, fmt.Errorf("max recorded body %d: must not be negative", c.maxRecordedBody)
	}
	if c.maxEntries <= 0 || c.maxJournalBytes < 0 {
		return config{}, fmt.Errorf("journal bounds %d entries, %d bytes: want a positive count and a non-negative size", c.maxEntries, c.maxJournalBytes)
	}
	return c, nil
}

// WithAddr makes the Upstream listen on addr, a loopback "host:port" such as
// "127.0.0.1:9999" or "localhost:0". NewUpstream refuses any other host
// with ErrNotLoopback. The default is "127.0.0.1:0", a free port.
func WithAddr(addr string) Option {
	return func(c *config) { c.addr = addr }
}

// WithMaxRecordedBody keeps at most n bytes of each request body in the
// journal (default 1 MiB). The rest of the body is read and discarded, up to
// a bound; Entry.BodySize still counts it.
func WithMaxRecordedBody(n int) Option {
	return func(c *config) { c.maxRecordedBody = n }
}

// WithJournalBounds keeps at most entries requests in the journal, with at
// most bodyBytes of request bodies in all (defaults 10,000 and 64 MiB), so
// that an adapter flooding the upstream cannot exhaust the harness's
// memory. Requests past the bounds are still answered and counted
// ([Upstream.Received]); a body past the byte bound is kept in part
// (Entry.BodyTruncated).
func WithJournalBounds(entries int, bodyBytes int64) Option {
	return func(c *config) { c.maxEntries, c.maxJournalBytes = entries, bodyBytes }
}

// checkLoopback reports whether addr names a loopback host.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("upstream address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.IsLoopback() {
		return fmt.Errorf("upstream address %q: %w", addr, ErrNotLoopback)
	}
	return nil
}
