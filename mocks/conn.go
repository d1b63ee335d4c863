package mocks

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"time"
)

// Reasons a wait on a rawConn ends early.
var (
	errAborted    = errors.New("mock upstream reset or closed")
	errClientGone = errors.New("client closed the connection")
)

// maxWatch bounds how many bytes the watcher reads after the request; past
// it the mock stops noticing that the client left (writes still fail).
const maxWatch = 1 << 20

// rawConn is a hijacked connection the mock writes a raw response on. It
// closes itself when its generation ends (Reset or Close) and notices when
// the client closes its side.
type rawConn struct {
	net.Conn
	ctx  context.Context
	gone chan struct{} // closed when reading from the client fails
	stop func() bool   // unregisters the close-on-cancel hook
}

var _ net.Conn = (*rawConn)(nil)

// newRawConn takes over conn, whose unread input is buffered in r.
func newRawConn(ctx context.Context, conn net.Conn, r *bufio.Reader) *rawConn {
	_ = conn.SetDeadline(time.Time{})
	c := &rawConn{Conn: conn, ctx: ctx, gone: make(chan struct{})}
	c.stop = context.AfterFunc(ctx, func() { _ = conn.Close() })
	go c.watch(r)
	return c
}

// watch reads and drops what the client sends after its request, and
// closes gone when the client closes or the connection fails. Like
// net/http, it takes a half-close by the client for leaving.
func (c *rawConn) watch(r *bufio.Reader) {
	if n, _ := io.CopyN(io.Discard, r, maxWatch); n < maxWatch {
		close(c.gone)
	}
}

// Write writes p with a deadline, so a client that stops reading cannot
// hold the handler longer than writeTimeout.
func (c *rawConn) Write(p []byte) (int, error) {
	_ = c.Conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	return c.Conn.Write(p)
}

// wait pauses for d. It returns errAborted if the generation ends first
// and errClientGone if the client leaves first.
func (c *rawConn) wait(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.ctx.Done():
		return errAborted
	case <-c.gone:
		return errClientGone
	case <-t.C:
		return nil
	}
}

// reset closes the connection with a TCP reset instead of a FIN.
func (c *rawConn) reset() {
	if tcp, ok := c.Conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	c.close()
}

// clientCloseWait bounds how long the mock waits, after a whole answer,
// for the client to close its side first.
const clientCloseWait = 250 * time.Millisecond

// closeAfterClient closes the connection once the client has closed its
// side, or after d, or when the generation ends. The side that closes
// first keeps the connection's TIME_WAIT: a mock that closed first would
// keep one per answer, and an adapter's next fresh connection that lands
// on such a port pair waits on SYN retransmissions (seen: upstream dials
// stalling for seconds after tens of thousands of answers).
func (c *rawConn) closeAfterClient(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.gone:
	case <-c.ctx.Done():
	case <-t.C:
	}
	c.close()
}

// close closes the connection; calling it again does nothing harmful.
func (c *rawConn) close() {
	c.stop()
	_ = c.Conn.Close()
}
