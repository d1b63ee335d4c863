package mocks

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"io"
)

// respond delivers r on c, faults included, closes c and reports what was
// sent.
func (u *Upstream) respond(c *rawConn, r Response) Served {
	f := r.Fault
	if f.DelayHeaders > 0 {
		if err := c.wait(f.DelayHeaders); err != nil {
			c.close()
			s := u.unsent(c, r, FaultAborted)
			if errors.Is(err, errClientGone) {
				s.Fault = FaultClientGone
			}
			s.Err = err.Error()
			return s
		}
	}
	switch {
	case f.Reset:
		c.reset()
		return u.unsent(c, r, FaultReset)
	case f.Empty:
		c.close()
		return u.unsent(c, r, FaultEmpty)
	}
	return u.send(c, r)
}

// unsent reports a response of which nothing was written.
func (u *Upstream) unsent(c *rawConn, r Response, fault string) Served {
	h := sha256.New()
	return Served{
		BodySHA256:     hex.EncodeToString(h.Sum(nil)),
		IntendedSHA256: u.intended(c, r, h, 0),
		Fault:          fault,
	}
}

// send writes the head and the body of r, dribbled or truncated as its
// Fault says, then closes c.
func (u *Upstream) send(c *rawConn, r Response) Served {
	head := r.head()
	w := &wire{w: c, skip: len(head), sum: sha256.New()}
	limit := r.bodyLen()
	if r.Fault.TruncateAfter > 0 {
		limit = r.Fault.TruncateAfter
	}
	body := io.LimitReader(r.bodyFrom(0), limit)
	var err error
	if r.Fault.DribbleChunk > 0 {
		err = dribble(c, w, head, body, limit, r.Fault)
	} else {
		err = writeAll(w, head, body, limit)
	}
	if err == nil && r.selfDelimited() {
		c.closeAfterClient(clientCloseWait)
	} else {
		c.close()
	}
	s := Served{BodySHA256: hex.EncodeToString(w.sum.Sum(nil)), BodyBytes: w.n}
	if w.skip == 0 {
		s.Status = r.status()
	}
	s.IntendedSHA256 = u.intended(c, r, w.sum, w.n)
	s.Fault = classify(c, r.Fault, err)
	if err != nil {
		s.Err = err.Error()
	}
	return s
}

// writeAll writes head and n body bytes in as few writes as it can.
func writeAll(w io.Writer, head []byte, body io.Reader, n int64) error {
	bw := bufio.NewWriterSize(w, int(min(32<<10, int64(len(head))+n)))
	if _, err := bw.Write(head); err != nil {
		return err
	}
	if _, err := io.Copy(bw, body); err != nil {
		return err
	}
	return bw.Flush()
}

// dribble writes head, then n body bytes f.DribbleChunk at a time, waiting
// f.DribbleEvery between chunks.
func dribble(c *rawConn, w io.Writer, head []byte, body io.Reader, n int64, f Fault) error {
	if _, err := w.Write(head); err != nil {
		return err
	}
	for left := n; left > 0; {
		if left < n {
			if err := c.wait(f.DribbleEvery); err != nil {
				return err
			}
		}
		k, err := io.CopyN(w, body, min(int64(f.DribbleChunk), left))
		left -= k
		if err != nil {
			return err
		}
	}
	return nil
}

// classify names what happened to a response whose writing ended with err.
func classify(c *rawConn, f Fault, err error) string {
	switch {
	case err != nil && c.ctx.Err() != nil:
		return FaultAborted
	case errors.Is(err, errClientGone):
		return FaultClientGone
	case err != nil:
		return FaultWriteError
	case f.TruncateAfter > 0:
		return FaultTruncated
	case f.DribbleChunk > 0:
		return FaultDribbled
	case f.DelayHeaders > 0:
		return FaultDelayed
	}
	return FaultNone
}

// wire counts and hashes the body bytes that reach the connection: the
// first skip bytes written are the head.
type wire struct {
	w    io.Writer
	skip int
	sum  hash.Hash
	n    int64
}

var _ io.Writer = (*wire)(nil)

// Write implements io.Writer.
func (w *wire) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	q := p[:n]
	if w.skip > 0 {
		k := min(w.skip, len(q))
		w.skip -= k
		q = q[k:]
	}
	w.sum.Write(q)
	w.n += int64(len(q))
	return n, err
}
