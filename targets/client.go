package targets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync/atomic"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// Client calls tools on a target as an agent would: every read is bounded
// in bytes and time, redirects are never followed (the 3xx is the output),
// no proxy is used and every call has a fresh connection, so one call's
// leftovers never reach the next. A Client is safe for concurrent use.
type Client struct {
	http    *http.Client
	maxBody int64
	timeout time.Duration
}

type clientConfig struct {
	maxBody    int64
	timeout    time.Duration
	httpClient *http.Client
}

func defaultClientConfig() clientConfig {
	return clientConfig{maxBody: 1 << 20, timeout: 15 * time.Second}
}

// ClientOption configures a Client; see NewClient.
type ClientOption func(*clientConfig)

// WithMaxBody sets how many body bytes a call keeps (default 1 MiB); a longer
// body is cut and marked Truncated. A value <= 0 keeps the default.
func WithMaxBody(n int64) ClientOption {
	return func(c *clientConfig) {
		if n > 0 {
			c.maxBody = n
		}
	}
}

// WithTimeout bounds one call, reading the body included (default 15 s). A
// value <= 0 keeps the default.
func WithTimeout(d time.Duration) ClientOption {
	return func(c *clientConfig) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithHTTPClient makes the client send through hc (a copy of it: its
// CheckRedirect is replaced so that redirects are never followed). Use it to
// reach a target through a custom transport.
func WithHTTPClient(hc *http.Client) ClientOption {
	return func(c *clientConfig) { c.httpClient = hc }
}

// NewClient returns a client with the given options.
func NewClient(opts ...ClientOption) *Client {
	cfg := defaultClientConfig()
	for _, o := range opts {
		o(&cfg)
	}
	hc := &http.Client{Transport: newAgentTransport()}
	if cfg.httpClient != nil {
		copied := *cfg.httpClient
		hc = &copied
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}
	return &Client{http: hc, maxBody: cfg.maxBody, timeout: cfg.timeout}
}

// newAgentTransport returns the default transport: no proxy, no kept-alive
// connections, no transparent decompression (the agent sees the bytes as
// sent), bounded headers, and connections that end with a reset
// (resetOnClose) and keep the first bytes they deliver (keepRaw), to
// quote an answer that is no HTTP.
func newAgentTransport() *http.Transport {
	return &http.Transport{
		Proxy:                  nil,
		DialContext:            keepRaw(resetOnClose((&net.Dialer{Timeout: 5 * time.Second}).DialContext)),
		DisableKeepAlives:      true,
		DisableCompression:     true,
		MaxResponseHeaderBytes: 1 << 20,
		TLSHandshakeTimeout:    5 * time.Second,
	}
}

// resetOnClose makes every TCP connection dial returns end with a reset
// (SO_LINGER 0) when closed: the transport closes a call's connection
// once the answer is read whole, or cut at the byte limit, or the call
// has timed out, so nothing is left to deliver either way. A connection
// closed so leaves no TIME_WAIT socket on either side (the reset ends the
// target's, which closed first), where tens of thousands of calls would
// otherwise leave as many, and a loopback dial then waits on SYN
// retransmissions (seen: dials timing out after a benchmark's 100,000
// connections).
func resetOnClose(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
		return c, err
	}
}

// Invoke calls a tool: POST {base}/v1/tools/{tool}/invoke (tool
// path-escaped) with the body {"arguments": <arguments>}, where arguments
// are sent as given, invalid JSON included; nil sends {}. token, when not
// "", is sent as "Authorization: Bearer <token>". The error wraps ErrTimeout
// or ErrConnection; the Output holds whatever was read even then.
func (c *Client) Invoke(ctx context.Context, base, tool string, arguments []byte, token string) (Output, error) {
	if arguments == nil {
		arguments = []byte("{}")
	}
	body := make([]byte, 0, len(arguments)+16)
	body = append(body, `{"arguments":`...)
	body = append(body, arguments...)
	body = append(body, '}')
	out, err := c.post(ctx, endpoint(base, protocol.InvokePath(tool)), body, token)
	if err != nil {
		return out, fmt.Errorf("invoke %q: %w", tool, err)
	}
	return out, nil
}

// Approve answers a pending approval: POST {base}/v1/approvals/{id}
// (path-escaped) with {"approve": approve}. Errors are as for Invoke.
func (c *Client) Approve(ctx context.Context, base, approvalID string, approve bool, token string) (Output, error) {
	body := fmt.Appendf(nil, `{"approve":%t}`, approve)
	out, err := c.post(ctx, endpoint(base, protocol.ApprovalPath(approvalID)), body, token)
	if err != nil {
		return out, fmt.Errorf("approve %q: %w", approvalID, err)
	}
	return out, nil
}

// Post sends body as is to {base}{path}, for calls Invoke cannot express (a
// body that is not {"arguments": ...}). path must start with "/" and be
// escaped already. Errors are as for Invoke.
func (c *Client) Post(ctx context.Context, base, path string, body []byte, token string) (Output, error) {
	out, err := c.post(ctx, endpoint(base, path), body, token)
	if err != nil {
		return out, fmt.Errorf("post %s: %w", path, err)
	}
	return out, nil
}

// endpoint joins base (without its trailing slashes) and path.
func endpoint(base, path string) string {
	return strings.TrimRight(base, "/") + path
}

// Do sends one request, method to {base}{path} (path escaped already) with
// header and body (nil for none), and reads the response within the
// client's limits: the call of a tool of an HTTP tool service. Errors are
// as for Invoke.
func (c *Client) Do(ctx context.Context, base, method, path string, header http.Header, body []byte) (Output, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, endpoint(base, path), rd)
	if err != nil {
		return Output{}, fmt.Errorf("%s %s: build request: %w", method, path, err)
	}
	maps.Copy(req.Header, header)
	out, err := c.roundTrip(ctx, req)
	if err != nil {
		return out, fmt.Errorf("%s %s: %w", method, path, err)
	}
	return out, nil
}

