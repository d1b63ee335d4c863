package targets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"sync"
	"syscall"
)

// An answer that is not HTTP: garbage, or a connection closed after some
// bytes, before a status line ended. Go's client reads the first word of
// any line as a protocol and the next as a status code, and says
// "malformed HTTP status code" of garbage; the harness says what came.

// rawBytes is how much of what a connection delivered the client keeps,
// to quote an answer that is not HTTP.
const rawBytes = 256

// statusLine is a complete HTTP/1.x status line: the protocol, a space,
// three digits, then a space and a reason phrase or nothing.
var statusLine = regexp.MustCompile(`^HTTP/\d\.\d \d{3}(?: [^\r\n]*)?\r?\n`)

// rawConn is a connection that keeps the first rawBytes it delivered and
// counts the rest.
type rawConn struct {
	net.Conn
	mu    sync.Mutex
	first []byte
	total int64
	ended bool // a read found the connection closed or reset
}

func (c *rawConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	c.total += int64(n)
	if room := rawBytes - len(c.first); room > 0 && n > 0 {
		c.first = append(c.first, p[:min(room, n)]...)
	}
	c.ended = c.ended || closedEarly(err)
	c.mu.Unlock()
	return n, err
}

// received returns the first bytes delivered, how many there were, and
// whether the connection ended after them.
func (c *rawConn) received() ([]byte, int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.first), c.total, c.ended
}

// keepRaw wraps every connection dial returns in a rawConn.
func keepRaw(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return c, err
		}
		return &rawConn{Conn: c}, nil
	}
}

// notHTTP returns a *NotHTTPError when conn (nil: not known) delivered
// bytes that do not start with a complete status line, err being the
// client's error; else err. A call that timed out is left as it is: its
// bytes may be the start of a status line that never ended.
func notHTTP(conn *rawConn, err error) error {
	var netErr net.Error
	if conn == nil || errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr) && netErr.Timeout() {
		return err
	}
	first, total, ended := conn.received()
	if total == 0 || statusLine.Match(first) {
		return err
	}
	return &NotHTTPError{Start: first, Received: total, Closed: ended || closedEarly(err), Err: err}
}

// closedEarly reports whether err says that the connection ended.
func closedEarly(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}

// NotHTTPError reports an answer that is no HTTP: bytes that do not start
// with an HTTP status line ("HTTP/1.1 200 OK"), whether garbage or a
// connection closed before its status line ended. Client calls return it
// wrapped in ErrConnection; use errors.As to read it.
type NotHTTPError struct {
	// Start holds the first bytes of the answer (at most 256).
	Start []byte
	// Received is how many bytes of the answer were read.
	Received int64
	// Closed reports that the target closed (or reset) the connection
	// after them.
	Closed bool
	// Err is the HTTP client's error.
	Err error
}

// Error quotes the start of the answer and says how it ended.
func (e *NotHTTPError) Error() string {
	quoted := e.Start
	if len(quoted) > 120 {
		quoted = quoted[:120]
	}
	more := ""
	if int64(len(quoted)) < e.Received {
		more = "…"
	}
	msg := fmt.Sprintf("the target answered bytes that are no HTTP status line: %q%s (%d bytes read", quoted, more, e.Received)
	if e.Closed {
		msg += ", then it closed the connection"
	}
	return msg + ")"
}

// Unwrap returns Err.
func (e *NotHTTPError) Unwrap() error { return e.Err }
