package record

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"
)

// The defaults of a [Config], in one place.
const (
	// DefaultMaxBody is the bytes kept per answer when Config.MaxBody is 0.
	DefaultMaxBody = 8 << 20
	// defaultAnswerTimeout bounds one forwarded exchange, body included,
	// when the Client sets no Timeout of its own.
	defaultAnswerTimeout = 2 * time.Minute
	// headerTimeout bounds the wait for the upstream's response headers.
	headerTimeout = 30 * time.Second
	// dialTimeout bounds connecting to the upstream, TLS included.
	dialTimeout = 10 * time.Second
	// deadlineMargin is how much longer than the exchange the proxy's own
	// connection may take, so a 504 still reaches the client.
	deadlineMargin = 5 * time.Second
)

// ErrConfig is returned, wrapped, by [New] for a Config it cannot use.
var ErrConfig = errors.New("invalid record config")

// Config configures a [Recorder]. The zero value of every field but
// Upstream is a usable default.
type Config struct {
	// Upstream is the real upstream's base URL (http or https, with a
	// host); a request is forwarded to Upstream's path joined with the
	// request's path, and the request's query.
	Upstream *url.URL
	// Route is an optional "METHOD /path/{name}/..." template: only
	// matching requests are recorded (others are forwarded and reported
	// by [Recorder.Skipped]), and its {name} segments become each
	// Answer's Arguments. "" records every request and infers the route
	// ([Recorder.Route]).
	Route string
	// MaxBody is the bytes kept per answer (0: [DefaultMaxBody]); a longer
	// answer is forwarded whole but not recorded.
	MaxBody int64
	// MaxAnswers stops recording after this many answers (0: no limit).
	MaxAnswers int
	// Client forwards the requests. nil: a client that dials with
	// timeouts, takes no proxy from the environment and does not
	// decompress. Whatever the client, redirects are never followed: a
	// 3xx is passed back as is. A client that decompresses answers breaks
	// the byte-for-byte promise; such answers get a Note. Each exchange,
	// body included, is bounded by Client.Timeout, or two minutes when
	// it is 0; past it the client gets a 504.
	Client *http.Client
}

// settings is a checked Config with its defaults applied.
type settings struct {
	upstream   *url.URL
	route      *route // nil: infer
	maxBody    int64
	maxAnswers int
	client     *http.Client
	timeout    time.Duration // one exchange, body included
}

// settle checks c and applies its defaults.
func (c Config) settle() (settings, error) {
	if err := checkUpstream(c.Upstream); err != nil {
		return settings{}, err
	}
	if c.MaxBody < 0 || c.MaxAnswers < 0 {
		return settings{}, fmt.Errorf("%w: MaxBody %d and MaxAnswers %d must not be negative", ErrConfig, c.MaxBody, c.MaxAnswers)
	}
	s := settings{upstream: c.Upstream, maxBody: c.MaxBody, maxAnswers: c.MaxAnswers}
	if s.maxBody == 0 {
		s.maxBody = DefaultMaxBody
	}
	if c.Route != "" {
		rt, err := parseRoute(c.Route)
		if err != nil {
			return settings{}, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		s.route = rt
	}
	s.client = noRedirects(c.Client)
	s.timeout = defaultAnswerTimeout
	if s.client.Timeout > 0 {
		s.timeout = s.client.Timeout
	}
	return s, nil
}

// checkUpstream refuses an upstream the proxy cannot forward to.
func checkUpstream(u *url.URL) error {
	switch {
	case u == nil:
		return fmt.Errorf("%w: no Upstream", ErrConfig)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%w: Upstream scheme %q, want http or https", ErrConfig, u.Scheme)
	case u.Host == "":
		return fmt.Errorf("%w: Upstream has no host", ErrConfig)
	case u.User != nil || u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("%w: Upstream must be a base URL without user info, query or fragment", ErrConfig)
	}
	return nil
}

// noRedirects returns a copy of c (or of the default client) that passes
// every redirect back instead of following it.
func noRedirects(c *http.Client) *http.Client {
	var out http.Client
	if c != nil {
		out = *c
	} else {
		out = http.Client{Transport: defaultTransport(), Timeout: defaultAnswerTimeout}
	}
	out.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &out
}

// defaultTransport dials with timeouts, uses no proxy and leaves the
// body encoded as the upstream sent it.
func defaultTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           (&net.Dialer{Timeout: dialTimeout}).DialContext,
		TLSHandshakeTimeout:   dialTimeout,
		ResponseHeaderTimeout: headerTimeout,
		ExpectContinueTimeout: time.Second,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConnsPerHost:   8,
		DisableCompression:    true,
		ForceAttemptHTTP2:     true,
	}
}
