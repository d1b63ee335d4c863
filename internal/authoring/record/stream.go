package record

import (
	"errors"
	"fmt"
	"io"
	"net/http"
)

var (
	// errUpstreamBroke is returned, wrapped, by relay when reading the
	// upstream's body failed.
	errUpstreamBroke = errors.New("upstream body broke off")
	// errClientGone is returned, wrapped, by relay when writing to the
	// client failed.
	errClientGone = errors.New("client went away")
)

// chunkSize is how much of a body is read at a time.
const chunkSize = 32 << 10

// relay writes resp to w (end-to-end headers, status, body, trailers)
// keeping the first keep bytes of the body (never more in memory). Once
// the body is read whole, and before the client can see its end, it
// calls done with the bytes kept and the body's whole length; it does
// not when reading or writing fails.
func relay(w http.ResponseWriter, resp *http.Response, keep int64, done func(kept []byte, total int64)) error {
	copyHeader(w.Header(), resp.Header)
	w.WriteHeader(resp.StatusCode)
	s := &streamer{w: w, rc: http.NewResponseController(w), k: keeper{limit: keep}, length: resp.ContentLength, done: done}
	if err := s.copy(resp.Body); err != nil {
		return err
	}
	for name, values := range resp.Trailer {
		w.Header()[http.TrailerPrefix+name] = values
	}
	return nil
}

// copyHeader sets the end-to-end headers of from on to, and keeps the
// server from adding a Content-Type or a Date the upstream did not send.
func copyHeader(to, from http.Header) {
	for name, values := range endToEnd(from) {
		to[name] = values
	}
	for _, name := range []string{"Content-Type", "Date"} {
		if _, ok := from[name]; !ok {
			to[name] = nil
		}
	}
}

// streamer copies one body to the client chunk by chunk.
type streamer struct {
	w      http.ResponseWriter
	rc     *http.ResponseController
	k      keeper
	length int64 // the declared length, -1 when unknown
	done   func(kept []byte, total int64)
	called bool
}

// copy copies body to the client, flushing each chunk. A body of
// declared length calls done before its last chunk is written; any
// other before the handler returns, which is when the client sees its
// end.
func (s *streamer) copy(body io.Reader) error {
	buf := make([]byte, chunkSize)
	for {
		n, rerr := body.Read(buf)
		if n > 0 {
			if err := s.chunk(buf[:n]); err != nil {
				return err
			}
		}
		switch {
		case rerr == io.EOF:
			s.finish()
			return nil
		case rerr != nil:
			return fmt.Errorf("%w: %w", errUpstreamBroke, rerr)
		}
	}
}

// chunk keeps p and writes it to the client.
func (s *streamer) chunk(p []byte) error {
	s.k.keep(p)
	if s.length >= 0 && s.k.total >= s.length {
		s.finish()
	}
	if _, err := s.w.Write(p); err != nil {
		return fmt.Errorf("%w: %w", errClientGone, err)
	}
	_ = s.rc.Flush() // ErrNotSupported: the server flushes at the end
	return nil
}

// finish calls done, once.
func (s *streamer) finish() {
	if !s.called {
		s.called = true
		s.done(s.k.kept, s.k.total)
	}
}

// keeper keeps the first limit bytes it is given, and counts them all.
type keeper struct {
	limit int64
	kept  []byte
	total int64
}

// keep takes p: what fits under the limit is kept, the capacity never
// growing past the limit.
func (k *keeper) keep(p []byte) {
	k.total += int64(len(p))
	room := k.limit - int64(len(k.kept))
	if room <= 0 {
		return
	}
	p = p[:min(int64(len(p)), room)]
	if need := len(k.kept) + len(p); need > cap(k.kept) {
		grown := make([]byte, len(k.kept), min(max(2*cap(k.kept), need), int(k.limit)))
		copy(grown, k.kept)
		k.kept = grown
	}
	k.kept = append(k.kept, p...)
}
