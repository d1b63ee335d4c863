package gate

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// Fetched is what [Fetcher.Get] read from the upstream in the attempt that
// decided the outcome. It is filled on error too, so the audit log can hash
// the bytes read.
type Fetched struct {
	// URL is the requested URL.
	URL string
	// Method is the request method, GET or POST.
	Method string
	// Status is the HTTP status of the deciding attempt, 0 when no response
	// arrived.
	Status int
	// Header is the response header of the deciding attempt, or nil.
	Header http.Header
	// Raw holds the body bytes read in the deciding attempt: at most the
	// byte limit plus one.
	Raw []byte
	// Attempts is the number of requests sent, retries included.
	Attempts int
}

// Fetcher sends bounded HTTP requests to an upstream: GET with retries,
// POST without. Build it with
// [NewFetcher]; it is safe for concurrent use. The caller should call Close
// when finished.
type Fetcher struct {
	s      fetchSettings
	client *http.Client
}

// NewFetcher returns a Fetcher with the defaults of docs/protocol.md
// (65536 bytes, 3 attempts, 2 s deadline, 400 ms read timeout, backoff
// from 25 ms doubling) changed by opts. It never follows redirects, ignores
// proxy settings of the environment and opens a new connection per attempt.
func NewFetcher(opts ...FetchOption) *Fetcher {
	s := defaultFetchSettings()
	for _, o := range opts {
		o(&s)
	}
	s = s.sane()
	dialer := &net.Dialer{Timeout: s.readTimeout}
	transport := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &idleConn{Conn: c, timeout: s.readTimeout}, nil
		},
		DisableKeepAlives:      true,
		DisableCompression:     true,
		ResponseHeaderTimeout:  s.headerTimeout,
		MaxResponseHeaderBytes: maxHeaderBytes,
	}
	client := &http.Client{
		Transport: transport,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	return &Fetcher{s: s, client: client}
}

// maxHeaderBytes bounds the response header of one attempt.
const maxHeaderBytes = 64 << 10

// Close releases the fetcher's idle connections.
func (f *Fetcher) Close() error {
	f.client.CloseIdleConnections()
	return nil
}

// attempt sends one GET request and reads the bounded body.
func (f *Fetcher) attempt(ctx context.Context, url string) (Fetched, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return Fetched{URL: url, Method: http.MethodGet}, Reject(protocol.GateTransport, protocol.ReasonConnection, "build request: %w", err)
	}
	return f.send(ctx, req, statusFault)
}

// send sends req, reads the bounded body and judges the status with
// judge, which decides before the byte limit and read errors do.
func (f *Fetcher) send(ctx context.Context, req *http.Request, judge func(*http.Response) error) (Fetched, error) {
	out := Fetched{URL: req.URL.String(), Method: req.Method}
	req.Header.Set("User-Agent", "toolcert-gate/1")
	resp, err := f.client.Do(req)
	if err != nil {
		return out, transportFault(ctx, "send request", err)
	}
	defer resp.Body.Close()
	out.Status, out.Header = resp.StatusCode, resp.Header
	out.Raw, err = ReadLimited(resp.Body, f.s.maxBytes)
	if serr := judge(resp); serr != nil {
		return out, serr // the status decides, whatever the error page's size
	}
	if _, ok := AsRejection(err); ok {
		return out, err
	}
	if err != nil {
		return out, transportFault(ctx, "read body", err)
	}
	return out, nil
}

// transportFault classifies an error of sending or reading: the spent time
// budget (or a cancelled caller) is "deadline", a silent read "timeout",
// everything else "connection".
func transportFault(ctx context.Context, what string, err error) *Rejection {
	if ctx.Err() != nil {
		return Reject(protocol.GateTransport, protocol.ReasonDeadline, "%s: %w", what, err)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return Reject(protocol.GateTransport, protocol.ReasonTimeout, "%s: %w", what, err)
	}
	return Reject(protocol.GateTransport, protocol.ReasonConnection, "%s: %w", what, err)
}

// statusFault returns nil for 200 and the transport rejection of
// [protocol.StatusReason] for every other status.
func statusFault(resp *http.Response) error {
	reason := protocol.StatusReason(resp.StatusCode)
	if reason == "" {
		return nil
	}
	return &Rejection{Gate: protocol.GateTransport, Reason: reason, Err: fmt.Errorf("upstream answered %.80q", resp.Status)}
}

// idleConn sets a read deadline before every Read, so that a peer silent
// for longer than timeout fails the read with a timeout.
type idleConn struct {
	net.Conn
	timeout time.Duration
}

// Read reads with a fresh idle deadline.
func (c *idleConn) Read(p []byte) (int, error) {
	if err := c.Conn.SetReadDeadline(time.Now().Add(c.timeout)); err != nil {
		return 0, err
	}
	return c.Conn.Read(p)
}

var _ net.Conn = (*idleConn)(nil)