// post sends one JSON POST and reads the response within the limits.
func (c *Client) post(ctx context.Context, target string, body []byte, token string) (Output, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return Output{}, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", protocol.ContentTypeJSON)
	req.Header.Set("Accept", protocol.ContentTypeJSON)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return c.roundTrip(ctx, req)
}

// roundTrip sends req and reads the response within the limits, noting
// when each part of it arrived.
func (c *Client) roundTrip(ctx context.Context, req *http.Request) (Output, error) {
	start := time.Now()
	var firstByte atomic.Int64 // the transport's goroutines set them
	var wrote atomic.Pointer[error]
	var connected atomic.Bool // a connection reached the target: a body could be sent
	var raw atomic.Pointer[rawConn]
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			connected.Store(true)
			if rc, ok := info.Conn.(*rawConn); ok {
				raw.Store(rc)
			}
		},
		GotFirstResponseByte: func() { firstByte.Store(int64(time.Since(start))) },
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			if info.Err != nil {
				wrote.Store(&info.Err)
			}
		},
	}))
	var sent atomic.Int64 // the body's bytes the transport took
	if req.Body != nil {
		req.Body = &countingBody{ReadCloser: req.Body, n: &sent}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		out := Output{Elapsed: time.Since(start), FirstByteAfter: time.Duration(firstByte.Load())}
		unsent := req.ContentLength > 0 && sent.Load() < req.ContentLength
		if connected.Load() && (wrote.Load() != nil || unsent) && out.FirstByteAfter == 0 {
			err = &unreadBodyError{size: req.ContentLength, err: err}
		}
		return out, classify(ctx, notHTTP(raw.Load(), err))
	}
	defer resp.Body.Close()
	out := Output{
		StatusLine:     resp.Proto + " " + resp.Status,
		StatusCode:     resp.StatusCode,
		Header:         resp.Header,
		FirstByteAfter: time.Duration(firstByte.Load()),
		StatusAfter:    time.Since(start),
	}
	body := &timedReader{r: resp.Body, start: start}
	out.Body, err = io.ReadAll(io.LimitReader(body, c.maxBody+1))
	out.FirstBodyByteAfter, out.LastByteAfter = body.first, body.last
	if int64(len(out.Body)) > c.maxBody {
		out.Body, out.Truncated = out.Body[:c.maxBody:c.maxBody], true
	} else if err == nil {
		out.Trailer = resp.Trailer
	}
	out.Elapsed = time.Since(start)
	if err != nil {
		return out, fmt.Errorf("read body: %w", classify(ctx, err))
	}
	return out, nil
}

// unreadBodyError is a call whose request body the target did not read:
// it closed the connection while the harness was still sending it, and no
// answer arrived. An answer the target wrote before it closed may have
// been lost: a close with unread bytes resets the connection.
type unreadBodyError struct {
	size int64
	err  error
}

func (e *unreadBodyError) Error() string {
	return fmt.Sprintf("the target closed the connection before it read the %d-byte request body, and no answer arrived: "+
		"an answer sent before the body was read is lost to the reset; read or drain the body before closing (docs/protocol.md, \"The agent's side\"; RFC 9112 section 9.6): %v",
		e.size, e.err)
}

func (e *unreadBodyError) Unwrap() error { return e.err }

// countingBody counts the bytes read from a request body into n.
type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	k, err := b.ReadCloser.Read(p)
	b.n.Add(int64(k))
	return k, err
}

// timedReader reads r and notes when, from start, the first and the last
// byte came.
type timedReader struct {
	r           io.Reader
	start       time.Time
	first, last time.Duration
}

func (t *timedReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.last = time.Since(t.start)
		if t.first == 0 {
			t.first = t.last
		}
	}
	return n, err
}

// classify wraps err with ErrTimeout (and context.DeadlineExceeded) when the
// call ran out of time, keeps a cancellation as it is, and wraps anything
// else with ErrConnection.
func classify(ctx context.Context, err error) error {
	var netErr net.Error
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Errorf("%w (%w): %w", ErrTimeout, context.DeadlineExceeded, err)
	case errors.Is(err, context.Canceled):
		return err
	default:
		return fmt.Errorf("%w: %w", ErrConnection, err)
	}
}
